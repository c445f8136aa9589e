"""Overlays may name the entries they change or remove by their printed (Japanese) name:
`change: {サーチ: …}`, `remove: [サーチ]`. Before linking, each such name becomes the entry's
id, and the document keeps every location under the name for the id too, so problems are
still reported where the author wrote them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from blackpoker.compiler.load import Document, Mark, PathKey
from blackpoker.compiler.parse import OverlaySource

LISTS = ("actions", "characters")


def by_id(overlay: OverlaySource, base: Mapping[str, Sequence[Any]]) -> OverlaySource:
    """`overlay` with names of the base format's entries (`base`: list -> entries) as ids."""
    doc, lists = overlay.doc, {"actions": overlay.actions, "characters": overlay.characters}
    for name in LISTS:
        ids = {entry.id for entry in base[name]}
        to_id = {entry.name: entry.id for entry in base[name]}
        edits = lists[name]
        renamed = {key: to_id[key] for key in edits.change if key not in ids and key in to_id}
        lists[name] = replace(
            edits,
            change=MappingProxyType({renamed.get(k, k): fields for k, fields in edits.change.items()}),
            remove=tuple(to_id[k] if k not in ids and k in to_id else k for k in edits.remove),
        )
        doc = _aliased(doc, {(name, "change", key): (name, "change", new) for key, new in renamed.items()})
    return replace(overlay, doc=doc, actions=lists["actions"], characters=lists["characters"])


def _aliased(doc: Document, moves: Mapping[PathKey, PathKey]) -> Document:
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
