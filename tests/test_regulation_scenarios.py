"""Scenarios set up from a regulation: the zones it adds are part of the position, and a set-up
that must be refused is an outcome (`expect: {refused: TEXT}`), checked as simulate refuses it.

The regulations are found in the data by what the tables allow or refuse, never by name."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest
from blackpoker.compiler import CompileError
from blackpoker.compiler.regulation import builtin_regulations, parse_regulation
from blackpoker.runtime.scenario.scenario import load, run

TABLED = next(r for r in builtin_regulations() if r.tables and r.editions)


def _allowed_and_refused() -> tuple[str, tuple[str, str]]:
    """A format + frame + option the tables allow whose frame deals, and one they refuse with
    the refusal's message."""
    allowed, refused = None, None
    for fmt, frame, option in product(TABLED.formats, TABLED.frames, TABLED.options):
        text = f"{fmt.id}+{frame.id}+{option.id}"
        try:
            parse_regulation(text, TABLED)
        except CompileError as error:
            refused = refused or (text, error.diagnostics[0].message)
            continue
        if not frame.needs_decks:
            allowed = allowed or text
    assert allowed is not None and refused is not None
    return allowed, refused


ALLOWED, (REFUSED, REASON) = _allowed_and_refused()


def _scenario(tmp_path: Path, regulation: str, rest: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(
        f"kind: scenario\nedition: {TABLED.editions[0]}\nformat: {regulation.split('+')[0]}\nname: s\n"
        f"setup: {{seed: 1, regulation: {regulation}}}\n{rest}",
        encoding="utf-8",
    )
    return path


def _failures(path: Path) -> list[str]:
    scenario, problems = load(path)
    assert problems == [] and scenario is not None
    return run(scenario).failures


def test_a_refused_set_up_passes_when_its_reason_is_the_one_expected(tmp_path: Path) -> None:
    wanted = REASON.split(": ", 1)[1]  # the table's citation, after the regulation's name
    assert _failures(_scenario(tmp_path, REFUSED, f"commands: []\nexpect: {{refused: '{wanted}'}}\n")) == []


def test_a_refusal_with_another_reason_fails_and_shows_the_reason(tmp_path: Path) -> None:
    failures = _failures(_scenario(tmp_path, REFUSED, "commands: []\nexpect: {refused: no such reason}\n"))
    assert len(failures) == 1
    assert ":7:19: the set-up was refused with '" in failures[0]
    assert REASON in failures[0] and "expected 'no such reason'" in failures[0]


def test_an_accepted_set_up_fails_an_expected_refusal(tmp_path: Path) -> None:
    failures = _failures(_scenario(tmp_path, ALLOWED, "commands: []\nexpect: {refused: anything}\n"))
    expected = f"{tmp_path / 's.yaml'}:7:19: the set-up was accepted, expected a refusal ('anything')"
    assert failures == [expected]


@pytest.mark.parametrize(
    ("rest", "message", "line"),
    [
        ("commands: ['p1: pass']\nexpect: {refused: x}\n", "no commands, no other outcome", 7),
        ("commands: []\nexpect: {refused: x, turn: p1}\n", "no commands, no other outcome", 7),
        ("commands: [{expect: {refused: x}}]\nexpect: {turn: p1}\n", "only the final expect", 6),
    ],
)
def test_a_refusal_is_the_whole_outcome_of_the_set_up(
    tmp_path: Path, rest: str, message: str, line: int
) -> None:
    scenario, problems = load(_scenario(tmp_path, ALLOWED, rest))
    assert scenario is None
    assert [(p.location.line, message in p.message) for p in problems] == [(line, True)]


def test_a_written_position_has_no_set_up_to_refuse(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        f"kind: scenario\nedition: {TABLED.editions[0]}\nformat: {TABLED.formats[0].id}\nname: s\n"
        "setup: {turn: p1, p1: {life: 1}, p2: {life: 1}}\ncommands: []\nexpect: {refused: x}\n",
        encoding="utf-8",
    )
    scenario, problems = load(path)
    assert scenario is None
    assert [(p.location.line, p.message) for p in problems] == [
        (7, "refused: only a set-up with a regulation can be refused")
    ]
