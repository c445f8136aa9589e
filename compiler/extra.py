"""Extra lists (切札, trumps): parse a validated `kind: extra` file, check it against its
edition, and link the extra format: the edition's largest official format (mast) plus one
extra list (seed 001 §3.11, §4.4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from blackpoker.compiler.cards import Suit
from blackpoker.compiler.diagnostics import CompileError, Diagnostic
from blackpoker.compiler.link import Added, check_action_names, finish, link
from blackpoker.compiler.load import Document, PathKey
from blackpoker.compiler.model import (
    Action,
    Edition,
    Format,
    RuleSet,
    TrumpRule,
    Visibility,
    ZoneRule,
)
from blackpoker.compiler.parse import _ACTION, EditionSource, _fields, setup_action
from blackpoker.compiler.program import All, FaceUp, Player, Requires

NUMBERS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = tuple(suit.value for suit in Suit)
# The extra format (001 §4.4) and each player's trump zone (切札; 001 §3.12.1: a face-up
# trump is public, a face-down one its owner's).
EXTRA_FORMAT = Format("extra", "エクストラ", "☆")
TRUMP_ZONE = ZoneRule("trump", "切札", Visibility.FACES)


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
    setup: Action | None = None  # run for each player before the game: placing the trumps
    # an action's variants (another id, name, timing or cost, as its ※ note allows), by its id
    variants: tuple[tuple[PathKey, str, Action], ...] = ()

    def trump_at(self, suit: str, number: str) -> Trump | None:
        return next((t for t in self.trumps if t.suit == suit and t.number == number), None)

    def actions(self) -> tuple[tuple[PathKey, Action], ...]:
        """Every action of the list, with where it is written: operations, then abilities',
        then the variants and the set-up."""
        found: list[tuple[PathKey, Action]] = [(("operations", i), a) for i, a in enumerate(self.operations)]
        for t, trump in enumerate(self.trumps):
            found += [(("trumps", t, "actions", i), a) for i, a in enumerate(trump.actions)]
        found += [(path, variant) for path, _, variant in self.variants]
        if self.setup is not None:
            found.append((("setup",), self.setup))
        return tuple(found)

    def variants_of(self, action_id: str) -> tuple[Action, ...]:
        return tuple(variant for _, of, variant in self.variants if of == action_id)


def parse_extra(doc: Document) -> tuple[ExtraSource | None, list[Diagnostic]]:
    """A validated extra document → its entries, cost and key notation parsed."""
    problems: list[Diagnostic] = []
    data = doc.data

    variants: list[tuple[PathKey, str, Action]] = []

    def action(path: PathKey, entry: Mapping[str, Any]) -> Action:
        fields = {k: v for k, v in entry.items() if k != "variants"}
        found = Action(**{"section": "", "formats": (), **_fields(doc, path, fields, _ACTION, problems)})
        for v, variant in enumerate(entry.get("variants", ())):
            where = (*path, "variants", v)
            changed = _fields(doc, where, variant, _ACTION, problems)
            variants.append((where, found.id, replace(found, **changed)))
        return found

    def actions(path: PathKey, raw: list[Mapping[str, Any]]) -> tuple[Action, ...]:
        return tuple(action((*path, i), entry) for i, entry in enumerate(raw))

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
        setup_action(doc, ("setup",), data["setup"], problems) if "setup" in data else None,
        tuple(variants),
    )
    return (None if problems else source), problems


def check_extra(source: ExtraSource, edition: EditionSource) -> list[Diagnostic]:
    """Problems of an extra list against its edition: a card given two abilities, repeated
    ids, and names (action and character types, cost units, programs' names) the edition
    lacks. Programs may request the list's own actions."""
    doc = source.doc
    problems: list[Diagnostic] = []
    seen: dict[tuple[str, str], int] = {}
    for t, trump in enumerate(source.trumps):
        card = (trump.suit, trump.number)
        if card in seen:
            message = f"card {trump.suit}{trump.number} is given an ability twice"
            problems.append(doc.at(_card_at(doc, (t, seen[card])), message))
        seen.setdefault(card, t)
        for c, character in enumerate(trump.characters):
            if character.type not in edition.edition.character_types:
                known = ", ".join(edition.edition.character_types)
                message = f"type: unknown character type '{character.type}' (declared: {known})"
                problems.append(doc.at(("trumps", t, "characters", c, "type"), message))
    located = source.actions()
    problems += _repeats(doc, [(("trumps", t), trump.id) for t, trump in enumerate(source.trumps)])
    problems += _repeats(doc, [(path, action.id) for path, action in located])
    ids = [action.id for _, action in located]
    edition_ids = {a.id for a in edition.actions}  # one id, one action in the extra format
    problems += [
        doc.at((*path, "id"), f"id: '{action.id}' is already an action of {edition.edition.id}")
        for path, action in located
        if action.id in edition_ids
    ]
    own = Added(frozenset(ids) - edition_ids)
    widened = replace(edition, edition=_widened(edition.edition, source))
    for path, action in located:
        problems += check_action_names(widened, doc, path, action, own)
    return sorted(set(problems), key=lambda d: (d.location, d.message))


def _card_at(doc: Document, trumps: tuple[int, int]) -> PathKey:
    """Where a card given twice is reported: at the suit or number of the two that this
    document writes (a local rule's edit of a list), else at the later one's number."""
    for t in trumps:
        for field in ("number", "suit"):
            if doc.locate(("trumps", t, field)).path == doc.path:
                return ("trumps", t, field)
    return ("trumps", trumps[0], "number")


def _repeats(doc: Document, located: list[tuple[PathKey, str]]) -> list[Diagnostic]:
    seen: set[str] = set()
    problems = []
    for path, entry_id in located:
        if entry_id in seen:
            problems.append(doc.at((*path, "id"), f"duplicate id '{entry_id}'"))
        seen.add(entry_id)
    return problems


def _widened(edition: Edition, source: ExtraSource) -> Edition:
    """The edition with what the extra list adds: its action types and the trump zone."""
    core = replace(edition.core, zones=(*edition.core.zones, TRUMP_ZONE))
    return replace(edition, action_types=(*edition.action_types, *source.action_types), core=core)


def link_extra(source: EditionSource, extra: ExtraSource) -> RuleSet:
    """The extra format: the edition's largest official format, the trump operations, and
    each ability's actions, which a player may request only while the trump lies face up in
    their own trump zone (their `requires`, or their trigger's `if`, gains that condition).
    An action without a program is left out: the engine cannot play it (a trump lists it
    as pending)."""
    problems = check_extra(extra, source)
    if problems:
        raise CompileError(problems)
    base = link(source, source.edition.formats[-1].id)
    actions = [*base.actions]
    for operation in extra.operations:
        actions += (a for a in (operation, *extra.variants_of(operation.id)) if a.program)
    trumps = []
    for trump in extra.trumps:
        card = f"{trump.suit}{trump.number}"
        every = [a for action in trump.actions for a in (action, *extra.variants_of(action.id))]
        granted = [_while_face_up(a, card) for a in every if a.program]
        actions += granted
        pending = tuple(a.id for a in every if not a.program)
        trumps.append(TrumpRule(card, trump.id, trump.name, tuple(a.id for a in granted), pending))
    edition = _widened(source.edition, extra)
    ruleset = RuleSet(
        edition, EXTRA_FORMAT, tuple(actions), base.characters, base.fogs, tuple(trumps), extra.setup
    )
    return finish(ruleset)


def _while_face_up(action: Action, card: str) -> Action:
    """The action of an ability: available only while its trump lies face up on the side of
    the player who would request it (the triggered player, for a triggered action)."""
    rule = action.triggered_by
    if rule is not None:
        on = FaceUp(zone=TRUMP_ZONE.id, card=card, player=Player(name=rule.player))
        cond = on if rule.cond is None else All(items=(on, rule.cond))
        return replace(action, triggered_by=replace(rule, cond=cond))
    on = FaceUp(zone=TRUMP_ZONE.id, card=card)
    required = on if action.requires is None else All(items=(on, action.requires.cond))
    return replace(action, requires=Requires(cond=required))
