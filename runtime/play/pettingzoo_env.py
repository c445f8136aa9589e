"""BlackPoker as a PettingZoo AEC environment (the `pettingzoo` extra): two agents, "p1" and
"p2", taking turns as the engine's decisions fall (a player may decide several times running).

An action is the index of an option in the engine's legal options (as in the OpenSpiel game,
play/openspiel_game.py), out of `Discrete(max_actions)`. Each agent observes a dict:
`observation`, its view as a tensor (play/observation.py), and `action_mask`, 1 at the legal
actions when it is the agent to act, else all 0. Rewards come at the end: +1 the winner, -1
the loser, 0 each for a draw; a game reaching the decision cap is truncated. `reset(seed=S)`
deals the engine's game of seed S (`Game.new`); without a seed the deal is drawn at random.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import Result, result_name
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.play.loop import DECISION_CAP
from blackpoker.runtime.play.observation import MAX_ACTIONS, SIZE, compiled_rules, indexed_options, tensor
from gymnasium import spaces
from pettingzoo import AECEnv

AGENTS = ("p1", "p2")


class BlackPokerEnv(AECEnv):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {
        "name": "blackpoker_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        edition: str | None = None,
        format: str | None = None,
        rules: Path | str | None = None,
        *,
        compiled: Rules | None = None,
        max_actions: int = MAX_ACTIONS,
        render_mode: str | None = None,
    ) -> None:
        """The rule set as `blackpoker simulate` names it (None: the registry's default), or an
        already `compiled` one."""
        super().__init__()
        self.rules = compiled or compiled_rules(edition, format, rules)
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(max_actions) for a in AGENTS}
        observed = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (max_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: observed for a in AGENTS}
        self.game: Game | None = None
        self.chance = random.Random()  # the deal of a reset without a seed

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.chance.seed(seed)
        self.game = Game.new(self.rules, seed if seed is not None else self.chance.getrandbits(63))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._select()

    def _select(self) -> None:
        assert self.game is not None
        seat = self.game.to_move
        self.agent_selection = AGENTS[seat if seat is not None else 0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None
        seat = AGENTS.index(agent)
        mask = np.zeros(self.max_actions, np.int8)
        if not self.game.over and self.game.to_move == seat:
            mask[: len(indexed_options(self.game, self.max_actions))] = 1
        return {"observation": tensor(view(self.game, seat), self.game.decisions), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None and action is not None
        options = indexed_options(game, self.max_actions)
        if not 0 <= action < len(options):
            raise ValueError(f"action {action} is not legal: {len(options)} options (see the action mask)")
        game.apply(options[int(action)])
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        if game.result is not None:
            self.terminations = dict.fromkeys(AGENTS, True)
            if game.result is not Result.DRAW:
                winner = AGENTS[0 if game.result is Result.P1_WINS else 1]
                self.rewards = {a: 1.0 if a == winner else -1.0 for a in AGENTS}
            self.infos = {a: {"result": result_name(game.result)} for a in AGENTS}
        elif game.decisions >= DECISION_CAP:
            self.truncations = dict.fromkeys(AGENTS, True)
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        return f"decision {self.game.decisions}, turn {self.game.state.turn}, {self.agent_selection} to act"

    def close(self) -> None:
        self.game = None


def env(**kwargs: Any) -> BlackPokerEnv:
    """PettingZoo's usual entry point."""
    return BlackPokerEnv(**kwargs)
