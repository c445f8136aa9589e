"""Agents pick one of the legal options; they see only their player's view."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Protocol

from blackpoker.runtime.options import Option
from blackpoker.runtime.scenario.notation import NotationError, parse_command
from blackpoker.runtime.state import player_name
from blackpoker.runtime.view import View


class Agent(Protocol):
    name: str  # how a command log's header names the agent

    def choose(self, view: View, options: Sequence[Option]) -> Option: ...


class RandomAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.name = f"random:{seed}"

    def choose(self, view: View, options: Sequence[Option]) -> Option:
        return options[self.rng.randrange(len(options))]


class FirstLegalAgent:
    name = "first-legal"

    def choose(self, view: View, options: Sequence[Option]) -> Option:
        return options[0]


class ScriptedAgent:
    """Plays the given commands in order, in the scenario notation (`pN: ` may be left out)."""

    name = "scripted"

    def __init__(self, commands: Sequence[str]) -> None:
        self.commands = list(commands)

    def choose(self, view: View, options: Sequence[Option]) -> Option:
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
