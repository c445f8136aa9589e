"""The engine's public face, modelled on python-chess: `legal_options()` and `apply(option)`.

game = Game.new(compile("v7", "lite"), seed=1)   # or a Rules context many games share
while not game.over:
    game.apply(decide(game, agents))   # runtime/play/selfplay.py: each agent sees its player's view
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from blackpoker.runtime.engine import flow
from blackpoker.runtime.engine.errors import EngineError, IllegalOption
from blackpoker.runtime.engine.events import Decided, Event
from blackpoker.runtime.engine.invariants import check_invariants
from blackpoker.runtime.engine.kept import Kept
from blackpoker.runtime.engine.option_search import request_options
from blackpoker.runtime.engine.options import Choice, Option, Pass, RequestOption
from blackpoker.runtime.engine.refs import Result, option_data, result_name, target_data
from blackpoker.runtime.engine.rules import Rules, rules_of
from blackpoker.runtime.engine.start import Start
from blackpoker.runtime.engine.state import GameState, PlayerState
from blackpoker.runtime.engine.table import P, Table
from blackpoker.runtime.engine.zones import deck_ids
from blackpoker.runtime.rules.model import GraveyardTop, RuleSet


class Game(Table):
    def __init__(
        self,
        rules: RuleSet | Rules,
        state: GameState,
        *,
        check: bool = False,
        events: list[Event] | None = None,
    ) -> None:
        self.rules = rules_of(rules)  # the rule set with its derived tables and caches
        self.state = state
        if state.arrived is None and self.rules.edition.core.graveyard_top is GraveyardTop.OWNER_CHOOSES:
            state.arrived, state.left = [], []  # the transitions note what the graveyards receive
        self.check = check  # verify the invariants after every decision
        self.events = events  # decisions and resolution events, when a log is kept
        self.decisions = 0
        self.seed: int | None = None  # set by `new`; a hand-built position has none
        self._options: tuple[Option, ...] | None = None  # the options of the current decision
        self.views: dict[tuple[object, ...], Any] = {}  # parts of views already built (engine/view.py)
        self._undo: list[_Undo] = []  # what `pop` restores, newest last
        self.kept = (Kept(), Kept())
        self.touched = 0

    @classmethod
    def new(
        cls,
        rules: RuleSet | Rules,
        seed: int,
        tops: Sequence[Sequence[int]] = ((), ()),
        start: Start | None = None,
        **options: Any,
    ) -> Game:
        """A game set up from `seed`; `tops` stacks each deck's top cards (flow.setup); `start`
        (a regulation's) chooses each deck's cards and its preset characters, else both play all 54."""
        rules = rules_of(rules)
        zones = [z.id for z in rules.edition.core.zones]
        state = GameState(
            (_player(0, zones, start), _player(1, zones, start)),
            random.Random(seed),
        )
        game = cls(rules, state, **options)
        game.seed = seed
        flow.setup(game, tops, start)
        return game

    @property
    def over(self) -> bool:
        return self.state.result is not None

    @property
    def result(self) -> Result | None:
        return self.state.result

    @property
    def to_move(self) -> int | None:
        """Who decides now: the player an effect waits on, else the chance holder."""
        return self.state.to_move()

    def legal_options(self) -> tuple[Option, ...]:
        """The complete list of legal options; computed once per decision (only `apply` changes the state)."""
        if self._options is None:
            self._options = self._compute_options()
        return self._options

    def _compute_options(self) -> tuple[Option, ...]:
        state = self.state
        if state.result is not None:
            return ()
        if state.asked:
            return state.asked[0].options
        if state.resolving and state.resolving[-1].waiting is not None:
            return state.resolving[-1].waiting.options
        assert state.chance is not None
        return request_options(self, state.chance)

    def apply(self, option: Option) -> None:
        """Apply an option from legal_options() (checked only by `play`).

        With a log, the decision is recorded with its index in legal_options(): option texts
        name characters by their first card, so two Joker bulwarks could print alike.
        """
        if self.events is not None:
            index = self.legal_options().index(option)
            self.events.append(Decided(option.player, index, option))
        self._options = None
        self.decisions += 1
        if isinstance(option, Pass):
            self.touched += flow.pass_chance(self, option.player)
        elif isinstance(option, RequestOption):
            self.touched += 1
            flow.request(self, option)
        else:
            self.touched += 1
            flow.answer(self, option)
        if self.check:
            check_invariants(self)

    def play(self, option: Option) -> None:
        if option not in self.legal_options():
            raise IllegalOption(f"not a legal option now: {option}")
        self.apply(option)

    def record(self, kind: Callable[P, Event], *args: P.args, **kwargs: P.kwargs) -> None:
        """Keep an event when the game keeps a log; made only then (most games keep none)."""
        if self.events is not None:
            self.events.append(kind(*args, **kwargs))

    def push(self, option: Option) -> None:
        """Apply `option` so that `pop` can take it back (search agents try moves this way)."""
        kept = _Undo(self.state.copy(), self.decisions, self._options, len(self.events or ()))
        self.apply(option)
        self._undo.append(kept)

    def pop(self) -> None:
        """Take back the newest `push`: the state, the decision count and the events."""
        if not self._undo:
            raise EngineError("pop: no pushed decision to take back")
        kept = self._undo.pop()
        self.state, self.decisions, self._options = kept.state, kept.decisions, kept.options
        self.touched += 1  # the players' kept options may be of the state taken back
        if self.events is not None:
            del self.events[kept.events :]

    def copy(
        self, chance: random.Random | None = None, views: dict[tuple[object, ...], Any] | None = None
    ) -> Game:
        """A game to play on from this one: its own state, with a copy of the chance generator
        unless `chance` is given, and its own cache of character views unless `views` is (the
        search agent's trials share their deal's: runtime/play/search.py)."""
        twin = Game(self.rules, self.state.copy(chance), check=self.check)
        twin.decisions = self.decisions
        twin.seed = self.seed
        if views is not None:
            twin.views = views
        return twin

    def state_hash(self) -> str:
        return hashlib.sha256(json.dumps(snapshot(self.state), sort_keys=True).encode()).hexdigest()


def _player(index: int, zones: list[str], start: Start | None) -> PlayerState:
    """A player before set-up: the deck as the life, the cards left out of it in their zone."""
    player = PlayerState(life=list(deck_ids(index)), zones={z: [] for z in zones})
    if start is None:
        return player
    deck, aside = set(start.decks[index]), set(start.aside[index])
    player.life = [c for c in player.life if c in deck]
    left = [c for c in deck_ids(index) if c not in deck and c not in aside]
    player.outside = sorted(aside)
    if start.left_out is None:
        player.outside += left
    else:
        player.zones[start.left_out] = left
    return player


@dataclass(frozen=True, slots=True)
class _Undo:
    state: GameState  # a copy taken before the decision
    decisions: int
    options: tuple[Option, ...] | None
    events: int  # how many events there were


def snapshot(state: GameState) -> dict[str, Any]:
    """Everything that decides the game's future, as plain data (for hashing and tests)."""

    def request(r: Any) -> list[Any]:
        target = None if r.target is None else target_data(r.target)
        # only a caused request names its character, so that other states hash as they did
        source = [] if r.source is None else [r.source]
        return [r.uid, r.action.id, r.controller, list(r.key_cards), list(r.held), target, *source]

    return {
        "players": [
            {
                "life": p.life,
                "hand": p.hand,
                "graveyard": p.graveyard,
                "outside": p.outside,
                "used": p.uses(),
                # only an edition that declares zones has them (a v7 state hashes as it did)
                **({"zones": p.zones} if p.zones else {}),
                **({"face_up": sorted(p.face_up.items())} if p.face_up else {}),
                **({"kept_down": sorted(p.kept_down)} if p.kept_down else {}),
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
                _answers_data(r.waiting.options) if r.waiting else None,
            ]
            for r in state.resolving
        ],
        "buffer": [request(r) for r in state.buffer],
        "pending": None if state.pending is None else request(state.pending),
        "combat": [state.attackers, sorted(state.blocks.items())],
        "result": None if state.result is None else result_name(state.result),
        "rng": hashlib.sha256(repr(state.rng.getstate()).encode()).hexdigest(),
        # only a game whose graveyards are watched has these (other states hash as they did)
        **({"asked": [_answers_data(q.options) for q in state.asked]} if state.asked else {}),
        **({"arrived": state.arrived} if state.arrived else {}),
        **({"left": state.left} if state.left else {}),
    }


def _answers_data(options: tuple[Choice, ...]) -> str:
    """A waiting prompt's answers as the hash has always read them: the text of a tuple of
    Choice records whose targets are plain tuples (and words plain text)."""
    shown = [
        f"Choice(player={c.player!r}, word={str(c.word)!r}, a={c.a!r}, b={c.b!r}, "
        f"target={None if c.target is None else option_data(c.target)!r})"
        for c in options
    ]
    return f"({', '.join(shown)}{',' if len(shown) == 1 else ''})"


__all__ = ["Choice", "Game", "IllegalOption", "Option", "Pass", "RequestOption"]
