"""Scenarios set up from a regulation: the zones it adds are part of the position, and a set-up
that must be refused is an outcome (`expect: {refused: TEXT}`), checked as simulate refuses it.

The regulations are found in the data by what the tables allow or refuse, never by name."""

from __future__ import annotations

import random
from itertools import product
from pathlib import Path

import pytest
from blackpoker.compiler import CompileError
from blackpoker.compiler.documents.regulation import builtin_regulations, parse_regulation
from blackpoker.runtime.engine.zones import card
from blackpoker.runtime.play.regulation import Match
from blackpoker.runtime.scenario.build import build
from blackpoker.runtime.scenario.load import load
from blackpoker.runtime.scenario.run import run
from regulation_support import tabled_regulation, two_decks

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


MATCHED = tabled_regulation(lambda frame: two_decks(frame) and frame.match.retire_winning_deck)


def _match_scenario(tmp_path: Path, games: str, rest: str = "commands: []\nexpect: {turn: p1}\n") -> Path:
    path = tmp_path / "m.yaml"
    path.write_text(
        f"kind: scenario\nedition: {TABLED.editions[0]}\nformat: {MATCHED.split('+')[0]}\nname: m\n"
        f"setup:\n  seed: 1\n  regulation: {MATCHED}\n  match:\n{games}{rest}",
        encoding="utf-8",
    )
    return path


def test_a_deck_that_won_is_refused_for_a_later_game_of_the_match(tmp_path: Path) -> None:
    rule = parse_regulation(MATCHED, TABLED).frame.match.rule
    games = "    - {p1: 1, p2: 2, result: p1}\n    - {p1: 1, p2: 1}\n"
    wanted = f"game 2: p1's deck 1 won game 1: a deck that won a game is not used again ({rule})"
    assert (
        _failures(_match_scenario(tmp_path, games, f'commands: []\nexpect: {{refused: "{wanted}"}}\n')) == []
    )
    games = "    - {p1: 1, p2: 2, result: p1}\n    - {p1: 2, p2: 1}\n"
    scenario, problems = load(_match_scenario(tmp_path, games))
    assert problems == [] and scenario is not None and scenario.regulation is not None
    game = build(scenario)
    decks = Match(scenario.regulation, random.Random(1)).decks
    for index, player in enumerate(game.state.players):  # each plays the deck named: its cards
        held = [*player.life, *player.hand, *player.graveyard, *(c for u in player.field for c in u.cards)]
        assert sorted(str(card(c)) for c in held) == sorted(str(c) for c in decks[index][1 - index])


def test_a_match_that_is_over_refuses_another_game(tmp_path: Path) -> None:
    games = "    - {p1: 1, p2: 1, result: p2}\n    - {p1: 1, p2: 2, result: p2}\n    - {p1: 1, p2: 1}\n"
    scenario, _ = load(_match_scenario(tmp_path, games, "commands: []\nexpect: {refused: x}\n"))
    assert scenario is not None
    assert scenario.refusals == ["game 3: the match is over after 2 games (p2 won)"]


@pytest.mark.parametrize(
    ("games", "line", "message"),
    [
        ("    - {p1: 3, p2: 1}\n", 9, "match: p1 has 2 deck(s), not 3"),
        (
            "    - {p1: 1, p2: 1}\n    - {p1: 2, p2: 2}\n",
            9,
            "match: only the last game may leave out its result",
        ),
    ],
)
def test_a_match_naming_a_missing_deck_or_result_is_refused_at_its_line(
    tmp_path: Path, games: str, line: int, message: str
) -> None:
    scenario, problems = load(_match_scenario(tmp_path, games))
    assert scenario is None
    assert [(p.location.line, p.message) for p in problems] == [(line, message)]


def test_a_match_needs_a_regulation_and_a_written_position_takes_its_zones(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    head = f"kind: scenario\nedition: {TABLED.editions[0]}\nformat: {ALLOWED.split('+')[0]}\nname: s\n"
    path.write_text(
        f"{head}setup: {{seed: 1, match: [{{p1: 1, p2: 1}}]}}\ncommands: []\nexpect: {{turn: p1}}\n"
    )
    scenario, problems = load(path)
    assert scenario is None and [(p.location.line, "a regulation" in p.message) for p in problems] == [
        (5, True)
    ]
    zoned = next(o for o in TABLED.options if o.left_out)
    fmt, frame = ALLOWED.split("+")[:2]
    written = f"{fmt}+{frame}+{zoned.id}"
    zones = f"{{{zoned.left_out}: [♠2]}}"
    position = f"{{regulation: {written}, turn: p1, p1: {{life: 1, zones: {zones}}}, p2: {{life: 1}}}}"
    path.write_text(f"{head}setup: {position}\ncommands: []\nexpect: {{p1: {{zones: {zones}}}}}\n")
    assert _failures(path) == []
