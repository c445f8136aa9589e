"""The HTML report of `blackpoker simulate --html`: one self-contained file, charts as inline SVG.

The chart geometry is computed here, as plain shapes; the template (Jinja, autoescaped) only
draws them, so rule-set names from a local-rule file stay text. No script, no external file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from blackpoker.compiler.documents.diff import RuleSetDiff
from blackpoker.runtime.play.compare import Comparison
from blackpoker.runtime.play.stats import Rate, Summary
from blackpoker.site.render import environment
from blackpoker.site.report_tables import (
    JAPANESE,
    Section,
    action_rows,
    compared_sections,
    holm_note,
    rate_labels,
    sections,
)

WIDTH = 760  # every chart's width in SVG units (it scales to the page)
LABEL = 190  # the column of row labels
PLOT = WIDTH - LABEL - 60  # the rest: the bars, then their values
BAR = 12  # one bar's thickness
GAP = 8  # between rows
TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)
HISTOGRAM_HEIGHT = 200
MAX_BINS = 60


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    series: int  # which run: 0, or 1 when two are compared
    title: str  # shown on hover (an SVG <title>)


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    kind: str  # css class: whisker-0/1, grid, reference


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float
    text: str
    anchor: str  # start / middle / end


@dataclass(frozen=True, slots=True)
class Chart:
    title: str
    width: int
    height: int
    rects: tuple[Rect, ...]
    lines: tuple[Line, ...]
    texts: tuple[Text, ...]


def rate_chart(
    title: str, rows: Sequence[tuple[str, Sequence[Rate | None]]], reference: float | None
) -> Chart:
    """Horizontal bars from 0 to 100% with their 95% intervals as whiskers, one per run."""
    series = max((len(r) for _, r in rows), default=1)
    band = series * BAR + GAP
    top = 24
    height = top + len(rows) * band + 24
    rects: list[Rect] = []
    lines: list[Line] = []
    texts: list[Text] = []
    for tick in TICKS:
        x = LABEL + tick * PLOT
        lines.append(Line(x, top - 4, x, height - 20, "grid"))
        texts.append(Text(x, height - 6, f"{tick:.0%}", "middle"))
    if reference is not None:
        x = LABEL + reference * PLOT
        lines.append(Line(x, top - 4, x, height - 20, "reference"))
    for position, (label, rates) in enumerate(rows):
        y = top + position * band
        texts.append(Text(LABEL - 8, y + series * BAR / 2 + 4, label, "end"))
        for run, rate in enumerate(rates):
            if rate is None or rate.total == 0:
                continue
            low, high = rate.interval
            bar_y = y + run * BAR
            hover = (
                f"{label}: {rate.count} / {rate.total} = {rate.rate:.1%} (95%信頼区間 {low:.1%}–{high:.1%})"
            )
            rects.append(Rect(LABEL, bar_y + 1, rate.rate * PLOT, BAR - 2, run, hover))
            texts.append(Text(WIDTH - 4, bar_y + BAR - 2, f"{rate.rate:.1%}", "end"))
            middle = bar_y + BAR / 2
            lines.append(Line(LABEL + low * PLOT, middle, LABEL + high * PLOT, middle, f"whisker-{run}"))
            for end in (low, high):
                x = LABEL + end * PLOT
                lines.append(Line(x, middle - 3, x, middle + 3, f"whisker-{run}"))
    return Chart(title, WIDTH, height, tuple(rects), tuple(lines), tuple(texts))


def histogram(title: str, summaries: Sequence[Summary]) -> Chart:
    """Share of finished games by their length in turns, the runs' bars side by side."""
    counts = [dict(s.turn_counts) for s in summaries]
    seen = [t for c in counts for t in c]
    low, high = (min(seen), max(seen)) if seen else (0, 0)
    width = max(1, -(-(high - low + 1) // MAX_BINS))  # turns per bin, so at most MAX_BINS bins
    bins = range(low, high + 1, width)
    shares = [
        [sum(c.get(t, 0) for t in range(b, b + width)) / max(s.completed, 1) for b in bins]
        for c, s in zip(counts, summaries, strict=True)
    ]
    peak = max((x for run in shares for x in run), default=0) or 1
    left, top, plot_height = 50, 20, HISTOGRAM_HEIGHT - 50
    step = (WIDTH - left - 10) / max(len(bins), 1)
    rects: list[Rect] = []
    for run, values in enumerate(shares):
        for position, (start, share) in enumerate(zip(bins, values, strict=True)):
            height = share / peak * plot_height
            span = f"{start}" if width == 1 else f"{start}–{start + width - 1}"
            rects.append(
                Rect(
                    left + position * step + run * step / len(shares),
                    top + plot_height - height,
                    max(step / len(shares) - 1, 0.5),
                    height,
                    run,
                    f"{summaries[run].format}: {span}ターン, 試合の {share:.1%}",
                )
            )
    baseline = top + plot_height
    lines = [Line(left, baseline, WIDTH - 10, baseline, "grid"), Line(left, top, left, baseline, "grid")]
    texts = [Text(left - 6, top + 4, f"{peak:.0%}", "end"), Text(left - 6, baseline, "0", "end")]
    every = max(1, len(bins) // 10)
    for position, start in enumerate(bins):
        if position % every == 0:
            texts.append(Text(left + (position + 0.5) * step, baseline + 16, str(start), "middle"))
    texts.append(Text(WIDTH / 2, HISTOGRAM_HEIGHT - 4, "ターン数", "middle"))
    return Chart(title, WIDTH, HISTOGRAM_HEIGHT, tuple(rects), tuple(lines), tuple(texts))


def render_report(
    report: Summary | Comparison, changes: RuleSetDiff | None = None, extra: tuple[Section, ...] = ()
) -> str:
    """The report of one run, or of two runs compared (B against A) with the rule change between
    their rule sets at the top; `extra` tables follow (the match results of --match)."""
    summaries: tuple[Summary, ...]
    if isinstance(report, Comparison):
        summaries, tables, note = (
            (report.a, report.b),
            compared_sections(report, JAPANESE),
            holm_note(report, JAPANESE),
        )
    else:
        summaries, tables, note = (report,), sections(report, JAPANESE), None
    labels = rate_labels(summaries[0], JAPANESE)
    results = [
        (labels[name], [s.rates()[position][1] for s in summaries])
        for position, (name, _) in enumerate(summaries[0].rates())
    ]
    actions = action_rows(summaries)
    usage = [
        (name, [Rate(u.games, s.completed) if u else None for u, s in zip(uses, summaries, strict=True)])
        for name, uses in actions
    ]
    wins = [(name, [u.wins if u else None for u in uses]) for name, uses in actions]
    return (
        environment()
        .get_template("simulation.html")
        .render(
            summaries=summaries,
            changes=changes,
            note=note,
            sections=(*tables, *extra),
            charts=[
                rate_chart("勝率と引き分けの割合 (ひげ: 95%信頼区間)", results, 0.5),
                histogram("試合の長さ (ターン数ごとの試合の割合)", summaries),
                rate_chart("アクションが使われた試合の割合", usage, None),
                rate_chart("アクションを使ったプレイヤーの勝率", wins, 0.5),
            ],
        )
    )
