"""Every output place is checked before the work starts; nothing computed is lost to a bad path.

Tests run as root, where permission bits do not stop a write, so the unwritable places are
a path under a regular file and a path in /proc, which nobody can create files in.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bad_input_support import invoke
from click.testing import Result
from editions_support import EDITIONS, formats

PROC = Path("/proc/blackpoker-no-such-place")


def unwritable(tmp_path: Path) -> list[Path]:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    return [blocker / "out", PROC / "out"]


def refused_before_work(result: Result, option: str) -> str:
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert f"{option}: " in result.stderr
    return result.stdout


@pytest.mark.parametrize("case", [0, 1], ids=["under-a-file", "proc"])
def test_build_into_an_unwritable_place(case: int, tmp_path: Path) -> None:
    out = unwritable(tmp_path)[case]
    result = invoke("build", "--html-only", "--format", formats(EDITIONS[0])[0], "--out", out)
    refused_before_work(result, "--out")
    assert "nothing written" in result.stderr


@pytest.mark.parametrize("case", [0, 1], ids=["under-a-file", "proc"])
def test_simulate_logs_into_an_unwritable_place_plays_no_game(case: int, tmp_path: Path) -> None:
    logs = unwritable(tmp_path)[case]
    stdout = refused_before_work(invoke("simulate", "-n", "2", "--logs", logs), "--logs")
    assert "games" not in stdout


@pytest.mark.parametrize("case", [0, 1, 2], ids=["under-a-file", "proc-missing", "proc"])
def test_simulate_html_to_an_unwritable_place_plays_no_game(case: int, tmp_path: Path) -> None:
    # /proc exists and is a folder, but no file can be created in it.
    html = [*unwritable(tmp_path), Path("/proc")][case] / "report.html"
    logs = tmp_path / "logs"  # a game played would leave its log here
    stdout = refused_before_work(invoke("simulate", "-n", "2", "--html", html, "--logs", logs), "--html")
    assert "games" not in stdout
    assert not logs.exists() or not any(logs.iterdir())


def test_simulate_logs_into_a_folder_with_older_logs_is_refused(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "game-0000.jsonl").write_text("an older run\n", encoding="utf-8")
    stdout = refused_before_work(invoke("simulate", "-n", "2", "--logs", logs), "--logs")
    assert "not empty" in invoke("simulate", "-n", "2", "--logs", logs).stderr and "games" not in stdout
    assert (logs / "game-0000.jsonl").read_text(encoding="utf-8") == "an older run\n"


@pytest.mark.parametrize("case", [0, 1], ids=["under-a-file", "proc"])
def test_play_log_to_an_unwritable_place_is_refused_before_the_game(case: int, tmp_path: Path) -> None:
    log = unwritable(tmp_path)[case] / "game.jsonl"
    stdout = refused_before_work(invoke("play", "--seed", "1", "--log", log, stdin="q\n"), "--log")
    assert "BlackPoker" not in stdout


def test_play_log_into_a_missing_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    log = tmp_path / "missing" / "game.jsonl"
    stdout = refused_before_work(invoke("play", "--seed", "1", "--log", log, stdin="q\n"), "--log")
    assert "BlackPoker" not in stdout and "no such folder" in invoke("play", "--log", log).stderr


def test_play_log_does_not_overwrite_without_force(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text("keep me\n", encoding="utf-8")
    refused_before_work(invoke("play", "--seed", "1", "--log", log, stdin="q\n"), "--log")
    assert log.read_text(encoding="utf-8") == "keep me\n"
    forced = invoke("play", "--seed", "1", "--log", log, "--force", stdin="q\n")
    assert forced.exit_code == 0, forced.output
    assert log.read_text(encoding="utf-8").startswith('{"log": "blackpoker-command-log"')
