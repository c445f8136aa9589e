"""The pipeline end to end: load → validate → parse → link, for built-in lists and user files."""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from blackpoker.compiler.diagnostics import CompileError, Diagnostic, Location
from blackpoker.compiler.link import check_edition, check_overlay, link, link_overlay
from blackpoker.compiler.load import load_file
from blackpoker.compiler.model import RuleSet
from blackpoker.compiler.parse import EditionSource, OverlaySource, Source, notation_problems, parse
from blackpoker.compiler.validate import validate


def builtin_editions() -> tuple[str, ...]:
    folder = resources.files("blackpoker.actionlists")
    return tuple(sorted(p.name.removesuffix(".yaml") for p in folder.iterdir() if p.name.endswith(".yaml")))


def builtin_path(edition: str) -> Path:
    return Path(str(resources.files("blackpoker.actionlists").joinpath(f"{edition}.yaml")))


def display(path: Path) -> str:
    """A path as the user would type it: relative to the working folder when inside it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if relative.startswith("..") else relative


def read_source(path: Path) -> tuple[Source | None, list[Diagnostic]]:
    doc, loaded = load_file(path, display(path))
    if doc is None:
        return None, loaded
    problems = loaded + validate(doc)
    if problems:
        return None, problems + notation_problems(doc)
    return parse(doc)


@cache
def edition_source(edition: str) -> EditionSource:
    """The built-in edition, loaded, validated and parsed once per process."""
    if edition not in builtin_editions():
        known = ", ".join(builtin_editions())
        raise CompileError(
            [Diagnostic(Location("--edition", 0, 0), f"unknown edition '{edition}' (built in: {known})")]
        )
    source, problems = read_source(builtin_path(edition))
    if problems or not isinstance(source, EditionSource):
        raise CompileError(problems)
    return source


def compile_ruleset(edition: str = "v7", format: str = "std", rules: Path | str | None = None) -> RuleSet:
    """Compile one format of an edition, or the local-rule format declared in `rules`."""
    if rules is None:
        return link(edition_source(edition), format)
    overlay = _overlay(Path(rules))
    if format not in (overlay.format.id, overlay.format.base):
        where = overlay.doc.locate(("name",))
        raise CompileError(
            [Diagnostic(where, f"--format {format}: this file declares format '{overlay.format.id}'")]
        )
    base = edition_source(overlay.edition_id if overlay.edition_id in builtin_editions() else edition)
    if format == overlay.format.base:
        return link(base, format)
    return link_overlay(base, overlay)


def _overlay(path: Path) -> OverlaySource:
    source, problems = read_source(path)
    if problems:
        raise CompileError(problems)
    if not isinstance(source, OverlaySource):
        assert source is not None
        raise CompileError(
            [source.doc.at(("kind",), "kind: --rules expects a local-rule file (kind: overlay)")]
        )
    return source


def compile_edition(edition: str = "v7") -> dict[str, RuleSet]:
    source = edition_source(edition)
    return {f.id: link(source, f.id) for f in source.edition.formats}


def check_paths(paths: Iterable[Path]) -> tuple[int, list[Diagnostic]]:
    """Validate files and folders (recursively, *.yaml / *.yml); return (files read, problems)."""
    files, problems = find_files(paths, (".yaml", ".yml"))
    sources: list[Source] = []
    for file in files:
        source, found = read_source(file)
        problems += found
        if source is not None:
            sources.append(source)
    editions = {s.edition.id: s for s in sources if isinstance(s, EditionSource)}
    for source in sources:
        if isinstance(source, EditionSource):
            problems += check_edition(source)
        else:
            problems += _check_overlay(source, editions)
    return len(files), sorted(problems, key=lambda d: d.location)


def find_files(paths: Iterable[Path], suffixes: tuple[str, ...]) -> tuple[list[Path], list[Diagnostic]]:
    """The files named, and the regular files with one of `suffixes` under the folders named.

    Anything but a folder is kept, for the reader to refuse if it is no regular file (it
    checks before opening: a FIFO would hang it). A folder with nothing to read is a
    problem, not a quiet success.
    """
    files: set[Path] = set()
    problems: list[Diagnostic] = []
    for path in paths:
        if not path.is_dir():
            files.add(path)
            continue
        found = {p for p in path.rglob("*") if p.suffix in suffixes and not p.is_dir()}
        if not found:
            wanted = " or ".join(f"*{s}" for s in suffixes)
            problems.append(Diagnostic(Location(display(path), 0, 0), f"no {wanted} files in this folder"))
        files |= found
    return sorted(files), problems


def _check_overlay(overlay: OverlaySource, editions: dict[str, EditionSource]) -> list[Diagnostic]:
    base = editions.get(overlay.edition_id)
    if base is None:
        if overlay.edition_id not in builtin_editions():
            known = ", ".join(sorted({*editions, *builtin_editions()}))
            return [
                overlay.doc.at(
                    ("edition",), f"edition: unknown edition '{overlay.edition_id}' (known: {known})"
                )
            ]
        base = edition_source(overlay.edition_id)
    return check_overlay(base, overlay)
