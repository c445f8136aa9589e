"""The pipeline's functions for callers that compile once, and the two sides of a diff.

Each makes a new `Environment` (compiler/environment.py), so nothing is shared between
calls and a changed file is always read again. A caller that compiles many rule sets (a
command, a scenario suite, a test module) owns one `Environment` and keeps its caches;
`load_sides` compiles both sides of a diff in the caller's.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from blackpoker.compiler.documents.diff import whole_edition
from blackpoker.compiler.documents.extra import EXTRA_FORMAT, ExtraSource
from blackpoker.compiler.environment import Environment, Read, display, find_files, is_path
from blackpoker.compiler.link import link
from blackpoker.compiler.parse import EditionSource, OverlaySource, Source
from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic, Location
from blackpoker.runtime.rules.model import RuleSet

__all__ = [
    "builtin_editions",
    "builtin_path",
    "check_paths",
    "compile_edition",
    "compile_ruleset",
    "display",
    "edition_source",
    "find_files",
    "is_path",
    "load_sides",
    "read_source",
]


def builtin_editions() -> tuple[str, ...]:
    return Environment().builtin_editions()


def builtin_path(edition: str) -> Path:
    return Environment().builtin_path(edition)


def read_source(path: Path) -> Read:
    return Environment().read(path)


def edition_source(edition: str) -> EditionSource:
    """An edition (built-in id or file path), parsed; CompileError if it has problems."""
    return Environment().edition(edition)


def compile_ruleset(
    edition: str | None = None, format: str | None = None, rules: Path | str | None = None
) -> RuleSet:
    return Environment().compile(edition, format, rules)


def compile_edition(edition: str | None = None) -> dict[str, RuleSet]:
    return Environment().compile_edition(edition)


def check_paths(paths: Iterable[Path]) -> tuple[int, list[Diagnostic]]:
    return Environment().check_paths(paths)


def load_sides(env: Environment, old: str, new: str, format: str | None) -> tuple[RuleSet, RuleSet]:
    """Both sides of a diff, each a built-in edition id, an edition file or a local-rule file.

    An edition is compared in `format`; without one, over all its entries, or in the base
    format of the local rule on the other side. A local rule is compared in its own format.
    Every problem of both sides is raised at once; OLD / NEW locate a problem with the name.
    """
    sources: list[Source] = []
    problems: list[Diagnostic] = []
    for spec, option in ((old, "OLD"), (new, "NEW")):
        source, found = _side_source(env, spec, option)
        problems += found
        if source is not None:
            sources.append(source)
    if problems:
        raise CompileError(problems)
    compiled = []
    # The official format a local-rule side starts from stands for it on the other side.
    files = [
        Path(spec)
        for spec, source in zip((old, new), sources, strict=True)
        if isinstance(source, OverlaySource)
    ]
    base = env.official_base(files[0]) if files else None
    for spec, source in zip((old, new), sources, strict=True):
        try:
            compiled.append(_side_ruleset(env, spec, source, format or base, files[0] if files else None))
        except CompileError as error:
            problems += error.diagnostics
    if problems:
        raise CompileError(problems)
    return compiled[0], compiled[1]


def _side_source(env: Environment, spec: str, option: str) -> tuple[Source | None, list[Diagnostic]]:
    if not is_path(spec) and spec not in env.builtin_editions():
        known = ", ".join(env.builtin_editions())
        message = f"unknown edition '{spec}' (built in: {known}; or give the path of a file)"
        return None, [Diagnostic(Location(option, 0, 0), message)]
    source, problems = env.read(Path(spec) if is_path(spec) else env.builtin_path(spec))
    if isinstance(source, ExtraSource):
        message = "kind: diff compares editions and local rules, not extra lists"
        return None, [source.doc.at(("kind",), message)]
    return source, problems


def _side_ruleset(
    env: Environment, spec: str, source: Source, format: str | None, rules: Path | None
) -> RuleSet:
    if isinstance(source, OverlaySource):
        # Its own format; the base format it shares with the other side stands for it.
        own = source.format.id if format in (None, env.official_base(Path(spec))) else format
        return env.compile(source.edition_id, own, spec)
    if format == EXTRA_FORMAT.id and rules is not None:  # with the extra list the local rule names
        return env.compile(spec, format, rules)
    return link(env.checked(source), format) if format else whole_edition(source)
