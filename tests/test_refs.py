"""Typed target references: commands parse into them and print back, an option's target and
the state's name each other, and the state hash reads them in their plain-data form."""

from __future__ import annotations

import pytest
from blackpoker.runtime.engine.options import RequestOption, target_text
from blackpoker.runtime.engine.refs import (
    HiddenCharacter,
    HiddenZoneCard,
    PlayerRef,
    RequestRef,
    ResolvingDepth,
    StagePosition,
    UnitRef,
    WrittenCharacter,
    target_data,
)
from blackpoker.runtime.engine.targets import named, resolve_name
from blackpoker.runtime.play.notation import PassCommand, parse_command
from blackpoker.runtime.rules.cards import Card
from engine_support import compiled, format_ids, random_positions, reference_edition

EDITION = reference_edition()


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("p1: x → p2:♣9", WrittenCharacter(1, Card.parse("♣9"))),
        ("p2: x → p1", PlayerRef(0)),
        ("p1: x → stage:2", StagePosition(2)),
        ("p1: retarget → resolving:1", ResolvingDepth(1)),
        ("p1: x → face-down#7", HiddenCharacter(7)),
        ("p1: x → p2:trump#1", HiddenZoneCard(1, "trump", 1)),
    ],
)
def test_a_command_target_parses_into_its_reference_and_prints_back(text: str, target: object) -> None:
    command = parse_command(text)
    assert not isinstance(command, PassCommand) and command.target == target
    assert target_text(target) == text.split("→ ")[1]  # type: ignore[arg-type]


def test_the_state_hash_reads_a_target_as_its_kind_and_id() -> None:
    assert [target_data(t) for t in (UnitRef(3), RequestRef(4), PlayerRef(1))] == [
        ["character", 3],
        ["request", 4],
        ["player", 1],
    ]


@pytest.mark.parametrize("format_id", format_ids(EDITION)[:2])
def test_an_option_target_resolves_to_a_state_target_that_names_it_again(format_id: str) -> None:
    rules = compiled(EDITION, format_id)
    checked = 0
    for game in random_positions(rules, 6, 400):
        for option in game.legal_options():
            if isinstance(option, RequestOption) and option.target is not None:
                assert named(game.state, resolve_name(game, option.target)) == option.target
                checked += 1
    assert checked > 0
