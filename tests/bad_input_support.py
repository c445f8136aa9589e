"""Running a command on bad input: the result must be a located refusal, never a traceback."""

from __future__ import annotations

import os
import re
from pathlib import Path

import yaml
from blackpoker.cli.main import main
from click.testing import CliRunner, Result

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "my-std.yaml"
EXAMPLE_FORMAT: str = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))["name"]  # the format it declares
# A shipped scenario, for the tests that need a good one beside a bad input.
SCENARIO = sorted((Path(__file__).resolve().parents[1] / "scenarios").rglob("*.yaml"))[0]
LOCATED = re.compile(r"^\S[^\n]*:\d+:\d+: \S", re.MULTILINE)


def invoke(*args: str | Path, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], input=stdin)


def refused(result: Result) -> Result:
    """Exit 1 by the reporter itself (not by an exception), with at least one located message."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert LOCATED.search(result.stderr), result.stderr
    return result


def located(result: Result, path: str, line: int, col: int, text: str) -> None:
    """The run was refused, with a message at path:line:col containing `text`."""
    refused(result)
    pattern = f"{path}:{line}:{col}: "
    messages = [m for m in result.stderr.splitlines() if m.startswith(pattern)]
    assert any(text in m for m in messages), result.stderr


def tree(root: Path) -> dict[str, tuple[str, bytes | str, int]]:
    """Every entry under root, links not followed: a file by its contents and modification
    time, a link by its target and time, a folder by its presence (a folder's time changes
    when the write probe adds and removes a file in it, which changes nothing)."""
    found: dict[str, tuple[str, bytes | str, int]] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder, name)
            key, time = str(path.relative_to(root)), path.lstat().st_mtime_ns
            if path.is_symlink():
                found[key] = ("link", os.readlink(path), time)
            elif path.is_dir():
                found[key] = ("folder", "", 0)
            else:
                found[key] = ("file", path.read_bytes(), time)
    return found
