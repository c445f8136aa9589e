"""What a scenario file may say, checked at load beyond its schema: its cards, characters,
zones, face-up cards, used actions and outcomes, all reported at once."""

from __future__ import annotations

from blackpoker.compiler.load import Document, PathKey
from blackpoker.runtime.engine.zones import card, deck_ids
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.diagnostics import Diagnostic
from blackpoker.runtime.rules.enums import Face
from blackpoker.runtime.rules.matcher import compile_matcher
from blackpoker.runtime.rules.model import RuleSet, Visibility
from blackpoker.runtime.scenario.expect import EVENT_WORDS
from blackpoker.runtime.scenario.scenario import NO_CARD, PLAYER_KEYS, REFUSED, at, setup_labels
from blackpoker.runtime.scenario.unknown import is_unknown


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
            labels = setup_labels(setup[who], ("setup", who))
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
    expect = at(doc.data, where)
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


def _check_zones(doc: Document, rules: RuleSet, expects: list[PathKey]) -> list[Diagnostic]:
    """The zones named in `setup` and every `expect` are zones the edition declares."""
    declared = [z.id for z in rules.edition.core.zones]
    problems = []
    for section in [("setup",), *expects]:
        for who in PLAYER_KEYS:
            for name in at(doc.data, section).get(who, {}).get("zones", {}):
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
        for j, name in enumerate(at(doc.data, where).get("used", ()))
        if name not in names
    ]


def _check_refusal(doc: Document, checkpoints: list[tuple[int, PathKey]]) -> list[Diagnostic]:
    """`expect: {refused: TEXT}` is the whole outcome of a regulation's set-up, which has no
    game: no commands, no other outcome, never at a checkpoint."""
    problems = [
        doc.at((*where, REFUSED), f"{REFUSED}: only the final expect", key=True)
        for _, where in checkpoints
        if REFUSED in at(doc.data, where)
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


def meaning_problems(
    doc: Document, rules: RuleSet, checkpoints: list[tuple[int, PathKey]]
) -> list[Diagnostic]:
    """Every problem of what the file says, read by the rule set it is played by."""
    expects = [("expect",), *(where for _, where in checkpoints)]
    return (
        _check_cards(doc)
        + _check_characters(doc, rules)
        + _check_zones(doc, rules, expects)
        + _check_face_up(doc, rules)
        + [p for where in expects for p in _check_expect(doc, where, rules)]
        + _check_refusal(doc, checkpoints)
        + [
            p
            for who in PLAYER_KEYS
            if isinstance(doc.data["setup"].get(who), dict)
            for p in _used_problems(doc, ("setup", who), rules)
        ]
    )
