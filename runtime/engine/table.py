"""What the engine's functions work on: the state, the rules, and where events go.

The engine's modules take a `Table`, never the `Game` façade (runtime/engine/game.py), which
is one. A class, not a protocol: compiled with the engine (mypyc, docs/engine.md), its
`state` and `rules` are read as fields, where a protocol's attributes are looked up by name,
about twenty times a decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec

from blackpoker.runtime.engine.events import Event
from blackpoker.runtime.engine.kept import Kept
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.engine.state import GameState

P = ParamSpec("P")  # the arguments of an event's class, for `record`


class Table:
    state: GameState
    rules: Rules
    kept: tuple[Kept, Kept]  # each player's last option search (runtime/engine/kept.py)
    touched: int  # how many transitions so far changed more than who holds the chance
    # the log, when the game keeps one: the hot paths ask this before calling `record`, a call
    # with its arguments packed per resolution or request that most games would throw away
    events: list[Event] | None

    def record(self, kind: Callable[P, Event], *args: P.args, **kwargs: P.kwargs) -> None:
        """Keep the event `kind(*args, **kwargs)` when a log is kept: it is made only then."""
        raise NotImplementedError
