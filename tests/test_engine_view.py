"""Hidden information (001 §3.12.1): a player's view never depends on what they may not see."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, Option, Pass, RequestOption, target_text
from blackpoker.runtime.engine.refs import GONE, CharacterByCard, CharacterRef, HiddenCharacter
from blackpoker.runtime.engine.state import GameState
from blackpoker.runtime.engine.view import AtLeast, View, reference_text, view
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.agents import decide
from blackpoker.runtime.play.resolve import resolve_command
from blackpoker.runtime.play.selfplay import random_agents
from blackpoker.runtime.rules.model import Action
from blackpoker.runtime.rules.program import Choose, walk_steps
from engine_support import compiled, format_ids, position, reference_edition, scramble

# a face-down bulwark of each player, and the key cards of a request that may target either
POSITION = "request-aimed-at-a-hidden-character"


def _position() -> tuple[Game, RequestOption]:
    """The position and the engine's option its first command names."""
    game, (step, *_) = position(POSITION)
    request = resolve_command(game, step.command, step.text)
    assert isinstance(request, RequestOption)
    return game, request


def _aimed(request: RequestOption, ref: CharacterRef) -> str:
    """The request's text aimed at the character a view names `ref`."""
    return f"{str(request).split(' → ')[0]} → {target_text(ref)}"


def test_what_each_player_sees_of_a_position() -> None:
    game, request = _position()
    mine, theirs = view(game, 0).players
    assert mine.life == 12 and theirs.life == AtLeast(10)  # the owner knows the count, else 10 or more
    assert str(theirs.life) == "10+"
    assert mine.hand is not None and len(mine.hand) == 3
    assert theirs.hand is None and theirs.hand_count == 2
    assert theirs.graveyard == (game.state.players[1].graveyard[-1],)  # the top card only
    bulwark, soldier = theirs.field
    assert (
        bulwark.cards == ()
        and bulwark.size is None
        and not bulwark.face_up
        and bulwark.ref == HiddenCharacter(game.state.players[1].field[0].uid)
    )
    assert soldier.ref == CharacterByCard(soldier.cards[0]) and soldier.size == 9
    assert target_text(soldier.ref) == "p2:♡9" and target_text(bulwark.ref).startswith("face-down#")
    own_bulwark = mine.field[0]
    assert (
        own_bulwark.ref == CharacterByCard(own_bulwark.cards[0]) and own_bulwark.size == 13
    )  # the owner may look at it
    assert target_text(own_bulwark.ref) == "p1:♢K"
    options = view(game, 0).options
    aimed = {o.target for o in options if isinstance(o, RequestOption)}
    assert {bulwark.ref, own_bulwark.ref} <= aimed  # the options name characters as the view does
    texts = [str(o) for o in options]
    assert _aimed(request, bulwark.ref) in texts and _aimed(request, own_bulwark.ref) in texts
    hidden = label(game.state.players[1].field[0].cards[0])
    assert not any(hidden in text for text in texts)
    assert view(game, 1).options == ()  # not deciding: no options
    assert view(game, 1).players[1].field[0].cards == tuple(game.state.players[1].field[0].cards)


def test_a_request_names_its_player_by_seat_and_a_target_that_left_as_gone() -> None:
    game, request = _position()
    game.apply(request)  # aimed at p2's face-down bulwark
    hidden, shown = (view(game, seat).stage[0] for seat in (0, 1))
    assert hidden.player == shown.player == 0
    assert (
        hidden.target
        == view(game, 0).players[1].field[0].ref
        == HiddenCharacter(game.state.players[1].field[0].uid)
    )
    assert shown.target == CharacterByCard(game.state.players[1].field[0].cards[0])  # its owner sees the card
    assert reference_text(shown.target) == "p2:♠K"
    game.state.players[1].field.pop(0)  # the target leaves the field (as a counter's effect would)
    for seat in (0, 1):
        (left,) = view(game, seat).stage
        assert left.target is GONE and reference_text(left.target) == "gone"


def test_a_view_answer_maps_back_to_the_engine_option() -> None:
    game, request = _position()

    class Destroyer:
        name = "destroyer"
        reads_view = True

        def __init__(self) -> None:
            self.seen: list[tuple[View, Any]] = []

        def choose(self, seen: View, options: Any) -> Option:
            self.seen.append((seen, options))
            return next(o for o in options if str(o).startswith(request.name) and "face-down" in str(o))

    agent = Destroyer()
    chosen = decide(game, (agent, agent))
    assert chosen == request  # the engine's option, with the real card
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


def _shows_a_hand(action: Action) -> bool:
    return any(isinstance(node, Choose) and node.owner for _, node in walk_steps(action.steps))


def _shown_by_the_effect(game: Game) -> bool:
    """An effect that lets its player look at another player's zone (a choice from its hand)."""
    if not game.state.resolving or game.state.resolving[-1].waiting is None:
        return False
    frame = game.state.resolving[-1].frames[-1]
    step = frame.steps[frame.pc]
    return isinstance(step, Choose) and step.owner is not None


@pytest.mark.parametrize(("smallest", "seeds", "least"), [(True, 12, 3000), (False, 6, 1500)])
def test_views_in_random_games_never_depend_on_hidden_cards(smallest: bool, seeds: int, least: int) -> None:
    """The smallest and the largest format of an edition with effects that show a hand."""
    edition = reference_edition(
        lambda source: any(
            isinstance(n, Choose) and n.owner for a in source.actions for _, n in walk_steps(a.steps)
        )
    )
    formats = format_ids(edition)
    rules = compiled(edition, formats[0] if smallest else formats[-1])
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
