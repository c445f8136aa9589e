"""The game as an OpenSpiel Python game (the `openspiel` extra): OpenSpiel's ISMCTS bot plays
our agents through it, and a seat's information state holds nothing it may not see."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")

from pathlib import Path  # noqa: E402

from blackpoker.runtime.engine.game import Game  # noqa: E402
from blackpoker.runtime.play.openspiel_game import AgentBot, BlackPokerState, play_bots  # noqa: E402
from blackpoker.runtime.rules.diagnostics import CompileError  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

LITE = "blackpoker(format=lite)"
MY_STD = Path(__file__).resolve().parents[1] / "examples" / "my-std.yaml"


def ismcts_bot(game: pyspiel.Game, seed: int) -> ismcts.ISMCTSBot:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(seed))


@pytest.mark.parametrize("ours", ["greedy", "search:8"])
def test_openspiels_ismcts_plays_our_agents_to_the_end(ours: str) -> None:
    game = pyspiel.load_game(LITE)
    for deal in (0, 1):
        seats = (ismcts_bot(game, deal), AgentBot(game, ours, deal))
        returns = play_bots(game, seats if deal == 0 else seats[::-1], deal)
        assert sorted(returns) == [-1.0, 1.0]  # a decided game, zero-sum


def dealt(game: pyspiel.Game, deal: int, decisions: int) -> BlackPokerState:
    """The game of `deal` after `decisions` first-option decisions."""
    state = game.new_initial_state()
    state.apply_action(deal)
    for _ in range(decisions):
        state.apply_action(state.legal_actions()[0])
    return state


def test_a_seats_information_state_holds_no_card_it_may_not_see() -> None:
    """Two deals differing only in p1's hidden cards (a hand card swapped with a life card):
    p2's information state, observation and action texts are the same, p1's are not."""
    game = pyspiel.load_game(LITE)
    state = dealt(game, 3, 6)
    assert state.current_player() == 1 and len(state.legal_actions()) > 1
    other = state.clone()
    assert state.engine is not None
    swapped = Game(state.engine.rules, state.engine.state.copy())  # options found afresh
    swapped.decisions = state.engine.decisions
    p1 = swapped.state.players[0]
    p1.hand[0], p1.life[0] = p1.life[0], p1.hand[0]
    other.position.game = swapped
    assert state.information_state_string(1) == other.information_state_string(1)
    assert state.observation_tensor(1) == other.observation_tensor(1)
    assert [state.action_to_string(1, a) for a in state.legal_actions()] == [
        other.action_to_string(1, a) for a in other.legal_actions()
    ]
    assert state.information_state_string(0) != other.information_state_string(0)
    assert state.observation_tensor(0) != other.observation_tensor(0)


def test_a_resampled_state_looks_the_same_to_the_seat_only() -> None:
    game = pyspiel.load_game(LITE)
    state = dealt(game, 5, 10)
    seat = state.current_player()
    sampled = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sampled.information_state_string(seat) == state.information_state_string(seat)
    assert sampled.legal_actions() == state.legal_actions()
    assert sampled.information_state_string(1 - seat) != state.information_state_string(1 - seat)


def test_a_clone_plays_on_alone_and_the_deal_is_the_seeded_one() -> None:
    game = pyspiel.load_game(LITE)
    state = dealt(game, 2, 4)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[-1])
    assert clone.engine.decisions == state.engine.decisions + 1  # type: ignore[union-attr]
    again = dealt(pyspiel.load_game(LITE), 2, 4)
    assert again.information_state_string(0) == state.information_state_string(0)
    moved = dealt(pyspiel.load_game("blackpoker(format=lite,seed=7)"), 2, 4)
    assert moved.information_state_string(0) != state.information_state_string(0)


def test_openspiels_random_simulation_checks_pass_for_a_local_rule() -> None:
    """OpenSpiel's own consistency checks (legal actions, returns, clones, observations) on
    random games of a local-rule file, given as a string parameter."""
    game = pyspiel.load_game("blackpoker", {"rules": str(MY_STD), "format": "my-std"})
    assert game.num_distinct_actions() == 1024
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_bad_parameter_is_refused_with_what_is_wrong() -> None:
    with pytest.raises(CompileError, match="no format 'nope'"):
        pyspiel.load_game("blackpoker(format=nope)")
    with pytest.raises(pyspiel.SpielError, match="deals and max_actions must be at least 1"):
        pyspiel.load_game("blackpoker(deals=0)")
    state = pyspiel.load_game("blackpoker(format=lite,max_actions=2)").new_initial_state()
    state.apply_action(3)
    with pytest.raises(ValueError, match=r"legal options exceed max_actions=2"):
        state.legal_actions()
