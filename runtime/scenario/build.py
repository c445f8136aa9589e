"""A scenario's position as a game: the set-up as written, or dealt from its seed (with a
regulation, the next game of its match)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.state import GameState, PlayerState, Unit
from blackpoker.runtime.engine.zones import card, deck_ids
from blackpoker.runtime.play.regulation import Match, Setup
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.runtime.scenario.ruleset import match_so_far
from blackpoker.runtime.scenario.scenario import PLAYER_KEYS, Scenario


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
            match = match_so_far(regulation, setup)[0]
        last = setup.get("match", [{}])[-1]
        chosen = (last["p1"] - 1, last["p2"] - 1) if last and "result" not in last else match.choose()
        start = regulation.start(match.decks, chosen)
    return Game.new(rules, setup["seed"], tops, start, check=True, events=[])
