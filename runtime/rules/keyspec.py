"""Key-spec IR: which key cards (鍵札) an action needs, and its canonical notation.

A KeySpec takes one of four shapes, each with its own printed form:

* pattern form     ``♡A〜K と ♢A〜K``, ``♠A〜10 を 2枚``, ``同じスートのA,10〜K を 5枚``
* any-card form    ``同じスートを2枚``, ``同じスートを2枚以上``, ``同じ数字を2枚``
* face-down form   ``全て(裏向き)``
* rare form        ``レアカード1枚``

The any-card, face-down and rare forms hold the single pattern ANY_CARD. Invalid
combinations raise InvalidKeySpec, whose flaws say which part of the notation
is wrong so the parser can point at it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from functools import reduce
from typing import Any

from blackpoker.runtime.rules.cards import Card, Suit, full_deck, rank_label
from blackpoker.runtime.rules.frozen import rebuilt

DECK_SIZE = len(full_deck())


@dataclass(frozen=True, order=True, slots=True)
class RankRange:
    """Ranks low..high inclusive (A=1 … K=13)."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if 1 <= self.low <= self.high <= 13:
            return
        if not (1 <= self.low <= 13 and 1 <= self.high <= 13):
            raise ValueError(f"ranks must be 1..13 (A..K), got {self.low!r} and {self.high!r}")
        raise ValueError(f"descending range {self}: write the lower rank first")

    def __contains__(self, rank: int) -> bool:
        return self.low <= rank <= self.high

    def __str__(self) -> str:
        if self.low == self.high:
            return rank_label(self.low)
        return f"{rank_label(self.low)}〜{rank_label(self.high)}"

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


def merge_ranks(ranges: Iterable[RankRange]) -> tuple[RankRange, ...]:
    """Sort ranges and join touching ones (A,2〜5 → A〜5); overlapping ranges are an error."""
    ordered = sorted(ranges)
    if len(ordered) < 2:
        return tuple(ordered)
    merged = ordered[:1]
    for current in ordered[1:]:
        last = merged[-1]
        if current.low <= last.high:
            raise ValueError(f"ranks {last} and {current} overlap: list each rank once")
        if current.low == last.high + 1:
            merged[-1] = RankRange(last.low, current.high)
        else:
            merged.append(current)
    return tuple(merged)


@dataclass(frozen=True, slots=True)
class CardPattern:
    """One key card's requirement: suits (empty = any) and ranks, or exactly a Joker.

    Ranks are kept as merge_ranks() leaves them, so equal patterns are equal values. Only
    ANY_CARD has no ranks: suits alone have no notation (♡ is written ♡A〜K).
    """

    suits: frozenset[Suit] = frozenset()
    ranks: tuple[RankRange, ...] = ()
    joker: bool = False

    def __post_init__(self) -> None:
        if self.joker and (self.suits or self.ranks):
            raise ValueError("a Joker pattern has no suit or rank")
        if self.suits and not self.ranks:
            raise ValueError("a pattern with suits needs ranks too, e.g. ♡A〜K")
        ranks = self.ranks
        for index in range(1, len(ranks)):
            if ranks[index - 1].high + 1 >= ranks[index].low:
                raise ValueError(f"ranks {ranks} must be sorted with gaps between them; use merge_ranks()")

    @property
    def is_any(self) -> bool:
        """Matches every card, Jokers included; used only by the any-card, face-down and rare forms."""
        return not (self.joker or self.ranks)

    def rank_set(self) -> frozenset[int]:
        """The ranks this pattern accepts (1..13 when unrestricted; empty for a Joker)."""
        if self.joker:
            return frozenset()
        if not self.ranks:
            return frozenset(range(1, 14))
        return frozenset(rank for r in self.ranks for rank in range(r.low, r.high + 1))

    def matches(self, card: Card) -> bool:
        """Whether `card` meets this pattern on its own (同じスート and the like are the matcher's job)."""
        if self.joker or card.suit is None:
            return card.is_joker and (self.joker or self.is_any)
        if self.suits and card.suit not in self.suits:
            return False
        return not self.ranks or any(card.rank in r for r in self.ranks)

    def __str__(self) -> str:
        """Suits in canonical order, then ranks ("♡♢A,10〜K"); the any-card pattern has no text."""
        if self.joker:
            return "Joker"
        suits = "".join(suit.value for suit in Suit if suit in self.suits)
        return suits + ",".join(map(str, self.ranks))

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


ANY_CARD = CardPattern()
JOKER_PATTERN = CardPattern(joker=True)


class Part(Enum):
    """The part of a key's notation a flaw is about."""

    KEY = "key"  # the notation as a whole
    PREFIX = "prefix"  # 同じスート / 同じ数字
    PATTERN = "pattern"  # the pattern at Flaw.index
    COUNT = "count"  # を N枚 (以上), or N枚 in the any-card and rare forms


@dataclass(frozen=True, slots=True)
class Flaw:
    """One reason why KeySpec fields make no key."""

    message: str
    part: Part
    index: int = 0  # which pattern, for Part.PATTERN


class InvalidKeySpec(ValueError):
    """Raised by KeySpec for a combination with no meaning; carries every flaw found."""

    def __init__(self, flaws: Iterable[Flaw]) -> None:
        self.flaws = tuple(flaws)
        super().__init__("; ".join(flaw.message for flaw in self.flaws))


@dataclass(frozen=True, slots=True)
class KeySpec:
    """The key cards an action needs; str() gives the canonical notation, which parse_key reads back."""

    patterns: tuple[CardPattern, ...]  # joined by と: each pattern needs its own card
    count: int = 1  # を N枚: the single pattern is needed N times
    or_more: bool = False  # 以上
    same_suit: bool = False  # 同じスート
    same_number: bool = False  # 同じ数字
    face_down: bool = False  # 全て(裏向き): any one card, placed face down
    rare: bool = False  # レアカードN枚: any cards of the zones its action names (`key_from`)
    # the notation as the data writes it (parse_key), printed on the sheets; not compared
    written: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        flaws = _flaws(self)
        if flaws:
            raise InvalidKeySpec(flaws)

    def card_count(self) -> int:
        """The minimum number of key cards."""
        return len(self.patterns) * self.count

    def is_any_form(self) -> bool:
        """True for the any-card, face-down and rare forms, which hold only ANY_CARD."""
        return len(self.patterns) == 1 and self.patterns[0].is_any

    def __str__(self) -> str:
        if self.face_down:
            return "全て(裏向き)"
        amount = f"{self.count}枚" + ("以上" if self.or_more else "")
        if self.rare:
            return f"レアカード{amount}"
        prefix = _same_word(self) if self.same_suit or self.same_number else ""
        if self.is_any_form():
            return f"{prefix}を{amount}"
        body = " と ".join(map(str, self.patterns))
        if self.count != 1 or self.or_more:
            body += f" を {amount}"
        return f"{prefix}の{body}" if prefix else body

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


_MODE_WORDS = ("全て(裏向き)", "レアカード", "同じスート", "同じ数字")


def _flaws(spec: KeySpec) -> list[Flaw]:
    """Every reason the fields make no key; runs for each parsed key, so the common path is short."""
    patterns = spec.patterns
    if not patterns:
        return [Flaw("a key needs a pattern (an action without key cards has no KeySpec)", Part.KEY)]
    flaws = []
    cards = len(patterns) * spec.count
    if spec.count < 1:
        flaws.append(Flaw(f"count must be at least 1, got {spec.count}", Part.COUNT))
    elif cards > DECK_SIZE:
        flaws.append(Flaw(f"a key cannot need more than {DECK_SIZE} cards, a whole deck", Part.COUNT))
    same = spec.same_suit or spec.same_number
    if spec.face_down + spec.rare + spec.same_suit + spec.same_number > 1:  # bools add up as ints
        flags = (spec.face_down, spec.rare, spec.same_suit, spec.same_number)
        modes = [word for word, on in zip(_MODE_WORDS, flags, strict=True) if on]
        return [*flaws, Flaw(f"{' and '.join(modes)} cannot be combined", Part.KEY)]
    if spec.face_down or spec.rare:
        return flaws + _special_flaws(spec)
    if len(patterns) > 1:
        flaws += _several_flaws(spec)
    elif not same and patterns[0].is_any:
        flaws.append(Flaw("a pattern needs a rank or Joker", Part.PATTERN))
    if same and not spec.is_any_form():
        flaws += _same_flaws(spec)
    if same and cards == 1:  # a count of 0 is flagged above
        flaws.append(Flaw(f"{_same_word(spec)} needs at least two cards", Part.PREFIX))
    return flaws


def _same_word(spec: KeySpec) -> str:
    return "同じスート" if spec.same_suit else "同じ数字"


def _special_flaws(spec: KeySpec) -> list[Flaw]:
    """全て(裏向き) is exactly one card; レアカード takes a plain count."""
    mode = "全て(裏向き)" if spec.face_down else "レアカード"
    flaws = []
    if not spec.is_any_form():
        flaws.append(Flaw(f"{mode} takes no card pattern", Part.KEY))
    if spec.or_more or (spec.face_down and spec.count != 1):
        flaws.append(Flaw(f"{mode} cannot take this count", Part.COUNT))
    return flaws


def _several_flaws(spec: KeySpec) -> list[Flaw]:
    """Patterns joined by と each stand for one card."""
    flaws = [
        Flaw("a pattern needs a rank or Joker", Part.PATTERN, index)
        for index, pattern in enumerate(spec.patterns)
        if pattern.is_any
    ]
    if spec.count != 1 or spec.or_more:
        flaws.append(Flaw("を N枚 applies to a single pattern; join each card with と instead", Part.COUNT))
    return flaws


def _same_flaws(spec: KeySpec) -> list[Flaw]:
    """同じスート / 同じ数字 need every card to share a suit / rank, so the patterns must allow one."""
    word, attribute = _same_word(spec), "suit" if spec.same_suit else "number"
    flaws = [
        Flaw(f"a Joker has no {attribute}, so {word} can never hold", Part.PATTERN, index)
        for index, pattern in enumerate(spec.patterns)
        if pattern.joker
    ]
    if flaws:
        return flaws
    shared: frozenset[Suit] | frozenset[int]
    if spec.same_suit:
        shared = reduce(frozenset.__and__, (p.suits or frozenset(Suit) for p in spec.patterns))
    else:
        shared = reduce(frozenset.__and__, (p.rank_set() for p in spec.patterns))
    if not shared:
        flaws.append(Flaw(f"no {attribute} fits every pattern, so {word} can never hold", Part.PREFIX))
    return flaws
