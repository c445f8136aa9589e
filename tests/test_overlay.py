"""Local rules: an overlay declares a new format from an official one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from blackpoker.compiler import CompileError, compile
from blackpoker.runtime.rules.model import Attack, Speed
from editions_support import EDITIONS, formats

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "my-std.yaml"
# The overlays written here start from the newest edition's smallest format.
EDITION = EDITIONS[0]
BASE = formats(EDITION)[0]
OFFICIAL = compile(EDITION, BASE)
# An action with a key whose cost and speed the overlays change.
CHANGED = next(
    a for a in OFFICIAL.actions if a.key is not None and a.speed is Speed.NORMAL and str(a.cost) != "BB"
)


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(
        f"kind: overlay\nname: my-rules\nedition: {EDITION}\nbase: {BASE}\n" + body, encoding="utf-8"
    )
    return path


@pytest.fixture(scope="module")
def example() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    return data


def test_example_overlay_compiles(example: dict[str, Any]) -> None:
    ruleset = compile(example["edition"], example["name"], EXAMPLE)
    base = compile(example["edition"], example["base"])
    ids = [a.id for a in ruleset.actions]
    assert ruleset.format.id == example["name"] and ruleset.format.base == example["base"]
    assert not set(example["actions"]["remove"]) & set(ids)
    added = [a["id"] for a in example["actions"]["add"]]
    assert ids[-len(added) :] == added
    assert len(ids) == len(base.actions) - len(example["actions"]["remove"]) + len(added)
    changes = example["actions"]["change"]
    assert any("cost" in fields for fields in changes.values())  # the example changes a cost
    for action_id, fields in changes.items():
        if "cost" in fields:
            assert str(ruleset.action(action_id).cost) == fields["cost"]
            assert (
                base.action(action_id).cost != ruleset.action(action_id).cost
            )  # the official one is untouched


def test_changed_fields_only(tmp_path: Path) -> None:
    rules = write(
        tmp_path, f"actions:\n  change:\n    {CHANGED.id}:\n      cost: BB\n      speed: immediate\n"
    )
    changed = compile(EDITION, "my-rules", rules).action(CHANGED.id)
    assert str(changed.cost) == "BB" and changed.speed is Speed.IMMEDIATE
    assert (changed.name, changed.key, changed.effect) == (CHANGED.name, CHANGED.key, CHANGED.effect)
    assert changed.formats == (*CHANGED.formats, "my-rules")


def test_added_action_gets_a_matcher(tmp_path: Path) -> None:
    rules = write(
        tmp_path,
        f"actions:\n  add:\n    - {{id: pair, name: ペア, type: {OFFICIAL.edition.action_types[0]},"
        f" section: {OFFICIAL.edition.sections[0]}, timing: quick,"
        " speed: normal, key: 同じ数字を2枚, effect: 何もしない。}\n",
    )
    action = compile(EDITION, "my-rules", rules).action("pair")
    assert action.matcher is not None
    assert action.formats == ("my-rules",)


def test_characters_can_be_changed(tmp_path: Path) -> None:
    character = next(c for c in OFFICIAL.characters if c.attack is not Attack.NOT_READY)
    rules = write(tmp_path, f"characters:\n  change:\n    {character.id}:\n      attack: not_ready\n")
    assert compile(EDITION, "my-rules", rules).character(character.id).attack is Attack.NOT_READY


def test_base_format_of_overlay_file_compiles_too(example: dict[str, Any]) -> None:
    assert compile(example["edition"], example["base"], EXAMPLE).format.id == example["base"]


def test_errors_point_at_the_overlay(tmp_path: Path) -> None:
    rules = write(tmp_path, f"actions:\n  change:\n    {CHANGED.id}:\n      key: ♡A〜Z\n  remove: [nosuch]\n")
    with pytest.raises(CompileError) as caught:
        compile(EDITION, "my-rules", rules)
    rendered = [d.render().splitlines()[0] for d in caught.value.diagnostics]
    assert sorted(rendered) == [  # the unknown id comes out with the notation problem, not after it
        f"{rules}:8:15: key '♡A〜Z': unexpected 'Z'; expected a rank (A, 2–10, J, Q, K)",
        f"{rules}:9:12: actions.remove: no action 'nosuch' in the base format",
    ]


def test_link_errors_point_at_the_overlay(tmp_path: Path) -> None:
    rules = write(tmp_path, "actions:\n  remove: [nosuch]\n")
    with pytest.raises(CompileError) as caught:
        compile(EDITION, "my-rules", rules)
    assert [str(d.location) for d in caught.value.diagnostics] == [f"{rules}:6:12"]


def test_wrong_format_name_is_reported(example: dict[str, Any]) -> None:
    with pytest.raises(CompileError, match=f"declares format '{example['name']}'"):
        compile(example["edition"], "their-rules", EXAMPLE)
