"""The edition of seed 003 (an official sheet of one format): formats, sheet wording, upstream content.

Which edition and format the seed is comes from its title line; every expected name and count
comes from the edition's upstream list; the recorded departures from either source are read
from tests/data/a/decisions.yaml.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import seed003
from blackpoker.compiler.notation import parse_key
from blackpoker.compiler.pipeline import builtin_path
from blackpoker.runtime.rules.model import Action, RuleSet, Speed, Timing
from editions_support import (
    EDITIONS,
    accepted,
    compiled,
    decisions,
    read_upstream,
    seed_edition,
    upstream_lists,
)

TIMING = {"メイン": Timing.MAIN, "クイック": Timing.QUICK}


@pytest.fixture(scope="module")
def sheet(seeds: Path) -> tuple[str, str]:
    """(edition, format) whose official sheet seed 003 is."""
    return seed_edition(seeds / seed003.SEED_NAME)


@pytest.fixture(scope="module")
def edition(sheet: tuple[str, str]) -> dict[str, RuleSet]:
    return compiled(sheet[0])


@pytest.fixture(scope="module")
def upstream(sheet: tuple[str, str]) -> dict[str, Any]:
    data: dict[str, Any] = read_upstream(upstream_lists()[sheet[0]])
    return data


def upstream_actions(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["actId"]: a for group in data["actList"] for a in group["acts"]}


def upstream_formats(entry: dict[str, Any]) -> list[str]:
    return [f for f in entry["format"].split(",") if f]


def format_decided(edition_id: str) -> set[str]:
    """The actions whose format the edition chose itself, against upstream (docs/decisions.md)."""
    return {
        id_ for (list_name, id_, field) in accepted(edition_id) if (list_name, field) == ("actions", "format")
    }


def test_a_decided_format_is_the_first_format_of_the_action_and_sets_its_mark(
    sheet: tuple[str, str], edition: dict[str, RuleSet], upstream: dict[str, Any]
) -> None:
    decided = format_decided(sheet[0])
    assert decided  # the decisions file records one: the test checks it
    order = list(edition)
    largest = edition[order[-1]]
    for action_id in decided:
        action = largest.action(action_id)
        assert action.format != upstream_formats(upstream_actions(upstream)[action_id])[0]
        assert action.formats == tuple(order[order.index(action.format) :])
        before = edition[order[order.index(action.format) - 1]]
        assert action_id not in {a.id for a in before.actions}
        first = edition[action.format]
        assert first.debut(first.action(action_id)).mark == first.edition.format(action.format).mark


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_ids_are_unique_and_english(edition_id: str) -> None:
    for ruleset in compiled(edition_id).values():
        ids = [a.id for a in ruleset.actions] + [c.id for c in ruleset.characters]
        assert len(ids) == len(set(ids))
        assert all(re.fullmatch(r"[a-z][A-Za-z0-9]*", i) for i in ids)


# --- the seed's format equals the official sheet, seed 003 ------------------------------

# Where the extracted sheet is garbled or impossible, the upstream data decides
# (docs/decisions.md); each exception names the entry, the field and why.
SEED_EXCEPTIONS = {(row["name"], row["field"]): row["why"] for row in decisions()["seed"]}


@pytest.fixture(scope="module")
def seed_entries(seeds: Path) -> tuple[list[seed003.SeedEntry], list[seed003.SeedEntry]]:
    return seed003.read(seeds / seed003.SEED_NAME)


@pytest.fixture(scope="module")
def seed_format(sheet: tuple[str, str], edition: dict[str, RuleSet]) -> RuleSet:
    return edition[sheet[1]]


def _action_fields(action: Action) -> dict[str, object]:
    return {
        "type": action.type,
        "timing": action.timing,
        "speed": action.speed,
        "cost": str(action.cost),
        "key": seed003.normalize_notation(str(action.key) if action.key else ""),
        "note": seed003.normalize_text(action.note),
        "target": seed003.normalize_text(action.target),
        "effect": seed003.normalize_text(action.effect),
    }


def _seed_fields(entry: seed003.SeedEntry) -> dict[str, object]:
    return {
        "type": entry.type,
        "timing": TIMING.get(entry.timing or ""),
        "speed": Speed(entry.speed) if entry.speed else None,
        "cost": entry.cost,
        "key": seed003.normalize_notation(entry.key),
        "note": seed003.normalize_text("\n".join(entry.note)),
        # One entry lost its (対象) heading: its target is the text before any heading.
        "target": seed003.normalize_text("\n".join(entry.target or entry.loose)),
        "effect": seed003.normalize_text("\n".join(entry.effect)),
    }


def test_the_format_has_the_seed_entries_in_order(seed_format: RuleSet, seed_entries: tuple) -> None:
    actions, characters = seed_entries
    assert [e.name for e in actions] == [a.name for a in seed_format.actions]
    assert [e.name for e in characters] == [c.name for c in seed_format.characters]
    assert [e.tag for e in actions] == [seed_format.debut(a).id for a in seed_format.actions]


def test_the_actions_match_the_seed_field_by_field(seed_format: RuleSet, seed_entries: tuple) -> None:
    actions, _ = seed_entries
    mismatches = []
    for entry in actions:
        ours = _action_fields(next(a for a in seed_format.actions if a.name == entry.name))
        for field, seed_value in _seed_fields(entry).items():
            if (entry.name, field) in SEED_EXCEPTIONS:
                assert ours[field] != seed_value, f"{entry.name}.{field} now matches: drop the exception"
            elif ours[field] != seed_value:
                mismatches.append(f"{entry.name}.{field}: ours {ours[field]!r} != seed {seed_value!r}")
    assert mismatches == []


def test_the_characters_match_the_seed(seed_format: RuleSet, seed_entries: tuple) -> None:
    _, characters = seed_entries
    for entry in characters:
        ours = next(c for c in seed_format.characters if c.name == entry.name)
        assert ours.type == entry.type
        assert seed003.normalize_notation(str(ours.key)) == seed003.normalize_notation(entry.key)
        assert seed003.normalize_text(ours.ability) == seed003.normalize_text(
            "\n".join(entry.ability or entry.loose)
        )


def test_every_format_uses_life_not_deck(edition: dict[str, RuleSet]) -> None:
    for action in list(edition.values())[-1].actions:
        for text in (action.note, action.target, action.effect):
            assert "デッキ" not in text, action.id


# --- the other formats' content comes from the edition's upstream list ------------------


def _text(value: str | None) -> str:
    return (value or "").strip().replace("デッキ", "ライフ").replace("。 ", "。")


def test_every_action_agrees_with_upstream(
    sheet: tuple[str, str], edition: dict[str, RuleSet], upstream: dict[str, Any]
) -> None:
    actions = upstream_actions(upstream)
    decided = format_decided(sheet[0])
    for action in list(edition.values())[-1].actions:
        up = actions[action.id]
        assert action.name == up["actName"]
        assert action.type == up["actType"]
        assert action.timing is TIMING[up["actTime"]]
        # Upstream marks immediate speed (即時効果) with actS: ●.
        assert (action.speed is Speed.IMMEDIATE) == (up["actS"] == "●"), action.id
        assert str(action.cost) == (up["actCost"] or "")
        assert str(action.key or "") == (str(parse_key(up["actKey"])) if up["actKey"] else "")
        assert action.note == _text(up["actNote"])
        assert action.target == _text(up["actTarget"])
        assert action.effect == _text(up["actEffect"])
        # A decided format is checked by the test above.
        assert (list(action.formats) == upstream_formats(up)) is (action.id not in decided), action.id


def test_every_yaml_file_names_its_schema() -> None:
    for path in [
        *(builtin_path(e) for e in EDITIONS),
        *Path(__file__).resolve().parents[1].joinpath("examples").glob("*.yaml"),
    ]:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert match, path
        assert (path.parent / match[1]).resolve().is_file(), match[1]
