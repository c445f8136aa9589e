"""Card identity: each game card is an int, `owner * 54 + index` into the owner's 54-card deck.

Two Jokers are two distinct physical cards with equal values; the int keeps them apart.
"""

from __future__ import annotations

from typing import Final

from blackpoker.runtime.rules.cards import Card, Suit, full_deck

DECK: Final[tuple[Card, ...]] = full_deck()
DECK_SIZE: Final = len(DECK)
# Looked up on every option and view: computed once instead of per call.
_RANKS: Final[tuple[int, ...]] = tuple(c.rank for c in DECK)
_SUITS: Final[tuple[Suit | None, ...]] = tuple(c.suit for c in DECK)
_LABELS: Final[tuple[str, ...]] = tuple(str(c) for c in DECK)
# A card value's place in the card order (Joker first): equal values, the two Jokers, share it.
_ORDER: Final[tuple[int, ...]] = tuple(sorted(set(DECK)).index(c) for c in DECK)
# Every id's place in the canonical card order (value, then id) as one int: ids of both decks
# and the virtual cards past them, so that sorting by it needs no tuple per card.
# The id is the key's remainder by SORT_SPAN, so sorting the keys themselves sorts the ids.
SORT_SPAN: Final = 3 * DECK_SIZE
CARD_SORT_KEY: Final[tuple[int, ...]] = tuple(_ORDER[c % DECK_SIZE] * SORT_SPAN + c for c in range(SORT_SPAN))


def card(cid: int) -> Card:
    return DECK[cid % DECK_SIZE]


def rank(cid: int) -> int:
    return _RANKS[cid % DECK_SIZE]


def suit(cid: int) -> Suit | None:
    """The card's suit (None: a Joker); compare it by identity (`is`), which hashes nothing."""
    return _SUITS[cid % DECK_SIZE]


def order(cid: int) -> int:
    """Sorts like the card's value and is equal exactly for equal values (ints compare fast)."""
    return _ORDER[cid % DECK_SIZE]


def owner(cid: int) -> int:
    return cid // DECK_SIZE


def virtual_card(value: Card) -> int:
    """A card that lies in no zone (a key card 仮想的に): an id past both players' decks, of the
    value, so its suit and number read as any card's and no player owns it."""
    return 2 * DECK_SIZE + DECK.index(value)


def deck_ids(player: int) -> range:
    return range(player * DECK_SIZE, (player + 1) * DECK_SIZE)


def label(cid: int) -> str:
    return _LABELS[cid % DECK_SIZE]
