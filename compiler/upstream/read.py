"""Read an upstream list with the project's loader: every value with its position, every
bad-input check. One upstream defect is tolerated: a key repeated with the same value
(edition 7's 防壁 says `charType: 防壁` twice) is a note, not an error."""

from __future__ import annotations

from pathlib import Path

import yaml
from blackpoker.compiler.load import Document, load_file
from blackpoker.runtime.rules.diagnostics import Diagnostic, Location


def read_upstream(path: Path, shown: str) -> tuple[Document | None, list[Diagnostic], list[Diagnostic]]:
    """The document, its problems, and notes on the defects tolerated."""
    doc, problems = load_file(path, shown)
    if doc is None or not problems:
        return doc, problems, []
    harmless = _same_value_repeats(doc)
    notes = [
        Diagnostic(where, f"key '{key}' is repeated with the same value; the repeat is ignored")
        for where, key in harmless.items()
    ]
    return doc, [p for p in problems if p.location not in harmless], notes


def _same_value_repeats(doc: Document) -> dict[Location, str]:
    """Where a mapping repeats a key with an equal value (the loader has already refused
    everything unsafe, so composing the text again is safe)."""
    found: dict[Location, str] = {}
    stack = [yaml.compose(doc.text, Loader=yaml.SafeLoader)]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            first: dict[str, yaml.Node] = {}
            for key, value in node.value:
                name = key.value if isinstance(key, yaml.ScalarNode) else None
                if name is not None and name in first and _same(first[name], value):
                    mark = key.start_mark
                    found[Location(doc.path, mark.line + 1, mark.column + 1)] = name
                elif name is not None:
                    first.setdefault(name, value)
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return found


def _same(a: yaml.Node, b: yaml.Node) -> bool:
    if isinstance(a, yaml.ScalarNode) and isinstance(b, yaml.ScalarNode):
        return bool(a.tag == b.tag and a.value == b.value)
    if isinstance(a, yaml.SequenceNode) and isinstance(b, yaml.SequenceNode):
        return len(a.value) == len(b.value) and all(map(_same, a.value, b.value))
    if isinstance(a, yaml.MappingNode) and isinstance(b, yaml.MappingNode):
        return len(a.value) == len(b.value) and all(
            _same(ka, kb) and _same(va, vb) for (ka, va), (kb, vb) in zip(a.value, b.value, strict=True)
        )
    return False
