"""The game as a PettingZoo AEC environment (the `pettingzoo` extra): PettingZoo's API test, and
games played through the action masks."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")

from blackpoker.runtime.play.pettingzoo_env import env
from pettingzoo.test import api_test


@pytest.mark.parametrize("format", ["lite", "std"])
def test_pettingzoos_api_test_passes(format: str) -> None:
    api_test(env(format=format), num_cycles=400)


def test_games_played_by_the_masks_end_with_zero_sum_rewards_and_repeat_by_seed() -> None:
    game = env(format="lite")
    endings = []
    for seed in (1, 2, 1):
        game.reset(seed=seed)
        rng = np.random.default_rng(0)
        total = dict.fromkeys(game.possible_agents, 0.0)
        steps = 0
        for agent in game.agent_iter():
            observed, reward, terminated, truncated, _ = game.last()
            total[agent] += reward
            if terminated or truncated:
                game.step(None)
                continue
            legal = np.flatnonzero(observed["action_mask"])
            assert legal.size and observed["observation"].dtype == np.float32
            game.step(int(rng.choice(legal)))
            steps += 1
        assert sorted(total.values()) == [-1.0, 1.0]
        endings.append((steps, total["p1"]))
    assert endings[0] == endings[2]  # the same seed, the same deal and the same game


def test_an_action_outside_the_mask_is_refused() -> None:
    game = env(format="lite")
    game.reset(seed=3)
    observed = game.observe(game.agent_selection)
    with pytest.raises(ValueError, match="not legal"):
        game.step(int(observed["action_mask"].sum()))
