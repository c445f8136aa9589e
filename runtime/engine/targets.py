"""対象: which characters, requests, players or cards of a zone (trumps) a `target` step accepts.

The same test serves twice: when requesting (to list the candidates) and at resolution
(a target that no longer qualifies means the effect does nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from blackpoker.runtime.engine.refs import (
    CardRef,
    CharacterByCard,
    HiddenCharacter,
    HiddenZoneCard,
    OptionTarget,
    PlayerRef,
    RequestRef,
    ResolvingDepth,
    StagePosition,
    StateTarget,
    UnitRef,
    ZoneCard,
)
from blackpoker.runtime.engine.state import GameState, PlayerState, Request, Unit
from blackpoker.runtime.engine.zones import SORT_SPAN, card
from blackpoker.runtime.rules.enums import Face
from blackpoker.runtime.rules.model import Limit
from blackpoker.runtime.rules.program import CardRange, PlayerName, State, TargetKind
from blackpoker.runtime.rules.program import Target as TargetSpec

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table

# Enum members bound once: read as `TargetKind.CHARACTER`, each goes through the enum class's
# attribute hook (Python 3.11's EnumType.__getattr__), a few percent of a decision's time.
CHARACTER: Final = TargetKind.CHARACTER
REQUEST: Final = TargetKind.REQUEST
PLAYER: Final = TargetKind.PLAYER
CARD: Final = TargetKind.CARD
CHARGED: Final = State.CHARGED
YOU: Final = PlayerName.YOU
OPPONENT: Final = PlayerName.OPPONENT
UNCOUNTERABLE: Final = Limit.UNCOUNTERABLE
FACE_UP: Final = Face.UP
# The targets options name, made once: a search lists the same ones decision after decision,
# so they cost no record each, and a plan's last targets (plans.Planned.made) compare equal
# item by item by identity, without a Python `__eq__` call per item.
BY_CARD: Final = tuple([CharacterByCard(c) for c in range(SORT_SPAN)])  # by first card: any card id
PLAYER_REFS: Final = (PlayerRef(0), PlayerRef(1))
STAGE_AT: Final = tuple([StagePosition(i) for i in range(32)])  # a stage is rarely a few requests high


def candidates(
    g: Table, controller: int, action_id: str, spec: TargetSpec, key_cards: tuple[int, ...]
) -> list[OptionTarget]:
    """The targets a request of the action may name, as options name them: a character by
    its first card, a request by its stage position (from 1), a player by index."""
    kind = spec.kind
    if kind is CHARACTER:
        players = g.state.players
        # a side named: only that player's field is read (a field holds its controller's characters)
        sides = range(len(players)) if spec.side is None else _players(controller, spec)
        return [
            BY_CARD[u.cards[0]]
            for i in sides
            for u in players[i].field
            if unit_ok(controller, action_id, spec, key_cards, u)
        ]
    if kind is REQUEST:
        return [
            STAGE_AT[i] if i < len(STAGE_AT) else StagePosition(i)
            for i, r in enumerate(g.state.stage, 1)
            if request_ok(spec, r)
        ]
    if kind is CARD:
        zone = str(spec.zone)
        return [
            ZoneCard(zone, c)
            for p in _players(controller, spec)
            for c in g.state.players[p].zones.get(zone, ())
            if card_ok(spec, g.state.players[p], c)
        ]
    return [PLAYER_REFS[p] for p in _players(controller, spec)]


def still_valid(g: Table, request: Request, spec: TargetSpec) -> bool:
    target = request.target
    kind = spec.kind
    if isinstance(target, UnitRef) and kind is CHARACTER:
        unit = g.state.unit(target.uid)
        return unit is not None and unit_ok(
            request.controller, request.action.id, spec, request.key_cards, unit
        )
    if isinstance(target, RequestRef) and kind is REQUEST:
        found = g.state.stage_request(target.uid)
        return found is not None and request_ok(spec, found)
    if isinstance(target, PlayerRef) and kind is PLAYER:
        return target.index in _players(request.controller, spec)
    if isinstance(target, CardRef) and kind is CARD:
        zone = str(spec.zone)
        return any(
            target.card in g.state.players[p].zones.get(zone, ())
            and card_ok(spec, g.state.players[p], target.card)
            for p in _players(request.controller, spec)
        )
    return False


def card_ok(spec: TargetSpec, side: PlayerState, cid: int) -> bool:
    """A card of a zone whose cards have faces is a target when it lies as `face` asks."""
    face = spec.face
    return face is None or (cid in side.face_up) == (face is FACE_UP)


def unit_ok(
    controller: int, action_id: str, spec: TargetSpec, key_cards: tuple[int, ...], unit: Unit
) -> bool:
    kind = unit.kind
    if not kind.targetable_by(action_id):  # アクションの対象にできない
        return False
    side = spec.side
    if side is not None and (unit.controller == controller) != (side is YOU):
        return False
    if spec.type is not None and kind.type != spec.type:
        return False
    if spec.state is not None and unit.charged != (spec.state is CHARGED):
        return False
    # loops, not `any` over a generator: a generator is an object stepped per card, pure or
    # compiled, and these run for every character of every target list
    if spec.no_joker:
        for c in unit.cards:
            if card(c).is_joker:
                return False
    match = spec.match
    if match is not None:
        for c in unit.cards:
            if matches(c, match):
                break
        else:
            return False
    if spec.suit_of is not None:  # the key cards' one suit (compared by identity: no enum hashing)
        if not key_cards:
            return False
        suit = card(key_cards[0]).suit
        for c in key_cards:
            if card(c).suit is not suit:
                return False
        counted = kind.suits  # a character of several suits is one of each (リアニメーター)
        if counted:
            return suit is not None and suit in counted
        for c in unit.cards:
            if card(c).suit is not suit:
                return False
    return True


def matches(cid: int, spec: CardRange) -> bool:
    """The card is like the range's card: not a Joker, of its suit (if any), a number in range."""
    found = card(cid)
    suit = found.suit
    return (
        not found.is_joker
        and spec.low <= found.rank <= spec.high
        and (spec.suit is None or suit is spec.suit)
    )


def request_ok(spec: TargetSpec, request: Request) -> bool:
    if spec.key_cards and len(request.key_cards) not in spec.key_cards:
        return False
    if spec.action is not None and request.action.id != spec.action:
        return False
    if spec.has_target and request.target is None:
        return False
    if spec.has_key and not request.key_cards:
        return False
    return not (spec.counterable and UNCOUNTERABLE in request.action.limits)


def retarget_candidates(g: Table, request: Request, changer: Request) -> list[OptionTarget]:
    """The targets `request` could name instead of its own, as options name them: by its
    target spec, from its controller's side, with its key cards. A request never targets
    itself (unless the edition's `core.no_self_target` is false); `changer` (the resolving
    request that changes it) is named `resolving:N`."""
    spec = g.rules.target_specs[request.action.id]
    found = candidates(g, request.controller, request.action.id, spec, request.key_cards)
    if spec.kind is REQUEST:
        if g.rules.edition.core.no_self_target:
            own = next((StagePosition(i) for i, r in enumerate(g.state.stage, 1) if r is request), None)
            found = [c for c in found if c != own]
        depth = next(i for i, r in enumerate(g.state.resolving, 1) if r.request is changer)
        if request_ok(spec, changer):
            found.append(ResolvingDepth(depth))
    current = named(g.state, request.target)
    return [c for c in found if c != current]


def named(state: GameState, target: StateTarget | None) -> OptionTarget | None:
    """How options name a target the state keeps by id (None when it is gone)."""
    if isinstance(target, UnitRef):
        unit = state.unit(target.uid)
        return None if unit is None else CharacterByCard(unit.cards[0])
    if isinstance(target, RequestRef):
        uid = target.uid
        position = next((i for i, r in enumerate(state.stage, 1) if r.uid == uid), None)
        if position is not None:
            return StagePosition(position)
        depth = next((i for i, r in enumerate(state.resolving, 1) if r.request.uid == uid), None)
        return None if depth is None else ResolvingDepth(depth)
    if isinstance(target, CardRef):  # a card lying in a zone (a trump); elsewhere no option's
        cid = target.card
        zone = next((z for p in state.players for z, cards in p.zones.items() if cid in cards), None)
        return None if zone is None else ZoneCard(zone, cid)
    return target


def resolve_name(g: Table, target: OptionTarget) -> StateTarget:
    """An option's target → the state's (a character by id, a request by id): the inverse of `named`."""
    if isinstance(target, CharacterByCard):
        card_id = target.card
        return UnitRef(next(u.uid for p in g.state.players for u in p.field if card_id in u.cards))
    if isinstance(target, StagePosition):
        return RequestRef(g.state.stage[target.position - 1].uid)
    if isinstance(target, ResolvingDepth):
        return RequestRef(g.state.resolving[target.depth - 1].request.uid)
    if isinstance(target, HiddenCharacter):
        return UnitRef(target.uid)
    if isinstance(target, ZoneCard):
        return CardRef(target.card)
    if isinstance(target, HiddenZoneCard):
        return CardRef(g.state.players[target.player].zones[target.zone][target.position - 1])
    return target


def _players(controller: int, spec: TargetSpec) -> tuple[int, ...]:
    side = spec.side
    if side is YOU:
        return (controller,)
    if side is OPPONENT:
        return (1 - controller,)
    return (controller, 1 - controller)
