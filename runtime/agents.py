"""Agents pick one of the legal options; they see only their player's view."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from blackpoker.runtime.options import Option


class Agent(Protocol):
    def choose(self, view: dict[str, Any], options: Sequence[Option]) -> Option: ...


class RandomAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], options: Sequence[Option]) -> Option:
        return options[self.rng.randrange(len(options))]


class FirstLegalAgent:
    def choose(self, view: dict[str, Any], options: Sequence[Option]) -> Option:
        return options[0]


class ScriptedAgent:
    """Plays the given option texts in order (the scenario notation without `pN: `)."""

    def __init__(self, commands: Sequence[str]) -> None:
        self.commands = list(commands)

    def choose(self, view: dict[str, Any], options: Sequence[Option]) -> Option:
        if not self.commands:
            raise LookupError("the script has no command left")
        text = self.commands.pop(0)
        found = next((o for o in options if str(o) == text), None)
        if found is None:
            raise LookupError(f"scripted command '{text}' is not a legal option")
        return found
