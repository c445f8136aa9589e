"""Entry point of the `blackpoker` console script."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from blackpoker.cli.options import EDITION_HELP
from blackpoker.cli.report import report
from blackpoker.compiler import CompileError
from blackpoker.compiler.emit_json import ruleset_json
from blackpoker.compiler.environment import Environment


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="blackpoker")
def main() -> None:
    """BlackPoker rules compiler: one YAML source per edition → sheets and a rules engine."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
def validate(paths: tuple[Path, ...]) -> None:
    """Check action lists and local-rule files (default: the built-in lists).

    Reports every problem as path:line:col: message and exits 1 if there is any.
    """
    env = Environment()
    try:
        targets = list(paths) or [env.builtin_path(e) for e in env.builtin_editions()]
    except CompileError as error:
        report(error.diagnostics)
    count, problems = env.check_paths(targets)
    if problems:
        report(problems)
    click.echo(f"{count} file{'s' if count != 1 else ''} checked: no problems", err=True)


@main.command(name="compile")
@click.option("--edition", default="v7", show_default=True, help=EDITION_HELP)
@click.option(
    "--format", "format_id", default="std", show_default=True, help="Format id (or a local-rule format)."
)
@click.option("--rules", type=click.Path(path_type=Path), help="A local-rule file.")
def compile_command(edition: str, format_id: str, rules: Path | None) -> None:
    """Print a compiled rule set as JSON on stdout."""
    try:
        ruleset = Environment().compile(edition, format_id, rules)
    except CompileError as error:
        report(error.diagnostics)
    text = json.dumps(ruleset_json(ruleset), ensure_ascii=False, indent=2)  # whole, or nothing printed
    sys.stdout.write(text + "\n")


from blackpoker.cli.build import build  # noqa: E402

main.add_command(build)
from blackpoker.cli.scenario import scenario  # noqa: E402

main.add_command(scenario)
from blackpoker.cli.simulate import simulate  # noqa: E402

main.add_command(simulate)
from blackpoker.cli.replay import replay  # noqa: E402

main.add_command(replay)
from blackpoker.cli.play import play  # noqa: E402

main.add_command(play)
from blackpoker.cli.import_list import import_command  # noqa: E402

main.add_command(import_command)
