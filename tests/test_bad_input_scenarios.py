"""`scenario run`: every broken scenario is a located problem, and the others still run."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import pytest
from bad_input_support import invoke
from blackpoker.compiler import compile
from blackpoker.runtime.rules.cards import full_deck
from blackpoker.runtime.rules.enums import Face
from blackpoker.runtime.rules.matcher import compile_matcher
from blackpoker.runtime.rules.model import Character
from editions_support import formats

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
# What a base scenario must hold for each kind of damage below: a character of one card on p1's
# field, a commented pass of p2, p2's life, and an expected empty hand beside a graveyard.
FIELD = re.compile(r"field: \[\{as: (\w+), cards: \[(\S+?)\]\}\]")
PASS = re.compile(r'^  - "p2: pass" +# .*$', re.MULTILINE)
LIFE = re.compile(r"p2: \{life: \d+,")
EMPTY_HAND = re.compile(r"hand: \[\], graveyard: \[")


def _base() -> tuple[Path, str]:
    """The first shipped scenario with every anchor the damage needs."""
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        if all(p.search(text) for p in (FIELD, PASS, LIFE, EMPTY_HAND)) and "\nexpect:" in text:
            return path, text
    raise AssertionError("no shipped scenario has the anchors the test needs")


BASE_PATH, BASE = _base()
FIELD_LINE = FIELD.search(BASE)
assert FIELD_LINE is not None
SOLDIER, SOLDIER_ID = FIELD_LINE[0], FIELD_LINE[1]
PASS_LINE = PASS.search(BASE)
assert PASS_LINE is not None
P2_PASS = PASS_LINE[0]
P2_LIFE = LIFE.search(BASE)
assert P2_LIFE is not None
EXPECT = BASE[BASE.index("\nexpect:") + 1 :]  # the final expect (checkpoints are indented)
EDITION, FORMAT = (re.search(rf"^{key}: (\S+)$", BASE, re.MULTILINE) for key in ("edition", "format"))
assert EDITION is not None and FORMAT is not None
RULES = compile(EDITION[1], FORMAT[1])


def _refused(character: Character, count: int) -> str:
    """`count` cards that the character's key does not take together, written a+b."""
    matcher = compile_matcher(character.key)
    deck = full_deck()
    found = next(cards for cards in combinations(deck, count) if not matcher.matches(list(cards)))
    return "+".join(str(c) for c in found)


def _taken(character: Character) -> str:
    matcher = compile_matcher(character.key)
    return str(next(c for c in full_deck() if matcher.matches([c])))


# The characters the damage names: the one on the field (always face up), one always face down,
# any face-up one with a card its key refuses, and one of a larger format only.
SOLDIER_CHARACTER = RULES.character(SOLDIER_ID)
assert SOLDIER_CHARACTER.face is Face.UP
DOWN = next(c for c in RULES.characters if c.face is Face.DOWN)
KIND = next(
    c
    for c in RULES.characters
    if c.face is Face.UP and any(not compile_matcher(c.key).matches([d]) for d in full_deck())
)
CARD = _refused(KIND, 1)
PAIR = _refused(SOLDIER_CHARACTER, 2)
LATER = next(
    c
    for c in compile(EDITION[1], formats(EDITION[1])[-1]).characters
    if c.id not in {x.id for x in RULES.characters}
)

# name -> (replace, with, expected message part). Each is wrong in one way only.
BROKEN = {
    "unknown-character": (SOLDIER, "field: [{as: dragon, cards: [♣4]}]", "as: 'dragon' is not a character"),
    "out-of-format": (
        SOLDIER,
        f"field: [{{as: {LATER.id}, cards: [{_taken(LATER)}]}}]",
        f"as: '{LATER.id}' is not a character",
    ),
    "two-card-face-down": (SOLDIER, f"field: [{{as: {DOWN.id}, cards: [♣4, ♣5]}}]", f"a {DOWN.id} cannot be"),
    "face-down-face-up": (
        SOLDIER,
        f"field: [{{as: {SOLDIER_ID}, cards: [♣4], face: down}}]",
        "always face up",
    ),
    "impossible-pair": (
        SOLDIER,
        f"field: [{{as: {SOLDIER_ID}, cards: [{PAIR.replace('+', ', ')}]}}]",
        f"a {SOLDIER_ID} cannot be {PAIR}",
    ),
    "impossible-card": (
        SOLDIER,
        f"field: [{{as: {KIND.id}, cards: [{CARD}]}}]",
        f"a {KIND.id} cannot be {CARD}",
    ),
    "refused-no-player": (P2_PASS, "  - {refused: x}   #", "give exactly one of p1, p2"),
    "two-players": (P2_PASS, "  - {p1: pass, p2: pass}   #", "give exactly one of p1, p2"),
    "life-too-large": (P2_LIFE[0], "p2: {life: 60,", "life: 60 cards, but p2 has only"),
    "unknown-used": (P2_LIFE[0], f"{P2_LIFE[0]} used: [dragon],", "used: no action named 'dragon'"),
    "bad-expect-card": ("hand: [], graveyard: [", "hand: [♣Z], graveyard: [", "♣Z"),
    "suit-as-a-letter": (SOLDIER, f"field: [{{as: {SOLDIER_ID}, cards: [c4]}}]", "did you mean ♣4?"),
    "suit-as-a-name": ("hand: [], graveyard: [", "hand: [ハート5], graveyard: [", "did you mean ♡5?"),
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
    written = f"format: {FORMAT[1]}\n"
    text = BASE.replace(written, f"{written}format: {formats(EDITION[1])[-1]}\ncolour: red\n", 1)
    Path("dup.yaml").write_text(text, encoding="utf-8")
    result = invoke("scenario", "run", "dup.yaml")
    assert result.exit_code == 1
    assert "duplicate key 'format'" in result.stderr and "unknown key 'colour'" in result.stderr
