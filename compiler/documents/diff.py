"""What changed between two rule sets: entries added, removed and changed, field by field.

The comparison is generic over the compiled model: every list of the rule set whose
entries carry an `id` (formats, actions, characters, fogs) is matched by id, and every
field the model compares (`dataclasses.fields(..., compare=True)`) is compared, so a field
added to the model shows up here without a change to this module. Values are shown as
text: notation as written (`BBL`, `♡A〜10`), enums by their data value, lists joined,
programs as compact JSON; a record (the core rules) field by field and a list of records with
ids (labels) id by id, so that one changed rule is one line (`core.graveyard_top`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, is_dataclass
from enum import Enum
from typing import Any

import yaml
from blackpoker.compiler.checks import check_edition
from blackpoker.compiler.parse import EditionSource
from blackpoker.runtime.rules.diagnostics import CompileError
from blackpoker.runtime.rules.model import Format, RuleSet

# Every entry of an edition: a diff side without --format, and the sheets' `all` page.
EVERY_FORMAT = Format(id="all", name="all", mark="")


@dataclass(frozen=True, slots=True)
class FieldChange:
    field: str  # the model attribute (= YAML key), e.g. "effect"
    old: str  # the value as text; "" when unset
    new: str
    # a structured value (core rules, legend, program) as YAML lines, as the data writes it, for
    # the pages; "" for a value that reads as one line
    old_block: str = ""
    new_block: str = ""


@dataclass(frozen=True, slots=True)
class EntryRef:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class EntryChange:
    entry: EntryRef  # as the new rule set names it
    changes: tuple[FieldChange, ...]


@dataclass(frozen=True, slots=True)
class ListDiff:
    """One list of the rule set (e.g. "actions"), in the new list's order; removed in the old's."""

    list: str
    added: tuple[EntryRef, ...]
    removed: tuple[EntryRef, ...]
    changed: tuple[EntryChange, ...]

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)


@dataclass(frozen=True, slots=True)
class RuleSetDiff:
    old: RuleSet
    new: RuleSet
    edition: tuple[FieldChange, ...]  # the edition's own fields (title, sections, core, …)
    lists: tuple[ListDiff, ...]

    @property
    def empty(self) -> bool:
        return not self.edition and all(part.empty for part in self.lists)


def whole_edition(source: EditionSource) -> RuleSet:
    """Every entry of an edition, each with its formats: the side of a diff without --format."""
    problems = check_edition(source)
    if problems:
        raise CompileError(problems)
    return RuleSet(source.edition, EVERY_FORMAT, source.actions, source.characters, source.fogs)


def entry_lists(ruleset: RuleSet) -> tuple[tuple[str, Sequence[Any]], ...]:
    """The id-keyed lists of a rule set that a diff compares, in the order it reports them
    (the trumps of the extra format, when it has some)."""
    return (
        ("formats", ruleset.edition.formats),
        ("actions", ruleset.actions),
        ("characters", ruleset.characters),
        ("fogs", ruleset.fogs),
        *((("trumps", ruleset.trumps),) if ruleset.trumps else ()),
    )


def diff_rulesets(old: RuleSet, new: RuleSet) -> RuleSetDiff:
    """NEW against OLD. An entry's first format (`format`) is compared only between whole
    editions: within one format, the entries present are the membership. The membership
    computed from it (`formats`) is never listed: the formats list shows its changes."""
    whole = old.format == EVERY_FORMAT and new.format == EVERY_FORMAT
    skip = frozenset({"formats"} if whole else {"formats", "format"})
    before = dict(entry_lists(old))
    parts = tuple(
        diff_entries(name, before.get(name, ()), entries, skip) for name, entries in entry_lists(new)
    )
    # The id names the sides already; the formats are reported as a list.
    listed = frozenset({"id", *(name for name, _ in entry_lists(new))})
    return RuleSetDiff(old, new, field_changes(old.edition, new.edition, listed), parts)


def diff_entries(
    name: str, old: Sequence[Any], new: Sequence[Any], skip: frozenset[str] = frozenset()
) -> ListDiff:
    before = {entry.id: entry for entry in old}
    after = {entry.id: entry for entry in new}
    changed = []
    for entry in new:
        previous = before.get(entry.id)
        if previous is not None and (changes := field_changes(previous, entry, skip)):
            changed.append(EntryChange(_ref(entry), changes))
    return ListDiff(
        name,
        added=tuple(_ref(e) for e in new if e.id not in before),
        removed=tuple(_ref(e) for e in old if e.id not in after),
        changed=tuple(changed),
    )


def field_changes(
    old: Any, new: Any, skip: frozenset[str] = frozenset(), prefix: str = ""
) -> tuple[FieldChange, ...]:
    """The compared fields whose values differ, in the model's field order, but those in `skip`.
    A record (the core rules) is compared field by field (`core.graveyard_top`), and a list of
    records with ids (labels, zones) id by id (`labels.attacker.name`), so that one changed
    value is one line."""
    found: list[FieldChange] = []
    for name in (f.name for f in fields(new) if f.compare and f.name not in skip):
        before, after = getattr(old, name), getattr(new, name)
        if before == after:
            continue
        where = f"{prefix}{name}"
        if _record(before) and type(before) is type(after):
            found += field_changes(before, after, prefix=f"{where}.")
        elif _keyed(before) and _keyed(after) and (before or after):
            found += _keyed_changes(where, before, after)
        else:
            found.append(_change(where, before, after))
    return tuple(found)


def _record(value: Any) -> bool:
    """A dataclass instance that does not print as notation."""
    return is_dataclass(value) and not isinstance(value, type) and type(value).__str__ is object.__str__


def _keyed(value: Any) -> bool:
    return isinstance(value, tuple) and all(_record(v) and hasattr(v, "id") for v in value)


def _keyed_changes(where: str, old: tuple[Any, ...], new: tuple[Any, ...]) -> list[FieldChange]:
    """Records matched by id: one added or removed is one line, one changed is its fields."""
    before = {v.id: v for v in old}
    after = {v.id: v for v in new}
    found: list[FieldChange] = []
    for key in [*after, *(k for k in before if k not in after)]:
        if key not in before or key not in after:
            found.append(_change(f"{where}.{key}", _without_id(before.get(key)), _without_id(after.get(key))))
        elif before[key] != after[key]:
            found += field_changes(before[key], after[key], frozenset({"id"}), f"{where}.{key}.")
    return found


def _without_id(value: Any) -> Any:
    """A record of an id-keyed list without its id (the line names it)."""
    if value is None:
        return None
    return {k: v for k, v in _plain(value).items() if k != "id"}


def _change(where: str, before: Any, after: Any) -> FieldChange:
    return FieldChange(where, as_text(before), as_text(after), as_block(before), as_block(after))


def as_text(value: Any) -> str:
    """A field value as one line of text, the way the data spells it (structured values as JSON)."""
    line = _one_line(value)
    if line is not None:
        return line
    return json.dumps(_plain(value), ensure_ascii=False, separators=(", ", ": "))


def as_block(value: Any) -> str:
    """A structured value (core rules, legend, program) as YAML lines; "" for one that reads as a line."""
    if _one_line(value) is not None:
        return ""
    # default_flow_style None: the innermost lists and mappings on one line, {player: you, count: 1}
    text = yaml.safe_dump(
        _plain(value), allow_unicode=True, sort_keys=False, default_flow_style=None, width=60
    )
    return text.rstrip("\n")


def _one_line(value: Any) -> str | None:
    """The value as one line of text; None for a structured one."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, str | int | float):
        return str(value)
    if isinstance(value, frozenset):
        return ", ".join(sorted(as_text(v) for v in value))
    if isinstance(value, tuple) and all(_simple(v) for v in value):
        return ", ".join(as_text(v) for v in value)
    if is_dataclass(value) and not isinstance(value, type) and type(value).__str__ is not object.__str__:
        return str(value)  # notation (cost, key): printed as written
    return None


def _simple(value: Any) -> bool:
    return isinstance(value, str | int | float | Enum)


def _plain(value: Any) -> Any:
    """JSON-able data: dataclasses as dicts, tuples as lists, mappings as dicts."""
    if is_dataclass(value) and not isinstance(value, type):
        return _plain(asdict(value))
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list | frozenset):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value


def _ref(entry: Any) -> EntryRef:
    return EntryRef(entry.id, entry.name)


def side_name(ruleset: RuleSet) -> str:
    """How a side is named in a report: the edition id, and the format when one was chosen."""
    edition = ruleset.edition.id
    return edition if ruleset.format == EVERY_FORMAT else f"{edition} {ruleset.format.id}"
