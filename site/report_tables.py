"""The simulation report's tables as text: the terminal (cli/simulate.py, in English) and the
HTML report (site/simulation.py, in Japanese) both print these, from the numbers of
runtime/play/stats.py and runtime/play/compare.py."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from blackpoker.runtime.play.compare import ALPHA, ActionComparison, Comparison, Tested, TrumpComparison
from blackpoker.runtime.play.stats import ActionUse, MatchSummary, Mean, Rate, Spread, Summary, TrumpUse


@dataclass(frozen=True, slots=True)
class Labels:
    """Every word of the report's tables, in one language."""

    p1: str  # {agent}: p1's agent
    p2: str
    first: str
    second: str
    draws: str
    results: str
    lengths: str
    turns: str
    decisions: str
    actions: str  # one run's action table
    action: str
    games: str
    uses_per_game: str
    user_wins: str
    share_title: str  # the compared action tables
    per_game_title: str
    user_wins_title: str
    mean: str  # {mean}, {sd}, {n}: a mean of uses per game
    difference: str
    p_holm: str
    holm: str  # {alpha}, {count}: the note on the significance marks
    changes: str  # the heading of the rule change compared
    matches: str  # {regulation}, {matches}, {finished}, {spread}: a run of whole matches
    match_results: tuple[str, str, str]  # p1 won, p2 won, drawn
    match_rate: str
    deck_games: str  # the 2-deck matches' table of each deck's games
    player: str
    deck: str
    deck_wins: str
    trumps: str  # one run's trump table (the extra format)
    trump: str
    placed: str
    opened: str
    owner_wins: str
    opened_title: str  # the compared trump tables
    trump_wins_title: str


ENGLISH = Labels(
    p1="p1 wins ({agent})",
    p2="p2 wins ({agent})",
    first="first player wins",
    second="second player wins",
    draws="draws",
    results="Results of the finished games (95% Wilson intervals)",
    lengths="Game length: median [quartiles] (min–max)",
    turns="turns",
    decisions="decisions",
    actions="Actions a player requested: games used in, uses per such game, the user's win rate",
    action="action",
    games="games",
    uses_per_game="uses/game",
    user_wins="user wins",
    share_title="Actions: share of the finished games in which a player requested it (95% Wilson intervals)",
    per_game_title="Actions: requests per game in which it was requested, mean (standard deviation, games)",
    user_wins_title="Actions: win rate of the players who requested it (95% Wilson intervals)",
    mean="{mean:.2f} (sd {sd:.2f}, {n} games)",
    difference="difference (95% CI)",
    p_holm="p (Holm)",
    holm=(
        "Differences are B − A, 95% intervals: Newcombe for rates, Welch for means. "
        "* = significant at {alpha:.0%} after Holm–Bonferroni over the {count} differences shown; "
        "p (Holm) is the adjusted p-value."
    ),
    changes="Rule change compared",
    matches=(
        "{regulation}: {matches} matches, {finished} finished; games per match {spread} "
        "(95% Wilson intervals)"
    ),
    match_results=("p1 won the match", "p2 won the match", "drawn match"),
    match_rate="matches",
    deck_games="Games won with each deck (95% Wilson intervals)",
    player="player",
    deck="deck",
    deck_wins="games won",
    trumps=(
        "Trumps: games in which a player placed it, games in which it lay face up, and its owner's "
        "win rate in those (95% Wilson intervals)"
    ),
    trump="trump",
    placed="placed",
    opened="face up",
    owner_wins="owner wins when face up",
    opened_title="Trumps: share of the finished games in which it lay face up (95% Wilson intervals)",
    trump_wins_title="Trumps: the owner's win rate in the games where it lay face up (95% Wilson intervals)",
)

JAPANESE = Labels(
    p1="p1 の勝率 ({agent})",
    p2="p2 の勝率 ({agent})",
    first="先攻の勝率",
    second="後攻の勝率",
    draws="引き分け",
    results="勝率 (終わった試合のうち, 95%信頼区間: Wilson)",
    lengths="試合の長さ: 中央値 [四分位] (最短–最長)",
    turns="ターン数",
    decisions="選択の回数",
    actions="アクション: 使われた試合数, その試合での使用回数, 使ったプレイヤーの勝率",
    action="アクション",
    games="試合数",
    uses_per_game="使用回数/試合",
    user_wins="使用者の勝率",
    share_title="使用率: アクションが使われた試合の割合 (95%信頼区間: Wilson)",
    per_game_title="使用回数: 使われた試合での1試合あたりの平均 (標準偏差, 試合数)",
    user_wins_title="使用者の勝率: アクションを使ったプレイヤーの勝率 (95%信頼区間: Wilson)",
    mean="{mean:.2f} (標準偏差 {sd:.2f}, {n}試合)",
    difference="差 (95%信頼区間)",
    p_holm="p値 (Holm補正)",
    holm=(
        "差は B − A、95%信頼区間は割合の差が Newcombe 法、平均の差が Welch 法です。"
        "* はこの報告の {count} 件の差に Holm–Bonferroni 法で多重比較の補正をして、"
        "有意水準 {alpha:.0%} で有意な差を示します。p値は補正後の値です。"
    ),
    changes="比較するルールの変更",
    matches=(
        "{regulation}: {matches} 対戦 (終わった対戦 {finished}), 1 対戦のゲーム数 {spread} "
        "(95%信頼区間: Wilson)"
    ),
    match_results=("p1 の対戦勝利", "p2 の対戦勝利", "引き分けの対戦"),
    match_rate="対戦",
    deck_games="デッキごとのゲームの勝率 (95%信頼区間: Wilson)",
    player="プレイヤー",
    deck="デッキ",
    deck_wins="勝ったゲーム",
    trumps="切札: 置かれた試合数, 表向きになった試合数, その試合での持ち主の勝率 (95%信頼区間: Wilson)",
    trump="切札",
    placed="置かれた試合",
    opened="表向きの試合",
    owner_wins="表向きのときの持ち主の勝率",
    opened_title="切札: 表向きになった試合の割合 (95%信頼区間: Wilson)",
    trump_wins_title="切札: 表向きになった試合での持ち主の勝率 (95%信頼区間: Wilson)",
)


@dataclass(frozen=True, slots=True)
class Section:
    """A table of the report, as text: the terminal and the HTML report both print these."""

    title: str
    columns: tuple[str, ...]  # the row label's heading first
    rows: tuple[tuple[str, ...], ...]


def rate_labels(summary: Summary, labels: Labels) -> dict[str, str]:
    return {
        "p1": labels.p1.format(agent=summary.agents[0]),
        "p2": labels.p2.format(agent=summary.agents[1]),
        "first": labels.first,
        "second": labels.second,
        "draw": labels.draws,
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


def sections(s: Summary, labels: Labels) -> tuple[Section, ...]:
    """The report's tables of one run."""
    names = rate_labels(s, labels)
    results = tuple((names[name], rate_cell(rate)) for name, rate in s.rates())
    actions = tuple(
        (
            use.name,
            f"{use.games} ({use.games / max(s.completed, 1):.0%})",
            f"{use.per_game.mean:.1f}",
            rate_cell(use.wins),
        )
        for use in s.actions
    )
    trumps = tuple(
        (
            f"{use.card} {use.name}",
            f"{use.placed} ({use.placed / max(s.completed, 1):.0%})",
            f"{use.opened} ({use.opened / max(s.completed, 1):.0%})",
            rate_cell(use.wins),
        )
        for use in s.trumps
    )
    columns = (labels.trump, labels.placed, labels.opened, labels.owner_wins)
    return (
        Section(labels.results, ("", s.format), results),
        _lengths((s,), labels),
        Section(
            labels.actions,
            (labels.action, labels.games, labels.uses_per_game, labels.user_wins),
            actions,
        ),
        *((Section(labels.trumps, columns, trumps),) if trumps else ()),
    )


def match_sections(matches: MatchSummary, labels: Labels) -> tuple[Section, ...]:
    """The tables of a run of whole matches: how the matches ended, and for 2-deck matches
    each deck's games."""
    title = labels.matches.format(
        regulation=matches.regulation,
        matches=matches.matches,
        finished=matches.finished,
        spread=spread_text(matches.games),
    )
    rates = (matches.p1, matches.p2, matches.draws)
    found = [
        Section(
            title,
            ("", labels.match_rate),
            tuple(zip(labels.match_results, map(rate_cell, rates), strict=True)),
        )
    ]
    if matches.decks:
        rows = tuple((use.player, use.deck, rate_cell(use.wins)) for use in matches.decks)
        found.append(Section(labels.deck_games, (labels.player, labels.deck, labels.deck_wins), rows))
    return tuple(found)


def compared_sections(comparison: Comparison, labels: Labels) -> tuple[Section, ...]:
    """The report's tables of two runs: each figure of both, then B − A and its test."""
    a, b = comparison.a, comparison.b
    heads = ("", a.format, b.format, labels.difference, labels.p_holm)
    names = rate_labels(a, labels)
    results = tuple(
        (names[name], rate_cell(ra), rate_cell(rb), *tested_cells(t, percent=True))
        for (name, ra), (_, rb), (_, t) in zip(a.rates(), b.rates(), comparison.rates, strict=True)
    )
    compared = {c.b.id: c for c in comparison.actions}
    # An action of one side only: its figures, and no difference.
    uses = [(name, x, y, compared.get(y.id if y else "")) for name, (x, y) in action_rows((a, b))]

    def table(
        title: str,
        cell: Callable[[ActionUse, Summary], str],
        test: Callable[[ActionComparison], Tested | None],
        percent: bool,
    ) -> Section:
        rows = tuple(
            (
                name,
                cell(x, a) if x else "—",
                cell(y, b) if y else "—",
                *tested_cells(test(c) if c else None, percent),
            )
            for name, x, y, c in uses
        )
        return Section(title, (labels.action, *heads[1:]), rows)

    return (
        Section(labels.results, heads, results),
        _lengths((a, b), labels),
        table(
            labels.share_title,
            lambda use, s: rate_cell(Rate(use.games, s.completed)),
            lambda c: c.share,
            percent=True,
        ),
        table(
            labels.per_game_title,
            lambda use, s: mean_cell(use.per_game, labels),
            lambda c: c.uses_per_game,
            percent=False,
        ),
        table(
            labels.user_wins_title,
            lambda use, s: rate_cell(use.wins),
            lambda c: c.user_wins,
            percent=True,
        ),
        *_compared_trumps(comparison, labels, heads),
    )


def _compared_trumps(comparison: Comparison, labels: Labels, heads: tuple[str, ...]) -> tuple[Section, ...]:
    """The trumps of the two extra lists: the share of games in which each lay face up, its
    owners' win rate there, each with B − A and its test when both lists have it (— for the
    side without it)."""
    a, b = comparison.a, comparison.b

    def table(
        title: str,
        cell: Callable[[TrumpUse, Summary], str],
        test: Callable[[TrumpComparison], Tested | None],
    ) -> Section:
        rows = tuple(
            (
                f"{t.use.card} {t.use.name}",
                "—" if t.a is None else cell(t.a, a),
                "—" if t.b is None else cell(t.b, b),
                *tested_cells(test(t), percent=True),
            )
            for t in comparison.trumps
        )
        return Section(title, (labels.trump, *heads[1:]), rows)

    if not comparison.trumps:
        return ()
    return (
        table(
            labels.opened_title, lambda use, s: rate_cell(Rate(use.opened, s.completed)), lambda t: t.opened
        ),
        table(labels.trump_wins_title, lambda use, s: rate_cell(use.wins), lambda t: t.owner_wins),
    )


def _lengths(summaries: Sequence[Summary], labels: Labels) -> Section:
    rows = tuple(
        (label, *(spread_text(getattr(s, field)) for s in summaries))
        for label, field in ((labels.turns, "turns"), (labels.decisions, "lengths"))
    )
    return Section(labels.lengths, ("", *(s.format for s in summaries)), rows)


def holm_note(comparison: Comparison, labels: Labels) -> str:
    return labels.holm.format(alpha=ALPHA, count=comparison.count)


def rate_cell(rate: Rate) -> str:
    return rate_text(rate) if rate.total else "—"


def rate_text(rate: Rate) -> str:
    low, high = rate.interval
    return f"{rate.rate:.1%} [{low:.1%}, {high:.1%}] {rate.count}/{rate.total}"


def mean_cell(mean: Mean, labels: Labels) -> str:
    if not mean.n:
        return "—"
    return labels.mean.format(mean=mean.mean, sd=math.sqrt(mean.variance), n=mean.n)


def tested_cells(t: Tested | None, percent: bool) -> tuple[str, str]:
    """The difference with its interval, `*` when significant after Holm; and the adjusted p."""
    if t is None:
        return "", ""
    d = t.difference
    number = "{:+.1%}" if percent else "{:+.2f}"
    interval = f"{number.format(d.value)} [{number.format(d.low)}, {number.format(d.high)}]"
    return interval + (" *" if t.significant else ""), p_text(t.p_holm)


def p_text(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def spread_text(s: Spread) -> str:
    return f"{s.median:g} [{s.q1:g}, {s.q3:g}] ({s.low}–{s.high})"
