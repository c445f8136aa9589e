"""Card identity: each game card is an int, `owner * 54 + index` into the owner's 54-card deck.

Two Jokers are two distinct physical cards with equal values; the int keeps them apart.
"""

from __future__ import annotations

from blackpoker.compiler.cards import Card, full_deck

DECK: tuple[Card, ...] = full_deck()
DECK_SIZE = len(DECK)


def card(cid: int) -> Card:
    return DECK[cid % DECK_SIZE]


def rank(cid: int) -> int:
    return DECK[cid % DECK_SIZE].rank


def owner(cid: int) -> int:
    return cid // DECK_SIZE


def deck_ids(player: int) -> range:
    return range(player * DECK_SIZE, (player + 1) * DECK_SIZE)


def label(cid: int) -> str:
    return str(DECK[cid % DECK_SIZE])


def rank_label_of(cid: int) -> str:
    """The rank as the data names it: Joker, A, 2 … 10, J, Q, K."""
    text = label(cid)
    return text if text == "Joker" else text[1:]
