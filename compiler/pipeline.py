"""The pipeline's functions for callers without an environment of their own.

Each delegates to one shared `Environment` (compiler/environment.py), the way a template
library's module-level helpers share a default environment: the built-in editions are
parsed once per process, and a file on disk is read again when it changes. Commands make
their own `Environment`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from blackpoker.compiler.diagnostics import Diagnostic
from blackpoker.compiler.environment import Environment, Read, display, find_files, is_path
from blackpoker.compiler.model import RuleSet
from blackpoker.compiler.parse import EditionSource

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

_SHARED = Environment()


def builtin_editions() -> tuple[str, ...]:
    return _SHARED.builtin_editions()


def builtin_path(edition: str) -> Path:
    return _SHARED.builtin_path(edition)


def read_source(path: Path) -> Read:
    return _SHARED.read(path)


def edition_source(edition: str) -> EditionSource:
    """An edition (built-in id or file path), parsed; CompileError if it has problems."""
    return _SHARED.edition(edition)


def compile_ruleset(edition: str = "v7", format: str = "std", rules: Path | str | None = None) -> RuleSet:
    return _SHARED.compile(edition, format, rules)


def compile_edition(edition: str = "v7") -> dict[str, RuleSet]:
    return _SHARED.compile_edition(edition)


def check_paths(paths: Iterable[Path]) -> tuple[int, list[Diagnostic]]:
    return _SHARED.check_paths(paths)
