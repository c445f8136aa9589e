"""Entry point of the `blackpoker` console script."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import click
from blackpoker.cli.options import declared_format, edition_option, extra_option, rules_option
from blackpoker.cli.report import report, warn
from blackpoker.compiler import CompileError
from blackpoker.compiler.emit_json import ruleset_json
from blackpoker.compiler.environment import Environment, find_files
from blackpoker.runtime.engine import engine_build

# The other commands, imported only when run (or listed by --help): a command's start-up
# then pays only for its own modules, not for the sheets', the engine's and the server's.
LAZY_COMMANDS = {
    "build": "blackpoker.cli.build:build",
    "diff": "blackpoker.cli.diff:diff",
    "import": "blackpoker.cli.import_list:import_command",
    "list": "blackpoker.cli.list_entries:list_command",
    "play": "blackpoker.cli.play:play",
    "regulation": "blackpoker.cli.regulation:regulation",
    "replay": "blackpoker.cli.replay:replay",
    "scenario": "blackpoker.cli.scenario:scenario",
    "serve": "blackpoker.cli.serve:serve",
    "simulate": "blackpoker.cli.simulate:simulate",
}


class LazyGroup(click.Group):
    """A group whose LAZY_COMMANDS are imported on first use (click's documented pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in LAZY_COMMANDS:
            return super().get_command(ctx, cmd_name)
        module, name = LAZY_COMMANDS[cmd_name].split(":")
        command = getattr(importlib.import_module(module), name)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="blackpoker", message=f"%(prog)s %(version)s (engine: {engine_build()})")
def main() -> None:
    """BlackPoker rules compiler: one YAML source per edition → sheets and a rules engine."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
def validate(paths: tuple[Path, ...]) -> None:
    """Check action lists, extra lists and local-rule files (default: the built-in lists).

    Reports every problem as path:line:col: message and exits 1 if there is any; a note
    (warning: …) is printed and does not fail.
    """
    env = Environment()
    try:
        targets = list(paths) or [
            path for e in env.builtin_editions() for path in (env.builtin_path(e), *env.builtin_extras(e))
        ]
    except CompileError as error:
        report(error.diagnostics)
    count, found = env.check_paths(targets)
    warn(d for d in found if d.warning)
    problems = [d for d in found if not d.warning]
    if not problems and paths:  # what the checks cannot see of a local extra list, played
        from blackpoker.runtime.play.trial import trial_problems

        problems = [d for path in find_files(paths, (".yaml", ".yml"))[0] for d in trial_problems(env, path)]
    if problems:
        report(problems)
    click.echo(f"{count} file{'s' if count != 1 else ''} checked: no problems", err=True)


@main.command(name="compile")
@edition_option()
@click.option(
    "--format",
    "format_id",
    help="Format id. Default: the registry's, or the --rules file's format.",
)
@rules_option()
@extra_option()
def compile_command(edition: str, format_id: str | None, rules: Path | None, extra: str | None) -> None:
    """Print a compiled rule set as JSON on stdout."""
    if format_id is None:
        format_id = Environment().default("format") if rules is None else declared_format(rules, "--rules")
    try:
        ruleset = Environment().compile(edition, format_id, rules, extra)
    except CompileError as error:
        report(error.diagnostics)
    text = json.dumps(ruleset_json(ruleset), ensure_ascii=False, indent=2)  # whole, or nothing printed
    sys.stdout.write(text + "\n")
