"""The mutable game state. It changes only through runtime/engine/transitions.py and runtime/engine/flow.py.

Copies are cheap (`GameState.copy`): lists and the few small mutable records are copied,
the compiled rule data they point to is shared.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from blackpoker.runtime.engine.options import Choice, Prompt
from blackpoker.runtime.engine.refs import Result, StateTarget
from blackpoker.runtime.engine.start import Start
from blackpoker.runtime.rules.enums import Zone
from blackpoker.runtime.rules.model import Action, Character
from blackpoker.runtime.rules.program import Step

PLAYERS: Final = (0, 1)
# the built-in piles, bound once (see engine/targets.py)
HAND: Final = Zone.HAND
GRAVEYARD: Final = Zone.GRAVEYARD
LIFE: Final = Zone.LIFE


class Origin(Enum):
    """Why a resolution runs, which decides what happens once it is finished."""

    PLAYER = "player"  # an immediate request by the chance holder
    STAGE = "stage"  # the top of the stage, after every player passed
    TRIGGER = "trigger"  # an immediate request out of the trigger buffer
    EFFECT = "effect"  # an immediate request made by another effect (an indirect request)
    SETUP = "setup"  # the rule set's set-up, for one player before the game (placing trumps)


class Followup(Enum):
    """What the core flow does once nothing is resolving and the buffer is empty."""

    NONE = "none"
    AUTO_PASS = "auto_pass"  # after a normal request, when the edition passes automatically
    CHANCE_TO_TURN_PLAYER = "chance_to_turn_player"  # after a stage resolution


@dataclass(slots=True)
class Unit:
    """A character on the field (a component instance)."""

    uid: int
    kind: Character
    cards: list[int]
    controller: int
    face_up: bool
    charged: bool
    entered: int  # the turn its oldest card entered the field (準備)
    size_mod: int = 0  # until the end of the turn

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(
        self,
        uid: int,
        kind: Character,
        cards: list[int],
        controller: int,
        face_up: bool,
        charged: bool,
        entered: int,
        size_mod: int = 0,
    ) -> None:
        self.uid = uid
        self.kind = kind
        self.cards = cards
        self.controller = controller
        self.face_up = face_up
        self.charged = charged
        self.entered = entered
        self.size_mod = size_mod

    def copy(self) -> Unit:
        return Unit(
            self.uid,
            self.kind,
            list(self.cards),
            self.controller,
            self.face_up,
            self.charged,
            self.entered,
            self.size_mod,
        )


@dataclass(slots=True)
class Request:
    """A requested action: on the stage, resolving, or waiting in the trigger buffer."""

    uid: int
    action: Action
    controller: int
    key_cards: tuple[int, ...]  # as requested; numbers are read from these
    held: list[int]  # key cards the request still holds (not yet put elsewhere)
    target: StateTarget | None = None
    source: int | None = None  # a caused action's causing character, by unit id
    cause: tuple[int, ...] = ()  # a triggered request: the cards of the event that triggered it

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(
        self,
        uid: int,
        action: Action,
        controller: int,
        key_cards: tuple[int, ...],
        held: list[int],
        target: StateTarget | None = None,
        source: int | None = None,
        cause: tuple[int, ...] = (),
    ) -> None:
        self.uid = uid
        self.action = action
        self.controller = controller
        self.key_cards = key_cards
        self.held = held
        self.target = target
        self.source = source
        self.cause = cause

    def copy(self) -> Request:
        held = list(self.held)
        return Request(
            self.uid, self.action, self.controller, self.key_cards, held, self.target, self.source, self.cause
        )


@dataclass(slots=True)
class Frame:
    steps: tuple[Step, ...]
    pc: int = 0
    bind: tuple[str, Any] | None = None  # for_each: the name and the item of this pass

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(self, steps: tuple[Step, ...], pc: int = 0, bind: tuple[str, Any] | None = None) -> None:
        self.steps = steps
        self.pc = pc
        self.bind = bind


@dataclass(slots=True)
class Resolution:
    """An effect program being run; it pauses at decisions and resumes with the answer."""

    request: Request
    origin: Origin
    frames: list[Frame]
    vars: dict[str, Any] = dataclasses.field(default_factory=dict)
    answer: Choice | None = None  # the agent's answer to the decision this resolution waits on
    waiting: Prompt | None = None  # the decision it waits on
    begun: bool = False  # the abilities that change an effect were read as it started
    shielded: tuple[int, ...] = ()  # players its effect deals no damage to (prevent_damage)

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(
        self,
        request: Request,
        origin: Origin,
        frames: list[Frame],
        vars: dict[str, Any] | None = None,
        answer: Choice | None = None,
        waiting: Prompt | None = None,
        begun: bool = False,
        shielded: tuple[int, ...] = (),
    ) -> None:
        self.request = request
        self.origin = origin
        self.frames = frames
        self.vars = {} if vars is None else vars
        self.answer = answer
        self.waiting = waiting
        self.begun = begun
        self.shielded = shielded

    def copy(self) -> Resolution:
        return Resolution(
            self.request.copy(),
            self.origin,
            [Frame(f.steps, f.pc, f.bind) for f in self.frames],
            dict(self.vars),
            self.answer,
            self.waiting,
            self.begun,
            self.shielded,
        )


@dataclass(slots=True)
class PlayerState:
    life: list[int] = dataclasses.field(default_factory=list)  # top first
    hand: list[int] = dataclasses.field(default_factory=list)
    graveyard: list[int] = dataclasses.field(default_factory=list)  # top last
    field: list[Unit] = dataclasses.field(default_factory=list)
    outside: list[int] = dataclasses.field(default_factory=list)  # not in this game (hand-written scenarios)
    # once-per-turn actions requested this turn → how often (an ability may allow more than once)
    used: dict[str, int] = dataclasses.field(default_factory=dict)
    zones: dict[str, list[int]] = dataclasses.field(default_factory=dict)  # the edition's core.zones (fog)
    # cards of `zones` lying face up (trumps) → when each turned face up (a uid: the timestamp
    # of its abilities, 002 §6.4.2)
    face_up: dict[int, int] = dataclasses.field(default_factory=dict)
    # cards of `zones` held face down until the end of the turn (`turn … hold`: a close)
    kept_down: list[int] = dataclasses.field(default_factory=list)

    def copy(self) -> PlayerState:
        return PlayerState(
            list(self.life),
            list(self.hand),
            list(self.graveyard),
            [u.copy() for u in self.field],
            list(self.outside),
            dict(self.used),
            {zone: list(cards) for zone, cards in self.zones.items()} if self.zones else {},
            dict(self.face_up),
            list(self.kept_down),
        )

    def uses(self) -> list[str]:
        """The once-per-turn actions requested this turn, each once per use, sorted."""
        return sorted(a for a, n in self.used.items() for _ in range(n))

    def pile(self, zone: Zone | str) -> list[int]:
        """The cards of a zone a program reads: hand, graveyard, life or a declared zone."""
        if zone == GRAVEYARD:
            return self.graveyard
        if zone == HAND:
            return self.hand
        return self.life if zone == LIFE else self.zones[zone]


@dataclass(slots=True)
class GameState:
    players: tuple[PlayerState, PlayerState]
    rng: random.Random
    turn_player: int = 0
    turn: int = 1
    chance: int | None = 0
    passes: set[int] = dataclasses.field(default_factory=set)
    stage: list[Request] = dataclasses.field(default_factory=list)  # bottom first
    resolving: list[Resolution] = dataclasses.field(default_factory=list)  # innermost last
    buffer: list[Request] = dataclasses.field(default_factory=list)  # triggered, not yet requested
    pending: Request | None = None  # requested; waits for the trigger check its cost caused ([6] before [7])
    followup: Followup = Followup.NONE
    attackers: list[int] = dataclasses.field(default_factory=list)  # unit uids, in declaration order
    blocks: dict[int, list[int]] = dataclasses.field(default_factory=dict)  # attacker uid → blocker uids
    result: Result | None = None  # once decided
    next_uid: int = 1
    start: Start | None = None  # a regulation's start, until the set-up's decisions are made
    # the questions of the rules waiting for an answer, first first: which card lies on top of a
    # graveyard (core.graveyard_top: owner_chooses, runtime/engine/graveyard.py)
    asked: tuple[Prompt, ...] = ()
    # with that rule: the cards that reached a graveyard, and the players whose graveyard lost
    # cards, since the rules last looked (None: the edition does not watch the graveyards)
    arrived: list[int] | None = None
    left: list[int] | None = None

    def copy(self, rng: random.Random | None = None) -> GameState:
        """A copy with its own lists; its generator is `rng` when given (a dealt game brings
        its own: copying one costs as much as the rest of the state)."""
        if rng is None:
            # made bare, then given the state: `Random()` would first seed itself from the system
            rng = random.Random.__new__(random.Random)
            rng.setstate(self.rng.getstate())
        return GameState(
            (self.players[0].copy(), self.players[1].copy()),
            rng,
            self.turn_player,
            self.turn,
            self.chance,
            set(self.passes),
            [r.copy() for r in self.stage],
            [r.copy() for r in self.resolving],
            [r.copy() for r in self.buffer],
            self.pending.copy() if self.pending is not None else None,
            self.followup,
            list(self.attackers),
            {k: list(v) for k, v in self.blocks.items()},
            self.result,
            self.next_uid,
            self.start,
            self.asked,
            None if self.arrived is None else list(self.arrived),
            None if self.left is None else list(self.left),
        )

    def to_move(self) -> int | None:
        """Who decides now: the player a question of the rules or an effect waits on, else the
        chance holder."""
        if self.result is not None:
            return None
        if self.asked:
            return self.asked[0].player
        if self.resolving and self.resolving[-1].waiting is not None:
            return self.resolving[-1].waiting.player
        return self.chance

    def new_uid(self) -> int:
        self.next_uid += 1
        return self.next_uid - 1

    def unit(self, uid: int) -> Unit | None:
        for player in self.players:
            for unit in player.field:
                if unit.uid == uid:
                    return unit
        return None

    def stage_request(self, uid: int) -> Request | None:
        return next((r for r in self.stage if r.uid == uid), None)

    def holding(self) -> list[Request]:
        """The requests that may hold key cards: on the stage, resolving, or pending."""
        found = [*self.stage, *(r.request for r in self.resolving)]
        return found if self.pending is None else [*found, self.pending]
