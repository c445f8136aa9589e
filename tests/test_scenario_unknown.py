"""What a written set-up needs to hold an exported position: unknown cards (`?`), dealt at
random from the cards no zone names by `unknown_seed`, matched by `?` in `expect`, every
impossible use refused, located; and a character's size change of this turn."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from bad_input_support import invoke, located
from blackpoker.runtime.engine.abilities import size
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.enums import Face
from blackpoker.runtime.rules.matcher import compile_matcher
from blackpoker.runtime.scenario.build import build
from blackpoker.runtime.scenario.load import load
from editions_support import EDITIONS, compiled, formats

EDITION = EDITIONS[0]
FORMAT = formats(EDITION)[0]
RULES = compiled(EDITION)[FORMAT]
DOWN = next(c for c in RULES.characters if c.face is Face.DOWN)  # a face-down kind (防壁)
UP = next(c for c in RULES.characters if c.face is Face.UP)
HEAD = f"kind: scenario\nname: unknown cards\nedition: {EDITION}\nformat: {FORMAT}\n"


def _write(tmp_path: Path, body: str, name: str = "position.yaml") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + body, encoding="utf-8")
    return path


def _position(seed: int) -> str:
    return f"""setup:
  turn: p1
  unknown_seed: {seed}
  p1:
    life: ["?", "?", "?", ♠2]
    hand: [♡5, "?"]
    field:
      - {{as: {DOWN.id}, cards: ["?"], face: down}}
  p2:
    life: 5
    hand: ["?", "？", ♠9]
    graveyard: ["?", ♢2]
commands: []
expect:
  p1: {{life: ["?", "?", "?", ♠2], hand: ["?", ♡5], field: ["{DOWN.id} ? charged size=? face-down"]}}
  p2: {{life: 5, hand: [♠9, "?", "?"], graveyard: [♢2, "?"], graveyard_top: ♢2}}
"""


def _dealt(tmp_path: Path, seed: int) -> list[dict[str, list[str]]]:
    scenario, problems = load(_write(tmp_path, _position(seed), f"seed{seed}.yaml"))
    assert scenario is not None, [p.render() for p in problems]
    state = build(scenario).state
    return [
        {
            "life": [label(c) for c in p.life],
            "hand": [label(c) for c in p.hand],
            "graveyard": [label(c) for c in p.graveyard],
            "field": [label(c) for u in p.field for c in u.cards],
        }
        for p in state.players
    ]


def test_unknown_cards_are_dealt_from_the_cards_left_by_the_seed(tmp_path: Path) -> None:
    first, again, other = _dealt(tmp_path, 4), _dealt(tmp_path, 4), _dealt(tmp_path, 5)
    assert first == again and first != other  # seeded: the same file deals the same cards
    for dealt in (first, other):
        p1, p2 = dealt
        assert p1["life"][-1] == "♠2" and "♡5" in p1["hand"] and "♠9" in p2["hand"]
        assert p2["graveyard"][-1] == "♢2" and len(p2["hand"]) == 3 and len(p1["life"]) == 4
        for player in dealt:  # each physical card once (a deck has two Jokers)
            held = Counter(c for cards in player.values() for c in cards)
            assert all(n == 1 or (c == "Joker" and n == 2) for c, n in held.items()), held
    down = compile_matcher(DOWN.key)
    assert down.matches([Card.parse(first[0]["field"][0])])
    result = invoke("scenario", "run", tmp_path / "seed4.yaml")
    assert result.exit_code == 0 and "1 passed" in result.output, result.output


@pytest.mark.parametrize(
    ("expect", "failure"),
    [
        ('p2: {hand: [♠9, "?"]}', "p2.hand"),  # three cards, two named
        ('p2: {hand: [♠8, "?", "?"]}', "p2.hand"),  # a known card that is not there
        ('p1: {life: [♠2, "?", "?", "?"]}', "p1.life"),  # a life is compared in order
        (f'p1: {{field: ["{DOWN.id} ? driven size=? face-down"]}}', "p1.field"),
    ],
)
def test_an_unknown_card_in_expect_stands_for_one_card_only(
    tmp_path: Path, expect: str, failure: str
) -> None:
    text = _position(4)
    text = text[: text.index("expect:")] + f"expect:\n  {expect}\n"
    result = invoke("scenario", "run", _write(tmp_path, text))
    assert result.exit_code == 1 and f"{failure}: expected" in result.output, result.output


def test_every_impossible_use_of_unknown_cards_is_located(tmp_path: Path) -> None:
    hand = ", ".join(['"?"'] * 55)
    path = _write(
        tmp_path,
        f"""setup:
  turn: p1
  p1:
    life: [?, ♠5]
    field:
      - {{as: {UP.id}, cards: ["?"]}}
      - {{as: {DOWN.id}, cards: ["?", "?"], face: down}}
  p2:
    life: 3
    hand: [{hand}]
commands: []
expect:
  winner: none
""",
    )
    result = invoke("scenario", "run", path)
    shown = str(path)
    located(result, shown, 8, 12, "write an unknown card as '?', in quotes")
    located(result, shown, 13, 5, "p2: 55 unknown cards (?), but only 54 of p2's cards are left")
    located(result, shown, 10, 23 + len(UP.id), f"cards: a face-up {UP.id}'s cards are seen by both players")
    assert "life: 3 cards" not in result.output  # said once: the unknown cards are already too many
    # a character no two cards make (checked as its cards are dealt, once the rest is right)
    fixed = path.read_text(encoding="utf-8").replace("[?, ♠5]", '["?", ♠5]')
    fixed = fixed.replace(f'      - {{as: {UP.id}, cards: ["?"]}}\n', "").replace(f"[{hand}]", '["?"]')
    path.write_text(fixed, encoding="utf-8")
    located(invoke("scenario", "run", path), shown, 10, 23 + len(DOWN.id), f"make a {DOWN.id}")


@pytest.mark.parametrize(
    ("setup", "line", "col", "message"),
    [
        (
            '  turn: p1\n  p1: {life: 2, hand: [♠3]}\n  p2: {life: 53, hand: ["?", "?"]}\n',
            8,
            14,
            "life: 53 cards, but p2 has only 52 left after 2 unknown cards (?)",
        ),
        (
            '  turn: p1\n  p1: {life: 2, zones: {}, face_up: ["?"]}\n  p2: {life: 2}\n',
            7,
            38,
            "face_up: a card lying face up is seen by both players",
        ),
        ('  seed: 3\n  decks: {p1: [♠3, "?"]}\n', 7, 20, "decks: '?' stacks no card"),
    ],
)
def test_unknown_cards_where_they_cannot_be(
    tmp_path: Path, setup: str, line: int, col: int, message: str
) -> None:
    path = _write(tmp_path, f"setup:\n{setup}commands: []\nexpect:\n  winner: none\n")
    located(invoke("scenario", "run", path), str(path), line, col, message)


def test_a_written_character_keeps_this_turns_size_change(tmp_path: Path) -> None:
    """`size_change` (as an exported position writes a fog's アップ) holds until the turn ends."""
    card = next(c for c in ("♣9", "♣5", "♠9") if compile_matcher(UP.key).matches([Card.parse(c)]))
    scenario, problems = load(
        _write(
            tmp_path,
            f"""setup:
  turn: p1
  p1: {{life: 3, field: [{{as: {UP.id}, cards: [{card}], size_change: 4}}]}}
  p2: {{life: 3}}
commands: []
expect: {{winner: none}}
""",
        )
    )
    assert scenario is not None, [p.render() for p in problems]
    game = build(scenario)
    (unit,) = game.state.players[0].field
    assert unit.size_mod == 4
    printed = build(dataclasses.replace(scenario, setup=_without_change(scenario.doc.data["setup"])))
    assert size(game, unit) == size(printed, printed.state.players[0].field[0]) + 4


def _without_change(setup: dict[str, Any]) -> dict[str, Any]:
    field = [{k: v for k, v in u.items() if k != "size_change"} for u in setup["p1"]["field"]]
    return {**setup, "p1": {**setup["p1"], "field": field}}
