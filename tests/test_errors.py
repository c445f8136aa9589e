"""One exception root: every error the project raises is a BlackPokerError with located diagnostics."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from blackpoker.compiler.notation import NotationError, parse_key
from blackpoker.runtime.play.notation import parse_command
from blackpoker.runtime.rules.diagnostics import BlackPokerError

PACKAGES = (
    "blackpoker.compiler",
    "blackpoker.runtime.engine",
    "blackpoker.runtime.play",
    "blackpoker.runtime.scenario",
    "blackpoker.site",
    "blackpoker.cli",
)
# Exceptions used as signals inside one module, never raised to a caller.
SIGNALS = {
    "blackpoker.cli.play.Quit": "the player typed q: ends the prompt loop",
    "blackpoker.runtime.rules.keyspec.InvalidKeySpec": "caught by notation.py, which locates each flaw",
    "blackpoker.runtime.play.agents.Forfeit": "an outside agent gave up: self-play ends its game, it loses",
}


# The optional packages a module may need, and the extra that brings them: a module that needs
# one that is not installed is skipped, by name (CI installs every extra: .ci/setup).
OPTIONAL = {
    "pypdf": "pdf",
    "weasyprint": "pdf",
    "distributed": "cluster",
    "pyspiel": "openspiel",
    "numpy": "openspiel",
    "pettingzoo": "pettingzoo",
    "gymnasium": "pettingzoo",
}


def project_modules() -> list[str]:
    """Every module of the packages, by name (listed without importing them)."""
    found = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        found += [info.name for info in pkgutil.iter_modules(package.__path__, f"{name}.")]
    return found


def exceptions_of(name: str) -> list[type[BaseException]]:
    """The exception classes a module defines; skipped when it needs an absent optional package."""
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name not in OPTIONAL:
            raise
        pytest.skip(f"{name} needs {error.name}, of the {OPTIONAL[error.name]} extra, which is not installed")
    return [
        cls
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, BaseException) and cls.__module__ == module.__name__
    ]


def test_the_project_defines_errors_to_check() -> None:
    found = []
    for name in project_modules():
        try:
            found += exceptions_of(name)
        except pytest.skip.Exception:
            continue
    assert len(found) >= 8


@pytest.mark.parametrize("name", project_modules())
def test_every_error_derives_from_the_root(name: str) -> None:
    for cls in exceptions_of(name):
        qualified = f"{cls.__module__}.{cls.__name__}"
        assert issubclass(cls, BlackPokerError) or qualified in SIGNALS, qualified


def test_a_notation_error_carries_a_diagnostic_with_a_caret() -> None:
    with pytest.raises(NotationError) as caught:
        parse_key("♡A〜1")
    (first, *_) = caught.value.diagnostics
    assert first.location.line == 1 and first.location.col == 4
    assert first.render().splitlines()[-1].strip() == "^"


def test_a_command_error_is_located_in_the_command() -> None:
    with pytest.raises(BlackPokerError) as caught:
        parse_command("p1: 何か ★♠")
    assert caught.value.diagnostics[0].location.path == "command"
