"""`blackpoker fit`: fit the search agent's value to one rule set and write the weights file
that `simulate --agents search:N@FILE` plays with (docs/simulate.md#fitting-the-value-to-a-rule-set)."""

from __future__ import annotations

from pathlib import Path

import click
from blackpoker.cli.options import edition_option, extra_option, format_option, rules_option
from blackpoker.cli.outputs import Output, check, named_files, write
from blackpoker.cli.progress import fit_shown, games_progress
from blackpoker.cli.rule_set import compiled, resolve_rules
from blackpoker.compiler.cache import cache_folder
from blackpoker.compiler.outputs import WritePlan
from blackpoker.compiler.paths import display
from blackpoker.runtime.play.features import NAMES, WEIGHTS
from blackpoker.runtime.play.fitting import FEWEST, HELD_OUT, Fitted
from blackpoker.runtime.play.weights_file import weights_text
from blackpoker.runtime.rules.model import RuleSet

DEFAULT_GAMES = 200  # about a minute on one core for the smallest formats


@click.command()
@edition_option()
@format_option("play_format")
@rules_option()
@extra_option()
@click.option(
    "-n",
    "games",
    default=DEFAULT_GAMES,
    show_default=True,
    type=click.IntRange(min=FEWEST),
    help=f"Games to play; every {HELD_OUT}th is held out to measure the fit.",
)
@click.option("--seed", default=1, show_default=True, help="Seeds the games (apart from simulate's).")
@click.option(
    "--out",
    type=Output("file"),
    required=True,
    help="The weights file to write (JSON).",
)
@click.option("--force", is_flag=True, help="Replace an existing --out file.")
def fit(
    edition: str | None,
    format_id: str | None,
    rules: Path | None,
    extra: str | None,
    games: int,
    seed: int,
    out: Path,
    force: bool,
) -> None:
    """Fit the search agent's value to a rule set on seeded games and write the weights to --out.

    Reports the held-out games' log-loss and accuracy beside the built-in weights'; play the
    file with `simulate --agents search:32@FILE`."""
    cache = cache_folder()
    source, _ = resolve_rules(edition, format_id, rules, extra, default="play_format", cache=cache)
    read: list[Path] = []
    ruleset = compiled(source, cache=cache, read=read)
    edition = source.edition
    plan = WritePlan([*read, *named_files([edition, rules, extra])])
    plan.file(out, "--out", replace=force)
    check(plan, "no game played")
    with games_progress() as progress:
        fitted = fit_shown(progress, "fit", ruleset, games, seed)
    for line in summary(ruleset, fitted, seed):  # shown first: a failed write loses no figure
        click.echo(line)
    write(plan, out, "--out", weights_text(ruleset, fitted, seed))
    click.echo(f"wrote {display(out)}: play it with --agents search:32@{display(out)},greedy")


def summary(rules: RuleSet, fitted: Fitted, seed: int) -> list[str]:
    """The fit's report: what was played, the held-out figures beside the built-in weights',
    and the weights beside the built-in ones."""
    lines = [
        f"{rules.edition.id} {rules.format.id}: {fitted.games} games (seed {seed}), "
        f"{fitted.fitted_on:,} positions fitted, {fitted.measured_on:,} held out",
        f"held-out log-loss {fitted.loss:.4f} (built-in weights: {fitted.default_loss:.4f}), "
        f"winner foreseen {fitted.accuracy:.1%} ({fitted.default_accuracy:.1%})",
        f"{'feature':12} {'fitted':>8} {'built-in':>8}",
    ]
    lines += [
        f"{name:12} {w:+8.4f} {b:+8.4f}" for name, w, b in zip(NAMES, fitted.weights, WEIGHTS, strict=True)
    ]
    return lines
