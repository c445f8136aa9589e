"""Load a scenario file, build its position, run its commands, compare the outcome."""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations, islice
from pathlib import Path
from typing import Any, assert_never

from blackpoker.compiler.documents.deck import Deck, read_deck
from blackpoker.compiler.documents.regulation import (
    additions,
    deck_problems,
    parse_regulation,
)
from blackpoker.compiler.environment import Environment, display, find_files
from blackpoker.compiler.load import Document, PathKey, is_path, load_file
from blackpoker.compiler.parse import EditionSource, OverlaySource
from blackpoker.compiler.validate import schema_problems
from blackpoker.runtime.engine.abilities import size
from blackpoker.runtime.engine.errors import InvariantError
from blackpoker.runtime.engine.events import (
    Decided,
    Discarded,
    Event,
    GameOver,
    LostTarget,
    Negated,
    Requested,
    Resolved,
    Revealed,
    SetUp,
    Shuffled,
    Triggered,
    TurnPassed,
)
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.invariants import check_invariants
from blackpoker.runtime.engine.refs import player_name
from blackpoker.runtime.engine.state import GameState, PlayerState, Unit
from blackpoker.runtime.engine.zones import card, deck_ids, label
from blackpoker.runtime.play.notation import Command, InvalidCommand, parse_command
from blackpoker.runtime.play.regulation import Match, Setup, start_problems
from blackpoker.runtime.play.resolve import AmbiguousCommand, IllegalCommand, resolve_command
from blackpoker.runtime.play.source import DECK_FILE, EDITION_FILE, EXTRA_FILE, RULES_FILE, ServedFiles
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic
from blackpoker.runtime.rules.enums import Face
from blackpoker.runtime.rules.matcher import compile_matcher
from blackpoker.runtime.rules.model import RuleSet, Visibility

PLAYER_KEYS = ("p1", "p2")
NO_CARD = "none"  # `graveyard_top` of an empty graveyard
NOTHING = "expect: checks nothing; name at least one outcome"
REFUSED = "refused"  # the `expect` of a set-up that must be refused
UNKNOWN = "?"  # a card no player sees (an exported position's opponent hand): dealt at random
UNKNOWN_MARKS = (UNKNOWN, "？")  # the full-width mark a Japanese keyboard types counts too
UNKNOWN_SEED = "unknown_seed"  # the set-up's key of the seed the unknown cards are dealt with
MAX_FITS = 100_000  # the ways tried, in all, to deal face-down characters' unknown cards that fit their keys


def is_unknown(text: str) -> bool:
    return text.strip() in UNKNOWN_MARKS


@dataclass(frozen=True, slots=True)
class ScenarioCommand:
    """A command of the scenario: where it is, as written (`pN: …`), parsed, and the refusal
    expected (None: it must be accepted)."""

    where: PathKey
    text: str
    command: Command
    refused: str | None


@dataclass
class Scenario:
    doc: Document
    rules: RuleSet
    commands: list[ScenarioCommand]
    # where a checkpoint's `expect` is, and after how many commands it is checked
    checkpoints: list[tuple[int, PathKey]] = field(default_factory=list)
    regulation: Setup | None = None  # a dealt set-up's regulation, with its deck files
    refusals: list[str] = field(default_factory=list)  # why the regulation's set-up is refused
    setup: dict[str, Any] | None = None  # the written set-up with its unknown cards dealt (None: as written)


@dataclass
class Outcome:
    name: str
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def load(
    path: Path,
    env: Environment | None = None,
    shown: str | None = None,
    served: ServedFiles | None = None,
    unknown_seed: int | None = None,
) -> tuple[Scenario | None, list[Diagnostic]]:
    """A scenario file, with its rule set compiled in `env` (a suite shares one); `shown` is
    how its messages name it. An upload to the server (`served`) may name only the server's
    own files, and its unknown cards are dealt by the server's `unknown_seed`, not the file's
    (which whoever wrote it knows)."""
    doc, loaded = load_file(path, shown or display(path))
    if doc is None:
        return None, loaded
    if not isinstance(doc.data, dict):
        return None, [*loaded, doc.at((), "expected a mapping at the top of the file")]
    bare = _bare_unknown_marks(doc)  # read as unknown cards: the checks go on
    problems = loaded + schema_problems(doc, "scenario")
    if problems:
        return None, bare + problems
    rules, problems = _rules(doc, path, env or Environment(), served)
    if rules is None:
        return None, bare + problems
    problems = bare + problems
    commands: list[ScenarioCommand] = []
    checkpoints: list[tuple[int, PathKey]] = []
    for i, item in enumerate(doc.data["commands"]):
        if isinstance(item, dict) and "expect" in item:
            checkpoints.append((len(commands), ("commands", i, "expect")))
            continue
        found = _command_text(doc, item, i)
        if isinstance(found, Diagnostic):
            problems.append(found)
            continue
        place, text, refused = found
        try:
            commands.append(ScenarioCommand(place, text, parse_command(text), refused))
        except InvalidCommand as error:
            offset = 0 if isinstance(item, str) else len(str(place[-1])) + 2  # "pN: " is not in the value
            start = max(0, error.column - offset)
            problems.append(doc.at_text(place, start, error.width, error.message))
    regulation: Setup | None = None
    refusals: list[Diagnostic] = []
    if "regulation" in doc.data["setup"]:
        regulation, refusals, wrong = _regulation(doc, path, rules, env or Environment(), served)
        problems += wrong
    elif "match" in doc.data["setup"]:
        problems.append(doc.at(("setup", "match"), "match: a match is played under a regulation", key=True))
    played = rules if regulation is None else regulation.additions.widen(rules)  # its frame's zones, actions
    expects = [("expect",), *(where for _, where in checkpoints)]
    problems += (
        _check_cards(doc)
        + _check_characters(doc, played)
        + _check_zones(doc, played, expects)
        + _check_face_up(doc, played)
        + [p for where in expects for p in _check_expect(doc, where, played)]
        + _check_refusal(doc, checkpoints)
        + [
            p
            for who in PLAYER_KEYS
            if isinstance(doc.data["setup"].get(who), dict)
            for p in _used_problems(doc, ("setup", who), played)
        ]
    )
    refusing = REFUSED in doc.data["expect"]
    if problems or (refusals and not refusing):
        return None, problems + refusals
    dealt, problems = _deal_unknowns(doc, played, unknown_seed)
    if problems:
        return None, problems
    scenario = Scenario(doc, played, commands, checkpoints, regulation, [d.message for d in refusals], dealt)
    if refusing:  # a refused set-up has no game to check
        return scenario, []
    try:  # the engine's own checks catch any position the checks above let through
        check_invariants(build(scenario))
    except InvariantError as error:
        return None, [doc.at(("setup",), f"setup: not a possible position: {error}")]
    return scenario, []


def _bare_unknown_marks(doc: Document) -> list[Diagnostic]:
    """YAML reads a bare `?` as the mark of a mapping's key: `[?, ♠5]` holds an empty mapping.
    Each is said where it stands, and read as the unknown card it was meant to be, so the rest
    of the file is checked too."""
    found = []

    def walk(data: Any, path: PathKey) -> None:
        items = enumerate(data) if isinstance(data, list) else data.items() if isinstance(data, dict) else ()
        for key, value in items:
            if isinstance(data, list) and value in ({None: None}, {"None": None}):  # as the loader keys it
                data[key] = UNKNOWN
                message = f"write an unknown card as '{UNKNOWN}', in quotes: a bare ? is YAML's mark of a key"
                found.append(doc.at((*path, key), message))
            else:
                walk(value, (*path, key))

    walk(doc.data, ())
    return found


def _rules(
    doc: Document, path: Path, env: Environment, served: ServedFiles | None
) -> tuple[RuleSet | None, list[Diagnostic]]:
    """The rule set the scenario names: an edition's format, or a local-rule file's format."""
    data = doc.data
    if served is not None:  # an upload: no file but the server's own is looked at
        keys = {"rules": RULES_FILE, "edition": EDITION_FILE, "extra": EXTRA_FILE}
        files = [key for key in keys if key in data and (key == "rules" or is_path(data[key]))]
        refused = [
            _not_served(doc, (key,), key)
            for key in files
            if not served.named(keys[key], path.parent / data[key])
        ]
        if refused:
            return None, refused
    if "rules" in data:
        return _local_rules(doc, path, env)
    missing = [key for key in ("edition", "format") if key not in data]
    if missing:
        wanted = " and ".join(missing)
        return None, [doc.at((), f"{wanted}: required (or rules: a local-rule file, which names both)")]
    # An edition or extra file is named relative to the scenario file.
    edition = str(path.parent / data["edition"]) if is_path(data["edition"]) else data["edition"]
    extra = data.get("extra")
    try:
        return env.compile(edition, data["format"], extra=_relative(path, extra)), []
    except CompileError as error:
        where = doc.locate(("format",))
        return None, [
            Diagnostic(where, f"edition {data['edition']}, format {data['format']}: {d.message}")
            for d in error.diagnostics
        ]


def _not_served(doc: Document, where: PathKey, key: str) -> Diagnostic:
    """A file an upload names that the server does not serve: said without the name (the
    sender wrote it) and without a word of whether it is there."""
    message = (
        f"{key}: このサーバーが開くファイルは、起動時に指定されたもの（--edition, --rules）"
        "だけです。組み込みの版と切札リストは名前で指定してください"
    )
    return doc.at(where, message)


def _relative(path: Path, name: str | None) -> str | None:
    """A file named relative to the scenario file (a built-in name stays as it is)."""
    return str(path.parent / name) if name is not None and is_path(name) else name


def _local_rules(doc: Document, path: Path, env: Environment) -> tuple[RuleSet | None, list[Diagnostic]]:
    """`rules:` a local-rule file (kind: overlay) relative to the scenario file; `edition` and
    `format`, when given, must be the ones it declares."""
    data = doc.data
    named = path.parent / data["rules"]
    if not named.is_file():
        return None, [doc.at(("rules",), f"rules: no file {data['rules']} (relative to this scenario file)")]
    source, problems = env.read(named)
    if problems or source is None:
        return None, [doc.at(("rules",), f"rules: {data['rules']} has problems (below)"), *problems]
    if not isinstance(source, OverlaySource):
        kind = source.doc.data["kind"]
        message = f"rules: {data['rules']} is a kind: {kind} file; rules names a local rule (kind: overlay)"
        return None, [doc.at(("rules",), message)]
    found = []
    if data.get("edition", source.edition_id) != source.edition_id:
        found.append(doc.at(("edition",), f"edition: the local rules are for edition {source.edition_id}"))
    if data.get("format", source.format.id) != source.format.id:
        found.append(doc.at(("format",), f"format: the local rules declare format {source.format.id}"))
    if found:
        return None, found
    try:
        return env.compile(source.edition_id, source.format.id, rules=named), []
    except CompileError as error:
        return None, [
            doc.at(("rules",), f"rules: {data['rules']} does not compile (below)"),
            *error.diagnostics,
        ]


def _regulation(
    doc: Document, path: Path, rules: RuleSet, env: Environment, served: ServedFiles | None = None
) -> tuple[Setup | None, list[Diagnostic], list[Diagnostic]]:
    """`setup: {regulation, deck_files}`: the regulation of the rule set's edition, for its
    format, and each player's deck files (relative to the scenario file) checked against it
    (a written position has no decks: it takes only the zones and actions the regulation adds).
    Returns the set-up, why the regulation or the decks are refused (as `simulate` refuses
    them), and the problems of the file itself (a deck file that is not there)."""
    setup = doc.data["setup"]
    edition = doc.data.get("edition", rules.edition.id)  # a file is named from the scenario's folder
    try:
        chosen = parse_regulation(setup["regulation"], env.regulations(_relative(path, edition) or edition))
    except CompileError as error:
        where = ("setup", "regulation")
        return None, [doc.at(where, f"regulation: {d.message}") for d in error.diagnostics], []
    if chosen.played_format != rules.format.id:
        played = f" (its frame plays format {chosen.played_format})" if chosen.frame.extra else ""
        message = f"regulation: its format is {chosen.format}{played}; the scenario's is {rules.format.id}"
        return None, [], [doc.at(("setup", "regulation"), message)]
    problems = start_problems(chosen, rules.edition)
    missing: list[Diagnostic] = []
    source = EditionSource(doc, rules.edition, rules.actions, rules.characters, rules.fogs)
    added, wrong = additions(chosen, source)
    problems += wrong
    decks: list[list[Deck]] = []
    for who in PLAYER_KEYS:
        mine: list[Deck] = []
        for index, name in enumerate(setup.get("deck_files", {}).get(who, ())):
            file = path.parent / name
            if served is not None and not served.named(DECK_FILE, file):
                missing.append(_not_served(doc, ("setup", "deck_files", who, index), "deck_files"))
                continue
            if not file.is_file():
                missing.append(
                    doc.at(
                        ("setup", "deck_files", who, index),
                        f"deck_files: no file {name} (relative to this scenario file)",
                    )
                )
                continue
            deck, found = read_deck(file, display(file))
            problems += found
            mine += [deck] if deck is not None else []
        # a dealt set-up plays decks: the files, or the frame's (others deal, or play the set)
        if "seed" in setup and not problems + missing and (mine or chosen.frame.needs_decks):
            for problem in deck_problems(chosen, who, mine):
                located = problem.location.path != "--deck"
                problems.append(problem if located else doc.at(("setup",), f"deck_files: {problem.message}"))
        decks.append(mine)
    if problems or missing:
        return None, problems, missing
    made = Setup.of(chosen, decks, added)
    faulty = _match(made, setup)[1] if "match" in setup else None
    if faulty is None:
        return made, [], []
    diagnostic = [doc.at(faulty[0], faulty[1])]
    return (None, diagnostic, []) if faulty[2] else (None, [], diagnostic)


def _match(regulation: Setup, setup: dict[str, Any]) -> tuple[Match, tuple[PathKey, str, bool] | None]:
    """`setup.match`: the match so far from the scenario's seed, each game checked against
    the match form as it is recorded. Returns the match with the earlier games recorded, and
    the first problem: where, what, and whether it is a refused set-up (a retired deck, a
    match already over) rather than a fault of the file (a deck the player does not have)."""
    match = Match(regulation, random.Random(setup["seed"]))
    for index, game in enumerate(setup["match"]):
        where = ("setup", "match", index)
        decks = (game["p1"] - 1, game["p2"] - 1)
        for p, who in enumerate(PLAYER_KEYS):
            if decks[p] >= len(match.decks[p]):
                return match, (
                    (*where, who),
                    f"match: {who} has {len(match.decks[p])} deck(s), not {decks[p] + 1}",
                    False,
                )
        refused = match.refusal(decks)
        if refused is not None:
            return match, (where, f"game {index + 1}: {refused}", True)
        if "result" in game:
            match.record(decks, game["result"])
        elif index < len(setup["match"]) - 1:
            return match, (where, "match: only the last game may leave out its result", False)
    return match, None


def _check_refusal(doc: Document, checkpoints: list[tuple[int, PathKey]]) -> list[Diagnostic]:
    """`expect: {refused: TEXT}` is the whole outcome of a regulation's set-up, which has no
    game: no commands, no other outcome, never at a checkpoint."""
    problems = [
        doc.at((*where, REFUSED), f"{REFUSED}: only the final expect", key=True)
        for _, where in checkpoints
        if REFUSED in _at(doc.data, where)
    ]
    if REFUSED not in doc.data["expect"]:
        return problems
    where = ("expect", REFUSED)
    if "regulation" not in doc.data["setup"]:
        problems.append(doc.at(where, f"{REFUSED}: only a set-up with a regulation can be refused", key=True))
    if doc.data["commands"] or len(doc.data["expect"]) > 1:
        message = f"{REFUSED}: a refused set-up has no game: no commands, no other outcome"
        problems.append(doc.at(where, message, key=True))
    return problems


def _command_text(doc: Document, item: Any, i: int) -> tuple[PathKey, str, str | None] | Diagnostic:
    if isinstance(item, str):
        return ("commands", i), item, None
    players = [k for k in PLAYER_KEYS if k in item]
    if len(players) != 1:
        return doc.at(("commands", i), "a command is one player's: give exactly one of p1, p2")
    who = players[0]
    return ("commands", i, who), f"{who}: {item[who]}", item.get("refused")


def _check_cards(doc: Document) -> list[Diagnostic]:
    """Every card label is a card, no physical card is placed twice (a deck has two Jokers),
    and the unknown cards and a life given as a count are no more than the cards left."""
    problems = []
    setup = doc.data["setup"]
    for index, who in enumerate(PLAYER_KEYS):
        free = list(deck_ids(index))
        unknown = 0
        if "seed" in setup:
            path: PathKey = ("setup", "decks", who)
            labels = [((*path, i), text) for i, text in enumerate(setup.get("decks", {}).get(who, ()))]
        else:
            labels = _labels(setup[who], ("setup", who))
        for where, text in labels:
            if is_unknown(text):
                if "seed" in setup:
                    message = (
                        "decks: '?' stacks no card; the cards a deck does not name are dealt by the seed"
                    )
                    problems.append(doc.at(where, message))
                unknown += 1
                continue
            try:
                value = Card.parse(text)
            except ValueError as error:
                problems.append(doc.at(where, str(error)))
                continue
            cid = next((c for c in free if card(c) == value), None)
            if cid is None:
                problems.append(
                    doc.at(where, f"{who} has no {value} left to place (each card once, two Jokers)")
                )
            else:
                free.remove(cid)
        if "seed" in setup:
            continue
        if unknown > len(free):
            message = (
                f"{who}: {unknown} unknown cards (?), but only {len(free)} of {who}'s cards are left "
                "to deal them from"
            )
            problems.append(doc.at(("setup", who), message))
        life = setup[who].get("life")
        if isinstance(life, int) and len(free) >= unknown and life > len(free) - unknown:
            left = f"{len(free) - unknown} left" + (f" after {unknown} unknown cards (?)" if unknown else "")
            problems.append(doc.at(("setup", who, "life"), f"life: {life} cards, but {who} has only {left}"))
    return problems


def _check_characters(doc: Document, rules: RuleSet) -> list[Diagnostic]:
    """Every character on the field is one of the format's, made of cards its key takes, face as it may."""
    problems = []
    known = {c.id: c for c in rules.characters}
    for who in PLAYER_KEYS:
        for i, unit in enumerate(doc.data["setup"].get(who, {}).get("field", ())):
            path: PathKey = ("setup", who, "field", i)
            kind = known.get(unit["as"])
            if kind is None:
                problems.append(
                    doc.at(
                        (*path, "as"),
                        f"as: '{unit['as']}' is not a character of {rules.format.id} "
                        f"(characters: {', '.join(known)})",
                    )
                )
                continue
            face_up = unit.get("face", kind.face.value) == Face.UP.value
            if any(is_unknown(text) for text in unit["cards"]):
                if face_up:  # else its key is checked as its unknown cards are dealt
                    message = (
                        f"cards: a face-up {kind.id}'s cards are seen by both players: name them, not '?'"
                    )
                    problems.append(doc.at((*path, "cards"), message))
                continue
            try:
                cards = [Card.parse(text) for text in unit["cards"]]
            except ValueError:
                continue  # reported by _check_cards
            # A position is one play could reach: the cards are ones the character's key takes.
            if not compile_matcher(kind.key).matches(cards):
                shown = "+".join(str(c) for c in cards)
                problems.append(
                    doc.at((*path, "cards"), f"cards: a {kind.id} cannot be {shown} (key {kind.key})")
                )
            if unit.get("face", kind.face.value) != kind.face.value and kind.face is Face.UP:
                problems.append(doc.at((*path, "face"), f"face: a {kind.id} is always face up"))
    return problems


def _check_expect(doc: Document, where: PathKey, rules: RuleSet) -> list[Diagnostic]:
    """Every card an `expect` names is a card, every action it names one of the format's, and
    every event starts with an event word."""
    expect = _at(doc.data, where)
    problems = []
    for who in PLAYER_KEYS:
        wanted = expect.get(who, {})
        labels: list[tuple[PathKey, str]] = []
        for zone in ("life", "hand", "graveyard"):
            if isinstance(wanted.get(zone), list):
                labels += [((zone, j), text) for j, text in enumerate(wanted[zone])]
        for name, cards in wanted.get("zones", {}).items():
            labels += [(("zones", name, j), text) for j, text in enumerate(cards)]
        labels += [(("face_up", j), text) for j, text in enumerate(wanted.get("face_up", ()))]
        if wanted.get("graveyard_top", NO_CARD) != NO_CARD:
            labels.append((("graveyard_top",), wanted["graveyard_top"]))
        for path, text in labels:
            try:
                if not is_unknown(text):
                    Card.parse(text)
            except ValueError as error:
                problems.append(doc.at((*where, who, *path), str(error)))
        if who in expect:
            problems += _used_problems(doc, (*where, who), rules)
    for j, text in enumerate(expect.get("events", ())):
        if text.split(" ", 1)[0] not in EVENT_WORDS:
            problems.append(
                doc.at(
                    (*where, "events", j), f"events: '{text}' starts with none of {', '.join(EVENT_WORDS)}"
                )
            )
    return problems


def _labels(zones: dict[str, Any], path: PathKey) -> list[tuple[PathKey, str]]:
    found: list[tuple[PathKey, str]] = []
    for zone in ("life", "hand", "graveyard"):
        if isinstance(zones.get(zone), list):
            found += [((*path, zone, i), text) for i, text in enumerate(zones[zone])]
    for name, cards in zones.get("zones", {}).items():
        found += [((*path, "zones", name, i), text) for i, text in enumerate(cards)]
    for i, unit in enumerate(zones.get("field", ())):
        found += [((*path, "field", i, "cards", j), text) for j, text in enumerate(unit["cards"])]
    return found


def _check_zones(doc: Document, rules: RuleSet, expects: list[PathKey]) -> list[Diagnostic]:
    """The zones named in `setup` and every `expect` are zones the edition declares."""
    declared = [z.id for z in rules.edition.core.zones]
    problems = []
    for section in [("setup",), *expects]:
        for who in PLAYER_KEYS:
            for name in _at(doc.data, section).get(who, {}).get("zones", {}):
                if name not in declared:
                    known = ", ".join(declared) or "none"
                    message = (
                        f"zones: '{name}' is not a zone of edition {rules.edition.id} (declared: {known})"
                    )
                    problems.append(doc.at((*section, who, "zones", name), message, key=True))
    return problems


def _check_face_up(doc: Document, rules: RuleSet) -> list[Diagnostic]:
    """Each card a written set-up lays face up lies in one of the player's zones whose cards
    have faces (visibility `faces`, such as the trumps), once."""
    with_faces = {z.id for z in rules.edition.core.zones if z.visibility is Visibility.FACES}
    setup = doc.data["setup"]
    if "seed" in setup:
        return []  # a dealt set-up lays nothing face up
    problems = []
    for who in PLAYER_KEYS:
        zones = setup[who].get("zones", {})
        lying = [text for name in with_faces for text in zones.get(name, ()) if not is_unknown(text)]
        for j, text in enumerate(setup[who].get("face_up", ())):
            if is_unknown(text):
                message = "face_up: a card lying face up is seen by both players: name it, not '?'"
                problems.append(doc.at(("setup", who, "face_up", j), message))
                continue
            try:
                value = Card.parse(text)
            except ValueError as error:
                problems.append(doc.at(("setup", who, "face_up", j), str(error)))
                continue
            matching = [t for t in lying if Card.parse(t) == value]
            if not matching:
                where = ", ".join(sorted(with_faces)) or "none in this edition"
                message = f"face_up: {value} is not in a zone of {who} whose cards have faces ({where})"
                problems.append(doc.at(("setup", who, "face_up", j), message))
            else:
                lying.remove(matching[0])  # a second ♠4 face up needs a second one there
    return problems


def _used_problems(doc: Document, where: PathKey, rules: RuleSet) -> list[Diagnostic]:
    """A player's `used` (in the set-up or an `expect`) names actions of the format."""
    names = {a.name for a in rules.actions}
    return [
        doc.at((*where, "used", j), f"used: no action named '{name}' in {rules.format.id}")
        for j, name in enumerate(_at(doc.data, where).get("used", ()))
        if name not in names
    ]


def _at(data: Any, path: PathKey) -> Any:
    for key in path:
        data = data[key]
    return data


def _deal_unknowns(
    doc: Document, rules: RuleSet, seed: int | None = None
) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """The written set-up with each unknown card (?) dealt from its player's cards that no zone
    names, shuffled by `unknown_seed` (default 0): first a face-down character's, so that its
    cards fit its key, then the life's, hand's, graveyard's and zones' in that order. None when
    there is none; the characters no card left fits are the problems."""
    setup = doc.data["setup"]
    if "seed" in setup or not any(
        is_unknown(text) for who in PLAYER_KEYS for _, text in _labels(setup[who], ())
    ):
        return None, []
    rng = random.Random(setup.get(UNKNOWN_SEED, 0) if seed is None else seed)
    tries = MAX_FITS
    dealt = copy.deepcopy(setup)
    problems = []
    for index, who in enumerate(PLAYER_KEYS):
        zones = dealt[who]
        named = Counter(Card.parse(text) for _, text in _labels(zones, ()) if not is_unknown(text))
        free = []
        for value in map(card, deck_ids(index)):
            if named[value]:
                named[value] -= 1
            else:
                free.append(value)
        rng.shuffle(free)
        for i, unit in enumerate(zones.get("field", ())):
            holes = [j for j, text in enumerate(unit["cards"]) if is_unknown(text)]
            if not holes:
                continue
            known = [Card.parse(text) for text in unit["cards"] if not is_unknown(text)]
            kind = rules.character(unit["as"])
            matcher = compile_matcher(kind.key)
            way = None
            for way in islice(combinations(range(len(free)), len(holes)), tries):
                tries -= 1
                if matcher.matches([*known, *(free[k] for k in way)]):
                    break
                way = None
            if way is None:
                message = (
                    f"cards: no {len(holes)} of {who}'s {len(free)} cards left make a {kind.id} "
                    f"with the cards named (key {kind.key})"
                )
                problems.append(doc.at(("setup", who, "field", i, "cards"), message))
                continue
            for j, k in zip(holes, way, strict=True):
                unit["cards"][j] = str(free[k])
            for k in sorted(way, reverse=True):
                del free[k]
        piles = [zones.get(zone) for zone in ("life", "hand", "graveyard")]
        for pile in [*piles, *zones.get("zones", {}).values()]:
            for j, text in enumerate(pile if isinstance(pile, list) else ()):
                if is_unknown(text):  # counted against the cards left at load
                    pile[j] = str(free.pop())
    return dealt, problems


def build(scenario: Scenario) -> Game:
    setup = scenario.setup or scenario.doc.data["setup"]
    if "seed" in setup:
        return _deal(scenario.rules, setup, scenario.regulation)
    turn = setup.get("turn_number", 3)
    state = GameState((PlayerState(), PlayerState()), random.Random(0), turn=turn)
    game = Game(scenario.rules, state, check=True, events=[])
    for index, who in enumerate(PLAYER_KEYS):
        zones, player = setup[who], state.players[index]
        free = list(deck_ids(index))

        def take(text: str, free: list[int] = free) -> int:
            cid = next(c for c in free if card(c) == Card.parse(text))
            free.remove(cid)
            return cid

        player.hand = [take(t) for t in zones.get("hand", ())]
        by_name = {a.name: a.id for a in scenario.rules.actions}
        player.used = dict(Counter(by_name[name] for name in zones.get("used", ())))
        player.graveyard = [take(t) for t in zones.get("graveyard", ())]
        player.zones = {
            z.id: [take(t) for t in zones.get("zones", {}).get(z.id, ())]
            for z in scenario.rules.edition.core.zones
        }
        lying = [c for cards in player.zones.values() for c in cards]
        for text in zones.get("face_up", ()):
            cid = next(c for c in lying if card(c) == Card.parse(text) and c not in player.face_up)
            player.face_up[cid] = state.new_uid()
        for spec in zones.get("field", ()):
            kind = scenario.rules.character(spec["as"])
            face = spec.get("face", kind.face.value)
            player.field.append(
                Unit(
                    state.new_uid(),
                    kind,
                    [take(t) for t in spec["cards"]],
                    index,
                    face == "up",
                    spec.get("state", "charged") == "charged",
                    turn if spec.get("new") else turn - 1,
                    spec.get("size_change", 0),
                )
            )
        life = zones["life"]
        # A count takes the cards left in deck order (♠A … ♠K, ♡, ♢, ♣, two Jokers), top first.
        player.life = [take(t) for t in life] if isinstance(life, list) else free[:life]
        player.outside = [c for c in free if c not in player.life]
    state.turn_player = PLAYER_KEYS.index(setup["turn"])
    state.chance = PLAYER_KEYS.index(setup.get("chance", setup["turn"]))
    return game


def _deal(rules: RuleSet, setup: dict[str, Any], regulation: Setup | None) -> Game:
    """The game's own set-up from the seed, each deck's named cards stacked on top; with a
    regulation, the first game of a match seeded alike (runtime/play/regulation.py)."""
    tops = []
    for index, who in enumerate(PLAYER_KEYS):
        free = list(deck_ids(index))
        named = []
        for text in setup.get("decks", {}).get(who, ()):
            cid = next(c for c in free if card(c) == Card.parse(text))
            free.remove(cid)
            named.append(cid)
        tops.append(named)
    start = None
    if regulation is not None:
        match = Match(regulation, random.Random(setup["seed"]))
        if "match" in setup:  # the next game of the match so far (checked at load)
            match = _match(regulation, setup)[0]
        last = setup.get("match", [{}])[-1]
        chosen = (last["p1"] - 1, last["p2"] - 1) if last and "result" not in last else match.choose()
        start = regulation.start(match.decks, chosen)
    return Game.new(rules, setup["seed"], tops, start, check=True, events=[])


def run(scenario: Scenario) -> Outcome:
    outcome = Outcome(scenario.doc.data["name"])
    doc = scenario.doc
    # Checked here, not at load: a position loaded to be studied (not run) needs no outcome.
    if _checks_nothing(doc.data["expect"]):
        outcome.failures.append(
            f"{doc.locate(('expect',))}: expect: checks nothing; name at least one outcome"
        )
        return outcome
    if REFUSED in doc.data["expect"]:
        _check_refused(scenario, outcome)
        return outcome
    game = build(scenario)
    told = 0  # the events an earlier checkpoint has seen

    def check(where: PathKey) -> None:
        nonlocal told
        expect = _at(doc.data, where)
        if _checks_nothing(expect):
            outcome.failures.append(f"{doc.locate(where)}: {NOTHING}")
        events = event_texts(game, told)
        told = len(game.events or ())
        failures = compare(expect, game, events)
        if where != ("expect",):  # a checkpoint's failures say where it is
            failures = [f"{doc.locate(where)}: {line}" for line in failures]
        outcome.failures.extend(failures)

    checkpoints = list(scenario.checkpoints)
    for done, step in enumerate(scenario.commands):
        while checkpoints and checkpoints[0][0] == done:
            check(checkpoints.pop(0)[1])
        where, text, refused = str(doc.locate(step.where)), step.text, step.refused
        try:
            option = resolve_command(game, step.command, text)
        except IllegalCommand as error:
            if refused is None:
                outcome.failures.append(f"{where}: '{text}' was refused: {error.reason}")
                return outcome
            if refused not in error.reason:
                outcome.failures.append(
                    f"{where}: '{text}' was refused with '{error.reason}', expected '{refused}'"
                )
            continue
        except AmbiguousCommand as error:
            outcome.failures.append(f"{where}: {error.diagnostics[0].message}")
            return outcome
        if refused is not None:
            outcome.failures.append(f"{where}: '{text}' was accepted, expected a refusal ('{refused}')")
            return outcome
        try:
            game.apply(option)
        except Exception as error:  # an engine failure is this scenario's failure, at its command
            outcome.failures.append(
                f"{where}: the engine failed on '{text}': {type(error).__name__}: {error}"
            )
            return outcome
    for _, rest in checkpoints:
        check(rest)
    check(("expect",))
    return outcome


def _check_refused(scenario: Scenario, outcome: Outcome) -> None:
    wanted = scenario.doc.data["expect"][REFUSED]
    where = scenario.doc.locate(("expect", REFUSED))
    if not scenario.refusals:
        outcome.failures.append(f"{where}: the set-up was accepted, expected a refusal ('{wanted}')")
    elif not any(wanted in reason for reason in scenario.refusals):
        reasons = "; ".join(scenario.refusals)
        outcome.failures.append(f"{where}: the set-up was refused with '{reasons}', expected '{wanted}'")


def _checks_nothing(expect: dict[str, Any]) -> bool:
    return not any(key not in PLAYER_KEYS or wanted for key, wanted in expect.items())


def character_text(game: Game, unit: Unit, hidden: bool = False) -> str:
    """`kind cards state size=N` (+ ` face-down`); `hidden`: as the other player sees a
    face-down character, its cards and size unknown (`bulwark ? charged size=? face-down`)."""
    cards = UNKNOWN if hidden else "+".join(label(c) for c in unit.cards)
    text = f"{unit.kind.id} {cards} {'charged' if unit.charged else 'driven'}"
    text += f" size={UNKNOWN if hidden else size(game, unit)}"
    return text + ("" if unit.face_up else " face-down")


# The first word of each event's text (event_text), for checking an `expect`'s events at load.
EVENT_WORDS = (
    "first",
    "requested",
    "triggered",
    "discarded",
    "negated",
    "revealed",
    "shuffled",
    "lost",
    "resolved",
    "turn",
    "result",
)


def event_text(game: Game, event: Event) -> str | None:
    """An engine event in the vocabulary of `expect: {events: […]}`; decisions are the
    commands themselves and have none."""

    def name(action_id: str) -> str:
        return game.rules.action(action_id).name

    match event:
        case SetUp(first):
            return f"first {player_name(first)}"
        case Decided():
            return None
        case Requested(player, action, indirect):
            return f"requested {name(action)} by {player_name(player)}" + (" (indirect)" if indirect else "")
        case Triggered(player, action):
            return f"triggered {name(action)} by {player_name(player)}"
        case Discarded(action):
            return f"discarded {name(action)}"
        case Negated(action):
            return f"negated {name(action)}"
        case Revealed(cards):
            return "revealed " + " ".join(label(c) for c in cards)
        case Shuffled(player):
            return f"shuffled {player_name(player)}"
        case LostTarget(action):
            return f"lost {name(action)}"
        case Resolved(player, action):
            return f"resolved {name(action)} by {player_name(player)}"
        case TurnPassed(player, turn):
            return f"turn {turn} {player_name(player)}"
        case GameOver(result):
            return f"result {result}"
    assert_never(event)


def event_texts(game: Game, since: int = 0) -> list[str]:
    """The texts of the events after the first `since`."""
    found = (event_text(game, e) for e in (game.events or ())[since:])
    return [text for text in found if text is not None]


def actual(game: Game) -> dict[str, Any]:
    """The outcome in the vocabulary of a scenario's `expect` section (but `events`)."""
    state = game.state
    found: dict[str, Any] = {
        "turn": player_name(state.turn_player),
        "turn_number": state.turn,
        "chance": player_name(state.chance) if state.chance is not None else "none",
        "passed": sorted(player_name(p) for p in state.passes),
        "stage": [f"{r.action.name} by {player_name(r.controller)}" for r in state.stage],
        "winner": state.result or "none",
        "waiting": [str(o) for o in game.legal_options()]
        if game.to_move is not None and (state.resolving or state.asked)
        else [],
    }
    for index, who in enumerate(PLAYER_KEYS):
        p = state.players[index]
        found[who] = {
            "life": [label(c) for c in p.life],
            "hand": sorted(label(c) for c in p.hand),
            "graveyard": sorted(label(c) for c in p.graveyard),
            "graveyard_top": label(p.graveyard[-1]) if p.graveyard else NO_CARD,
            "field": [character_text(game, u) for u in p.field],
            "zones": {zone: sorted(label(c) for c in cards) for zone, cards in p.zones.items()},
            "face_up": sorted(label(c) for c in p.face_up),
            "used": sorted(game.rules.action(a).name for a in p.uses()),
        }
    return found


def compare(expect: dict[str, Any], game: Game, events: list[str] | None = None) -> list[str]:
    """What differs from `expect`; its `events` are looked for, in order, among `events`
    (all the game's by default)."""
    got = actual(game)
    failures = []
    for key, wanted in expect.items():
        if key in PLAYER_KEYS:
            for zone, value in wanted.items():
                have = got[key][zone]
                fits = have == value
                if zone == "life" and isinstance(value, int):
                    have = len(have)
                    fits = have == value
                elif zone in ("hand", "graveyard", "face_up"):
                    value = sorted(map(_card_text, value))
                    fits = _cards_fit(value, have)
                elif zone == "zones":  # only the zones named are compared
                    have = {name: have.get(name) for name in value}
                    value = {name: sorted(map(_card_text, cards)) for name, cards in value.items()}
                    fits = all(_cards_fit(value[name], have[name]) for name in value)
                elif zone == "life":
                    value = [_card_text(v) for v in value]
                    fits = _cards_fit(value, have, ordered=True)
                elif zone == "graveyard_top" and value != NO_CARD:
                    value = _card_text(value)
                    fits = have == value or (value == UNKNOWN and have != NO_CARD)
                elif zone == "used":
                    value = sorted(value)
                    fits = have == value
                elif zone == "field":
                    fits = len(value) == len(have) and all(map(_character_fits, value, have))
                if not fits:
                    failures.append(f"{key}.{zone}: expected {value}, got {have}")
        elif key == "events":
            seen = event_texts(game) if events is None else events
            if not _in_order(wanted, seen):
                failures.append(f"events: expected {wanted} in this order, got {seen}")
        elif key == "passed":
            if got[key] != sorted(wanted):
                failures.append(f"passed: expected {sorted(wanted)}, got {got[key]}")
        elif got[key] != wanted:
            failures.append(f"{key}: expected {wanted}, got {got[key]}")
    return failures


def _card_text(text: str) -> str:
    return UNKNOWN if is_unknown(text) else str(Card.parse(text))


def _cards_fit(wanted: list[str], have: list[str] | None, ordered: bool = False) -> bool:
    """Whether the cards are the ones `wanted` names, an unknown card (?) standing for any one
    card: in order (a life), or as a set."""
    if have is None or len(wanted) != len(have):
        return False
    if ordered:
        return all(w in (UNKNOWN, h) for w, h in zip(wanted, have, strict=True))
    left = Counter(have)
    left.subtract(w for w in wanted if w != UNKNOWN)
    return all(n >= 0 for n in left.values())


def _character_fits(wanted: str, have: str) -> bool:
    """A field entry `kind cards state size=N`, where each `?` stands for a word's unknown part
    (`bulwark ? charged size=? face-down`: a face-down character seen from the other side)."""
    parts = wanted.replace("？", UNKNOWN).split(UNKNOWN)
    return re.fullmatch("[^ ]+".join(map(re.escape, parts)), have) is not None


def _in_order(wanted: list[str], seen: list[str]) -> bool:
    """Whether `wanted` is a subsequence of `seen`: each found after the one before it."""
    rest = iter(seen)
    return all(any(text == event for event in rest) for text in wanted)


def scenario_files(paths: list[Path]) -> tuple[list[Path], list[Diagnostic]]:
    """The scenario files named or found in the folders named, and each folder with none."""
    return find_files(paths, (".yaml", ".yml"))
