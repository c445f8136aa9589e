"""The pipeline's functions for callers that compile once.

Each makes a new `Environment` (compiler/environment.py), so nothing is shared between
calls and a changed file is always read again. A caller that compiles many rule sets (a
command, a scenario suite, a test module) owns one `Environment` and keeps its caches.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from blackpoker.compiler.environment import Environment, Read, display, find_files, is_path
from blackpoker.compiler.parse import EditionSource
from blackpoker.runtime.rules.diagnostics import Diagnostic
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
