"""Combat rules read from character data: `attack` (準備 / 速攻) or the labels the attack and
block steps name (アタッカー / ブロッカー / 速攻), and `combat` (soldier / bulwark)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from blackpoker.runtime.engine.abilities import size, soldier_judgement
from blackpoker.runtime.engine.events import Damaged, Died
from blackpoker.runtime.engine.state import Unit
from blackpoker.runtime.engine.transitions import GRAVEYARD, damage, remove_unit
from blackpoker.runtime.engine.triggers import happened
from blackpoker.runtime.engine.zones import card, rank
from blackpoker.runtime.rules.model import Attack, Combat
from blackpoker.runtime.rules.program import DeclareAttackers, Dies, Event

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table

# enum members bound once (a member read as `Combat.BULWARK` goes through the enum class's
# attribute hook: see engine/targets.py)
NEVER: Final = Attack.NEVER
HASTE: Final = Attack.HASTE
HASTE_WITH_ACE: Final = Attack.HASTE_WITH_ACE
BULWARK: Final = Combat.BULWARK


def can_attack(g: Table, unit: Unit, step: DeclareAttackers) -> bool:
    """Charged, allowed to attack, and 速攻 or not made only of cards that entered this turn
    (準備). Allowed and 速攻 come from the character's `attack` rule, or, when the step names
    a label, from its labels: it has the step's label, and a `haste` entry's label (with
    `ranks`: and a card of one of them)."""
    if not unit.charged:
        return False
    if step.label is None:
        attack = unit.kind.attack
        if attack is NEVER:
            return False
        if unit.entered < g.state.turn:  # ready: whether it has 速攻 does not matter (most attackers)
            return True
        return attack is HASTE or (attack is HASTE_WITH_ACE and any(rank(c) == 1 for c in unit.cards))
    labels = unit.kind.labels
    if step.label not in labels:
        return False
    if unit.entered < g.state.turn:
        return True
    return any(
        h.label in labels and (not h.ranks or any(rank(c) in h.ranks for c in unit.cards)) for h in step.haste
    )


def block_pairs(g: Table, defender: int, label: str | None) -> list[tuple[Unit, Unit]]:
    """(attacker, blocker) pairs still open: charged blockers (with `label`, if given), each
    blocking once; a bulwark blocks alone."""
    state = g.state
    busy = {uid for blockers in state.blocks.values() for uid in blockers}
    # the attackers no bulwark blocks, each with whether it is blocked at all: read once, not
    # once per blocker
    open_to = []
    for uid in state.attackers:
        attacker = state.unit(uid)
        if attacker is None:
            continue
        current = [state.unit(b) for b in state.blocks.get(uid, ())]
        if not any(u is not None and u.kind.combat is BULWARK for u in current):
            open_to.append((attacker, bool(current)))
    pairs = []
    for blocker in state.players[defender].field:
        if (
            not blocker.charged
            or blocker.uid in busy
            or (label is not None and label not in blocker.kind.labels)
        ):
            continue
        alone = blocker.kind.combat is BULWARK  # a bulwark blocks an attacker no one blocks yet
        pairs += [(attacker, blocker) for attacker, blocked in open_to if not (alone and blocked)]
    return pairs


def judge(g: Table) -> None:
    """ダメージ判定: each attacker in order against its blockers still on the field."""
    state = g.state
    for uid in list(state.attackers):
        attacker = state.unit(uid)
        if attacker is None:
            continue
        blockers = [u for u in (state.unit(b) for b in state.blocks.get(uid, ())) if u is not None]
        if not blockers:
            _damage(g, 1 - attacker.controller, size(g, attacker))
            happened(g, Event.UNBLOCKED, attacker.controller, list(attacker.cards))
        elif blockers[0].kind.combat is BULWARK:
            _bulwark(g, attacker, blockers[0])
        else:
            _soldiers(g, attacker, blockers)
    state.attackers.clear()
    state.blocks.clear()


def _bulwark(g: Table, attacker: Unit, bulwark: Unit) -> None:
    bulwark.face_up = True
    shown = card(bulwark.cards[0])
    killed = shown.is_joker or any(rank(c) == shown.rank for c in attacker.cards)
    cards = list(attacker.cards)  # as it attacked: the attacker may be gone already
    if killed and not attacker.kind.bulwark_proof:
        _dies(g, attacker)
    _dies(g, bulwark)
    happened(g, Event.BULWARK_FELL, bulwark.controller, cards)


def _soldiers(g: Table, attacker: Unit, blockers: list[Unit]) -> None:
    """One attacker against the sum of its blockers, as the abilities on say (革命: the larger
    side dies, the difference is damage to its player)."""
    rule = soldier_judgement(g)
    attack, block = size(g, attacker), sum(size(g, u) for u in blockers)
    if rule.dies is Dies.LARGER:
        attack, block = block, attack  # the comparison turned round: the larger side loses
    if block <= attack:
        for blocker in blockers:
            _dies(g, blocker)
    if attack <= block:
        _dies(g, attacker)
    if rule.damage and attack != block:
        loser = 1 - attacker.controller if block < attack else attacker.controller
        _damage(g, loser, abs(attack - block))


def _damage(g: Table, player: int, amount: int) -> None:
    if amount > 0:
        g.record(Damaged, player, amount)
    damage(g.state, player, amount)


def _dies(g: Table, unit: Unit) -> None:
    """A character the fight sends to the graveyard, said before what its leaving triggers;
    by its cards when they lie face up (a bulwark turns face up as it fights)."""
    g.record(Died, unit.controller, tuple(unit.cards) if unit.face_up else ())
    remove_unit(g, unit, GRAVEYARD)
