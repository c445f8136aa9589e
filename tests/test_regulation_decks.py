"""Decks under a regulation's frame (seed 001 Table 5.1): fixed cards, sizes, a player's two
decks from one set; each refusal cites the frame's rule."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from blackpoker.compiler.documents.deck import Deck, read_deck
from blackpoker.compiler.documents.regulation import (
    Regulations,
    deck_problems,
    parse_regulation,
    regulations_for,
)
from blackpoker.runtime.rules.cards import Card, full_deck


@pytest.fixture(scope="module")
def regs() -> Regulations:
    return regulations_for("v7")


MakeDeck = Callable[[str, Sequence[Card]], Deck]


@pytest.fixture
def make(tmp_path: Path) -> MakeDeck:
    def deck(name: str, cards: Sequence[Card]) -> Deck:
        path = tmp_path / f"{name}.yaml"
        # one card a line: cards[i] is on line 3 + i
        path.write_text("kind: deck\ncards:\n" + "".join(f"  - {c}\n" for c in cards), encoding="utf-8")
        read, problems = read_deck(path, path.name)
        assert read is not None, problems
        return read

    return deck


def problems_of(regs: Regulations, text: str, decks: Sequence[Deck]) -> list[str]:
    return [d.render() for d in deck_problems(parse_regulation(text, regs), "p1", decks)]


def test_the_entry_deck_is_its_21_cards_in_any_order(regs: Regulations, make: MakeDeck) -> None:
    entry = next(f for f in regs.frames if f.id == "entry")
    assert entry.cards is not None
    assert problems_of(regs, "lite+entry", [make("e", entry.cards[::-1])]) == []
    other = next(card for card in full_deck() if card not in entry.cards)
    swapped = [*entry.cards[1:], other]
    rendered = problems_of(regs, "lite+entry", [make("s", swapped)])
    cite = f"(エントリー: {entry.text} (§5.2 Table 5.1))"
    assert rendered == [
        f"s.yaml:23:5: cards[20]: {other} is not a card of the deck {cite}",
        f"s.yaml:2:1: cards: missing {entry.cards[0]} {cite}",
    ]


@pytest.mark.parametrize(
    ("frame", "good", "bad"),
    [("random40", 40, 39), ("built40", 40, 41), ("built40", 1, 54), ("regular", 54, None), ("full", 54, 53)],
)
def test_deck_sizes(regs: Regulations, make: MakeDeck, frame: str, good: int, bad: int | None) -> None:
    assert problems_of(regs, f"std+{frame}", [make("good", full_deck()[:good])]) == []
    if bad is None:
        return
    rendered = problems_of(regs, f"std+{frame}", [make("bad", full_deck()[:bad])])
    assert len(rendered) == 1 and rendered[0].startswith(f"bad.yaml:2:1: cards: {bad} cards; ")
    assert "(§5.2 Table 5.1)" in rendered[0]


def test_a_half_frame_wants_two_decks_from_one_set(regs: Regulations, make: MakeDeck) -> None:
    cards = full_deck()
    assert problems_of(regs, "pro+random-half", [make("a", cards[:10]), make("b", cards[10:])]) == []
    assert problems_of(regs, "pro+built-half", [make("a", cards[:10]), make("b", cards[10:30])]) == []
    (one,) = problems_of(regs, "pro+built-half", [make("a", cards)])
    assert one == "--deck: p1: 構築ハーフ is a 2デッキマッチ, each player brings 2 decks (§5.2.1); got 1"
    (short,) = problems_of(regs, "pro+random-half", [make("a", cards[:10]), make("b", cards[10:50])])
    assert short.startswith(
        "--deck: p1: the decks hold 10 (a.yaml) + 40 (b.yaml) = 50 cards; exactly 54 allowed"
    )
    shared = problems_of(regs, "pro+built-half", [make("a", cards[:10]), make("b", cards[9:20])])
    assert shared == [
        f"b.yaml:3:5: cards[0]: {cards[9]} is listed twice (first at a.yaml:12:5); "
        "a set of cards holds each card once (§3.3)"
    ]


def test_a_one_deck_frame_refuses_two_decks(regs: Regulations, make: MakeDeck) -> None:
    (problem,) = problems_of(regs, "std+regular", [make("a", full_deck()[:5]), make("b", full_deck()[5:9])])
    assert problem.endswith("each player brings 1 deck (§5.2.1); got 2")
