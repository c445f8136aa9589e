"""The built-in editions that declare the 8.2 engine data play from it: every action has a
program, every triggered action has a way to be triggered, every zone a program names is
declared, and random games keep the invariants after every decision. Which editions these
are is read from their data (a declared zone or a triggered_by), never from their ids."""

from __future__ import annotations

import pytest
from blackpoker.compiler.pipeline import builtin_editions, compile_edition
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.play.selfplay import Checks, play_game
from blackpoker.runtime.rules.program import Move, Name, Pile, walk_steps

EDITIONS = [
    edition
    for edition in builtin_editions()
    if any(
        r.edition.core.zones or any(a.triggered_by for a in r.actions)
        for r in compile_edition(edition).values()
    )
]


def test_some_built_in_edition_uses_the_engine_data() -> None:
    assert EDITIONS


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_action_has_a_program_and_every_trigger_a_cause(edition: str) -> None:
    for ruleset in compile_edition(edition).values():
        caused = {a.id for a in ruleset.actions if a.triggered_by is not None}
        caused |= {t.request for c in ruleset.characters for t in c.triggers}
        for action in ruleset.actions:
            assert action.steps, (ruleset.format.id, action.id)
            assert action.direct or action.id in caused, (ruleset.format.id, action.id)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_zones_programs_name_are_declared(edition: str) -> None:
    for ruleset in compile_edition(edition).values():
        declared = {z.id for z in ruleset.edition.core.zones}
        named = {
            node.to if isinstance(node, Move) else node.zone
            for a in ruleset.actions
            for _, node in walk_steps(a.steps)
            if isinstance(node, Move | Pile)
        }
        assert named - {"hand", "graveyard", "life", "life_top", "life_bottom"} <= declared


@pytest.mark.parametrize("edition", EDITIONS)
def test_random_games_keep_the_invariants_after_every_decision(edition: str) -> None:
    for fmt, ruleset in compile_edition(edition).items():
        rules = Rules(ruleset)
        for index in range(20):
            record = play_game(rules, ("random", "random"), 7, index, check=Checks.EVERY)
            assert record.failure is None, (fmt, index, record.failure)


@pytest.mark.parametrize("edition", EDITIONS)
def test_each_fog_entry_names_an_action_that_puts_its_key_cards_in_a_declared_zone(edition: str) -> None:
    for ruleset in compile_edition(edition).values():
        declared = {z.id for z in ruleset.edition.core.zones}
        for fog in ruleset.fogs:
            moves = [
                node
                for _, node in walk_steps(ruleset.action(fog.action).steps)
                if isinstance(node, Move) and isinstance(node.cards, Name) and node.cards.name == "key"
            ]
            assert any(m.to in declared for m in moves), (ruleset.format.id, fog.id)
