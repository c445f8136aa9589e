"""`blackpoker compile`: a compiled rule set as JSON on stdout."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from blackpoker.cli.options import declared_format, edition_option, extra_option, rules_option
from blackpoker.cli.report import report
from blackpoker.compiler import CompileError
from blackpoker.compiler.emit_json import ruleset_json
from blackpoker.compiler.environment import Environment


@click.command(name="compile")
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
