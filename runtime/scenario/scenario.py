"""Load a scenario file, build its position, run its commands, compare the outcome."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from blackpoker.compiler import CompileError
from blackpoker.compiler.cards import Card
from blackpoker.compiler.diagnostics import Diagnostic
from blackpoker.compiler.environment import Environment, display, find_files, is_path
from blackpoker.compiler.load import Document, PathKey, load_file
from blackpoker.compiler.matcher import compile_matcher
from blackpoker.compiler.model import Face, RuleSet
from blackpoker.compiler.validate import schema_problems
from blackpoker.runtime.engine.errors import InvariantError
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.invariants import check_invariants
from blackpoker.runtime.engine.state import GameState, PlayerState, Unit, player_name
from blackpoker.runtime.engine.transitions import size
from blackpoker.runtime.engine.zones import card, deck_ids, label
from blackpoker.runtime.scenario.explain import explain
from blackpoker.runtime.scenario.notation import Command, NotationError, parse_command

PLAYER_KEYS = ("p1", "p2")


@dataclass
class Scenario:
    doc: Document
    rules: RuleSet
    commands: list[tuple[PathKey, Command, str | None]]  # where, what, expected refusal


@dataclass
class Outcome:
    name: str
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def load(path: Path, env: Environment | None = None) -> tuple[Scenario | None, list[Diagnostic]]:
    """A scenario file, with its rule set compiled in `env` (a suite shares one)."""
    doc, loaded = load_file(path, display(path))
    if doc is None:
        return None, loaded
    if not isinstance(doc.data, dict):
        return None, [*loaded, doc.at((), "expected a mapping at the top of the file")]
    problems = loaded + schema_problems(doc, "scenario")
    if problems:
        return None, problems
    data = doc.data
    # An edition file is named relative to the scenario file.
    edition = str(path.parent / data["edition"]) if is_path(data["edition"]) else data["edition"]
    try:
        rules = (env or Environment()).compile(edition, data["format"])
    except CompileError as error:
        where = doc.locate(("format",))
        return None, [
            Diagnostic(where, f"edition {data['edition']}, format {data['format']}: {d.message}")
            for d in error.diagnostics
        ]
    commands = []
    for i, item in enumerate(data["commands"]):
        found = _command_text(doc, item, i)
        if isinstance(found, Diagnostic):
            problems.append(found)
            continue
        place, text, refused = found
        try:
            commands.append((place, parse_command(text), refused))
        except NotationError as error:
            offset = 0 if isinstance(item, str) else len(str(place[-1])) + 2  # "pN: " is not in the value
            start = max(0, error.column - offset)
            problems.append(doc.at_text(place, start, error.width, error.message))
    problems += (
        _check_cards(doc) + _check_characters(doc, rules) + _check_zones(doc, rules) + _check_expect(doc)
    )
    if problems:
        return None, problems
    scenario = Scenario(doc, rules, commands)
    try:  # the engine's own checks catch any position the checks above let through
        check_invariants(build(scenario))
    except InvariantError as error:
        return None, [doc.at(("setup",), f"setup: not a possible position: {error}")]
    return scenario, []


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
    and a life given as a count is no more than the cards left."""
    problems = []
    for index, who in enumerate(PLAYER_KEYS):
        zones = doc.data["setup"][who]
        free = list(deck_ids(index))
        for path, text in _labels(zones, ("setup", who)):
            try:
                value = Card.parse(text)
            except ValueError as error:
                problems.append(doc.at(path, str(error)))
                continue
            cid = next((c for c in free if card(c) == value), None)
            if cid is None:
                problems.append(
                    doc.at(path, f"{who} has no {value} left to place (each card once, two Jokers)")
                )
            else:
                free.remove(cid)
        life = zones["life"]
        if isinstance(life, int) and life > len(free):
            problems.append(
                doc.at(("setup", who, "life"), f"life: {life} cards, but {who} has only {len(free)} left")
            )
    return problems


def _check_characters(doc: Document, rules: RuleSet) -> list[Diagnostic]:
    """Every character on the field is one of the format's, made of cards its key takes, face as it may."""
    problems = []
    known = {c.id: c for c in rules.characters}
    for who in PLAYER_KEYS:
        for i, unit in enumerate(doc.data["setup"][who].get("field", ())):
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


def _check_expect(doc: Document) -> list[Diagnostic]:
    """Every card `expect` names is a card."""
    expect = doc.data["expect"]
    problems = []
    for who in PLAYER_KEYS:
        wanted = expect.get(who, {})
        lists: list[tuple[PathKey, Any]] = [
            ((zone,), wanted.get(zone)) for zone in ("life", "hand", "graveyard")
        ]
        lists += [(("zones", name), cards) for name, cards in wanted.get("zones", {}).items()]
        for where, labels in lists:
            for j, text in enumerate(labels if isinstance(labels, list) else ()):
                try:
                    Card.parse(text)
                except ValueError as error:
                    problems.append(doc.at(("expect", who, *where, j), str(error)))
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


def _check_zones(doc: Document, rules: RuleSet) -> list[Diagnostic]:
    """The zones named in `setup` and `expect` are zones the edition declares."""
    declared = [z.id for z in rules.edition.core.zones]
    problems = []
    for section in ("setup", "expect"):
        for who in PLAYER_KEYS:
            for name in doc.data[section].get(who, {}).get("zones", {}):
                if name not in declared:
                    known = ", ".join(declared) or "none"
                    message = (
                        f"zones: '{name}' is not a zone of edition {rules.edition.id} (declared: {known})"
                    )
                    problems.append(doc.at((section, who, "zones", name), message, key=True))
    return problems


def build(scenario: Scenario) -> Game:
    setup = scenario.doc.data["setup"]
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
        player.graveyard = [take(t) for t in zones.get("graveyard", ())]
        player.zones = {
            z.id: [take(t) for t in zones.get("zones", {}).get(z.id, ())]
            for z in scenario.rules.edition.core.zones
        }
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
                )
            )
        life = zones["life"]
        player.life = [take(t) for t in life] if isinstance(life, list) else free[:life]
        player.outside = [c for c in free if c not in player.life]
    state.turn_player = PLAYER_KEYS.index(setup["turn"])
    state.chance = PLAYER_KEYS.index(setup.get("chance", setup["turn"]))
    return game


def run(scenario: Scenario) -> Outcome:
    outcome = Outcome(scenario.doc.data["name"])
    expect = scenario.doc.data["expect"]
    # Checked here, not at load: a position loaded to be studied (not run) needs no outcome.
    if not any(key not in PLAYER_KEYS or wanted for key, wanted in expect.items()):
        outcome.failures.append(
            f"{scenario.doc.locate(('expect',))}: expect: checks nothing; name at least one outcome"
        )
        return outcome
    game = build(scenario)
    for path, command, refused in scenario.commands:
        where = str(scenario.doc.locate(path))
        option = game.find(command.player, command.body())
        if option is None:
            reason = explain(game, command)
            if refused is None:
                outcome.failures.append(f"{where}: '{command}' was refused: {reason}")
                return outcome
            if refused not in reason:
                outcome.failures.append(
                    f"{where}: '{command}' was refused with '{reason}', expected '{refused}'"
                )
            continue
        if refused is not None:
            outcome.failures.append(f"{where}: '{command}' was accepted, expected a refusal ('{refused}')")
            return outcome
        try:
            game.apply(option)
        except Exception as error:  # an engine failure is this scenario's failure, at its command
            outcome.failures.append(
                f"{where}: the engine failed on '{command}': {type(error).__name__}: {error}"
            )
            return outcome
    outcome.failures += compare(scenario.doc.data["expect"], game)
    return outcome


def character_text(unit: Unit) -> str:
    text = (
        f"{unit.kind.id} {'+'.join(label(c) for c in unit.cards)} {'charged' if unit.charged else 'driven'}"
    )
    text += f" size={size(unit)}"
    return text + ("" if unit.face_up else " face-down")


def actual(game: Game) -> dict[str, Any]:
    """The outcome in the vocabulary of a scenario's `expect` section."""
    state = game.state
    found: dict[str, Any] = {
        "turn": player_name(state.turn_player),
        "chance": player_name(state.chance) if state.chance is not None else "none",
        "stage": [f"{r.action.name} by {player_name(r.controller)}" for r in state.stage],
        "winner": state.result or "none",
        "waiting": [str(o) for o in game.legal_options()]
        if game.to_move is not None and state.resolving
        else [],
    }
    for index, who in enumerate(PLAYER_KEYS):
        p = state.players[index]
        found[who] = {
            "life": [label(c) for c in p.life],
            "hand": sorted(label(c) for c in p.hand),
            "graveyard": sorted(label(c) for c in p.graveyard),
            "field": [character_text(u) for u in p.field],
            "zones": {zone: sorted(label(c) for c in cards) for zone, cards in p.zones.items()},
        }
    return found


def compare(expect: dict[str, Any], game: Game) -> list[str]:
    got = actual(game)
    failures = []
    for key, wanted in expect.items():
        if key in PLAYER_KEYS:
            for zone, value in wanted.items():
                have = got[key][zone]
                if zone == "life" and isinstance(value, int):
                    have = len(have)
                elif zone in ("hand", "graveyard"):
                    value = sorted(str(Card.parse(v)) for v in value)
                elif zone == "zones":  # only the zones named are compared
                    have = {name: have.get(name) for name in value}
                    value = {name: sorted(str(Card.parse(v)) for v in cards) for name, cards in value.items()}
                elif zone == "life":
                    value = [str(Card.parse(v)) for v in value]
                if have != value:
                    failures.append(f"{key}.{zone}: expected {value}, got {have}")
        elif got[key] != wanted:
            failures.append(f"{key}: expected {wanted}, got {got[key]}")
    return failures


def scenario_files(paths: list[Path]) -> tuple[list[Path], list[Diagnostic]]:
    """The scenario files named or found in the folders named, and each folder with none."""
    return find_files(paths, (".yaml", ".yml"))
