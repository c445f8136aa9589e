"""The built-in edition-7 lists: counts, official std wording (seed 003), upstream content."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml
from blackpoker.compiler import compile_edition
from blackpoker.compiler.model import Action, RuleSet, Speed, Timing
from blackpoker.compiler.notation import parse_key
from blackpoker.compiler.pipeline import builtin_path

sys.path.insert(0, str(Path(__file__).parent))
import seed003

EXPECTED = {"lite": (19, 5), "std": (25, 6), "pro": (31, 6), "mast": (37, 6)}
ADDED = {
    "std": {"魔術士召喚", "帰還", "死の槍", "防壁補充", "リアニメイト", "ハンデス"},
    "pro": {"クイック召喚", "再会", "キル", "停戦", "対象変更", "リバース"},
    "mast": {"フォース", "剣の雨", "徴募", "奇襲", "B・J", "R・S・F"},
}
TIMING = {"メイン": Timing.MAIN, "クイック": Timing.QUICK}


@pytest.fixture(scope="module")
def v7() -> dict[str, RuleSet]:
    return compile_edition("v7")


@pytest.mark.parametrize("fmt", EXPECTED)
def test_counts(v7: dict[str, RuleSet], fmt: str) -> None:
    ruleset = v7[fmt]
    assert (len(ruleset.actions), len(ruleset.characters)) == EXPECTED[fmt]


@pytest.mark.parametrize(("fmt", "previous"), [("std", "lite"), ("pro", "std"), ("mast", "pro")])
def test_each_format_adds_exactly_its_actions(v7: dict[str, RuleSet], fmt: str, previous: str) -> None:
    names = {a.name for a in v7[fmt].actions}
    before = {a.name for a in v7[previous].actions}
    assert before <= names
    assert names - before == ADDED[fmt]


def test_reverse_starts_at_pro(v7: dict[str, RuleSet]) -> None:
    assert "reverse" not in {a.id for a in v7["std"].actions}
    assert v7["pro"].action("reverse").formats == ("pro", "mast")
    assert v7["pro"].debut(v7["pro"].action("reverse")).mark == "●"


def test_ids_are_unique_and_english(v7: dict[str, RuleSet]) -> None:
    for ruleset in v7.values():
        ids = [a.id for a in ruleset.actions] + [c.id for c in ruleset.characters]
        assert len(ids) == len(set(ids))
        assert all(re.fullmatch(r"[a-z][A-Za-z0-9]*", i) for i in ids)


# --- std equals the official sheet, seed 003 ------------------------------------------

# Where the extracted sheet is garbled or impossible, the upstream data decides
# (docs/decisions.md). Each exception names the field and why.
SEED_EXCEPTIONS = {
    ("カウンター", "timing"): "the extraction moved its '@クイック | $D' line under ツイスト",
    ("カウンター", "cost"): "the extraction moved its '@クイック | $D' line under ツイスト",
    ("投擲", "key"): "both suits garbled to •",
    ("投擲", "effect"): "the ♠ of the damage sentence garbled to ◆",
    ("死の槍", "effect"): "the sheet names ♣, which the key (♠ と ♢) cannot hold; upstream's ♠ decides",
}


@pytest.fixture(scope="module")
def seed_std(seeds: Path) -> tuple[list[seed003.SeedEntry], list[seed003.SeedEntry]]:
    return seed003.read(seeds / seed003.SEED_NAME)


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


def test_std_has_the_seed_entries_in_order(v7: dict[str, RuleSet], seed_std: tuple) -> None:
    actions, characters = seed_std
    std = v7["std"]
    assert [e.name for e in actions] == [a.name for a in std.actions]
    assert [e.name for e in characters] == [c.name for c in std.characters]
    assert [e.tag for e in actions] == [std.debut(a).id for a in std.actions]


def test_std_actions_match_seed_field_by_field(v7: dict[str, RuleSet], seed_std: tuple) -> None:
    actions, _ = seed_std
    mismatches = []
    for entry in actions:
        ours = _action_fields(next(a for a in v7["std"].actions if a.name == entry.name))
        for field, seed_value in _seed_fields(entry).items():
            if (entry.name, field) in SEED_EXCEPTIONS:
                assert ours[field] != seed_value, f"{entry.name}.{field} now matches: drop the exception"
            elif ours[field] != seed_value:
                mismatches.append(f"{entry.name}.{field}: ours {ours[field]!r} != seed {seed_value!r}")
    assert mismatches == []


def test_std_characters_match_seed(v7: dict[str, RuleSet], seed_std: tuple) -> None:
    _, characters = seed_std
    for entry in characters:
        ours = next(c for c in v7["std"].characters if c.name == entry.name)
        assert ours.type == entry.type
        assert seed003.normalize_notation(str(ours.key)) == seed003.normalize_notation(entry.key)
        assert seed003.normalize_text(ours.ability) == seed003.normalize_text(
            "\n".join(entry.ability or entry.loose)
        )


def test_std_uses_life_not_deck(v7: dict[str, RuleSet]) -> None:
    for action in v7["mast"].actions:
        for text in (action.note, action.target, action.effect):
            assert "デッキ" not in text, action.id


# --- lite / pro / mast content comes from the upstream edition-7 data -----------------


@pytest.fixture(scope="module")
def upstream() -> dict:
    path = Path(__file__).resolve().parents[2] / "shared" / "reference" / "upstream" / "v7-act.yaml"
    if not path.is_file():
        pytest.skip("the shared upstream data (../shared/reference/upstream) is not beside this checkout")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {a["actId"]: a for group in data["actList"] for a in group["acts"]}


def _text(value: str | None) -> str:
    return (value or "").strip().replace("デッキ", "ライフ").replace("。 ", "。")


def test_every_action_agrees_with_upstream(v7: dict[str, RuleSet], upstream: dict) -> None:
    for action in v7["mast"].actions:
        up = upstream[action.id]
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
        upstream_formats = [f for f in up["format"].split(",") if f]
        expected = ["pro", "mast"] if action.id == "reverse" else upstream_formats
        assert list(action.formats) == expected, action.id


def test_every_yaml_file_names_its_schema() -> None:
    for path in [
        builtin_path("v7"),
        *Path(__file__).resolve().parents[1].joinpath("examples").glob("*.yaml"),
    ]:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert match, path
        assert (path.parent / match[1]).resolve().is_file(), match[1]
