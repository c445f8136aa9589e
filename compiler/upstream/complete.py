"""Complete an imported edition from an existing one: the engine data no upstream list has
(effect programs, characters' rules) and, when upstream has none, the history fields,
copied by id. What is left for a person comes back as lists."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from blackpoker.compiler.upstream.convert import Data, version_key
from blackpoker.compiler.upstream.vocabulary import Vocabulary

_SPACE = re.compile(r"\s+")
_EDITION_VERSION = re.compile(r"v[0-9]+(\.[0-9]+)*")


@dataclass(frozen=True, slots=True)
class Completion:
    data: Data
    copied: tuple[str, ...]  # ids of the actions whose program was copied
    to_write: tuple[str, ...]  # ids of the actions still without a program
    to_review: tuple[str, ...]  # copied ids whose effect text differs from the source's
    incomplete: tuple[str, ...]  # ids of the characters still without their engine fields


def complete(data: Data, source: Mapping[str, Any], words: Vocabulary) -> Completion:
    """`data` with the source edition's engine fields and history copied in by id."""
    edition = str(data.get("id", ""))
    limit = version_key(edition) if _EDITION_VERSION.fullmatch(edition) else None
    actions = _by_id(source.get("actions", ()))
    characters = _by_id(source.get("characters", ()))
    copied, to_write, to_review, incomplete = [], [], [], []
    result = dict(data)
    result["actions"] = []
    for entry in data.get("actions", ()):
        origin = actions.get(entry["id"])
        merged = _merge(entry, origin, words.action_engine_fields, limit)
        if origin is not None and "program" in origin and "program" not in entry:
            copied.append(entry["id"])
            if _words(origin.get("effect", "")) != _words(entry.get("effect", "")):
                to_review.append(entry["id"])
        if "program" not in merged:
            to_write.append(entry["id"])
        result["actions"].append(merged)
    result["characters"] = []
    for entry in data.get("characters", ()):
        merged = _merge(entry, characters.get(entry["id"]), words.character_engine_fields, limit)
        if any(f not in merged for f in ("face", "attack", "size", "combat")):
            incomplete.append(entry["id"])
        result["characters"].append(merged)
    return Completion(result, tuple(copied), tuple(to_write), tuple(to_review), tuple(incomplete))


def complete_extra(data: Data, source: Mapping[str, Any], words: Vocabulary) -> None:
    """An imported extra list completed in place from `source`: its set-up and cost units, each
    trump's continuous abilities (by the trump's id), the engine fields of its operations and
    abilities' actions, by id, and those of its characters, by name."""
    for key in ("setup", "cost_units", "programs_from"):
        if key in source and key not in data:
            data[key] = source[key]
    abilities = {t["id"]: t["abilities"] for t in source.get("trumps", ()) if "abilities" in t}
    for trump in data["trumps"]:
        if trump["id"] in abilities:
            trump["abilities"] = abilities[trump["id"]]
    actions = _by_id(
        [*source.get("operations", ()), *(a for t in source.get("trumps", ()) for a in t.get("actions", ()))]
    )
    for entries in (data["operations"], *(t["actions"] for t in data["trumps"] if "actions" in t)):
        entries[:] = [
            _merge(entry, actions.get(entry["id"]), words.action_engine_fields, None) for entry in entries
        ]
    characters = {c["name"]: c for t in source.get("trumps", ()) for c in t.get("characters", ())}
    for trump in (t for t in data["trumps"] if "characters" in t):
        trump["characters"] = [
            _merge(c, characters.get(c.get("name", "")), words.extra_character_engine_fields, None)
            for c in trump["characters"]
        ]


def _by_id(entries: Any) -> dict[str, Mapping[str, Any]]:
    return {entry["id"]: entry for entry in entries if isinstance(entry, dict) and "id" in entry}


def _merge(
    entry: Data, origin: Mapping[str, Any] | None, engine: tuple[str, ...], limit: tuple[int, ...] | None
) -> Data:
    if origin is None:
        return dict(entry)
    merged = dict(entry)
    for name in engine:
        if name in origin and name not in merged:
            merged[name] = origin[name]
    if "since" not in entry and "since" in origin:
        merged["since"] = origin["since"]
        updates = [v for v in origin.get("updates", ()) if limit is None or _not_after(v, limit)]
        if updates:
            merged["updates"] = updates
    return merged


def _not_after(version: str, limit: tuple[int, ...]) -> bool:
    """True when `version` is not newer than the edition (compared to the edition's precision)."""
    return bool(version_key(version)[: len(limit)] <= limit)


def _words(text: str) -> str:
    """The text as compared: full-width digits and punctuation folded (１． is 1.), no spaces."""
    return _SPACE.sub("", unicodedata.normalize("NFKC", text))
