"""The checks of an edition: its ids, what its entries name, and what each official format's
entries need from each other (compiler/needs.py). The environment runs them once per edition
(`Environment.checked`); the document kinds check their own entries with the same functions."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from blackpoker.compiler.link import official
from blackpoker.compiler.load import Document, PathKey
from blackpoker.compiler.needs import (
    CHARACTER_FIELDS,
    Reference,
    dangling,
    references,
    replacement_loop,
    request_cycles,
    request_trigger_cycles,
    stops_the_turn,
    trigger_cycles,
    turn_passers,
)
from blackpoker.compiler.parse import EditionSource
from blackpoker.runtime.rules.cards import rank_label
from blackpoker.runtime.rules.cost import CAUSE, Cost
from blackpoker.runtime.rules.diagnostics import Diagnostic
from blackpoker.runtime.rules.enums import BUILT_IN_NAMES, SOURCE, BuiltInName, Destination, Zone
from blackpoker.runtime.rules.model import Action, Edition, Trigger, Visibility
from blackpoker.runtime.rules.program import (
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
    word,
)


def check_edition(source: EditionSource) -> list[Diagnostic]:
    """Problems of an edition on its own: ids, declared names and per-format references."""
    doc, edition = source.doc, source.edition
    problems = duplicates(doc, "formats", [f.id for f in edition.formats])
    problems += duplicates(doc, "actions", [a.id for a in source.actions])
    problems += duplicates(doc, "characters", [c.id for c in source.characters])
    problems += duplicates(doc, "fogs", [f.id for f in source.fogs])
    problems += duplicates(doc, "labels", [label.id for label in edition.labels])
    formats = [f.id for f in edition.formats]
    for i, action in enumerate(source.actions):
        problems += check_action(source, doc, ("actions", i), action, formats)
    for i, character in enumerate(source.characters):
        problems += check_character(source, doc, ("characters", i), character, formats)
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


@dataclass(frozen=True, slots=True)
class Added:
    """The ids an overlay adds: its programs may name them as if the edition had them."""

    actions: frozenset[str] = frozenset()
    characters: frozenset[str] = frozenset()


NOTHING_ADDED = Added()  # an edition's own check: every name must be the edition's


@dataclass(frozen=True, slots=True)
class _Ids:
    """The ids of an edition's entries and those an overlay adds, looked up without joining
    the two: an entry's check costs no more in a long list than in a short one."""

    own: Collection[str]
    added: frozenset[str]

    def __contains__(self, name: object) -> bool:
        return name in self.own or name in self.added

    def __iter__(self) -> Iterator[str]:
        yield from self.own
        yield from sorted(self.added.difference(self.own))


def _actions(source: EditionSource, added: Added) -> _Ids:
    return _Ids(source.action_by_id, added.actions)


def _characters(source: EditionSource, added: Added) -> _Ids:
    return _Ids(source.character_ids, added.characters)


def _get(entry: Any, name: str) -> Any:
    return entry.get(name) if isinstance(entry, dict) else getattr(entry, name)


def check_action(
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
        if isinstance(node, Name) and node.name != BuiltInName.KEY
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
    characters = _characters(source, added)
    return [
        doc.at((*path, *caused.at(name)), f"caused_by.{name}: {_unknown(what, value, sorted(known))}")
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
    known = _actions(source, added)
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
    by_id = source.action_by_id
    actions = _actions(source, added)
    characters = _characters(source, added)
    official = {f.id for f in source.edition.formats}
    own_formats = [f for f in (_get(action, "formats") or ()) if f in official]
    types = source.edition.character_types
    declared = tuple(z.id for z in source.edition.core.zones)
    zones, piles = (*Destination, *declared), (*Zone, *declared)
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
            if node.action not in actions:
                yield (*where, *node.at("action")), f"request: unknown action '{node.action}'"
                continue
            requested = by_id.get(node.action)
            missing = [f for f in own_formats if requested is not None and f not in requested.formats]
            if missing:
                message = f"request: '{node.action}' is not an action of format {', '.join(missing)}"
                yield (*where, *node.at("action")), message
            if node.target is not None and _untargeted(by_id.get(node.action)):
                yield (*where, *node.at("target")), f"request.target: '{node.action}' names no target"
        elif isinstance(node, Target) and node.action is not None and node.action not in actions:
            yield (*where, *node.at("action")), f"target.action: unknown action '{node.action}'"
        elif isinstance(node, Targetable) and node.by not in actions:
            yield (*where, *node.at("by")), f"targetable.by: unknown action '{node.by}'"
        elif isinstance(node, Targetable) and _untargeted(by_id.get(node.by)):
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
                    f"{word(node)}.as: {_unknown('character', kind, sorted(characters))}",
                )
        type_name = node.type if isinstance(node, Target | Field | Is | KindOfType) else None
        if type_name is not None and type_name not in types:
            # named from the step that holds it, as written: modify_size.of.type
            step = next(where[:n] for n in range(len(where), 0, -1) if where[:n] in step_at)
            inner = ".".join(map(str, (*where[len(step) :], *node.at("type"))))
            yield (*where, *node.at("type")), f"{inner}: {_unknown('character type', type_name, types)}"


def _untargeted(action: Action | None) -> bool:
    """An action of the edition with a program that names no target."""
    return action is not None and bool(action.steps) and not any(isinstance(s, Target) for s in action.steps)


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


def check_character(
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
    actions = _actions(source, added)
    for i, ability in enumerate(abilities):
        where = (*path, i)
        if always and ability.scope not in (None, Scope.ALL):
            message = f"scope: an ability always on has no owner: its scope is all, not {ability.scope.value}"
            problems.append(doc.at((*where, *ability.at("scope")), message))
        if always and isinstance(ability, PreventDamage):
            problems.append(
                doc.at(where, f"{word(ability)}: needs an owner (a trump's or a character's ability)")
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
    source: EditionSource, doc: Document, where: PathKey, change: ChangeNumber, actions: _Ids
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
    # A repeated id stands for its first entry (the repeat is reported as such).
    where = {("actions", a.id): ("actions", i) for i, a in reversed(list(enumerate(source.actions)))}
    where |= {
        ("characters", c.id): ("characters", i) for i, c in reversed(list(enumerate(source.characters)))
    }
    refs = list(references(source.actions, source.characters))
    # Requests stay inside their action's formats (checked above), so passing the turn
    # through them is the same in the edition as in each format.
    passers = turn_passers(source.actions)
    missing: dict[tuple[PathKey, str], list[str]] = {}
    problems = []
    for k, fmt in enumerate(edition.formats):
        ruleset = official(source, fmt)
        members = {("actions", a.id) for a in ruleset.actions} | {
            ("characters", c.id) for c in ruleset.characters
        }
        for ref in dangling((r for r in refs if referrer(r) in members), ruleset.actions, ruleset.characters):
            path = (*where[referrer(ref)], *ref.at)
            missing.setdefault((path, not_in(ref, "")), []).append(fmt.id)
        problems += duplicate_names(doc, ruleset.actions, lambda a: where[("actions", a.id)])
        if not passers & {a.id for a in ruleset.actions}:
            problems.append(doc.at(("formats", k, "id"), f"formats: {NO_PASSER.format(fmt.id)}"))
    problems += [doc.at(path, f"{message}{', '.join(ids)}") for (path, message), ids in missing.items()]
    at = {a.id: where[("actions", a.id)] for a in source.actions}
    problems += loop_problems(doc, source.actions, at)
    return sorted(set(problems), key=lambda d: (d.location, d.message))


def loop_problems(doc: Document, actions: Sequence[Action], at: Mapping[str, PathKey]) -> list[Diagnostic]:
    """The loops among `actions` that no decision ends (immediate request cycles, triggers that
    trigger each other), each reported at the action of `at` (id -> path in `doc`) that closes it."""
    problems = []
    for cycle in request_cycles(actions):
        closing = cycle[-1]
        if closing.referrer in at:
            problems.append(doc.at((*at[closing.referrer], *closing.at), cycle_message(cycle)))
    for looped in request_trigger_cycles(actions):
        message = (
            f"triggered_by.requested: '{looped}' resolves at once when triggered and requests what "
            "triggers it again, forever"
        )
        if looped in at:
            problems.append(doc.at((*at[looped], "triggered_by", "requested"), message))
    for ring in trigger_cycles(actions):
        names = " -> ".join(f"'{name}'" for name in (*ring, ring[0]))
        message = f"triggered_by: {names}: immediate actions that trigger each other on resolution, forever"
        if ring[0] in at:
            problems.append(doc.at((*at[ring[0]], "triggered_by", "resolved"), message))
    return problems


def ability_loops(
    doc: Document, actions: Sequence[Action], path: PathKey, abilities: Sequence[Ability], owner: str
) -> list[Diagnostic]:
    """Continuous abilities that, once on (`owner` says when), make a request come back to
    itself forever or leave no action that passes the turn: every game would crash or never
    end. Each at the ability, with the chain that loops."""
    problems = []
    for i, ability in enumerate(abilities):
        where = (*path, i)
        if isinstance(ability, ReplaceEffect):
            chain = replacement_loop(actions, ability)
            if chain is not None:
                names = " -> ".join(f"'{name}'" for name in chain)
                message = (
                    f"replace_effect: while {owner}, a request of '{ability.action}' runs this program, "
                    f"which requests it again, forever: {names}"
                )
                problems.append(doc.at(where, message))
        stopped = stops_the_turn(actions, ability)
        if stopped:
            message = (
                f"{word(ability)}: while {owner}, no action passes the turn ({', '.join(stopped)} "
                "no longer does): a turn would never end"
            )
            problems.append(doc.at(where, message))
    return problems


NO_PASSER = (
    "no action of format {} passes the turn (a pass_turn step, in its program or in one it"
    " requests), so every game would stop at the decision cap"
)


def referrer(ref: Reference) -> tuple[str, str]:
    """The list the referring entry is in, and its id (characters name actions by CHARACTER_FIELDS)."""
    return ("characters" if ref.field in CHARACTER_FIELDS else "actions", ref.referrer)


def not_in(ref: Reference, format_id: str) -> str:
    what = "an action" if ref.of_action else "a character"
    return f"{ref.field}: '{ref.wanted}' is not {what} of format {format_id}"


def cycle_message(cycle: Sequence[Reference]) -> str:
    names = " -> ".join(f"'{name}'" for name in (*(ref.referrer for ref in cycle), cycle[-1].wanted))
    return f"request: {names} is an immediate request cycle (each resolves inside the last, forever)"


def duplicate_names(
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


def duplicates(doc: Document, path: PathKey | str, ids: Sequence[str]) -> list[Diagnostic]:
    prefix = (path,) if isinstance(path, str) else path
    seen: set[str] = set()
    problems = []
    for i, entry_id in enumerate(ids):
        if entry_id in seen:
            problems.append(doc.at((*prefix, i, "id"), f"duplicate id '{entry_id}'"))
        seen.add(entry_id)
    return problems
