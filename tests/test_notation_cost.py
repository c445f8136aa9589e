"""Cost notation: parsing, canonical printing and located errors."""

from __future__ import annotations

import re
import string

import pytest
from blackpoker.compiler.notation import NotationError, Problem, parse_cost
from blackpoker.runtime.rules.cost import UNITS, Cost

# Every cost the editions use, with the canonical (sorted) spelling it must print as.
CANONICAL = [
    ("B", "B"),
    ("BB", "BB"),
    ("BBD", "BBD"),
    ("BBL", "BBL"),
    ("BD", "BD"),
    ("BDD", "BDD"),
    ("BL", "BL"),
    ("C", "C"),
    ("D", "D"),
    ("DD", "DD"),
    ("L", "L"),
    ("S", "S"),
    ("SS", "SS"),
]


@pytest.mark.parametrize(("text", "canonical"), CANONICAL)
def test_upstream_costs_print_canonically(text: str, canonical: str) -> None:
    assert str(parse_cost(text)) == canonical


@pytest.mark.parametrize(("text", "canonical"), CANONICAL)
def test_dollar_full_width_and_spaced_spellings_are_the_same_cost(text: str, canonical: str) -> None:
    full_width = "".join(chr(ord(letter) - ord("A") + ord("Ａ")) for letter in text)
    spaced = " ".join(text)
    expected = parse_cost(text)
    for spelling in (f"${text}", f"＄{text}", full_width, spaced, f"$ {spaced}\u3000"):
        assert parse_cost(spelling) == expected, spelling


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("$BL", ("B", "L")),
        ("ＢＬ", ("B", "L")),
        ("B L", ("B", "L")),
        ("LBB", ("B", "B", "L")),
        ("DBD", ("B", "D", "D")),
    ],
)
def test_units_are_stored_sorted(text: str, units: tuple[str, ...]) -> None:
    assert parse_cost(text).units == units


def test_cost_is_a_multiset() -> None:
    assert parse_cost("LBB") == parse_cost("BLB") == Cost(("B", "B", "L")) == Cost(("L", "B", "B"))
    assert parse_cost("BBL") != parse_cost("BL")
    assert parse_cost("BBL").counts() == {"B": 2, "L": 1}
    assert hash(Cost(("L", "B"))) == hash(Cost(("B", "L")))


def test_empty_cost() -> None:
    assert parse_cost("") == Cost.NONE == Cost()
    assert parse_cost("   ") == Cost.NONE
    assert str(Cost.NONE) == ""
    assert Cost.NONE.counts() == {}


def test_grammar_units_match_cost_units() -> None:
    """cost.lark spells the unit letters itself; they must be exactly cost.UNITS."""
    accepted = set()
    for letter in string.ascii_uppercase:
        try:
            parse_cost(letter)
        except NotationError:
            continue
        accepted.add(letter)
    assert accepted == set(UNITS)


def test_cost_rejects_unknown_units() -> None:
    with pytest.raises(ValueError, match="unknown payment unit"):
        Cost(("B", "X"))


UNIT_WORDS = "a payment unit (B, C, D, L, S)"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("X", Problem(0, 1, f"unexpected 'X'; expected {UNIT_WORDS} or '$'")),
        ("bl", Problem(0, 1, f"unexpected 'b'; expected {UNIT_WORDS} or '$'")),
        ("B$", Problem(1, 2, f"unexpected '$'; expected {UNIT_WORDS} or end of input")),
        ("$", Problem(1, 1, f"unexpected end of input; expected {UNIT_WORDS}")),
        ("$  ", Problem(3, 3, f"unexpected end of input; expected {UNIT_WORDS}")),
        ("B L Z", Problem(4, 5, f"unexpected 'Z'; expected {UNIT_WORDS}")),
        ("Ｂ　Ｘ", Problem(2, 3, f"unexpected 'Ｘ'; expected {UNIT_WORDS}")),
    ],
)
def test_syntax_errors_are_located_in_the_original_text(text: str, problem: Problem) -> None:
    with pytest.raises(NotationError) as caught:
        parse_cost(text)
    assert caught.value.problems == (problem,)
    assert caught.value.text == text
    assert problem.message in str(caught.value)


@pytest.mark.parametrize("text", ["X", "$$", "B-L", "1", "B,L", "$B$"])
def test_errors_never_leak_lark_names(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_cost(text)
    for problem in caught.value.problems:
        assert not re.search(r"__|[A-Z]{2,}|\$END", problem.message), problem.message
