"""The search agent's fitted value: its features change sign when the players swap, so the two
players' values sum to 1, the fit (runtime/play/fitting.py) recovers known weights, and the
fitting script prints a table."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
from blackpoker.compiler import compile
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.play.agents import decide
from blackpoker.runtime.play.features import NAMES, WEIGHTS, features, fitted_value, logistic
from blackpoker.runtime.play.fitting import fit, measure
from blackpoker.runtime.play.greedy import GreedyAgent
from editions_support import EDITIONS, formats

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
RULES = compile(EDITIONS[0], formats(EDITIONS[0])[0])


@pytest.fixture
def fit_value(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import fit_value

    yield fit_value
    sys.modules.pop("fit_value", None)


def test_the_features_change_sign_when_the_players_swap() -> None:
    game = Game.new(RULES, 3)
    agents = [GreedyAgent(RULES, 3)] * 2
    seen = set()
    while not game.over:
        mine, theirs = features(game.state, 0), features(game.state, 1)
        assert len(mine) == len(NAMES) == len(WEIGHTS)
        assert mine == tuple(-x for x in theirs)
        assert fitted_value(game.state, 0) + fitted_value(game.state, 1) == pytest.approx(1.0)
        seen.add(mine)
        game.apply(decide(game, agents))
    assert len(seen) > 10  # the features follow the game
    assert game.state.result is not None
    winner = game.state.result.winner
    assert winner is not None
    assert fitted_value(game.state, winner) == 1.0


def test_the_fit_recovers_the_weights_the_results_were_drawn_with() -> None:
    rng = random.Random(1)
    truth = [rng.uniform(-1, 1) for _ in NAMES]
    samples = []
    for _ in range(4000):
        found = tuple(rng.gauss(0, 1) for _ in NAMES)
        samples.append((found, float(rng.random() < logistic(truth, found))))
    fitted = fit(samples)
    assert max(abs(a - b) for a, b in zip(fitted, truth, strict=True)) < 0.15
    loss, right = measure(fitted, samples)
    assert loss < 0.6 and right > 0.7


def test_the_fitting_script_prints_the_weights(fit_value, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    fit_value.main(["2"])
    out = capsys.readouterr().out
    assert re.search(r"\d+ positions fitted, \d+ held out: log-loss [\d.]+", out)
    number = r"-?[\d.]+"
    assert re.search(rf"WEIGHTS = \(({number}, ){{{len(NAMES) - 1}}}{number}\)", out)


def test_the_fitting_games_search_agent_plays_with_the_value_named(fit_value) -> None:  # type: ignore[no-untyped-def]
    # a refit plays with the first fit's weights, kept in the script, so it reproduces
    # whatever features.WEIGHTS holds
    game = (fit_value.FITTED[0], "search", fit_value.FIRST_SEED)
    assert fit_value.positions(*game, "hand-tuned") != fit_value.positions(*game, "first-fit")
    greedy = (fit_value.FITTED[0], "greedy", fit_value.FIRST_SEED)
    assert fit_value.positions(*greedy, "hand-tuned") == fit_value.positions(*greedy, "first-fit")
