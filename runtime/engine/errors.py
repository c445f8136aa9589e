"""The engine's errors: a broken rule or invariant, reported like every other problem."""

from __future__ import annotations

from blackpoker.runtime.rules.diagnostics import BlackPokerError, Diagnostic, Location


class EngineError(BlackPokerError):
    """A rule the engine enforces was broken; located at the game (it has no file line)."""

    def __init__(self, message: str) -> None:
        super().__init__([Diagnostic(Location("game", 0, 0), message)])
        self.message = message


class IllegalOption(EngineError, ValueError):
    """`Game.play` was given an option that is not legal now."""


class InvariantError(EngineError, AssertionError):
    """The state broke an invariant (cards conserved, characters well formed)."""


class NestingLimit(EngineError):
    """An immediate request made inside more than MAX_NESTED resolutions: a request loop."""
