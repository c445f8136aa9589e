"""A local rule on the extra format (`base: extra`, `trumps: {add, change, remove}`): the
example examples/my-extra.yaml through compile, build, simulate and --compare, and an
overlay on an extra list file of its own. Every trump and id is read from the files."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import yaml
from bad_input_support import invoke, located
from blackpoker.compiler.documents.extra import EXTRA_FORMAT, TRUMP_ZONE
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.rules.program import All, FaceUp

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "my-extra.yaml"
DATA: dict[str, Any] = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
ADDED = DATA["trumps"]["add"]
CHANGED = DATA["trumps"]["change"]
REMOVED = DATA["trumps"]["remove"]
TINY = ROOT / "tests" / "overlay-errors" / "bases" / "tiny.yaml"  # a small extra list


def _card(trump: dict[str, Any]) -> str:
    return f"{trump['suit']}{trump['number']}"


def test_the_overlay_compiles_to_its_own_format_with_the_trumps_edited() -> None:
    env = Environment()
    rules = env.compile(DATA["edition"], DATA["name"], EXAMPLE)
    official = env.compile(DATA["edition"], EXTRA_FORMAT.id)
    assert (rules.format.id, rules.format.base) == (DATA["name"], EXTRA_FORMAT.id)
    assert rules.setup == official.setup  # the trumps are still placed before the game
    by_id = {t.id: t for t in rules.trumps}
    assert not set(REMOVED) & set(by_id)
    removed_actions = {a for t in official.trumps if t.id in REMOVED for a in (*t.actions, *t.pending)}
    assert not removed_actions & {a.id for a in rules.actions}
    for trump in ADDED:
        rule = by_id[trump["id"]]
        assert (str(rule.card), rule.name) == (_card(trump), trump["name"])
        assert rule.actions == tuple(a["id"] for a in trump["actions"])
        for action in trump["actions"]:
            requires = rules.action(action["id"]).requires
            assert requires is not None and isinstance(requires.cond, All)
            assert FaceUp(zone=TRUMP_ZONE.id, card=rule.card) in requires.cond.items  # on while face up
    for fields in CHANGED.values():
        for action in fields["actions"]:
            assert rules.action(action["id"]).effect == action["effect"]
            assert rules.action(action["id"]).effect != official.action(action["id"]).effect
    for action_id, fields in DATA["actions"]["change"].items():
        changed = next(a for a in rules.actions if action_id in (a.id, a.name))
        assert str(changed.cost) == fields["cost"]


def test_compile_validate_and_build_through_the_commands(tmp_path: Path) -> None:
    assert invoke("validate", EXAMPLE).exit_code == 0
    result = invoke("compile", "--rules", EXAMPLE)
    assert result.exit_code == 0, result.output
    cards = {t["card"] for t in json.loads(result.stdout)["trumps"]}
    assert {_card(t) for t in ADDED} <= cards
    out = tmp_path / "site"
    result = invoke("build", "--html-only", "--out", out, "--rules", EXAMPLE)
    assert result.exit_code == 0, result.output
    sheet = (out / DATA["edition"] / f"extra-{DATA['name']}.html").read_text(encoding="utf-8")
    assert all(t["name"] in sheet and t["ability"] in sheet for t in ADDED)
    assert all(a["effect"] in sheet for fields in CHANGED.values() for a in fields["actions"])
    assert (out / DATA["edition"] / f"{DATA['name']}.html").is_file()  # the format's own sheet
    index = (out / "index.html").read_text(encoding="utf-8")
    assert f"extra-{DATA['name']}.html" in index


def test_the_extra_sheet_marks_the_trumps_the_local_rule_adds_and_changes(tmp_path: Path) -> None:
    out = tmp_path / "site"
    result = invoke("build", "--html-only", "--out", out, "--rules", EXAMPLE, "--format", DATA["name"])
    assert result.exit_code == 0, result.output
    sheet = (out / DATA["edition"] / f"extra-{DATA['name']}.html").read_text(encoding="utf-8")
    official = Environment().compile(DATA["edition"], EXTRA_FORMAT.id).trumps
    ids = {ref: t.id for t in official for ref in (t.id, t.name, str(t.card))}
    expected = {t["id"]: ["追加"] for t in ADDED} | {ids[ref]: ["変更"] for ref in CHANGED}
    headings = re.findall(r'<h3 id="trump-(\w+)-name">(.*?)</h3>', sheet)
    marks = {trump: re.findall(r'<span class="house-change">(\S+)</span>', text) for trump, text in headings}
    assert set(expected) < set(marks)
    assert marks == {trump: expected.get(trump, []) for trump in marks}


def test_simulate_reports_the_new_trump_and_compares_with_the_official_list() -> None:
    result = invoke("simulate", "--rules", EXAMPLE, "-n", "4", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    rows = {r["card"]: r for r in json.loads(result.stdout)["trumps"]}
    assert {_card(t) for t in ADDED} <= set(rows)
    result = invoke("simulate", "--compare", EXTRA_FORMAT.id, EXAMPLE, "-n", "4", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [side["format"] for side in data["compare"]] == [EXTRA_FORMAT.id, DATA["name"]]
    assert {_card(t) for t in ADDED} <= {r["card"] for r in data["compare"][1]["trumps"]}
    compared = data["differences"]["trumps"]
    assert any(d is not None for t in compared.values() for d in t.values())  # both have most
    official = {t.id: str(t.card) for t in Environment().compile(DATA["edition"], EXTRA_FORMAT.id).trumps}
    one_side = [_card(t) for t in ADDED] + [official[t] for t in REMOVED]
    assert all(compared[card] == {"opened": None, "owner_wins": None} for card in one_side)  # shown, untested
    text = invoke("simulate", "--compare", EXTRA_FORMAT.id, EXAMPLE, "-n", "4", "--seed", "1").stdout
    assert all(f"{_card(t)} {t['name']}" in text for t in ADDED)


def _overlay(folder: Path, trumps: str) -> Path:
    shutil.copy(TINY, folder / TINY.name)
    path = folder / "house.yaml"
    header = f"kind: overlay\nname: house\nedition: {DATA['edition']}\nbase: extra\nextra: {TINY.name}\n"
    path.write_text(header + trumps, encoding="utf-8")
    return path


def test_an_overlay_starts_from_the_extra_list_file_it_names(tmp_path: Path) -> None:
    tiny: dict[str, Any] = yaml.safe_load(TINY.read_text(encoding="utf-8"))
    first = tiny["trumps"][0]  # changed by its card
    path = _overlay(tmp_path, f"trumps:\n  change:\n    {_card(first)}: {{name: 改名}}\n")
    rules = Environment().compile(DATA["edition"], "house", path)
    assert (rules.trumps[0].id, rules.trumps[0].name) == (first["id"], "改名")
    assert len(rules.trumps) == len(tiny["trumps"])


def test_a_removed_trump_that_the_list_still_needs_is_refused_at_the_removal(tmp_path: Path) -> None:
    tiny: dict[str, Any] = yaml.safe_load(TINY.read_text(encoding="utf-8"))
    needed = tiny["trumps"][1]  # its action is requested by the first trump's; removed by name
    path = _overlay(tmp_path, f"trumps:\n  remove: [{needed['name']}]\n")
    located(invoke("compile", "--rules", path), str(path), 7, 12, f"cannot remove '{needed['id']}'")


def test_diff_lists_the_trumps_added_and_removed_against_the_list_it_starts_from() -> None:
    result = invoke("diff", DATA["edition"], EXAMPLE)
    assert result.exit_code == 0, result.output
    official = {t.id: t for t in Environment().compile(DATA["edition"], EXTRA_FORMAT.id).trumps}
    assert all(f"+ {t['id']} {t['name']}" in result.stdout for t in ADDED)
    assert all(f"- {t} {official[t].name}" in result.stdout for t in REMOVED)


def test_a_local_rule_on_an_extra_based_one_edits_that_ones_trumps(tmp_path: Path) -> None:
    shutil.copy(EXAMPLE, tmp_path / EXAMPLE.name)
    new = ADDED[0]  # renamed by its printed name
    path = tmp_path / "more.yaml"
    path.write_text(
        f"kind: overlay\nname: more\nedition: {DATA['edition']}\nbase: {EXAMPLE.name}\n"
        f"trumps:\n  change:\n    {new['name']}: {{name: 改名}}\n",
        encoding="utf-8",
    )
    env = Environment()
    rules = env.compile(DATA["edition"], "more", path)
    under = env.compile(DATA["edition"], DATA["name"], EXAMPLE)
    assert rules.format.base == DATA["name"]
    assert [(t.id, t.name) for t in rules.trumps if t.id == new["id"]] == [(new["id"], "改名")]
    assert {t.id for t in rules.trumps} == {t.id for t in under.trumps}
    assert {a.id: a.cost for a in rules.actions} == {a.id: a.cost for a in under.actions}  # its edits kept
    house = env.house_extra(path)
    assert house is not None and house.id == "more"
    assert (
        env.compile(DATA["edition"], EXTRA_FORMAT.id, path).trumps
        == env.compile(DATA["edition"], EXTRA_FORMAT.id).trumps
    )  # the official list the chain starts from


def test_a_local_rule_on_a_borrowing_list_keeps_what_the_list_borrows(tmp_path: Path) -> None:
    env = Environment()
    borrowing = [
        (edition, path.stem, data)
        for edition in env.builtin_editions()
        for path in env.builtin_extras(edition)
        if "programs_from" in (data := yaml.safe_load(path.read_text(encoding="utf-8")))
    ]
    assert borrowing  # some built-in list borrows its programs
    for edition, list_id, data in borrowing:
        first = data["trumps"][0]  # renamed only: it still prints alike, so it still borrows
        path = tmp_path / f"{list_id}.yaml"
        path.write_text(
            f"kind: overlay\nname: house\nedition: {edition}\nbase: extra\nextra: {list_id}\n"
            f"trumps:\n  change:\n    {_card(first)}: {{name: 改名}}\n",
            encoding="utf-8",
        )
        rules = env.compile(edition, "house", path)
        official = env.compile(edition, EXTRA_FORMAT.id, extra=list_id)
        assert (rules.trumps[0].id, rules.trumps[0].name) == (first["id"], "改名")
        programs = {a.id: a.program for a in rules.actions}
        assert programs == {a.id: a.program for a in official.actions}
        assert all(programs.values())
