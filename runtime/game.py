"""The engine's public face, modelled on python-chess: `legal_options()` and `apply(option)`.

game = Game.new(compile("v7", "lite"), seed=1)
while not game.over:
    game.apply(agent.choose(game.view(game.to_move), game.legal_options()))
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

from blackpoker.compiler.model import Action, RuleSet
from blackpoker.runtime import flow
from blackpoker.runtime.invariants import check_invariants
from blackpoker.runtime.legal import request_options
from blackpoker.runtime.options import Choice, Option, Pass, RequestOption, sort_cards
from blackpoker.runtime.state import GameState, PlayerState, player_name
from blackpoker.runtime.zones import card, deck_ids


@dataclass
class Tables:
    """What the engine derives once per rule set: direct actions, target specs, key ways."""

    direct_actions: tuple[Action, ...]
    target_specs: dict[str, Any]
    ways: dict[tuple[str, tuple[int, ...]], list[tuple[int, ...]]] = field(default_factory=dict)


_TABLES: dict[int, tuple[RuleSet, Tables]] = {}


def tables(rules: RuleSet) -> Tables:
    known = _TABLES.get(id(rules))
    if known is None or known[0] is not rules:
        direct = tuple(a for a in rules.actions if a.direct)
        specs = {a.id: s.arg for a in rules.actions for s in a.steps[:1] if s.op == "target"}
        known = (rules, Tables(direct, specs))
        _TABLES[id(rules)] = known
    return known[1]


class IllegalOption(ValueError):
    pass


class Game:
    def __init__(
        self,
        rules: RuleSet,
        state: GameState,
        *,
        check: bool = False,
        events: list[dict[str, Any]] | None = None,
    ) -> None:
        self.rules = rules
        self.state = state
        self.check = check  # verify the invariants after every decision
        self.events = events  # resolution events, when a log is kept
        table = tables(rules)
        self.direct_actions = table.direct_actions
        self.target_specs = table.target_specs
        self._ways = table.ways
        self.decisions = 0

    @classmethod
    def new(cls, rules: RuleSet, seed: int, **options: Any) -> Game:
        state = GameState(
            (PlayerState(life=list(deck_ids(0))), PlayerState(life=list(deck_ids(1)))), random.Random(seed)
        )
        game = cls(rules, state, **options)
        flow.setup(game)
        return game

    @property
    def over(self) -> bool:
        return self.state.result is not None

    @property
    def result(self) -> str | None:
        return self.state.result

    @property
    def to_move(self) -> int | None:
        """Who decides now: the player an effect waits on, else the chance holder."""
        state = self.state
        if state.result is not None:
            return None
        if state.resolving and state.resolving[-1].waiting is not None:
            return state.resolving[-1].waiting.player
        return state.chance

    def legal_options(self) -> list[Option]:
        state = self.state
        if state.result is not None:
            return []
        if state.resolving and state.resolving[-1].waiting is not None:
            return list(state.resolving[-1].waiting.options)
        assert state.chance is not None
        return [*request_options(self, state.chance), Pass(state.chance)]

    def apply(self, option: Option) -> None:
        """Apply an option from legal_options() (checked only by `play`)."""
        self.decisions += 1
        self.note("decision", player=player_name(option.player), option=str(option))
        if isinstance(option, Pass):
            flow.pass_chance(self, option.player)
        elif isinstance(option, RequestOption):
            flow.request(self, option)
        else:
            flow.answer(self, option)
        if self.check:
            check_invariants(self)

    def play(self, option: Option) -> None:
        if option not in self.legal_options():
            raise IllegalOption(f"not a legal option now: {option}")
        self.apply(option)

    def find(self, player: int, text: str) -> Option | None:
        """The legal option of `player` printed as `text`, if any."""
        return next((o for o in self.legal_options() if o.player == player and str(o) == text), None)

    def note(self, kind: str, **data: Any) -> None:
        if self.events is not None:
            self.events.append({"event": kind, **data})

    def key_ways(self, action: Action, hand: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Key-card choices for a hand (sorted ids), cached per rule set: hands repeat a lot."""
        key = (action.id, hand)
        ways = self._ways.get(key)
        if ways is None:
            if len(self._ways) > 200_000:
                self._ways.clear()  # bound the memory of long simulations
            assert action.matcher is not None
            ordered = sort_cards(hand)
            ways = []
            for way in action.matcher.ways([card(c) for c in ordered]):
                free = list(ordered)
                chosen = []
                for value in way:
                    cid = next(c for c in free if card(c) == value)
                    free.remove(cid)
                    chosen.append(cid)
                ways.append(tuple(chosen))
            self._ways[key] = ways
        return ways

    def copy(self) -> Game:
        twin = Game(self.rules, self.state.copy(), check=self.check)
        twin.decisions = self.decisions
        return twin

    def state_hash(self) -> str:
        return hashlib.sha256(json.dumps(snapshot(self.state), sort_keys=True).encode()).hexdigest()


def snapshot(state: GameState) -> dict[str, Any]:
    """Everything that decides the game's future, as plain data (for hashing and tests)."""

    def request(r: Any) -> list[Any]:
        return [r.uid, r.action.id, r.controller, list(r.key_cards), list(r.held), r.target]

    return {
        "players": [
            {
                "life": p.life,
                "hand": p.hand,
                "graveyard": p.graveyard,
                "outside": p.outside,
                "used": sorted(p.used),
                "field": [
                    [u.uid, u.kind.id, u.cards, u.controller, u.face_up, u.charged, u.entered, u.size_mod]
                    for u in p.field
                ],
            }
            for p in state.players
        ],
        "turn": [state.turn, state.turn_player, state.chance, sorted(state.passes)],
        "stage": [request(r) for r in state.stage],
        "resolving": [
            [
                request(r.request),
                r.origin.value,
                [[f.pc, f.bind is not None] for f in r.frames],
                str(r.waiting.options) if r.waiting else None,
            ]
            for r in state.resolving
        ],
        "buffer": [request(r) for r in state.buffer],
        "combat": [state.attackers, sorted(state.blocks.items())],
        "result": state.result,
        "rng": hashlib.sha256(repr(state.rng.getstate()).encode()).hexdigest(),
    }


__all__ = ["Choice", "Game", "IllegalOption", "Option", "Pass", "RequestOption"]
