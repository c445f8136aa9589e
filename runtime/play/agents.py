"""The agent protocol, the simple agents (random, first legal) and `decide`, which asks an
agent for its player's move from that player's view alone; the greedy agent is greedy.py, the
search agent search.py."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option, Pass
from blackpoker.runtime.engine.transitions import draw_below
from blackpoker.runtime.engine.view import View, view


class Agent(Protocol):
    name: str  # how a command log's header names the agent
    # False: `choose` gets no view (None) and the engine's options, in the same order as a
    # view's, so an agent that picks by index chooses alike; building views costs time
    reads_view: bool

    # A view's `public` handle deals full games consistent with it (the search agent plays
    # ahead in them); no agent gets the real game.
    def choose(self, view: View | None, options: Sequence[Option]) -> Option: ...


class Forfeit(Exception):
    """An agent that cannot go on: its player loses the game (an outside program that timed
    out, answered no legal option or exited: outside.py). The message says why."""


def idle(view: View, option: Option) -> bool:
    """A pass on one's own turn with nothing on the stage or resolving: it only hands chance around."""
    return isinstance(option, Pass) and view.turn_player == view.me and not view.stage and not view.resolving


class RandomAgent:
    reads_view = False

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.name = f"random:{seed}"

    def choose(self, view: View | None, options: Sequence[Option]) -> Option:
        return options[draw_below(self.rng, len(options))]  # as rng.randrange draws, faster


class FirstLegalAgent:
    name = "first-legal"
    reads_view = False

    def choose(self, view: View | None, options: Sequence[Option]) -> Option:
        return options[0]


def decide(game: Game, agents: Sequence[Agent]) -> Option:
    """Ask the deciding player's agent for a move; it sees that player's view, never the game.

    The view's options name hidden characters by reference, so the answer is mapped back to
    the engine's option at the same index. An agent that does not read the view gets the
    engine's options, which a view lists in the same order, so it chooses alike.
    """
    player = game.to_move
    assert player is not None
    agent = agents[player]
    options = game.legal_options()
    if not agent.reads_view:
        return agent.choose(None, options)
    seen = view(game, player)
    answer = agent.choose(seen, seen.options)
    if seen.options is options:
        return answer
    index = next((i for i, o in enumerate(seen.options) if o is answer), None)
    return options[seen.options.index(answer) if index is None else index]
