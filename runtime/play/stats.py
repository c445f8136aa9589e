"""The statistics of a simulation run, for rule designers (docs/simulate.md).

Rates carry 95% Wilson score intervals (good for small counts and rates near 0 or 1, unlike
the normal approximation); the difference of two rates carries Newcombe's interval built
from them. Lengths are medians and quartiles.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from blackpoker.compiler.model import RuleSet
from blackpoker.runtime.engine.state import player_name
from blackpoker.runtime.play.selfplay import GameRecord

Z95 = 1.959963984540054  # the standard normal quantile of 97.5%: two-sided 95%


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
class Difference:
    """b − a of two independent rates, with Newcombe's 95% interval (method 10)."""

    value: float
    low: float
    high: float

    @classmethod
    def of(cls, a: Rate, b: Rate) -> Difference:
        (la, ha), (lb, hb) = a.interval, b.interval
        d = b.rate - a.rate
        return cls(d, d - math.hypot(b.rate - lb, ha - a.rate), d + math.hypot(hb - b.rate, a.rate - la))

    @property
    def clear(self) -> bool:
        """The interval leaves out 0: more than the noise of the sample sizes."""
        return self.low > 0 or self.high < 0

    def json(self) -> dict[str, Any]:
        return {"difference": _r(self.value), "ci95": [_r(self.low), _r(self.high)], "clear": self.clear}


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
    wins: Rate  # of the players who requested it in a finished game: how many won that game

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

    def wins(who: str | None) -> int:
        return sum(1 for r in finished if r.result == who)

    first = sum(1 for r in finished if r.result == player_name(r.first))
    second = sum(1 for r in finished if r.result == player_name(1 - r.first))
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
        Rate(wins("p1"), done),
        Rate(wins("p2"), done),
        Rate(first, done),
        Rate(second, done),
        Rate(wins("draw"), done),
        Spread.of(turns),
        Spread.of(sorted(r.decisions for r in finished)),
        tuple(sorted(Counter(turns).items())),
        _actions(finished, rules),
        tuple(f for r in records if (f := r.failure) is not None),
    )


def _actions(finished: Sequence[GameRecord], rules: RuleSet) -> tuple[ActionUse, ...]:
    games: Counter[str] = Counter()
    uses: Counter[str] = Counter()
    users: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    for record in finished:
        seen: set[str] = set()
        for action, player, n in record.uses:
            uses[action] += n
            seen.add(action)
            users[action] += 1
            winners[action] += record.result == player_name(player)
        games.update(seen)
    return tuple(
        ActionUse(a.id, a.name, games[a.id], uses[a.id], Rate(winners[a.id], users[a.id]))
        for a in rules.actions
        if a.direct
    )


def compare_json(a: Summary, b: Summary) -> dict[str, Any]:
    """Both runs, and b − a of every rate and of each action's usage and user win rate."""
    shared = {x.id: x for x in a.actions}
    return {
        "compare": [a.json(), b.json()],
        "differences": {
            "rates": {
                name: Difference.of(ra, rb).json()
                for (name, ra), (_, rb) in zip(a.rates(), b.rates(), strict=True)
            },
            "actions": {
                y.id: {
                    "share": Difference.of(Rate(x.games, a.completed), Rate(y.games, b.completed)).json(),
                    "user_wins": Difference.of(x.wins, y.wins).json(),
                }
                for y in b.actions
                if (x := shared.get(y.id)) is not None
            },
        },
    }


def _r(value: float) -> float:
    return round(value, 4)
