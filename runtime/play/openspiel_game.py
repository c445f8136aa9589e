"""BlackPoker as an OpenSpiel Python game (the `openspiel` extra): `import` this module, then
`pyspiel.load_game("blackpoker(format=lite)")`. Only this module imports pyspiel.

* Parameters (strings, as any OpenSpiel game's): `edition`, `format` and `rules` (a local-rule
  file) pick the rule set as `blackpoker simulate` does ("" for the registry's default, no
  file); `seed` and `deals` (ints) the deals.
* The deal is one chance node at the start: outcome i of `deals` equally likely ones plays the
  engine's seeded deal of game i of `simulate --seed SEED` (selfplay.game_seed), the shuffles of
  the whole game included, so a game is a pure function of its chance outcome and actions.
  The engine shuffles from its seed, not card by card, hence one outcome per seed rather than a
  chance node per card.
* Actions: an action is the index of an option in the engine's `legal_options()` at that state
  (its stable order), so the legal actions are 0 .. n-1. `max_actions` (default 1024; random
  games of the built-in formats reach about 140) bounds them: a state with more options is a
  ValueError naming the parameter to raise.
* Imperfect information: a seat's information-state string and observation tensor are made
  from its view (engine/view.py) alone, so they hold no card the seat may not see. The string
  is the view itself (the public record a game of BlackPoker keeps: graveyards, stage, field,
  counts) with the decision count: it does not recall what the seat once saw and lost sight
  of, so it is not perfect recall. `resample_from_infostate` deals the hidden cards anew as
  the search agent does (PublicGame.sample), which OpenSpiel's ISMCTS bot calls.
* Returns: +1 to the winner, -1 to the loser, 0 each for a draw or a game stopped at the
  decision cap (`max_game_length`, selfplay.DECISION_CAP).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option
from blackpoker.runtime.engine.refs import Result
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.play.agents import Agent, decide
from blackpoker.runtime.play.loop import DECISION_CAP
from blackpoker.runtime.play.observation import (
    MAX_ACTIONS,
    SIZE,
    compiled_rules,
    fill,
    indexed_options,
    parts,
)
from blackpoker.runtime.play.roster import make_agent
from blackpoker.runtime.play.selfplay import game_seed

SHORT_NAME = "blackpoker"
DEALS = 1000
PLAYERS = 2
PARAMETERS: dict[str, Any] = {
    "edition": "",
    "format": "",
    "rules": "",
    "seed": 0,
    "deals": DEALS,
    "max_actions": MAX_ACTIONS,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="BlackPoker",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=PLAYERS,
    min_num_players=PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


@dataclass(frozen=True, slots=True)
class Setting:
    """What a game's parameters make: shared by its states and their clones, never copied."""

    rules: Rules
    seed: int
    deals: int
    max_actions: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Setting:
        return self

    @classmethod
    def of(cls, params: dict[str, Any]) -> Setting:
        named = (str(params[k]) for k in ("edition", "format", "rules"))
        setting = cls(
            compiled_rules(*named), int(params["seed"]), int(params["deals"]), int(params["max_actions"])
        )
        if setting.deals < 1 or setting.max_actions < 1:
            raise pyspiel.SpielError("blackpoker: deals and max_actions must be at least 1")
        return setting


class BlackPokerGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**PARAMETERS, **(params or {})}
        self.setting = Setting.of(given)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.setting.max_actions,
            max_chance_outcomes=self.setting.deals,
            num_players=PLAYERS,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=DECISION_CAP,
        )
        super().__init__(_GAME_TYPE, info, given)

    def new_initial_state(self) -> BlackPokerState:
        return BlackPokerState(self, Position(self.setting, None))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> ViewObserver:
        if params:
            raise ValueError(f"blackpoker: observation parameters are not supported, got {params}")
        return ViewObserver(iig_obs_type)


class Position:
    """A state's engine game (None until chance has chosen the deal) and its setting.
    OpenSpiel clones a Python state by deep-copying its attributes: this copies the game the
    engine's way, keeping the compiled rules shared."""

    __slots__ = ("game", "setting")

    def __init__(self, setting: Setting, game: Game | None) -> None:
        self.setting = setting
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return Position(self.setting, None if self.game is None else self.game.copy())


class BlackPokerState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: BlackPokerGame, position: Position) -> None:
        super().__init__(game)
        self.position = position

    @property
    def engine(self) -> Game | None:
        return self.position.game

    @property
    def options(self) -> tuple[Option, ...]:
        engine = self.position.game
        assert engine is not None
        return indexed_options(engine, self.position.setting.max_actions)

    def current_player(self) -> int:
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        player = self.engine.to_move
        assert player is not None
        return player

    def is_terminal(self) -> bool:
        return self.engine is not None and (self.engine.over or self.engine.decisions >= DECISION_CAP)

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(len(self.options)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self.position.setting.deals
        return [(i, 1.0 / deals) for i in range(deals)]

    def _apply_action(self, action: int) -> None:
        position = self.position
        if position.game is None:
            position.game = Game.new(position.setting.rules, game_seed(position.setting.seed, action))
        else:
            position.game.apply(self.options[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action} (seed {game_seed(self.position.setting.seed, action)})"
        # as the acting seat's view names it: a face-down character by reference, never by card
        assert self.engine is not None
        return str(view(self.engine, player).options[action])

    def returns(self) -> list[float]:
        result = None if self.engine is None else self.engine.result
        if result is None or result is Result.DRAW:
            return [0.0, 0.0]
        winner = 0 if result is Result.P1_WINS else 1
        return [1.0 if seat == winner else -1.0 for seat in range(PLAYERS)]

    def information_state_string(self, player: int | None = None) -> str:
        return info_text(self.engine, self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def resample_from_infostate(self, player: int, sampler: Any) -> BlackPokerState:
        """A state `player` cannot tell from this one: every card hidden from the seat dealt
        anew, from a generator seeded by the sampler's draw (OpenSpiel's samplers give floats)."""
        assert self.engine is not None, "the deal is chance's: nothing to resample before it"
        public = view(self.engine, player).public
        assert public is not None
        draw = sampler() if callable(sampler) else random.random()
        dealt = public.sample(random.Random(int(draw * 2**53)))
        return BlackPokerState(self.get_game(), Position(self.position.setting, dealt))

    def __str__(self) -> str:
        if self.engine is None:
            return "deal pending"
        return f"decision {self.engine.decisions}, state {self.engine.state_hash()[:16]}"


def info_text(engine: Game | None, seat: int) -> str:
    """What `seat` knows: its view (hidden cards named by reference only) and the decision count."""
    if engine is None:
        return f"p{seat + 1} before the deal"
    return f"p{seat + 1} decision {engine.decisions} {view(engine, seat)!r}"


class AgentBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our agents (`greedy`, `search:N`, ...; roster.make_agent) as an OpenSpiel bot: it
    decides from the seat's view as in `simulate`, and answers the option's index."""

    def __init__(self, game: BlackPokerGame, name: str, seed: int) -> None:
        super().__init__()
        self.agent = make_agent(name, game.setting.rules.ruleset, seed)

    def step(self, state: BlackPokerState) -> int:
        engine = state.engine
        assert engine is not None and engine.to_move is not None
        seats: list[Agent] = [self.agent, self.agent]
        return state.options.index(decide(engine, seats))

    def restart_at(self, state: BlackPokerState) -> None:
        pass

    def inform_action(self, state: BlackPokerState, player: int, action: int) -> None:
        pass


def play_bots(game: BlackPokerGame, bots: tuple[pyspiel.Bot, pyspiel.Bot], deal: int) -> list[float]:
    """One game of `deal` between two bots (p1's first); the returns."""
    state = game.new_initial_state()
    state.apply_action(deal)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return [float(r) for r in state.returns()]


class ViewObserver:
    """OpenSpiel's PyObserver for BlackPoker: a tensor and a string, both from a seat's view
    (the tensor's layout: play/observation.py). Whatever the observation type asks, a seat's
    private information is its own and the public record is the view's: one tensor serves all."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType | None) -> None:
        self.iig_obs_type = iig_obs_type
        self.tensor = np.zeros(SIZE, np.float32)
        self.dict = parts(self.tensor)

    def set_from(self, state: BlackPokerState, player: int) -> None:
        self.tensor.fill(0)
        if state.engine is not None:
            fill(self.dict, view(state.engine, player), state.engine.decisions)

    def string_from(self, state: BlackPokerState, player: int) -> str:
        return info_text(state.engine, player)


pyspiel.register_game(_GAME_TYPE, BlackPokerGame)
