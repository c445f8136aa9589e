"""Hints that do not mislead: a bad cost offers only the units its edition takes (and the
edition takes each it offers), and a suit written as a letter or a name gets "did you mean"
wherever a card is written: keys, decks, scenario cards (test_bad_input_scenarios.py, the
error corpus), program cards and commands typed in the terminal."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.notation import NotationError, parse_key
from blackpoker.runtime.play.notation import parse_command
from blackpoker.runtime.rules.cards import Card, Suit, with_suit_symbols
from editions_support import EDITIONS

OFFERED = re.compile(r"expected a payment unit \(([A-Z, ]+)\)")


def _overlay(edition: str, cost: str) -> str:
    source = Environment().edition(edition)
    fmt = source.edition.formats[0].id
    action = next(a for a in source.actions if fmt in a.formats)
    return f"kind: overlay\nname: house\nmark: ◎\nedition: {edition}\nbase: {fmt}\n" + (
        f"actions:\n  change:\n    {action.id}:\n      cost: {cost}\n"
    )


def _cost_problems(env: Environment, path: Path, edition: str, cost: str) -> list[str]:
    path.write_text(_overlay(edition, cost), encoding="utf-8")
    return [d.message for d in env.check_paths([path])[1] if "cost" in d.message]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_bad_cost_offers_the_units_of_its_edition_and_each_is_taken(edition: str, tmp_path: Path) -> None:
    env, path = Environment(), tmp_path / "house.yaml"
    (message,) = _cost_problems(env, path, edition, "BX")
    found = OFFERED.search(message)
    assert found is not None, message
    offered = found.group(1).split(", ")
    assert offered == sorted(u.unit for u in env.edition(edition).edition.cost_units)
    for unit in offered:
        assert _cost_problems(env, path, edition, unit) == [], unit


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("S2", "♠2"),
        ("h5", "♡5"),
        ("ハート5", "♡5"),
        ("spade 2", "♠2"),
        ("Diamonds10", "♢10"),
        ("ダイヤQ", "♢Q"),
        ("c1", "♣A"),
        ("クラブ K", "♣K"),
    ],
)
def test_a_suit_written_in_letters_is_respelled_with_its_symbol(written: str, meant: str) -> None:
    assert with_suit_symbols(written) == meant
    with pytest.raises(ValueError, match=f"did you mean {meant}\\?$"):
        Card.parse(written)


def test_only_a_suit_before_a_rank_is_respelled() -> None:
    # words that hold a suit's letters, and letters that are no suit, stay as written
    for text in ("pass", "block", "同じスートを2枚以上", "Joker", "B2", "$DB", "スペードの兵士"):
        assert with_suit_symbols(text) == text
    assert {suit.value for suit in Suit} == {with_suit_symbols(f"{suit.name}A")[0] for suit in Suit}


def test_a_key_with_suit_letters_gets_the_key_it_meant() -> None:
    with pytest.raises(NotationError) as caught:
        parse_key("S2〜10 と ハートA")
    (problem,) = caught.value.problems
    assert problem.message.endswith("; did you mean '♠2〜10 と ♡A'?")
    parse_key("♠2〜10 と ♡A")  # what it offers parses


def test_a_command_with_suit_letters_gets_the_command_it_meant() -> None:
    with pytest.raises(ValueError, match=re.escape("did you mean 'p1: アップ ★♠5 $D(♡7) → p2:♣9'?")):
        parse_command("p1: アップ ★S5 $D(h7) → p2:c9")
    parse_command("p1: アップ ★♠5 $D(♡7) → p2:♣9")
    with pytest.raises(ValueError, match=re.escape("write e.g.")):  # nothing to respell: the example
        parse_command("p1: アップ ★X5")


def test_a_command_typed_in_the_terminal_gets_the_hint(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "from blackpoker.cli.main import main; main()", "play", "--seed", "3"]
    result = subprocess.run(
        command, input="パス ★S7\nq\n", capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "「パス ★♠7」のことですか？" in result.stdout  # as the player typed it
