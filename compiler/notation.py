"""Parse cost and key-card notation into IR, reporting every problem against the original text.

Text goes through normalize() first, then a Lark LALR parser (grammars/*.lark) whose
inline transformer builds the IR while parsing, without a tree. Semantic checks live
in the IR (keyspec.py); here their flaws are located and worded for authors. Issues
are collected as (start, end, message) in normalised offsets and mapped back at the end.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib.resources import files
from typing import Any, NamedTuple

from blackpoker.runtime.rules.cards import Suit, rank_from_label, with_suit_symbols
from blackpoker.runtime.rules.cost import UNITS, Cost
from blackpoker.runtime.rules.diagnostics import BlackPokerError, Diagnostic, Location
from blackpoker.runtime.rules.keyspec import (
    ANY_CARD,
    DECK_SIZE,
    JOKER_PATTERN,
    CardPattern,
    Flaw,
    InvalidKeySpec,
    KeySpec,
    Part,
    RankRange,
    merge_ranks,
)
from blackpoker.runtime.rules.normalize import Normalized, normalize
from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem, as a half-open span of the original text (start == end == len(text) at its end)."""

    start: int
    end: int
    message: str


class NotationError(BlackPokerError, ValueError):
    """A notation string that does not parse; `problems` holds every problem found, in text order.

    Its diagnostics locate each problem in the text itself (`notation:1:COL`); the compiler
    relocates them to the line of the file that holds the text."""

    def __init__(self, text: str, problems: Iterable[Problem]) -> None:
        self.text = text
        self.problems = tuple(sorted(problems, key=lambda p: (p.start, p.end)))
        super().__init__(
            Diagnostic(Location("notation", 1, p.start + 1), p.message, text, max(1, p.end - p.start))
            for p in self.problems
        )


def parse_cost(text: str, units: Sequence[str] | None = None) -> Cost:
    """Read a cost such as "BBL", "$BL", "ＢＬ" or "B L"; the empty text is the empty cost.
    `units`, the edition's cost units, are what a syntax error offers (default: every unit the
    notation has; the checks refuse a unit the edition lacks)."""
    norm = normalize(text)
    try:
        cost = _cost_parser().parse(norm.text)
    except UnexpectedInput as error:
        words = _COST_WORDS if units is None else {**_COST_WORDS, "UNIT": _unit_words(units)}
        raise NotationError(text, [_syntax_problem(error, norm, words)]) from None
    assert isinstance(cost, Cost)  # the inline transformer builds the IR instead of a tree
    return cost


def parse_key(text: str) -> KeySpec:
    """Read key-card notation such as "♡A〜K と ♢A〜K" or "同じスートを2枚以上"."""
    norm = normalize(text)
    if not norm.text:
        end = len(text)
        message = "empty key notation (an action without key cards has no key)"
        raise NotationError(text, [Problem(end, end, message)])
    try:
        result = _key_parser().parse(norm.text)
    except UnexpectedInput as error:
        problem = _syntax_problem(error, norm, _KEY_WORDS)
        meant = with_suit_symbols(text)
        if meant != text and _parses(meant):  # S2, ハート5: suits written as letters or names
            problem = replace(problem, message=f"{problem.message}; did you mean '{meant.strip()}'?")
        raise NotationError(text, [problem]) from None
    if isinstance(result, KeySpec):
        return replace(result, written=text.strip())
    assert isinstance(result, _Failure)
    length = len(norm.text)
    spans = [(norm.original_span(start, min(end, length)), message) for start, end, message in result.issues]
    raise NotationError(text, [Problem(start, end, message) for (start, end), message in spans])


def _parses(key: str) -> bool:
    try:
        parse_key(key)
    except NotationError:
        return False
    return True


# --- parsers ---------------------------------------------------------------------------------


def _grammar(name: str) -> str:
    return (files("blackpoker.compiler") / "grammars" / name).read_text(encoding="utf-8")


class _CostTransformer(Transformer[Token, Cost]):
    def start(self, units: list[Token]) -> Cost:
        return Cost(tuple("".join(units)))


@cache
def _cost_parser() -> Lark:
    return Lark(_grammar("cost.lark"), parser="lalr", lexer="contextual", transformer=_CostTransformer())


_Issue = tuple[int, int, str]  # start, end (normalised offsets), message
_WHOLE = (0, sys.maxsize)  # the span of the whole text; parse_key clips it


# NamedTuples rather than dataclasses: several are built per parse, and these build fastest.
class _Pattern(NamedTuple):
    ir: CardPattern  # a stand-in when `issues` is not empty
    start: int
    end: int
    issues: list[_Issue]


class _Count(NamedTuple):
    value: int
    or_more: bool
    start: int
    end: int


class _Failure(NamedTuple):
    issues: list[_Issue]


class _KeyTransformer(Transformer[Token, "KeySpec | _Failure"]):
    """Runs inside the LALR parser: each reduction builds IR straight from its tokens."""

    def pattern(self, tokens: list[Token]) -> _Pattern:
        first = tokens[0]
        start, end = _start(first), _end(tokens[-1])
        if first.type == "JOKER":
            return _Pattern(JOKER_PATTERN, start, end, [])
        issues: list[_Issue] = []
        suits: frozenset[Suit] = frozenset()
        if first.type == "SUITS":
            suits = _suits(first, issues)
            tokens = tokens[1:]
        return _Pattern(CardPattern(suits, _ranks(tokens, start, end, issues)), start, end, issues)

    def count(self, tokens: list[Token]) -> _Count:
        return _count(tokens[1], tokens[0], tokens[-1])

    def plain(self, children: list[_Pattern | _Count]) -> KeySpec | _Failure:
        return _key(children, None)

    def same_patterns(self, children: list[Any]) -> KeySpec | _Failure:  # SAME_*, patterns, count?
        return _key(children[1:], children[0])

    def same_any(self, tokens: list[Token]) -> KeySpec | _Failure:
        same, *amount = tokens
        number = next(token for token in amount if token.type == "NUMBER")
        return _key([_count(number, amount[0], amount[-1])], same)

    def face_down(self, tokens: list[Token]) -> KeySpec | _Failure:
        return _key([], None, face_down=True)

    def rare(self, tokens: list[Token]) -> KeySpec | _Failure:
        number, mai = tokens
        return _key([_count(number, number, mai)], None, rare=True)


@cache
def _key_parser() -> Lark:
    return Lark(_grammar("key.lark"), parser="lalr", lexer="contextual", transformer=_KeyTransformer())


# --- building the IR -------------------------------------------------------------------------

_SUITS: dict[str, Suit] = {suit.value: suit for suit in Suit}
# Stands in for ranks with issues, so that key-level checks still run; as the most
# permissive rank set it cannot cause a flaw of its own.
_ALL_RANKS = (RankRange(1, 13),)


def _key(
    children: list[Any], same: Token | None, *, face_down: bool = False, rare: bool = False
) -> KeySpec | _Failure:
    """The KeySpec, or every issue of its patterns and of the key as a whole."""
    count = children[-1] if children and isinstance(children[-1], _Count) else None
    patterns: list[_Pattern] = children[:-1] if count else children
    issues = [issue for pattern in patterns for issue in pattern.issues]
    try:
        spec = KeySpec(
            tuple([pattern.ir for pattern in patterns]) or (ANY_CARD,),
            count=count.value if count else 1,
            or_more=count is not None and count.or_more,
            same_suit=same is not None and same.type == "SAME_SUIT",
            same_number=same is not None and same.type == "SAME_NUMBER",
            face_down=face_down,
            rare=rare,
        )
    except InvalidKeySpec as error:
        located = [(*_locate(flaw, patterns, count, same), flaw.message) for flaw in error.flaws]
        return _Failure(issues + located)
    return _Failure(issues) if issues else spec


def _locate(
    flaw: Flaw, patterns: list[_Pattern], count: _Count | None, same: Token | None
) -> tuple[int, int]:
    if flaw.part is Part.PREFIX and same is not None:
        return _start(same), _end(same)
    if flaw.part is Part.PATTERN and flaw.index < len(patterns):
        return patterns[flaw.index].start, patterns[flaw.index].end
    if flaw.part is Part.COUNT and count is not None:
        return count.start, count.end
    return _WHOLE


def _count(number: Token, first: Token, last: Token) -> _Count:
    return _Count(_count_value(number.value), last.type == "OR_MORE", _start(first), _end(last))


def _start(token: Token) -> int:
    assert token.start_pos is not None  # the contextual lexer positions every token
    return token.start_pos


def _end(token: Token) -> int:
    assert token.end_pos is not None
    return token.end_pos


def _suits(token: Token, issues: list[_Issue]) -> frozenset[Suit]:
    symbols = token.value
    if len(set(symbols)) < len(symbols):
        for offset, symbol in enumerate(symbols):
            if symbol in symbols[:offset]:
                at = _start(token) + offset
                issues.append((at, at + 1, f"suit {symbol} is written twice"))
    return frozenset(map(_SUITS.__getitem__, symbols))


def _ranks(tokens: list[Token], start: int, end: int, issues: list[_Issue]) -> tuple[RankRange, ...]:
    """The ranks of a pattern's RANK tokens, where TILDE RANK after a rank makes a range."""
    ranges: list[RankRange | None] = []
    index = 0
    while index < len(tokens):
        low = high = tokens[index]
        if index + 1 < len(tokens) and tokens[index + 1].type == "TILDE":
            high = tokens[index + 2]
            index += 2
        index += 1
        ranges.append(_range(low, high, issues))
    known = [r for r in ranges if r is not None]
    if len(known) < len(ranges):
        return _ALL_RANKS
    try:
        return merge_ranks(known)
    except ValueError as error:  # overlapping ranges
        issues.append((start, end, str(error)))
        return _ALL_RANKS


def _range(low_token: Token, high_token: Token, issues: list[_Issue]) -> RankRange | None:
    low, high = rank_from_label(low_token.value), rank_from_label(high_token.value)
    if low is None or high is None:
        for token in (low_token,) if high_token is low_token else (low_token, high_token):
            if rank_from_label(token.value) is None:
                hint = ": write A for the ace" if token.value == "1" else ""
                message = f"'{token}' is not a rank{hint}; rank must be A, 2–10, J, Q or K"
                issues.append((_start(token), _end(token), message))
        return None
    try:
        return RankRange(low, high)
    except ValueError as error:  # descending
        issues.append((_start(low_token), _end(high_token), str(error)))
        return None


def _count_value(digits: str) -> int:
    digits = digits.lstrip("0") or "0"
    # int() refuses digit strings past 4300 characters; every count above a deck is flagged alike.
    return int(digits) if len(digits) <= 4 else DECK_SIZE + 1


# --- syntax errors ---------------------------------------------------------------------------

# Terminal names in the order messages list them; tests check that every terminal has words.
_KEY_WORDS: dict[str, str] = {
    "RANK": "a rank (A, 2–10, J, Q, K)",
    "NUMBER": "a count",
    "JOKER": "Joker",
    "SUITS": "a suit (♠ ♡ ♢ ♣)",
    "TILDE": "'〜'",
    "_COMMA": "','",
    "_AND": "'と'",
    "WO": "'を'",
    "_NO": "'の'",
    "MAI": "'枚'",
    "OR_MORE": "'以上'",
    "SAME_SUIT": "'同じスート'",
    "SAME_NUMBER": "'同じ数字'",
    "_ALL": "'全て'",
    "_LPAR": "'('",
    "_FACE_DOWN": "'裏向き'",
    "_RPAR": "')'",
    "_RARE": "'レアカード'",
    "$END": "end of input",
}


def _unit_words(units: Iterable[str]) -> str:
    return f"a payment unit ({', '.join(sorted(units))})"


_COST_WORDS: dict[str, str] = {
    "UNIT": _unit_words(UNITS),
    "_DOLLAR": "'$'",
    "$END": "end of input",
}


def _syntax_problem(error: UnexpectedInput, norm: Normalized, words: Mapping[str, str]) -> Problem:
    expected: Iterable[str] | None
    if isinstance(error, UnexpectedCharacters):
        at = error.pos_in_stream
        assert at is not None  # a lexer error always has a position
        start, end = norm.original_span(at, at + 1)
        expected = error.allowed  # what the lexer could read here; it never lists end of input
    elif isinstance(error, UnexpectedToken) and error.token.type != "$END":
        start, end = norm.original_span(_start(error.token), _end(error.token))
        expected = error.accepts or error.expected
    else:  # the input ended too soon
        start = end = len(norm.source)
        expected = getattr(error, "accepts", None) or getattr(error, "expected", None)
    found = f"'{norm.source[start:end]}'" if end > start else "end of input"
    message = f"unexpected {found}"
    if expected:
        message += f"; expected {_describe(expected, words)}"
    return Problem(start, end, message)


def _describe(expected: Iterable[str], words: Mapping[str, str]) -> str:
    """Expected terminals in words: "a rank (…), Joker, or a suit (…)"."""
    names = set(expected)
    phrases = [phrase for name, phrase in words.items() if name in names]
    if len(phrases) <= 2:
        return " or ".join(phrases)
    return ", ".join(phrases[:-1]) + ", or " + phrases[-1]
