"""The engine on real games: set-up, determinism, copies, options and random self-play."""

from __future__ import annotations

from blackpoker.compiler import compile
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Pass, RequestOption
from blackpoker.runtime.play.selfplay import play_random, tally
from blackpoker.runtime.play.simulation import Plan, RulesSource, run_all

LITE = compile("v7", "lite")


def test_setup_deals_seven_and_the_first_player_draws_one_without_a_draw_action() -> None:
    game = Game.new(LITE, seed=3)
    first = game.state.turn_player
    hands = [len(p.hand) for p in game.state.players]
    assert hands[first] == 8 and hands[1 - first] == 7
    assert game.state.chance == first and not game.state.stage  # no ドロー on the first turn
    revealed = [len(p.graveyard) for p in game.state.players]
    assert revealed[0] == revealed[1] >= 1
    assert sum(len(p.life) for p in game.state.players) == 2 * 54 - 15 - sum(revealed)


def test_a_game_is_determined_by_seed_and_decisions() -> None:
    assert play_random(LITE, 7).state_hash() == play_random(LITE, 7).state_hash()
    assert play_random(LITE, 7).state_hash() != play_random(LITE, 8).state_hash()


def test_a_copy_is_independent() -> None:
    game = Game.new(LITE, seed=5)
    twin = game.copy()
    game.apply(next(o for o in game.legal_options() if isinstance(o, RequestOption)))
    assert twin.state_hash() != game.state_hash()
    assert twin.state_hash() == Game.new(LITE, seed=5).state_hash()


def test_chance_holder_always_may_pass_and_options_are_distinct() -> None:
    game = Game.new(LITE, seed=11)
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
    totals = tally(run_all(Plan(RulesSource("v7", "lite"), ("random", "random"), seed=2, games=25)))
    assert totals.failures == []
    assert totals.completed == 25
    assert sum(totals.results.values()) == 25
