"""What the engine's functions work on: the state, the rules, and where events go.

The engine's modules take a `Table`, never the `Game` façade (runtime/engine/game.py), which
is one. Anything that holds a state and a rules context and takes events can run the core
flow, the interpreter and the option search, e.g. a search agent's own light copy.
"""

from __future__ import annotations

from typing import Protocol

from blackpoker.runtime.engine.events import Event
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.engine.state import GameState


class Table(Protocol):
    @property
    def state(self) -> GameState: ...

    @property
    def rules(self) -> Rules: ...

    def record(self, event: Event) -> None:
        """Keep an event when a log is kept."""
