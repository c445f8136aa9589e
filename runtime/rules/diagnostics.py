"""Located error messages: `path:line:col: message`, with a caret for notation errors."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# A message quotes at most this much of a line or of a value: a long input gets a window
# around its fault, so the size of what is printed does not grow with the input's.
SHOWN_LINE = 160
SHOWN_VALUE = 60


@dataclass(frozen=True, slots=True, order=True)
class Location:
    path: str
    line: int  # 1-based; 0 for a command-line option, which has no line
    col: int  # 1-based, in characters

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}" if self.line else self.path


@dataclass(frozen=True, slots=True)
class Diagnostic:
    location: Location
    message: str
    source: str | None = None  # the source line, shown with a caret under the column
    width: int = 1  # how many characters the caret underlines
    warning: bool = False  # a note: the input is read, but should be written otherwise
    # the neighbour lines shown above and below the source line (an indentation that breaks)
    before: str | None = None
    after: str | None = None

    def render(self) -> str:
        text = f"{self.location}: {'warning: ' if self.warning else ''}{self.message}"
        if self.source is None:
            return text
        line = self.source.rstrip("\n")
        col, width = self.location.col - 1, min(self.width, SHOWN_LINE // 2)
        start = max(0, min(col - SHOWN_LINE // 4, len(line) - SHOWN_LINE))
        lead = display_width(_window(line, start)[: col - start + (1 if start else 0)])
        span = max(1, display_width(line[col : col + width]))
        before, quoted, after = (
            None if part is None else _window(part, start) for part in (self.before, line, self.after)
        )
        shown = [before, quoted, f"{' ' * lead}{'^' * span}", after]
        return "\n".join([text, *(f"    {part}" for part in shown if part is not None)])


def _window(line: str, start: int) -> str:
    """SHOWN_LINE characters of a line from `start`, with … where it is cut."""
    shown = line[start : start + SHOWN_LINE]
    return f"{'…' if start else ''}{shown}{'…' if start + SHOWN_LINE < len(line) else ''}"


def clipped(value: str, limit: int = SHOWN_VALUE) -> str:
    """A value quoted in a message ('…'), cut to `limit` characters."""
    return f"'{value}'" if len(value) <= limit else f"'{value[:limit]}…' ({len(value):,} characters)"


def display_width(text: str) -> int:
    # Full-width characters take two terminal columns, so the caret stays under the error.
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def nearest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The candidate closest to a misspelt word, if any is close enough."""
    near = difflib.get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    return near[0] if near else None


def did_you_mean(word: str, candidates: Iterable[str], show: Callable[[str], str] = "'{}'".format) -> str:
    """The `; did you mean …?` tail of a message about an unknown name ('' when nothing is near)."""
    near = nearest(word, candidates)
    return "" if near is None else f"; did you mean {show(near)}?"


class BlackPokerError(Exception):
    """The root of every error the project raises: each carries located diagnostics, so the
    command line reports any of them the same way (`path:line:col: message`)."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = tuple(sorted(diagnostics, key=lambda d: d.location))
        super().__init__(len(self.diagnostics))

    def __str__(self) -> str:  # rendered when asked: most are reported one by one instead
        return "\n".join(d.render() for d in self.diagnostics)


class CompileError(BlackPokerError):
    """Raised with every problem found, never just the first."""
