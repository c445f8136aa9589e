"""Stage 4 — link: resolve formats, overlays and cross-references into rule sets.

Every dangling reference is reported at the line that makes it: an unknown format or
type in an entry, an unknown id in an overlay's change or remove list, a program or
trigger naming an action or character its format does not have. What the entries of a
format need from each other (compiler/needs.py) is checked on the final format: no
immediate request cycle, no removal of what others name, some action passes the turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from blackpoker.compiler.cards import rank_label
from blackpoker.compiler.cost import CAUSE, Cost
from blackpoker.compiler.diagnostics import CompileError, Diagnostic, Location, did_you_mean
from blackpoker.compiler.load import Document, PathKey, is_path
from blackpoker.compiler.matcher import compile_matcher
from blackpoker.compiler.model import Action, Edition, Format, RuleSet, Trigger, Visibility
from blackpoker.compiler.needs import (
    CHARACTER_FIELDS,
    Reference,
    dangling,
    references,
    request_cycles,
    request_trigger_cycles,
    trigger_cycles,
    turn_passers,
)
from blackpoker.compiler.overlay_names import by_id
from blackpoker.compiler.parse import EditionSource, Edits, OverlaySource
from blackpoker.compiler.program import (
    BUILT_IN_NAMES,
    SOURCE,
    Ability,
    Amount,
    Become,
    CardRange,
    CausedBy,
    ChangeNumber,
    Choose,
    ChooseOne,
    DeclareAttackers,
    DeclareBlockers,
    Field,
    ForEach,
    Haste,
    If,
    Is,
    KindOfType,
    Mount,
    Move,
    Name,
    Node,
    Pile,
    PreventDamage,
    PutCharacter,
    Quantity,
    ReplaceEffect,
    Request,
    Scope,
    Step,
    Steps,
    Target,
    Targetable,
    TargetKind,
    binding,
    branches,
    reads,
    walk,
    walk_steps,
)

PILES = ("hand", "graveyard", "life")  # the built-in zones a program may read as {zone: …}
ZONES = ("hand", "graveyard", "life_top", "life_bottom")  # where a move may put cards


def check_edition(source: EditionSource) -> list[Diagnostic]:
    """Problems of an edition on its own: ids, declared names and per-format references."""
    doc, edition = source.doc, source.edition
    problems = _duplicates(doc, "formats", [f.id for f in edition.formats])
    problems += _duplicates(doc, "actions", [a.id for a in source.actions])
    problems += _duplicates(doc, "characters", [c.id for c in source.characters])
    problems += _duplicates(doc, "fogs", [f.id for f in source.fogs])
    problems += _duplicates(doc, "labels", [label.id for label in edition.labels])
    formats = [f.id for f in edition.formats]
    for i, action in enumerate(source.actions):
        problems += _check_action(source, doc, ("actions", i), action, formats)
    for i, character in enumerate(source.characters):
        problems += _check_character(source, doc, ("characters", i), character, formats)
    problems += check_abilities(source, doc, ("abilities",), edition.abilities, always=True)
    actions = [a.id for a in source.actions]
    for i, fog in enumerate(source.fogs):
        path = ("fogs", i)
        problems += _check_formats(doc, path, fog, formats)
        problems += _check_name(doc, path, fog, "type", edition.fog_types, "fog type")
        problems += _check_name(doc, path, fog, "action", actions, "action")
    # What the entries of each format need from each other is checked with the rest: a
    # problem above leaves the entries usable (a duplicate id keeps its first entry).
    return sorted(set(problems + _edition_needs(source)), key=lambda d: (d.location, d.message))


def link(source: EditionSource, format_id: str) -> RuleSet:
    problems = check_edition(source)
    if problems:
        raise CompileError(problems)
    fmt = next((f for f in source.edition.formats if f.id == format_id), None)
    if fmt is None:
        known = ", ".join(f.id for f in source.edition.formats)
        message = f"edition {source.edition.id} has no format '{format_id}' (known: {known})"
        raise CompileError([Diagnostic(Location("--format", 0, 0), message)])
    return finish(_official(source, fmt))


def link_overlay(source: EditionSource, overlay: OverlaySource, under: RuleSet | None = None) -> RuleSet:
    """The overlay's format: `source`'s official base format with its edits, or, for an
    overlay based on another local-rule file, that file's format (`under`) with them."""
    problems = check_edition(source)
    if problems:
        raise CompileError(problems)
    ruleset, problems = _apply(source, overlay, under)
    if problems:
        raise CompileError(problems)
    return finish(ruleset)


@dataclass(frozen=True, slots=True)
class Added:
    """The ids an overlay adds: its programs may name them as if the edition had them."""

    actions: frozenset[str] = frozenset()
    characters: frozenset[str] = frozenset()


NOTHING_ADDED = Added()  # an edition's own check: every name must be the edition's


def check_overlay(
    source: EditionSource, overlay: OverlaySource, under: RuleSet | None = None
) -> list[Diagnostic]:
    return _apply(source, overlay, under)[1]


def _official(source: EditionSource, fmt: Format) -> RuleSet:
    return RuleSet(
        source.edition,
        fmt,
        tuple(a for a in source.actions if fmt.id in a.formats),
        tuple(c for c in source.characters if fmt.id in c.formats),
        tuple(f for f in source.fogs if fmt.id in f.formats),
    )


def finish(ruleset: RuleSet) -> RuleSet:
    actions = tuple(replace(a, matcher=compile_matcher(a.key) if a.key else None) for a in ruleset.actions)
    return replace(ruleset, actions=actions)


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
    official = [f.id for f in edition.formats]
    if fmt.id in official:
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
    if under is None and fmt.base not in official:
        problems.append(_unknown_base(doc, str(fmt.base), edition))
        return RuleSet(edition, fmt, (), ()), problems
    base = under if under is not None else _official(source, edition.format(str(fmt.base)))
    every = {"actions": source.actions, "characters": source.characters}
    overlay = by_id(overlay, {"actions": base.actions, "characters": base.characters}, every)
    doc = overlay.doc
    formats = [*official, *([] if under is None else [under.format.id]), fmt.id]
    actions, action_problems = _edit(doc, "actions", base.actions, source.actions, overlay.actions, fmt.id)
    characters, character_problems = _edit(
        doc, "characters", base.characters, source.characters, overlay.characters, fmt.id
    )
    problems += action_problems + character_problems + _trump_action_edits(doc, base, overlay.actions)
    added = Added(
        frozenset(a.id for a in overlay.actions.add), frozenset(c.id for c in overlay.characters.add)
    )
    for i, action in enumerate(overlay.actions.add):
        problems += _check_action(source, doc, ("actions", "add", i), action, formats, added)
    changed = {a.id: a for a in actions if a.id in overlay.actions.change}
    for entry_id, fields in overlay.actions.change.items():
        # the names of the action as changed: a field the change leaves (caused_by) still
        # holds for its program
        whole = changed.get(entry_id, fields)
        problems += _check_action(source, doc, ("actions", "change", entry_id), fields, formats, added, whole)
    for i, character in enumerate(overlay.characters.add):
        problems += _check_character(source, doc, ("characters", "add", i), character, formats)
    for entry_id, fields in overlay.characters.change.items():
        problems += _check_character(source, doc, ("characters", "change", entry_id), fields, formats)
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
    problems += _duplicates(doc, (name, "add"), [entry.id for entry in added])
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


def _get(entry: Any, name: str) -> Any:
    return entry.get(name) if isinstance(entry, dict) else getattr(entry, name)


def _check_action(
    source: EditionSource,
    doc: Document,
    path: PathKey,
    action: Any,
    formats: Iterable[str],
    added: Added = NOTHING_ADDED,
    named: Any = None,
) -> list[Diagnostic]:
    """An action's formats and section as written, and what it names (as `named` reads, the
    whole action a change makes, when given)."""
    problems = _check_formats(doc, path, action, formats)
    problems += _check_name(doc, path, action, "section", source.edition.sections, "section")
    return problems + check_action_names(source, doc, path, action if named is None else named, added)


def check_action_names(
    source: EditionSource, doc: Document, path: PathKey, action: Any, added: Added = NOTHING_ADDED
) -> list[Diagnostic]:
    """What an action names must be the edition's: its program's names, its type and cost
    units (an extra list's actions, which have no section or format, are checked so too)."""
    edition = source.edition
    problems = _check_program(source, doc, path, action, added)
    if _get(action, "type") != "":  # an extra list's set-up, which no player requests, has none
        problems += _check_name(doc, path, action, "type", edition.action_types, "action type")
    cost = _get(action, "cost")
    units = cost.units if cost else ()
    declared = {u.unit for u in edition.cost_units}  # an undeclared C is only that
    if CAUSE in units and CAUSE in declared and (units.count(CAUSE) > 1 or _get(action, "caused_by") is None):
        message = f"cost: {CAUSE} is the drive of the character that causes the action: once, with caused_by"
        problems.append(doc.at((*path, "cost"), message))
    return problems + _foreign_units(doc, (*path, "cost"), edition, units)


def _foreign_units(doc: Document, path: PathKey, edition: Edition, named: Iterable[str]) -> list[Diagnostic]:
    """The units named at `path` (a cost, a waiver) that are not cost units of the edition."""
    units = sorted(u.unit for u in edition.cost_units)
    known = f"is not a cost unit of {edition.id} (known: {', '.join(units)})"
    return [doc.at(path, f"{path[-1]}: unit '{unit}' {known}") for unit in sorted(set(named) - set(units))]


def _check_program(
    source: EditionSource, doc: Document, path: PathKey, action: Any, added: Added
) -> list[Diagnostic]:
    """Every name a program uses must exist: requested actions (in each of the action's
    official formats), character ids and character types; and every name a step reads must
    be bound before it on every path."""
    steps = _get(action, "steps") or ()
    program = (*path, "program")
    requires = _get(action, "requires")
    nodes = [*walk_steps(steps, program), *(walk(requires, path) if requires is not None else ())]
    problems = [doc.at(where, message) for where, message in _unknown_names(source, action, nodes, added)]
    # `key` is the key cards the player requests with: the requirement holds per key way
    problems += [
        doc.at(where, f"requires: '{node.name}' names cards of a request, which does not exist yet")
        for where, node in (walk(requires, path) if requires is not None else ())
        if isinstance(node, Name) and node.name != "key"
    ]
    caused = _get(action, "caused_by")
    _bound(doc, program, steps, () if caused is None else (SOURCE,), problems)
    problems += _check_caused_by(source, doc, path, caused, added)
    problems += _check_triggered_by(source, doc, path, _get(action, "triggered_by"), added)
    if _get(action, "triggered_by") is not None and _get(action, "trigger") is Trigger.DIRECT:
        message = "triggered_by: an action with a trigger condition is triggered (trigger: triggered)"
        problems.append(doc.at((*path, "triggered_by"), message, key=True))
    if caused is not None and _get(action, "trigger") not in (None, Trigger.DIRECT):
        message = "caused_by: a character causes a request its player makes (trigger: direct)"
        problems.append(doc.at((*path, "caused_by"), message, key=True))
    return problems


def _check_caused_by(
    source: EditionSource, doc: Document, path: PathKey, caused: CausedBy | None, added: Added
) -> list[Diagnostic]:
    """The character type and id a caused action names must be the edition's."""
    if caused is None:
        return []
    types = source.edition.character_types
    characters = sorted({c.id for c in source.characters} | added.characters)
    return [
        doc.at((*path, *caused.at(name)), f"caused_by.{name}: {_unknown(what, value, known)}")
        for name, value, what, known in (
            ("type", caused.type, "character type", types),
            ("kind", caused.kind, "character", characters),
        )
        if value is not None and value not in known
    ]


def _check_triggered_by(
    source: EditionSource, doc: Document, path: PathKey, rule: Any, added: Added
) -> list[Diagnostic]:
    """The resolved or requested action must exist (in the action's formats: checked per format
    with the other references); its condition reads only the names every program may read."""
    if rule is None:
        return []
    problems = []
    known = {a.id for a in source.actions} | added.actions
    for name in ("resolved", "requested"):
        named = getattr(rule, name)
        if named is not None and named not in known:
            problems.append(doc.at((*path, *rule.at(name)), f"triggered_by.{name}: unknown action '{named}'"))
    for where, node in walk(rule, path):
        if isinstance(node, Name) and node.name not in BUILT_IN_NAMES:
            message = (
                f"triggered_by.if: '{node.name}' is not a name it can read ({', '.join(BUILT_IN_NAMES)})"
            )
            problems.append(doc.at(where, message))
    return problems


def _unknown_names(
    source: EditionSource, action: Any, nodes: Iterable[tuple[PathKey, Node]], added: Added
) -> Iterator[tuple[PathKey, str]]:
    actions = {a.id: a.formats for a in source.actions}
    untargeted = {a.id for a in source.actions if a.steps and not any(isinstance(s, Target) for s in a.steps)}
    characters = {c.id for c in source.characters} | added.characters
    official = {f.id for f in source.edition.formats}
    own_formats = [f for f in (_get(action, "formats") or ()) if f in official]
    types = source.edition.character_types
    declared = tuple(z.id for z in source.edition.core.zones)
    zones, piles = (*ZONES, *declared), (*PILES, *declared)
    labels = [label.id for label in source.edition.labels]
    named_labels = (None, *labels)  # a step without a label reads the characters' attack rule
    faces = [z.id for z in source.edition.core.zones if z.visibility is Visibility.FACES]
    step_at: set[PathKey] = set()
    for where, node in nodes:
        if isinstance(node, Target):
            yield from _target_problems(where, node, faces)
        if isinstance(node, Step):
            step_at.add(where)
        if isinstance(node, Request):
            if node.action not in actions and node.action not in added.actions:
                yield (*where, *node.at("action")), f"request: unknown action '{node.action}'"
                continue
            missing = [f for f in own_formats if f not in actions.get(node.action, own_formats)]
            if missing:
                message = f"request: '{node.action}' is not an action of format {', '.join(missing)}"
                yield (*where, *node.at("action")), message
            if node.target is not None and node.action in untargeted:
                yield (*where, *node.at("target")), f"request.target: '{node.action}' names no target"
        elif (
            isinstance(node, Target)
            and node.action is not None
            and node.action not in (*actions, *added.actions)
        ):
            yield (*where, *node.at("action")), f"target.action: unknown action '{node.action}'"
        elif isinstance(node, Targetable) and node.by not in (*actions, *added.actions):
            yield (*where, *node.at("by")), f"targetable.by: unknown action '{node.by}'"
        elif isinstance(node, Targetable) and node.by in untargeted:
            yield (*where, *node.at("by")), f"targetable.by: '{node.by}' names no target"
        elif isinstance(node, Move) and node.to not in zones:
            yield (*where, *node.at("to")), f"move.to: {_unknown('zone', node.to, zones)}"
        elif isinstance(node, Pile) and node.zone not in piles:
            yield (*where, *node.at("zone")), f"zone: {_unknown('zone', node.zone, piles)}"
        elif isinstance(node, Choose) and node.zone is not None and node.zone not in piles:
            yield (*where, *node.at("zone")), f"choose.from: {_unknown('zone', node.zone, piles)}"
        elif isinstance(node, Choose) and node.least and not isinstance(node.count, Amount):
            yield (*where, *node.at("least")), "choose.min: only with count: any"
        elif isinstance(node, CardRange) and node.low > node.high:
            yield (
                where,
                (
                    f"match: descending range {rank_label(node.low)}〜{rank_label(node.high)}: "
                    "write the lower number first"
                ),
            )
        elif isinstance(node, DeclareAttackers | DeclareBlockers | Haste) and node.label not in named_labels:
            yield (*where, *node.at("label")), f"label: {_unknown('label', str(node.label), labels)}"
        if isinstance(node, PutCharacter | Mount | Become):
            kind = node.as_  # a character id, or a type whose key decides (checked below)
            if isinstance(kind, str) and kind not in characters:
                yield (
                    (*where, *node.at("as_")),
                    f"{node.op}.as: {_unknown('character', kind, sorted(characters))}",
                )
        type_name = node.type if isinstance(node, Target | Field | Is | KindOfType) else None
        if type_name is not None and type_name not in types:
            # named from the step that holds it, as written: modify_size.of.type
            step = next(where[:n] for n in range(len(where), 0, -1) if where[:n] in step_at)
            inner = ".".join(map(str, (*where[len(step) :], *node.at("type"))))
            yield (*where, *node.at("type")), f"{inner}: {_unknown('character type', type_name, types)}"


def _target_problems(where: PathKey, node: Target, faces: list[str]) -> Iterator[tuple[PathKey, str]]:
    """A card target names a zone whose cards have faces (the trumps); `zone` and `face` are a
    card target's filters, `state` a character target's."""
    is_card = node.kind is TargetKind.CARD
    if is_card and node.zone not in faces:
        known = ", ".join(faces) or "none"
        yield (
            (*where, *node.at("zone")),
            f"target.zone: '{node.zone}' is no zone whose cards have faces ({known})",
        )
    for name, value, fits in (
        ("zone", node.zone, is_card),
        ("face", node.face, is_card),
        ("state", node.state, node.kind is TargetKind.CHARACTER),
    ):
        if value is not None and not fits:
            yield (*where, *node.at(name)), f"target.{name}: not a filter of a {node.kind} target"


def _bound(
    doc: Document, path: PathKey, steps: Steps, bound: tuple[str, ...], problems: list[Diagnostic]
) -> tuple[str, ...]:
    """Check that each name read is bound before on every path; the names bound after `steps`.
    A name bound in only some branches of an if / may / choose_one is not bound after it; a
    for_each's name is bound inside its steps only."""
    for i, step in enumerate(steps):
        where = (*path, i)
        for at, read in reads(step, where):
            if read.name not in BUILT_IN_NAMES and read.name not in bound:
                before = ", ".join(bound) if bound else "nothing"
                why = (
                    "names the character that caused the request: only an action with caused_by has one"
                    if read.name == SOURCE
                    else f"is not bound here (bound before: {before})"
                )
                problems.append(doc.at(at, f"{at[-1]}: '{read.name}' {why}"))
        inner = (*bound, step.as_) if isinstance(step, ForEach) else bound
        after = [set(_bound(doc, (*where, *at), nested, inner, problems)) for at, nested in branches(step)]
        if isinstance(step, If | ChooseOne):
            common = set.intersection(*after)
            bound = (*bound, *sorted(name for name in common if name not in bound))
        name = binding(step)
        if name is not None and name not in bound:
            bound = (*bound, name)
    return bound


def _check_character(
    source: EditionSource, doc: Document, path: PathKey, character: Any, formats: Iterable[str]
) -> list[Diagnostic]:
    edition = source.edition
    problems = _check_formats(doc, path, character, formats)
    problems += _check_name(doc, path, character, "type", edition.character_types, "character type")
    labels = [label.id for label in edition.labels]
    for i, label in enumerate(_get(character, "labels") or ()):
        if label not in labels:
            problems.append(doc.at((*path, "labels", i), f"labels: {_unknown('label', label, labels)}"))
    for i, type_name in enumerate(_get(character, "waives_cost_of") or ()):
        if type_name not in edition.action_types:
            problems.append(
                doc.at((*path, "waives_cost_of", i), _unknown("action type", type_name, edition.action_types))
            )
    for name in ("waives_units", "waives_timing"):
        if _get(character, name) and not _get(character, "waives_cost_of"):
            problems.append(
                doc.at((*path, name), f"{name}: only with waives_cost_of (the action types it waives)")
            )
    units = [u.unit for u in edition.cost_units]
    for i, unit in enumerate(_get(character, "waives_units") or ()):
        if unit not in units:
            problems.append(doc.at((*path, "waives_units", i), _unknown("cost unit", unit, units)))
    abilities = _get(character, "abilities") or ()
    return problems + check_abilities(source, doc, (*path, "abilities"), abilities)


def check_abilities(
    source: EditionSource,
    doc: Document,
    path: PathKey,
    abilities: Sequence[Ability],
    added: Added = NOTHING_ADDED,
    always: bool = False,
) -> list[Diagnostic]:
    """Continuous abilities name the edition's character types and actions (or those `added`);
    their conditions are read for the owner before any request, so they read no names. One
    that is `always` on (an edition's, a local rule's) has no owner: its scope is all, and it
    cannot shield anyone."""
    problems = []
    actions = {a.id for a in source.actions} | added.actions
    for i, ability in enumerate(abilities):
        where = (*path, i)
        if always and ability.scope not in (None, Scope.ALL):
            message = f"scope: an ability always on has no owner: its scope is all, not {ability.scope.value}"
            problems.append(doc.at((*where, *ability.at("scope")), message))
        if always and isinstance(ability, PreventDamage):
            problems.append(
                doc.at(where, f"{ability.word}: needs an owner (a trump's or a character's ability)")
            )
        if isinstance(ability, ChangeNumber):
            problems += _check_change(source, doc, where, ability, actions)
        if isinstance(ability, ReplaceEffect):
            if ability.action not in actions:
                message = f"replace_effect.action: unknown action '{ability.action}'"
                problems.append(doc.at((*where, *ability.at("action")), message))
            # its program is checked like the replaced action's own
            program = (*where, *ability.at("steps"))
            nodes = walk_steps(ability.steps, program)
            problems += [
                doc.at(found, message) for found, message in _unknown_names(source, {}, nodes, added)
            ]
            _bound(doc, program, ability.steps, (), problems)
        # a replace_effect's program reads names as the replaced request's own program would
        read = walk(ability, where)
        if isinstance(ability, ReplaceEffect):
            read = walk(ability.cond, (*where, *ability.at("cond"))) if ability.cond is not None else iter(())
        for found, node in read:
            if isinstance(node, Name):
                message = (
                    f"'{node.name}': an ability's condition reads no names (it is read before any request)"
                )
                problems.append(doc.at(found, message))
    return problems


def _check_change(
    source: EditionSource, doc: Document, where: PathKey, change: ChangeNumber, actions: set[str]
) -> list[Diagnostic]:
    """A `change` names a character type, an action and cost units of the edition, and only
    the fields its number has: an action's cost or use limit names the action; a cost is set
    to units and has units waived, not added to; a number is set to a number."""
    problems = []

    def at(name: str, message: str) -> Diagnostic:
        return doc.at((*where, *change.at(name)), message)

    number = change.number.value
    of_action = change.number in (Quantity.COST, Quantity.USES_PER_TURN)
    if of_action and change.action is None:
        problems.append(doc.at(where, f"change: the {number} of which action? (action: ID)"))
    if not of_action and change.action is not None:
        problems.append(at("action", f"action: the {number} is not an action's"))
    if change.number is Quantity.COST and change.add:
        problems.append(at("add", "add: a cost is set or has units waived, not added to"))
    if change.number is Quantity.COST and isinstance(change.set_to, int):
        problems.append(at("set_to", "set: a cost is written as its units (BD), not a number"))
    if change.number is not Quantity.COST and change.waive is not None:
        problems.append(at("waive", f"waive: only a cost has units waived, not the {number}"))
    if change.number is not Quantity.COST and not isinstance(change.set_to, int | None):
        problems.append(at("set_to", f"set: the {number} is a number"))
    types = source.edition.character_types
    if change.type is not None and change.type not in types:
        problems.append(at("type", f"type: {_unknown('character type', change.type, types)}"))
    if change.action is not None and change.action not in actions:
        problems.append(at("action", f"action: unknown action '{change.action}'"))
    cost = change.set_to.units if isinstance(change.set_to, Cost) else ()
    problems += _foreign_units(doc, (*where, *change.at("set_to")), source.edition, cost)
    return problems + _foreign_units(doc, (*where, *change.at("waive")), source.edition, change.waive or ())


def _check_name(
    doc: Document, path: PathKey, entry: Any, field: str, known: Sequence[str], what: str
) -> list[Diagnostic]:
    value = _get(entry, field)
    if value is None or value in known:
        return []
    return [doc.at((*path, field), f"{field}: {_unknown(what, value, known)}")]


def _check_formats(doc: Document, path: PathKey, entry: Any, formats: Iterable[str]) -> list[Diagnostic]:
    allowed = list(formats)
    first = _get(entry, "format")
    if not first or first in allowed:
        return []
    return [doc.at((*path, "format"), f"format: {_unknown('format', first, allowed)}")]


def _unknown(what: str, value: str, known: Iterable[str]) -> str:
    return f"unknown {what} '{value}' (declared: {', '.join(known)})"


def _edition_needs(source: EditionSource) -> list[Diagnostic]:
    """Per official format: references its entries make, request cycles, turn passing."""
    doc, edition = source.doc, source.edition
    where = {("actions", a.id): ("actions", i) for i, a in enumerate(source.actions)}
    where |= {("characters", c.id): ("characters", i) for i, c in enumerate(source.characters)}
    refs = list(references(source.actions, source.characters))
    # Requests stay inside their action's formats (checked above), so passing the turn
    # through them is the same in the edition as in each format.
    passers = turn_passers(source.actions)
    missing: dict[tuple[PathKey, str], list[str]] = {}
    problems = []
    for k, fmt in enumerate(edition.formats):
        ruleset = _official(source, fmt)
        members = {("actions", a.id) for a in ruleset.actions} | {
            ("characters", c.id) for c in ruleset.characters
        }
        for ref in dangling(
            (r for r in refs if _referrer(r) in members), ruleset.actions, ruleset.characters
        ):
            path = (*where[_referrer(ref)], *ref.at)
            missing.setdefault((path, _not_in(ref, "")), []).append(fmt.id)
        problems += _duplicate_names(doc, ruleset.actions, lambda a: where[("actions", a.id)])
        if not passers & {a.id for a in ruleset.actions}:
            problems.append(doc.at(("formats", k, "id"), f"formats: {_NO_PASSER.format(fmt.id)}"))
    problems += [doc.at(path, f"{message}{', '.join(ids)}") for (path, message), ids in missing.items()]
    for cycle in request_cycles(source.actions):
        problems.append(doc.at((*where[("actions", cycle[-1].referrer)], *cycle[-1].at), _cycle(cycle)))
    for looped in request_trigger_cycles(source.actions):
        message = (
            f"triggered_by.requested: '{looped}' resolves at once when triggered and requests what "
            "triggers it again, forever"
        )
        problems.append(doc.at((*where[("actions", looped)], "triggered_by", "requested"), message))
    for ring in trigger_cycles(source.actions):
        names = " -> ".join(f"'{name}'" for name in (*ring, ring[0]))
        message = f"triggered_by: {names}: immediate actions that trigger each other on resolution, forever"
        problems.append(doc.at((*where[("actions", ring[0])], "triggered_by", "resolved"), message))
    return sorted(set(problems), key=lambda d: (d.location, d.message))


_NO_PASSER = (
    "no action of format {} passes the turn (a pass_turn step, in its program or in one it"
    " requests), so every game would stop at the decision cap"
)


def _referrer(ref: Reference) -> tuple[str, str]:
    """The list the referring entry is in, and its id (characters name actions by CHARACTER_FIELDS)."""
    return ("characters" if ref.field in CHARACTER_FIELDS else "actions", ref.referrer)


def _not_in(ref: Reference, format_id: str) -> str:
    what = "an action" if ref.of_action else "a character"
    return f"{ref.field}: '{ref.wanted}' is not {what} of format {format_id}"


def _cycle(cycle: Sequence[Reference]) -> str:
    names = " -> ".join(f"'{name}'" for name in (*(ref.referrer for ref in cycle), cycle[-1].wanted))
    return f"request: {names} is an immediate request cycle (each resolves inside the last, forever)"


def _duplicate_names(
    doc: Document, actions: Sequence[Action], path_of: Callable[[Action], PathKey | None]
) -> list[Diagnostic]:
    """Two actions of one format with one name: reported at the second, or at the one this
    document writes (`path_of` gives None for an entry it does not)."""
    first: dict[str, Action] = {}
    problems = []
    for action in actions:
        other = first.setdefault(action.name, action)
        if other is action:
            continue
        mine, theirs = (action, other) if path_of(action) is not None else (other, action)
        at = path_of(mine)
        if at is not None:
            message = f"name: '{action.name}' is already the name of action '{theirs.id}' in this format"
            problems.append(doc.at((*at, "name"), message))
    return problems


def _overlay_needs(overlay: OverlaySource, base: RuleSet, ruleset: RuleSet) -> list[Diagnostic]:
    """The final format's needs, each at the overlay line that breaks it: the referring
    line when the overlay writes the referrer, else the removal that leaves it dangling."""
    doc, fmt = overlay.doc, ruleset.format.id
    problems = []
    needed_by: dict[tuple[str, str], dict[str, list[str]]] = {}
    for ref in dangling(references(ruleset.actions, ruleset.characters), ruleset.actions, ruleset.characters):
        kind, _ = _referrer(ref)
        written = _written(overlay, kind, ref.referrer, str(ref.at[0]))  # a field name
        if written is not None:
            removed = ref.wanted in (overlay.actions if ref.of_action else overlay.characters).remove
            message = _not_in(ref, fmt) + (" (this file removes it)" if removed else "")
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
    problems += _duplicate_names(doc, ruleset.actions, lambda a: _written(overlay, "actions", a.id))
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
            return [overlay.doc.at((*written, *cycle[k].at[1:]), _cycle(turned))]
    for ref in cycle:
        if "speed" in overlay.actions.change.get(ref.referrer, {}):
            return [overlay.doc.at(("actions", "change", ref.referrer, "speed"), _cycle(cycle))]
    return []


def _overlay_turn(overlay: OverlaySource, base: RuleSet, ruleset: RuleSet) -> list[Diagnostic]:
    """Some action must still pass the turn: at the first removal or program change that
    took the last one away."""
    before = turn_passers(base.actions)
    if not before or turn_passers(ruleset.actions):
        return []
    no_passer = _NO_PASSER.format(ruleset.format.id)
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


def _duplicates(doc: Document, path: PathKey | str, ids: Sequence[str]) -> list[Diagnostic]:
    prefix = (path,) if isinstance(path, str) else path
    seen: set[str] = set()
    problems = []
    for i, entry_id in enumerate(ids):
        if entry_id in seen:
            problems.append(doc.at((*prefix, i, "id"), f"duplicate id '{entry_id}'"))
        seen.add(entry_id)
    return problems
