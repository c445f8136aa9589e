"""Files that are huge, special or missing: refused before being read, and never a quiet pass."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from bad_input_support import EXAMPLE, EXAMPLE_FORMAT, SCENARIO, invoke, located

HUGE = 5 * 2**30


def sparse(path: Path, size: int = HUGE) -> Path:
    """A file of `size` bytes that takes no disk space (reading it whole would take 5 GB of memory)."""
    with path.open("wb") as file:
        file.truncate(size)
    return path


@pytest.mark.parametrize(
    "command",
    [["validate"], ["compile", "--format", EXAMPLE_FORMAT, "--rules"], ["scenario", "run"]],
    ids=["validate", "compile", "scenario"],
)
def test_huge_yaml_file_is_refused_by_its_size(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    sparse(Path("big.yaml"))
    located(invoke(*command, "big.yaml"), "big.yaml", 1, 1, "larger than 4096 KiB")


def test_huge_log_is_refused_by_its_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    sparse(Path("big.jsonl"))
    located(invoke("replay", "big.jsonl"), "big.jsonl", 1, 1, "larger than 65536 KiB")


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # A separate process with a time limit: a reader that opens a FIFO blocks for good.
    command = [str(Path(sys.executable).with_name("blackpoker")), *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize(
    ("command", "name", "good"),
    [
        (["scenario", "run"], "stuck.yaml", SCENARIO),
        (["replay"], "stuck.jsonl", None),
        (["validate"], "stuck.yaml", EXAMPLE),
    ],
    ids=["scenario", "replay", "validate"],
)
def test_fifo_in_a_folder_is_refused_without_opening_it(
    command: list[str], name: str, good: Path | None, tmp_path: Path
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    os.mkfifo(folder / name)
    if good is not None:
        (folder / good.name).write_bytes(good.read_bytes())
    result = cli(*command, "in", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert f"in/{name}:1:1: not a regular file" in result.stderr
    if command == ["scenario", "run"]:
        assert f"PASS  in/{SCENARIO.name}" in result.stdout and "1 passed, 1 failed" in result.stdout


def test_fifo_named_on_the_command_line_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "stuck.jsonl")
    result = cli("replay", "stuck.jsonl", cwd=tmp_path)
    assert result.returncode == 1 and "stuck.jsonl:1:1: not a regular file" in result.stderr


@pytest.mark.parametrize(
    ("command", "wanted"),
    [(["validate"], "*.yaml"), (["scenario", "run"], "*.yaml"), (["replay"], "*.jsonl")],
    ids=["validate", "scenario", "replay"],
)
def test_folder_with_nothing_to_read_is_a_failure(
    command: list[str], wanted: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("empty").mkdir()
    Path("empty", "notes.txt").write_text("not an input\n", encoding="utf-8")
    result = invoke(*command, "empty")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"empty: no {wanted}" in result.stderr
    assert "no problems" not in result.stderr and "0 passed, 0 failed" not in result.stdout


def test_log_with_a_huge_seed_is_located(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("seed.jsonl").write_text('{"log": "blackpoker-command-log", "seed": ' + "9" * 5000 + "}\n")
    located(invoke("replay", "seed.jsonl"), "seed.jsonl", 1, 1, "not a JSON value")


def test_log_nested_deep_is_located(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("deep.jsonl").write_text("{}\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    located(invoke("replay", "deep.jsonl"), "deep.jsonl", 2, 1, "nested too deeply")
