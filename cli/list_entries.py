"""`blackpoker list`: the ids, names, types and formats of an edition's entries, so that a
local-rule author can find the id of サーチ (search) to write in an overlay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from blackpoker.cli.invocation import environment
from blackpoker.cli.options import edition_option, rules_option
from blackpoker.cli.rule_set import compiled, edition_of, resolve_rules
from blackpoker.compiler import RuleSet
from blackpoker.compiler.documents.diff import whole_edition
from blackpoker.runtime.rules.diagnostics import display_width

KINDS = {"actions": "アクション", "characters": "キャラクター", "fogs": "フォグ"}
HEADINGS = ("種類", "id", "名前", "タイプ", "フォーマット")


@click.command(name="list")
@edition_option()
@click.option("--format", "format_id", help="Only the entries of this format. Default: every entry.")
@rules_option("A local-rule file: list the entries of its format.")
def list_command(edition: str | None, format_id: str | None, rules: Path | None) -> None:
    """List the actions, characters and fogs of an edition (or of one format): id, name, type
    and formats, one line each."""
    if format_id is None and rules is None:
        ruleset = whole_edition(environment().edition(edition_of(edition)))
    else:
        ruleset = compiled(resolve_rules(edition, format_id, rules)[0])
    click.echo(
        ruleset.edition.title + ("" if format_id is None and rules is None else f" {ruleset.format.name}")
    )
    for line in lines(ruleset):
        click.echo(line)


def lines(ruleset: RuleSet) -> list[str]:
    """A heading and one line per entry, columns padded by display width (a kanji takes two)."""
    groups: tuple[tuple[str, tuple[Any, ...]], ...] = (
        ("actions", ruleset.actions),
        ("characters", ruleset.characters),
        ("fogs", ruleset.fogs),
    )
    rows = [HEADINGS] + [
        (KINDS[kind], entry.id, entry.name, entry.type, " ".join(entry.formats))
        for kind, entries in groups
        for entry in entries
    ]
    widths = [max(display_width(row[i]) for row in rows) for i in range(len(HEADINGS))]
    return [
        "  ".join(_pad(cell, width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows
    ]


def _pad(cell: str, width: int) -> str:
    return cell + " " * (width - display_width(cell))
