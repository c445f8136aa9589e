"""Hidden information (001 §3.12.1): a player's view never depends on what they may not see."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from blackpoker.compiler import compile
from blackpoker.compiler.program import Choose
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, Option, Pass, RequestOption
from blackpoker.runtime.engine.refs import CharacterByCard
from blackpoker.runtime.engine.state import GameState
from blackpoker.runtime.engine.view import View, view
from blackpoker.runtime.play.selfplay import decide, random_agents
from blackpoker.runtime.scenario.scenario import build, load
from engine_support import scramble

LITE = compile("v7", "lite")

POSITION = """\
kind: scenario
name: view
edition: v7
format: lite
setup:
  turn: p1
  p1: {life: 12, hand: [♡J, ♢Q, ♣2], field: [{as: bulwark, cards: [♢K]}]}
  p2:
    life: 12
    hand: [♠3, ♠4]
    graveyard: [♣7, ♣8]
    field: [{as: bulwark, cards: [♠K]}, {as: soldier, cards: [♡9]}]
commands: []
expect: {}
"""


def _position(tmp_path: Path) -> Game:
    path = tmp_path / "view.yaml"
    path.write_text(POSITION, encoding="utf-8")
    scenario, problems = load(path)
    assert scenario is not None, problems
    return build(scenario)


def test_what_each_player_sees_of_a_position(tmp_path: Path) -> None:
    game = _position(tmp_path)
    mine, theirs = view(game, 0).players
    assert mine.life == 12 and theirs.life == "10+"  # the owner knows the count; 10 or more shows as 10+
    assert mine.hand is not None and len(mine.hand) == 3
    assert theirs.hand is None and theirs.hand_count == 2
    assert theirs.graveyard == (game.state.players[1].graveyard[-1],)  # the top card only
    bulwark, soldier = theirs.field
    assert (
        bulwark.cards == ()
        and bulwark.size is None
        and not bulwark.face_up
        and bulwark.ref.startswith("face-")
    )
    assert soldier.ref == "p2:♡9" and soldier.size == 9
    own_bulwark = mine.field[0]
    assert own_bulwark.ref == "p1:♢K" and own_bulwark.size == 13  # the owner may look at it
    texts = [str(o) for o in view(game, 0).options]
    assert f"防壁破壊 ★♡J♢Q → {bulwark.ref}" in texts and "防壁破壊 ★♡J♢Q → p1:♢K" in texts
    assert not any("♠K" in text for text in texts)
    assert view(game, 1).options == ()  # not deciding: no options
    assert view(game, 1).players[1].field[0].cards == tuple(game.state.players[1].field[0].cards)


def test_a_view_answer_maps_back_to_the_engine_option(tmp_path: Path) -> None:
    game = _position(tmp_path)

    class Destroyer:
        name = "destroyer"
        reads_view = True

        def __init__(self) -> None:
            self.seen: list[tuple[View, Any]] = []

        def choose(self, seen: View, options: Any) -> Option:
            self.seen.append((seen, options))
            return next(o for o in options if str(o).startswith("防壁破壊") and "face-down" in str(o))

    agent = Destroyer()
    chosen = decide(game, (agent, agent))
    assert str(chosen) == "防壁破壊 ★♡J♢Q → p2:♠K"  # the engine's option, with the real card
    ((seen, options),) = agent.seen
    assert isinstance(seen, View) and options is seen.options
    assert not _reaches(seen, (Game, GameState))  # the agent never gets the game


def _reaches(value: Any, kinds: tuple[type, ...]) -> bool:
    if isinstance(value, kinds):
        return True
    if dataclasses.is_dataclass(value):
        return any(_reaches(getattr(value, f.name), kinds) for f in dataclasses.fields(value))
    if isinstance(value, (tuple, list)):
        return any(_reaches(v, kinds) for v in value)
    return False


def _opponent_hidden(state: GameState, me: int) -> set[int]:
    them = state.players[1 - me]
    down = [c for u in them.field if not u.face_up for c in u.cards]
    return {*them.hand, *them.life, *them.graveyard[:-1], *down}


def _option_cards(option: Option) -> set[int]:
    found: set[int] = set()
    if isinstance(option, RequestOption):
        found = {*option.keys, *(c for _, c in option.payment if c is not None)}
    if isinstance(option, Choice):
        found = {c for c in (option.a, option.b) if c is not None}
    if not isinstance(option, Pass) and isinstance(option.target, CharacterByCard):
        found.add(option.target.card)
    return found


def _shown_by_the_effect(game: Game) -> bool:
    """An effect that lets its player look at another player's zone (ハンデス: 手札を見て)."""
    if not game.state.resolving or game.state.resolving[-1].waiting is None:
        return False
    frame = game.state.resolving[-1].frames[-1]
    step = frame.steps[frame.pc]
    return isinstance(step, Choose) and step.owner is not None


@pytest.mark.parametrize(("fmt", "seeds", "least"), [("lite", 12, 3000), ("mast", 6, 1500)])
def test_views_in_random_games_never_depend_on_hidden_cards(fmt: str, seeds: int, least: int) -> None:
    rules = compile("v7", fmt)
    rng = random.Random(0)
    checked = 0
    for seed in range(seeds):
        game = Game.new(rules, seed)
        agents = random_agents(seed)
        while not game.over:
            me = game.to_move
            assert me is not None
            for who in (0, 1):
                seen = view(game, who)
                hidden = _opponent_hidden(game.state, who)
                assert _shown_by_the_effect(game) or not any(_option_cards(o) & hidden for o in seen.options)
                twin = Game(rules, scramble(game.state, who, rng))
                assert dataclasses.replace(view(twin, who), options=()) == dataclasses.replace(
                    seen, options=()
                )
                checked += 1
            game.apply(decide(game, agents))
    assert checked > least
