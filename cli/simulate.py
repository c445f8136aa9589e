"""`blackpoker simulate`: random self-play with the invariants checked at every decision."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click
from blackpoker.cli.report import report
from blackpoker.compiler import CompileError, compile_ruleset
from blackpoker.compiler.diagnostics import Diagnostic, Location
from blackpoker.compiler.pipeline import display
from blackpoker.runtime.selfplay import DECISION_CAP
from blackpoker.runtime.selfplay import simulate as run_games


@click.command()
@click.option("--edition", default="v7", show_default=True)
@click.option("--format", "format_id", default="lite", show_default=True)
@click.option("-n", "games", default=1000, show_default=True, help="Number of games.")
@click.option("--seed", default=1, show_default=True)
@click.option(
    "--cap", default=DECISION_CAP, show_default=True, help="Decisions per game; reaching it is a failure."
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option(
    "--logs",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write each game's command log into this folder (game-0000.jsonl …).",
)
def simulate(
    edition: str, format_id: str, games: int, seed: int, cap: int, as_json: bool, logs: Path | None
) -> None:
    """Play N games between two random agents; exit 1 if any game fails."""
    try:
        rules = compile_ruleset(edition, format_id)
    except CompileError as error:
        report(error.diagnostics)
    if logs is not None:
        try:
            logs.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            report(
                [
                    Diagnostic(
                        Location(display(logs), 0, 0), f"--logs: cannot create the folder: {error.strerror}"
                    )
                ]
            )
    start = time.perf_counter()
    tally = run_games(rules, games, seed, cap=cap, logs=logs)
    seconds = time.perf_counter() - start
    figures = {
        "games": tally.games,
        "completed": tally.completed,
        "decisions": tally.decisions,
        "wins": {"p1": tally.results["p1"], "p2": tally.results["p2"]},
        "draws": tally.results["draw"],
        "failures": tally.failures,
        "seconds": round(seconds, 3),
    }
    if as_json:
        click.echo(json.dumps(figures, ensure_ascii=False))
    else:
        click.echo(
            f"games {tally.games}, completed {tally.completed}, decisions {tally.decisions}, "
            f"wins p1 {tally.results['p1']} / p2 {tally.results['p2']}, draws {tally.results['draw']}, "
            f"{seconds:.1f} s ({tally.decisions / max(seconds, 1e-9):,.0f} decisions/s)"
        )
        for failure in tally.failures:
            click.echo(f"FAILED {failure}", err=True)
    if tally.failures:
        sys.exit(1)
