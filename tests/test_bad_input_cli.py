"""Command-line paths and answers: located refusals with exit 1, never a usage error or a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from bad_input_support import EXAMPLE, invoke, located, refused

RULES_COMMANDS = {
    "compile": ["compile", "--rules"],
    "build": ["build", "--html-only", "--out", "site", "--rules"],
    "simulate": ["simulate", "-n", "1", "--rules"],
}


@pytest.mark.parametrize("command", RULES_COMMANDS)
def test_missing_rules_file_is_located_exit_1(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    located(invoke(*RULES_COMMANDS[command], "nope.yaml"), "nope.yaml", 1, 1, "cannot read file")
    assert not Path("site").exists()


@pytest.mark.parametrize("command", RULES_COMMANDS)
def test_folder_given_for_rules_is_located_exit_1(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("rules").mkdir()
    located(invoke(*RULES_COMMANDS[command], "rules"), "rules", 1, 1, "is a folder")


def test_compare_with_an_unknown_side_blames_compare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("simulate", "-n", "1", "--compare", "zzz", "lite")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.startswith("--compare: 'zzz' is neither a format of v7 (lite, std, pro, mast)")
    assert "--format" not in result.stderr


def test_compare_with_a_missing_rules_file_is_located(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    located(invoke("simulate", "-n", "1", "--compare", "lite", "mine.yaml"), "mine.yaml", 1, 1, "cannot read")


def test_example_rules_still_compile() -> None:
    # The relaxed --rules option still reads a good file.
    assert invoke("compile", "--format", "my-std", "--rules", EXAMPLE).exit_code == 0
    refused(invoke("compile", "--format", "nope", "--rules", EXAMPLE))
