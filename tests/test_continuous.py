"""Continuous abilities (docs/effects.md): the vocabulary is one set in the schema and the node
classes, its names are checked at their place, and the tests' own lists play the order of 002
§6.4.2 (tests/data/continuous: kind (c) trumps, characters with abilities)."""

from __future__ import annotations

import json
import pickle
import shutil
from importlib import resources
from pathlib import Path

from blackpoker.cli.main import main
from blackpoker.compiler.emit_json import ruleset_json
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.rules.program import ABILITIES, word
from click.testing import CliRunner

DATA = Path(__file__).resolve().parent / "data" / "continuous"
NUMBERS = DATA / "lists" / "numbers.yaml"


def test_the_schema_and_the_node_classes_name_the_same_abilities() -> None:
    schema = json.loads(resources.files("blackpoker.schema").joinpath("defs.schema.json").read_text("utf-8"))
    assert set(schema["$defs"]["ability"]["properties"]) == set(ABILITIES)


def test_the_ordering_scenarios_pass() -> None:
    files = sorted(str(path) for path in DATA.glob("*.yaml"))
    result = CliRunner().invoke(main, ["scenario", "run", *files])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == f"{len(files)} passed, 0 failed"


def test_a_list_with_abilities_compiles_them_and_they_pickle() -> None:
    rules = Environment().compile("v7", "extra", extra=str(NUMBERS))
    by_card = {str(t.card): t.abilities for t in rules.trumps}
    assert [word(a) for a in by_card["♠3"]] == ["change"]
    assert pickle.loads(pickle.dumps(rules.trumps)) == rules.trumps
    trumps = ruleset_json(rules)["trumps"]
    assert trumps[1]["abilities"] == [
        {"change": {"scope": "all", "number": "hand_limit", "set_to": 5, "add": 0, "type": None}}
    ]


def test_a_rule_set_without_abilities_or_events_writes_what_it_did() -> None:
    """New optional fields stay out of the compiled JSON, so its hash is unchanged."""
    rules = Environment().compile("v7", "mast")
    text = json.dumps(ruleset_json(rules), ensure_ascii=False)
    assert '"abilities"' not in text and '"event"' not in text


def test_bad_abilities_are_reported_at_their_place(tmp_path: Path) -> None:
    bad = tmp_path / "numbers.yaml"
    shutil.copy(NUMBERS, bad)
    text = bad.read_text(encoding="utf-8").replace("type: 兵士, add: 1", "type: 兵隊, add: 1")
    text += (
        '  - {suit: ♣, number: "2", id: c2, name: 置換, ability: x,\n'
        "     abilities: [replace_effect: {action: chrge, if: {ge: [{count: key}, 1]},\n"
        "                                  program: [request: drow,\n"
        "                                            damage: {player: you, amount: {count: pickd}}]}]}\n"
    )
    assert _problems(bad, text) == [
        ":27:47: type: unknown character type '兵隊' (declared: 兵士, 防壁)",
        ":33:43: replace_effect.action: unknown action 'chrge'",
        ":33:68: 'key': an ability's condition reads no names (it is read before any request)",
        ":34:54: request: unknown action 'drow'",
        ":35:83: count: 'pickd' is not bound here (bound before: nothing)",
        "5 problems found",
    ]


def test_an_unknown_scope_is_a_schema_error(tmp_path: Path) -> None:
    bad = tmp_path / "numbers.yaml"
    bad.write_text(
        NUMBERS.read_text(encoding="utf-8").replace("scope: all}]}", "scope: every}]}", 1), "utf-8"
    )
    result = CliRunner().invoke(main, ["validate", str(bad)])
    assert result.exit_code == 1
    assert "abilities[0].change.scope: expected one of all, your, this; got 'every'" in result.output


def test_an_ability_always_on_has_no_owner(tmp_path: Path) -> None:
    bad = tmp_path / "small-hands.yaml"
    written = (DATA / "rules" / "small-hands.yaml").read_text(encoding="utf-8")
    bad.write_text(written.replace("set: 4}]", "set: 4, scope: your}, prevent_damage: {}]"), "utf-8")
    result = CliRunner().invoke(main, ["validate", str(bad)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{bad}:8:57: scope: an ability always on has no owner: its scope is all, not your",
        f"{bad}:8:64: prevent_damage: needs an owner (a trump's or a character's ability)",
        "2 problems found",
    ]


COSTS = DATA / "lists" / "costs.yaml"


def test_a_cost_change_compiles_its_units_and_writes_them_as_printed() -> None:
    rules = Environment().compile("v7", "extra", extra=str(COSTS))
    by_card = {str(t.card): t.abilities for t in rules.trumps}
    assert pickle.loads(pickle.dumps(by_card["♢3"])) == by_card["♢3"]
    written = {t["card"]: t["abilities"] for t in ruleset_json(rules)["trumps"]}
    assert written["♢3"] == [
        {
            "change": {
                "scope": "all",
                "number": "cost",
                "set_to": "BLL",
                "add": 0,
                "type": None,
                "action": "summonsSoldier",
            }
        }
    ]
    assert written["♢2"][0]["change"]["waive"] == ["L"]


def test_bad_cost_and_limit_changes_are_reported_at_their_place(tmp_path: Path) -> None:
    bad = tmp_path / "costs.yaml"
    text = COSTS.read_text(encoding="utf-8")
    text = text.replace("summonsSoldier, waive: [L]", "summonSoldier, waive: [C]")
    text = text.replace("action: setBulwark, set: 2", "set: 2, waive: [L]")
    text += (
        '  - {suit: ♢, number: "6", id: d6, name: x, ability: x,\n'
        "     abilities: [change: {number: cost, action: open, set: 2, add: 1},\n"
        "                 change: {number: hand_limit, set: BD, action: open}]}\n"
    )
    assert _problems(bad, text) == [
        ":24:49: action: unknown action 'summonSoldier'",
        ":24:71: waive: unit 'C' is not a cost unit of v7 (known: B, D, L, S)",
        ":28:18: change: the uses_per_turn of which action? (action: ID)",
        ":28:65: waive: only a cost has units waived, not the uses_per_turn",
        ":32:60: set: a cost is written as its units (BD), not a number",
        ":32:68: add: a cost is set or has units waived, not added to",
        ":33:52: set: the hand_limit is a number",
        ":33:64: action: the hand_limit is not an action's",
        "8 problems found",
    ]


def test_a_cost_that_does_not_parse_is_located_in_its_text(tmp_path: Path) -> None:
    text = COSTS.read_text(encoding="utf-8").replace("set: BLL", "set: BXL")
    assert _problems(tmp_path / "costs.yaml", text)[0] == (
        ":26:71: set 'BXL': unexpected 'X'; expected a payment unit (B, D, L, S)"
    )


def _problems(bad: Path, text: str) -> list[str]:
    """What `validate` reports of `text` written at `bad` (which must fail), without the path."""
    bad.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(bad)])
    assert result.exit_code == 1
    return [line.removeprefix(str(bad)) for line in result.output.splitlines()]
