"""The board as JSON for the browser: a player's view (runtime/engine/view.py) and nothing more.

Targets are in words (`stage:2` → ステージ2, a zone's card by the rule set's name for the
zone: runtime/play/labels.py). Cards are `{id, label, suit}`: the id tells apart the two
players' equal cards (each has its own deck) and lets the page mark the cards an option uses;
a card is sent only where the view shows it. From the game, only what the table shows everyone
is added: whether a character entered this turn (準備) and its size change.
"""

from __future__ import annotations

from collections.abc import Mapping

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, Option, Pass, target_text
from blackpoker.runtime.engine.refs import (
    CharacterByCard,
    HiddenCharacter,
    OptionTarget,
    PlayerRef,
    ZoneCard,
    player_name,
    result_name,
)
from blackpoker.runtime.engine.view import CharacterView, RequestView, View, reference_text
from blackpoker.runtime.play.labels import labels_for
from blackpoker.runtime.serve.cards import Json, cards_json
from blackpoker.runtime.serve.zones import zones_json


def board_json(game: Game, seen: View, notes: Mapping[int, str] | None = None) -> Json:
    """The view `seen` of `game` (a player's, or a merge of both for the full state); `notes`:
    what the cards of a public zone (the fog) do (runtime/serve/zones.py)."""
    players = []
    for index, p in enumerate(seen.players):
        units = game.state.players[index].field  # the view keeps the field's order
        players.append(
            {
                "name": player_name(p.seat),
                "life": p.life if isinstance(p.life, int) else str(p.life),
                "hand": None if p.hand is None else cards_json(p.hand),
                "hand_count": p.hand_count,
                "graveyard": cards_json(p.graveyard),
                "zones": zones_json(game, index, p.zones, notes or {}),
                "field": [
                    _unit(game, u, units[n].entered >= game.state.turn, units[n].size_mod)
                    for n, u in enumerate(p.field)
                ],
            }
        )
    return {
        "turn": seen.turn,
        "turn_player": player_name(seen.turn_player),
        "chance": None if seen.chance is None else player_name(seen.chance),
        "players": players,
        "stage": [_request(game, r) for r in seen.stage],
        "resolving": [_request(game, r) for r in seen.resolving],
        "result": None if seen.result is None else result_name(seen.result),
    }


def _unit(game: Game, unit: CharacterView, new: bool, size_mod: int) -> Json:
    words = labels_for(game.rules.ruleset)
    return {
        "ref": target_text(unit.ref),
        "name": unit.name,
        "cards": cards_json(unit.cards),
        "face_up": unit.face_up,
        "charged": unit.charged,
        "new": new,
        "size": unit.size,
        "size_mod": size_mod if unit.size is not None else 0,
        "attacking": unit.attacking,
        "blocking": None if unit.blocking is None else words.target(target_text(unit.blocking)),
    }


def _request(game: Game, r: RequestView) -> Json:
    words = labels_for(game.rules.ruleset)
    return {
        "name": r.name,
        "player": player_name(r.player),
        "keys": cards_json(r.key_cards),
        "target": None if r.target is None else words.target(reference_text(r.target)),
        "by_effect": not game.rules.action(r.action).direct,
    }


def marks(option: Option, step: int | None = None) -> list[str]:
    """The board's things an option uses — all, or those of one step of its choice
    (runtime/play/choosing.py) — as the page names them: `card:ID`, `unit:REF` (a hidden
    character, by its reference), `stage:N`, `resolving:N`, `player:pN`."""
    if isinstance(option, Pass):
        return []
    target = [] if option.target is None else [_mark(option.target)]
    if isinstance(option, Choice):
        cards = [f"card:{c}" for c in (option.a, option.b) if c is not None]
        by_step = [[], cards + target]
    else:
        paid = [f"card:{c}" for _, c in option.payment if c is not None]
        causing = [] if option.source is None else [f"card:{option.source}"]
        by_step = [causing, [f"card:{c}" for c in option.keys], paid, target]
    return [m for n, found in enumerate(by_step) if step in (None, n) for m in found]


def _mark(target: OptionTarget) -> str:
    if isinstance(target, CharacterByCard | ZoneCard):  # a zone's card the chooser sees (a trump)
        return f"card:{target.card}"
    if isinstance(target, HiddenCharacter):
        return f"unit:{target_text(target)}"
    if isinstance(target, PlayerRef):
        return f"player:{player_name(target.index)}"
    return target_text(target)  # stage:N, resolving:N
