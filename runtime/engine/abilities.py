"""Continuous abilities (docs/effects.md): which are on now, in the order seed 002 §6.4.2
applies them (all → your → this, each scope oldest first), and the numbers and rules they
change. Nothing is kept between reads: every read recomputes from the printed value, so an
ability that turns off stops counting at once and nothing is applied twice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from blackpoker.runtime.engine.state import Unit
from blackpoker.runtime.engine.transitions import printed_size
from blackpoker.runtime.engine.zones import card
from blackpoker.runtime.rules.cost import Cost
from blackpoker.runtime.rules.model import Action, Limit
from blackpoker.runtime.rules.program import (
    Ability,
    ChangeNumber,
    JudgeSoldiers,
    Quantity,
    Scope,
)

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table

# enum members bound once (see engine/targets.py): a size is read per character a target test sees
ALL: Final = Scope.ALL
YOUR: Final = Scope.YOUR
THIS: Final = Scope.THIS
SIZE: Final = Quantity.SIZE
ONCE_PER_TURN: Final = Limit.ONCE_PER_TURN
_ORDER: Final = {ALL: 0, YOUR: 1, THIS: 2}
PRINTED_JUDGEMENT: Final = JudgeSoldiers()  # ダメージ判定 as printed: the smaller soldier side dies


@dataclass(frozen=True, slots=True)
class On:
    """An ability that is on: whose it is, the character carrying it (uid, else -1), its scope
    and its timestamp (when it became on)."""

    ability: Ability
    owner: int  # -1: always on, no one's
    unit: int
    scope: Scope
    timestamp: int


def on_abilities(g: Table) -> list[On]:
    """Every ability on now, in the order they apply: an edition's or a local rule's (always,
    the oldest), a face-up trump's (since it turned face up), a character's (since it entered
    the field)."""
    rules = g.rules
    if not rules.has_abilities:
        return []
    found = [On(a, -1, -1, ALL, 0) for a in rules.edition.abilities]
    for index, side in enumerate(g.state.players):
        for cid, since in side.face_up.items():
            trump = rules.trump_abilities.get(card(cid), ())
            found += [On(a, index, -1, a.scope or YOUR, since) for a in trump]
        for unit in side.field:
            found += [On(a, index, unit.uid, a.scope or THIS, unit.uid) for a in unit.kind.abilities]
    found.sort(key=lambda on: (_ORDER[on.scope], on.timestamp))
    return found


def _reaches(on: On, player: int, unit: Unit | None) -> bool:
    """Whether the ability reaches this player (their number) or this character; a `this`
    ability reaches its character, and of the players' numbers its controller's."""
    if on.scope is ALL:
        return True
    if on.scope is YOUR or unit is None:
        return on.owner == player
    return unit.uid == on.unit


def _changes(
    g: Table, quantity: Quantity, player: int, unit: Unit | None = None, action: str | None = None
) -> list[ChangeNumber]:
    """The `change` abilities on that reach this number (of the player, the character, or the
    player's requests of the action), in the order they apply."""
    found = []
    for on in on_abilities(g):
        change = on.ability
        if (
            isinstance(change, ChangeNumber)
            and change.number is quantity
            and change.action == action
            and (unit is None or change.type is None or unit.kind.type == change.type)
            and _reaches(on, player, unit)
        ):
            found.append(change)
    return found


def number(g: Table, quantity: Quantity, printed: int, player: int, unit: Unit | None = None) -> int:
    """The one read of a number abilities may change: the printed value, then each `change`
    that reaches it, in order (`set` replaces, `add` adds)."""
    if not g.rules.has_abilities:
        return printed
    value = printed
    for change in _changes(g, quantity, player, unit):
        value = (change.set_to if isinstance(change.set_to, int) else value) + change.add
    return value


def cost(g: Table, player: int, action: Action) -> tuple[str, ...]:
    """The one read of the cost a player's request of the action pays: the printed units, then
    each `change` of it that reaches the player, in order (`set` replaces, `waive` removes).
    Only actions some ability names are looked at (`Rules.changed_costs`)."""
    units = action.cost.units
    if action.id not in g.rules.changed_costs:
        return units
    for change in _changes(g, Quantity.COST, player, action=action.id):
        if isinstance(change.set_to, Cost):
            units = change.set_to.units
        units = tuple(u for u in units if u not in (change.waive or ()))
    return units


def uses_per_turn(g: Table, player: int, action: Action) -> int | None:
    """How often the player may request the action a turn (None: no limit): printed, once
    for a once-per-turn action, else no limit; then each `change` of it in order (a `set`
    limits any action, an `add` raises a limit)."""
    allowed = 1 if ONCE_PER_TURN in action.limits else None
    if action.id not in g.rules.changed_limits:
        return allowed
    for change in _changes(g, Quantity.USES_PER_TURN, player, action=action.id):
        allowed = change.set_to if isinstance(change.set_to, int) else allowed
        allowed = None if allowed is None else allowed + change.add
    return allowed


def size(g: Table, unit: Unit) -> int:
    """A character's size: printed, changed by the abilities on, then by the effects it
    received this turn (ダウン, フォース: the newest, so they apply last)."""
    return number(g, SIZE, printed_size(unit), unit.controller, unit) + unit.size_mod


def soldier_judgement(g: Table) -> JudgeSoldiers:
    """How ダメージ判定 treats soldiers against soldiers: the last `judge_soldiers` in order
    replaces the printed rule."""
    found = PRINTED_JUDGEMENT
    for on in on_abilities(g):
        if isinstance(on.ability, JudgeSoldiers):
            found = on.ability
    return found
