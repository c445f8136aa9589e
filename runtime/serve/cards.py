"""Cards as the browser's JSON gives them: `{id, label, suit}` (runtime/serve/board.py)."""

from __future__ import annotations

from typing import Any

from blackpoker.runtime.engine.zones import card, label

Json = dict[str, Any]
SUITS = {"♠": "spade", "♡": "heart", "♢": "diamond", "♣": "club"}


def card_json(cid: int) -> Json:
    suit = card(cid).suit
    return {"id": cid, "label": label(cid), "suit": SUITS[suit.value] if suit is not None else "joker"}


def cards_json(cards: tuple[int, ...] | list[int]) -> list[Json]:
    return [card_json(c) for c in cards]
