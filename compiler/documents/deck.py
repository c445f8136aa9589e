"""Deck files (`kind: deck`): the cards one player brings, checked against one set of cards.

A set of playing cards holds each suit and rank once and at most two Jokers (seed 001 §3.3,
使用できるトランプ); a deck, and the decks a player builds from one set, draw on that set.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from blackpoker.compiler.load import Document, load_file
from blackpoker.compiler.validate import schema_problems, without_broken
from blackpoker.runtime.rules.cards import Card, full_deck
from blackpoker.runtime.rules.diagnostics import Diagnostic

SET_RULE = "§3.3"  # 使用できるトランプ: the common rules every edition shares
MAX_JOKERS = sum(card.is_joker for card in full_deck())


@dataclass(frozen=True, slots=True)
class Deck:
    doc: Document
    name: str
    cards: tuple[Card, ...]  # in the file's order


def read_deck(path: Path, shown: str) -> tuple[Deck | None, list[Diagnostic]]:
    """A deck file loaded and checked: schema, card notation, and one set of cards."""
    doc, problems = load_file(path, shown)
    if doc is None:
        return None, problems
    if not isinstance(doc.data, dict) or doc.data.get("kind") != "deck":
        return None, [
            *problems,
            doc.at(("kind",) if isinstance(doc.data, dict) else (), "kind: expected 'deck'"),
        ]
    return deck_from(doc)


def deck_from(doc: Document) -> tuple[Deck | None, list[Diagnostic]]:
    """A loaded `kind: deck` document as a deck, with every problem found: a field the schema
    refuses is left out and the cards are still checked (all problems at once)."""
    problems = schema_problems(doc, "deck")
    usable = without_broken(doc) if problems else doc
    if usable is None or "cards" not in usable.data or usable.data["cards"] != doc.data["cards"]:
        # the list itself refused: its entries' places are the schema's to name
        return None, problems
    cards: list[tuple[int, Card]] = []
    for index, text in enumerate(doc.data["cards"]):
        try:
            cards.append((index, Card.parse(text)))
        except ValueError as error:
            problems.append(doc.at(("cards", index), f"cards[{index}]: {error}"))
    problems += set_problems((doc, index, card) for index, card in cards)
    name = doc.data.get("name") or Path(doc.path).stem
    return (None if problems else Deck(doc, name, tuple(card for _, card in cards))), problems


def set_problems(cards: Iterable[tuple[Document, int, Card]]) -> list[Diagnostic]:
    """Cards (each at an index of a deck file's `cards`) that one set cannot hold together: a
    repeated card, a third Joker. Several files: the decks a player builds from one set."""
    first: dict[Card, tuple[Document, int]] = {}
    jokers = 0
    problems: list[Diagnostic] = []
    for doc, index, card in cards:
        if card.is_joker:
            jokers += 1
            if jokers > MAX_JOKERS:
                message = f"cards[{index}]: Joker no. {jokers}; a set has at most {MAX_JOKERS} ({SET_RULE})"
                problems.append(doc.at(("cards", index), message))
        elif card in first:
            where = _place(*first[card], doc)
            message = (
                f"cards[{index}]: {card} is listed twice (first {where}); "
                f"a set of cards holds each card once ({SET_RULE})"
            )
            problems.append(doc.at(("cards", index), message))
        else:
            first[card] = doc, index
    return problems


def _place(doc: Document, index: int, seen_from: Document) -> str:
    """Where a card was listed, as seen from a file: `on line 3`, or `at other.yaml:3:3`."""
    where = doc.locate(("cards", index))
    return f"on line {where.line}" if doc is seen_from else f"at {where}"
