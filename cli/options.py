"""Options several commands share."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from blackpoker.cli.report import option_error, report
from blackpoker.compiler.paths import display

if TYPE_CHECKING:
    from blackpoker.compiler.environment import Environment
    from blackpoker.compiler.parse import OverlaySource
    from blackpoker.runtime.play.source import RulesSource
    from blackpoker.runtime.rules.model import RuleSet

EDITION_HELP = "Edition: a built-in id or the path of an edition file."
DEFAULTS_HELP = "the registry's (actionlists/editions.yaml)"

F = TypeVar("F", bound=Callable[..., Any])


def _one_file(_ctx: click.Context, _param: click.Parameter, values: tuple[Path, ...]) -> Path | None:
    # Taken as a list so that a second --rules is refused rather than silently replacing the first.
    if len(values) > 1:
        given = ", ".join(display(v) for v in values)
        option_error("--rules", f"give one local-rule file; got {len(values)}: {given}")
    return values[0] if values else None


def default_edition() -> str:
    """The edition a command takes when not told: click calls it only then."""
    return _environment().default("edition")


def play_format() -> str:
    """The format play and simulate take when neither --format nor --rules names one."""
    return _environment().default("play_format")


def edition_option() -> Callable[[F], F]:
    return click.option(
        "--edition", default=default_edition, help=f"{EDITION_HELP} Default: the newest, {DEFAULTS_HELP}."
    )


def rules_option(help_text: str = "A local-rule file.", name: str = "rules") -> Callable[[F], F]:
    return click.option(
        "--rules", name, type=click.Path(path_type=Path), multiple=True, callback=_one_file, help=help_text
    )


def extra_option() -> Callable[[F], F]:
    return click.option(
        "--extra",
        help="With --format extra: the extra list, a built-in one's id (v7.30.0) or a file. "
        "Default: the edition's newest.",
    )


def declared_format(path: Path, option: str) -> str:
    """The format a local-rule file declares; anything else is reported where it is wrong."""
    return _overlay(path, option).format.id


def declared_edition(path: Path, option: str) -> str:
    """The edition a local-rule file is for: an edition file beside it, or a built-in id."""
    overlay = _overlay(path, option)
    named = _environment().find(overlay.edition_id, path.parent)
    return overlay.edition_id if named is None or not named.is_relative_to(path.parent) else str(named)


def _overlay(path: Path, option: str) -> OverlaySource:
    from blackpoker.compiler.parse import OverlaySource

    env = _environment()
    source, problems = env.read(path)
    if problems:
        report(env.all_problems(path))
    if not isinstance(source, OverlaySource):
        assert source is not None
        report([source.doc.at(("kind",), f"kind: {option} expects a local-rule file (kind: overlay)")])
    return source


def _environment() -> Environment:
    """The compiler, imported when a default or a file is read: a command whose options need
    neither (a warm `simulate -n 1`) starts without the parser (docs/benchmarks.md)."""
    from blackpoker.compiler.environment import Environment

    return Environment()


def compiled_rules(
    source: RulesSource, env: Environment | None, cache: Path | None, read: list[Path]
) -> RuleSet:
    """Compile here, once (or take the on-disk cache's unchanged compilation, its files added to
    `read`): a bad rule set is reported before anything else, and the run plays this compilation
    (workers get it pickled). A miss compiles in `env` (a new environment when None)."""
    from blackpoker.compiler.cache import compile_cached
    from blackpoker.runtime.rules.diagnostics import CompileError

    try:
        ruleset, files = compile_cached(env, source.edition, source.format, source.rules, source.extra, cache)
        read += files
        return ruleset
    except CompileError as error:
        report(error.diagnostics)
