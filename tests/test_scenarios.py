"""The ruling scenarios pass, and the runner reports failures and broken files plainly."""

from __future__ import annotations

from pathlib import Path

import yaml
from blackpoker.cli.main import main
from blackpoker.compiler.pipeline import edition_source
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"

GOOD = """\
kind: scenario
name: five damage at one life
edition: v7
format: lite
setup:
  turn: p1
  p1: {life: 10, hand: [♠5, ♣3]}
  p2: {life: [♡K]}
commands:
  - "p1: 投擲 ★♣3♠5 → p2"
  - "p2: pass"
expect:
  winner: WINNER
"""


def test_all_shipped_scenarios_pass() -> None:
    files = list(SCENARIOS.glob("*/*.yaml"))  # one folder per v7 format, and one per later edition
    suites = {f.parent.name: sum(1 for g in files if g.parent == f.parent) for f in files}
    assert {"lite", "std", "pro", "mast"} <= suites.keys() and suites["lite"] >= 30
    result = CliRunner().invoke(main, ["scenario", "run", str(SCENARIOS)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == f"{len(files)} passed, 0 failed"


def test_each_action_of_every_format_has_a_scenario_in_its_suite() -> None:
    """Every action a format adds to the one before it is named in a scenario of that format,
    for each edition the scenarios are written for (formats and their order are its data)."""
    suites: dict[tuple[str, str], str] = {}
    for path in SCENARIOS.glob("**/*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        key = (data["edition"], data["format"])
        suites[key] = suites.get(key, "") + path.read_text(encoding="utf-8")
    editions = {edition for edition, _ in suites}
    assert editions
    for edition in editions:
        source = edition_source(edition)
        for fmt in source.edition.formats[1:]:
            debut = [a.name for a in source.actions if a.formats[:1] == (fmt.id,)]
            missing = [name for name in debut if f": {name} " not in suites.get((edition, fmt.id), "")]
            assert debut and not missing, (edition, fmt.id, missing)


def test_a_wrong_expectation_fails_with_a_diff(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(GOOD.replace("WINNER", "p2"), encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", str(tmp_path)])
    assert result.exit_code == 1
    assert "winner: expected p2, got p1" in result.output
    assert result.output.splitlines()[-1] == "0 passed, 1 failed"


def test_broken_files_report_every_problem_located(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    text = (
        GOOD.replace("WINNER", "p1").replace("$D", "").replace("→ p2", "→ p2 ??").replace("[♡K]", "[♡K, ♡K]")
    )
    Path("s.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", "s.yaml"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "s.yaml:10:24: command 'p1: 投擲 ★♣3♠5 → p2 ??': unexpected '?'" in result.stderr
    assert "    ^" in result.stderr
    assert "s.yaml:8:19: p2 has no ♡K left to place" in result.stderr
