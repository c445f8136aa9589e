"""The card-level state transitions: every card or character move goes through here.

Keeping moves in one place keeps the invariants (each card in exactly one zone) and the
世代交代 trigger (a character leaving the field for the graveyard) in one place too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from blackpoker.runtime.engine.refs import CardRef
from blackpoker.runtime.engine.state import GameState, Request, Unit
from blackpoker.runtime.engine.zones import card, owner, rank
from blackpoker.runtime.rules.enums import Destination, Face
from blackpoker.runtime.rules.model import Character, CharacterTrigger, SizeRule, When
from blackpoker.runtime.rules.program import Kind

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table

# the built-in destinations, bound once (see engine/targets.py)
HAND: Final = Destination.HAND
GRAVEYARD: Final = Destination.GRAVEYARD
LIFE_TOP: Final = Destination.LIFE_TOP
LIFE_BOTTOM: Final = Destination.LIFE_BOTTOM
FACE_UP: Final = Face.UP
KEY_SUM: Final = SizeRule.KEY_SUM


def take_card(state: GameState, cid: int) -> None:
    """Remove a loose card from wherever it lies (not from a character: see remove_unit)."""
    player = state.players[owner(cid)]
    player.face_up.pop(cid, None)  # a card that leaves its zone lies face down wherever it goes
    if cid in player.kept_down:  # and is free to turn face up where it comes to lie
        player.kept_down.remove(cid)
    for pile in (player.hand, player.life, player.graveyard, player.outside):
        if cid in pile:
            pile.remove(cid)
            if pile is player.graveyard and state.left is not None:
                state.left.append(owner(cid))
            return
    for pile in player.zones.values():  # the edition's own zones (the fog)
        if cid in pile:
            pile.remove(cid)
            return
    for request in state.holding():
        if cid in request.held:
            request.held.remove(cid)
            return
    raise ValueError(f"card {cid} is not a loose card")


def is_loose(state: GameState, cid: int) -> bool:
    """Not part of a character on the field."""
    return not any(cid in u.cards for p in state.players for u in p.field)


def put_card(state: GameState, cid: int, zone: Destination | str) -> None:
    """Onto the owner's zone: graveyard, hand, life_top, life_bottom or a declared zone (fog)."""
    player = state.players[owner(cid)]
    if zone == GRAVEYARD:
        player.graveyard.append(cid)
        if state.arrived is not None:
            state.arrived.append(cid)
    elif zone == HAND:
        player.hand.append(cid)
    elif zone == LIFE_TOP:
        player.life.insert(0, cid)
    elif zone == LIFE_BOTTOM:
        player.life.append(cid)
    else:
        player.zones[zone].append(cid)


def move_card(state: GameState, cid: int, zone: Destination | str) -> None:
    take_card(state, cid)
    put_card(state, cid, zone)


def draw_below(rng: random.Random, count: int) -> int:
    """`rng.randrange(count)` with the same draws, so the same games, compiled with the engine:
    the standard library's is two Python calls, more than a random agent's whole choice."""
    draw = rng.getrandbits
    bits = count.bit_length()
    chosen = draw(bits)
    while chosen >= count:
        chosen = draw(bits)
    return chosen


def shuffle(state: GameState, pile: list[int]) -> None:
    """Shuffle a pile with the game's generator. This is `random.shuffle` (Fisher–Yates, each
    index drawn as `randrange` draws it), so a seed deals the same games, but compiled with the
    engine: the standard library's is a Python loop, about a third of setting a game up."""
    for i in range(len(pile) - 1, 0, -1):
        j = draw_below(state.rng, i + 1)
        pile[i], pile[j] = pile[j], pile[i]


def release_keys(state: GameState, request: Request) -> None:
    """A request that left the stage or finished: the key cards it still holds go to the graveyard."""
    for cid in request.held:
        put_card(state, cid, GRAVEYARD)
    request.held.clear()


def damage(state: GameState, player: int, amount: int) -> int:
    """Damage takes what the life holds: the top `amount` cards, or fewer."""
    owner = state.players[player]
    taken = _take_from_life(owner.life, amount, owner.graveyard)
    if state.arrived is not None and taken:
        state.arrived.extend(owner.graveyard[-taken:])
    return taken


def draw(state: GameState, player: int, count: int) -> int:
    owner = state.players[player]
    return _take_from_life(owner.life, count, owner.hand)


def _take_from_life(life: list[int], count: int, into: list[int]) -> int:
    """Move the top `count` life cards (as many as there are) onto the end of `into`."""
    taken = min(max(count, 0), len(life))
    into.extend(life[:taken])
    del life[:taken]
    return taken


def characters_of(g: Table, cards: Sequence[int], kind: Kind) -> list[tuple[Character, list[int]]]:
    """The characters cards make (001 §3.8.3): one when the kind's key takes them all, else one
    per card (a bulwark is one card); [] when some card makes no character of the kind."""
    whole = _kind_of(g, cards, kind)
    if whole is not None:
        return [(whole, list(cards))]
    parts = [(_kind_of(g, [cid], kind), [cid]) for cid in cards]
    return [(k, part) for k, part in parts if k is not None] if all(k for k, _ in parts) else []


def _kind_of(g: Table, cards: Sequence[int], kind: Kind) -> Character | None:
    matchers = g.rules.character_matchers
    values = [card(c) for c in cards]
    if isinstance(kind, str):
        # a named kind takes a single card as it is: the action's key already chose it
        return g.rules.character(kind) if len(cards) == 1 or matchers[kind].matches(values) else None
    return next(
        (c for c in g.rules.characters if c.type == kind.type and matchers[c.id].matches(values)), None
    )


def place_units(g: Table, cards: list[int], kind: Kind, face_up: bool | None, charged: bool) -> None:
    """Put loose cards onto their owner's field as new characters (characters_of)."""
    for character, part in characters_of(g, cards, kind):
        for cid in part:
            take_card(g.state, cid)
        controller = owner(part[0])
        unit = Unit(
            g.state.new_uid(),
            character,
            part,
            controller,
            character.face is FACE_UP if face_up is None else face_up,
            charged,
            g.state.turn,
        )
        g.state.players[controller].field.append(unit)


def transform(g: Table, unit: Unit, kind: Kind) -> None:
    """A character becomes another kind; the effects it received end. When the new kind does
    not take all its cards it splits into one character per card, each a new one (so a
    request targeting it loses its target, 001 §3.10.4); its state and entry turn stay."""
    parts = characters_of(g, unit.cards, kind)
    if not parts:
        return
    made = [
        Unit(
            unit.uid if len(parts) == 1 else g.state.new_uid(),
            character,
            part,
            unit.controller,
            character.face is FACE_UP,
            unit.charged,
            unit.entered,
        )
        for character, part in parts
    ]
    field = g.state.players[unit.controller].field
    index = field.index(unit)
    field[index : index + 1] = made


def mount(g: Table, unit: Unit, cards: list[int], kind_id: str) -> None:
    for cid in cards:
        take_card(g.state, cid)
    unit.cards.extend(cards)
    unit.kind = g.rules.character(kind_id)


def remove_unit(g: Table, unit: Unit, zone: Destination | str, placing: Sequence[int] | None = None) -> None:
    """A character leaves the field (its cards placed one by one in `placing` order, default
    its own); to the graveyard it may trigger (世代交代)."""
    state = g.state
    state.players[unit.controller].field.remove(unit)
    for cid in unit.cards if placing is None else placing:
        put_card(state, cid, zone)
    if unit.uid in state.blocks:
        del state.blocks[unit.uid]
    whens = _LEAVING.get(zone, ())
    for trigger in unit.kind.triggers:
        if trigger.when in whens:
            trigger_for(g, unit, trigger)


# the triggers a character leaving the field for a zone meets
_LEAVING: Final[dict[Destination | str, tuple[When, ...]]] = {
    GRAVEYARD: (When.LEAVES_FIELD_TO_GRAVEYARD, When.LEAVES_FIELD_TO_GRAVEYARD_OR_HAND),
    HAND: (When.LEAVES_FIELD_TO_GRAVEYARD_OR_HAND,),
}


def trigger_for(g: Table, unit: Unit, trigger: CharacterTrigger) -> None:
    """A character's trigger met: its request into the buffer, for its controller — once, or
    once per card of the listed ranks (each targeting its card, with `targets_card`)."""
    state = g.state
    action = g.rules.action(trigger.request)
    ranks = trigger.for_each_card
    cards = [cid for cid in unit.cards if rank(cid) in ranks] if ranks else [-1]
    for cid in cards:
        target = CardRef(cid) if trigger.targets_card and cid >= 0 else None
        state.buffer.append(Request(state.new_uid(), action, unit.controller, (), [], target))


def drive(unit: Unit) -> None:
    """Turn a character sideways ($B drives a charged bulwark)."""
    unit.charged = False


def printed_size(unit: Unit) -> int:
    """card_number: the card's number; key_sum: the sum of its cards (A=1 … K=13, Joker=0);
    a character's fixed `number` instead (数字は26として扱う). What abilities and effects make
    of it: abilities.size."""
    kind = unit.kind
    if kind.number is not None:
        return kind.number
    return sum(rank(c) for c in unit.cards) if kind.size is KEY_SUM else rank(unit.cards[0])


def placing_order(top_first: Sequence[int], zone: Destination | str) -> list[int]:
    """The order to put cards one by one so that they lie `top_first` in the zone."""
    return list(top_first)[::-1] if zone in (LIFE_TOP, GRAVEYARD) else list(top_first)


def put_on_top(state: GameState, cid: int) -> None:
    """A card of a graveyard becomes its top card (its owner chose it: core.graveyard_top)."""
    pile = state.players[owner(cid)].graveyard
    pile.remove(cid)
    pile.append(cid)


def leave_combat(state: GameState, uid: int) -> None:
    """The character is no longer an attacker or a blocker."""
    if uid in state.attackers:
        state.attackers.remove(uid)
        state.blocks.pop(uid, None)
    for blockers in state.blocks.values():
        if uid in blockers:
            blockers.remove(uid)
