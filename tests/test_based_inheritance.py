"""A based edition inherits what its base has: its extra lists and its regulations (frames),
played under the based edition's id, and edits them as data (`extra:`, `regulations:`) as it
edits its actions. Tested on based editions written in a temporary folder; every name is read
from the built-in data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from bad_input_support import invoke, refused
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.compiler.environment import Environment
from blackpoker.site.build import BuildOptions, build_site

ENV = Environment()
# the newest built-in edition that has extra lists and regulations of its own
BASE = next(
    e for e in ENV.builtin_editions() if ENV.builtin_extras(e) and ENV.edition_regulations(ENV.edition(e))
)
LIST = ENV.extras(BASE)[0]
REGULATIONS = ENV.regulations(BASE)


def _based(tmp_path: Path, **edits: Any) -> Path:
    path = tmp_path / "mine.yaml"
    data = {"kind": "edition", "id": "mine", "base": BASE, **edits}
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _line(path: Path, needle: str) -> int:
    return next(
        i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in text
    )


def test_it_plays_its_base_s_lists_and_regulations_under_its_own_id(tmp_path: Path) -> None:
    path = _based(tmp_path)
    env = Environment()
    lists = env.extras(str(path))
    assert [e.id for e in lists] == [e.id for e in ENV.extras(BASE)]
    assert all(e.edition_id == "mine" for e in lists)
    compiled = invoke("compile", "--edition", path, "--format", EXTRA_FORMAT.id, "--extra", LIST.id)
    assert compiled.exit_code == 0, compiled.stderr
    assert json.loads(compiled.stdout)["edition"] == "mine"
    regulations = env.regulations(str(path))
    assert regulations.editions == ("mine",) and [f.id for f in regulations.frames] == [
        f.id for f in REGULATIONS.frames
    ]
    frame = REGULATIONS.frames[0]
    played = frame.formats[0] if frame.formats else REGULATIONS.formats[0].id
    checked = invoke("regulation", "check", f"{played}+{frame.id}", "--edition", path)
    assert checked.exit_code == 0, checked.stderr
    # the base's list file is this edition's too
    by_file = invoke("compile", "--edition", path, "--format", EXTRA_FORMAT.id, "--extra", LIST.doc.path)
    assert by_file.exit_code == 0, by_file.stderr


def test_it_edits_the_trumps_and_actions_of_the_list_it_inherits(tmp_path: Path) -> None:
    kept, gone = LIST.trumps[0], LIST.trumps[-1]
    action = next(a for t in LIST.trumps for a in t.actions if a.program and a.speed.value == "normal")
    path = _based(
        tmp_path,
        extra={
            "title": "改訂",
            "trumps": {"change": {f"{kept.suit}{kept.number}": {"name": "改名"}}, "remove": [gone.name]},
            "actions": {"change": {action.id: {"speed": "immediate"}}},
        },
    )
    (edited, *others) = Environment().extras(str(path))
    assert (edited.id, edited.title) == ("mine", "改訂")
    assert [e.id for e in others] == [e.id for e in ENV.extras(BASE)[1:]]
    assert edited.trumps[0].name == "改名" and gone.id not in {t.id for t in edited.trumps}
    changed = next(a for _, a in edited.actions() if a.id == action.id)
    assert changed.speed.value == "immediate" and changed.program == action.program
    rules = Environment().compile(str(path), EXTRA_FORMAT.id)
    assert rules.action(action.id).speed.value == "immediate"


def test_it_edits_the_regulations_it_inherits(tmp_path: Path) -> None:
    first, *rest = REGULATIONS.frames
    copy = {k: v for k, v in REGULATIONS.doc.data["frames"][0].items() if k != "id"}
    path = _based(
        tmp_path,
        regulations={
            "id": "mine",
            "title": "わたしの枠",
            "frames": {"add": [{**copy, "id": "copied", "name": "コピー"}], "remove": [rest[0].id]},
        },
    )
    regulations = Environment().regulations(str(path))
    assert (regulations.id, regulations.title, regulations.editions) == ("mine", "わたしの枠", ("mine",))
    ids = [f.id for f in regulations.frames]
    assert ids == [first.id, *(f.id for f in rest[1:]), "copied"]
    assert invoke("validate", path).exit_code == 0


def test_problems_of_its_edits_are_reported_at_once_in_its_own_file(tmp_path: Path) -> None:
    path = _based(
        tmp_path,
        extra={"trumps": {"remove": ["無い切札"]}},
        regulations={"frames": {"remove": ["noSuchFrame"]}},
    )
    result = refused(invoke("validate", path))
    for needle in ("無い切札", "noSuchFrame"):
        assert f"{path}:{_line(path, needle)}:" in result.stderr, result.stderr


def test_regulations_on_a_base_without_regulations_are_refused_at_the_key(tmp_path: Path) -> None:
    without = next(
        (e for e in ENV.builtin_editions() if ENV.edition_regulations(ENV.edition(e)) is None), None
    )
    if without is None:
        pytest.skip("every built-in edition has regulations")
    path = tmp_path / "mine.yaml"
    path.write_text(
        yaml.safe_dump({"kind": "edition", "id": "mine", "base": without, "regulations": {"title": "x"}}),
        encoding="utf-8",
    )
    result = refused(invoke("validate", path))
    assert f"{path}:{_line(path, 'regulations:')}:1: regulations: {without} has no regulations to edit" in (
        result.stderr
    )


def test_its_build_has_extra_and_regulations_pages(tmp_path: Path) -> None:
    path = _based(tmp_path)
    out = tmp_path / "site"
    result = build_site(BuildOptions(out, (str(path),), ("extra", "regulations"), html_only=True))
    assert [page.extra.id for page in result.extras] == [e.id for e in ENV.extras(BASE)]
    assert all(page.edition == "mine" for page in result.extras)
    assert len(result.regulations) == 1 and (out / result.regulations[0].path).is_file()
    assert all((out / page.path).is_file() for page in result.extras)


def test_its_sheets_mark_what_it_changes_against_its_base_as_overlays_do(tmp_path: Path) -> None:
    format_id = ENV.edition(BASE).edition.formats[0].id
    ruleset = ENV.compile(BASE, format_id)
    changed, kept = ruleset.actions[0], ruleset.actions[1]
    path = _based(tmp_path, actions={"change": {changed.id: {"name": "改名した"}}})
    out = tmp_path / "site"
    result = build_site(BuildOptions(out, (str(path),), (format_id,), html_only=True))
    html = (out / result.pages[0].path).read_text(encoding="utf-8")
    head = html.split(f'id="action-{changed.id}"')[1].split("</div>")[0]
    assert "改名した" in head and '<span class="house-change">変更</span>' in head
    untouched = html.split(f'id="action-{kept.id}"')[1].split("</div>")[0]
    assert "house-change" not in untouched
    official = tmp_path / "official"
    build_site(BuildOptions(official, (BASE,), (format_id,), html_only=True))
    assert "house-change" not in (official / BASE / f"{format_id}.html").read_text(encoding="utf-8")
