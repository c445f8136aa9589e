"""Regulations (`kind: regulations`): frames, match forms, options and the tables saying which
go together; a regulation written as フォーマット + フレーム + オプション checked against them, and
decks checked against its frame.

Every name, number and rule citation comes from the data file: the code knows only the shapes
(a fixed card list, a deck size, the size of a player's decks together, a table of allowed pairs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from blackpoker.compiler.checks import Added, check_action_names
from blackpoker.compiler.documents.deck import Deck, deck_from, set_problems
from blackpoker.compiler.documents.extra import EXTRA_FORMAT, TRUMP_ZONE
from blackpoker.compiler.emit_json import hashed
from blackpoker.compiler.load import Document, PathKey, load_file
from blackpoker.compiler.parse import _ACTION, EditionSource, _fields, setup_action
from blackpoker.compiler.paths import is_path
from blackpoker.compiler.validate import schema_problems
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic, Location, clipped, did_you_mean
from blackpoker.runtime.rules.enums import Destination, destination_named
from blackpoker.runtime.rules.matcher import compile_matcher
from blackpoker.runtime.rules.model import Action, Edition, RuleSet, ZoneRule
from blackpoker.runtime.rules.normalize import normalize

FOLDER = "regulations"  # in actionlists/: one file per rules release
# the lists of a regulations file that a based edition edits entry by entry (by id)
REGULATION_LISTS = ("formats", "matches", "frames", "options", "zones", "actions", "parts")
TEXT = "regulation"  # where a regulation given on the command line is located
PLUS = ("+", "＋")


@dataclass(frozen=True, slots=True)
class Named:
    id: str
    name: str

    def __str__(self) -> str:
        return f"{self.name} ({self.id})"


@dataclass(frozen=True, slots=True)
class Count:
    how: str  # "exactly" or "max"
    number: int

    def allows(self, count: int) -> bool:
        return count == self.number if self.how == "exactly" else count <= self.number

    def __str__(self) -> str:
        return f"{'exactly' if self.how == 'exactly' else 'at most'} {self.number}"


@dataclass(frozen=True, slots=True, eq=False)  # compared and hashed by id and name
class Match(Named):
    rule: str
    decks: int
    games: int
    wins: int
    retire_winning_deck: bool
    visibility: tuple[str, ...]
    procedure: tuple[str, ...]


@dataclass(frozen=True, slots=True, eq=False)  # compared and hashed by id and name
class Part(Named):
    """A card group a frame's scenario building chooses before the game (the trumps, the rare
    card, the hand): where its cards lie, its older names, and for a hand part the name of the
    cards drawn to fill the hand (ランダム手札)."""

    zone: str
    formerly: tuple[str, ...] = ()
    rest: str | None = None


@dataclass(frozen=True, slots=True)
class Chosen:
    """One part of a frame's scenario building: so many cards, of which `face_up` turn face up
    at the start (表切札)."""

    part: Part
    count: int
    face_up: int = 0


@dataclass(frozen=True, slots=True)
class Draft:
    """A draft: `packs` mini-packs of `size` cards from the shuffled deck's top, lying in `zone`;
    one card of each goes to `aside`, the rest back into the deck, which is shuffled."""

    packs: int
    size: int
    zone: str
    aside: str


@dataclass(frozen=True, slots=True)
class Preparation:
    """対戦準備の流れ: the printed names of the two building steps, and the steps as worded."""

    deck_building: str
    scenario_building: str
    steps: tuple[str, ...]
    rule: str


@dataclass(frozen=True, slots=True)
class Recommended:
    regulation: str
    text: str
    rule: str


@dataclass(frozen=True, slots=True, eq=False)  # compared and hashed by id and name
class Frame(Named):
    rule: str
    build: str
    match: Match
    text: str | None  # デッキ構成方法, where the rules word one
    cards: tuple[Card, ...] | None
    size: Count | None
    together: Count | None
    formats: tuple[str, ...] | None  # None: any format the tables allow
    start: tuple[str, ...]
    actions: tuple[str, ...]
    access: tuple[Mapping[str, str], ...]
    unplayable: str | None  # why no game can be played under it yet
    default_deck: str | None = None  # full: without deck files, a built frame plays the whole set
    set_aside: tuple[tuple[str, int], ...] = ()  # (zone, N): the shuffled deck's top N go there
    preset: tuple[str, ...] = ()  # as an option's
    unfit: Destination | str = Destination.GRAVEYARD
    setup: Action | None = None  # each player's decisions at the start (the rare card)
    extra: bool = False  # played with the edition's extra list: the extra format
    scenario: tuple[Chosen, ...] = ()  # シナリオ構築: the parts chosen, in order (they make `setup`)
    draft: Draft | None = None

    @property
    def needs_decks(self) -> bool:
        """Whether each player must bring deck files (a built frame without a default deck)."""
        return self.build == "built" and self.default_deck is None


@dataclass(frozen=True, slots=True, eq=False)  # compared and hashed by id and name
class Option(Named):
    rule: str
    text: str
    start: tuple[str, ...]
    actions: tuple[str, ...]
    preset: tuple[str, ...] = ()  # character types placed from the deck's top at the start
    unfit: Destination | str = Destination.GRAVEYARD  # where a preset card that fits no character goes
    left_out: str | None = None  # the zone holding the cards not in the deck (the pack)


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    rule: str
    rows: str  # formats or frames
    columns: str  # formats, frames or options
    allowed: Mapping[str, frozenset[str]]


@dataclass(frozen=True, slots=True)
class Regulations:
    doc: Document
    id: str
    title: str
    editions: tuple[str, ...]
    notation: str
    formats: tuple[Named, ...]
    matches: tuple[Match, ...]
    frames: tuple[Frame, ...]
    options: tuple[Option, ...]
    tables: tuple[Table, ...]
    zones: tuple[ZoneRule, ...] = ()  # zones its actions name (the pack)
    action_types: tuple[str, ...] = ()  # added to the edition's
    actions: tuple[Action, ...] = ()  # the actions frames and options add, by id
    parts: tuple[Part, ...] = ()  # what scenario building chooses
    preparation: Preparation | None = None
    recommended: Recommended | None = None
    notes: tuple[Diagnostic, ...] = ()  # warnings found reading the file (an old name)

    def kind(self, name: str) -> Sequence[Named]:
        return {"formats": self.formats, "frames": self.frames, "options": self.options}[name]

    def matrices(self) -> tuple[Table, ...]:
        """The tables as the sheet prints them: the compatibility tables, then, when frames name
        the formats they are played with (frame.yaml), the frame × format matrix of those."""
        if all(frame.formats is None for frame in self.frames):
            return self.tables
        every = frozenset(f.id for f in self.formats)
        allowed = {f.id: every if f.formats is None else frozenset(f.formats) for f in self.frames}
        return (*self.tables, Table("フレーム × フォーマット", self.notation, "frames", "formats", allowed))


@dataclass(frozen=True, slots=True)
class Regulation:
    """One regulation: a format, a frame, and options, of one set of regulations."""

    regulations: Regulations
    format: Named
    frame: Frame
    options: tuple[Option, ...]

    @property
    def id(self) -> str:
        return "+".join(part.id for part in self._parts())

    @property
    def name(self) -> str:
        return " + ".join(part.name for part in self._parts())

    def _parts(self) -> tuple[Named, ...]:
        return (self.format, self.frame, *self.options)

    @property
    def played_format(self) -> str:
        """The format its games play: a frame with the extra list plays the extra format."""
        return EXTRA_FORMAT.id if self.frame.extra else self.format.id

    @property
    def added(self) -> tuple[str, ...]:
        """The ids of the actions its frame and options add, each once."""
        return tuple(dict.fromkeys((*self.frame.actions, *(a for o in self.options for a in o.actions))))


@dataclass(frozen=True, slots=True)
class Additions:
    """What a regulation adds to the rule set its games are played with: its zones, action
    types and the actions of its frame and options (plain data, so it pickles)."""

    zones: tuple[ZoneRule, ...] = ()
    action_types: tuple[str, ...] = ()
    actions: tuple[Action, ...] = ()
    setup: Action | None = None  # the frame's decisions at the start

    def widen(self, ruleset: RuleSet) -> RuleSet:
        """The rule set with the additions, its added actions of the rule set's format; the
        frame's set-up replaces the rule set's (a frame says how its trumps are chosen)."""
        if not (self.zones or self.actions or self.setup):
            return ruleset
        edition = ruleset.edition
        core = replace(edition.core, zones=(*edition.core.zones, *self.zones))
        types = tuple(dict.fromkeys((*edition.action_types, *self.action_types)))
        actions = tuple(
            replace(a, formats=(ruleset.format.id,), matcher=compile_matcher(a.key) if a.key else None)
            for a in self.actions
        )
        widened = RuleSet(
            replace(edition, core=core, action_types=types),
            ruleset.format,
            (*ruleset.actions, *actions),
            ruleset.characters,
            ruleset.fogs,
            ruleset.trumps,
            self.setup or ruleset.setup,
        )
        return hashed(widened)


def additions(regulation: Regulation, source: EditionSource) -> tuple[Additions, list[Diagnostic]]:
    """What the regulation adds to its format of the edition, and the names its actions use
    that the edition lacks (see `action_problems`)."""
    regulations = regulation.regulations
    frame = regulation.frame
    played, setup = regulation.played_format, frame.setup is not None
    added = adding(regulations, regulation.added, played, source.edition, setup)
    added = replace(added, setup=frame.setup)
    return added, action_problems(regulations, source, added.actions)


def adding(
    regulations: Regulations, wanted: Sequence[str], format_id: str, edition: Edition, setup: bool = False
) -> Additions:
    """The additions of the actions `wanted` (ids) in a format of the edition: those actions,
    the zones the edition lacks (also for a frame's `setup`, which lays cards there) and the
    action types (nothing when no action is wanted and there is no set-up)."""
    declared = {z.id for z in edition.core.zones}
    return Additions(
        tuple(z for z in regulations.zones if z.id not in declared) if wanted or setup else (),
        regulations.action_types if wanted else (),
        tuple(replace(a, formats=(format_id,)) for a in regulations.actions if a.id in wanted),
    )


def played_formats(regulations: Regulations, part: Frame | Option) -> tuple[Named, ...]:
    """The formats a frame or an option can be played with: those of which some regulation
    naming it passes the lists and tables (an option, with any frame)."""

    def allowed(text: str) -> bool:
        try:
            parse_regulation(text, regulations)
        except CompileError:
            return False
        return True

    frames = (
        [part.id] if isinstance(part, Frame) else [f"{frame.id}+{part.id}" for frame in regulations.frames]
    )
    return tuple(f for f in regulations.formats if any(allowed(f"{f.id}+{rest}") for rest in frames))


def adders(regulations: Regulations, action_id: str) -> tuple[Frame | Option, ...]:
    """The frames and options that add an action (the official list prints them with it)."""
    return tuple(part for part in parts(regulations) if action_id in part.actions)


def parts(regulations: Regulations) -> tuple[Frame | Option, ...]:
    """The frames and the options: what adds actions, zones and a start to a format."""
    return (*regulations.frames, *regulations.options)


def action_problems(
    regulations: Regulations, source: EditionSource, actions: Sequence[Action]
) -> list[Diagnostic]:
    """The names the regulations' actions use that the edition (with the regulations' zones
    and action types) lacks, each at its place in the regulations file; an action with
    `formats` is checked in those formats of the edition."""
    edition = source.edition
    declared = {z.id for z in edition.core.zones}
    widened = replace(
        edition,
        core=replace(
            edition.core, zones=(*edition.core.zones, *(z for z in regulations.zones if z.id not in declared))
        ),
        action_types=tuple(dict.fromkeys((*edition.action_types, *regulations.action_types))),
    )
    checked = EditionSource(regulations.doc, widened, source.actions, source.characters, source.fogs)
    own = Added(frozenset(a.id for a in regulations.actions) - {a.id for a in source.actions})
    at = {a.id: index for index, a in enumerate(regulations.actions)}
    return [
        problem
        for action in actions
        for problem in check_action_names(checked, regulations.doc, ("actions", at[action.id]), action, own)
    ]


# --- the data files ---------------------------------------------------------------------------


def read_regulations(path: Path, shown: str) -> tuple[Regulations | None, list[Diagnostic]]:
    doc, problems = load_file(path, shown)
    if doc is None:
        return None, problems
    if not isinstance(doc.data, dict) or doc.data.get("kind") != "regulations":
        where = ("kind",) if isinstance(doc.data, dict) else ()
        return None, [*problems, doc.at(where, "kind: expected 'regulations'")]
    return regulations_from(doc)


def regulations_from(doc: Document) -> tuple[Regulations | None, list[Diagnostic]]:
    """A loaded `kind: regulations` document, with every problem: schema, then references."""
    problems = schema_problems(doc, "regulations")
    if problems:
        return None, problems
    data = doc.data
    problems += _unique(doc, data)
    matches = {raw["id"]: _match(raw) for raw in data["matches"]}
    zone_ids = {z["id"] for z in data.get("zones", ())}
    parts = tuple(_part(doc, i, raw, zone_ids, problems) for i, raw in enumerate(data.get("parts", ())))
    preparation = data.get("preparation")
    notes: list[Diagnostic] = []
    frames = []
    for index, raw in enumerate(data["frames"]):
        match = matches.get(raw["match"])
        if match is None:
            known = ", ".join(matches)
            problems.append(
                doc.at(("frames", index, "match"), f"match: no match form '{raw['match']}' ({known})")
            )
            continue
        frame = _frame(doc, index, raw, match, problems)
        chosen = _scenario(doc, index, raw, parts, zone_ids, problems, notes)
        if chosen:
            named = preparation["scenario_building"] if preparation else frame.name
            setup = scenario_setup(doc, ("frames", index, "scenario_building"), named, chosen, frame.draft)
            frame = replace(frame, scenario=chosen, setup=setup)
        frames.append(frame)
    format_ids = {f["id"] for f in data["formats"]}
    for index, raw in enumerate(data["frames"]):
        for at, format_id in enumerate(raw.get("formats", ())):
            if format_id not in format_ids:
                where = ("frames", index, "formats", at)
                problems.append(doc.at(where, f"formats: no format '{format_id}' in formats"))
    tables = tuple(_table(doc, index, raw, problems) for index, raw in enumerate(data.get("tables", ())))
    actions = tuple(
        Action(**{"section": "", "formats": (), **_fields(doc, ("actions", i), raw, _ACTION, problems)})
        for i, raw in enumerate(data.get("actions", ()))
    )
    problems += _unknown_actions(doc, data, {a.id for a in actions})
    problems += _key_zone_problems(doc, actions, zone_ids)
    for index, raw in enumerate(data["frames"]):
        for at, entry in enumerate(raw.get("set_aside", ())):
            if entry["zone"] not in zone_ids:
                message = f"set_aside: no zone '{entry['zone']}' in zones ({', '.join(sorted(zone_ids))})"
                problems.append(doc.at(("frames", index, "set_aside", at, "zone"), message))
    if problems:
        return None, problems
    regulations = Regulations(
        doc,
        data["id"],
        data["title"],
        tuple(data["editions"]),
        data["notation"],
        tuple(Named(f["id"], f["name"]) for f in data["formats"]),
        tuple(matches.values()),
        tuple(frames),
        tuple(_option(raw) for raw in data.get("options", ())),
        tables,
        tuple(ZoneRule.read(raw) for raw in data.get("zones", ())),
        tuple(data.get("action_types", ())),
        actions,
        parts,
        None
        if preparation is None
        else Preparation(
            preparation["deck_building"],
            preparation["scenario_building"],
            tuple(preparation["steps"]),
            preparation["rule"],
        ),
        None if "recommended" not in data else Recommended(**data["recommended"]),
        tuple(notes),
    )
    problems += _recommended_problems(regulations)
    return (None, problems) if problems else (regulations, [])


def _part(
    doc: Document, index: int, raw: Mapping[str, Any], zones: set[str], problems: list[Diagnostic]
) -> Part:
    """A part lies in the hand, one of the file's zones, or the trumps (of a frame with extra)."""
    if raw["zone"] not in {"hand", TRUMP_ZONE.id, *zones}:
        known = ", ".join(sorted(zones))
        message = f"zone: no zone '{raw['zone']}' (hand, {TRUMP_ZONE.id} or one of zones: {known})"
        problems.append(doc.at(("parts", index, "zone"), message))
    return Part(raw["id"], raw["name"], raw["zone"], tuple(raw.get("formerly", ())), raw.get("rest"))


def _scenario(
    doc: Document,
    index: int,
    raw: Mapping[str, Any],
    parts: tuple[Part, ...],
    zones: set[str],
    problems: list[Diagnostic],
    notes: list[Diagnostic],
) -> tuple[Chosen, ...]:
    """A frame's scenario building: each part named by id or name, an old name (`formerly`)
    read with a note; trumps only for a frame with the extra list; a draft's parts take as
    many cards as it drafts, and its zones are the file's."""
    found: list[Chosen] = []
    by_key = {_key(p.name): p for p in parts} | {p.id.casefold(): p for p in parts}
    for at, entry in enumerate(raw.get("scenario_building", ())):
        where = ("frames", index, "scenario_building", at, "part")
        written = entry["part"]
        part = by_key.get(_key(written))
        former = next((p for p in parts if _key(written) in {_key(n) for n in p.formerly}), None)
        if part is None and former is not None:
            part = former
            message = f"part: '{written}' is the old name of {former.name}: write {former.name}"
            notes.append(replace(doc.at(where, message), warning=True))
        if part is None:
            known = ", ".join(str(p) for p in parts) or "none (the file has no parts)"
            suggestion = did_you_mean(_key(written), by_key, show=lambda near: str(by_key[near]))
            problems.append(doc.at(where, f"part: no part '{written}' ({known}){suggestion}"))
            continue
        if part.zone == TRUMP_ZONE.id and not raw.get("extra"):
            message = f"part: {part.name} lies in the trumps: only a frame with extra: true has them"
            problems.append(doc.at(where, message))
        face_up = entry.get("face_up", 0)
        if face_up > entry["count"]:
            message = f"face_up: {face_up} of {entry['count']} cards"
            problems.append(doc.at(("frames", index, "scenario_building", at, "face_up"), message))
        found.append(Chosen(part, entry["count"], face_up))
    draft = raw.get("draft")
    if draft is not None:
        for name in ("zone", "aside"):
            if draft[name] not in zones:
                message = f"{name}: no zone '{draft[name]}' in zones ({', '.join(sorted(zones))})"
                problems.append(doc.at(("frames", index, "draft", name), message))
        total = sum(c.count for c in found)
        if found and total != draft["packs"]:
            message = f"draft: {draft['packs']} packs give {draft['packs']} cards; the parts take {total}"
            problems.append(doc.at(("frames", index, "draft", "packs"), message))
    return tuple(found)


def scenario_setup(
    doc: Document, path: PathKey, name: str, chosen: tuple[Chosen, ...], draft: Draft | None
) -> Action:
    """The set-up a frame's scenario building makes: for each player, each part's cards chosen
    from the deck (or, drafted, from the cards set aside) and laid in the part's zone; then the
    cards to be turned face up."""
    program: list[dict[str, Any]] = []
    source = "life"
    if draft is not None:
        for n in range(1, draft.packs + 1):
            program += [
                {"top": {"player": "you", "count": draft.size, "as": f"pack{n}"}},
                {"move": {"cards": f"pack{n}", "to": draft.zone}},
                {"choose": {"player": "you", "among": f"pack{n}", "as": f"pick{n}"}},
                {"move": {"cards": f"pick{n}", "to": draft.aside}},
            ]
        program += [
            {"move": {"cards": {"zone": draft.zone, "player": "you"}, "to": "life_top"}},
            {"shuffle": {"player": "you", "zone": "life"}},
        ]
        source = draft.aside
    for n, part in enumerate(chosen):
        last = draft is not None and n == len(chosen) - 1  # the drafted cards left: no choice
        cards: Any = {"zone": source, "player": "you"} if last else part.part.id
        if not last:
            picked = {"player": "you", "from": source, "count": part.count, "as": part.part.id}
            program.append({"choose": picked})
        program.append({"move": {"cards": cards, "to": part.part.zone, "as": part.part.id}})
    for part in (p for p in chosen if p.face_up):
        shown = f"{part.part.id}FaceUp"
        program += [
            {"choose": {"player": "you", "among": part.part.id, "count": part.face_up, "as": shown}},
            {"turn": {"cards": shown, "face": "up"}},
        ]
    said = ", ".join(f"{p.part.name} {p.count}枚" for p in chosen)
    raw = {"id": "scenarioBuilding", "name": name, "effect": said, "program": program}
    problems: list[Diagnostic] = []
    action = setup_action(doc, path, raw, problems)
    assert not problems, problems  # made from checked data
    return action


def _recommended_problems(regulations: Regulations) -> list[Diagnostic]:
    """The recommended regulation is one of the file's, as the notation reads it."""
    if regulations.recommended is None:
        return []
    try:
        parse_regulation(regulations.recommended.regulation, regulations)
    except CompileError as error:
        where = ("recommended", "regulation")
        return [regulations.doc.at(where, f"recommended: {d.message}") for d in error.diagnostics]
    return []


def _unknown_actions(doc: Document, data: Mapping[str, Any], known: set[str]) -> list[Diagnostic]:
    """Every action a frame or an option adds is one of the file's `actions`."""
    return [
        doc.at(
            (part, index, "actions", at),
            f"actions: no action '{action_id}' in actions ({', '.join(sorted(known))})",
        )
        for part in ("frames", "options")
        for index, raw in enumerate(data.get(part, ()))
        for at, action_id in enumerate(raw.get("actions", ()))
        if action_id not in known
    ]


def _key_zone_problems(doc: Document, actions: Sequence[Action], zone_ids: set[str]) -> list[Diagnostic]:
    """Key cards come from the hand or the file's zones; a key of the rare form (レアカード1枚)
    takes any card it is given, so its cards come from zones only, never from the hand."""
    problems = []
    for index, action in enumerate(actions):
        for at, zone in enumerate(action.key_from):
            if zone != "hand" and zone not in zone_ids:
                message = f"key_from: no zone '{zone}' in zones ({', '.join(sorted(zone_ids))})"
                problems.append(doc.at(("actions", index, "key_from", at), message))
        if action.key is not None and action.key.rare and "hand" in action.key_from:
            where = (
                ("actions", index, "key_from")
                if "key_from" in doc.data["actions"][index]
                else ("actions", index, "key")
            )
            message = f"key: {action.key} takes the cards of the zones key_from names, never the hand's"
            problems.append(doc.at(where, message))
    return problems


def _unique(doc: Document, data: Mapping[str, Any]) -> list[Diagnostic]:
    """Ids, and names as the notation reads them, are unique within each list."""
    problems = []
    for part in ("formats", "matches", "frames", "options", "actions"):
        seen: dict[tuple[str, str], int] = {}
        for index, raw in enumerate(data.get(part, ())):
            for field, key in (("id", raw["id"]), ("name", _key(raw["name"]))):
                if (field, key) in seen:
                    first = doc.locate((part, seen[field, key], field)).line
                    message = f"{part}[{index}].{field}: '{raw[field]}' is used twice (first on line {first})"
                    problems.append(doc.at((part, index, field), message))
                seen[field, key] = index
    return problems


def _key(text: str) -> str:
    """How the notation compares names: without spaces, full-width folded, any letter case."""
    return normalize(text).text.casefold()


def _count(raw: Mapping[str, int] | None) -> Count | None:
    if raw is None:
        return None
    ((how, number),) = raw.items()
    return Count(how, number)


def _match(raw: Mapping[str, Any]) -> Match:
    return Match(
        raw["id"],
        raw["name"],
        raw["rule"],
        raw["decks"],
        raw["games"],
        raw["wins"],
        raw.get("retire_winning_deck", False),
        tuple(raw.get("visibility", ())),
        tuple(raw.get("procedure", ())),
    )


def _frame(
    doc: Document, index: int, raw: Mapping[str, Any], match: Match, problems: list[Diagnostic]
) -> Frame:
    cards: list[Card] | None = None
    if "cards" in raw:
        cards = []
        for at, text in enumerate(raw["cards"]):
            try:
                cards.append(Card.parse(text))
            except ValueError as error:
                problems.append(doc.at(("frames", index, "cards", at), f"cards[{at}]: {error}"))
    return Frame(
        raw["id"],
        raw["name"],
        raw["rule"],
        raw["build"],
        match,
        raw.get("text"),
        None if cards is None else tuple(cards),
        _count(raw.get("size")),
        _count(raw.get("together")),
        tuple(raw["formats"]) if "formats" in raw else None,
        tuple(raw.get("start", ())),
        tuple(raw.get("actions", ())),
        tuple(raw.get("access", ())),
        raw.get("unplayable"),
        raw.get("default_deck"),
        tuple((entry["zone"], entry["count"]) for entry in raw.get("set_aside", ())),
        *_preset(raw),
        setup_action(doc, ("frames", index, "setup"), raw["setup"], problems) if "setup" in raw else None,
        raw.get("extra", False),
        (),
        None if "draft" not in raw else Draft(**raw["draft"]),
    )


def _option(raw: Mapping[str, Any]) -> Option:
    return Option(
        raw["id"],
        raw["name"],
        raw["rule"],
        raw["text"],
        tuple(raw.get("start", ())),
        tuple(raw.get("actions", ())),
        *_preset(raw),
        raw.get("left_out"),
    )


def _preset(raw: Mapping[str, Any]) -> tuple[tuple[str, ...], Destination | str]:
    """A frame's or an option's preset: the types, and where an unfit card goes."""
    preset = raw.get("preset", {"types": (), "unfit": Destination.GRAVEYARD})
    return tuple(preset["types"]), destination_named(preset["unfit"])


def _table(doc: Document, index: int, raw: Mapping[str, Any], problems: list[Diagnostic]) -> Table:
    data = doc.data
    ids = {kind: {entry["id"] for entry in data.get(kind, ())} for kind in ("formats", "frames", "options")}
    for row, columns in raw["allowed"].items():
        if row not in ids[raw["rows"]]:
            message = f"allowed: no {raw['rows'][:-1]} '{row}' in {raw['rows']}"
            problems.append(doc.at(("tables", index, "allowed", row), message, key=True))
        for at, column in enumerate(columns):
            if column not in ids[raw["columns"]]:
                message = f"allowed: no {raw['columns'][:-1]} '{column}' in {raw['columns']}"
                problems.append(doc.at(("tables", index, "allowed", row, at), message))
    allowed = {row: frozenset(columns) for row, columns in raw["allowed"].items()}
    return Table(raw["name"], raw["rule"], raw["rows"], raw["columns"], allowed)


def builtin_files() -> list[Path]:
    folder = resources.files("blackpoker.actionlists").joinpath(FOLDER)
    return sorted(
        Path(str(folder.joinpath(name.name))) for name in folder.iterdir() if name.name.endswith(".yaml")
    )


def checked_regulations(path: Path, shown: str) -> Regulations:
    """A regulations file read and checked; CompileError with its problems."""
    regulations, problems = read_regulations(path, shown)
    if regulations is None:
        raise CompileError(problems)
    return regulations


# How a caller reads a regulations file (path, how it is shown): `checked_regulations`, or an
# environment's, which keeps each file it read while the file is unchanged on disk.
Reader = Callable[[Path, str], Regulations]


def builtin_regulations(read: Reader = checked_regulations) -> list[Regulations]:
    return [read(path, f"actionlists/{FOLDER}/{path.name}") for path in builtin_files()]


def regulations_for(edition: str, read: Reader = checked_regulations) -> Regulations:
    """The regulations of an edition (a built-in edition id), a built-in regulations file by its
    id (one no edition plays yet, too), or a regulations file (a path)."""
    if is_path(edition):
        return read(Path(edition), edition)
    known: list[str] = []
    ids: list[str] = []
    for regulations in builtin_regulations(read):
        if edition in regulations.editions or edition == regulations.id:
            return regulations
        known += regulations.editions
        ids.append(regulations.id)
    message = (
        f"no regulations for edition '{edition}' (built in for: {', '.join(known)}; "
        f"built-in regulations: {', '.join(ids)}; or a regulations file)"
    )
    raise CompileError([Diagnostic(Location("--edition", 0, 0), message)])


# --- a regulation in the official notation ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Part:
    text: str
    start: int  # 0-based offset in the whole regulation text

    def at(self, whole: str, message: str) -> Diagnostic:
        return Diagnostic(Location(TEXT, 1, self.start + 1), message, whole, max(1, len(self.text)))


def parse_regulation(text: str, regulations: Regulations) -> Regulation:
    """`マスター + ランダムハーフ + プリセット 2` or `mast+random-half+preset2`, checked against
    the regulations' lists and tables; CompileError naming the part, the table and the cell."""
    parts = _split(text)
    notation = f"フォーマット + フレーム + オプション… ({regulations.notation})"
    if len(parts) < 2 or not all(part.text for part in parts):
        empty = next((part for part in parts if not part.text), None)
        where = empty or _Part(text, 0)
        raise CompileError([where.at(text, f"a regulation is written {notation}")])
    most = 2 + len(regulations.options)  # each option at most once: more parts cannot be right
    if len(parts) > most:
        allowed = f"each of the {most - 2} options once" if regulations.options else "no option"
        message = (
            f"a regulation of {regulations.id} has at most {most} parts (a format, a frame and "
            f"{allowed}); this is part {most + 1} of {len(parts)}"
        )
        raise CompileError([parts[most].at(text, message)])
    problems: list[Diagnostic] = []
    kinds = ["formats", "frames", *["options"] * (len(parts) - 2)]
    chosen: list[Named] = []
    for part, kind in zip(parts, kinds, strict=True):
        found = _lookup(part, kind, regulations, text)
        if isinstance(found, Diagnostic):
            problems.append(found)
        elif found in chosen:
            problems.append(part.at(text, f"{found.name} is named twice"))
        else:
            chosen.append(found)
    if problems:
        raise CompileError(problems)
    format_, frame, *options = chosen
    assert isinstance(frame, Frame) and all(isinstance(o, Option) for o in options)
    regulation = Regulation(regulations, format_, frame, tuple(o for o in options if isinstance(o, Option)))
    problems = _table_problems(regulation, dict(zip(chosen, parts, strict=True)), text)
    if problems:
        raise CompileError(problems)
    return regulation


def _split(text: str) -> list[_Part]:
    parts, start = [], 0
    for index, char in enumerate([*text, "+"]):
        if char in PLUS:
            piece = text[start:index]
            lead = len(piece) - len(piece.lstrip())
            parts.append(_Part(piece.strip(), start + lead))
            start = index + 1
    return parts


def _lookup(part: _Part, kind: str, regulations: Regulations, text: str) -> Named | Diagnostic:
    entries = regulations.kind(kind)
    by_key = {_key(e.name): e for e in entries} | {e.id.casefold(): e for e in entries}
    key = _key(part.text)
    if key in by_key:
        return by_key[key]
    known = ", ".join(str(e) for e in entries)
    suggestion = did_you_mean(key, by_key, show=lambda near: str(by_key[near]))
    what = {"formats": "a format", "frames": "a frame", "options": "an option"}[kind]
    place = {"formats": "first", "frames": "second", "options": "third and later"}[kind]
    message = f"{clipped(part.text)} is not {what} (the {place} part is {what}: {known}){suggestion}"
    return part.at(text, message)


def _table_problems(regulation: Regulation, parts: Mapping[Named, _Part], text: str) -> list[Diagnostic]:
    chosen: dict[str, tuple[Named, ...]] = {
        "formats": (regulation.format,),
        "frames": (regulation.frame,),
        "options": regulation.options,
    }
    problems = []
    frame = regulation.frame
    if frame.formats is not None and regulation.format.id not in frame.formats:
        names = ", ".join(f.name for f in regulation.regulations.formats if f.id in frame.formats)
        message = f"{frame.name} is played with {names} only ({frame.rule})"
        problems.append(parts[frame].at(text, message))
    for table in regulation.regulations.tables:
        for row in chosen[table.rows]:
            for column in chosen[table.columns]:
                if column.id in table.allowed.get(row.id, ()):
                    continue
                first, later = sorted((row, column), key=lambda entry: parts[entry].start)
                message = (
                    f"{first.name} + {later.name}: refused by {table.name} ({table.rule}): "
                    f"the cell of row {row.name}, column {column.name} is x"
                )
                problems.append(parts[later].at(text, message))
    return problems


# --- decks under a regulation's frame ---------------------------------------------------------


def deck_problems(regulation: Regulation, player: str, decks: Sequence[Deck]) -> list[Diagnostic]:
    """What keeps a player's decks from being played under the regulation's frame."""
    frame = regulation.frame
    match = frame.match
    cite = f"{frame.name}: {frame.text} ({frame.rule})" if frame.text else frame.rule
    if len(decks) != match.decks:
        message = (
            f"{player}: {frame.name} is a {match.name}, each player brings {match.decks} "
            f"deck{'s' if match.decks != 1 else ''} ({match.rule}); got {len(decks)}"
        )
        return [Diagnostic(Location("--deck", 0, 0), message)]
    problems: list[Diagnostic] = []
    for deck in decks:
        problems += _fixed_problems(deck, frame.cards, cite) if frame.cards is not None else []
        if frame.size is not None and not frame.size.allows(len(deck.cards)):
            message = f"cards: {len(deck.cards)} cards; {frame.size} allowed ({cite})"
            problems.append(deck.doc.at(("cards",), message, key=True))
    if len(decks) > 1:
        problems += set_problems((d.doc, index, card) for d in decks for index, card in enumerate(d.cards))
    total = sum(len(deck.cards) for deck in decks)
    if frame.together is not None and not frame.together.allows(total):
        names = " + ".join(f"{len(d.cards)} ({d.doc.path})" for d in decks)
        message = f"{player}: the decks hold {names} = {total} cards; {frame.together} allowed ({cite})"
        problems.append(Diagnostic(Location("--deck", 0, 0), message))
    return problems


def _fixed_problems(deck: Deck, cards: tuple[Card, ...], cite: str) -> list[Diagnostic]:
    wanted = list(cards)
    problems = []
    for index, card in enumerate(deck.cards):
        if card in wanted:
            wanted.remove(card)
        else:
            problems.append(
                deck.doc.at(("cards", index), f"cards[{index}]: {card} is not a card of the deck ({cite})")
            )
    if wanted:
        missing = ", ".join(str(card) for card in wanted)
        problems.append(deck.doc.at(("cards",), f"cards: missing {missing} ({cite})", key=True))
    return problems


def data_file_problems(
    path: Path, shown: str, edition: Callable[[str], EditionSource]
) -> list[Diagnostic] | None:
    """The problems of a deck or regulations file (a regulations file's notes among them, as
    warnings); None for a file of any other kind. A regulations file's actions are checked
    against each of its editions (`edition` reads one)."""
    doc, problems = load_file(path, shown)
    kind = doc.data.get("kind") if doc is not None and isinstance(doc.data, dict) else None
    if doc is None or kind not in ("deck", "regulations"):
        return None
    if kind == "deck":
        return problems + deck_from(doc)[1]
    regulations, found = regulations_from(doc)
    problems += found + list(regulations.notes if regulations else ())
    for index, edition_id in enumerate(regulations.editions if regulations else ()):
        assert regulations is not None
        try:
            source = edition(edition_id)
        except CompileError:
            problems.append(
                doc.at(("editions", index), f"editions: no edition '{edition_id}' to play them with")
            )
            continue
        problems += action_problems(regulations, source, regulations.actions)
    return problems
