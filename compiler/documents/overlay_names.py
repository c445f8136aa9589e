"""Overlays may name the entries they change, remove or take by their printed (Japanese)
name: `change: {サーチ: …}`, `remove: [サーチ]`, `take: [B・J]`. Before linking, each such
name becomes the entry's id, and the document keeps every location under the name for the
id too, so problems are still reported where the author wrote them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from blackpoker.compiler.load import Document, Mark, PathKey
from blackpoker.compiler.parse import OverlaySource

LISTS = ("actions", "characters")


def by_id(
    overlay: OverlaySource, base: Mapping[str, Sequence[Any]], edition: Mapping[str, Sequence[Any]]
) -> OverlaySource:
    """`overlay` with printed names as ids: of the base format's entries (`base`: list ->
    entries) in change / remove, of any entry of the edition (`edition`) in take."""
    doc, lists = overlay.doc, {"actions": overlay.actions, "characters": overlay.characters}
    for name in LISTS:
        edits = lists[name]
        in_base, to_id = _names(base[name]), _names(edition[name])
        renamed = {key: in_base[key] for key in edits.change if key in in_base}
        lists[name] = replace(
            edits,
            change=MappingProxyType({renamed.get(k, k): fields for k, fields in edits.change.items()}),
            remove=tuple(in_base.get(k, k) for k in edits.remove),
            take=tuple(to_id.get(k, k) for k in edits.take),
        )
        doc = aliased(doc, {(name, "change", key): (name, "change", new) for key, new in renamed.items()})
    return replace(overlay, doc=doc, actions=lists["actions"], characters=lists["characters"])


def _names(entries: Sequence[Any]) -> dict[str, str]:
    """Printed name -> id, for the names that are not also some entry's id."""
    ids = {entry.id for entry in entries}
    return {entry.name: entry.id for entry in entries if entry.name not in ids and entry.name != entry.id}


def aliased(doc: Document, moves: Mapping[PathKey, PathKey]) -> Document:
    """A copy of `doc` where every location under an old path is also found under its new one."""
    if not moves:
        return doc

    def alias(table: dict[PathKey, Mark]) -> dict[PathKey, Mark]:
        extra = {
            new + path[len(old) :]: mark
            for path, mark in table.items()
            for old, new in moves.items()
            if path[: len(old)] == old
        }
        return {**table, **extra}

    return replace(doc, values=alias(doc.values), keys=alias(doc.keys))
