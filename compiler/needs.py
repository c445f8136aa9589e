"""What the entries of one format need from each other, read from the program trees.

The checks (compiler/checks.py, documents/overlay.py) locate what these functions find: a
reference to an action or character the format does not have, an immediate request cycle
(the engine would nest resolutions forever), a format where no action passes the turn (every
game would reach the cap).
Entries are taken as they are in the format; nothing here knows an action id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from blackpoker.compiler.load import PathKey
from blackpoker.runtime.rules.model import Action, Character, Speed
from blackpoker.runtime.rules.program import (
    Ability,
    Become,
    ChangeNumber,
    Mount,
    PassTurn,
    PutCharacter,
    Quantity,
    ReplaceEffect,
    Request,
    Steps,
    Target,
    walk_steps,
    word,
)


@dataclass(frozen=True, slots=True)
class Reference:
    """An entry naming another: `at` is where, relative to the referring entry."""

    referrer: str  # the id of the action or character that names it
    field: str  # how: request, target.action, put_character.as, …, triggers
    wanted: str  # the id named
    of_action: bool  # whether `wanted` is an action id (else a character id)
    at: PathKey


def references(actions: Sequence[Action], characters: Sequence[Character]) -> Iterator[Reference]:
    """Every id that the programs, the trigger conditions and the character triggers name."""
    for action in actions:
        for where, node in walk_steps(action.steps, ("program",)):
            if isinstance(node, Request):
                yield Reference(action.id, "request", node.action, True, (*where, *node.at("action")))
            elif isinstance(node, Target) and node.action is not None:
                yield Reference(action.id, "target.action", node.action, True, (*where, *node.at("action")))
            elif isinstance(node, PutCharacter | Mount | Become) and isinstance(node.as_, str):
                yield Reference(action.id, f"{word(node)}.as", node.as_, False, (*where, *node.at("as_")))
        rule = action.triggered_by
        for field_name in ("resolved", "requested"):
            named = getattr(rule, field_name) if rule is not None else None
            if rule is not None and named is not None:
                yield Reference(action.id, "triggered_by", named, True, rule.at(field_name))
    for character in characters:
        for j, trigger in enumerate(character.triggers):
            yield Reference(character.id, "triggers", trigger.request, True, ("triggers", j, "request"))
            if trigger.action:
                yield Reference(character.id, "triggers", trigger.action, True, ("triggers", j, "action"))
        for j, action_id in enumerate(character.untargetable_by):
            yield Reference(character.id, "untargetable_by", action_id, True, ("untargetable_by", j))


CHARACTER_FIELDS = ("triggers", "untargetable_by")  # the fields by which characters name actions


def dangling(
    refs: Iterable[Reference], actions: Sequence[Action], characters: Sequence[Character]
) -> list[Reference]:
    """The references (of `references`) to an id the format does not have."""
    action_ids = {a.id for a in actions}
    character_ids = {c.id for c in characters}
    return [ref for ref in refs if ref.wanted not in (action_ids if ref.of_action else character_ids)]


def request_cycles(actions: Sequence[Action]) -> list[tuple[Reference, ...]]:
    """Cycles of `request` steps through immediate actions only, each as its steps in order.

    An immediate request resolves at once, nested inside the one that made it, so such a
    cycle never ends; a normal request goes on the stage and waits for passes. One cycle is
    given per back edge of a depth-first search in format order, its closing step last.
    """
    immediate = {a.id for a in actions if a.speed is Speed.IMMEDIATE}
    edges: dict[str, list[Reference]] = {a: [] for a in immediate}
    for ref in references([a for a in actions if a.id in immediate], ()):
        if ref.field == "request" and ref.wanted in immediate:
            edges[ref.referrer].append(ref)
    cycles: list[tuple[Reference, ...]] = []
    done: set[str] = set()
    path: list[Reference] = []  # the steps from the search's root to the current action
    on_path: list[str] = []

    def visit(action_id: str) -> None:
        on_path.append(action_id)
        for ref in edges[action_id]:
            if ref.wanted in on_path:
                cycles.append((*path[on_path.index(ref.wanted) :], ref))
            elif ref.wanted not in done:
                path.append(ref)
                visit(ref.wanted)
                path.pop()
        on_path.pop()
        done.add(action_id)

    for action in actions:
        if action.id in immediate and action.id not in done:
            visit(action.id)
    return cycles


def trigger_cycles(actions: Sequence[Action]) -> list[tuple[str, ...]]:
    """Immediate actions that trigger each other on resolution in a ring (each one's
    `triggered_by` names the one before): the trigger check would resolve them forever
    without a decision. Each ring once, from its first action in format order."""
    immediate = {a.id: a for a in actions if a.speed is Speed.IMMEDIATE}
    cycles: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for action in actions:
        ring: list[str] = []
        current: Action | None = immediate.get(action.id)
        while current is not None and current.id not in ring and current.id not in seen:
            ring.append(current.id)
            rule = current.triggered_by
            current = immediate.get(rule.resolved) if rule is not None and rule.resolved else None
        if current is not None and current.id in ring:
            loop = ring[ring.index(current.id) :]
            first = min(loop, key=[a.id for a in actions].index)
            cycles.append((*loop[loop.index(first) :], *loop[: loop.index(first)]))
        seen.update(ring)
    return cycles


def request_trigger_cycles(actions: Sequence[Action]) -> list[str]:
    """The immediate actions a request triggers (`triggered_by.requested`) whose resolution
    leads, through `request` steps of immediate actions only, to another request of the action
    that triggers them: the trigger check would run them forever without a decision. Each as
    its id, in format order."""
    immediate = {a.id: a for a in actions if a.speed is Speed.IMMEDIATE}
    triggered: dict[str, list[str]] = {}  # requested action → the immediate actions it triggers
    for action in immediate.values():
        rule = action.triggered_by
        if rule is not None and rule.requested is not None:
            triggered.setdefault(rule.requested, []).append(action.id)
    requests = {
        a: [r.wanted for r in references([immediate[a]], ()) if r.field == "request"] for a in immediate
    }
    rings = []
    for action_id, action in immediate.items():
        rule = action.triggered_by
        if rule is None or rule.requested is None:
            continue
        reached: set[str] = set()
        todo = [action_id]  # what resolves at once, one after the other, once it is triggered
        while todo and rule.requested not in reached:
            for wanted in requests[todo.pop()]:
                if wanted not in reached:
                    reached.add(wanted)
                    todo += [w for w in (wanted, *triggered.get(wanted, ())) if w in immediate]
        if rule.requested in reached:
            rings.append(action_id)
    return rings


def turn_passers(actions: Sequence[Action], programs: Mapping[str, Steps] | None = None) -> set[str]:
    """The actions whose program passes the turn, by a pass_turn step or by requesting one;
    `programs`: the programs some actions run instead of their own (a replace_effect's)."""
    passers: set[str] = set()
    requests: list[tuple[str, str]] = []  # (requester, requested)
    for action in actions:
        for _, node in walk_steps((programs or {}).get(action.id, action.steps)):
            if isinstance(node, PassTurn):
                passers.add(action.id)
            elif isinstance(node, Request):
                requests.append((action.id, node.action))
    grown = True
    while grown:
        more = {requester for requester, requested in requests if requested in passers} - passers
        passers |= more
        grown = bool(more)
    return passers


def replacement_loop(actions: Sequence[Action], ability: ReplaceEffect) -> tuple[str, ...] | None:
    """The requests by which a `replace_effect`'s program leads back to a request of the action
    it replaces (which runs the same program again, forever), as the chain of action ids from
    the replaced one back to it; None when there is none. A requested action runs its own
    program, the replaced one the ability's. An ability with a condition is left to the trial
    (runtime/play/trial.py): its program may change what the condition reads."""
    if ability.cond is not None:
        return None
    programs = {a.id: a.steps for a in actions}
    programs[ability.action] = ability.steps
    came_from: dict[str, str] = {}
    todo = [ability.action]
    while todo:
        current = todo.pop(0)
        for _, node in walk_steps(programs.get(current, ())):
            if not isinstance(node, Request) or node.action in came_from:
                continue
            came_from[node.action] = current
            if node.action == ability.action:
                chain = [node.action]
                while len(chain) == 1 or chain[-1] != ability.action:
                    chain.append(came_from[chain[-1]])
                return tuple(reversed(chain))
            todo.append(node.action)
    return None


def stops_the_turn(actions: Sequence[Action], ability: Ability) -> list[str]:
    """The actions that pass the turn while `ability` is off but none of which does while it is
    on, always (no condition): a replace_effect whose program passes no turn, a use limit of
    0. The turn would never end. Empty when some action still passes it."""
    before = turn_passers(actions)
    if isinstance(ability, ReplaceEffect) and ability.cond is None:
        after = turn_passers(actions, {ability.action: ability.steps})
    elif (
        isinstance(ability, ChangeNumber) and ability.number is Quantity.USES_PER_TURN and ability.set_to == 0
    ):
        after = turn_passers([a for a in actions if a.id != ability.action]) if ability.add <= 0 else before
    else:
        return []
    return sorted(before) if before and not after else []
