"""`blackpoker import`: an official upstream action list → one edition file of the model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from blackpoker.cli.invocation import environment, invocation
from blackpoker.cli.outputs import Output, check, named_files, write
from blackpoker.cli.report import report
from blackpoker.compiler import CompileError
from blackpoker.compiler.outputs import WritePlan
from blackpoker.compiler.paths import display
from blackpoker.compiler.upstream import (
    Imported,
    Reference,
    edition_yaml,
    extra_yaml,
    import_extra,
    import_list,
    is_extra,
)
from blackpoker.compiler.upstream.convert import EDITION_ID
from blackpoker.compiler.upstream.read import read_upstream
from blackpoker.compiler.upstream.vocabulary import vocabulary
from blackpoker.runtime.rules.diagnostics import Diagnostic, Location


@click.command(name="import")
@click.argument("upstream", metavar="FILE.yaml", type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=Output("folder"),
    required=True,
    help="Folder to write <id>.yaml into; nothing else is written.",
)
@click.option("--id", "edition_id", help="Edition id. Default: from the list's ver (第8.2版 → v8.2).")
@click.option(
    "--like",
    help="Edition (built-in id or file) giving what upstream lacks: formats' names and marks, "
    "cost units, core rules, legend, copyright. Default: the newest built-in edition.",
)
@click.option(
    "--programs-from",
    help="Edition (built-in id or file) whose effect programs and engine data are copied by id.",
)
@click.option("--force", is_flag=True, help="Replace an existing <id>.yaml in --out.")
def import_command(
    upstream: Path,
    out: Path,
    edition_id: str | None,
    like: str | None,
    programs_from: str | None,
    force: bool,
) -> None:
    """Convert an official upstream action list (v6-act.yaml, v7-act.yaml, act.yaml) into an
    edition file, and list what a person still has to write (docs/import.md); an extra list
    (extra.yaml, v7-extra.yaml) into an extra file <id>.yaml (docs/extra.md)."""
    invocation().outcome = "nothing written"
    env = environment()
    like = like or env.builtin_editions()[0]
    plan = WritePlan(named_files([upstream, like, programs_from]))
    plan.folder(out, "--out")  # the place first: a bad one is said before the reading
    if edition_id is not None and not EDITION_ID.fullmatch(edition_id):
        message = f"'{edition_id}' is not an edition id (letters, digits, '.', '_', '-'; such as v8.2)"
        plan.problems.append(Diagnostic(Location("--id", 0, 0), message))
    editions = _edition_problems("--like", like) + _edition_problems("--programs-from", programs_from)
    if editions:  # the upstream file's own problems beside them (it cannot be converted without)
        plan.problems += editions + read_upstream(upstream, display(upstream))[1]
    check(plan)
    if is_extra(upstream):
        _import_extra(upstream, plan, out, edition_id, force)
        return
    imported = import_list(upstream, display(upstream), _edition, like, programs_from, edition_id)
    comment = [f"Imported from {upstream.name} ({imported.data['title']}) by `blackpoker import`."]
    target = _write_file(plan, out, imported.data["id"], edition_yaml(imported.data, comment), force)
    _summary(imported, target)


def _import_extra(upstream: Path, plan: WritePlan, out: Path, list_id: str | None, force: bool) -> None:
    conversion = import_extra(upstream, display(upstream), _edition, list_id, _builtin_extra)
    data = conversion.data
    comment = [f"Imported from {upstream.name} ({data['title']}, {data['id']}) by `blackpoker import`."]
    plan.reads(filter(None, [_builtin_extra_file(data["id"])]))  # its engine data was kept
    target = _write_file(plan, out, data["id"], extra_yaml(data, comment), force)
    abilities = data["trumps"]
    entries = [*data["operations"], *(a for t in abilities for a in t.get("actions", ()))]
    programs = sum("program" in a for a in entries)
    click.echo(
        f"{display(target)}: extra list of {data['edition']}: {len(abilities)} abilities, "
        f"{len(entries) - len(data['operations'])} actions, {len(data['operations'])} trump operations; "
        f"{programs} with a program, kept from the built-in list (write the others by hand: docs/extra.md)",
        err=True,
    )


def _builtin_extra(list_id: str) -> dict[str, Any] | None:
    """The data of the built-in extra list of this id, whose engine data an import keeps."""
    found = _builtin_extra_file(list_id)
    if found is None:
        return None
    source, problems = environment().read(found)
    return None if problems or source is None else dict(source.doc.data)


def _builtin_extra_file(list_id: str) -> Path | None:
    env = environment()
    every = [p for e in env.builtin_editions() for p in env.builtin_extras(e)]
    return next((p for p in every if p.stem == list_id), None)


def _edition_problems(option: str, value: str | None) -> list[Diagnostic]:
    """Why the edition an option names cannot be read (said under that option), checked with
    the other options before the upstream file is read: every problem at once."""
    if value is None:
        return []
    try:
        environment().edition(value)
    except CompileError as error:
        return [
            Diagnostic(Location(option, 0, 0), d.message) if d.location.path == "--edition" else d
            for d in error.diagnostics
        ]
    return []


def _edition(value: str) -> Reference:
    """A built-in edition id, or the path of an edition file: its id and its (full) data."""
    source = environment().edition(value)
    return source.edition.id, source.doc.data


def _write_file(plan: WritePlan, out: Path, file_id: str, text: str, force: bool) -> Path:
    """`<out>/<file_id>.yaml`, written whole once its place is checked and the text passes
    `validate` as that file (else every problem, located in it as it would be written, and
    nothing written); the path written."""
    plan.folder(out, "--out", [f"{file_id}.yaml"], replace=force)
    check(plan)
    target = out / f"{file_id}.yaml"
    problems = [p for p in environment().check_text(target, text) if not _left_to_complete(p)]
    if problems:
        report(problems, f"nothing written: the lines are those {display(target)} would have")
    write(plan, target, "--out", text)
    return target


def _left_to_complete(problem: Diagnostic) -> bool:
    """A field no upstream list has, which the import lists for a person to complete (engine
    data and history, docs/import.md): its absence is the draft's, not a fault."""
    words = vocabulary()
    fields = {*words.action_engine_fields, *words.character_engine_fields, "since", "updates"}
    return any(problem.message.endswith(f"missing required key '{name}'") for name in fields)


def _summary(imported: Imported, target: Path) -> None:
    def say(text: str = "") -> None:
        click.echo(text, err=True)

    data = imported.data
    say(
        f"{display(target)}: {len(data['actions'])} actions, {len(data['characters'])} characters"
        + (f", {len(data['fogs'])} fogs" if "fogs" in data else "")
    )
    for note in imported.notes:
        say(f"{note.render()} (repaired)")
    say("taken from the reference edition: " + "; ".join(imported.conversion.taken))
    completion = imported.completion
    if completion is None:
        say("no program copied (--programs-from not given): every action needs its program")
        return
    say(f"programs copied: {len(completion.copied)}")
    for title, ids in (
        ("to write (no program)", completion.to_write),
        ("to review (copied, but the effect text differs)", completion.to_review),
        ("characters without engine data (face, attack, size, combat)", completion.incomplete),
    ):
        say(f"{title}: {', '.join(ids) if ids else 'none'}")
