"""`blackpoker compile`: a compiled rule set as JSON on stdout."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from blackpoker.cli.options import edition_option, extra_option, format_option, rules_option
from blackpoker.cli.rule_set import compiled, resolve_rules
from blackpoker.compiler.emit_json import ruleset_json


@click.command(name="compile")
@edition_option()
@format_option("format")
@rules_option()
@extra_option()
def compile_command(
    edition: str | None, format_id: str | None, rules: Path | None, extra: str | None
) -> None:
    """Print a compiled rule set as JSON on stdout."""
    ruleset = compiled(resolve_rules(edition, format_id, rules, extra)[0])
    text = json.dumps(ruleset_json(ruleset), ensure_ascii=False, indent=2)  # whole, or nothing printed
    sys.stdout.write(text + "\n")
