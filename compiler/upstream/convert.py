"""Convert an upstream list (loaded with positions) into the data of one edition file.

Every problem is located in the upstream file and all are reported together; the upstream
defects the importer repairs (a repeated id, a version without its `v`) come back as notes,
so that a person sees each repair. Header fields upstream lacks come from a reference
edition (`--like`), and the conversion says which.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from blackpoker.compiler.load import Document, PathKey
from blackpoker.compiler.notation import NotationError, parse_cost, parse_key
from blackpoker.compiler.upstream.vocabulary import Vocabulary
from blackpoker.runtime.rules.diagnostics import Diagnostic

Data = dict[str, Any]

# Upstream keys copied as text, per kind of entry: upstream key → model key.
_COMMON_TEXT = {
    "ruby": "ruby",
    "story": "story",
    "flavor": "flavor",
    "flavorSpeaker": "speaker",
    "devNote": "dev_note",
}
_ACTION_TEXT = {
    **_COMMON_TEXT,
    "actName": "name",
    "actId": "id",
    "actType": "type",
    "actActCond": "activation_condition",
    "actTriggerCond": "trigger_condition",
    "actNote": "note",
    "actTarget": "target",
    "actEffect": "effect",
}
_CHARACTER_TEXT = {
    **_COMMON_TEXT,
    "charName": "name",
    "charId": "id",
    "charType": "type",
    "charSize": "size_text",
    "charNote": "note",
    "charAbility": "ability",
}
_FOG_TEXT = {
    **_COMMON_TEXT,
    "fogName": "name",
    "fogId": "id",
    "fogType": "type",
    "fogTarget": "target",
    "fogAbility": "ability",
}
_VERSION = re.compile(r"v[0-9]+(\.[0-9]+)*")
_BARE_VERSION = re.compile(r"[0-9]+(\.[0-9]+)*")
_EDITION_NUMBER = re.compile(r"第(.+?)版")
EDITION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")  # also a safe file name

# Header fields no upstream list holds: the reference edition gives them.
TAKEN = ("copyright", "cost_units", "core", "legend")


@dataclass(frozen=True, slots=True)
class Conversion:
    data: Data  # the edition file
    taken: tuple[str, ...]  # header fields taken from the reference edition
    notes: tuple[Diagnostic, ...]  # upstream defects repaired, located in the upstream file
    problems: tuple[Diagnostic, ...]


@dataclass(frozen=True, slots=True)
class _Kind:
    """One list of the upstream file (actList / charList / fogList) and how its entries read."""

    groups: str  # actList
    items: str  # acts
    prefix: str  # act
    text: Mapping[str, str]
    required: tuple[str, ...]


_ACTIONS = _Kind(
    "actList", "acts", "act", _ACTION_TEXT, ("actName", "actId", "actType", "actTime", "actEffect", "format")
)
_CHARACTERS = _Kind(
    "charList", "chars", "char", _CHARACTER_TEXT, ("charName", "charId", "charType", "charKey", "format")
)
_FOGS = _Kind(
    "fogList", "fogs", "fog", _FOG_TEXT, ("fogName", "fogId", "fogType", "fogKey", "fogAbility", "format")
)
# An extra list's actions: no id and no format upstream (the list names neither).
EXTRA_ACTIONS = _Kind("", "acts", "act", _ACTION_TEXT, ("actName", "actType", "actTime", "actEffect"))
_KINDS = (_ACTIONS, _CHARACTERS, _FOGS)


Reference = tuple[str, Mapping[str, Any]]  # an edition's id and its file's data


def convert(
    doc: Document,
    words: Vocabulary,
    like: Reference,
    references: Sequence[Reference] = (),
    edition_id: str | None = None,
) -> Conversion:
    """The edition in `doc`; `like` (id, data) gives what upstream lacks; the ids of
    `references` (like included) resolve repeated and mis-cased ids."""
    converter = Converter(doc, words, like, [like, *references])
    data = converter.edition(edition_id)
    return Conversion(data, converter.taken, tuple(converter.notes), tuple(converter.problems))


def version_key(version: str) -> tuple[int, ...]:
    """v8.2 → (8, 2): versions compare by their numbers."""
    return tuple(int(part) for part in version.removeprefix("v").split("."))


@dataclass
class Converter:
    doc: Document
    words: Vocabulary
    like: Reference
    references: Sequence[Reference]
    problems: list[Diagnostic] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    taken: tuple[str, ...] = ()
    label_names: list[str] = field(default_factory=list)  # as printed, in order of appearance

    # --- the edition ----------------------------------------------------------------------

    def edition(self, edition_id: str | None) -> Data:
        root = self.doc.data
        if not isinstance(root, dict):
            self.problems.append(self.doc.at((), "expected a mapping with data, actList and charList"))
            return {}
        for key in root:
            if key not in ("data", *(kind.groups for kind in _KINDS)):
                self.unknown((key,))
        header = self._header(root)
        like_id, like = self.like
        order = [f["id"] for f in like["formats"]]
        actions, characters, fogs = (self._entries(kind, order) for kind in _KINDS)
        self._resolve_ids(_ACTIONS, "actions", actions)
        self._resolve_ids(_CHARACTERS, "characters", characters)
        self._link_fogs(fogs, actions)
        title = header.get("ver", "")
        used = {entry["format"] for _, entry in [*actions, *characters, *fogs] if "format" in entry}
        data: Data = {
            "kind": "edition",
            "id": edition_id or self.derive_id(title),
            "title": title,
            "published": header.get("lastupdate", ""),
        }
        taken = list(TAKEN)
        like_title = like.get("title", "")
        magazine = like.get("magazine", "")
        if magazine and like_title in magazine:
            data["magazine"] = magazine.replace(like_title, title)
        elif magazine:
            data["magazine"] = magazine
            taken.append("magazine")
        data["copyright"] = like.get("copyright", "")
        data["formats"] = [dict(f) for f in like["formats"] if f["id"] in used]
        taken.append(f"formats' names and marks ({', '.join(f['id'] for f in data['formats'])})")
        data["sections"] = _unique(self._group_types(_ACTIONS))
        data["action_types"] = _unique(entry.get("type") for _, entry in actions)
        data["character_types"] = _unique(entry.get("type") for _, entry in characters)
        if fogs:
            data["fog_types"] = _unique(
                [*self._group_types(_FOGS), *(entry.get("type") for _, entry in fogs)]
            )
        if self.label_names:
            data["labels"] = [{"id": self.words.labels[n], "name": n} for n in _unique(self.label_names)]
        for key in ("cost_units", "core", "legend"):
            if key in like:
                data[key] = like[key]
        data["actions"] = [entry for _, entry in actions]
        data["characters"] = [entry for _, entry in characters]
        if fogs:
            data["fogs"] = [entry for _, entry in fogs]
        self.taken = tuple(f"{field} (from {like_id})" for field in taken)
        return data

    def _header(self, root: Mapping[str, Any]) -> dict[str, str]:
        header = root.get("data")
        if not isinstance(header, dict):
            self.problems.append(self.doc.at(("data",), "data: expected a mapping with ver and lastupdate"))
            return {}
        found = {}
        for key in ("ver", "lastupdate"):
            value = header.get(key)
            if not isinstance(value, str) or not value.strip():
                self.problems.append(self.doc.at(("data", key), f"data.{key}: expected text"))
            else:
                found[key] = value.strip()
        for key in header:
            if key not in ("ver", "lastupdate") and key not in self.words.ignored_header_keys:
                self.unknown(("data", key))
        return found

    def _group_types(self, kind: _Kind) -> list[str]:
        groups = self.doc.data.get(kind.groups)
        if not isinstance(groups, list):
            return []
        return [g["type"] for g in groups if isinstance(g, dict) and isinstance(g.get("type"), str)]

    def derive_id(self, title: str) -> str:
        match = _EDITION_NUMBER.search(title)
        number = match.group(1) if match else ""
        if number in self.words.numerals:
            number = str(self.words.numerals[number])
        if not _BARE_VERSION.fullmatch(number):
            self.problems.append(
                self.doc.at(("data", "ver"), f"cannot derive an edition id from ver '{title}'; give --id")
            )
            return "v0"
        return f"v{number}"

    # --- the lists --------------------------------------------------------------------------

    def _entries(self, kind: _Kind, order: Sequence[str]) -> list[tuple[PathKey, Data]]:
        groups = self.doc.data.get(kind.groups)
        if groups is None:
            return []
        if not isinstance(groups, list):
            self.problems.append(self.doc.at((kind.groups,), f"{kind.groups}: expected a list of groups"))
            return []
        entries: list[tuple[PathKey, Data]] = []
        for g, group in enumerate(groups):
            path: PathKey = (kind.groups, g)
            if not isinstance(group, dict) or not isinstance(group.get("type"), str):
                self.problems.append(self.doc.at(path, f"expected a group with a type and {kind.items}"))
                continue
            items = group.get(kind.items)
            if not isinstance(items, list):
                self.problems.append(self.doc.at((*path, kind.items), f"{kind.items}: expected a list"))
                continue
            for name in group:
                if name not in ("type", kind.items):
                    self.unknown((*path, name))
            for i, raw in enumerate(items):
                entry = self.entry(kind, (*path, kind.items, i), raw, group["type"], order)
                if entry is not None:
                    entries.append(((*path, kind.items, i), entry))
        return entries

    def entry(self, kind: _Kind, path: PathKey, raw: Any, group: str, order: Sequence[str]) -> Data | None:
        if not isinstance(raw, dict):
            self.problems.append(self.doc.at(path, "expected a mapping"))
            return None
        missing = [key for key in kind.required if key not in raw]
        if missing:
            self.problems.append(self.doc.at(path, f"missing {', '.join(missing)}"))
            return None
        entry: Data = {}
        special: dict[str, Callable[[PathKey, Any, Data], None]] = {
            "format": lambda p, v, e: self._format(p, v, e, order),
            f"{kind.prefix}Key": self._key,
            f"{kind.prefix}Cost": self._cost,
            "since": self._since,
            "update": self._updates,
            "actTime": lambda p, v, e: self._word(p, v, e, "timing", self.words.timing),
            "actTrigger": lambda p, v, e: self._word(p, v, e, "trigger", self.words.trigger),
            "actSpeed": lambda p, v, e: self._word(p, v, e, "speed", self.words.speed),
            "actS": lambda p, v, e: None,  # read below, with actSpeed and actNote
            "charLabel": self.labels,
        }
        for key, value in raw.items():
            where = (*path, key)
            if key in kind.text:
                text = self.text(where, value)
                if text:
                    entry[kind.text[key]] = text
            elif key in special:
                special[key](where, value, entry)
            elif key not in self.words.ignored_entry_keys:
                self.unknown(where)
        if kind.prefix == "act":
            if group:
                entry["section"] = group
            self._speed_and_trigger(path, raw, entry)
        return entry

    # --- fields -----------------------------------------------------------------------------

    def text(self, path: PathKey, value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, (dict, list)):
            self.problems.append(self.doc.at(path, f"{path[-1]}: expected text"))
            return ""
        # Trailing spaces are Markdown line breaks upstream; the text's own newlines already are.
        return "\n".join(line.rstrip() for line in str(value).strip().splitlines())

    def _format(self, path: PathKey, value: Any, entry: Data, order: Sequence[str]) -> None:
        text = self.text(path, value)
        named = [part.strip() for part in text.split(",") if part.strip()]
        unknown = [name for name in named if name not in order]
        if unknown or not named:
            what = f"{', '.join(unknown)} is not a format of {self.like[0]}" if unknown else "names no format"
            self.problems.append(self.doc.at(path, f"format '{text}': {what} ({', '.join(order)})"))
            return
        first = min(order.index(name) for name in named)
        if sorted(named, key=order.index) != list(order[first:]):
            self.problems.append(
                self.doc.at(
                    path,
                    f"format '{text}': an entry belongs to its first format and every later one "
                    f"({', '.join(order[first:])})",
                )
            )
            return
        entry["format"] = order[first]

    def _key(self, path: PathKey, value: Any, entry: Data) -> None:
        text = self.text(path, value)
        if text and self._notation(path, text, parse_key):
            entry["key"] = text

    def _cost(self, path: PathKey, value: Any, entry: Data) -> None:
        text = self.text(path, value)
        if text and self._notation(path, text, parse_cost):
            entry["cost"] = text

    def _notation(self, path: PathKey, text: str, parser: Callable[[str], object]) -> bool:
        try:
            parser(text)
        except NotationError as error:
            for problem in error.problems:
                width = max(1, problem.end - problem.start)
                self.problems.append(
                    self.doc.at_text(path, problem.start, width, f"{path[-1]} '{text}': {problem.message}")
                )
            return False
        return True

    def _word(self, path: PathKey, value: Any, entry: Data, name: str, words: Mapping[str, str]) -> None:
        text = self.text(path, value)
        if text not in words:
            known = ", ".join(words)
            self.problems.append(self.doc.at(path, f"{path[-1]} '{text}': not a known word ({known})"))
            return
        entry[name] = words[text]

    def _since(self, path: PathKey, value: Any, entry: Data) -> None:
        versions = self._versions(path, value)
        if len(versions) > 1:
            self.problems.append(self.doc.at(path, f"since: expected one version, got {len(versions)}"))
        elif versions:
            entry["since"] = versions[0]

    def _updates(self, path: PathKey, value: Any, entry: Data) -> None:
        versions = self._versions(path, value)
        if versions:
            entry["updates"] = versions

    def _versions(self, path: PathKey, value: Any) -> list[str]:
        versions = []
        for part in (p.strip() for p in self.text(path, value).split(",")):
            if _BARE_VERSION.fullmatch(part):
                self.notes.append(self.doc.at(path, f"version '{part}' lacks its 'v': read as v{part}"))
                part = f"v{part}"
            if _VERSION.fullmatch(part):
                versions.append(part)
            elif part:
                self.problems.append(self.doc.at(path, f"{path[-1]}: '{part}' is not a version such as v8.0"))
        return versions

    def labels(self, path: PathKey, value: Any, entry: Data) -> None:
        """charLabel (names separated by `,` or `、`) as the label ids of the vocabulary, in `entry`."""
        names = [part.strip() for part in re.split("[,、]", self.text(path, value)) if part.strip()]
        unknown = [name for name in names if name not in self.words.labels]
        if unknown:
            self.problems.append(
                self.doc.at(
                    path, f"charLabel: unknown label {', '.join(unknown)} ({', '.join(self.words.labels)})"
                )
            )
            return
        entry["labels"] = [self.words.labels[name] for name in names]
        self.label_names += names

    def _speed_and_trigger(self, path: PathKey, raw: Mapping[str, Any], entry: Data) -> None:
        mark = self.text((*path, "actS"), raw.get("actS"))
        if mark and mark != self.words.mark:
            self.problems.append(
                self.doc.at((*path, "actS"), f"actS '{mark}': expected {self.words.mark} or nothing")
            )
        if "actSpeed" in raw:
            if mark:
                entry["changed"] = True
        else:
            entry["speed"] = "immediate" if mark else "normal"
        limits = [
            self.words.limits[text]
            for text in (
                self.text((*path, key), raw.get(key)).removeprefix("※").strip()
                for key in ("actActCond", "actNote")
            )
            if text in self.words.limits
        ]
        if limits:
            entry["limits"] = _unique(limits)
        if "actTrigger" not in raw:
            note = self.text((*path, "actNote"), raw.get("actNote")).removeprefix("※").strip()
            if note == self.words.not_direct:
                entry["trigger"] = (
                    "triggered" if entry.get("type") in self.words.triggered_types else "effect"
                )
        if entry.get("trigger") == "direct":
            del entry["trigger"]  # the default

    # --- ids --------------------------------------------------------------------------------

    def _resolve_ids(self, kind: _Kind, list_name: str, entries: list[tuple[PathKey, Data]]) -> None:
        """A repeated id takes the id of the reference edition's entry of the same name; an id
        that differs from a reference id only in letter case takes the reference's spelling."""
        known = {
            entry["id"]: (edition, entry)
            for edition, data in self.references
            for entry in data.get(list_name, ())
        }
        by_name = {entry["name"]: (edition, entry["id"]) for edition, entry in reversed(known.values())}
        used: set[str] = set()
        for path, entry in entries:
            where = (*path, f"{kind.prefix}Id")
            upstream = entry.get("id", "")
            if upstream in used:
                edition, renamed = by_name.get(entry.get("name", ""), ("", ""))
                if not renamed or renamed in used:
                    self.problems.append(self.doc.at(where, f"id '{upstream}' is used twice"))
                    continue
                message = (
                    f"id '{upstream}' is used twice: {entry.get('name')} takes {edition}'s id '{renamed}'"
                )
                self.notes.append(self.doc.at(where, message))
                entry["id"] = renamed
            elif upstream not in known:
                spelled = next((k for k in known if k.lower() == upstream.lower()), None)
                if spelled is not None:
                    self.notes.append(
                        self.doc.at(
                            where, f"id '{upstream}' is spelled '{spelled}' as in {known[spelled][0]}"
                        )
                    )
                    entry["id"] = spelled
            used.add(entry["id"])

    def _link_fogs(self, fogs: list[tuple[PathKey, Data]], actions: list[tuple[PathKey, Data]]) -> None:
        """A fog entry holds the key cards of the action of the same name."""
        by_name = {entry.get("name"): entry["id"] for _, entry in actions}
        for path, fog in fogs:
            action = by_name.get(fog.get("name"))
            if action is None:
                self.problems.append(
                    self.doc.at((*path, "fogName"), f"fogName '{fog.get('name')}': no action has this name")
                )
                continue
            fog["action"] = action

    # --- helpers ----------------------------------------------------------------------------

    def unknown(self, path: PathKey) -> None:
        self.problems.append(self.doc.at(path, f"unknown key '{path[-1]}': not imported", key=True))


def _unique(values: Any) -> list[Any]:
    return list(dict.fromkeys(v for v in values if v))
