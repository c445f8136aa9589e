"""YAML's structure errors in words: where the indentation breaks, and what the line should be.

PyYAML reports the tokens its parser expected ("expected <block end>, but found
'<block mapping start>'"). The usual causes are few (a key indented one space too far or too
little, a list item at the wrong level, a missing colon, a value on the line after its key),
and each is told by the broken line and the lines above it; the message names them and
shows the neighbour line that the broken one fails to line up with.
"""

from __future__ import annotations

from dataclasses import dataclass

import yaml
from blackpoker.runtime.rules.diagnostics import Diagnostic, Location


@dataclass(frozen=True, slots=True)
class _Line:
    number: int  # 0-based
    text: str

    @property
    def indent(self) -> int:
        return len(self.text) - len(self.text.lstrip(" "))

    @property
    def item(self) -> bool:
        """A list item: `- …` (or a lone `-`)."""
        body = self.text.strip()
        return body == "-" or body.startswith("- ")

    @property
    def key_column(self) -> int:
        """Where its key stands: after the dash of a list item."""
        if not self.item:
            return self.indent
        rest = self.text[self.indent + 1 :]
        return self.indent + 1 + len(rest) - len(rest.lstrip(" "))

    @property
    def key(self) -> str:
        body = self.text[self.key_column :].strip()
        return body.split(":", 1)[0].strip() if ":" in body else body

    @property
    def has_value(self) -> bool:
        """`key: value` with the value on the line (not a key that opens a block)."""
        body = self.text[self.key_column :].split(" #", 1)[0].rstrip()
        return ": " in body and not body.endswith(":")


def structure_error(exc: yaml.MarkedYAMLError, path: str, text: str) -> Diagnostic | None:
    """The error in words, at the line where the structure breaks; None when it is of another kind."""
    lines = text.splitlines()
    mark, problem = exc.problem_mark, exc.problem or ""
    if problem == "could not find expected ':'" and exc.context_mark is not None:
        start = exc.context_mark.line
        return (
            _no_colon(path, _Line(start, lines[start]), _above(lines, start)) if start < len(lines) else None
        )
    if mark is None or not 0 <= mark.line < len(lines):
        return None
    line = _Line(mark.line, lines[mark.line])
    above = _above(lines, mark.line)
    if problem == "mapping values are not allowed here":
        return _colon_inside(path, line, mark.column, above)
    if problem.startswith("expected <block end>, but found"):
        item = problem.endswith(("'-'", "'<block sequence start>'"))
        return _matches_no_level(path, lines, line, above, item)
    return None


def _above(lines: list[str], number: int) -> _Line | None:
    """The nearest line above with content (not blank, not only a comment)."""
    for index in range(number - 1, -1, -1):
        body = lines[index].strip()
        if body and not body.startswith("#"):
            return _Line(index, lines[index])
    return None


def _at(
    path: str, line: _Line, column: int, message: str, above: _Line | None = None, below: _Line | None = None
) -> Diagnostic:
    """Located at `line`, shown with its neighbour (the line above it, or below it)."""
    return Diagnostic(
        Location(path, line.number + 1, column + 1),
        message,
        line.text,
        before=None if above is None else above.text,
        after=None if below is None else below.text,
    )


def _colon_inside(path: str, line: _Line, column: int, above: _Line | None) -> Diagnostic:
    """A ':' where no key can start: after a key that has its value, after a key with no ':',
    a '-' with no space after it, or a value that holds ': '."""
    if ":" in line.text[line.key_column : column]:
        message = f"the value of '{line.key}' holds ': ', which YAML reads as a key: put the value in quotes"
        return _at(path, line, column, message)
    if above is not None and above.text.strip().startswith("-") and not above.item:
        word = above.text.strip().split(":", 1)[0]
        message = (
            f"'{word}' needs a space after '-' to start a list item (- {word[1:]}),"
            f" so '{line.key}' has no item to belong to"
        )
        return _at(path, above, above.indent, message)
    if above is not None and ":" not in above.text and not above.item:
        message = (
            f"'{above.text.strip()}' has no ':' after it, so the lines indented below it belong to no key"
        )
        return _at(path, above, len(above.text.rstrip()), message, below=line)
    if above is not None and line.indent > above.key_column and above.has_value:
        message = (
            f"'{line.key}' is indented {_spaces(line.indent)}, deeper than '{above.key}' above it, which"
            f" already has a value: indent it {_spaces(above.key_column)}, as '{above.key}' is"
        )
        return _at(path, line, line.indent, message, above)
    message = f"'{line.key}:' cannot start a key here: a value that holds ': ' goes in quotes"
    return _at(path, line, column, message, above)


def _matches_no_level(
    path: str, lines: list[str], line: _Line, above: _Line | None, item: bool
) -> Diagnostic:
    """A line indented to no level of the blocks above it: its key (or list item) names the
    levels on either side, and what each would make of it."""
    levels = _levels(lines, line.number)
    dash = next((level for level in levels if level.item and level.indent == line.indent), None)
    if not item and dash is not None:
        message = (
            f"'{line.key}' stands under the '-' of {_named(dash)} (line {dash.number + 1}):"
            f" a field of that item is indented {_spaces(dash.key_column)}, as '{dash.key}' is;"
            " a new item starts with '- '"
        )
        return _at(path, line, line.indent, message, dash if dash is above else above)
    if item and above is not None and not above.item and line.indent == above.indent:
        items = [level for level in levels if level.item and level.indent < line.indent]
        where = (
            f" a new item of the list goes {_spaces(items[0].indent)} in, as its '-' above" if items else ""
        )
        message = f"a list item cannot stand among keys such as '{above.key}', indented as they are;{where}"
        return _at(path, line, line.indent, message.rstrip(";"), above)
    # an item lines up with the items above, a key with the keys
    places = [
        (level.indent if item else level.key_column, level) for level in levels if level.item or not item
    ]
    deeper = [(at, level) for at, level in places if at > line.indent]
    shallower = [(at, level) for at, level in places if at < line.indent]
    choices = [
        f"{_spaces(at)}, as {_named(level)} ({_parent(levels, level)})"
        for at, level in deeper[-1:] + shallower[:1]
    ]
    written = "a list item" if item else f"'{line.key}'"
    fix = f": indent it {' or '.join(choices)}" if choices else ""
    message = f"{written} is indented {_spaces(line.indent)}, which lines up with nothing above it{fix}"
    return _at(path, line, line.indent, message, above)


def _parent(levels: list[_Line], level: _Line) -> str:
    """Where `level` stands: in the key whose block holds it, or at the top of the file."""
    outer = [other for other in levels if other.key_column < level.key_column]
    return f"in {_named(outer[0])}" if outer else "at the top of the file"


def _named(level: _Line) -> str:
    """A key by its name, a list item as written (`the item '- id: heal'`)."""
    if not level.item:
        return f"'{level.key}'"
    written = level.text.strip()
    return f"the item '{written if len(written) <= 24 else written[:23] + '…'}'"


def _spaces(count: int) -> str:
    return f"{count} space" if count == 1 else f"{count} spaces"


def _levels(lines: list[str], number: int) -> list[_Line]:
    """The lines whose blocks are open at line `number`, innermost first: going up, each less
    indented than the one before it."""
    found: list[_Line] = []
    for index in range(number - 1, -1, -1):
        body = lines[index].strip()
        if not body or body.startswith("#"):
            continue
        candidate = _Line(index, lines[index])
        if not found or candidate.indent < found[-1].indent:
            found.append(candidate)
    return found


def _no_colon(path: str, line: _Line, above: _Line | None) -> Diagnostic:
    """A line that is neither `key: value` nor inside a block: a key with no ':', or a value on
    the line after its key."""
    body = line.text.strip()
    if above is not None and above.text.rstrip().endswith(":") and line.indent <= above.key_column:
        message = (
            f"'{body}' stands on a line of its own under '{above.key}:', which has no value: write it after"
            f" the colon ({above.key}: {body}), or indent it deeper than '{above.key}'"
        )
        return _at(path, line, line.indent, message, above)
    key, _, rest = body.partition(" ")
    fix = f" ({key}: {rest.strip()})" if rest.strip() else ""
    message = f"'{body}' has no ':': a key is followed by ':' and a space, then its value{fix}"
    return _at(path, line, line.indent, message, above)
