"""Key-card notation: normalisation, cards, parsing, canonical printing and located errors."""

from __future__ import annotations

import re

import pytest
from blackpoker.compiler import notation
from blackpoker.compiler.notation import NotationError, Problem, parse_key
from blackpoker.runtime.rules.cards import JOKER, Card, Suit, full_deck, rank_label
from blackpoker.runtime.rules.keyspec import (
    ANY_CARD,
    JOKER_PATTERN,
    CardPattern,
    InvalidKeySpec,
    KeySpec,
    Part,
    RankRange,
    merge_ranks,
)
from blackpoker.runtime.rules.normalize import normalize

SPADE, HEART, DIAMOND, CLUB = Suit.SPADE, Suit.HEART, Suit.DIAMOND, Suit.CLUB

# Every key string the upstream action lists use, with its canonical printing.
UPSTREAM = [
    ("2〜10", "2〜10"),
    ("A", "A"),
    ("Joker", "Joker"),
    ("J〜K", "J〜K"),
    ("A〜K", "A〜K"),
    ("Q", "Q"),
    ("♠A〜10", "♠A〜10"),
    ("♡A〜K", "♡A〜K"),
    ("♠2〜10", "♠2〜10"),
    ("♠A〜10 を 2枚", "♠A〜10 を 2枚"),
    ("♡A〜K と ♢A〜K", "♡A〜K と ♢A〜K"),
    ("A と J", "A と J"),
    ("同じスートの A と J", "同じスートのA と J"),
    ("同じスートのA,10〜K を 5枚", "同じスートのA,10〜K を 5枚"),
    ("同じスートを2枚", "同じスートを2枚"),
    ("同じスート2枚", "同じスートを2枚"),
    ("同じ数字を２枚", "同じ数字を2枚"),
    ("同じスートを2枚以上", "同じスートを2枚以上"),
    ("全て(裏向き)", "全て(裏向き)"),
    ("♠J と ♡2〜10", "♠J と ♡2〜10"),
    ("♠K と ♣K", "♠K と ♣K"),
    ("♠A", "♠A"),
    ("レアカード1枚", "レアカード1枚"),
]


def ranks(*pairs: tuple[int, int]) -> tuple[RankRange, ...]:
    return tuple(RankRange(low, high) for low, high in pairs)


# --- normalize ---------------------------------------------------------------------------------


def test_normalize_folds_spellings_and_keeps_an_offset_map() -> None:
    norm = normalize("♥ Ａ ～ １０")
    assert norm.text == "♡A〜10"
    assert norm.origin == (0, 2, 4, 6, 7)
    assert [norm.original_offset(i) for i in range(len(norm.text) + 1)] == [0, 2, 4, 6, 7, 8]


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("A~K", "A〜K"),
        ("A～K", "A〜K"),
        ("A〜K", "A〜K"),
        ("♥♦♤♧", "♡♢♠♣"),
        ("♠♡♢♣", "♠♡♢♣"),
        ("A、10", "A,10"),
        ("全て（裏向き）", "全て(裏向き)"),
        ("Ｊｏｋｅｒ", "Joker"),
        ("＄ＢＬ", "$BL"),
        (" \t\n\u3000\u00a0\u2003A\r", "A"),
        ("◇A", "◇A"),  # not a suit: left alone so that it is reported
    ],
)
def test_normalize_rules(text: str, folded: str) -> None:
    assert normalize(text).text == folded


def test_every_unicode_whitespace_character_is_dropped() -> None:
    spaces = "".join(chr(code) for code in range(0x110000) if chr(code).isspace())
    assert normalize(f"A{spaces}K").text == "AK"


def test_original_span_of_a_dropped_run_and_of_the_end() -> None:
    norm = normalize("A  と  J  ")
    assert norm.text == "AとJ"
    assert norm.original_span(1, 2) == (3, 4)
    assert norm.original_span(2, 2) == (6, 7)  # an empty span still covers one character
    assert norm.original_span(3, 3) == (9, 9)  # end of input is the end of the original


# --- cards ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("♡5", Card(5, HEART)),
        ("♠A", Card(1, SPADE)),
        ("♣10", Card(10, CLUB)),
        ("♢K", Card(13, DIAMOND)),
        ("Joker", JOKER),
        ("JOKER", JOKER),
        ("joker", JOKER),
        ("♥Ｑ", Card(12, HEART)),
        ("♢ １０", Card(10, DIAMOND)),
    ],
)
def test_card_parse(text: str, card: Card) -> None:
    assert Card.parse(text) == card


@pytest.mark.parametrize("card", ["♡5", "♠A", "♣10", "♢K", "Joker", "♠J", "♡Q"])
def test_card_prints_as_parsed(card: str) -> None:
    assert str(Card.parse(card)) == card


@pytest.mark.parametrize("text", ["", "5♡", "♡1", "♡11", "♡05", "◇5", "♡", "Jokers", "♡5♡"])
def test_card_parse_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(text)


@pytest.mark.parametrize(("rank", "suit"), [(0, SPADE), (14, SPADE), (5, None), (-1, HEART)])
def test_card_rejects_impossible_values(rank: int, suit: Suit | None) -> None:
    with pytest.raises(ValueError):
        Card(rank, suit)


def test_rank_labels() -> None:
    assert [rank_label(rank) for rank in range(1, 14)] == [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"
    ]  # fmt: skip
    with pytest.raises(ValueError):
        rank_label(0)


def test_full_deck() -> None:
    deck = full_deck()
    assert len(deck) == 54
    assert len(set(deck)) == 53  # two identical Jokers
    assert deck[:3] == (Card(1, SPADE), Card(2, SPADE), Card(3, SPADE))
    assert deck[13] == Card(1, HEART)
    assert deck[-2:] == (JOKER, JOKER)
    assert [card.is_joker for card in deck].count(True) == 2


def test_cards_order_by_rank_then_suit() -> None:
    cards = [Card.parse(text) for text in ("♣2", "♠2", "Joker", "♡A", "♢A")]
    assert [str(card) for card in sorted(cards)] == ["Joker", "♡A", "♢A", "♠2", "♣2"]


# --- parsing upstream notation ----------------------------------------------------------------


@pytest.mark.parametrize(("text", "canonical"), UPSTREAM)
def test_upstream_keys_print_canonically(text: str, canonical: str) -> None:
    spec = parse_key(text)
    assert str(spec) == canonical
    assert parse_key(canonical) == spec


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("A", KeySpec((CardPattern(ranks=ranks((1, 1))),))),
        ("2〜10", KeySpec((CardPattern(ranks=ranks((2, 10))),))),
        ("Joker", KeySpec((JOKER_PATTERN,))),
        ("♠A〜10 を 2枚", KeySpec((CardPattern(frozenset({SPADE}), ranks((1, 10))),), count=2)),
        (
            "♡A〜K と ♢A〜K",
            KeySpec(
                (
                    CardPattern(frozenset({HEART}), ranks((1, 13))),
                    CardPattern(frozenset({DIAMOND}), ranks((1, 13))),
                )
            ),
        ),
        (
            "同じスートの A と J",
            KeySpec((CardPattern(ranks=ranks((1, 1))), CardPattern(ranks=ranks((11, 11)))), same_suit=True),
        ),
        (
            "同じスートのA,10〜K を 5枚",
            KeySpec((CardPattern(ranks=ranks((1, 1), (10, 13))),), count=5, same_suit=True),
        ),
        ("同じスート2枚", KeySpec((ANY_CARD,), count=2, same_suit=True)),
        ("同じ数字を２枚", KeySpec((ANY_CARD,), count=2, same_number=True)),
        ("同じスートを2枚以上", KeySpec((ANY_CARD,), count=2, or_more=True, same_suit=True)),
        ("全て(裏向き)", KeySpec((ANY_CARD,), face_down=True)),
        ("レアカード1枚", KeySpec((ANY_CARD,), rare=True)),
    ],
)
def test_upstream_keys_parse_to_ir(text: str, spec: KeySpec) -> None:
    assert parse_key(text) == spec


@pytest.mark.parametrize(
    ("text", "card_count"),
    [
        ("A", 1),
        ("♡A〜K と ♢A〜K", 2),
        ("♠A〜10 を 2枚", 2),
        ("同じスートのA,10〜K を 5枚", 5),
        ("同じスートを2枚以上", 2),
        ("全て(裏向き)", 1),
        ("レアカード1枚", 1),
    ],
)
def test_card_count(text: str, card_count: int) -> None:
    assert parse_key(text).card_count() == card_count


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("♡A~10", "♡A〜10"),
        ("♡A～10", "♡A〜10"),
        ("♡ A 〜 10", "♡A〜10"),
        ("♥Ａ〜１０", "♡A〜10"),
        ("全て （裏向き）", "全て(裏向き)"),
        ("JOKER", "Joker"),
        ("同じスートの A、10〜K を 5 枚", "同じスートのA,10〜K を 5枚"),
        ("♢♡A〜K", "♡♢A〜K"),  # suits print in canonical order
        ("♣♠2", "♠♣2"),
        ("10〜K,A", "A,10〜K"),  # ranks are sorted ...
        ("A,2〜5,J,Q,K", "A〜5,J〜K"),  # ... and touching ranges joined
        ("5〜5", "5"),
        ("♠A を 1枚", "♠A"),
        ("A を 1枚以上", "A を 1枚以上"),
        ("同じ数字のA〜5 を 2枚", "同じ数字のA〜5 を 2枚"),
        ("A を 007枚", "A を 7枚"),
    ],
)
def test_spelling_variants_print_canonically(text: str, canonical: str) -> None:
    assert str(parse_key(text)) == canonical


# --- the IR -----------------------------------------------------------------------------------


def test_pattern_matches() -> None:
    hearts = CardPattern(frozenset({HEART}), ranks((1, 1), (10, 13)))
    assert hearts.matches(Card.parse("♡A")) and hearts.matches(Card.parse("♡10"))
    assert not hearts.matches(Card.parse("♡5"))
    assert not hearts.matches(Card.parse("♢A"))
    assert not hearts.matches(JOKER)
    assert JOKER_PATTERN.matches(JOKER) and not JOKER_PATTERN.matches(Card.parse("♠A"))
    assert all(ANY_CARD.matches(card) for card in full_deck())


def test_merge_ranks() -> None:
    assert merge_ranks(ranks((10, 13), (1, 1))) == ranks((1, 1), (10, 13))
    assert merge_ranks(ranks((2, 5), (1, 1), (6, 6))) == ranks((1, 6))
    assert merge_ranks(()) == ()
    with pytest.raises(ValueError, match="overlap"):
        merge_ranks(ranks((1, 5), (3, 7)))


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: RankRange(10, 2), "descending range 10〜2"),
        (lambda: RankRange(0, 5), "1..13"),
        (lambda: CardPattern(ranks=ranks((10, 13), (1, 1))), "sorted"),
        (lambda: CardPattern(ranks=ranks((1, 5), (6, 7))), "sorted"),
        (lambda: CardPattern(frozenset({HEART})), "needs ranks"),
        (lambda: CardPattern(frozenset({HEART}), joker=True), "Joker"),
    ],
)
def test_ir_parts_reject_invalid_values(build, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build()


A = CardPattern(ranks=ranks((1, 1)))


@pytest.mark.parametrize(
    ("fields", "parts"),
    [
        ({"patterns": ()}, [Part.KEY]),
        ({"patterns": (A,), "count": 0}, [Part.COUNT]),
        ({"patterns": (A, A), "count": 2}, [Part.COUNT]),
        ({"patterns": (A, A), "or_more": True}, [Part.COUNT]),
        ({"patterns": (ANY_CARD,)}, [Part.PATTERN]),
        ({"patterns": (A, ANY_CARD)}, [Part.PATTERN]),
        ({"patterns": (A, JOKER_PATTERN), "same_suit": True}, [Part.PATTERN]),
        ({"patterns": (A,), "same_suit": True}, [Part.PREFIX]),
        ({"patterns": (ANY_CARD,), "same_suit": True, "same_number": True, "count": 2}, [Part.KEY]),
        ({"patterns": (A,), "face_down": True}, [Part.KEY]),
        ({"patterns": (ANY_CARD,), "face_down": True, "count": 2}, [Part.COUNT]),
        ({"patterns": (ANY_CARD,), "rare": True, "or_more": True}, [Part.COUNT]),
        ({"patterns": (ANY_CARD,), "count": 60, "same_suit": True}, [Part.COUNT]),
    ],
)
def test_keyspec_rejects_meaningless_fields(fields: dict, parts: list[Part]) -> None:
    with pytest.raises(InvalidKeySpec) as caught:
        KeySpec(**fields)
    assert [flaw.part for flaw in caught.value.flaws] == parts


def test_several_suits_print_concatenated_and_parse_back() -> None:
    spec = KeySpec((CardPattern(frozenset({DIAMOND, HEART}), ranks((1, 13))),))
    assert str(spec) == "♡♢A〜K"
    assert parse_key(str(spec)) == spec


# --- errors ---------------------------------------------------------------------------------------

PATTERN_START = "a rank (A, 2–10, J, Q, K), Joker, or a suit (♠ ♡ ♢ ♣)"
NOT_A_RANK = "is not a rank{}; rank must be A, 2–10, J, Q or K"


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("♡ A 〜 Z", [Problem(6, 7, "unexpected 'Z'; expected a rank (A, 2–10, J, Q, K)")]),
        ("♡　Ａ〜Ｚ", [Problem(4, 5, "unexpected 'Ｚ'; expected a rank (A, 2–10, J, Q, K)")]),
        ("A と Z", [Problem(4, 5, f"unexpected 'Z'; expected {PATTERN_START}")]),
        (
            "Z",
            [
                Problem(
                    0,
                    1,
                    "unexpected 'Z'; expected a rank (A, 2–10, J, Q, K), Joker, a suit (♠ ♡ ♢ ♣), "
                    "'同じスート', '同じ数字', '全て', or 'レアカード'",
                )
            ],
        ),
        ("A 以上", [Problem(2, 4, "unexpected '以上'; expected '〜', ',', 'と', 'を', or end of input")]),
        ("♡A〜", [Problem(3, 3, "unexpected end of input; expected a rank (A, 2–10, J, Q, K)")]),
        ("同じスート", [Problem(5, 5, "unexpected end of input; expected a count, 'を', or 'の'")]),
        ("10〜2", [Problem(0, 4, "descending range 10〜2: write the lower rank first")]),
        ("♠ 10 〜 2", [Problem(2, 8, "descending range 10〜2: write the lower rank first")]),
        ("1", [Problem(0, 1, "'1' " + NOT_A_RANK.format(": write A for the ace"))]),
        ("0", [Problem(0, 1, "'0' " + NOT_A_RANK.format(""))]),
        ("♠2〜11", [Problem(3, 5, "'11' " + NOT_A_RANK.format(""))]),
        ("♠A を 0枚", [Problem(3, 7, "count must be at least 1, got 0")]),
        ("同じスートを0枚", [Problem(5, 8, "count must be at least 1, got 0")]),
        ("レアカード0枚", [Problem(5, 7, "count must be at least 1, got 0")]),
        ("A を 99枚", [Problem(2, 7, "a key cannot need more than 54 cards, a whole deck")]),
        (
            "A を " + "9" * 5000 + "枚",
            [Problem(2, 5005, "a key cannot need more than 54 cards, a whole deck")],
        ),
        (
            "A と J を 2枚",
            [Problem(6, 10, "を N枚 applies to a single pattern; join each card with と instead")],
        ),
        ("同じスートのJoker と A", [Problem(6, 11, "a Joker has no suit, so 同じスート can never hold")]),
        ("同じ数字のA と Joker", [Problem(9, 14, "a Joker has no number, so 同じ数字 can never hold")]),
        ("同じスートの♠K と ♣K", [Problem(0, 5, "no suit fits every pattern, so 同じスート can never hold")]),
        ("同じ数字のA と J", [Problem(0, 4, "no number fits every pattern, so 同じ数字 can never hold")]),
        ("同じスートのA", [Problem(0, 5, "同じスート needs at least two cards")]),
        ("同じスートを1枚以上", [Problem(0, 5, "同じスート needs at least two cards")]),
        ("♠♠A", [Problem(1, 2, "suit ♠ is written twice")]),
        ("A〜5,3〜7", [Problem(0, 7, "ranks A〜5 and 3〜7 overlap: list each rank once")]),
        ("", [Problem(0, 0, "empty key notation (an action without key cards has no key)")]),
        ("  ", [Problem(2, 2, "empty key notation (an action without key cards has no key)")]),
    ],
)
def test_problems_are_located_in_the_original_text(text: str, problems: list[Problem]) -> None:
    with pytest.raises(NotationError) as caught:
        parse_key(text)
    assert caught.value.problems == tuple(problems)
    assert caught.value.text == text


def test_all_semantic_problems_are_reported_together() -> None:
    text = "10〜2 と 1 と ♠♠A"
    with pytest.raises(NotationError) as caught:
        parse_key(text)
    assert [(p.start, p.end) for p in caught.value.problems] == [(0, 4), (7, 8), (12, 13)]
    assert "descending range" in str(caught.value) and "not a rank" in str(caught.value)


def test_pattern_and_key_problems_are_reported_together() -> None:
    with pytest.raises(NotationError) as caught:
        parse_key("同じスートのJoker と 1 を 2枚")
    messages = [p.message for p in caught.value.problems]
    assert messages == [
        "a Joker has no suit, so 同じスート can never hold",
        "'1' " + NOT_A_RANK.format(": write A for the ace"),
        "を N枚 applies to a single pattern; join each card with と instead",
    ]


def test_notation_error_is_a_value_error_located_in_the_text() -> None:
    with pytest.raises(ValueError, match=r"^notation:1:1: descending range 10〜2") as caught:
        parse_key("10〜2")
    assert str(caught.value).splitlines()[1:] == ["    10〜2", "    ^^^^^"]  # 〜 takes two columns


@pytest.mark.parametrize("table", [notation._KEY_WORDS, notation._COST_WORDS])
def test_every_terminal_has_words(table: dict[str, str]) -> None:
    parser = notation._key_parser() if table is notation._KEY_WORDS else notation._cost_parser()
    assert {terminal.name for terminal in parser.terminals} | {"$END"} == set(table)


@pytest.mark.parametrize(
    "text",
    [
        "Z",
        "A〜",
        "A と",
        "♡",
        "同じ",
        "全て(",
        "レアカード",
        "A を",
        "A を 2",
        "A を 2枚 以上 と",
        "同じスートの",
        "(",
        "A,,K",
    ],
)
def test_errors_never_leak_lark_names(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_key(text)
    for problem in caught.value.problems:
        assert not re.search(r"__|[A-Z]{2,}|\$END", problem.message), problem.message
        assert 0 <= problem.start <= problem.end <= len(text)
