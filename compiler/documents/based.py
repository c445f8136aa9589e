"""Based editions: an edition file with `base:` states only what differs from its base.

Its changes are applied to the base's data, and every value keeps the place where it is
written (in the base's file or in this one), so the merged edition is validated, parsed
and linked exactly like one written out in full, each problem located where its text is.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from blackpoker.compiler.load import Document, Mark, PathKey
from blackpoker.runtime.rules.diagnostics import Diagnostic, did_you_mean

LISTS = ("actions", "characters", "fogs")  # changed like an overlay's lists: add / change / remove
# edits of what the edition inherits besides its lists (its base's extra lists and
# regulations), applied where those are read: never part of the edition's own document
INHERITED = ("extra", "regulations")
_NOT_HEADER = ("kind", "base", "formats", *LISTS, *INHERITED)


def apply_changes(base: Document, doc: Document) -> tuple[Document, list[Diagnostic]]:
    """The edition `doc` describes: `base` (a full edition's document) with its changes."""
    merged = Document(doc.path, doc.text, copy.deepcopy(base.data))
    _graft(merged, (), base, ())
    problems: list[Diagnostic] = []
    for key, value in doc.data.items():
        if key not in _NOT_HEADER:  # id and header fields replace the base's
            merged.data[key] = copy.deepcopy(value)
            _graft(merged, (key,), doc, (key,))
    if "formats" in doc.data:
        problems += _formats(merged, doc)
    for name in LISTS:
        if name in doc.data:
            problems += _entries(merged, doc, name)
    return merged, problems


def edit_list(
    base: Document, doc: Document, name: str, of: str, order: Callable[[dict[str, Any]], Any]
) -> tuple[Document, list[Diagnostic]]:
    """`base` with the add / change / remove edits of its list `name` that `doc` writes (`of`
    names the base in messages), the entries sorted by `order`: an overlay's edits of an
    extra list's trumps."""
    merged = Document(doc.path, doc.text, copy.deepcopy(base.data))
    _graft(merged, (), base, ())
    return merged, _entries(merged, doc, name, of, order) if name in doc.data else []


def _formats(merged: Document, doc: Document) -> list[Diagnostic]:
    """Formats removed, changed, and added after a named one (by default last)."""
    edits = doc.data["formats"]
    changes = edits.get("change", {})
    known = [entry["id"] for entry in merged.data["formats"]]
    problems = [
        doc.at(("formats", "remove", i), f"formats.remove: {_unknown(format_id, known)}")
        for i, format_id in enumerate(edits.get("remove", ()))
        if format_id not in known
    ]
    problems += [
        doc.at(("formats", "change", format_id), f"formats.change: {_unknown(format_id, known)}", key=True)
        for format_id in changes
        if format_id not in known
    ]
    entries: list[tuple[dict[str, Any], Document, PathKey]] = [
        ({**entry, **changes.get(entry["id"], {})}, merged, ("formats", i))
        for i, entry in enumerate(merged.data["formats"])
        if entry["id"] not in edits.get("remove", ())
    ]
    for i, added in enumerate(edits.get("add", ())):
        ids = [entry["id"] for entry, _, _ in entries]
        if added["id"] in ids:
            problems.append(
                doc.at(("formats", "add", i, "id"), f"formats.add: '{added['id']}' already exists")
            )
            continue
        after = added.get("after", ids[-1] if ids else None)
        if after is not None and after not in ids:
            problems.append(
                doc.at(("formats", "add", i, "after"), f"formats.add.after: {_unknown(after, ids)}")
            )
            continue
        fields = {k: v for k, v in added.items() if k != "after"}
        entries.insert(ids.index(after) + 1 if after is not None else 0, (fields, doc, ("formats", "add", i)))
    _rebuild(merged, "formats", entries)
    _graft_changes(merged, doc, "formats", entries, changes)
    return problems


def _entries(
    merged: Document,
    doc: Document,
    name: str,
    of: str = "the base edition",
    order: Callable[[dict[str, Any]], Any] | None = None,
) -> list[Diagnostic]:
    edits = doc.data[name]
    singular = name[:-2] if name.endswith("ches") else name[:-1]  # matches: match
    base = merged.data.get(name, [])
    known = [entry["id"] for entry in base]
    problems = []
    for i, entry_id in enumerate(edits.get("remove", ())):
        if entry_id not in known:
            message = f"{name}.remove: no {singular} '{entry_id}' in {of}"
            problems.append(doc.at((name, "remove", i), message))
    for entry_id in edits.get("change", {}):
        if entry_id not in known:
            message = f"{name}.change: no {singular} '{entry_id}' in {of}"
            problems.append(doc.at((name, "change", entry_id), message, key=True))
    entries: list[tuple[dict[str, Any], Document, PathKey]] = []
    for k, entry in enumerate(base):
        if entry["id"] in edits.get("remove", ()):
            continue
        changed = copy.deepcopy(edits.get("change", {}).get(entry["id"], {}))
        entries.append(({**entry, **changed}, merged, (name, k)))
    kept = {entry["id"] for entry, _, _ in entries}
    for i, added in enumerate(edits.get("add", ())):
        if added["id"] in kept:
            message = f"{name}.add: '{added['id']}' already exists; change it instead"
            problems.append(doc.at((name, "add", i, "id"), message))
        kept.add(added["id"])
        entries.append((copy.deepcopy(added), doc, (name, "add", i)))
    if order is not None:
        entries.sort(key=lambda entry: order(entry[0]))
    _rebuild(merged, name, entries)
    _graft_changes(merged, doc, name, entries, edits.get("change", {}))
    return problems


def _graft_changes(
    merged: Document,
    doc: Document,
    name: str,
    entries: list[tuple[dict[str, Any], Document, PathKey]],
    changes: dict[str, dict[str, Any]],
) -> None:
    """Mark each changed field of a base entry as written in `doc`."""
    fields = [
        ((name, j, field), (name, "change", entry["id"], field))
        for j, (entry, source, _) in enumerate(entries)
        for field in (changes.get(entry["id"], {}) if source is merged else ())
    ]
    _drop(merged, *(at for at, _ in fields))
    _graft_all(merged, doc, fields)


def _rebuild(merged: Document, name: str, entries: list[tuple[dict[str, Any], Document, PathKey]]) -> None:
    """Set the list `name` to `entries`, each with the marks of where it was written."""
    sources = [(source, path) for _, source, path in entries]
    old = Document(merged.path, merged.text, None, dict(merged.values), dict(merged.keys))
    _drop(merged, (name,))
    merged.data[name] = [entry for entry, _, _ in entries]
    for source in {id(s): s for s, _ in sources}.values():
        moves = [((name, j), path) for j, (of, path) in enumerate(sources) if of is source]
        _graft_all(merged, old if source is merged else source, moves)


# Marks are found by prefix in one pass over a document's marks for all the entries moved:
# a pass per entry would make a list of n entries cost n² (a based edition adding 2,000).


def _drop(doc: Document, *prefixes: PathKey) -> None:
    """Forget the marks strictly under each prefix."""
    wanted = set(prefixes)
    lengths = sorted({len(prefix) for prefix in wanted})
    for table in (doc.values, doc.keys):
        for path in [p for p in table if any(p[:n] in wanted and len(p) > n for n in lengths)]:
            del table[path]


def _graft(merged: Document, at: PathKey, source: Document, prefix: PathKey) -> None:
    """Copy the marks of `source` under `prefix` to `at`, each naming its file."""
    _graft_all(merged, source, [(at, prefix)])


def _graft_all(merged: Document, source: Document, moves: Sequence[tuple[PathKey, PathKey]]) -> None:
    """For each (at, prefix): copy the marks of `source` under `prefix` to `at`."""
    targets = {prefix: at for at, prefix in moves}
    lengths = sorted({len(prefix) for prefix in targets})
    for table, target in ((source.values, merged.values), (source.keys, merged.keys)):
        for path, mark in list(table.items()):
            for n in lengths:
                at = targets.get(path[:n])
                if at is not None:
                    where = mark.path or source.path
                    target[(*at, *path[n:])] = Mark(
                        mark.line, mark.column, mark.quoted, "" if where == merged.path else where
                    )


def _unknown(value: str, known: list[str]) -> str:
    return f"unknown format '{value}' (declared: {', '.join(known)})"


def part_of(doc: Document, key: str) -> Document:
    """The document of one top-level value (a based edition's `extra:` or `regulations:`
    edits), its marks re-rooted there, so that edits are read as a file of their own would be."""
    n = 1
    values = {path[n:]: mark for path, mark in doc.values.items() if path[:n] == (key,)}
    keys = {path[n:]: mark for path, mark in doc.keys.items() if path[:n] == (key,)}
    return Document(doc.path, doc.text, doc.data[key], values, keys)


def edit_document(
    base: Document, edits: Document, lists: tuple[str, ...], of: str
) -> tuple[Document, list[Diagnostic]]:
    """`base` with `edits` applied, every value keeping where it is written: the entries of
    `lists` added, changed and removed by id, every other field replaced (`of` names the
    base in messages)."""
    merged = Document(edits.path, edits.text, copy.deepcopy(base.data))
    _graft(merged, (), base, ())
    problems: list[Diagnostic] = []
    for key in edits.data:
        if key in lists:
            merged.data.setdefault(key, [])
            problems += _entries(merged, edits, key, of)
    replace_fields(merged, edits, tuple(k for k in edits.data if k not in lists))
    return merged, problems


def change_in_place(
    merged: Document, edits: Document, name: str, places: dict[str, PathKey], of: str
) -> list[Diagnostic]:
    """`name: {change: {ID: fields}}` of `edits` applied to entries that lie anywhere in
    `merged` (`places`: each id's path there): each field given replaces the entry's, marked
    where it is written; an id `merged` lacks is a problem at its key."""
    problems = []
    for entry_id, fields in edits.data.get(name, {}).get("change", {}).items():
        where = (name, "change", entry_id)
        if entry_id not in places:
            known = sorted(places)
            message = f"{name}.change: no {name[:-1]} '{entry_id}' in {of}{did_you_mean(entry_id, known)}"
            problems.append(edits.at(where, message, key=True))
            continue
        entry = _at(merged.data, places[entry_id])
        for field, value in fields.items():
            entry[field] = copy.deepcopy(value)
            _drop(merged, (*places[entry_id], field))
            _graft(merged, (*places[entry_id], field), edits, (*where, field))
    return problems


def replace_fields(merged: Document, edits: Document, keys: tuple[str, ...]) -> None:
    """The top-level fields `keys` of `edits` replace `merged`'s, marked where they are written."""
    for key in keys:
        if key in edits.data:
            _drop(merged, (key,))
            merged.data[key] = copy.deepcopy(edits.data[key])
            _graft(merged, (key,), edits, (key,))


def _at(data: Any, path: PathKey) -> Any:
    for step in path:
        data = data[step]
    return data
