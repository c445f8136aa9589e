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
}


def project_exceptions() -> list[type[BaseException]]:
    found = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        for info in pkgutil.iter_modules(package.__path__, f"{name}."):
            module = importlib.import_module(info.name)
            found += [
                cls
                for _, cls in inspect.getmembers(module, inspect.isclass)
                if issubclass(cls, BaseException) and cls.__module__ == module.__name__
            ]
    return found


def test_the_project_defines_errors_to_check() -> None:
    assert len(project_exceptions()) >= 8


@pytest.mark.parametrize("cls", project_exceptions(), ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_every_error_derives_from_the_root(cls: type[BaseException]) -> None:
    name = f"{cls.__module__}.{cls.__name__}"
    assert issubclass(cls, BlackPokerError) or name in SIGNALS


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
