"""`blackpoker simulate`: self-play between named agents, with the invariants checked at each
game's end (after every decision with --check), and a report for rule designers (docs/simulate.md)."""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click
from blackpoker.cli.invocation import environment
from blackpoker.cli.options import (
    edition_option,
    extra_option,
    format_option,
    jobs_option,
    regulation_options,
    rules_option,
    seed_option,
)
from blackpoker.cli.outputs import Output, check, make, named_files, write
from blackpoker.cli.progress import fit_shown, games_progress
from blackpoker.cli.report import option_error
from blackpoker.cli.rule_set import compiled as compiled_rules
from blackpoker.cli.rule_set import resolve_rules
from blackpoker.cli.seats import FIT_GAMES, fit_json, fit_lines, fitted_names, runs_programs, searches, seats
from blackpoker.compiler.cache import cache_folder
from blackpoker.compiler.outputs import WritePlan
from blackpoker.runtime.play import cluster
from blackpoker.runtime.play.compare import Comparison
from blackpoker.runtime.play.fitting import FEWEST, Fitted
from blackpoker.runtime.play.loop import DECISION_CAP
from blackpoker.runtime.play.outside import DEFAULT_TIMEOUT
from blackpoker.runtime.play.roster import RUN_CHOICES, run_agent_name
from blackpoker.runtime.play.selfplay import Checks, GameRecord
from blackpoker.runtime.play.simulation import Plan, order, run
from blackpoker.runtime.play.stats import MatchSummary, Summary, summarize
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.site.report_tables import (
    ENGLISH,
    JAPANESE,
    Section,
    compared_sections,
    holm_note,
    match_sections,
    sections,
)
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

if TYPE_CHECKING:
    from blackpoker.compiler.documents.diff import RuleSetDiff
    from blackpoker.runtime.play.regulation import Setup
    from distributed import Client

# What only some runs use is imported where they use it: the compiler on a rule-set cache miss,
# --compare's sides and diff, the extra format's name, the HTML report's Jinja. A warm
# `simulate -n 1` loads no stage of the pipeline and none of the parser packages
# (docs/benchmarks.md, start-up; tests/test_simulate_startup.py).

RANDOM_PLAY = ("random", "random")  # --skill's side A
PIPED_WIDTH = 200  # the report's width in a file or pipe: the compared tables need it


def _agents(text: str) -> tuple[str, str]:
    """The two agents' names as reports show them (`search` with its budget)."""
    names = text.split(",")
    if len(names) != 2:
        option_error("--agents", f"expected two of {RUN_CHOICES} separated by a comma, got '{text}'")
    try:
        return run_agent_name(names[0]), run_agent_name(names[1])
    except ValueError as error:
        option_error("--agents", str(error))


@contextmanager
def _connected(address: str | None) -> Iterator[Client | None]:
    """The --cluster client (None without the option), closed when the run ends."""
    if address is None:
        yield None
        return
    with cluster.connect(address) as client:
        yield client


def _play(
    plan: Plan, rules: RuleSet, jobs: int, client: Client | None, progress: Progress
) -> tuple[list[GameRecord], float]:
    """The run's records in game order, and the seconds it took."""
    task = progress.add_task(f"{rules.format.id}", total=plan.games)
    start = time.perf_counter()
    records: list[GameRecord] = []
    for part in run(plan, jobs, rules) if client is None else cluster.run(client, plan, rules):
        records += part
        progress.advance(task, len({order(r)[0] for r in part}))
    records.sort(key=order)
    return records, time.perf_counter() - start


def _fitted(rules: RuleSet, games: int, seed: int, progress: Progress) -> tuple[RuleSet, Fitted]:
    """--fit's weights for one side's rules, fitted as `blackpoker fit` fits them."""
    return rules, fit_shown(progress, f"fit {rules.format.id}", rules, games, seed)


def run_summary(records: list[GameRecord], rules: RuleSet, plan: Plan, seconds: float) -> Summary:
    """The run's summary; under a regulation it is named by the regulation (whose first part is
    the format), so that compared regulations of one format stay apart."""
    summary = summarize(records, rules, plan.agents, plan.seed, seconds)
    setup = plan.setup
    if plan.source.extra is not None:  # two extra lists compared stay apart
        return dataclasses.replace(summary, format=f"{summary.format} {plan.source.extra}")
    return summary if setup is None else dataclasses.replace(summary, format=setup.id, title=setup.label)


def named_apart(a: Summary, b: Summary) -> tuple[Summary, Summary]:
    """Two runs of one format in two editions, named as --compare names them (v8.2:std)."""
    if a.format != b.format or a.edition == b.edition:
        return a, b
    named = [dataclasses.replace(s, format=f"{s.edition}:{s.format}") for s in (a, b)]
    return named[0], named[1]


@click.command()
@edition_option()
@format_option("play_format")
@rules_option()
@extra_option()
@click.option("-n", "games", default=1000, show_default=True, type=click.IntRange(min=1), help="Games.")
@seed_option("Game i plays with a seed derived from (seed, i).", 1)
@click.option(
    "--agents",
    "agent_names",
    default="random,random",
    show_default=True,
    help=f"p1's and p2's agents: two of {RUN_CHOICES} (N: iterations per decision; WEIGHTS.json: "
    "written by `blackpoker fit`; PROGRAM: an outside program, docs/agents.md).",
)
@click.option(
    "--agent-timeout",
    default=DEFAULT_TIMEOUT,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds a cmd:PROGRAM agent may take over one decision; a slower one forfeits the game.",
)
@click.option(
    "--fit",
    "fit_first",
    is_flag=True,
    help="Fit the search agent's value to each side's rules before playing (as `blackpoker fit`).",
)
@click.option(
    "--fit-games",
    default=FIT_GAMES,
    show_default=True,
    type=click.IntRange(min=FEWEST),
    help="With --fit: games played for each side's fit.",
)
@jobs_option()
@click.option(
    "--cluster",
    "cluster_address",
    metavar="ADDRESS",
    help="Play on a Dask cluster: its scheduler's address, tcp://host:port (the 'cluster' extra).",
)
@click.option(
    "--cap", default=DECISION_CAP, show_default=True, help="Decisions per game; reaching it is a failure."
)
@click.option(
    "--check",
    "check_every",
    is_flag=True,
    help="Check the invariants after every decision (by default once, at each game's end).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--html",
    "html_out",
    type=Output("file"),
    help="Write a self-contained HTML report with charts to this file (replaced if it exists).",
)
@click.option(
    "--compare",
    nargs=2,
    metavar="A B",
    help="Run both rule sets (a format id or a local-rule file each) with the same seeds, side by side.",
)
@click.option(
    "--skill",
    is_flag=True,
    help="Also play the same games between two random agents: random play (A) beside --agents (B), "
    "each action's use and its users' wins in both.",
)
@click.option(
    "--logs",
    type=Output("folder"),
    help="Write each game's command log into this folder, new or empty (game-0000.jsonl …).",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Compile the rule sets anew, without the on-disk cache of compiled rule sets (docs/engine.md).",
)
@regulation_options
@click.option(
    "--match", "whole_matches", is_flag=True, help="With --regulation: each of the N is a whole match."
)
def simulate(
    edition: str | None,
    format_id: str | None,
    rules: Path | None,
    extra: str | None,
    games: int,
    seed: int,
    agent_names: str,
    agent_timeout: float,
    fit_first: bool,
    fit_games: int,
    jobs: int,
    cluster_address: str | None,
    cap: int,
    check_every: bool,
    as_json: bool,
    html_out: Path | None,
    compare: tuple[str, str] | None,
    skill: bool,
    logs: Path | None,
    no_cache: bool,
    regulation_text: str | None,
    deck_files: tuple[str, ...],
    whole_matches: bool,
) -> None:
    """Play N games (N matches with --match) between two agents and report the results; exit 1
    if any game fails."""
    if cap < 1:
        option_error("--cap", "must be at least 1")
    agents = _agents(agent_names)
    if fit_first:
        agents = fitted_names(agents)
    if cluster_address is not None and runs_programs(agents):
        option_error("--cluster", "not with a cmd: agent: its program would run on the workers' machines")
    if cluster_address is not None and jobs > 1:
        option_error("--jobs", "not with --cluster: the cluster's workers play the games")
    if cluster_address is not None and logs is not None:
        option_error("--logs", "not with --cluster: the workers would write them on their own machines")
    if extra is not None and compare:
        option_error("--extra", "not with --compare: a side names an extra list (its id or file)")
    if regulation_text is not None and (compare or rules is not None):
        option_error("--regulation", "it names the rule set: leave out --rules and --compare")
    if deck_files and regulation_text is None:
        option_error("--deck", "needs --regulation (with --compare, a side names its decks)")
    cache = None if no_cache else cache_folder()
    setups: list[Setup | None] = [None]
    if compare:
        if format_id is not None or rules is not None:
            option_error("--compare", "it names both rule sets: leave out --format and --rules")
        if logs is not None:
            option_error("--logs", "not with --compare (the two runs' games share their numbers)")
        from blackpoker.cli.sides import compare_sides

        sides = compare_sides(environment(), compare, edition)
        sources, setups = [source for source, _ in sides], [setup for _, setup in sides]
    else:
        source, setup = resolve_rules(
            edition, format_id, rules, extra, regulation_text, deck_files, default="play_format", cache=cache
        )
        sources, setups = [source], [setup]
    if skill:
        if compare:
            option_error("--skill", "not with --compare: it compares agents on one rule set")
        if logs is not None:
            option_error("--logs", "not with --skill (the two runs' games share their numbers)")
        sources, setups = sources * 2, setups * 2
    if fit_first and any(setups):
        option_error("--fit", "not with a regulation: it fits the value on games of the format alone")
    if whole_matches and not any(setups):
        option_error("--match", "needs --regulation, or a --compare side that names a regulation")
    read: list[Path] = []  # the files the rule sets were compiled from
    played = {source: compiled_rules(source, cache=cache, read=read) for source in sources}  # --skill: one
    compiled = [
        played[source] if setup is None else setup.additions.widen(played[source])
        for source, setup in zip(sources, setups, strict=True)
    ]
    pairings = [RANDOM_PLAY, agents] if skill else [agents] * len(sources)
    # the weights files, read against each side's rules (with --fit, the fits give the weights)
    seated = [
        None if fit_first else seats(p, r, agent_timeout) for p, r in zip(pairings, compiled, strict=True)
    ]
    # Every output is checked before the games: a bad path found after them loses the run. The
    # inputs it may not replace are looked up only when there is an output.
    inputs = read
    if logs is not None or html_out is not None:
        words = [word for text in compare or () for word in text.split()]  # a regulation side names decks
        named = [*(s.edition for s in sources), *(s.rules for s in sources), *(s.extra for s in sources)]
        inputs = [*read, *named_files([*named, *words, *deck_files])]
    plan = WritePlan(inputs)
    if logs is not None:
        plan.folder(logs, "--logs", empty=True)
    if html_out is not None:
        plan.file(html_out, "--html", replace=True)
    check(plan, "no game played")
    if logs is not None:
        make(plan, logs, "--logs")
    with _connected(cluster_address) as client, games_progress() as progress:
        checks = Checks.EVERY if check_every else Checks.END
        fits = [
            _fitted(rules, fit_games, seed, progress) if fit_first and searches(pairing) else None
            for pairing, rules in zip(pairings, compiled, strict=True)
        ]
        seated = [
            chairs if fit is None else seats(pairing, rules, agent_timeout, fit[1])
            for pairing, rules, fit, chairs in zip(pairings, compiled, fits, seated, strict=True)
        ]
        plans = [
            Plan(source, pairing, seed, games, checks, cap, logs, setup, whole_matches, seats=chairs)
            for source, setup, pairing, chairs in zip(sources, setups, pairings, seated, strict=True)
        ]
        if logs is not None:  # the files the logs name, looked up in the command's environment
            plans = [plan.looked_up(environment()) for plan in plans]
        records = [
            _play(plan, rules, jobs, client, progress) for plan, rules in zip(plans, compiled, strict=True)
        ]
        summaries = [
            run_summary(r, rules, plan, seconds)
            for (r, seconds), rules, plan in zip(records, compiled, plans, strict=True)
        ]
    result = Comparison.of(*named_apart(*summaries)) if len(summaries) == 2 else summaries[0]
    changes = None
    if len(compiled) == 2 and not skill:
        from blackpoker.compiler.documents.diff import diff_rulesets

        changes = diff_rulesets(*compiled)
    matches = [
        MatchSummary.of(played, setup.label, setup.names, setup.wins)
        for (played, _), setup in zip(records, setups, strict=True)
        if setup is not None and whole_matches
    ]
    # a game an agent forfeited (a cmd: program that failed) counts as won by the other player
    forfeits = [f"seed {r.seed}: {r.forfeit}" for part, _ in records for r in part if r.forfeit is not None]
    if as_json:
        data = result.json()
        if forfeits:
            data["forfeits"] = forfeits
        if fit_first:
            data["fit"] = fit_json(fits)
        if matches:
            data["matches"] = matches[0].json() if len(sources) == 1 else [m.json() for m in matches]
        click.echo(json.dumps(data, ensure_ascii=False))
    else:
        out = Console(highlight=False, markup=False, emoji=False)  # names from a rules file stay text
        if not out.is_terminal:
            out.width = PIPED_WIDTH
        for line in fit_lines(["A: ", "B: "] if len(fits) == 2 else [""], fits):
            out.print(line, style="bold")
        show(out, result, changes)
        show_sections(out, [t for m in matches for t in match_sections(m, ENGLISH)])
    if html_out is not None:  # after the report is shown, so a failed write loses nothing
        from blackpoker.site.simulation import render_report  # Jinja: for the HTML report only

        appended = tuple(t for m in matches for t in match_sections(m, JAPANESE))
        write(plan, html_out, "--html", render_report(result, changes, appended))
    for forfeit in forfeits:
        click.echo(f"FORFEIT {forfeit}", err=True)
    failures = [f for s in summaries for f in s.failures]
    for failure in failures:
        click.echo(f"FAILED {failure}", err=True)
    if failures:
        sys.exit(1)


def show(console: Console, result: Summary | Comparison, changes: RuleSetDiff | None = None) -> None:
    """The terminal report: one run; or two, A and B, with the rule change between them first,
    each figure of both, and B − A with its interval and Holm-corrected test."""
    runs: tuple[tuple[str, Summary], ...]
    if isinstance(result, Comparison):
        if changes is not None:
            from blackpoker.cli.diff import text_lines

            console.print(f"{ENGLISH.changes} (A → B)", style="bold")
            for line in text_lines(changes):
                console.print(line)
        runs = (("A: ", result.a), ("B: ", result.b))
        tables, note = compared_sections(result, ENGLISH), holm_note(result, ENGLISH)
    else:
        runs, tables, note = (("", result),), sections(result, ENGLISH), None
    for side, s in runs:
        console.print(
            f"{side}{s.edition} {s.format} ({s.title}): {s.games} games, seed {s.seed}, "
            f"p1 {s.agents[0]} vs p2 {s.agents[1]}; {s.completed} finished, {s.decisions:,} decisions "
            f"in {s.seconds:.1f} s ({s.decisions / max(s.seconds, 1e-9):,.0f} decisions/s)",
            style="bold",
        )
    show_sections(console, tables)
    if note is not None:
        console.print(note)


def show_sections(console: Console, tables: Sequence[Section]) -> None:
    for section in tables:
        console.print(section.title, style="bold")
        table = Table()
        for position, column in enumerate(section.columns):
            table.add_column(column, justify="right" if position else "left", no_wrap=not position)
        for row in section.rows:
            table.add_row(*row)
        console.print(table)
