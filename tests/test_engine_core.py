"""The engine on real games: set-up, determinism, copies, options and random self-play."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from blackpoker.compiler import compile
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option, Pass, RequestOption
from blackpoker.runtime.engine.state import GameState, PlayerState
from blackpoker.runtime.engine.transitions import shuffle
from blackpoker.runtime.engine.view import View
from blackpoker.runtime.play.agents import RandomAgent
from blackpoker.runtime.play.loop import play
from blackpoker.runtime.play.selfplay import random_agents
from blackpoker.runtime.play.simulation import Plan, RulesSource, run_all
from blackpoker.runtime.play.stats import Summary, summarize
from editions_support import EDITIONS, formats
from engine_support import play_random

EDITION = EDITIONS[0]
SMALLEST = formats(EDITION)[0]
RULESET = compile(EDITION, SMALLEST)


def test_setup_deals_seven_and_the_first_player_draws_one_without_a_draw_action() -> None:
    game = Game.new(RULESET, seed=3)
    first = game.state.turn_player
    hands = [len(p.hand) for p in game.state.players]
    size = RULESET.edition.core.hand_size
    assert hands[first] == size + 1 and hands[1 - first] == size
    assert game.state.chance == first and not game.state.stage  # no draw action on the first turn
    revealed = [len(p.graveyard) for p in game.state.players]
    assert revealed[0] == revealed[1] >= 1
    assert sum(len(p.life) for p in game.state.players) == 2 * 54 - (2 * size + 1) - sum(revealed)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 54, 108])
def test_the_engine_shuffles_as_random_shuffle_does(size: int) -> None:
    """The engine's compiled shuffle puts a pile in the order `random.shuffle` does from the
    same generator state, and leaves the generator where it leaves it: seeds deal as before."""
    for seed in range(20):
        state = GameState((PlayerState(), PlayerState()), random.Random(seed))
        pile = list(range(size))
        shuffle(state, pile)
        reference, expected = random.Random(seed), list(range(size))
        reference.shuffle(expected)
        assert pile == expected
        assert state.rng.getstate() == reference.getstate()


def test_a_game_is_determined_by_seed_and_decisions() -> None:
    assert play_random(RULESET, 7).state_hash() == play_random(RULESET, 7).state_hash()
    assert play_random(RULESET, 7).state_hash() != play_random(RULESET, 8).state_hash()


def test_a_copy_is_independent() -> None:
    game = Game.new(RULESET, seed=5)
    twin = game.copy()
    game.apply(next(o for o in game.legal_options() if isinstance(o, RequestOption)))
    assert twin.state_hash() != game.state_hash()
    assert twin.state_hash() == Game.new(RULESET, seed=5).state_hash()


def test_chance_holder_always_may_pass_and_options_are_distinct() -> None:
    game = Game.new(RULESET, seed=11)
    for _ in range(300):
        if game.over:
            break
        options = game.legal_options()
        texts = [str(o) for o in options]
        assert len(texts) == len(set(texts))
        if not game.state.resolving:
            assert isinstance(options[-1], Pass)
        game.apply(options[len(options) // 2])


def test_random_self_play_finishes_with_invariants_on() -> None:
    totals = _summary(Plan(RulesSource(EDITION, SMALLEST), ("random", "random"), seed=2, games=25))
    assert totals.failures == ()
    assert totals.completed == 25
    assert totals.p1.count + totals.p2.count + totals.draws.count == 25


PINS = yaml.safe_load((Path(__file__).parent / "data" / "a" / "pins.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("pin", PINS["selfplay"], ids=lambda pin: f"{pin['edition']}-{pin['format']}")
def test_seeded_self_play_plays_the_games_it_always_played(pin: dict[str, Any]) -> None:
    """A regression pin (tests/data/a/pins.yaml): option order, agents' draws and the flow
    decide these figures, so a change to any of them that alters a game shows here."""
    plan = Plan(
        RulesSource(pin["edition"], pin["format"]), ("random", "random"), seed=pin["seed"], games=pin["games"]
    )
    totals = _summary(plan)
    assert (totals.decisions, totals.p1.count, totals.p2.count) == (
        pin["decisions"],
        pin["p1"],
        pin["p2"],
    )


def _summary(plan: Plan) -> Summary:
    """A run's figures, as `simulate` reports them."""
    return summarize(run_all(plan), plan.source.compile(), plan.agents, plan.seed, 0.0)


class _Seeing(RandomAgent):
    """The random agent, handed views: it must choose exactly as the blind one does."""

    reads_view = True

    def __init__(self, seed: int, seen: list[View | None]) -> None:
        super().__init__(seed)
        self.seen = seen

    def choose(self, view: View | None, options: Sequence[Option]) -> Option:
        self.seen.append(view)
        assert view is not None and options is view.options
        return super().choose(view, options)


def test_an_agent_that_reads_no_view_chooses_as_with_one() -> None:
    for seed in (1, 2, 3):
        blind = Game.new(RULESET, seed)
        play(blind, random_agents(seed))
        seen: list[View | None] = []
        seeing = Game.new(RULESET, seed)
        play(seeing, (_Seeing(seed * 2 + 1, seen), _Seeing(seed * 2 + 2, seen)))
        assert seeing.state_hash() == blind.state_hash()
        assert len(seen) == seeing.decisions and all(isinstance(v, View) for v in seen)
