"""Local rules (kind: overlay): a format made from an official one (or another local rule) by
adding, changing, taking and removing entries, each problem at the overlay line that makes it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from blackpoker.compiler.checks import (
    NO_PASSER,
    Added,
    check_abilities,
    check_action,
    check_character,
    cycle_message,
    duplicate_names,
    duplicates,
    not_in,
    referrer,
)
from blackpoker.compiler.documents.overlay_names import by_id
from blackpoker.compiler.link import finish, official
from blackpoker.compiler.load import Document, PathKey
from blackpoker.compiler.needs import (
    Reference,
    dangling,
    references,
    request_cycles,
    turn_passers,
)
from blackpoker.compiler.parse import EditionSource, Edits, OverlaySource
from blackpoker.compiler.paths import is_path
from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic, did_you_mean
from blackpoker.runtime.rules.model import Edition, RuleSet


def link_overlay(source: EditionSource, overlay: OverlaySource, under: RuleSet | None = None) -> RuleSet:
    """The overlay's format: `source`'s official base format with its edits, or, for an
    overlay based on another local-rule file, that file's format (`under`) with them; the
    edition's own checks passed (`Environment.checked`)."""
    ruleset, problems = _apply(source, overlay, under)
    if problems:
        raise CompileError(problems)
    return finish(ruleset)


def check_overlay(
    source: EditionSource, overlay: OverlaySource, under: RuleSet | None = None
) -> list[Diagnostic]:
    return _apply(source, overlay, under)[1]


def _apply(
    source: EditionSource, overlay: OverlaySource, under: RuleSet | None = None
) -> tuple[RuleSet, list[Diagnostic]]:
    doc, fmt = overlay.doc, overlay.format
    if under is not None:  # on another local rule (or extra): its names and types, its format as base
        edition_ids = {a.id for a in source.actions}
        beyond = tuple(a for a in under.actions if a.id not in edition_ids)
        source = replace(source, edition=under.edition, actions=(*source.actions, *beyond))
        fmt = replace(fmt, base=under.format.id)
    source, problems = _with_own_names(source, overlay)
    edition = source.edition
    if overlay.edition_id != edition.id:
        problems.append(doc.at(("edition",), f"edition: expected '{edition.id}'"))
    official_ids = [f.id for f in edition.formats]
    if fmt.id in official_ids:
        problems.append(
            doc.at(("name",), f"name: '{fmt.id}' is an official format of {edition.id}; choose a new name")
        )
    marks = {f.mark: f.id for f in edition.formats}
    if fmt.mark in marks:  # a house action would print as an official one
        which = "" if "mark" in doc.data else "the default "
        problems.append(
            doc.at(
                ("mark",),
                f"mark: {which}'{fmt.mark}' is the mark of the official format {marks[fmt.mark]}; "
                "give the overlay another mark",
            )
        )
    if under is not None and fmt.id == under.format.id:
        problems.append(doc.at(("name",), f"name: '{fmt.id}' is the name of its base; choose a new name"))
    if under is None and fmt.base not in official_ids:
        problems.append(_unknown_base(doc, str(fmt.base), edition))
        return RuleSet(edition, fmt, (), ()), problems
    base = under if under is not None else official(source, edition.format(str(fmt.base)))
    every = {"actions": source.actions, "characters": source.characters}
    overlay = by_id(overlay, {"actions": base.actions, "characters": base.characters}, every)
    doc = overlay.doc
    formats = [*official_ids, *([] if under is None else [under.format.id]), fmt.id]
    actions, action_problems = _edit(doc, "actions", base.actions, source.actions, overlay.actions, fmt.id)
    characters, character_problems = _edit(
        doc, "characters", base.characters, source.characters, overlay.characters, fmt.id
    )
    problems += action_problems + character_problems + _trump_action_edits(doc, base, overlay.actions)
    added = Added(
        frozenset(a.id for a in overlay.actions.add), frozenset(c.id for c in overlay.characters.add)
    )
    for i, action in enumerate(overlay.actions.add):
        problems += check_action(source, doc, ("actions", "add", i), action, formats, added)
    changed = {a.id: a for a in actions if a.id in overlay.actions.change}
    for entry_id, fields in overlay.actions.change.items():
        # the names of the action as changed: a field the change leaves (caused_by) still
        # holds for its program
        whole = changed.get(entry_id, fields)
        problems += check_action(source, doc, ("actions", "change", entry_id), fields, formats, added, whole)
    for i, character in enumerate(overlay.characters.add):
        problems += check_character(source, doc, ("characters", "add", i), character, formats)
    for entry_id, fields in overlay.characters.change.items():
        problems += check_character(source, doc, ("characters", "change", entry_id), fields, formats)
    problems += check_abilities(source, doc, ("abilities",), overlay.abilities, added, always=True)
    edition = replace(edition, abilities=(*edition.abilities, *overlay.abilities))
    ruleset = RuleSet(edition, fmt, actions, characters, trumps=base.trumps, setup=base.setup)
    if not problems:
        problems += _overlay_needs(overlay, base, ruleset)
    return ruleset, problems


def _trump_action_edits(doc: Document, base: RuleSet, edits: Edits) -> list[Diagnostic]:
    """An ability's action is the trump's: `actions:` may not change or remove it (its trump's
    `trumps.change` may), so that it keeps its face-up condition and its trump's list."""
    owner = {action_id: trump.id for trump in base.trumps for action_id in trump.actions}
    located: list[tuple[PathKey, str, bool]] = [(("actions", "change", a), a, True) for a in edits.change]
    located += [(("actions", "remove", i), a, False) for i, a in enumerate(edits.remove)]
    return [
        doc.at(
            where,
            f"actions.{where[1]}: '{a}' is an action of trump '{owner[a]}'; edit it under trumps.change",
            key=key,
        )
        for where, a, key in located
        if a in owner
    ]


def _with_own_names(source: EditionSource, overlay: OverlaySource) -> tuple[EditionSource, list[Diagnostic]]:
    """The edition as the overlay's format sees it: with the sections and action types the
    overlay adds after the edition's (a new one may not repeat one the edition has)."""
    edition = source.edition
    problems = [
        overlay.doc.at((field_name, i), f"{field_name}: '{name}' is already one of the edition's")
        for field_name, added, have in (
            ("sections", overlay.sections, edition.sections),
            ("action_types", overlay.action_types, edition.action_types),
        )
        for i, name in enumerate(added)
        if name in have
    ]
    edition = replace(
        edition,
        sections=tuple(dict.fromkeys((*edition.sections, *overlay.sections))),
        action_types=tuple(dict.fromkeys((*edition.action_types, *overlay.action_types))),
    )
    return replace(source, edition=edition), problems


def _unknown_base(doc: Document, base: str, edition: Edition) -> Diagnostic:
    known = ", ".join(f.id for f in edition.formats)
    return doc.at(("base",), f"base: unknown format '{base}' in edition {edition.id} (known: {known})")


def unknown_entries(
    doc: Document,
    name: str,
    removed: Iterable[Any],
    changed: Iterable[Any],
    known: set[str],
    within: str = "the base format",
) -> list[Diagnostic]:
    """An overlay's remove / change ids that what it edits (its base format, an extra list)
    lacks, each with a near id."""
    singular = name[:-1]

    def message(field: str, entry_id: str) -> str:
        return f"{name}.{field}: no {singular} '{entry_id}' in {within}{did_you_mean(entry_id, known)}"

    problems = [
        doc.at((name, "remove", i), message("remove", entry_id))
        for i, entry_id in enumerate(removed)
        if isinstance(entry_id, str) and entry_id not in known
    ]
    problems += [
        doc.at((name, "change", entry_id), message("change", entry_id), key=True)
        for entry_id in changed
        if isinstance(entry_id, str) and entry_id not in known
    ]
    return problems


def early_overlay_problems(source: EditionSource, doc: Document) -> list[Diagnostic]:
    """The ids an overlay with schema problems names that its edition lacks: read from the raw
    data, so that a misspelt id is reported together with the schema problems, not after."""
    base = doc.data.get("base")
    if not isinstance(base, str) or is_path(base):  # another local rule: checked when it is read
        return []
    if base not in [f.id for f in source.edition.formats]:
        return [_unknown_base(doc, base, source.edition)]
    problems: list[Diagnostic] = []
    for name, entries in (("actions", source.actions), ("characters", source.characters)):
        edits = doc.data.get(name)
        if isinstance(edits, dict):
            removed, changed = edits.get("remove"), edits.get("change")
            problems += unknown_entries(
                doc,
                name,
                removed if isinstance(removed, list) else (),
                changed if isinstance(changed, dict) else (),
                {ref for e in entries if base in e.formats for ref in (e.id, e.name)},
            )
    return problems


def _edit(
    doc: Document, name: str, entries: Sequence[Any], every: Sequence[Any], edits: Edits, format_id: str
) -> tuple[tuple[Any, ...], list[Diagnostic]]:
    """The base format's `entries` with the overlay's edits, and entries of the edition
    (`every`) that it takes from bigger formats."""
    problems, taken = _taken(doc, name, entries, every, edits.take)
    problems += [
        doc.at(
            (name, "remove", i), f"{name}.remove: '{entry_id}' is what this file takes; drop one of the two"
        )
        for i, entry_id in enumerate(edits.remove)
        if entry_id in edits.take
    ]
    known = {entry.id for entry in (*entries, *taken)}
    singular = name[:-1]
    refs = known | {entry.name for entry in (*entries, *taken)}  # names left are misspelt: suggest either
    problems += unknown_entries(doc, name, edits.remove, edits.change, refs)
    for entry_id, fields in edits.change.items():
        if "format" in fields:
            problems.append(
                doc.at(
                    (name, "change", entry_id, "format"),
                    f"{name}.change.{entry_id}.format: an overlay cannot change formats (every kept"
                    f" {singular} belongs to the new format; to drop it from the format, list it in"
                    f" {name}.remove)",
                    key=True,
                )
            )
    for i, entry in enumerate(edits.add):
        if entry.id in known and entry.id not in edits.remove:
            problems.append(
                doc.at((name, "add", i, "id"), f"{name}.add: '{entry.id}' already exists; change it instead")
            )
        if entry.format:
            problems.append(
                doc.at(
                    (name, "add", i, "format"),
                    f"{name}.add: an added {singular} belongs to this file's format only (drop 'format')",
                    key=True,
                )
            )
    kept = tuple(
        replace(entry, **{**edits.change.get(entry.id, {}), "formats": (*entry.formats, format_id)})
        for entry in (*entries, *taken)
        if entry.id not in edits.remove
    )
    added = tuple(replace(entry, formats=(*entry.formats, format_id)) for entry in edits.add)
    problems += duplicates(doc, (name, "add"), [entry.id for entry in added])
    return kept + added, problems


def _taken(
    doc: Document, name: str, entries: Sequence[Any], every: Sequence[Any], take: Sequence[str]
) -> tuple[list[Diagnostic], list[Any]]:
    """The edition's entries an overlay takes (by id), each checked: known, and not already in
    the base format."""
    in_base, by_id = {entry.id for entry in entries}, {entry.id: entry for entry in every}
    problems, taken = [], []
    for i, entry_id in enumerate(take):
        if entry_id in in_base:
            message = f"{name}.take: '{entry_id}' is already in the base format (change it instead)"
            problems.append(doc.at((name, "take", i), message))
        elif entry_id not in by_id:
            refs = sorted({ref for entry in every for ref in (entry.id, entry.name)})
            hint = did_you_mean(entry_id, refs)
            problems.append(
                doc.at((name, "take", i), f"{name}.take: no {name[:-1]} '{entry_id}' in the edition{hint}")
            )
        else:
            taken.append(by_id[entry_id])
    return problems, taken


def _overlay_needs(overlay: OverlaySource, base: RuleSet, ruleset: RuleSet) -> list[Diagnostic]:
    """The final format's needs, each at the overlay line that breaks it: the referring
    line when the overlay writes the referrer, else the removal that leaves it dangling."""
    doc, fmt = overlay.doc, ruleset.format.id
    problems = []
    needed_by: dict[tuple[str, str], dict[str, list[str]]] = {}
    for ref in dangling(references(ruleset.actions, ruleset.characters), ruleset.actions, ruleset.characters):
        kind, _ = referrer(ref)
        written = _written(overlay, kind, ref.referrer, str(ref.at[0]))  # a field name
        if written is not None:
            removed = ref.wanted in (overlay.actions if ref.of_action else overlay.characters).remove
            message = not_in(ref, fmt) + (" (this file removes it)" if removed else "")
            problems.append(doc.at((*written, *ref.at[1:]), message))
        else:  # the base wrote it: the removal that leaves it dangling is reported
            needed = ("actions" if ref.of_action else "characters", ref.wanted)
            needers = needed_by.setdefault(needed, {}).setdefault(_how(ref.field), [])
            if ref.referrer not in needers:
                needers.append(ref.referrer)
    for (kind, wanted), needs in needed_by.items():
        removals: tuple[str, ...] = getattr(overlay, kind).remove
        if wanted not in removals:
            continue  # a base entry naming what its own format lacks: the edition's problem
        removal = (kind, "remove", removals.index(wanted))
        who = ", ".join(
            how.format(s="s" if len(ids) > 1 else "", ids=", ".join(ids)) for how, ids in needs.items()
        )
        problems.append(doc.at(removal, f"{kind}.remove: cannot remove '{wanted}': {who}"))
    problems += duplicate_names(doc, ruleset.actions, lambda a: _written(overlay, "actions", a.id))
    for cycle in request_cycles(ruleset.actions):
        problems += _located_cycle(overlay, cycle)
    return problems + _overlay_turn(overlay, base, ruleset)


def _how(field: str) -> str:
    """How a base entry needs a removed one, as the removal's message lists it."""
    if field == "request":
        return "requested by {ids} (program)"
    if field == "triggers":
        return "triggered by character{s} {ids}"
    return f"named by {{ids}} ({field})"


def _located_cycle(overlay: OverlaySource, cycle: tuple[Reference, ...]) -> list[Diagnostic]:
    """At the request step that closes the cycle, or at another step of it the overlay writes,
    or else at the speed the overlay changed to immediate."""
    for k in (len(cycle) - 1, *range(len(cycle) - 1)):
        written = _written(overlay, "actions", cycle[k].referrer, "program")
        if written is not None:
            turned = (*cycle[k + 1 :], *cycle[: k + 1])
            return [overlay.doc.at((*written, *cycle[k].at[1:]), cycle_message(turned))]
    for ref in cycle:
        if "speed" in overlay.actions.change.get(ref.referrer, {}):
            return [overlay.doc.at(("actions", "change", ref.referrer, "speed"), cycle_message(cycle))]
    return []


def _overlay_turn(overlay: OverlaySource, base: RuleSet, ruleset: RuleSet) -> list[Diagnostic]:
    """Some action must still pass the turn: at the first removal or program change that
    took the last one away."""
    before = turn_passers(base.actions)
    if not before or turn_passers(ruleset.actions):
        return []
    no_passer = NO_PASSER.format(ruleset.format.id)
    for i, action_id in enumerate(overlay.actions.remove):
        if action_id in before:
            return [
                overlay.doc.at(
                    ("actions", "remove", i), f"actions.remove: cannot remove '{action_id}': {no_passer}"
                )
            ]
    changed = [a for a in overlay.actions.change if a in before and "program" in overlay.actions.change[a]]
    where: PathKey = ("actions", "change", changed[0], "program") if changed else ("actions",)
    return [overlay.doc.at(where, f"program: {no_passer}", key=True)]


def _written(overlay: OverlaySource, kind: str, entry_id: str, field: str = "") -> PathKey | None:
    """Where the overlay writes the entry (with `field`: where it writes that field of it)."""
    edits: Edits = getattr(overlay, kind)
    if field in edits.change.get(entry_id, {}) or (not field and entry_id in edits.change):
        return (kind, "change", entry_id, *((field,) if field else ()))
    index = next((i for i, e in enumerate(edits.add) if e.id == entry_id), None)
    return None if index is None else (kind, "add", index, *((field,) if field else ()))
