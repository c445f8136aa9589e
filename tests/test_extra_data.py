"""Extra lists (切札): the built-in files, their validation and their import from upstream.

Every expectation about an extra list is read from the upstream files in
../shared/reference/upstream or from the registry of built-in editions, never written here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from bad_input_support import invoke, located
from blackpoker.compiler.documents.extra import ExtraSource
from blackpoker.compiler.environment import Environment
from editions_support import UPSTREAM, read_upstream

ENV = Environment()
BUILTIN = [(e, path) for e in ENV.builtin_editions() for path in ENV.builtin_extras(e)]


def upstream_extras() -> list[str]:
    """The upstream files that are extra lists (they have an abiList)."""
    return [p.name for p in sorted(UPSTREAM.glob("*.yaml")) if "abiList" in read_upstream(p.name)]


def shipped(name: str) -> Path:
    """The built-in file imported from upstream list `name` (its id is the list's version)."""
    version = read_upstream(name)["data"]["v"]
    return next(path for _, path in BUILTIN if path.stem == f"v{version}")


def test_every_upstream_extra_list_ships_built_in() -> None:
    names = upstream_extras()
    if not names:
        pytest.skip("the shared upstream data is not beside this checkout")
    assert {shipped(name) for name in names} <= {path for _, path in BUILTIN}


@pytest.mark.parametrize(("edition", "path"), BUILTIN, ids=[p.stem for _, p in BUILTIN])
def test_builtin_extra_lists_are_valid_and_name_their_edition(edition: str, path: Path) -> None:
    count, problems = ENV.check_paths([path])
    assert (count, problems) == (1, [])
    source, _ = ENV.read(path)
    assert isinstance(source, ExtraSource)
    assert source.edition_id == edition


def test_validate_checks_the_extra_lists_by_default() -> None:
    result = invoke("validate")
    assert result.exit_code == 0, result.stderr
    expected = len(ENV.builtin_editions()) + len(BUILTIN)
    assert f"{expected} files checked" in result.stderr


@pytest.mark.parametrize("name", ["extra.yaml", "v7-extra.yaml", "v6-extra.yaml"])
def test_the_shipped_file_holds_every_upstream_ability_and_action(name: str) -> None:
    upstream = read_upstream(name)
    source, problems = ENV.read(shipped(name))
    assert problems == [] and isinstance(source, ExtraSource)
    for raw in upstream["abiList"]:
        suit = {"s": "♠", "h": "♡", "d": "♢", "c": "♣"}[raw["suit"]]
        trump = source.trump_at(suit, str(raw["num"]))
        if "name" not in raw:  # a card without an ability has no entry
            assert trump is None
            continue
        assert trump is not None, (suit, raw["num"])
        assert (trump.name, trump.ability) == (raw["name"], _text(raw["ability"]))
        assert trump.beta == (raw.get("beta") == "●")
        assert [(a.name, a.effect) for a in trump.actions] == [
            (a["actName"], _text(a["actEffect"])) for a in raw.get("acts") or ()
        ]
        assert [c.name for c in trump.characters] == [c["charName"] for c in raw.get("chars") or ()]
    cards = [(t.suit, t.number) for t in source.trumps]
    assert len(cards) == len(set(cards)) == sum("name" in raw for raw in upstream["abiList"])
    operations = [a for group in upstream["actList"] for a in group["acts"]]
    assert [(a.id, a.name, a.effect) for a in source.operations] == [
        (a["actId"], a["actName"], _text(a["actEffect"])) for a in operations
    ]


def _text(value: Any) -> str:
    return "\n".join(line.rstrip() for line in str(value).strip().splitlines())


@pytest.mark.parametrize("name", ["extra.yaml", "v7-extra.yaml", "v6-extra.yaml"])
def test_import_reproduces_the_shipped_file(tmp_path: Path, name: str) -> None:
    read_upstream(name)
    result = invoke("import", UPSTREAM / name, "--out", tmp_path)
    assert result.exit_code == 0, result.stderr
    target = shipped(name)
    assert (tmp_path / target.name).read_text(encoding="utf-8") == target.read_text(encoding="utf-8")


def test_import_locates_an_unreadable_cost_in_the_upstream_file(tmp_path: Path) -> None:
    text = (UPSTREAM / "extra.yaml").read_text(encoding="utf-8") if UPSTREAM.is_dir() else ""
    if not text:
        pytest.skip("the shared upstream data is not beside this checkout")
    lines = text.splitlines()
    line = next(i for i, value in enumerate(lines) if value.strip() == "actCost: BL")
    lines[line] = lines[line].replace("BL", "BX")
    broken = tmp_path / "extra.yaml"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    column = lines[line].index("BX") + 2  # the X
    located(invoke("import", broken, "--out", tmp_path / "out"), str(broken), line + 1, column, "actCost")


# --- located errors of a broken extra file ------------------------------------------------


def broken(tmp_path: Path, edit: Any, having: Any = lambda data: True) -> tuple[Path, str]:
    """A copy of the newest built-in extra list (that has what `having` looks for) changed by
    `edit` (on its data), and its text."""
    lists = [yaml.safe_load(path.read_text(encoding="utf-8")) for _, path in BUILTIN]
    data = next(d for d in lists if having(d))
    edit(data)
    path = tmp_path / f"{data['id']}.yaml"
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    path.write_text(text, encoding="utf-8")
    return path, text


def line_of(text: str, needle: str, start: int = 0) -> tuple[int, int]:
    """1-based line and column of the first `needle` at or after line index `start`."""
    lines = text.splitlines()
    for i in range(start, len(lines)):
        if needle in lines[i]:
            return i + 1, lines[i].index(needle) + 1
    raise AssertionError(needle)


def test_an_unknown_suit_is_located(tmp_path: Path) -> None:
    path, text = broken(tmp_path, lambda d: d["trumps"][0].update(suit="♤"))
    line, col = line_of(text, "suit: ♤")
    located(invoke("validate", path), str(path), line, col + len("suit: "), "suit")


def test_an_unknown_number_is_located(tmp_path: Path) -> None:
    path, text = broken(tmp_path, lambda d: d["trumps"][0].update(number="14"))
    line, col = line_of(text, "number: '14'")
    located(invoke("validate", path), str(path), line, col + len("number: "), "expected one of")


def test_a_card_given_two_abilities_is_located(tmp_path: Path) -> None:
    def twice(data: dict[str, Any]) -> None:
        first = data["trumps"][0]
        data["trumps"][1].update(suit=first["suit"], number=first["number"])

    path, text = broken(tmp_path, twice)
    second = line_of(text, "- suit:")[0]
    line, col = line_of(text, "number:", line_of(text, "- suit:", second)[0] - 1)
    located(invoke("validate", path), str(path), line, col + len("number: "), "twice")


def test_an_ability_action_missing_a_field_is_located(tmp_path: Path) -> None:
    def drop(data: dict[str, Any]) -> None:
        trump = next(t for t in data["trumps"] if t.get("actions"))
        del trump["actions"][0]["timing"]

    path, text = broken(tmp_path, drop)
    start = line_of(text, "actions:", line_of(text, "trumps:")[0])[0]
    line, col = line_of(text, "- id:", start)
    located(invoke("validate", path), str(path), line, col + 2, "missing required key 'timing'")


def test_a_program_naming_an_unknown_primitive_is_located(tmp_path: Path) -> None:
    def program(data: dict[str, Any]) -> None:
        trump = next(t for t in data["trumps"] if t.get("actions"))
        trump["actions"][0]["program"] = [{"summon_dragon": {"player": "you"}}]

    path, text = broken(tmp_path, program)
    line, col = line_of(text, "summon_dragon")
    located(invoke("validate", path), str(path), line, col, "summon_dragon")


def test_a_program_requesting_an_unknown_action_is_located(tmp_path: Path) -> None:
    def program(data: dict[str, Any]) -> None:
        trump = next(t for t in data["trumps"] if t.get("actions"))
        trump["actions"][0]["program"] = [{"request": "noSuchAction"}]

    path, text = broken(tmp_path, program)
    line, col = line_of(text, "noSuchAction")
    located(invoke("validate", path), str(path), line, col, "unknown action 'noSuchAction'")


def test_an_action_type_neither_the_edition_nor_the_list_declares_is_located(tmp_path: Path) -> None:
    path, text = broken(tmp_path, lambda d: d.pop("action_types"))
    source, _ = ENV.read(BUILTIN[0][1])
    assert isinstance(source, ExtraSource) and source.action_types
    line, col = line_of(text, f"type: {source.action_types[0]}")
    located(invoke("validate", path), str(path), line, col + len("type: "), "unknown action type")


def _summoned(data: dict[str, Any]) -> dict[str, Any]:
    """The first character of the list that the extra format plays (it has an id)."""
    return next(c for t in data["trumps"] for c in t.get("characters", ()) if "id" in c)


def test_a_character_naming_an_unknown_action_is_located(tmp_path: Path) -> None:
    def untargetable(data: dict[str, Any]) -> None:
        _summoned(data)["untargetable_by"] = ["noSuchAction"]

    path, text = broken(tmp_path, untargetable)
    line, col = line_of(text, "noSuchAction")
    located(invoke("validate", path), str(path), line, col, "untargetable_by: unknown action 'noSuchAction'")


def test_a_character_with_an_id_but_no_combat_rule_is_located(tmp_path: Path) -> None:
    def drop(data: dict[str, Any]) -> None:
        del _summoned(data)["combat"]

    path, text = broken(tmp_path, drop)
    line, col = line_of(text, "- name:", line_of(text, "characters:")[0])
    located(invoke("validate", path), str(path), line, col + 2, "missing required key 'combat'")


def test_a_character_number_that_is_no_integer_is_located(tmp_path: Path) -> None:
    def number(data: dict[str, Any]) -> None:
        _summoned(data)["number"] = "eleven"

    path, text = broken(tmp_path, number)
    line, col = line_of(text, "number: eleven")
    result = invoke("validate", path)
    located(result, str(path), line, col + len("number: "), "number: expected a whole number")
    assert "unknown key" not in result.stderr  # the entry's other keys are fine


def test_a_character_reusing_an_edition_character_id_is_located(tmp_path: Path) -> None:
    edition = ENV.edition(yaml.safe_load(BUILTIN[0][1].read_text(encoding="utf-8"))["edition"])
    taken = edition.characters[0].id

    def reuse(data: dict[str, Any]) -> None:
        _summoned(data)["id"] = taken

    path, text = broken(tmp_path, reuse)
    line, col = line_of(text, f"id: {taken}", line_of(text, "characters:")[0])
    located(invoke("validate", path), str(path), line, col + len("id: "), "already a character")


def test_a_character_action_caused_by_an_unknown_character_is_located(tmp_path: Path) -> None:
    def acting(data: dict[str, Any]) -> list[dict[str, Any]]:
        return [c for t in data["trumps"] for c in t.get("characters", ()) if c.get("actions")]

    def cause(data: dict[str, Any]) -> None:
        acting(data)[0]["actions"][0]["caused_by"] = {"kind": "noSuchCharacter"}

    path, text = broken(tmp_path, cause, acting)
    line, col = line_of(text, "kind: noSuchCharacter")
    message = "caused_by.kind: unknown character 'noSuchCharacter'"
    located(invoke("validate", path), str(path), line, col + len("kind: "), message)
