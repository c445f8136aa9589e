"""`scenario run`: every broken scenario is a located problem, and the others still run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bad_input_support import invoke
from blackpoker.compiler import compile
from blackpoker.compiler.cards import full_deck
from blackpoker.compiler.matcher import compile_matcher
from blackpoker.compiler.model import Face

BASE = (Path(__file__).resolve().parents[1] / "scenarios" / "lite" / "counter-chain.yaml").read_text(
    encoding="utf-8"
)
SOLDIER = "field: [{as: soldier, cards: [♣4]}]"
EXPECT = BASE[BASE.index("expect:") :]


def _refused_card() -> tuple[str, str]:
    """A face-up character of the scenario's format and one card its key does not take."""
    edition, fmt = (re.search(rf"^{key}: (\S+)$", BASE, re.MULTILINE) for key in ("edition", "format"))
    assert edition is not None and fmt is not None
    rules = compile(edition.group(1), fmt.group(1))
    return next(
        (c.id, str(card))
        for c in rules.characters
        if c.face is Face.UP
        for card in full_deck()
        if not compile_matcher(c.key).matches([card])
    )


KIND, CARD = _refused_card()

# name -> (replace, with, expected message part). Each is wrong in one way only.
BROKEN = {
    "unknown-character": (SOLDIER, "field: [{as: dragon, cards: [♣4]}]", "as: 'dragon' is not a character"),
    "out-of-format": (
        SOLDIER,
        "field: [{as: magician, cards: [Joker]}]",
        "as: 'magician' is not a character",
    ),
    "two-card-bulwark": (SOLDIER, "field: [{as: bulwark, cards: [♣4, ♣5]}]", "a bulwark cannot be"),
    "face-down-soldier": (SOLDIER, "field: [{as: soldier, cards: [♣4], face: down}]", "always face up"),
    "impossible-pair": (SOLDIER, "field: [{as: soldier, cards: [♣A, ♣K]}]", "a soldier cannot be ♣A+♣K"),
    "impossible-card": (SOLDIER, f"field: [{{as: {KIND}, cards: [{CARD}]}}]", f"a {KIND} cannot be {CARD}"),
    "refused-no-player": ('  - "p2: pass"   # ダウン', "  - {refused: x}   #", "give exactly one of p1, p2"),
    "two-players": (
        '  - "p2: pass"   # ダウン',
        "  - {p1: pass, p2: pass}   #",
        "give exactly one of p1, p2",
    ),
    "life-too-large": ("p2: {life: 10,", "p2: {life: 60,", "life: 60 cards, but p2 has only"),
    "bad-expect-card": ("hand: [], graveyard: [♢2", "hand: [♣Z], graveyard: [♢2", "♣Z"),
    "empty-expect": (EXPECT, "expect: {}\n", "expect: checks nothing"),
    "empty-player-expect": (EXPECT, "expect: {p1: {}}\n", "expect: checks nothing"),
}


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    Path("s").mkdir()
    Path("s", "good.yaml").write_text(BASE, encoding="utf-8")
    for name, (old, new, _) in BROKEN.items():
        assert old in BASE, name
        Path("s", f"{name}.yaml").write_text(BASE.replace(old, new, 1), encoding="utf-8")
    return Path("s")


def test_every_broken_scenario_is_located_and_the_good_one_runs(folder: Path) -> None:
    result = invoke("scenario", "run", folder)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert result.exit_code == 1
    assert "PASS  s/good.yaml" in result.stdout
    assert f"1 passed, {len(BROKEN)} failed" in result.stdout
    for name, (_, _, message) in BROKEN.items():
        output = (result.stderr + result.stdout).splitlines()
        lines = [line.strip() for line in output if line.strip().startswith(f"s/{name}.yaml:")]
        assert any(re.match(r"s/[\w-]+\.yaml:\d+:\d+: ", line) and message in line for line in lines), (
            name,
            result.stderr,
        )


def test_the_shipped_scenarios_all_load(tmp_path: Path) -> None:
    shipped = Path(__file__).resolve().parents[1] / "scenarios"
    result = invoke("scenario", "run", shipped)
    assert result.exit_code == 0, result.output
    assert "ERROR" not in result.stdout


def test_a_duplicate_key_does_not_hide_the_schema_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    text = BASE.replace("format: lite\n", "format: lite\nformat: std\ncolour: red\n", 1)
    Path("dup.yaml").write_text(text, encoding="utf-8")
    result = invoke("scenario", "run", "dup.yaml")
    assert result.exit_code == 1
    assert "duplicate key 'format'" in result.stderr and "unknown key 'colour'" in result.stderr
