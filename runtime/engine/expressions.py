"""Values inside programs: players, card and character references, numbers and conditions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final, assert_never

from blackpoker.runtime.engine import refs
from blackpoker.runtime.engine.abilities import number as changed
from blackpoker.runtime.engine.abilities import on_abilities, size
from blackpoker.runtime.engine.state import Origin, Request, Resolution, Unit
from blackpoker.runtime.engine.targets import matches, unit_ok
from blackpoker.runtime.engine.zones import card, owner, rank, suit
from blackpoker.runtime.rules.enums import SOURCE, BuiltInName, Face
from blackpoker.runtime.rules.model import Action
from blackpoker.runtime.rules.program import (
    COMPARE,
    All,
    AnyOf,
    Cards,
    Choose,
    Compare,
    Condition,
    Core,
    Count,
    FaceUp,
    Field,
    Is,
    Join,
    Mod,
    Name,
    Neg,
    Not,
    Number,
    Only,
    OwnerOf,
    Pile,
    PlayerName,
    PlayerRef,
    Plus,
    Points,
    PreventDamage,
    Quantity,
    ReplaceEffect,
    Size,
    State,
    Sum,
    Targetable,
    notation,
    walk,
)

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table

# Enum members bound once: read as `PlayerName.YOU`, each goes through the enum class's
# attribute hook (Python 3.11's EnumType.__getattr__), dearer than the test it serves.
YOU: Final = PlayerName.YOU
OPPONENT: Final = PlayerName.OPPONENT
TURN_PLAYER: Final = PlayerName.TURN_PLAYER
CHARGED: Final = State.CHARGED
FACE_UP: Final = Face.UP
FACE_DOWN: Final = Face.DOWN
KEY: Final = BuiltInName.KEY
TARGET: Final = BuiltInName.TARGET
TARGET_KEY: Final = BuiltInName.TARGET_KEY
CAUSE: Final = BuiltInName.CAUSE
ATTACKERS: Final = BuiltInName.ATTACKERS
HAND_LIMIT: Final = Quantity.HAND_LIMIT
HAND_LIMIT_RULE: Final = Quantity.HAND_LIMIT.value


def player(g: Table, res: Resolution, ref: PlayerRef) -> int:
    """A player's index, or -1 when the reference names nobody (a lost target, no cards)."""
    if isinstance(ref, OwnerOf):
        found = cards_of(things(g, res, ref.of))
        return owner(found[0]) if found else -1
    request = res.request
    return named_player(ref.name, request.controller, g.state.turn_player, request.target)


def named_player(name: PlayerName, controller: int, turn_player: int, target: object) -> int:
    """The player a name means for a request of `controller` (its target a player, or not):
    what `player` reads of a request and the turn, for a reader that has no game (an agent)."""
    if name is YOU:
        return controller
    if name is OPPONENT:
        return 1 - controller
    if name is TURN_PLAYER:
        return turn_player
    return target.index if isinstance(target, refs.PlayerRef) else -1


def things(g: Table, res: Resolution, ref: Cards) -> list[Any]:
    """What a reference names now: card ids, characters (Unit) or requests (Request)."""
    state = g.state
    if isinstance(ref, Join):
        return [item for part in ref.items for item in things(g, res, part)]
    if isinstance(ref, Only):
        return [
            c
            for c in cards_of(things(g, res, ref.of))
            if (ref.card is None or card(c) == ref.card)
            and (ref.face is None or (c in state.players[owner(c)].face_up) == (ref.face is FACE_UP))
            and (ref.suit_of is None or _same(g, res, ref.suit_of, c, suit))
            and (ref.rank_of is None or _same(g, res, ref.rank_of, c, rank))
        ]
    if isinstance(ref, Pile):
        who = player(g, res, ref.side)
        if who < 0:
            return []
        side = state.players[who]
        pile = side.pile(ref.zone)
        if not filtered(ref):
            return list(pile)  # no filter (most piles an effect reads): no test per card
        return [
            c
            for c in pile
            if (ref.card is None or card(c) == ref.card) and fits(g, res, ref, side.face_up, c)
        ]
    if isinstance(ref, Field):
        indexes = range(len(state.players)) if ref.side is None else (player(g, res, ref.side),)
        kind, charged = ref.type, ref.state
        least = None if ref.at_least is None else number(g, res, ref.at_least)
        return [
            u
            for i in indexes
            if i >= 0
            for u in state.players[i].field
            if (kind is None or u.kind.type == kind)
            and (charged is None or u.charged == (charged is CHARGED))
            and (least is None or size(g, u) >= least)
        ]
    name = ref.name
    if name == KEY:
        return list(res.request.held)
    if name == TARGET:
        found = target_object(g, res.request)
        return [] if found is None else [found]
    if name == TARGET_KEY:
        found = target_object(g, res.request)
        return list(found.key_cards) if isinstance(found, Request) else []
    if name == CAUSE:  # the event's cards, or the character they make while it is on the field
        cause = res.request.cause
        units = [u for p in state.players for u in p.field if u.cards and u.cards[0] in cause]
        return [*units] if units else list(cause)
    if name == ATTACKERS:
        return [u for u in (state.unit(uid) for uid in state.attackers) if u is not None]
    if name == SOURCE:  # the causing character, while it stays on the field
        source = res.request.source
        found = None if source is None else state.unit(source)
        return [] if found is None else [found]
    # a bound character is named while it stays on the field, a bound request while it stays
    # on the stage (looked up by id, so that a copied game's resolution names the copy's)
    bound: list[Any] = []
    for item in res.vars.get(name, ()):
        now: Any = item
        if isinstance(item, Unit):
            now = state.unit(item.uid)
        elif isinstance(item, Request):
            now = state.stage_request(item.uid)
        if now is not None:
            bound.append(now)
    return bound


def target_object(g: Table, request: Request) -> Unit | Request | int | None:
    """The request's target if it still exists (a character on the field, a request on the
    stage), a card (wherever it lies) or a player's index."""
    target = request.target
    if isinstance(target, refs.UnitRef):
        return g.state.unit(target.uid)
    if isinstance(target, refs.RequestRef):
        return g.state.stage_request(target.uid)
    if isinstance(target, refs.CardRef):
        return target.card
    return None if target is None else target.index


def filtered(spec: Pile | Choose) -> bool:
    """Whether a pile or a choose step keeps only some cards of its zone (`fits`): most take
    them all, and are then listed without a test per card."""
    return not (
        spec.face is None
        and spec.card is None
        and spec.match is None
        and spec.suit_of is None
        and spec.rank_of is None
    )


def fits(g: Table, res: Resolution, spec: Pile | Choose, face_up: dict[int, int], cid: int) -> bool:
    """Whether a card of a zone passes the filters of a pile or a choose step: how it lies,
    which card it is, its suit, its number."""
    if spec.face is not None and (cid in face_up) != (spec.face is FACE_UP):
        return False
    if spec.face is FACE_DOWN and cid in g.state.players[owner(cid)].kept_down:
        return False  # held face down this turn: not a card that may turn face up
    if spec.card is not None and card(cid) != spec.card:
        return False
    if spec.match is not None and not matches(cid, spec.match):
        return False
    if spec.suit_of is not None and not _same(g, res, spec.suit_of, cid, suit):
        return False
    return spec.rank_of is None or _same(g, res, spec.rank_of, cid, rank)


def _same(g: Table, res: Resolution, name: Name, cid: int, feature: Callable[[int], object]) -> bool:
    """Whether the card has the suit (or number) of one of the named cards."""
    return feature(cid) in {feature(c) for c in _named_cards(g, res, name)}


def _named_cards(g: Table, res: Resolution, name: Name) -> list[int]:
    """The cards a name gives: the key cards as requested, even once put elsewhere."""
    return list(res.request.key_cards) if name.name == KEY else cards_of(things(g, res, name))


def cards_of(items: list[Any]) -> list[int]:
    found: list[int] = []
    for item in items:
        if isinstance(item, Unit):
            found.extend(item.cards)
        elif isinstance(item, int):
            found.append(item)
    return found


def number(g: Table, res: Resolution, expr: Number) -> int:
    if isinstance(expr, int):
        return expr
    if isinstance(expr, Sum):
        # key cards count as requested, even once the effect has put them elsewhere
        of = expr.of
        cards = res.request.key_cards if of.name == KEY else cards_of(things(g, res, of))
        only = expr.suit
        return sum(rank(c) for c in cards if only is None or suit(c) is only)
    if isinstance(expr, Count):
        return len(things(g, res, expr.of))
    if isinstance(expr, Size):
        units = [u for u in things(g, res, expr.of) if isinstance(u, Unit)]
        return size(g, units[0]) if units else 0
    if isinstance(expr, Core):
        printed = int(getattr(g.rules.edition.core, expr.rule))
        # the hand limit is the request controller's, as the abilities on change it
        if expr.rule == HAND_LIMIT_RULE:
            return changed(g, HAND_LIMIT, printed, res.request.controller)
        return printed
    if isinstance(expr, Mod):
        left, right = number(g, res, expr.left), number(g, res, expr.right)
        return left % right if right else left
    if isinstance(expr, Neg):
        return -number(g, res, expr.of)
    if isinstance(expr, Plus):
        return sum(number(g, res, item) for item in expr.items)
    if isinstance(expr, Points):
        return points(cards_of(things(g, res, expr.of)), expr)
    assert_never(expr)


def points(cards: list[int], expr: Points) -> int:
    """The cards' points added up in order (`Points`)."""
    total = 0
    for cid in cards:
        rule = next((c for c in expr.counts if rank(cid) in c.ranks), None)
        value = rank(cid) if rule is None else rule.value
        if (
            rule is not None
            and rule.fallback is not None
            and expr.limit is not None
            and total + value > expr.limit
        ):
            value = rule.fallback
        total += value
    return total


def condition(g: Table, res: Resolution, cond: Condition) -> bool:
    if isinstance(cond, All):
        return all(condition(g, res, c) for c in cond.items)
    if isinstance(cond, AnyOf):
        return any(condition(g, res, c) for c in cond.items)
    if isinstance(cond, Not):
        return not condition(g, res, cond.of)
    if isinstance(cond, Is):
        units = [u for u in things(g, res, cond.of) if isinstance(u, Unit)]
        state = cond.state
        return bool(units) and all(
            (cond.type is None or u.kind.type == cond.type)
            and (state is None or u.charged == (state is CHARGED))
            for u in units
        )
    if isinstance(cond, Compare):
        return bool(COMPARE[cond.op](number(g, res, cond.left), number(g, res, cond.right)))
    if isinstance(cond, Targetable):
        spec = g.rules.target_specs.get(cond.by)
        units = [u for u in things(g, res, cond.of) if isinstance(u, Unit)]
        unkeyed = None if spec is None else replace(spec, suit_of=None)
        if unkeyed is None or not units:
            return False
        return unit_ok(res.request.controller, cond.by, unkeyed, (), units[0])
    if isinstance(cond, FaceUp):
        who = player(g, res, cond.player)
        side = g.state.players[who] if who >= 0 else None
        return side is not None and any(
            card(c) == cond.card for c in side.face_up if c in side.pile(cond.zone)
        )
    assert_never(cond)


def requirement_holds(g: Table, player: int, action: Action, keys: tuple[int, ...] = ()) -> bool:
    """Whether the action's 起動条件 (`requires`) holds for the player now, before any request:
    its condition reads `you` as the player and `key` as `keys` (see `reads_key`)."""
    if action.requires is None:
        return True
    return condition(g, _probe(player, action, keys), action.requires.cond)


def _probe(player: int, action: Action, keys: tuple[int, ...]) -> Resolution:
    return Resolution(Request(-1, action, player, keys, []), Origin.PLAYER, [])


def unmet_requirement(
    g: Table, player: int, action: Action, keys: tuple[int, ...] = ()
) -> tuple[str, list[tuple[str, int]]]:
    """The part of the action's `requires` that does not hold for the player now (an `all`'s
    first such item, looked into), in the data's notation, with the values a comparison
    reads now (each side's notation and value): what a refusal says is missing."""
    assert action.requires is not None
    res = _probe(player, action, keys)
    cond = action.requires.cond
    while isinstance(cond, All):
        cond = next(item for item in cond.items if not condition(g, res, item))
    if isinstance(cond, Compare):
        sides = [side for side in (cond.left, cond.right) if not isinstance(side, int)]
        return notation(cond), [(notation(side), number(g, res, side)) for side in sides]
    return notation(cond), []


def reads_key(action: Action) -> bool:
    """Whether the action's `requires` reads its key cards, so it holds per key-card way
    (クローズ: an opponent's face-up trump of the key's suit)."""
    return action.requires is not None and any(
        isinstance(node, Name) and node.name == KEY for _, node in walk(action.requires.cond)
    )


def replacement(g: Table, request: Request) -> ReplaceEffect | None:
    """The program a request runs instead of its own (kind (d)): the last `replace_effect`
    on, in order, of its action whose condition holds for the ability's owner."""
    found = None
    for on in on_abilities(g):
        ability = on.ability
        if (
            isinstance(ability, ReplaceEffect)
            and ability.action == request.action.id
            and _holds_for(g, on.owner, request, ability.cond)
        ):
            found = ability
    return found


def shielded(g: Table, request: Request) -> tuple[int, ...]:
    """The players the request's effect deals no damage to (`prevent_damage`), read as it
    starts to resolve (要塞: 効果を発揮する直前に)."""
    found: list[int] = []
    for on in on_abilities(g):
        ability = on.ability
        if (
            isinstance(ability, PreventDamage)
            and (request.controller == on.owner) == (ability.by is YOU)
            and (ability.key_suit is None or any(suit(c) is ability.key_suit for c in request.key_cards))
            and _holds_for(g, on.owner, request, ability.cond)
        ):
            found.append(on.owner)
    return tuple(found)


def _holds_for(g: Table, owner: int, request: Request, cond: Condition | None) -> bool:
    """An ability's condition, read with `you` as its owner (of one always on: the turn
    player); it names no cards (compiler/checks.py)."""
    if cond is None:
        return True
    you = owner if owner >= 0 else g.state.turn_player
    probe = Resolution(Request(-1, request.action, you, (), []), Origin.PLAYER, [])
    return condition(g, probe, cond)
