"""Output places checked before the work starts, so no computed result is lost to a bad path.

As root, permission bits do not stop a write, so writability is tested by writing: a probe
file is created (and removed) in the folder that will receive the output, or in the
nearest existing folder above it when it has still to be created.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from blackpoker.compiler.pipeline import display
from blackpoker.runtime.rules.diagnostics import Diagnostic, Location


def output_folder(path: Path, option: str, *, empty: bool = False) -> list[Diagnostic]:
    """Problems with writing into folder `path` (created if missing); `empty`: it must hold nothing."""
    if path.exists() and not path.is_dir():
        return [_at(path, f"{option}: not a folder")]
    if empty and path.is_dir() and any(path.iterdir()):
        return [_at(path, f"{option}: the folder is not empty; give a new or empty folder")]
    return _probe(path, option)


def output_file(path: Path, option: str, *, force: bool = False) -> list[Diagnostic]:
    """Problems with writing file `path` into an existing folder; an existing file needs `force`."""
    if path.is_dir():
        return [_at(path, f"{option}: is a folder; expected a file name")]
    if path.exists() and not force:
        return [_at(path, f"{option}: the file exists; use --force to replace it")]
    if not path.parent.is_dir():
        return [_at(path, f"{option}: {display(path.parent)}: no such folder")]
    return _probe(path.parent, option, path)


def _probe(folder: Path, option: str, shown: Path | None = None) -> list[Diagnostic]:
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return [_at(shown or folder, f"{option}: {display(existing)} is a file, not a folder")]
    try:
        with tempfile.TemporaryFile(dir=existing, prefix=".write-probe-"):
            pass
    except OSError as error:
        return [_at(shown or folder, f"{option}: cannot write in {display(existing)}: {error.strerror}")]
    return []


def _at(path: Path, message: str) -> Diagnostic:
    return Diagnostic(Location(display(path), 0, 0), message)
