"""Extra lists (切札, trumps): parse a validated `kind: extra` file, check it against its
edition, and link the extra format: the edition's largest official format (mast) plus one
extra list (seed 001 §3.11, §4.4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from blackpoker.compiler.checks import (
    Added,
    ability_loops,
    check_abilities,
    check_action_names,
    loop_problems,
)
from blackpoker.compiler.link import finish, official
from blackpoker.compiler.load import Document, PathKey
from blackpoker.compiler.needs import dangling, references
from blackpoker.compiler.parse import (
    _ACTION,
    _CHARACTER,
    EditionSource,
    _fields,
    parse_abilities,
    setup_action,
)
from blackpoker.compiler.upstream.vocabulary import vocabulary
from blackpoker.runtime.rules.cards import Card, Suit
from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic
from blackpoker.runtime.rules.model import (
    EXTRA_FORMAT_ID,
    Action,
    Character,
    CostUnit,
    Edition,
    Format,
    RuleSet,
    TrumpRule,
    Visibility,
    ZoneRule,
)
from blackpoker.runtime.rules.program import Abilities, All, Event, FaceUp, Player, Requires

NUMBERS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = tuple(suit.value for suit in Suit)
# The extra format (001 §4.4) and each player's trump zone (切札; 001 §3.12.1: a face-up
# trump is public, a face-down one its owner's).
EXTRA_FORMAT = Format(EXTRA_FORMAT_ID, "エクストラ", "☆")
TRUMP_ZONE = ZoneRule("trump", "切札", Visibility.FACES)


@dataclass(frozen=True, slots=True)
class ExtraCharacter:
    """A character an ability's action puts on the field, as printed; with an id, `rule` is
    the character of the extra format (a summoned one), and `actions` those its ability text
    describes that no ability lists (caused by it: リアニメーター's リアニメイト)."""

    name: str
    type: str
    cards: str
    note: str = ""
    ability: str = ""
    ruby: str = ""
    dev_note: str = ""
    rule: Character | None = None
    actions: tuple[Action, ...] = ()


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
    abilities: Abilities = ()  # continuous abilities, on while the card lies face up
    ruby: str = ""
    type: str = ""  # as printed: 表切札
    dev_note: str = ""

    @property
    def every_action(self) -> tuple[Action, ...]:
        """The ability's actions, then those its characters cause."""
        return (*self.actions, *(a for c in self.characters for a in c.actions))

    @property
    def summoned(self) -> frozenset[str]:
        """The ids of the characters it puts on the field that the extra format plays."""
        return frozenset(c.rule.id for c in self.characters if c.rule is not None)


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
    programs_from: str | None = None  # the built-in list whose engine data same-printed actions take
    cost_units: tuple[CostUnit, ...] = ()  # added to the edition's (C, the cause)

    def trump_at(self, suit: str, number: str) -> Trump | None:
        return next((t for t in self.trumps if t.suit == suit and t.number == number), None)

    def actions(self) -> tuple[tuple[PathKey, Action], ...]:
        """Every action of the list, with where it is written: operations, then abilities',
        then the variants and the set-up."""
        found: list[tuple[PathKey, Action]] = [(("operations", i), a) for i, a in enumerate(self.operations)]
        for t, trump in enumerate(self.trumps):
            found += [(("trumps", t, "actions", i), a) for i, a in enumerate(trump.actions)]
            found += [
                (("trumps", t, "characters", c, "actions", i), a)
                for c, character in enumerate(trump.characters)
                for i, a in enumerate(character.actions)
            ]
        found += [(path, variant) for path, _, variant in self.variants]
        if self.setup is not None:
            found.append((("setup",), self.setup))
        return tuple(found)

    def characters(self) -> tuple[tuple[PathKey, Character], ...]:
        """The characters the list adds to the extra format, with where they are written."""
        return tuple(
            (("trumps", t, "characters", c), character.rule)
            for t, trump in enumerate(self.trumps)
            for c, character in enumerate(trump.characters)
            if character.rule is not None
        )

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

    def character(path: PathKey, raw: Mapping[str, Any]) -> ExtraCharacter:
        shown = ("name", "type", "cards", "note", "ability", "ruby", "dev_note")
        printed = {k: raw[k] for k in shown if k in raw}
        if "id" not in raw:
            return ExtraCharacter(**printed)
        written = {k: v for k, v in raw.items() if k not in ("cards", "actions")}
        fields = _fields(doc, path, written, _CHARACTER, problems)
        rule = Character(**{"formats": (EXTRA_FORMAT.id,), **fields})
        return ExtraCharacter(
            **printed, rule=rule, actions=actions((*path, "actions"), raw.get("actions", []))
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
            characters=tuple(
                character(("trumps", t, "characters", c), entry)
                for c, entry in enumerate(raw.get("characters", []))
            ),
            abilities=parse_abilities(doc, ("trumps", t, "abilities"), raw.get("abilities", ()), problems),
            ruby=raw.get("ruby", ""),
            type=raw.get("type", ""),
            dev_note=raw.get("dev_note", ""),
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
        data.get("programs_from"),
        tuple(CostUnit(u["unit"], u["name"], u["text"]) for u in data.get("cost_units", ())),
    )
    return (None if problems else source), problems


def check_extra(source: ExtraSource, edition: EditionSource) -> list[Diagnostic]:
    """Problems of an extra list against its edition: a card given two abilities, repeated
    ids, and names (action and character types, cost units, programs' names) the edition
    lacks. Programs may request the list's own actions."""
    doc = source.doc
    problems = own_problems(source)
    for t, trump in enumerate(source.trumps):
        for c, character in enumerate(trump.characters):
            if character.type not in edition.edition.character_types:
                known = ", ".join(edition.edition.character_types)
                message = f"type: unknown character type '{character.type}' (declared: {known})"
                problems.append(doc.at(("trumps", t, "characters", c, "type"), message))
    located = source.actions()
    characters = source.characters()
    # what the list's characters name: its own actions or its edition's
    named = dangling(
        references((), [c for _, c in characters]),
        (*edition.actions, *(a for _, a in located)),
        (*edition.characters, *(c for _, c in characters)),
    )
    where = {c.id: path for path, c in characters}
    for ref in named:
        problems.append(
            doc.at((*where[ref.referrer], *ref.at), f"{ref.field}: unknown action '{ref.wanted}'")
        )
    problems += _repeats(doc, [(path, c.id) for path, c in characters])
    theirs = {c.id for c in edition.characters}
    for path, rule in characters:
        if rule.id in theirs:
            message = f"id: '{rule.id}' is already a character of {edition.edition.id}"
            problems.append(doc.at((*path, "id"), message))
    ids = [action.id for _, action in located]
    edition_ids = {a.id for a in edition.actions}  # one id, one action in the extra format
    problems += [
        doc.at((*path, "id"), f"id: '{action.id}' is already an action of {edition.edition.id}")
        for path, action in located
        if action.id in edition_ids
    ]
    own = Added(frozenset(ids) - edition_ids)
    widened = replace(
        edition,
        edition=_widened(edition.edition, source),
        characters=(*edition.characters, *(c for _, c in characters)),
    )
    for path, action in located:
        problems += check_action_names(widened, doc, path, action, own)
    for t, trump in enumerate(source.trumps):
        problems += check_abilities(widened, doc, ("trumps", t, "abilities"), trump.abilities, own)
    if not problems:  # the loops of the format the list makes, once its names are right
        played = (*official(edition, edition.edition.formats[-1]).actions, *(a for _, a in located))
        problems += loop_problems(doc, played, {a.id: path for path, a in located})
        for t, trump in enumerate(source.trumps):
            owner = f"{trump.suit}{trump.number} lies face up"
            problems += ability_loops(doc, played, ("trumps", t, "abilities"), trump.abilities, owner)
    return sorted(set(problems), key=lambda d: (d.location, d.message))


def own_problems(source: ExtraSource) -> list[Diagnostic]:
    """The problems of an extra list on its own: a card given two abilities, repeated ids."""
    doc = source.doc
    problems: list[Diagnostic] = []
    seen: dict[tuple[str, str], int] = {}
    for t, trump in enumerate(source.trumps):
        card = (trump.suit, trump.number)
        if card in seen:
            message = f"card {trump.suit}{trump.number} is given an ability twice"
            problems.append(doc.at(_card_at(doc, (t, seen[card])), message))
        seen.setdefault(card, t)
    problems += _repeats(doc, [(("trumps", t), trump.id) for t, trump in enumerate(source.trumps)])
    return problems + _repeats(doc, [(path, action.id) for path, action in source.actions()])


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
    """The edition with what the extra list adds: its action types, cost units and the trump zone."""
    core = replace(edition.core, zones=(*edition.core.zones, TRUMP_ZONE))
    declared = {u.unit for u in edition.cost_units}
    units = (*edition.cost_units, *(u for u in source.cost_units if u.unit not in declared))
    return replace(
        edition, action_types=(*edition.action_types, *source.action_types), core=core, cost_units=units
    )


def link_extra(source: EditionSource, extra: ExtraSource) -> RuleSet:
    """The extra format: the edition's largest official format, the trump operations, and
    each ability's actions, which a player may request only while the trump lies face up in
    their own trump zone (their `requires`, or their trigger's `if`, gains that condition),
    except the actions its summoned characters cause: the trump card is part of the
    character then. An action without a program is left out: the engine cannot play it (a
    trump lists it as pending). The edition's own checks passed (`Environment.checked`)."""
    problems = check_extra(extra, source)
    if problems:
        raise CompileError(problems)
    base = official(source, source.edition.formats[-1])
    actions = [*base.actions]
    for operation in extra.operations:
        actions += (a for a in (operation, *extra.variants_of(operation.id)) if a.program)
    trumps = []
    for trump in extra.trumps:
        card = Card.parse(f"{trump.suit}{trump.number}")
        every = [a for action in trump.every_action for a in (action, *extra.variants_of(action.id))]
        granted = [
            a if caused_by_one_of(a, trump.summoned) else _while_face_up(a, card) for a in every if a.program
        ]
        actions += granted
        pending = tuple(a.id for a in every if not a.program)
        ids = tuple(a.id for a in granted)
        trumps.append(TrumpRule(card, trump.id, trump.name, ids, pending, trump.abilities))
    edition = _widened(source.edition, extra)
    characters = (*base.characters, *(c for _, c in extra.characters()))
    ruleset = RuleSet(
        edition, EXTRA_FORMAT, tuple(actions), characters, base.fogs, tuple(trumps), extra.setup
    )
    return finish(ruleset)


def caused_by_one_of(action: Action, characters: frozenset[str]) -> bool:
    """Whether one of these characters causes the action: its own ability, not its trump's."""
    return action.caused_by is not None and action.caused_by.kind in characters


def _while_face_up(action: Action, card: Card) -> Action:
    """The action of an ability: available only while its trump lies face up on the side of
    the player who would request it (the triggered player, for a triggered action)."""
    rule = action.triggered_by
    if rule is not None:
        on = FaceUp(zone=TRUMP_ZONE.id, card=card, player=Player(name=rule.player))
        cond = on if rule.cond is None else All(items=(on, rule.cond))
        # "when this ability becomes on" (前触れ): the trump's own card turning face up
        own = card if rule.event is Event.TURNED_FACE_UP and rule.card is None else rule.card
        return replace(action, triggered_by=replace(rule, cond=cond, card=own))
    on = FaceUp(zone=TRUMP_ZONE.id, card=card)
    required = on if action.requires is None else All(items=(on, action.requires.cond))
    return replace(action, requires=Requires(cond=required))


def with_programs_of(extra: ExtraSource, other: ExtraSource) -> ExtraSource:
    """The list with the engine data (program, requires, trigger, variants) of `other`'s action
    of the same id for each action without a program printed exactly alike (history aside),
    the character data of each character printed alike, the continuous abilities of each
    trump whose ability prints alike, and `other`'s set-up when it has
    none: the set-up is the format's rule (001 §3.11.4), which a list does not print."""
    theirs = {action.id: action for _, action in other.actions()}
    engine = vocabulary().action_engine_fields

    def taken(action: Action) -> Action | None:
        origin = theirs.get(action.id)
        if action.program or origin is None or _printed(origin, engine) != _printed(action, engine):
            return None
        return replace(origin, since=action.since, updates=action.updates)

    def take(actions: tuple[Action, ...]) -> tuple[Action, ...]:
        return tuple(taken(a) or a for a in actions)

    # a character printed alike is the same character: the lent summons put it on the field
    summoned = {_printed_character(c): c for t in other.trumps for c in t.characters if c.rule is not None}

    def cast(characters: tuple[ExtraCharacter, ...]) -> tuple[ExtraCharacter, ...]:
        found = [(c, summoned.get(_printed_character(c))) for c in characters]
        return tuple(
            c if c.rule is not None or same is None else replace(c, rule=same.rule, actions=same.actions)
            for c, same in found
        )

    # a trump whose ability prints alike on the same card has the same continuous abilities
    abilities = {(t.suit, t.number, t.ability): t.abilities for t in other.trumps}

    def enabled(trump: Trump) -> Trump:
        lent = abilities.get((trump.suit, trump.number, trump.ability), ())
        actions, characters = take(trump.actions), cast(trump.characters)
        return replace(trump, actions=actions, characters=characters, abilities=trump.abilities or lent)

    lent = {a.id for _, a in extra.actions() if taken(a) is not None}
    variants = [(path, of, v) for path, of, v in other.variants if of in lent and not extra.variants_of(of)]
    return replace(
        extra,
        operations=take(extra.operations),
        trumps=tuple(enabled(t) for t in extra.trumps),
        setup=extra.setup or other.setup,
        variants=(*extra.variants, *variants),
    )


def _printed_character(character: ExtraCharacter) -> tuple[str, ...]:
    """What a sheet prints of a character."""
    return (character.name, character.type, character.cards, character.note, character.ability)


def _printed(action: Action, engine: tuple[str, ...]) -> tuple[Any, ...]:
    """What a sheet prints of an action: its fields but the engine data (`engine`, the fields no
    printed list has) and the history."""
    left_out = {*engine, "since", "updates"}
    return tuple(getattr(action, f.name) for f in fields(Action) if f.compare and f.name not in left_out)
