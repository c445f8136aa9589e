"""Entry point of the `blackpoker` console script.

Nothing but click is imported here: `--version` and `--help` start as fast as Python does,
and a command pays only for its own modules when it runs (docs/benchmarks.md, start-up)."""

from __future__ import annotations

import difflib
import importlib

import click
from blackpoker.cli.invocation import Invocation
from blackpoker.runtime.engine import engine_build
from blackpoker.runtime.rules.diagnostics import BlackPokerError

# Each command: where it lives, imported only when it runs, and its line in --help (a test
# checks each line against the command's own help).
HELP_WIDTH = 120  # each help line is the command's short help at this width, cut to fit --help
LAZY_COMMANDS = {
    "build": (
        "blackpoker.cli.build:build",
        "Build the action-list site: index, one page per edition and format, A4 and 2-up PDFs.",
    ),
    "compile": ("blackpoker.cli.compile:compile_command", "Print a compiled rule set as JSON on stdout."),
    "diff": ("blackpoker.cli.diff:diff", "List what NEW adds, removes and changes against OLD."),
    "fit": (
        "blackpoker.cli.fit:fit",
        "Fit the search agent's value to a rule set on seeded games and write the weights to --out.",
    ),
    "import": (
        "blackpoker.cli.import_list:import_command",
        "Convert an official upstream action list (v6-act.yaml, v7-act.yaml, act.yaml) into an edition file, "
        "and list what a...",
    ),
    "list": (
        "blackpoker.cli.list_entries:list_command",
        "List the actions, characters and fogs of an edition (or of one format): id, name, type and formats, "
        "one line each.",
    ),
    "play": (
        "blackpoker.cli.play:play",
        "Play against an agent; type an option's number, a command, or q to quit.",
    ),
    "regulation": (
        "blackpoker.cli.regulation:regulation",
        "Regulations: formats, frames, options, and the decks played under them.",
    ),
    "replay": (
        "blackpoker.cli.replay:replay",
        "Replay command logs (files, or folders of *.jsonl) with the current rules.",
    ),
    "scenario": (
        "blackpoker.cli.scenario:scenario",
        "Ruling scenarios: hand-written positions with expected outcomes (docs/scenarios.md).",
    ),
    "serve": (
        "blackpoker.cli.serve:serve",
        "Play in the browser: against an agent or a person, replays, positions.",
    ),
    "simulate": (
        "blackpoker.cli.simulate:simulate",
        "Play N games (N matches with --match) between two agents and report the results; exit 1 if any game "
        "fails.",
    ),
    "validate": (
        "blackpoker.cli.validate:validate",
        "Check action lists, extra lists and local-rule files (default: the built-in lists).",
    ),
    "watch": (
        "blackpoker.cli.watch:watch",
        "Validate, build and compare a rule file on every save, shown on a live page; Ctrl-C stops it.",
    ),
}


class LazyGroup(click.Group):
    """A group whose LAZY_COMMANDS are imported on first use (click's documented pattern), listed
    by --help from their help lines without importing them."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in LAZY_COMMANDS:
            return super().get_command(ctx, cmd_name)
        module, name = LAZY_COMMANDS[cmd_name][0].split(":")
        command = getattr(importlib.import_module(module), name)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))  # as click fits a command's line
        rows = [(name, click.utils.make_default_short_help(LAZY_COMMANDS[name][1], limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> object:
        """Every command runs here with the invocation it shares (cli/invocation.py), and this is
        the one place bad input raised as an error is reported: each problem located, a count,
        what the command left undone, exit 1."""
        invocation = ctx.ensure_object(Invocation)
        try:
            return super().invoke(ctx)
        except BlackPokerError as error:
            from blackpoker.cli.report import report  # only on this path

            report(error.diagnostics, invocation.outcome)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command is bad input (exit 1) with the nearest one, not a usage error."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in self.list_commands(ctx):
            from blackpoker.cli.report import option_error  # only on this path

            near = difflib.get_close_matches(name, self.list_commands(ctx), n=1, cutoff=0.6)
            hint = (
                f"did you mean {near[0]}?" if near else f"the commands: {', '.join(self.list_commands(ctx))}"
            )
            option_error(name, f"no such command; {hint}")
        return super().resolve_command(ctx, args)


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("blackpoker")
    except PackageNotFoundError:
        number = "unknown"
    click.echo(f"{ctx.find_root().info_name} {number} (engine: {engine_build()})")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_version,
    help="Show the version and exit.",
)
def main() -> None:
    """BlackPoker rules compiler: one YAML source per edition → sheets and a rules engine."""
