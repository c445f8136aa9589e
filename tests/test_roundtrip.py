"""Property tests: printing and parsing round-trip, spellings fold, and nothing but NotationError escapes."""

from __future__ import annotations

from blackpoker.compiler.notation import NotationError, parse_cost, parse_key
from blackpoker.runtime.rules.cards import Suit
from blackpoker.runtime.rules.cost import UNITS, Cost
from blackpoker.runtime.rules.keyspec import ANY_CARD, JOKER_PATTERN, CardPattern, KeySpec, RankRange
from hypothesis import assume, given, settings
from hypothesis import strategies as st

# --- strategies for valid IR --------------------------------------------------------------------


def runs(ranks: set[int]) -> tuple[RankRange, ...]:
    """Maximal runs of consecutive ranks: the canonical ranks of a pattern."""
    result: list[RankRange] = []
    for rank in sorted(ranks):
        if result and result[-1].high == rank - 1:
            result[-1] = RankRange(result[-1].low, rank)
        else:
            result.append(RankRange(rank, rank))
    return tuple(result)


rank_sets = st.sets(st.integers(1, 13), min_size=1)
suit_sets = st.frozensets(st.sampled_from(Suit))


@st.composite
def rank_patterns(draw: st.DrawFn, suit: Suit | None = None, rank: int | None = None) -> CardPattern:
    """A pattern with ranks; when given, `suit` is among its suits (if any) and `rank` among its ranks."""
    suits = draw(suit_sets)
    ranks = draw(rank_sets)
    if suit is not None and suits:
        suits |= {suit}
    if rank is not None:
        ranks.add(rank)
    return CardPattern(suits, runs(ranks))


@st.composite
def pattern_keys(draw: st.DrawFn) -> KeySpec:
    same = draw(st.sampled_from([None, "suit", "number"]))
    if same is None:
        patterns = st.one_of(rank_patterns(), st.just(JOKER_PATTERN))
    else:  # every pattern shares a suit / a rank, so the key can hold
        patterns = (
            rank_patterns(suit=draw(st.sampled_from(Suit)))
            if same == "suit"
            else rank_patterns(rank=draw(st.integers(1, 13)))
        )
    chosen = tuple(draw(st.lists(patterns, min_size=1, max_size=4)))
    count, or_more = 1, False
    if len(chosen) == 1:
        count, or_more = draw(st.integers(1, 9)), draw(st.booleans())
    assume(same is None or len(chosen) * count >= 2)
    return KeySpec(chosen, count, or_more, same_suit=same == "suit", same_number=same == "number")


any_card_keys = st.builds(
    lambda same_suit, count, or_more: KeySpec(
        (ANY_CARD,), count, or_more, same_suit=same_suit, same_number=not same_suit
    ),
    st.booleans(),
    st.integers(2, 13),
    st.booleans(),
)
special_keys = st.one_of(
    st.just(KeySpec((ANY_CARD,), face_down=True)),
    st.builds(lambda count: KeySpec((ANY_CARD,), count, rare=True), st.integers(1, 5)),
)
key_specs = st.one_of(pattern_keys(), any_card_keys, special_keys)
costs = st.lists(st.sampled_from(UNITS), max_size=6).map(lambda units: Cost(tuple(units)))

# --- noise: other spellings of the same notation -------------------------------------------------

_VARIANTS: dict[str, list[str]] = {
    "〜": ["〜", "~", "～"],
    "♡": ["♡", "♥"],
    "♢": ["♢", "♦"],
    ",": [",", "、", "，"],
    "(": ["(", "（"],
    ")": [")", "）"],
    **{c: [c, chr(ord(c) - ord("!") + ord("！"))] for c in "0123456789AJQKBCDLSJoker$"},
}
_SPACES = ["", "", "", " ", "\u3000", "\t", "  "]


@st.composite
def respelled(draw: st.DrawFn, text: str) -> str:
    """`text` with random variant spellings and whitespace between any two characters."""
    return "".join(
        draw(st.sampled_from(_VARIANTS.get(c, [c]))) + draw(st.sampled_from(_SPACES)) for c in text
    )


# --- properties -------------------------------------------------------------------------------------


@given(key_specs)
def test_key_round_trip(spec: KeySpec) -> None:
    assert parse_key(str(spec)) == spec


@given(st.data())
def test_respelled_keys_parse_to_the_same_spec(data: st.DataObject) -> None:
    spec = data.draw(key_specs)
    assert parse_key(data.draw(respelled(str(spec)))) == spec


@given(costs)
def test_cost_round_trip(cost: Cost) -> None:
    assert parse_cost(str(cost)) == cost


@given(st.data())
def test_respelled_costs_parse_to_the_same_cost(data: st.DataObject) -> None:
    cost = data.draw(costs)
    dollar = data.draw(st.sampled_from(["", "$"])) if cost.units else ""  # a lone "$" is an error
    text = data.draw(respelled(dollar + str(cost)))
    assert parse_cost(text) == cost


_FRAGMENTS = [
    *"♠♡♢♣AJQK2510〜~,とを枚の Z",
    *["10", "以上", "同じスート", "同じ数字", "Joker", "全て(裏向き)", "レアカード", "1枚"],
]
notation_soup = st.lists(st.sampled_from(_FRAGMENTS), max_size=12).map("".join)


@st.composite
def edited_keys(draw: st.DrawFn) -> str:
    """Canonical notation with a few fragments inserted or characters deleted: often still valid."""
    text = list(draw(respelled(str(draw(key_specs)))))
    for _ in range(draw(st.integers(0, 3))):
        if text and draw(st.booleans()):
            del text[draw(st.integers(0, len(text) - 1))]
        else:
            text.insert(draw(st.integers(0, len(text))), draw(st.sampled_from(_FRAGMENTS)))
    return "".join(text)


@settings(max_examples=500)
@given(st.one_of(edited_keys(), notation_soup))
def test_canonical_printing_is_idempotent(text: str) -> None:
    try:
        spec = parse_key(text)
    except NotationError:
        return  # only texts that parse have a canonical form
    canonical = str(spec)
    assert parse_key(canonical) == spec
    assert str(parse_key(canonical)) == canonical


def check_problems(error: NotationError, text: str) -> None:
    assert error.text == text
    assert error.problems
    for problem in error.problems:
        assert 0 <= problem.start <= problem.end <= len(text)
        assert problem.end > problem.start or problem.start == len(text)
        assert problem.message and "__" not in problem.message


@settings(max_examples=500)
@given(st.one_of(edited_keys(), notation_soup, st.text()))
def test_keys_never_raise_anything_but_notation_error(text: str) -> None:
    try:
        parse_key(text)
    except NotationError as error:
        check_problems(error, text)


@given(st.one_of(st.text(alphabet="BCDLSX$ Ｂ　b"), st.text()))
def test_costs_never_raise_anything_but_notation_error(text: str) -> None:
    try:
        parse_cost(text)
    except NotationError as error:
        check_problems(error, text)
