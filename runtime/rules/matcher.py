"""Key matcher: which selections of cards (say, from a hand) satisfy a KeySpec.

A rare key (レアカードN枚) takes any cards it is given: the cards that are rare are those of
the zones its action takes key cards from (`key_from`, never the hand; compiler/documents/regulation.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, product
from operator import attrgetter

from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.keyspec import CardPattern, KeySpec

Selection = tuple[int, ...]  # positions into the given cards, ascending


class KeyMatcher:
    """Enumerates the ways to choose key cards for one KeySpec.

    A way is a set of positions with a one-to-one assignment of its cards to the
    spec's patterns (each pattern repeated `count` times); 同じスート / 同じ数字 then
    require one shared suit / rank, which a Joker never has.
    """

    __slots__ = ("_demand", "_group_by", "spec")

    def __init__(self, spec: KeySpec) -> None:
        self.spec = spec
        # Equal patterns are chosen together with combinations(), never permutations.
        demand: dict[CardPattern, int] = {}
        for pattern in spec.patterns:
            demand[pattern] = demand.get(pattern, 0) + spec.count
        self._demand = tuple(demand.items())
        self._group_by: Callable[[Card], object] | None = (
            attrgetter("suit") if spec.same_suit else attrgetter("rank") if spec.same_number else None
        )

    def __reduce__(self) -> tuple[type[KeyMatcher], tuple[KeySpec]]:
        # Only the spec travels; the tables derived from it are built again on arrival.
        return KeyMatcher, (self.spec,)

    def ways(self, cards: Sequence[Card]) -> list[tuple[Card, ...]]:
        """Every distinct way, as cards in input order, ordered by input positions.

        Ways made of the same card values (two Jokers, say) count once: the earliest positions win.
        """
        return [tuple(cards[i] for i in selection) for selection in self.selections(cards)]

    def selections(self, cards: Sequence[Card]) -> list[Selection]:
        """The positions of each way of `ways`, ascending: a way's cards of one value take the
        earliest positions of that value that it can."""
        found = sorted(self._selections(cards, self._groups(cards), None))
        # equal values share a number, so a way's values compare as a sorted tuple of ints
        number: dict[Card, int] = {}
        values = [number.setdefault(c, len(number)) for c in cards]
        seen: set[tuple[int, ...]] = set()
        result: list[Selection] = []
        for selection in found:
            chosen = tuple(sorted(values[i] for i in selection))
            if chosen not in seen:
                seen.add(chosen)
                result.append(selection)
        return result

    def matches(self, cards: Sequence[Card]) -> bool:
        """Whether exactly these cards, all of them, are a valid choice of key cards."""
        size, needed = len(cards), self.spec.card_count()
        if size < needed or (size > needed and not self.spec.or_more):
            return False
        whole = [group for group in self._groups(cards) if len(group) == size]
        return any(True for _ in self._selections(cards, whole, size))

    def _groups(self, cards: Sequence[Card]) -> list[list[int]]:
        """Positions that may be chosen together: one group per suit or rank under 同じスート / 同じ数字."""
        if self._group_by is None:
            return [list(range(len(cards)))]
        groups: dict[object, list[int]] = {}
        for index, card in enumerate(cards):
            if not card.is_joker:
                groups.setdefault(self._group_by(card), []).append(index)
        return list(groups.values())

    def _selections(
        self, cards: Sequence[Card], groups: list[list[int]], size: int | None
    ) -> Iterator[Selection]:
        """Selections within each group: of every size the spec allows, or of `size`, an allowed one."""
        for group in groups:
            candidates = [[i for i in group if pattern.matches(cards[i])] for pattern, _ in self._demand]
            if self.spec.or_more:  # KeySpec allows 以上 with a single pattern only
                (pool,) = candidates
                sizes = range(self.spec.card_count(), len(pool) + 1) if size is None else (size,)
                for n in sizes:
                    yield from combinations(pool, n)
            else:
                yield from self._assignments(candidates)

    def _assignments(self, candidates: list[list[int]]) -> Iterator[Selection]:
        """Disjoint picks of each distinct pattern's multiplicity from its candidates."""
        if len(candidates) == 1:
            yield from combinations(candidates[0], self._demand[0][1])
            return
        needs = [needed for _, needed in self._demand]
        picks = [combinations(pool, needed) for pool, needed in zip(candidates, needs, strict=True)]
        found: set[Selection] = set()
        for parts in product(*picks):
            chosen = [i for part in parts for i in part]
            if len(set(chosen)) == len(chosen):
                found.add(tuple(sorted(chosen)))
        yield from found


def compile_matcher(spec: KeySpec) -> KeyMatcher:
    """The matcher for `spec`; the linker stores one per action."""
    return KeyMatcher(spec)
