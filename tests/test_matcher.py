"""Key matcher: hand-worked expectations and a brute-force oracle."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations, permutations

import pytest
from blackpoker.compiler.notation import parse_key
from blackpoker.runtime.rules.cards import JOKER, Card, full_deck
from blackpoker.runtime.rules.keyspec import KeySpec
from blackpoker.runtime.rules.matcher import KeyMatcher, compile_matcher
from hypothesis import given, settings
from hypothesis import strategies as st
from notation_samples import UPSTREAM_KEYS

# Shapes the upstream list lacks: repeated and overlapping patterns, Jokers, 同じ数字 with patterns.
EXTRA_KEYS = [
    "A と A",
    "A〜K と A",
    "Joker を 2枚",
    "Joker と A",
    "同じ数字のA〜5 を 3枚",
    "♠A〜K を 2枚以上",
    "同じ数字を2枚以上",
    "♡♢A〜K と ♢J〜K と 2〜10",
]
ALL_SPECS = [parse_key(text) for text in UPSTREAM_KEYS + EXTRA_KEYS]


def hand(*cards: str) -> tuple[Card, ...]:
    return tuple(Card.parse(card) for card in cards)


def ways(key: str, cards: Sequence[Card]) -> list[tuple[str, ...]]:
    return [tuple(map(str, way)) for way in compile_matcher(parse_key(key)).ways(cards)]


# --- the oracle: every subset, checked by permuting its cards over the pattern slots ------------


def valid(spec: KeySpec, chosen: Sequence[Card]) -> bool:
    if spec.same_suit and (any(c.is_joker for c in chosen) or len({c.suit for c in chosen}) != 1):
        return False
    if spec.same_number and (any(c.is_joker for c in chosen) or len({c.rank for c in chosen}) != 1):
        return False
    if spec.or_more:
        return len(chosen) >= spec.card_count() and all(spec.patterns[0].matches(c) for c in chosen)
    slots = [pattern for pattern in spec.patterns for _ in range(spec.count)]
    if len(slots) != len(chosen):
        return False
    if len(set(slots)) == 1:
        return all(slots[0].matches(c) for c in chosen)
    return any(all(p.matches(c) for p, c in zip(slots, order, strict=True)) for order in permutations(chosen))


def oracle(spec: KeySpec, cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    sizes = range(1, len(cards) + 1) if spec.or_more else [spec.card_count()]
    subsets = sorted(s for n in sizes for s in combinations(range(len(cards)), n))
    found: list[tuple[Card, ...]] = []
    seen: set[tuple[Card, ...]] = set()
    for subset in subsets:
        chosen = tuple(cards[i] for i in subset)
        if valid(spec, chosen) and tuple(sorted(chosen)) not in seen:
            seen.add(tuple(sorted(chosen)))
            found.append(chosen)
    return found


# --- hand-worked expectations ---------------------------------------------------------------------

NINE = hand("♡2", "♠3", "♢5", "♡K", "Joker", "♢A", "♣7", "♡9", "♠Q")


def test_every_heart_diamond_pair() -> None:
    # Hearts ♡2 ♡K ♡9 (positions 0 3 7) times diamonds ♢5 ♢A (2 5), each way in hand order.
    assert ways("♡A〜K と ♢A〜K", NINE) == [
        ("♡2", "♢5"),
        ("♡2", "♢A"),
        ("♢5", "♡K"),
        ("♢5", "♡9"),
        ("♡K", "♢A"),
        ("♢A", "♡9"),
    ]


def test_pattern_order_does_not_matter() -> None:
    assert ways("♢A〜K と ♡A〜K", NINE) == ways("♡A〜K と ♢A〜K", NINE)


TWELVE = hand("♠10", "♡A", "♠Q", "♣3", "♠A", "♡10", "♠J", "♡J", "Joker", "♠K", "♡Q", "♢9")


def test_royal_flush() -> None:
    # Hearts have A 10 J Q but no K, so only the spades qualify.
    assert ways("同じスートのA,10〜K を 5枚", TWELVE) == [("♠10", "♠Q", "♠A", "♠J", "♠K")]


def test_royal_flush_needs_one_suit() -> None:
    mixed = hand("♠10", "♠J", "♠Q", "♠K", "♡A", "♣2")
    assert ways("同じスートのA,10〜K を 5枚", mixed) == []
    assert ways("A,10〜K を 5枚", mixed) == [("♠10", "♠J", "♠Q", "♠K", "♡A")]


SEVEN = hand("♠2", "♠5", "♡3", "♠9", "♡7", "♣4", "Joker")


def test_same_suit_two_or_more() -> None:
    assert ways("同じスートを2枚以上", SEVEN) == [
        ("♠2", "♠5"),
        ("♠2", "♠5", "♠9"),
        ("♠2", "♠9"),
        ("♠5", "♠9"),
        ("♡3", "♡7"),
    ]


def test_same_suit_exactly_two() -> None:
    assert ways("同じスートを2枚", SEVEN) == [("♠2", "♠5"), ("♠2", "♠9"), ("♠5", "♠9"), ("♡3", "♡7")]


def test_same_number() -> None:
    cards = hand("♠5", "♡5", "♢5", "♣2", "♡2", "Joker", "Joker")
    assert ways("同じ数字を2枚", cards) == [("♠5", "♡5"), ("♠5", "♢5"), ("♡5", "♢5"), ("♣2", "♡2")]


JOKERS = hand("♠A", "Joker", "♡3", "Joker", "♢4", "♣5", "♠6")


def test_identical_cards_count_once() -> None:
    assert ways("Joker", JOKERS) == [("Joker",)]
    assert ways("Joker を 2枚", JOKERS) == [("Joker", "Joker")]
    assert ways("Joker と A", JOKERS) == [("♠A", "Joker")]
    assert ways("A と J", hand("♠A", "♠A", "♡J")) == [("♠A", "♡J")]


def test_face_down_takes_any_one_card() -> None:
    assert ways("全て(裏向き)", JOKERS) == [("♠A",), ("Joker",), ("♡3",), ("♢4",), ("♣5",), ("♠6",)]


def test_a_rare_key_takes_any_card_it_is_given() -> None:
    # which cards are rare is the zone's business (an action's key_from), not the matcher's
    assert ways("レアカード1枚", hand("♠A", "Joker")) == [("♠A",), ("Joker",)]
    assert compile_matcher(parse_key("レアカード1枚")).matches(hand("♡7"))
    assert not compile_matcher(parse_key("レアカード1枚")).matches(hand("♡7", "♠A"))


def test_equal_patterns_give_each_pair_once() -> None:
    assert ways("A と A", hand("♠A", "♡A", "♢A")) == [("♠A", "♡A"), ("♠A", "♢A"), ("♡A", "♢A")]


def test_overlapping_patterns_need_an_assignment() -> None:
    assert ways("A〜K と A", hand("♠A", "♡5")) == [("♠A", "♡5")]
    assert ways("A〜K と A", hand("♠A", "Joker")) == []
    assert ways("A〜K と A", hand("♠A", "♡A")) == [("♠A", "♡A")]


def test_too_few_cards() -> None:
    assert ways("♠A〜10 を 2枚", hand("♠A", "♡2")) == []
    assert ways("A", ()) == []


@pytest.mark.parametrize(
    ("key", "cards", "expected"),
    [
        ("♡A〜K と ♢A〜K", ("♡2", "♢5"), True),
        ("♡A〜K と ♢A〜K", ("♢5", "♡2"), True),
        ("♡A〜K と ♢A〜K", ("♡2", "♡3"), False),
        ("♡A〜K と ♢A〜K", ("♡2",), False),
        ("♡A〜K と ♢A〜K", ("♡2", "♢5", "♢6"), False),
        ("同じスートを2枚以上", ("♠2", "♠5", "♠9"), True),
        ("同じスートを2枚以上", ("♠2",), False),
        ("同じスートを2枚以上", ("♠2", "♡2"), False),
        ("同じスートを2枚", ("♠2", "♠5", "♠9"), False),
        ("同じ数字を2枚", ("Joker", "Joker"), False),
        ("Joker を 2枚", ("Joker", "Joker"), True),
        ("全て(裏向き)", ("Joker",), True),
        ("全て(裏向き)", ("♠2", "♠3"), False),
        ("同じスートのA,10〜K を 5枚", ("♠K", "♠A", "♠10", "♠Q", "♠J"), True),
        ("同じスートのA,10〜K を 5枚", ("♠K", "♠A", "♠10", "♠Q", "♡J"), False),
    ],
)
def test_matches_checks_an_exact_selection(key: str, cards: tuple[str, ...], expected: bool) -> None:
    assert KeyMatcher(parse_key(key)).matches(hand(*cards)) is expected


# --- against the oracle ----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [7, 12])
@pytest.mark.parametrize("seed", range(8))
def test_ways_agree_with_the_oracle_on_random_hands(size: int, seed: int) -> None:
    cards = random.Random(seed).sample(full_deck(), size)
    for spec in ALL_SPECS:
        assert compile_matcher(spec).ways(cards) == oracle(spec, cards), str(spec)


def test_oracle_agrees_on_the_worked_hands() -> None:
    for cards in (NINE, TWELVE, SEVEN, JOKERS):
        for spec in ALL_SPECS:
            assert compile_matcher(spec).ways(cards) == oracle(spec, cards), str(spec)


@settings(max_examples=150, deadline=None)
@given(
    spec=st.sampled_from(ALL_SPECS),
    cards=st.lists(st.sampled_from([*full_deck()[::3], JOKER]), max_size=8),
)
def test_ways_and_matches_agree_with_the_oracle(spec: KeySpec, cards: list[Card]) -> None:
    """Hands drawn from a third of the deck, with repeats, so duplicate cards are common."""
    matcher = compile_matcher(spec)
    found = matcher.ways(cards)
    assert found == oracle(spec, cards)
    for way in found:
        assert matcher.matches(way)
    assert matcher.matches(cards) is valid(spec, cards)
