"""The invariants: a broken state is caught after the decision that broke it (`Game(check=True)`,
`simulate --check`) or on the final state (simulate's default), and named in the failure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from blackpoker.compiler import compile
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.invariants import InvariantError, check_invariants
from blackpoker.runtime.play import selfplay
from blackpoker.runtime.play.agents import Agent
from blackpoker.runtime.play.loop import Faces
from blackpoker.runtime.play.selfplay import Checks
from blackpoker.runtime.play.simulation import Plan, RulesSource, run_all
from editions_support import EDITIONS, formats
from engine_support import play_random

EDITION = EDITIONS[0]
SMALLEST = formats(EDITION)[0]
RULESET = compile(EDITION, SMALLEST)


def test_a_lost_card_is_caught_after_the_decision_that_lost_it() -> None:
    game = Game.new(RULESET, seed=3, check=True)
    game.state.players[0].life.pop()
    with pytest.raises(InvariantError, match="player 1 has 53 cards instead of 54"):
        game.apply(game.legal_options()[-1])


def test_a_doubled_card_is_caught_on_the_final_state() -> None:
    game = play_random(RULESET, 4, check=False)
    assert game.over
    check_invariants(game)  # a finished game keeps every card once
    me = game.state.players[0]
    me.graveyard.append(me.life[0] if me.life else me.graveyard[0])
    with pytest.raises(InvariantError, match="cards in two places at once"):
        check_invariants(game)


def test_a_card_of_no_deck_and_a_malformed_character_are_named() -> None:
    game = play_random(RULESET, 4, check=False)
    moved = game.state.players[1].graveyard.pop()
    game.state.players[1].graveyard.append(moved + 1000)
    with pytest.raises(InvariantError, match="player 2 has 53 cards"):
        check_invariants(game)
    game.state.players[1].graveyard[-1] = moved
    for unit in (u for p in game.state.players for u in p.field):
        unit.controller = 1 - unit.controller
        with pytest.raises(InvariantError, match="stands on the wrong field"):
            check_invariants(game)
        unit.controller = 1 - unit.controller
    check_invariants(game)


def _lose_a_card_for_the_game(repair: bool) -> Callable[..., None]:
    """A `selfplay.play` that takes a card out of p1's life before the game and, with `repair`,
    puts it back once the game is over."""
    play = selfplay.play

    def planted(
        game: Game,
        agents: Sequence[Agent],
        cap: int,
        uses: Counter[tuple[str, int]] | None = None,
        faces: Faces | None = None,
    ) -> None:
        lost = game.state.players[0].life.pop()
        play(game, agents, cap, uses, faces)
        if repair:
            game.state.players[0].life.append(lost)

    return planted


@pytest.mark.parametrize(
    ("repair", "check", "caught"),
    [
        (False, Checks.END, True),
        (False, Checks.EVERY, True),
        (False, Checks.NONE, False),
        (True, Checks.END, False),  # the end check sees only the final state
        (True, Checks.EVERY, True),
    ],
)
def test_a_run_reports_a_broken_invariant_as_a_failure(
    monkeypatch: pytest.MonkeyPatch, repair: bool, check: Checks, caught: bool
) -> None:
    monkeypatch.setattr(selfplay, "play", _lose_a_card_for_the_game(repair))
    records = run_all(Plan(RulesSource(EDITION, SMALLEST), ("random", "random"), 1, 2, check=check))
    failures = [r.failure for r in records if r.failure is not None]
    if caught:
        assert len(failures) == 2
        assert all("InvariantError: player 1 has 53 cards instead of 54" in f for f in failures)
    else:
        assert failures == []
