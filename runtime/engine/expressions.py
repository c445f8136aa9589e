"""Values inside programs: players, card and character references, numbers and conditions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from blackpoker.runtime.engine.state import Request, Resolution, Unit
from blackpoker.runtime.engine.transitions import size
from blackpoker.runtime.engine.zones import card, owner, rank

if TYPE_CHECKING:
    from blackpoker.runtime.engine.game import Game


def player(g: Game, res: Resolution, name: str | Mapping[str, Any]) -> int:
    """A player's index, or -1 when the reference names nobody (a lost target, no cards)."""
    controller = res.request.controller
    if isinstance(name, Mapping):
        found = cards_of(things(g, res, name["owner"]))
        return owner(found[0]) if found else -1
    if name == "you":
        return controller
    if name == "opponent":
        return 1 - controller
    if name == "turn_player":
        return g.state.turn_player
    target = res.request.target
    return target[1] if target and target[0] == "player" else -1


def things(g: Game, res: Resolution, ref: Any) -> list[Any]:
    """What a reference names now: card ids, characters (Unit) or requests (Request)."""
    state = g.state
    if isinstance(ref, Mapping):
        side = ref["field"]
        indexes = range(len(state.players)) if side == "all" else (player(g, res, side),)
        kind = ref.get("type")
        return [
            u
            for i in indexes
            if i >= 0
            for u in state.players[i].field
            if kind is None or u.kind.type == kind
        ]
    if ref == "key":
        return list(res.request.held)
    if ref == "target":
        found = target_object(g, res.request)
        return [] if found is None else [found]
    if ref == "target_key":
        found = target_object(g, res.request)
        return list(found.key_cards) if isinstance(found, Request) else []
    if ref == "attackers":
        return [u for u in (state.unit(uid) for uid in state.attackers) if u is not None]
    # a bound character is named while it stays on the field (looked up by id, so that a
    # copied game's resolution names the copy's character)
    return [
        item if not isinstance(item, Unit) else state.unit(item.uid)
        for item in res.vars.get(ref, ())
        if not isinstance(item, Unit) or state.unit(item.uid) is not None
    ]


def target_object(g: Game, request: Request) -> Unit | Request | int | None:
    """The request's target if it still exists (a character on the field, a request on the stage)."""
    if request.target is None:
        return None
    kind, value = request.target
    if kind == "character":
        return g.state.unit(value)
    if kind == "request":
        return g.state.stage_request(value)
    return value


def cards_of(items: list[Any]) -> list[int]:
    found: list[int] = []
    for item in items:
        if isinstance(item, Unit):
            found.extend(item.cards)
        elif isinstance(item, int):
            found.append(item)
    return found


def number(g: Game, res: Resolution, expr: Any) -> int:
    if isinstance(expr, int):
        return expr
    if "sum" in expr:
        # key cards count as requested, even once the effect has put them elsewhere
        cards = res.request.key_cards if expr["sum"] == "key" else cards_of(things(g, res, expr["sum"]))
        suit = expr.get("suit")
        return sum(
            rank(c)
            for c in cards
            if suit is None or (card(c).suit is not None and card(c).suit.value == suit)
        )
    if "count" in expr:
        return len(things(g, res, expr["count"]))
    if "size" in expr:
        units = [u for u in things(g, res, expr["size"]) if isinstance(u, Unit)]
        return size(units[0]) if units else 0
    if "core" in expr:
        return int(getattr(g.rules.edition.core, expr["core"]))
    if "mod" in expr:
        left, right = (number(g, res, e) for e in expr["mod"])
        return left % right if right else left
    return -number(g, res, expr["neg"])


_COMPARE = {
    "eq": int.__eq__,
    "ne": int.__ne__,
    "lt": int.__lt__,
    "le": int.__le__,
    "gt": int.__gt__,
    "ge": int.__ge__,
}


def condition(g: Game, res: Resolution, cond: Mapping[str, Any]) -> bool:
    ((op, arg),) = cond.items()
    if op == "all":
        return all(condition(g, res, c) for c in arg)
    if op == "any":
        return any(condition(g, res, c) for c in arg)
    if op == "not":
        return not condition(g, res, arg)
    if op == "is":
        units = [u for u in things(g, res, arg["of"]) if isinstance(u, Unit)]
        state = arg.get("state")
        return bool(units) and all(
            ("type" not in arg or u.kind.type == arg["type"])
            and (state is None or u.charged == (state == "charged"))
            for u in units
        )
    left, right = arg
    return bool(_COMPARE[op](number(g, res, left), number(g, res, right)))
