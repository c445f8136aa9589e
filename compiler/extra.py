"""Extra lists (切札, trumps): parse a validated `kind: extra` file and check it against its
edition. The extra format is the edition's mast lists plus one extra list (seed 001 §3.11)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from blackpoker.compiler.cards import Suit
from blackpoker.compiler.diagnostics import Diagnostic
from blackpoker.compiler.link import Added, check_action_names
from blackpoker.compiler.load import Document, PathKey
from blackpoker.compiler.model import Action
from blackpoker.compiler.parse import _ACTION, EditionSource, _fields

NUMBERS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = tuple(suit.value for suit in Suit)


@dataclass(frozen=True, slots=True)
class ExtraCharacter:
    """A character an ability's action puts on the field, as printed."""

    name: str
    type: str
    cards: str
    note: str = ""
    ability: str = ""


@dataclass(frozen=True, slots=True)
class Trump:
    """One card's ability (a trump face up enables it)."""

    suit: str
    number: str
    id: str
    name: str
    ability: str
    beta: bool
    output: bool
    actions: tuple[Action, ...]
    characters: tuple[ExtraCharacter, ...]


@dataclass(frozen=True, slots=True)
class ExtraSource:
    doc: Document
    id: str
    edition_id: str
    title: str
    published: str
    description: str
    action_types: tuple[str, ...]  # added to the edition's
    operations: tuple[Action, ...]
    trumps: tuple[Trump, ...]

    def trump_at(self, suit: str, number: str) -> Trump | None:
        return next((t for t in self.trumps if t.suit == suit and t.number == number), None)

    def actions(self) -> tuple[tuple[PathKey, Action], ...]:
        """Every action of the list, with where it is written: operations, then abilities'."""
        found: list[tuple[PathKey, Action]] = [(("operations", i), a) for i, a in enumerate(self.operations)]
        for t, trump in enumerate(self.trumps):
            found += [(("trumps", t, "actions", i), a) for i, a in enumerate(trump.actions)]
        return tuple(found)


def parse_extra(doc: Document) -> tuple[ExtraSource | None, list[Diagnostic]]:
    """A validated extra document → its entries, cost and key notation parsed."""
    problems: list[Diagnostic] = []
    data = doc.data

    def actions(path: PathKey, raw: list[Mapping[str, Any]]) -> tuple[Action, ...]:
        return tuple(
            Action(**{"section": "", "formats": (), **_fields(doc, (*path, i), entry, _ACTION, problems)})
            for i, entry in enumerate(raw)
        )

    trumps = tuple(
        Trump(
            suit=raw["suit"],
            number=raw["number"],
            id=raw["id"],
            name=raw["name"],
            ability=raw["ability"],
            beta=raw.get("beta", False),
            output=raw.get("output", True),
            actions=actions(("trumps", t, "actions"), raw.get("actions", [])),
            characters=tuple(ExtraCharacter(**c) for c in raw.get("characters", [])),
        )
        for t, raw in enumerate(data["trumps"])
    )
    source = ExtraSource(
        doc,
        data["id"],
        data["edition"],
        data["title"],
        data["published"],
        data.get("description", ""),
        tuple(data.get("action_types", ())),
        actions(("operations",), data["operations"]),
        trumps,
    )
    return (None if problems else source), problems


def check_extra(source: ExtraSource, edition: EditionSource) -> list[Diagnostic]:
    """Problems of an extra list against its edition: a card given two abilities, repeated
    ids, and names (action and character types, cost units, programs' names) the edition
    lacks. Programs may request the list's own actions."""
    doc = source.doc
    problems: list[Diagnostic] = []
    seen: set[tuple[str, str]] = set()
    for t, trump in enumerate(source.trumps):
        card = (trump.suit, trump.number)
        if card in seen:
            message = f"card {trump.suit}{trump.number} is given an ability twice"
            problems.append(doc.at(("trumps", t, "number"), message))
        seen.add(card)
        for c, character in enumerate(trump.characters):
            if character.type not in edition.edition.character_types:
                known = ", ".join(edition.edition.character_types)
                message = f"type: unknown character type '{character.type}' (declared: {known})"
                problems.append(doc.at(("trumps", t, "characters", c, "type"), message))
    located = source.actions()
    problems += _repeats(doc, [(("trumps", t), trump.id) for t, trump in enumerate(source.trumps)])
    problems += _repeats(doc, [(path, action.id) for path, action in located])
    ids = [action.id for _, action in located]
    own = Added(frozenset(ids) - {a.id for a in edition.actions})
    types = (*edition.edition.action_types, *source.action_types)
    widened = replace(edition, edition=replace(edition.edition, action_types=types))
    for path, action in located:
        problems += check_action_names(widened, doc, path, action, own)
    return sorted(set(problems), key=lambda d: (d.location, d.message))


def _repeats(doc: Document, located: list[tuple[PathKey, str]]) -> list[Diagnostic]:
    seen: set[str] = set()
    problems = []
    for path, entry_id in located:
        if entry_id in seen:
            problems.append(doc.at((*path, "id"), f"duplicate id '{entry_id}'"))
        seen.add(entry_id)
    return problems
