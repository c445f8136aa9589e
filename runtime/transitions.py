"""The card-level state transitions: every card or character move goes through here.

Keeping moves in one place keeps the invariants (each card in exactly one zone) and the
世代交代 trigger (a character leaving the field for the graveyard) in one place too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from blackpoker.compiler.model import SizeRule
from blackpoker.runtime.state import GameState, Request, Unit
from blackpoker.runtime.zones import owner, rank, rank_label_of

if TYPE_CHECKING:
    from blackpoker.runtime.game import Game

ZONES = ("graveyard", "hand", "life_top", "life_bottom")


def take_card(state: GameState, cid: int) -> None:
    """Remove a loose card from wherever it lies (not from a character: see remove_unit)."""
    player = state.players[owner(cid)]
    for pile in (player.hand, player.life, player.graveyard, player.outside):
        if cid in pile:
            pile.remove(cid)
            return
    for request in (*state.stage, *(r.request for r in state.resolving)):
        if cid in request.held:
            request.held.remove(cid)
            return
    raise ValueError(f"card {cid} is not a loose card")


def put_card(state: GameState, cid: int, zone: str) -> None:
    player = state.players[owner(cid)]
    if zone == "graveyard":
        player.graveyard.append(cid)
    elif zone == "hand":
        player.hand.append(cid)
    elif zone == "life_top":
        player.life.insert(0, cid)
    else:
        player.life.append(cid)


def move_card(state: GameState, cid: int, zone: str) -> None:
    take_card(state, cid)
    put_card(state, cid, zone)


def release_keys(state: GameState, request: Request) -> None:
    """A request that left the stage or finished: the key cards it still holds go to the graveyard."""
    for cid in request.held:
        put_card(state, cid, "graveyard")
    request.held.clear()


def damage(state: GameState, player: int, amount: int) -> int:
    """Damage takes what the life holds: the top `amount` cards, or fewer."""
    life = state.players[player].life
    dealt = min(max(amount, 0), len(life))
    state.players[player].graveyard.extend(life[:dealt])
    del life[:dealt]
    return dealt


def draw(state: GameState, player: int, count: int) -> int:
    life = state.players[player].life
    drawn = min(max(count, 0), len(life))
    state.players[player].hand.extend(life[:drawn])
    del life[:drawn]
    return drawn


def place_unit(g: Game, cards: list[int], kind_id: str, face_up: bool | None, charged: bool) -> Unit:
    """Put loose cards onto their owner's field as one new character."""
    kind = g.rules.character(kind_id)
    for cid in cards:
        take_card(g.state, cid)
    controller = owner(cards[0])
    unit = Unit(
        g.state.new_uid(),
        kind,
        list(cards),
        controller,
        kind.face.value == "up" if face_up is None else face_up,
        charged,
        g.state.turn,
    )
    g.state.players[controller].field.append(unit)
    return unit


def mount(g: Game, unit: Unit, cards: list[int], kind_id: str) -> None:
    for cid in cards:
        take_card(g.state, cid)
    unit.cards.extend(cards)
    unit.kind = g.rules.character(kind_id)


def remove_unit(g: Game, unit: Unit, zone: str) -> None:
    """A character leaves the field; to the graveyard it may trigger (世代交代)."""
    state = g.state
    state.players[unit.controller].field.remove(unit)
    for cid in unit.cards:
        put_card(state, cid, zone)
    if unit.uid in state.blocks:
        del state.blocks[unit.uid]
    if zone != "graveyard":
        return
    for trigger in unit.kind.triggers:
        times = sum(1 for cid in unit.cards if rank_label_of(cid) in trigger.for_each_card)
        action = g.rules.action(trigger.request)
        for _ in range(times):
            state.buffer.append(Request(state.new_uid(), action, unit.controller, (), []))


def size(unit: Unit) -> int:
    """card_number: the card's number; key_sum: the sum of its cards (A=1 … K=13, Joker=0)."""
    base = sum(rank(c) for c in unit.cards) if unit.kind.size is SizeRule.KEY_SUM else rank(unit.cards[0])
    return base + unit.size_mod
