"""A position of a game as a scenario file (docs/scenarios.md): the written set-up, no
commands, and an `expect` that checks the same position — so `blackpoker scenario run` passes
on it, and `blackpoker serve` can start a game from it.

The written form has no stage, resolving requests, size changes or combat: a position with
any of them is refused, by name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from blackpoker.compiler.environment import is_path
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import player_name
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.source import RulesSource
from blackpoker.runtime.scenario.scenario import PLAYER_KEYS, character_text


class Unwritable(Exception):
    """The position holds something the scenario format cannot write."""


def _labels(cards: list[int]) -> list[str]:
    return [label(c) for c in cards]


def position_scenario(game: Game, source: RulesSource, name: str) -> dict[str, Any]:
    state = game.state
    held = [
        what
        for what, present in (
            ("the stage", state.stage),
            ("a resolving request", state.resolving or state.pending or state.buffer),
            ("a combat", state.attackers),
            ("a size change", any(u.size_mod for p in state.players for u in p.field)),
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
    }
    expect: dict[str, Any] = {
        "turn": setup["turn"],
        "chance": setup["chance"],
        "turn_number": state.turn,
        "winner": "none",
    }
    for index, who in enumerate(PLAYER_KEYS):
        p = state.players[index]
        zones: dict[str, Any] = {"life": _labels(p.life), "hand": _labels(p.hand)}
        zones["graveyard"] = _labels(p.graveyard)
        if p.zones:
            zones["zones"] = {zone: _labels(cards) for zone, cards in p.zones.items()}
        if p.used:
            zones["used"] = sorted(game.rules.action(a).name for a in p.uses())
        field = []
        for unit in p.field:
            spec: dict[str, Any] = {"as": unit.kind.id, "cards": _labels(unit.cards)}
            spec["state"] = "charged" if unit.charged else "driven"
            spec["face"] = "up" if unit.face_up else "down"
            if unit.entered >= state.turn:
                spec["new"] = True
            field.append(spec)
        zones["field"] = field
        setup[who] = zones
        expect[who] = {**zones, "field": [character_text(game, u) for u in p.field]}
    return {"kind": "scenario", "name": name, **names, "setup": setup, "commands": [], "expect": expect}


def scenario_yaml(data: dict[str, Any]) -> str:
    return yaml.dump(
        data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=1000, default_flow_style=None
    )


class _Dumper(yaml.SafeDumper):
    """Writes the set-up and the expectation in full, not as anchors and aliases of each other."""

    def ignore_aliases(self, data: Any) -> bool:
        return True
