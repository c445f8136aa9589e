"""A frame list's trump list (upstream's trumpList, act-frame.yaml): shipped as the
extra list of its edition, imported from the newest upstream copy, with a program for every
action. Every expectation is read from the upstream file, the registry or the importer's
vocabulary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bad_input_support import invoke, located
from blackpoker.compiler.documents.extra import ExtraSource
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.upstream.vocabulary import vocabulary
from editions_support import UPSTREAM, newest_upstream, read_upstream

ENV = Environment()
WORDS = vocabulary()


def _upstream() -> tuple[str, dict[str, Any]]:
    names = newest_upstream("trumpList")
    if not names:
        pytest.skip("the shared upstream data is not beside this checkout")
    (name,) = names
    return name, read_upstream(name)


def _shipped() -> Path:
    """The built-in list imported from the trump list: the one of its title."""
    _, upstream = _upstream()
    paths = [p for e in ENV.builtin_editions() for p in ENV.builtin_extras(e)]
    (path,) = [p for p in paths if _source(p).title == upstream["data"]["ver"]]
    return path


def _source(path: Path) -> ExtraSource:
    source, problems = ENV.read(path)
    assert problems == [] and isinstance(source, ExtraSource)
    return source


def _text(value: Any) -> str:
    return "\n".join(line.rstrip() for line in str(value).strip().splitlines())


def test_the_shipped_list_holds_every_trump_with_its_actions_and_characters() -> None:
    _, upstream = _upstream()
    source = _source(_shipped())
    acts = {g["type"]: g["acts"] for g in upstream["actList"]}
    chars = {g["type"]: g["chars"] for g in upstream["charList"]}
    cards = [g for g in upstream["trumpList"] if g["trumps"][0]["trumpType"] != WORDS.face_down_trump]
    assert len(source.trumps) == len(cards) < len(upstream["trumpList"])
    assert source.published == upstream["data"]["lastupdate"]
    for group in cards:
        raw = group["trumps"][0]
        trump = source.trump_at(raw["trumpKey"][:1], raw["trumpKey"][1:])
        assert trump is not None, raw["trumpKey"]
        assert (trump.id, trump.name, trump.ability) == (
            raw["trumpId"],
            raw["trumpName"],
            _text(raw["trumpAbility"]),
        )
        assert [(a.id, a.name, a.effect, a.unit) for a in trump.actions] == [
            (a["actId"], a["actName"], _text(a["actEffect"]), _text(a.get("actUnit", "")))
            for a in acts.get(group["type"], ())
        ]
        assert [c.name for c in trump.characters] == [c["charName"] for c in chars.get(group["type"], ())]
    assert [(a.id, a.name) for a in source.operations] == [
        (a["actId"], a["actName"]) for a in acts[WORDS.trump_operations]
    ]


def test_it_plays_with_its_edition_and_every_action_has_a_program() -> None:
    source = _source(_shipped())
    assert source.edition_id in ENV.builtin_editions()
    assert ENV.check_paths([_shipped()]) == (1, [])
    assert all(action.program for _, action in source.actions())
    ruleset = ENV.compile(source.edition_id, "extra", extra=source.id)
    assert all(not trump.pending for trump in ruleset.trumps)
    assert {a.id for _, a in source.actions() if a is not source.setup} <= {a.id for a in ruleset.actions}


def test_import_reproduces_the_shipped_file(tmp_path: Path) -> None:
    name, _ = _upstream()
    result = invoke("import", UPSTREAM / name, "--out", tmp_path)
    assert result.exit_code == 0, result.stderr
    shipped = _shipped()
    assert (tmp_path / shipped.name).read_text(encoding="utf-8") == shipped.read_text(encoding="utf-8")


def test_import_locates_a_trump_key_that_names_no_card(tmp_path: Path) -> None:
    name, upstream = _upstream()
    key = next(g["trumps"][0]["trumpKey"] for g in upstream["trumpList"])
    lines = (UPSTREAM / name).read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines) if text.strip() == f"trumpKey: {key}")
    lines[line] = lines[line].replace(key, "♤A")
    broken = tmp_path / name
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    column = lines[line].index("♤A") + 1
    located(invoke("import", broken, "--out", tmp_path / "out"), str(broken), line + 1, column, "trumpKey")
