"""The command line's side of planned writes (compiler/outputs.py): the option type of every
path a command writes, the inputs its command line names, and the refusal of a bad plan."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Literal

import click
from blackpoker.cli.invocation import environment
from blackpoker.cli.report import report
from blackpoker.compiler.outputs import WritePlan
from blackpoker.compiler.paths import display
from blackpoker.runtime.rules.diagnostics import Diagnostic, Location


class Output(click.Path):
    """A path the command writes: a file, or a folder it writes into. Every writing option has
    this type, so the tests find every place the command line writes (tests/test_bad_input_writes.py)."""

    def __init__(self, kind: Literal["file", "folder"]) -> None:
        super().__init__(path_type=Path)
        self.kind = kind


def named_files(values: Iterable[str | Path | None]) -> list[Path]:
    """The files command-line values name: a path of a file, or a built-in edition or extra
    list by its id (`PLAYER=FILE` for a deck)."""
    env = environment()
    builtin = {e: env.builtin_path(e) for e in env.builtin_editions()}
    builtin |= {p.stem: p for e in builtin for p in env.builtin_extras(e)}
    found = []
    for value in map(str, filter(None, values)):
        found += [builtin.get(text, Path(text)) for text in dict.fromkeys((value, value.split("=", 1)[-1]))]
    return found


def check(plan: WritePlan, outcome: str = "nothing written") -> None:
    """Stop the command, every refused place reported, if the plan has any."""
    if plan.problems:
        report(plan.problems, outcome)


def write(plan: WritePlan, path: Path, option: str, data: str | bytes) -> None:
    """A planned file written; a failure the checks could not foresee (a full disk) is reported,
    and the folders the plan made for it are removed."""
    try:
        plan.write(path, data)
    except OSError as error:
        plan.undo()
        report([Diagnostic(Location(display(path), 1, 1), f"{option}: cannot write: {error.strerror}")])


def make(plan: WritePlan, folder: Path, option: str) -> None:
    """A planned folder made (with the missing ones above it); a failure is reported."""
    try:
        plan.make(folder)
    except OSError as error:
        plan.undo()
        report(
            [
                Diagnostic(
                    Location(display(folder), 1, 1), f"{option}: cannot make the folder: {error.strerror}"
                )
            ]
        )
