"""Stage 1 — load: bytes → YAML node tree → plain data with a position for every value.

Only PyYAML's safe loader machinery is used. The node tree is checked before any value
is built, so duplicate keys (which PyYAML silently overwrites) and alias bombs (which
expand exponentially) are refused with a location instead of being constructed.
"""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from blackpoker.compiler.yaml_words import structure_error
from blackpoker.runtime.rules.diagnostics import Diagnostic, Location

# Aliases that add more values than this once expanded are refused (the shipped files add a few).
MAX_EXPANDED_NODES = 100_000
MAX_FILE_BYTES = 4 * 1024 * 1024
# Deeper nesting is refused while loading: every later stage walks the tree recursively
# (the shipped files nest at most 12 levels).
MAX_DEPTH = 64
# The characters YAML 1.1 refuses (the reader would stop at the first with no line number).
_NOT_YAML = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

_SURROGATE = re.compile("[\ud800-\udfff]")
_STR = "tag:yaml.org,2002:str"

PathKey = tuple[str | int, ...]


class _Loader(yaml.SafeLoader):
    """The safe loader, except that timestamps stay strings (dates are text in the lists)."""


# libyaml's parser, where installed, reads the shipped lists several times faster; a text it
# refuses is read again by the pure-Python parser, whose messages the located errors quote.
_FAST_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", _Loader)

_Loader.add_constructor(
    "tag:yaml.org,2002:timestamp",
    yaml.SafeLoader.construct_yaml_str,  # type: ignore[type-var]  # the stubs bind the method to SafeLoader
)


@dataclass(frozen=True, slots=True)
class Mark:
    line: int  # 0-based, as PyYAML counts
    column: int
    quoted: bool = False  # the scalar's text starts one column after the mark
    path: str = ""  # the file it stands in, when not the document's own (a based edition's base)


@dataclass
class Document:
    """One YAML file: its data and where every value and key stands in the text."""

    path: str
    text: str
    data: Any
    values: dict[PathKey, Mark] = field(default_factory=dict)
    keys: dict[PathKey, Mark] = field(default_factory=dict)
    # the cost units of the edition the file is written for, once known: what a notation
    # message offers (None: every unit the notation has)
    cost_units: tuple[str, ...] | None = None

    def line(self, number: int) -> str:
        lines = self.text.splitlines()
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def locate(self, path: PathKey, *, key: bool = False) -> Location:
        """The location of a value (or of its key), falling back to the nearest parent."""
        table = self.keys if key and path in self.keys else self.values
        while path and path not in table:
            path = path[:-1]
        mark = table.get(path, Mark(0, 0))
        return Location(mark.path or self.path, mark.line + 1, mark.column + 1)

    def at(self, path: PathKey, message: str, *, key: bool = False) -> Diagnostic:
        return Diagnostic(self.locate(path, key=key), message)

    def at_text(self, path: PathKey, start: int, width: int, message: str) -> Diagnostic:
        """A diagnostic inside a one-line scalar, `start` characters into its text."""
        mark = self.values.get(path, Mark(0, 0))
        col = mark.column + 1 + int(mark.quoted) + start
        where = Location(mark.path or self.path, mark.line + 1, col)
        return Diagnostic(where, message, None if mark.path else self.line(mark.line + 1), width)


def load_file(path: Path, display: str | None = None) -> tuple[Document | None, list[Diagnostic]]:
    shown = display or str(path)
    raw, problems = read_regular_file(path, shown, MAX_FILE_BYTES)
    if raw is None:
        return None, problems
    return load_bytes(raw, shown)


def read_regular_file(path: Path, shown: str, limit: int) -> tuple[bytes | None, list[Diagnostic]]:
    """The bytes of a regular file of at most `limit` bytes, or why not.

    The type and size are checked before opening: a FIFO would block the open (or the read)
    forever, and a huge file would be read whole before being refused.
    """
    where = Location(shown, 1, 1)
    try:
        info = path.stat()
    except OSError as exc:
        return None, [Diagnostic(where, f"cannot read file: {exc.strerror}")]
    if stat.S_ISDIR(info.st_mode):
        return None, [Diagnostic(where, "is a folder; expected a file")]
    if not stat.S_ISREG(info.st_mode):
        return None, [Diagnostic(where, "not a regular file (a FIFO, socket or device); refusing to read it")]
    if info.st_size > limit:
        return None, [Diagnostic(where, f"file is larger than {limit // 1024} KiB")]
    try:
        with path.open("rb") as file:
            raw = file.read(limit + 1)  # the file may have grown since stat
    except OSError as exc:
        return None, [Diagnostic(where, f"cannot read file: {exc.strerror}")]
    if len(raw) > limit:
        return None, [Diagnostic(where, f"file is larger than {limit // 1024} KiB")]
    return raw, []


def load_bytes(raw: bytes, path: str) -> tuple[Document | None, list[Diagnostic]]:
    """The document and the problems found; no document when the text gives no usable tree.

    A document may come with problems: the entries they concern are left out of its data.
    """
    if len(raw) > MAX_FILE_BYTES:
        return None, [Diagnostic(Location(path, 1, 1), f"file is larger than {MAX_FILE_BYTES // 1024} KiB")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [_bad_utf8(raw, exc, path)]
    text = text.removeprefix("\ufeff")
    if not text.strip() or all(_is_comment(line) for line in text.splitlines()):
        return None, [Diagnostic(Location(path, 1, 1), "file is empty: expected a YAML mapping")]
    problems = _tabs(text, path)
    refused = _bad_characters(text, path)
    if refused:  # the reader would stop at the first, with no line number
        return None, problems + refused
    try:
        try:
            shape = _shape_problems(text, path, _FAST_LOADER)
            nodes = [] if shape else list(yaml.compose_all(text, Loader=_FAST_LOADER))
        except yaml.MarkedYAMLError:
            shape = _shape_problems(text, path, _Loader)
            nodes = [] if shape else list(yaml.compose_all(text, Loader=_Loader))
        if shape:
            return None, problems + shape
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        if not any(p.location.line == line for p in problems):
            problems.append(_syntax(exc, path, text))
        return None, problems
    if len(nodes) != 1:
        where = nodes[1].start_mark if len(nodes) > 1 else None
        line = where.line + 1 if where else 1
        problems.append(Diagnostic(Location(path, line, 1), "expected one YAML document, found several"))
        return None, problems
    root = nodes[0]
    if problems:
        return None, problems
    return _build(root, path, text)


def _is_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _bad_utf8(raw: bytes, exc: UnicodeDecodeError, path: str) -> Diagnostic:
    before = raw[: exc.start]
    line = before.count(b"\n") + 1
    col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")) + 1
    return Diagnostic(
        Location(path, line, col), f"invalid UTF-8: byte 0x{raw[exc.start]:02x} cannot start a character"
    )


def _bad_characters(text: str, path: str) -> list[Diagnostic]:
    problems = []
    for number, line in enumerate(text.split("\n"), 1):
        for match in _NOT_YAML.finditer(line):
            problems.append(
                Diagnostic(
                    Location(path, number, match.start() + 1),
                    f"character U+{ord(match.group()):04X} is not allowed in YAML",
                    _NOT_YAML.sub("?", line),
                )
            )
    return problems


def _shape_problems(text: str, path: str, loader: type[yaml.SafeLoader]) -> list[Diagnostic]:
    """Nesting deeper than MAX_DEPTH (aliases expanded) and aliases inside their own anchor.

    Found from the event stream, which needs no recursion, before the recursive composer runs.
    """
    open_anchors: list[str | None] = []
    heights: dict[str, int] = {}  # anchor -> nesting height of its node
    child_height: list[int] = [0]  # per open collection: the highest child so far
    for event in yaml.parse(text, Loader=loader):
        mark = event.start_mark
        assert mark is not None  # the parser marks every event
        where = Location(path, mark.line + 1, mark.column + 1)
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in open_anchors:
                return [Diagnostic(where, f"alias *{event.anchor} refers to a node that contains it")]
            height = heights.get(event.anchor or "", 0)
        elif isinstance(event, yaml.CollectionStartEvent):
            if len(open_anchors) + 1 > MAX_DEPTH:
                return [Diagnostic(where, f"nested more than {MAX_DEPTH} levels deep")]
            open_anchors.append(event.anchor)
            child_height.append(0)
            continue
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor = open_anchors.pop()
            height = child_height.pop() + 1
            if anchor:
                heights[anchor] = height
        elif isinstance(event, yaml.ScalarEvent):
            height = 0
        else:
            continue
        if len(open_anchors) + height > MAX_DEPTH:
            return [Diagnostic(where, f"nested more than {MAX_DEPTH} levels deep once aliases are expanded")]
        child_height[-1] = max(child_height[-1], height)
    return []


def _tabs(text: str, path: str) -> list[Diagnostic]:
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        col = line.find("\t")
        if col >= 0 and not line[:col].lstrip().startswith("#"):
            problems.append(
                Diagnostic(
                    Location(path, number, col + 1), "tab character: YAML is indented with spaces", line
                )
            )
    return problems


def _syntax(exc: yaml.MarkedYAMLError, path: str, text: str) -> Diagnostic:
    worded = structure_error(exc, path, text)
    if worded is not None:
        return worded
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    what = exc.problem or "invalid YAML"
    if exc.context:
        what = f"{exc.context}: {what}"
    opened = exc.context_mark
    if opened and mark and (opened.line, opened.column) != (mark.line, mark.column):
        what += f" (it started at line {opened.line + 1}, column {opened.column + 1})"
    lines = text.splitlines()
    source = lines[line - 1] if 0 < line <= len(lines) else None
    return Diagnostic(Location(path, line, col), f"YAML syntax error: {what}", source)


def _build(root: yaml.Node, path: str, text: str) -> tuple[Document | None, list[Diagnostic]]:
    distinct, alias = _distinct_nodes(root)
    # Only what aliases add counts: a large file without them is just large (its size is bounded).
    cap = MAX_EXPANDED_NODES + distinct
    if alias is not None and _expanded_size(root, {}, cap) - distinct > MAX_EXPANDED_NODES:
        return None, [
            Diagnostic(
                Location(path, alias.line + 1, alias.column + 1),
                f"aliases expand to more than {MAX_EXPANDED_NODES:,} values; "
                "refusing to expand (alias bomb?)",
            )
        ]
    doc = Document(path, text, None)
    problems: list[Diagnostic] = []
    doc.data = _value(root, (), doc, problems, _Loader(""))
    # A duplicate key, a merge key or a refused scalar leaves the rest of the tree usable
    # (the entry is skipped), so the later stages still check it: all problems in one run.
    return doc, problems


def _expanded_size(node: yaml.Node, memo: dict[int, int], cap: int) -> int:
    """The values of the tree once aliases are expanded, counted up to `cap`."""
    # Aliases share node objects, so memoising on identity counts the expansion in linear time.
    known = memo.get(id(node))
    if known is not None:
        return known
    memo[id(node)] = 1  # a recursive alias counts once instead of looping
    if isinstance(node, yaml.MappingNode):
        size = 1 + sum(_expanded_size(k, memo, cap) + _expanded_size(v, memo, cap) for k, v in node.value)
    elif isinstance(node, yaml.SequenceNode):
        size = 1 + sum(_expanded_size(item, memo, cap) for item in node.value)
    else:
        size = 1
    memo[id(node)] = min(size, cap + 1)
    return memo[id(node)]


def _distinct_nodes(root: yaml.Node) -> tuple[int, yaml.Mark | None]:
    """How many nodes the text writes, and where the first alias's node is (None: no alias)."""
    seen: set[int] = set()
    first: yaml.Mark | None = None
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            first = first or node.start_mark
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack.extend(v for pair in reversed(node.value) for v in reversed(pair))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
    return len(seen), first


def _mark(node: yaml.Node) -> Mark:
    quoted = isinstance(node, yaml.ScalarNode) and node.style in ("'", '"')
    return Mark(node.start_mark.line, node.start_mark.column, quoted)


def _value(node: yaml.Node, path: PathKey, doc: Document, problems: list[Diagnostic], loader: _Loader) -> Any:
    doc.values.setdefault(path, _mark(node))
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                problems.append(doc.at(path, "mapping keys must be plain text"))
                continue
            if key_node.tag == "tag:yaml.org,2002:merge":
                mark = key_node.start_mark
                problems.append(
                    Diagnostic(
                        Location(doc.path, mark.line + 1, mark.column + 1),
                        "merge keys (<<) are not supported",
                    )
                )
                continue
            key = str(_scalar(key_node, doc, problems, loader))
            if key in result:
                mark, first = key_node.start_mark, doc.keys[(*path, key)]
                problems.append(
                    Diagnostic(
                        Location(doc.path, mark.line + 1, mark.column + 1),
                        f"duplicate key '{key}' (first defined on line {first.line + 1})",
                    )
                )
                continue
            doc.keys[(*path, key)] = _mark(key_node)
            result[key] = _value(value_node, (*path, key), doc, problems, loader)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_value(item, (*path, i), doc, problems, loader) for i, item in enumerate(node.value)]
    return _scalar(node, doc, problems, loader)


def _scalar(node: yaml.Node, doc: Document, problems: list[Diagnostic], loader: _Loader) -> Any:
    if node.tag == _STR:  # what the constructor gives for text (most scalars), without its calls
        value = node.value
    else:
        try:
            value = loader.construct_object(node)
        except yaml.YAMLError:
            # e.g. a !!python/object tag: the safe loader knows no such type, and neither do we.
            problems.append(Diagnostic(_where(node, doc), f"unsupported YAML tag {node.tag}"))
            return None
    if isinstance(value, str) and _SURROGATE.search(value):
        # A \ud800 escape decodes to half a UTF-16 pair, which no UTF-8 output can hold.
        message = "text holds a lone surrogate (an escape in \\uD800-\\uDFFF): not a character"
        problems.append(Diagnostic(_where(node, doc), message))
        return _SURROGATE.sub("\ufffd", value)  # still text, so later stages check the rest
    return value


def _where(node: yaml.Node, doc: Document) -> Location:
    return Location(doc.path, node.start_mark.line + 1, node.start_mark.column + 1)
