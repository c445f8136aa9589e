"""`blackpoker diff OLD NEW`: what changed between two editions or local rules, field by field."""

from __future__ import annotations

from difflib import SequenceMatcher
from pathlib import Path

import click
from blackpoker.cli.invocation import environment
from blackpoker.cli.outputs import Output, check, named_files, write
from blackpoker.compiler.documents.diff import FieldChange, ListDiff, RuleSetDiff, diff_rulesets, side_name
from blackpoker.compiler.outputs import WritePlan
from blackpoker.compiler.pipeline import load_sides

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
    type=Output("file"),
    help="Also write the changes as an HTML page to this file (replaced if it exists; never OLD or NEW).",
)
def diff(old: str, new: str, format_id: str | None, html_out: Path | None) -> None:
    """List what NEW adds, removes and changes against OLD.

    OLD and NEW are built-in edition ids (v7), edition files or local-rule files.
    """
    env = environment()
    plan = WritePlan(named_files([old, new]))
    if html_out is not None:
        plan.file(html_out, "--html", replace=True)
    check(plan, "nothing compared")
    result = diff_rulesets(*load_sides(env, old, new, format_id))
    plan.reads(env.files_read())  # the files both sides are based on too
    check(plan, "nothing written")
    click.echo("\n".join(text_lines(result)))
    if html_out is not None:
        from blackpoker.site.render import render_diff  # Jinja is needed only for the page

        write(plan, html_out, "--html", render_diff(result, index=None))


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
