"""Local rules: an overlay declares a new format from an official one."""

from __future__ import annotations

from pathlib import Path

import pytest
from blackpoker.compiler import CompileError, compile
from blackpoker.compiler.cost import Cost
from blackpoker.compiler.model import Speed

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "my-std.yaml"


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text("kind: overlay\nname: my-std\nedition: v7\nbase: std\n" + body, encoding="utf-8")
    return path


def test_example_overlay_compiles() -> None:
    ruleset = compile("v7", "my-std", EXAMPLE)
    std = compile("v7", "std")
    ids = [a.id for a in ruleset.actions]
    assert ruleset.format.id == "my-std" and ruleset.format.base == "std"
    assert "search" not in ids
    assert ids[-1] == "heal"
    assert len(ids) == len(std.actions)  # one removed, one added
    assert ruleset.action("setBulwark").cost == Cost.NONE
    assert std.action("setBulwark").cost == Cost(("L",))  # the official format is untouched


def test_changed_fields_only(tmp_path: Path) -> None:
    rules = write(tmp_path, "actions:\n  change:\n    up:\n      cost: BB\n      speed: immediate\n")
    changed, official = compile("v7", "my-std", rules).action("up"), compile("v7", "std").action("up")
    assert str(changed.cost) == "BB" and changed.speed is Speed.IMMEDIATE
    assert (changed.name, changed.key, changed.effect) == (official.name, official.key, official.effect)
    assert changed.formats == (*official.formats, "my-std")


def test_added_action_gets_a_matcher(tmp_path: Path) -> None:
    rules = write(
        tmp_path,
        "actions:\n  add:\n    - {id: pair, name: ペア, type: 速攻魔法, section: 魔法系, timing: quick,"
        " speed: normal, key: 同じ数字を2枚, effect: 何もしない。}\n",
    )
    action = compile("v7", "my-std", rules).action("pair")
    assert action.matcher is not None
    assert action.formats == ("my-std",)


def test_characters_can_be_changed(tmp_path: Path) -> None:
    rules = write(tmp_path, "characters:\n  change:\n    ace:\n      attack: not_ready\n")
    assert compile("v7", "my-std", rules).character("ace").attack.value == "not_ready"


def test_base_format_of_overlay_file_compiles_too() -> None:
    assert compile("v7", "std", EXAMPLE).format.id == "std"


def test_errors_point_at_the_overlay(tmp_path: Path) -> None:
    rules = write(tmp_path, "actions:\n  change:\n    up:\n      key: ♡A〜Z\n  remove: [serch]\n")
    with pytest.raises(CompileError) as caught:
        compile("v7", "my-std", rules)
    rendered = [d.render().splitlines()[0] for d in caught.value.diagnostics]
    assert rendered == [f"{rules}:8:15: key '♡A〜Z': unexpected 'Z'; expected a rank (A, 2–10, J, Q, K)"]


def test_link_errors_point_at_the_overlay(tmp_path: Path) -> None:
    rules = write(tmp_path, "actions:\n  remove: [serch]\n")
    with pytest.raises(CompileError) as caught:
        compile("v7", "my-std", rules)
    assert [str(d.location) for d in caught.value.diagnostics] == [f"{rules}:6:12"]


def test_wrong_format_name_is_reported(tmp_path: Path) -> None:
    with pytest.raises(CompileError, match="declares format 'my-std'"):
        compile("v7", "their-std", EXAMPLE)
