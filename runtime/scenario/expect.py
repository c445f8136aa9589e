"""The outcome of a game in the words of a scenario's `expect`, and how it is compared."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from blackpoker.runtime.engine.abilities import size
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import player_name, result_name
from blackpoker.runtime.engine.state import Unit
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.event_text import SCENARIO, in_words
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.scenario.scenario import NO_CARD, PLAYER_KEYS
from blackpoker.runtime.scenario.unknown import UNKNOWN, is_unknown

NOTHING = "expect: checks nothing; name at least one outcome"


def checks_nothing(expect: dict[str, Any]) -> bool:
    return not any(key not in PLAYER_KEYS or wanted for key, wanted in expect.items())


def character_text(game: Game, unit: Unit, hidden: bool = False) -> str:
    """`kind cards state size=N` (+ ` face-down`); `hidden`: as the other player sees a
    face-down character, its cards and size unknown (`bulwark ? charged size=? face-down`)."""
    cards = UNKNOWN if hidden else "+".join(label(c) for c in unit.cards)
    text = f"{unit.kind.id} {cards} {'charged' if unit.charged else 'driven'}"
    text += f" size={UNKNOWN if hidden else size(game, unit)}"
    return text + ("" if unit.face_up else " face-down")


# The first word of each event's text, for checking an `expect`'s events at load.
EVENT_WORDS = tuple(dict.fromkeys(words.split(" ", 1)[0] for words in SCENARIO.values()))


def event_texts(game: Game, since: int = 0) -> list[str]:
    """The texts of the events after the first `since`."""
    found = (in_words(game.rules, e, SCENARIO) for e in (game.events or ())[since:])
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
        "winner": "none" if state.result is None else result_name(state.result),
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
