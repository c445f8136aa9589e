"""Playing cards as BlackPoker uses them: 52 suited cards and two Jokers."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import total_ordering
from typing import Any

from blackpoker.runtime.rules.frozen import rebuilt
from blackpoker.runtime.rules.normalize import normalize


@total_ordering
class Suit(Enum):
    """The four suits; declaration order is the canonical printing and sorting order."""

    SPADE = "♠"
    HEART = "♡"
    DIAMOND = "♢"
    CLUB = "♣"

    # By identity (a member is its only equal), in C: Enum's own hash is a Python call, and the
    # key matcher hashes suits for every card of every new hand.
    __hash__ = object.__hash__

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return _SUIT_ORDER[self] < _SUIT_ORDER[other]


_SUIT_ORDER: dict[Suit, int] = {suit: index for index, suit in enumerate(Suit)}

JOKER_RANK = 0
_RANK_LABELS: dict[int, str] = {1: "A", **{n: str(n) for n in range(2, 11)}, 11: "J", 12: "Q", 13: "K"}
_LABEL_RANKS: dict[str, int] = {label: rank for rank, label in _RANK_LABELS.items()}


def rank_label(rank: int) -> str:
    """The printed label of a rank: 1 → "A", 2..10 → digits, 11..13 → "J", "Q", "K"."""
    try:
        return _RANK_LABELS[rank]
    except KeyError:
        raise ValueError(f"rank must be 1..13, got {rank!r}") from None


# The rank a label names, or None; only exact labels count ("1" and "02" are not ranks).
# A bound dict.get: the notation parser calls it for every rank it reads.
rank_from_label: Callable[[str], int | None] = _LABEL_RANKS.get


class Rank(IntEnum):
    """A rank as a program names it (`ranks: [Joker, A, J]`): the card's number, a Joker 0.
    An int, so it compares with `Card.rank` as it is; printed as the data writes it."""

    JOKER = JOKER_RANK
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    def __str__(self) -> str:
        return "Joker" if self is Rank.JOKER else _RANK_LABELS[self.value]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """The rank the data names: Joker, A, 2 … 10, J, Q, K (the schema checks the word)."""
        found = JOKER_RANK if text == "Joker" else rank_from_label(text)
        if found is None:
            raise ValueError(f"not a rank: {text!r}; write Joker, A, 2–10, J, Q or K")
        return cls(found)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card. Order is by rank, then suit; a Joker (rank 0, no suit) sorts first."""

    rank: int
    suit: Suit | None

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __hash__(self) -> int:
        return hash((self.rank, self.suit))

    def __post_init__(self) -> None:
        if self.rank == JOKER_RANK:
            if self.suit is not None:
                raise ValueError("a Joker has no suit")
        elif self.rank not in _RANK_LABELS or self.suit is None:
            raise ValueError(f"a card needs a suit and a rank 1..13, got {self.rank!r} and {self.suit!r}")

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    def __str__(self) -> str:
        if self.suit is None:
            return "Joker"
        return self.suit.value + _RANK_LABELS[self.rank]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read "♡5", "♠A", "♣10", "Joker" (any letter case); full-width forms and spaces are fine."""
        plain = normalize(text).text
        if plain.casefold() == "joker":
            return JOKER
        rank = rank_from_label(plain[1:])
        if rank is None or plain[:1] not in _SUIT_BY_SYMBOL:
            symbols = " ".join(suit.value for suit in Suit)
            meant = with_suit_symbols(text).strip()
            hint = f"; did you mean {meant}?" if meant != text.strip() and _is_card(meant) else ""
            how = f"write a suit ({symbols}) then a rank (A, 2–10, J, Q, K), or Joker"
            raise ValueError(f"not a card: {text!r}; {how}{hint}")
        return cls(rank, _SUIT_BY_SYMBOL[plain[0]])

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


_SUIT_BY_SYMBOL: dict[str, Suit] = {suit.value: suit for suit in Suit}
JOKER = Card(JOKER_RANK, None)
_DECK: tuple[Card, ...] = (
    *(Card(rank, suit) for suit in Suit for rank in range(1, 14)),
    JOKER,
    JOKER,
)


def full_deck() -> tuple[Card, ...]:
    """The 54 cards: ♠A..♠K, ♡A..♡K, ♢A..♢K, ♣A..♣K, then two Jokers."""
    return _DECK


def _is_card(text: str) -> bool:
    try:
        Card.parse(text)
    except ValueError:
        return False
    return True


# What people write for a suit instead of its symbol: its initial (S2, h5), its English name
# (spade 2, Hearts5) and its Japanese one (ハート5). The symbols are the Suit members' values.
_SUIT_NAMES: dict[Suit, tuple[str, ...]] = {
    Suit.SPADE: ("スペード",),
    Suit.HEART: ("ハート",),
    Suit.DIAMOND: ("ダイヤモンド", "ダイヤ", "ダイア"),
    Suit.CLUB: ("クラブ",),
}
_SUIT_BY_NAME: dict[str, Suit] = {
    written.casefold(): suit
    for suit in Suit
    for written in (suit.name[0], suit.name, f"{suit.name}S", *_SUIT_NAMES[suit])
}
_RANK_WRITTEN = "10|[2-9]|[AJQK1]"
# A suit's name (before its rank, spaces allowed between) or initial (just before it), not
# inside a longer word: `block S9` is a card, `pass` holds none.
_NAMES = "|".join(sorted((n for n in _SUIT_BY_NAME if len(n) > 1), key=len, reverse=True))
_INITIALS = "".join(n for n in _SUIT_BY_NAME if len(n) == 1)
_SPELT_SUIT = re.compile(
    rf"(?<![A-Za-z])(?:({_NAMES})\s*|([{_INITIALS}]))({_RANK_WRITTEN})(?![0-9A-Za-z])", re.IGNORECASE
)


def with_suit_symbols(text: str) -> str:
    """`text` with each suit written as a letter or a name before a rank (S2, h5, ハート5,
    spade 2) written as its symbol (♠2, ♡5): what the author meant, for a "did you mean"."""

    def symbol(match: re.Match[str]) -> str:
        suit = _SUIT_BY_NAME[(match.group(1) or match.group(2)).casefold()]
        rank = match.group(3).upper()
        return suit.value + ("A" if rank == "1" else rank)

    return _SPELT_SUIT.sub(symbol, text)
