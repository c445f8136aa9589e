"""The one printer of the engine's events (runtime/engine/events.py), for every reader.

One walk (`record`) turns an event into its record: the command log's line, players as
p1 / p2, cards and options in the notation. The other readers print that record with a table
of their own words, one template per kind of event (`in_words`):

* `SCENARIO`: the English words of a scenario's `expect: {events: […]}` (docs/scenarios.md);
* the Japanese lines a person at the table reads (`blackpoker play`, `serve`): the `events`
  of the labels file (runtime/play/labels.json), read by chronicle.py.

A kind missing from a table is not said there (a scenario's decisions are its commands; a
person sees a decision as it is made, runtime/play/chronicle.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, assert_never

from blackpoker.runtime.engine.events import (
    Damaged,
    Decided,
    Died,
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
from blackpoker.runtime.engine.refs import player_name, result_name
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.engine.zones import label


def record(event: Event) -> dict[str, Any]:
    """The event as a command log's line holds it (the log's format: docs/engine.md)."""
    match event:
        case SetUp(first):
            return {"event": "setup", "first": player_name(first)}
        case Decided(player, index, option):
            return {"event": "decision", "player": player_name(player), "index": index, "option": str(option)}
        case Requested(player, action, indirect):
            line = {"event": "request", "player": player_name(player), "action": action}
            return {**line, "indirect": True} if indirect else line
        case Triggered(player, action):
            return {"event": "triggered", "player": player_name(player), "action": action}
        case Resolved(player, action):
            return {"event": "resolved", "player": player_name(player), "action": action}
        case Discarded(action):
            return {"event": "discarded", "action": action}
        case Negated(action):
            return {"event": "negated", "action": action}
        case Revealed(cards):
            return {"event": "reveal", "cards": [label(c) for c in cards]}
        case Shuffled(player):
            return {"event": "shuffled", "player": player_name(player)}
        case LostTarget(action):
            return {"event": "lost_target", "action": action}
        case Damaged(player, amount):
            return {"event": "damage", "player": player_name(player), "amount": amount}
        case Died(player, cards):
            return {"event": "died", "player": player_name(player), "cards": [label(c) for c in cards]}
        case TurnPassed(player, turn):
            return {"event": "turn", "player": player_name(player), "turn": turn}
        case GameOver(result):
            return {"event": "result", "result": result_name(result)}
    assert_never(event)


# A template per kind of record; `request indirect`: a request an effect made, `resolved
# direct`: the resolution of a request a player made (an effect's request, such as ドロー for
# the turn player, is its controller's, not said to be theirs), `died face-down`: a character
# that died face down. Fields: the record's, and `name` (the action's printed name) and
# `cards` (space-separated).
SCENARIO = {
    "setup": "first {first}",
    "request": "requested {name} by {player}",
    "request indirect": "requested {name} by {player} (indirect)",
    "triggered": "triggered {name} by {player}",
    "discarded": "discarded {name}",
    "negated": "negated {name}",
    "reveal": "revealed {cards}",
    "shuffled": "shuffled {player}",
    "lost_target": "lost {name}",
    "damage": "damage {amount} to {player}",
    "died": "died {cards} of {player}",
    "died face-down": "died face-down of {player}",
    "resolved": "resolved {name} by {player}",
    "resolved direct": "resolved {name} by {player}",
    "turn": "turn {turn} {player}",
    "result": "result {result}",
}


def in_words(rules: Rules, event: Event, words: Mapping[str, str]) -> str | None:
    """The event in `words` (SCENARIO or the labels' `events`), or None where they say nothing of it."""
    line = record(event)
    kind = line["event"]
    action = rules.action(line["action"]) if "action" in line else None
    if line.get("indirect"):
        kind += " indirect"
    elif kind == "resolved" and action is not None and action.direct:
        kind += " direct"
    elif kind == "died" and not line["cards"]:
        kind += " face-down"
    template = words.get(kind)
    if template is None:
        return None
    name = "" if action is None else action.name
    return template.format_map({**line, "name": name, "cards": " ".join(line.get("cards", ()))})
