"""Command-line paths and answers: located refusals with exit 1, never a usage error or a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from bad_input_support import EXAMPLE, EXAMPLE_FORMAT, invoke, located, refused
from blackpoker.cli.play_terminal import number
from blackpoker.compiler.pipeline import compile_ruleset
from blackpoker.runtime.engine.game import Game
from editions_support import EDITIONS, formats

RULES_COMMANDS = {
    "compile": ["compile", "--rules"],
    "build": ["build", "--html-only", "--out", "site", "--rules"],
    "simulate": ["simulate", "-n", "1", "--rules"],
}


EDITION = EDITIONS[0]
SMALLEST = formats(EDITION)[0]


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
    result = invoke("simulate", "-n", "1", "--edition", EDITION, "--compare", "zzz", SMALLEST)
    assert result.exit_code == 1 and "Traceback" not in result.output
    known = ", ".join(formats(EDITION))
    assert result.stderr.startswith(f"--compare: 'zzz' is not a format of {EDITION} ({known}")
    assert "--format" not in result.stderr


def test_compare_with_a_missing_rules_file_is_located(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("simulate", "-n", "1", "--edition", EDITION, "--compare", SMALLEST, "mine.yaml")
    located(result, "mine.yaml", 1, 1, "cannot read")


@pytest.mark.parametrize("answer", ["²", "١", "𝟙"])
def test_play_answer_of_unicode_digits_is_not_a_number(answer: str) -> None:
    game = Game.new(compile_ruleset(EDITION, SMALLEST), 1)
    options = game.legal_options()
    assert isinstance(number(answer, range(1, len(options) + 1)), str)


def test_play_session_survives_a_unicode_digit(tmp_path: Path) -> None:
    result = invoke("play", "--seed", "1", stdin="²\nq\n")
    assert result.exit_code == 0, result.output
    assert "終了しました" in result.stdout


def test_example_rules_still_compile() -> None:
    # The relaxed --rules option still reads a good file.
    assert invoke("compile", "--format", EXAMPLE_FORMAT, "--rules", EXAMPLE).exit_code == 0
    refused(invoke("compile", "--format", "nope", "--rules", EXAMPLE))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["build", "--html-only", "--out", "a-file"], "a-file:1:1: --out: not a folder"),
        (["simulate", "-n", "1", "--logs", "a-file"], "a-file:1:1: --logs: not a folder"),
        (["simulate", "-n", "1", "--html", "a-folder"], "a-folder:1:1: --html: is a folder"),
        (["scenario", "run", "missing.yaml"], "missing.yaml:1:1: cannot read file"),
    ],
    ids=["build-out", "simulate-logs", "simulate-html", "scenario-missing"],
)
def test_wrong_kind_of_path_is_exit_1_not_a_usage_error(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a-file").write_text("x\n", encoding="utf-8")
    Path("a-folder").mkdir()
    result = invoke(*args)
    assert result.exit_code == 1, result.output
    assert message in result.stderr
