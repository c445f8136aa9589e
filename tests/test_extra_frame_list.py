"""The trump list of a regulations' frame that no edition plays (9.0's, upstream's trumpList in
act-frame.yaml): shipped as an extra file that names its regulations and why it cannot be
played, imported from upstream, validated, and refused by compile, simulate and play with that
reason at its place. Every expectation is read from the upstream file, the registry or the
importer's vocabulary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bad_input_support import invoke, located
from blackpoker.compiler.documents.extra import EXTRA_FORMAT, ExtraSource
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.pipeline import display
from blackpoker.compiler.upstream.vocabulary import vocabulary
from editions_support import UPSTREAM, read_upstream

ENV = Environment()
(LIST,) = ENV.frame_extras()
WORDS = vocabulary()


def _upstream() -> tuple[str, dict[str, Any]]:
    name = next(
        (p.name for p in sorted(UPSTREAM.glob("*.yaml")) if "trumpList" in read_upstream(p.name)), None
    )
    if name is None:
        pytest.skip("the shared upstream data is not beside this checkout")
    return name, read_upstream(name)


def _source() -> ExtraSource:
    source, problems = ENV.read(LIST)
    assert problems == [] and isinstance(source, ExtraSource)
    return source


def _text(value: Any) -> str:
    return "\n".join(line.rstrip() for line in str(value).strip().splitlines())


def test_the_shipped_list_holds_every_trump_with_its_actions_and_characters() -> None:
    _, upstream = _upstream()
    source = _source()
    acts = {g["type"]: g["acts"] for g in upstream["actList"]}
    chars = {g["type"]: g["chars"] for g in upstream["charList"]}
    cards = [g for g in upstream["trumpList"] if g["trumps"][0]["trumpType"] != WORDS.face_down_trump]
    assert len(source.trumps) == len(cards) < len(upstream["trumpList"])
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


def test_it_names_regulations_not_an_edition_and_validates() -> None:
    source = _source()
    assert source.edition_id is None and source.regulations and source.unplayable
    assert ENV.check_paths([LIST]) == (1, [])
    result = invoke("validate")
    assert result.exit_code == 0, result.stderr
    every = len(ENV.builtin_editions()) + sum(len(ENV.builtin_extras(e)) for e in ENV.builtin_editions())
    assert f"{every + 1} files checked" in result.stderr


def test_import_reproduces_the_shipped_file(tmp_path: Path) -> None:
    name, _ = _upstream()
    result = invoke("import", UPSTREAM / name, "--out", tmp_path)
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / LIST.name).read_text(encoding="utf-8") == LIST.read_text(encoding="utf-8")


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


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("\nregulations: ", "\nregulations: no"), "unknown regulations"),
        (lambda t: "\n".join(x for x in t.splitlines() if not x.startswith("unplayable:")), "'unplayable'"),
    ],
)
def test_a_broken_frame_list_is_located(tmp_path: Path, edit: Any, message: str) -> None:
    path = tmp_path / LIST.name
    path.write_text(edit(LIST.read_text(encoding="utf-8")), encoding="utf-8")
    result = invoke("validate", path)
    assert result.exit_code == 1 and f"{path}:" in result.stderr and message in result.stderr, result.stderr


@pytest.mark.parametrize("command", ["compile", "simulate", "play"])
def test_playing_it_is_refused_with_its_reason_at_its_place(command: str) -> None:
    edition = next(e for e in ENV.builtin_editions() if ENV.builtin_extras(e))
    result = invoke(command, "--edition", edition, "--format", EXTRA_FORMAT.id, "--extra", LIST, stdin="q\n")
    source = _source()
    line = next(
        i
        for i, t in enumerate(LIST.read_text(encoding="utf-8").splitlines(), 1)
        if t.startswith("unplayable:")
    )
    reason = f"cannot be played yet: {source.unplayable}"
    located(result, display(LIST), line, len("unplayable: ") + 1, reason)
