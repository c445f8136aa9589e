"""The statistics of a simulation run, for rule designers (docs/simulate.md).

Rates carry 95% Wilson score intervals (good for small counts and rates near 0 or 1, unlike
the normal approximation); the difference of two rates carries Newcombe's interval built
from them, the difference of two means Welch's. Each difference's p-value is the one of the
test its interval inverts, so p < 0.05 exactly when the 95% interval leaves out 0.
Lengths are medians and quartiles.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from blackpoker.runtime.engine.refs import Result, player_name
from blackpoker.runtime.play.distributions import normal_two_sided, t_quantile, t_two_sided
from blackpoker.runtime.play.selfplay import GameRecord
from blackpoker.runtime.rules.model import RuleSet

Z95 = 1.959963984540054  # the standard normal quantile of 97.5%: two-sided 95%
CONFIDENCE = 0.95
Z_MAX = 40.0  # a normal quantile whose two-sided tail (1e-350) is 0 in floating point


def wilson(count: int, total: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of count / total; (0, 1) when there is nothing to go on."""
    if total == 0:
        return 0.0, 1.0
    p = count / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Rate:
    count: int
    total: int

    @property
    def rate(self) -> float:
        return self.count / self.total if self.total else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.count, self.total)

    def json(self) -> dict[str, Any]:
        low, high = self.interval
        return {"count": self.count, "total": self.total, "rate": _r(self.rate), "ci95": [_r(low), _r(high)]}


@dataclass(frozen=True, slots=True)
class Mean:
    """The mean of n counts, kept as their sum and the sum of their squares."""

    n: int
    total: int
    squares: int

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        """The sample variance (n − 1 in the denominator); 0 below two values."""
        if self.n < 2:
            return 0.0
        return max(0.0, (self.squares - self.total * self.total / self.n) / (self.n - 1))


def newcombe(a: Rate, b: Rate, z: float = Z95) -> tuple[float, float]:
    """Newcombe's interval for b − a (his method 10: from both rates' Wilson intervals)."""
    (la, ha), (lb, hb) = wilson(a.count, a.total, z), wilson(b.count, b.total, z)
    d = b.rate - a.rate
    return d - math.hypot(b.rate - lb, ha - a.rate), d + math.hypot(hb - b.rate, a.rate - la)


def newcombe_p(a: Rate, b: Rate) -> float:
    """The two-sided p-value that Newcombe's interval inverts: the level 1 − p at which the
    interval just reaches 0. It widens as z grows, so the z where it does is found by bisection."""

    def clear(z: float) -> bool:
        low, high = newcombe(a, b, z)
        return low > 0 or high < 0

    if not clear(0.0):  # no difference at all
        return 1.0
    if clear(Z_MAX):
        return 0.0
    low, high = 0.0, Z_MAX
    for _ in range(64):
        middle = (low + high) / 2
        low, high = (middle, high) if clear(middle) else (low, middle)
    return normal_two_sided((low + high) / 2)


@dataclass(frozen=True, slots=True)
class Difference:
    """b − a of two independent rates or means, its 95% interval and the matching p-value."""

    value: float
    low: float
    high: float
    p: float  # two-sided, of the test the interval inverts

    @classmethod
    def of(cls, a: Rate, b: Rate) -> Difference:
        """Of two rates: Newcombe's interval."""
        low, high = newcombe(a, b)
        return cls(b.rate - a.rate, low, high, newcombe_p(a, b))

    @classmethod
    def of_means(cls, a: Mean, b: Mean) -> Difference:
        """Of two means (two values each at least): Welch's t interval and test, which do not
        assume equal variances; its degrees of freedom are Welch–Satterthwaite's."""
        d = b.mean - a.mean
        va, vb = a.variance / a.n, b.variance / b.n
        if va + vb == 0:  # every value alike on both sides: the difference is exact
            return cls(d, d, d, 1.0 if d == 0 else 0.0)
        se = math.sqrt(va + vb)
        df = (va + vb) ** 2 / (va * va / (a.n - 1) + vb * vb / (b.n - 1))
        half = t_quantile(1 - CONFIDENCE, df) * se
        return cls(d, d - half, d + half, t_two_sided(d / se, df))

    @property
    def clear(self) -> bool:
        """The interval leaves out 0: more than the noise of the sample sizes (before any
        correction for the number of differences looked at)."""
        return self.low > 0 or self.high < 0

    def json(self) -> dict[str, Any]:
        return {
            "difference": _r(self.value),
            "ci95": [_r(self.low), _r(self.high)],
            "clear": self.clear,
            "p": significant(self.p),
        }


@dataclass(frozen=True, slots=True)
class Spread:
    """Median and quartiles (inclusive method), with the extremes."""

    median: float
    q1: float
    q3: float
    low: int
    high: int

    @classmethod
    def of(cls, values: Sequence[int]) -> Spread:
        if not values:
            return cls(0.0, 0.0, 0.0, 0, 0)
        if len(values) == 1:
            return cls(values[0], values[0], values[0], values[0], values[0])
        import statistics  # with fractions and decimal: a one-game run does without them

        q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
        return cls(median, q1, q3, min(values), max(values))

    def json(self) -> dict[str, Any]:
        return {"median": self.median, "q1": self.q1, "q3": self.q3, "min": self.low, "max": self.high}


@dataclass(frozen=True, slots=True)
class ActionUse:
    id: str
    name: str
    games: int  # games in which a player requested it at least once
    uses: int  # requests over all games
    squares: int  # the sum over those games of the requests in the game, squared
    wins: Rate  # of the players who requested it in a finished game: how many won that game

    @property
    def per_game(self) -> Mean:
        """Requests per game in which it was requested."""
        return Mean(self.games, self.uses, self.squares)

    def json(self, games: int) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "games": self.games,
            "share": _r(self.games / games if games else 0.0),
            "uses": self.uses,
            "uses_per_game": _r(self.uses / self.games if self.games else 0.0),
            "user_wins": self.wins.json(),
        }


@dataclass(frozen=True, slots=True)
class TrumpUse:
    """A trump of the extra format over the finished games (a card may lie in both players'
    zones in one game: each player's deck has one)."""

    card: str  # ♠4
    name: str  # its ability's name
    placed: int  # games in which a player placed it
    opened: int  # games in which it lay face up
    wins: Rate  # of its owners in the games where it lay face up: how many won that game

    def json(self, games: int) -> dict[str, Any]:
        return {
            "card": self.card,
            "name": self.name,
            "placed": self.placed,
            "placed_share": _r(self.placed / games if games else 0.0),
            "opened": self.opened,
            "opened_share": _r(self.opened / games if games else 0.0),
            "owner_wins": self.wins.json(),
        }


@dataclass(frozen=True, slots=True)
class Summary:
    edition: str
    format: str
    title: str  # the format's name, as the sheets print it
    agents: tuple[str, str]  # p1's and p2's agent names
    seed: int
    games: int
    completed: int  # finished with a result
    decisions: int  # over every game that did not crash
    seconds: float
    p1: Rate  # wins of p1 (its agent) among the finished games
    p2: Rate
    first: Rate  # wins of the player who started
    second: Rate
    draws: Rate
    turns: Spread  # of finished games
    lengths: Spread  # decisions per finished game
    turn_counts: tuple[tuple[int, int], ...]  # (turns, finished games that lasted that long)
    actions: tuple[ActionUse, ...]  # every direct action of the rule set, in its order
    failures: tuple[str, ...]
    trumps: tuple[TrumpUse, ...] = ()  # every trump of the rule set (the extra format), in its order

    def json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "completed": self.completed,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "wins": {"p1": self.p1.count, "p2": self.p2.count},
            "draws": self.draws.count,
            "failures": list(self.failures),
            "edition": self.edition,
            "format": self.format,
            "agents": {"p1": self.agents[0], "p2": self.agents[1]},
            "seed": self.seed,
            "rates": {name: rate.json() for name, rate in self.rates()},
            "turns": self.turns.json(),
            "decisions_per_game": self.lengths.json(),
            "turn_histogram": {str(turns): n for turns, n in self.turn_counts},
            "actions": [a.json(self.completed) for a in self.actions],
            **({"trumps": [t.json(self.completed) for t in self.trumps]} if self.trumps else {}),
        }

    def rates(self) -> tuple[tuple[str, Rate], ...]:
        return (
            ("p1", self.p1),
            ("p2", self.p2),
            ("first", self.first),
            ("second", self.second),
            ("draw", self.draws),
        )


def summarize(
    records: Sequence[GameRecord], rules: RuleSet, agents: tuple[str, str], seed: int, seconds: float
) -> Summary:
    finished = [r for r in records if r.result is not None]
    done = len(finished)

    def wins(who: Result) -> int:
        return sum(1 for r in finished if r.result is who)

    first = sum(1 for r in finished if r.result is Result.won_by(r.first))
    second = sum(1 for r in finished if r.result is Result.won_by(1 - r.first))
    turns = sorted(r.turns for r in finished)
    return Summary(
        rules.edition.id,
        rules.format.id,
        rules.format.name,
        agents,
        seed,
        len(records),
        done,
        sum(r.decisions for r in records if r.crash is None),
        seconds,
        Rate(wins(Result.P1_WINS), done),
        Rate(wins(Result.P2_WINS), done),
        Rate(first, done),
        Rate(second, done),
        Rate(wins(Result.DRAW), done),
        Spread.of(turns),
        Spread.of(sorted(r.decisions for r in finished)),
        tuple(sorted(Counter(turns).items())),
        _actions(finished, rules),
        tuple(f for r in records if (f := r.failure) is not None),
        _trumps(finished, rules),
    )


def _actions(finished: Sequence[GameRecord], rules: RuleSet) -> tuple[ActionUse, ...]:
    games: Counter[str] = Counter()
    uses: Counter[str] = Counter()
    squares: Counter[str] = Counter()
    users: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    for record in finished:
        in_game: Counter[str] = Counter()
        for action, player, n in record.uses:
            in_game[action] += n
            users[action] += 1
            winners[action] += record.result is Result.won_by(player)
        games.update(in_game.keys())
        uses.update(in_game)
        squares.update({action: n * n for action, n in in_game.items()})
    return tuple(
        ActionUse(a.id, a.name, games[a.id], uses[a.id], squares[a.id], Rate(winners[a.id], users[a.id]))
        for a in rules.actions
        if a.direct
    )


def _trumps(finished: Sequence[GameRecord], rules: RuleSet) -> tuple[TrumpUse, ...]:
    placed: Counter[str] = Counter()
    opened: Counter[str] = Counter()
    owners: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    for record in finished:
        placed.update({card for card, _, _ in record.trumps})
        opened.update({card for card, _, up in record.trumps if up})
        for card, player, up in record.trumps:
            if up:
                owners[card] += 1
                winners[card] += record.result is Result.won_by(player)
    printed = [(str(t.card), t) for t in rules.trumps]  # a game record names its trumps printed
    return tuple(
        TrumpUse(card, t.name, placed[card], opened[card], Rate(winners[card], owners[card]))
        for card, t in printed
    )


def _r(value: float) -> float:
    return round(value, 4)


def significant(value: float) -> float:
    """Three significant digits: a small p-value keeps its size, where rounding would give 0."""
    return float(f"{value:.3g}")


@dataclass(frozen=True, slots=True)
class DeckUse:
    player: str
    deck: str  # the deck file's name, or "deck N" for a dealt deck
    wins: Rate  # the games won with it, of the finished games it played

    def json(self) -> dict[str, Any]:
        return {"player": self.player, "deck": self.deck, "wins": self.wins.json()}


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """--match: each of the run's matches as a whole, and for 2-deck matches each deck's games."""

    regulation: str
    matches: int
    finished: int
    p1: Rate
    p2: Rate
    draws: Rate
    games: Spread  # games per finished match
    decks: tuple[DeckUse, ...]

    @classmethod
    def of(
        cls, records: Sequence[GameRecord], regulation: str, names: Sequence[Sequence[str]], wins: int
    ) -> MatchSummary:
        """`wins`: the games that take a match (a match without them is drawn)."""
        by_match: dict[int, list[GameRecord]] = {}
        for record in records:
            by_match.setdefault(record.index if record.match is None else record.match, []).append(record)
        done = [games for games in by_match.values() if all(g.result is not None for g in games)]
        results = Counter(_match_result(games, wins) for games in done)
        used: Counter[tuple[int, int]] = Counter()
        won: Counter[tuple[int, int]] = Counter()
        for record in (g for games in done for g in games):
            for player in (0, 1):
                deck = record.decks[player] if record.decks else 0
                used[player, deck] += 1
                won[player, deck] += record.result is Result.won_by(player)
        decks = tuple(
            DeckUse(player_name(p), names[p][d], Rate(won[p, d], used[p, d]))
            for p in (0, 1)
            for d in range(len(names[p]))
        )
        n = len(done)
        return cls(
            regulation,
            len(by_match),
            n,
            Rate(results[Result.P1_WINS], n),
            Rate(results[Result.P2_WINS], n),
            Rate(results[Result.DRAW], n),
            Spread.of(sorted(len(games) for games in done)),
            decks if any(len(mine) > 1 for mine in names) else (),
        )

    def json(self) -> dict[str, Any]:
        return {
            "regulation": self.regulation,
            "matches": self.matches,
            "finished": self.finished,
            "p1": self.p1.json(),
            "p2": self.p2.json(),
            "draw": self.draws.json(),
            "games": self.games.json(),
            "decks": [deck.json() for deck in self.decks],
        }


def _match_result(games: Sequence[GameRecord], wins: int) -> Result:
    """The player who won `wins` games; else a draw."""
    won = Counter(g.result for g in games)
    return next((r for r in (Result.P1_WINS, Result.P2_WINS) if won[r] >= wins), Result.DRAW)
