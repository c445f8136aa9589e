"""The agent protocol, the simple agents (random, first legal, scripted) and `decide`, which asks
an agent for its player's move from that player's view alone; the greedy agent is greedy.py."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Protocol

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option, Pass
from blackpoker.runtime.engine.refs import player_name
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


class ScriptedAgent:
    """Plays the given commands in order, in the scenario notation (`pN: ` may be left out)."""

    name = "scripted"
    reads_view = True

    def __init__(self, commands: Sequence[str]) -> None:
        self.commands = list(commands)

    def choose(self, view: View | None, options: Sequence[Option]) -> Option:
        assert view is not None
        if not self.commands:
            raise LookupError("the script has no command left")
        text = self.commands.pop(0)
        found = by_command(text, view.me, options)
        if isinstance(found, str):
            raise LookupError(f"scripted command '{text}': {found}")
        return found


def by_command(text: str, me: int, options: Sequence[Option]) -> Option | str:
    """The option a command names, or why there is none.

    An option's own text is taken as it is (a view names hidden characters `face-down#N`,
    which the notation has no form for); otherwise the command is read in the notation, so
    key cards and payments may come in any order.
    """
    # the notation's parser (Lark) is loaded by the first command read, not by every agent's import
    from blackpoker.runtime.play.notation import NotationError, parse_command

    written = text if re.match(r"p[12]\s*:", text) else f"{player_name(me)}: {text}"
    exact = next((o for o in options if f"{player_name(me)}: {o}" == written), None)
    if exact is not None:
        return exact
    try:
        command = parse_command(written)
    except NotationError as error:
        return error.message
    if command.player != me:
        return f"{player_name(command.player)} does not decide now: {player_name(me)} does"
    body = command.body()
    found = next((o for o in options if str(o) == body), None)
    return found if found is not None else f"'{body}' is not one of the options now"
