"""Broken local rules, as authors write them: every command that reads a local-rule file
gives the located messages in the case's .expect file (validate) or located lines (the
others), exit 1, no traceback, and writes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from blackpoker.cli.main import main
from click.testing import CliRunner

CORPUS = Path(__file__).parent / "overlay-errors"
CASES = sorted(CORPUS.glob("*.yaml"))  # bases/ holds the local rules some cases build on
LOCATED = re.compile(r"^(\S+\.yaml:\d+:\d+: |\s|\d+ problems? found)")


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_validate_gives_the_expected_messages(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CORPUS)
    result = CliRunner().invoke(main, ["validate", case.name])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr == case.with_suffix(".expect").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
@pytest.mark.parametrize(
    "command",
    [
        ["compile", "--rules"],
        ["build", "--html-only", "--out", "site", "--rules"],
        ["simulate", "-n", "1", "--rules"],
        ["list", "--rules"],
    ],
    ids=lambda c: c[0],
)
def test_every_command_reports_located_problems(
    case: Path, command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a build that wrongly went ahead would write here
    result = CliRunner().invoke(main, [*command, str(case)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert lines and all(LOCATED.match(line) for line in lines), result.stderr
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []
