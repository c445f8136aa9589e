"""Two runs compared (`simulate --compare A B`): every difference B − A the report shows,
with its 95% interval, its p-value, and Holm's correction over all of them (docs/simulate.md).

Looking at many differences at once, some clear one is likely by chance alone: Holm's
step-down method keeps the chance of calling any true zero difference significant under 5%,
whatever the dependence between them, and rejects at least as much as Bonferroni.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from blackpoker.runtime.play.stats import ActionUse, Difference, Mean, Rate, Summary, TrumpUse, significant

ALPHA = 0.05  # the family-wise error rate of the report's significance marks


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's adjusted p-values, in the order given: the k-th smallest of m times m − k + 1,
    never below an adjusted value of a smaller p, at most 1. A hypothesis is rejected at
    level α when its adjusted p-value is at most α."""
    adjusted = [0.0] * len(ps)
    running = 0.0
    for rank, index in enumerate(sorted(range(len(ps)), key=lambda i: ps[i])):
        running = max(running, min(1.0, (len(ps) - rank) * ps[index]))
        adjusted[index] = running
    return adjusted


@dataclass(frozen=True, slots=True)
class Tested:
    """A difference the report shows, with its Holm-adjusted p-value."""

    difference: Difference
    p_holm: float

    @property
    def significant(self) -> bool:
        return self.p_holm <= ALPHA

    def json(self) -> dict[str, Any]:
        return {**self.difference.json(), "p_holm": significant(self.p_holm), "significant": self.significant}


@dataclass(frozen=True, slots=True)
class ActionComparison:
    """An action both rule sets have; a difference is None where a side has too little to go
    on (no finished game, or for uses per game fewer than two games that used it)."""

    a: ActionUse
    b: ActionUse
    share: Tested | None  # of the finished games in which it was requested
    uses_per_game: Tested | None  # requests per game in which it was requested
    user_wins: Tested | None  # the requesting players' win rate


@dataclass(frozen=True, slots=True)
class TrumpComparison:
    """A trump of the two rule sets (two extra lists): the share of the finished games in which
    it lay face up, and its owners' win rate in those; tested when both sides have it (a new
    or removed trump of a local rule is shown for its one side)."""

    a: TrumpUse | None
    b: TrumpUse | None
    opened: Tested | None
    owner_wins: Tested | None

    @property
    def use(self) -> TrumpUse:
        """Its card and name, as B has them (else A)."""
        found = self.b or self.a
        assert found is not None  # a comparison is made of one side's trump at least
        return found


@dataclass(frozen=True, slots=True)
class Comparison:
    a: Summary
    b: Summary
    rates: tuple[tuple[str, Tested | None], ...]  # as Summary.rates() names them
    actions: tuple[ActionComparison, ...]  # B's order; an action of one side only is not compared
    trumps: tuple[TrumpComparison, ...] = ()  # B's order by card, then A's trumps B lacks

    @classmethod
    def of(cls, a: Summary, b: Summary) -> Comparison:
        shared = {x.id: x for x in a.actions}
        pairs = [(x, y) for y in b.actions if (x := shared.get(y.id)) is not None]
        rates = [(name, _rates(ra, rb)) for (name, ra), (_, rb) in zip(a.rates(), b.rates(), strict=True)]
        actions = [
            (
                _rates(Rate(x.games, a.completed), Rate(y.games, b.completed)),
                _means(x.per_game, y.per_game),
                _rates(x.wins, y.wins),
            )
            for x, y in pairs
        ]
        by_card = {t.card: t for t in a.trumps}
        in_b = {u.card for u in b.trumps}
        trump_pairs: list[tuple[TrumpUse | None, TrumpUse | None]] = [
            (by_card.get(u.card), u) for u in b.trumps
        ]
        trump_pairs += [(t, None) for t in a.trumps if t.card not in in_b]
        trumps = [
            (_rates(Rate(t.opened, a.completed), Rate(u.opened, b.completed)), _rates(t.wins, u.wins))
            if t is not None and u is not None
            else (None, None)
            for t, u in trump_pairs
        ]
        found = [d for _, d in rates if d is not None] + [d for row in actions for d in row if d is not None]
        found += [d for row in trumps for d in row if d is not None]
        adjusted = iter(holm([d.p for d in found]))

        def tested(d: Difference | None) -> Tested | None:
            # Called in the order `found` lists them, so each takes its own adjusted value.
            return None if d is None else Tested(d, next(adjusted))

        return cls(
            a,
            b,
            tuple((name, tested(d)) for name, d in rates),
            tuple(
                ActionComparison(x, y, *(tested(d) for d in row))
                for (x, y), row in zip(pairs, actions, strict=True)
            ),
            tuple(
                TrumpComparison(t, u, *(tested(d) for d in row))
                for (t, u), row in zip(trump_pairs, trumps, strict=True)
            ),
        )

    def tests(self) -> Iterator[Tested]:
        """Every difference tested, rates first."""
        for _, rate in self.rates:
            if rate is not None:
                yield rate
        for action in self.actions:
            yield from (t for t in (action.share, action.uses_per_game, action.user_wins) if t is not None)
        for trump in self.trumps:
            yield from (t for t in (trump.opened, trump.owner_wins) if t is not None)

    @property
    def count(self) -> int:
        """The differences tested: Holm's m."""
        return sum(1 for _ in self.tests())

    def json(self) -> dict[str, Any]:
        def shown(t: Tested | None) -> dict[str, Any] | None:
            return None if t is None else t.json()

        return {
            "compare": [self.a.json(), self.b.json()],
            "differences": {
                "rates": {name: shown(t) for name, t in self.rates},
                "actions": {
                    c.b.id: {
                        "share": shown(c.share),
                        "uses_per_game": shown(c.uses_per_game),
                        "user_wins": shown(c.user_wins),
                    }
                    for c in self.actions
                },
                **(
                    {
                        "trumps": {
                            t.use.card: {"opened": shown(t.opened), "owner_wins": shown(t.owner_wins)}
                            for t in self.trumps
                        }
                    }
                    if self.trumps
                    else {}
                ),
            },
            "holm": {"alpha": ALPHA, "comparisons": self.count},
        }


def _rates(a: Rate, b: Rate) -> Difference | None:
    return Difference.of(a, b) if a.total and b.total else None


def _means(a: Mean, b: Mean) -> Difference | None:
    return Difference.of_means(a, b) if a.n >= 2 and b.n >= 2 else None
