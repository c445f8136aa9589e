"""A position of a game as a scenario file (docs/scenarios.md), as one player sees it: the
written set-up, no commands, and an `expect` that checks the same position — so `blackpoker
scenario run` passes on it, and `blackpoker serve` can start a game from it.

The file holds only what the exporting player may see (runtime/engine/view.py): every other
card is written as unknown (`?`), which the scenario deals at random from the cards no zone
names — the life (hidden from both players, in order), the opponent's hand, graveyard below
its top, face-down characters and cards of zones they do not see. The `expect` checks the
unknown cards by count. The written form has no stage, resolving requests or combat: a
position with any of them is refused, by name.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import yaml
from blackpoker.compiler.environment import is_path
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import player_name
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.source import RulesSource
from blackpoker.runtime.scenario.expect import character_text
from blackpoker.runtime.scenario.scenario import PLAYER_KEYS
from blackpoker.runtime.scenario.unknown import UNKNOWN, UNKNOWN_SEED

UNKNOWN_SEEDS = 2**31  # a fresh seed per export: the unknown cards are no real ones


class Unwritable(Exception):
    """The position holds something the scenario format cannot write."""


def _labels(cards: list[int], seen: set[int]) -> list[str]:
    return [label(c) if c in seen else UNKNOWN for c in cards]


def position_scenario(game: Game, source: RulesSource, name: str, seat: int) -> dict[str, Any]:
    """The position as player `seat` sees it."""
    state = game.state
    held = [
        what
        for what, present in (
            ("the stage", state.stage),
            ("a resolving request", state.resolving or state.pending or state.buffer),
            ("a combat", state.attackers),
            ("a result", state.result),
        )
        if present
    ]
    if held or state.chance is None:
        raise Unwritable(
            f"this position holds {', '.join(held) or 'no chance'}, which a scenario's set-up cannot "
            "write: export when the stage is empty and a player has the chance"
        )
    # files by absolute path: the scenario names them relative to itself, wherever it is saved
    names: dict[str, Any] = (
        {"rules": str(source.rules.resolve())}
        if source.rules is not None
        else {
            "edition": str(Path(source.edition).resolve()) if is_path(source.edition) else source.edition,
            "format": source.format,
        }
    )
    setup: dict[str, Any] = {
        "turn": player_name(state.turn_player),
        "chance": player_name(state.chance),
        "turn_number": state.turn,
        UNKNOWN_SEED: secrets.randbelow(UNKNOWN_SEEDS),
    }
    expect: dict[str, Any] = {
        "turn": setup["turn"],
        "chance": setup["chance"],
        "turn_number": state.turn,
        "winner": "none",
    }
    seen = view(game, seat)
    shown = seen.visible_cards()
    for index, who in enumerate(PLAYER_KEYS):
        p = state.players[index]
        zones: dict[str, Any] = {
            "life": _labels(p.life, shown),
            "hand": _labels(p.hand, shown),
            "graveyard": _labels(p.graveyard, shown),
        }
        if p.zones:
            zones["zones"] = {zone: _labels(cards, shown) for zone, cards in p.zones.items()}
            # a card lying face up is seen by both players; written in the order it turned
            lying = {c for cards in p.zones.values() for c in cards}
            face_up = [label(c) for c in sorted(p.face_up, key=p.face_up.__getitem__) if c in lying]
            if face_up:
                zones["face_up"] = face_up
        if p.used:
            zones["used"] = sorted(game.rules.action(a).name for a in p.uses())
        field = []
        for unit in p.field:
            spec: dict[str, Any] = {"as": unit.kind.id, "cards": _labels(unit.cards, shown)}
            spec["state"] = "charged" if unit.charged else "driven"
            spec["face"] = "up" if unit.face_up else "down"
            if unit.entered >= state.turn:
                spec["new"] = True
            if unit.size_mod:  # public: the request that changed it was made in the open
                spec["size_change"] = unit.size_mod
            field.append(spec)
        zones["field"] = field
        setup[who] = zones
        expect[who] = {
            **zones,
            "life": len(p.life),  # unknown to both players: checked by its count
            "field": [character_text(game, u, not set(u.cards) <= shown) for u in p.field],
        }
    return {"kind": "scenario", "name": name, **names, "setup": setup, "commands": [], "expect": expect}


def scenario_yaml(data: dict[str, Any]) -> str:
    return yaml.dump(
        data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=1000, default_flow_style=None
    )


class _Dumper(yaml.SafeDumper):
    """Writes the set-up and the expectation in full, not as anchors and aliases of each other."""

    def ignore_aliases(self, data: Any) -> bool:
        return True
