"""The simulation report's tables as text: the terminal (cli/simulate.py) and the HTML report
(site/simulation.py) both print these, from the numbers of runtime/play/stats.py."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from blackpoker.runtime.play.stats import ActionUse, Difference, Rate, Spread, Summary


@dataclass(frozen=True, slots=True)
class Section:
    """A table of the report, as text: the terminal and the HTML report both print these."""

    title: str
    columns: tuple[str, ...]  # the row label's heading first
    rows: tuple[tuple[str, ...], ...]


def rate_labels(summary: Summary) -> dict[str, str]:
    return {
        "p1": f"p1 wins ({summary.agents[0]})",
        "p2": f"p2 wins ({summary.agents[1]})",
        "first": "first player wins",
        "second": "second player wins",
        "draw": "draws",
    }


def action_rows(summaries: Sequence[Summary]) -> list[tuple[str, list[ActionUse | None]]]:
    """Every direct action of the runs (the first run's order, then the second's additions),
    with its use in each run (None where the run's rule set has no such action)."""
    names: dict[str, str] = {}
    for s in summaries:
        for a in s.actions:
            names.setdefault(a.id, a.name)
    uses = [{a.id: a for a in s.actions} for s in summaries]
    return [(name, [u.get(i) for u in uses]) for i, name in names.items()]


def sections(summaries: Sequence[Summary]) -> tuple[Section, ...]:
    """The report's tables for one run, or for two side by side with b − a."""
    pair = len(summaries) == 2
    heads = tuple(s.format for s in summaries)
    difference = ("difference (95% CI)",) if pair else ()

    def rates(values: Sequence[Rate | None]) -> tuple[str, ...]:
        shown = tuple(rate_text(r) if r is not None and r.total else "—" for r in values)
        if not pair:
            return shown
        a, b = values
        if a is None or b is None or not a.total or not b.total:
            return (*shown, "")
        return (*shown, difference_text(Difference.of(a, b)))

    labels = rate_labels(summaries[0])
    results = tuple(
        (labels[name], *rates([s.rates()[position][1] for s in summaries]))
        for position, (name, _) in enumerate(summaries[0].rates())
    )
    lengths = tuple(
        (label, *(spread_text(getattr(s, field)) for s in summaries))
        for label, field in (("turns", "turns"), ("decisions", "lengths"))
    )
    actions = []
    for name, uses in action_rows(summaries):
        cells: list[str] = []
        for s, use in zip(summaries, uses, strict=True):
            cells += (
                ["—", "—"]
                if use is None
                else [
                    f"{use.games} ({use.games / max(s.completed, 1):.0%})",
                    f"{use.uses / max(use.games, 1):.1f}",
                ]
            )
        actions.append((name, *cells, *rates([u.wins if u is not None else None for u in uses])))
    action_heads = tuple(f"{h}: {c}" if pair else c for h in heads for c in ("games", "uses/game"))
    return (
        Section("Results of the finished games (95% Wilson intervals)", ("", *heads, *difference), results),
        Section("Game length: median [quartiles] (min–max)", ("", *heads), lengths),
        Section(
            "Actions a player requested: games used in, uses per such game, the user's win rate",
            (
                "action",
                *action_heads,
                *(f"{h}: user wins" if pair else "user wins" for h in heads),
                *difference,
            ),
            tuple(actions),
        ),
    )


def rate_text(rate: Rate) -> str:
    low, high = rate.interval
    return f"{rate.rate:.1%} [{low:.1%}, {high:.1%}] {rate.count}/{rate.total}"


def difference_text(d: Difference) -> str:
    return f"{d.value:+.1%} [{d.low:+.1%}, {d.high:+.1%}]" + (" *" if d.clear else "")


def spread_text(s: Spread) -> str:
    return f"{s.median:g} [{s.q1:g}, {s.q3:g}] ({s.low}–{s.high})"
