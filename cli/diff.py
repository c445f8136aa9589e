"""`blackpoker diff OLD NEW`: what changed between two editions or local rules, field by field."""

from __future__ import annotations

from difflib import SequenceMatcher
from pathlib import Path

import click
from blackpoker.cli.outputs import output_file
from blackpoker.cli.report import report
from blackpoker.compiler import CompileError
from blackpoker.compiler.documents.diff import FieldChange, ListDiff, RuleSetDiff, diff_rulesets, side_name
from blackpoker.compiler.environment import Environment, display
from blackpoker.compiler.pipeline import load_sides
from blackpoker.runtime.rules.diagnostics import Diagnostic, Location

NONE = "(none)"  # how an unset value is shown


@click.command()
@click.argument("old")
@click.argument("new")
@click.option(
    "--format",
    "format_id",
    help="Compare this format of both sides. Default: every entry of an edition, a local rule's own format.",
)
@click.option(
    "--html",
    "html_out",
    type=click.Path(path_type=Path),
    help="Also write the changes as an HTML page to this file (replaced if it exists).",
)
def diff(old: str, new: str, format_id: str | None, html_out: Path | None) -> None:
    """List what NEW adds, removes and changes against OLD.

    OLD and NEW are built-in edition ids (v7), edition files or local-rule files.
    """
    places = output_file(html_out, "--html", force=True) if html_out is not None else []
    if places:
        report(places, "nothing compared")
    try:
        result = diff_rulesets(*load_sides(Environment(), old, new, format_id))
    except CompileError as error:
        report(error.diagnostics)
    click.echo("\n".join(text_lines(result)))
    if html_out is not None:
        from blackpoker.site.render import render_diff  # Jinja is needed only for the page

        try:
            html_out.write_text(render_diff(result, index=None), encoding="utf-8")
        except OSError as error:
            report([Diagnostic(Location(display(html_out), 0, 0), f"--html: cannot write: {error.strerror}")])


def text_lines(result: RuleSetDiff) -> list[str]:
    old, new = result.old, result.new
    lines = [f"{side_name(old)} ({old.edition.title}) → {side_name(new)} ({new.edition.title})"]
    if result.edition:
        lines.append("edition:")
        for change in result.edition:
            lines += _change_lines(change, "  ")
    for part in result.lists:
        lines.append(f"{part.list}: {_counts(part)}")
        lines += [f"  + {e.id} {e.name}" for e in part.added]
        lines += [f"  - {e.id} {e.name}" for e in part.removed]
        for entry in part.changed:
            lines.append(f"  ~ {entry.entry.id} {entry.entry.name}")
            for change in entry.changes:
                lines += _change_lines(change, "      ")
    return lines


def _counts(part: ListDiff) -> str:
    if part.empty:
        return "no changes"
    counts = ((len(part.added), "added"), (len(part.removed), "removed"), (len(part.changed), "changed"))
    return ", ".join(f"{n} {what}" for n, what in counts if n)


def _change_lines(change: FieldChange, indent: str) -> list[str]:
    """`field: old → new`; when either value spans several lines, its lines with the removed
    ones marked `-` and the added ones `+`."""
    old, new = change.old, change.new
    if "\n" not in old and "\n" not in new:
        return [f"{indent}{change.field}: {old or NONE} → {new or NONE}"]
    lines = [f"{indent}{change.field}:"]
    before, after = old.splitlines() or [NONE], new.splitlines() or [NONE]
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if tag == "equal":
            lines += [f"{indent}    {line}" for line in before[i1:i2]]
            continue
        lines += [f"{indent}  - {line}" for line in before[i1:i2]]
        lines += [f"{indent}  + {line}" for line in after[j1:j2]]
    return lines
