"""The core flow (seed 002 [1]–[16]) and the trigger check with its buffer ([6-1]–[6-12]).

The state changes here, in the card-level transitions (runtime/engine/transitions.py) and in the
primitives that the effect programs run; nothing else writes to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from blackpoker.runtime.engine import graveyard
from blackpoker.runtime.engine import transitions as t
from blackpoker.runtime.engine.events import Discarded, GameOver, Requested, Resolved, SetUp, Triggered
from blackpoker.runtime.engine.expressions import condition
from blackpoker.runtime.engine.interpreter import run
from blackpoker.runtime.engine.options import Choice, RequestOption
from blackpoker.runtime.engine.payments import UNITS
from blackpoker.runtime.engine.primitives import WAIT
from blackpoker.runtime.engine.refs import Result
from blackpoker.runtime.engine.start import Start
from blackpoker.runtime.engine.state import Followup, Frame, Origin, Request, Resolution
from blackpoker.runtime.engine.targets import resolve_name
from blackpoker.runtime.engine.triggers import TRIGGERED_FOR, requested
from blackpoker.runtime.engine.zones import rank
from blackpoker.runtime.rules.model import Limit, Speed, Timing
from blackpoker.runtime.rules.program import KindOfType

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table

# enum members bound once: read as `Origin.STAGE`, each goes through the enum class (see
# engine/targets.py), several times per resolution
SETUP: Final = Origin.SETUP
PLAYER: Final = Origin.PLAYER
STAGE: Final = Origin.STAGE
TRIGGER: Final = Origin.TRIGGER
NO_FOLLOWUP: Final = Followup.NONE
AUTO_PASS: Final = Followup.AUTO_PASS
CHANCE_TO_TURN_PLAYER: Final = Followup.CHANCE_TO_TURN_PLAYER
IMMEDIATE: Final = Speed.IMMEDIATE
NORMAL: Final = Speed.NORMAL
MAIN: Final = Timing.MAIN
QUICK: Final = Timing.QUICK
RESOLVES_BEFORE_COST_TRIGGERS: Final = Limit.RESOLVES_BEFORE_COST_TRIGGERS


def setup(g: Table, tops: Sequence[Sequence[int]] = ((), ()), start: Start | None = None) -> None:
    """001 §3.9: shuffle, draw 7, the rest is the life; reveal tops until one is higher;
    revealed cards go to the graveyard; the first player draws 1 and holds turn and chance.
    `tops`: each player's cards to put on top of the shuffled deck, top first (a scenario
    stacks a deck this way). A rule set with a set-up (the extra format's trumps, 001
    §3.11.4; a frame's rare card or chosen hand, frame.yaml) runs it for each player, first
    player 1, on the shuffled deck: the game goes on once both are done. `start`: then a
    regulation's cards set aside from the top of the deck (a frame's pack) and its preset
    characters, placed from the top before the hand is drawn (2024 §5.3.1: after the trumps)."""
    state = g.state
    for index, player in enumerate(state.players):
        t.shuffle(state, player.life)
        player.life = [*tops[index], *(c for c in player.life if c not in tops[index])]
    state.start = start
    setup_action = g.rules.setup
    if setup_action is None:
        _deal(g)
        return
    state.chance = None
    for index in reversed(range(len(state.players))):  # the innermost resolution runs first
        req = Request(state.new_uid(), setup_action, index, (), [])
        state.resolving.append(Resolution(req, SETUP, [Frame(setup_action.steps)]))
    advance(g)


def _deal(g: Table) -> None:
    """The regulation's set-aside cards and presets, then the hands up to their size (a hand
    chosen at the set-up draws the rest: ストラテジー) and the first player (001 §3.9 from step 2)."""
    state = g.state
    start, state.start = state.start, None
    if start is not None:
        for index, player in enumerate(state.players):
            for zone, count in start.set_aside:  # before the presets: the pack of frame.yaml
                player.zones[zone] += player.life[:count]
                del player.life[:count]
            _preset(g, index, start)
    for index, player in enumerate(state.players):
        t.draw(state, index, g.rules.edition.core.hand_size - len(player.hand))
    first = 0
    while all(p.life for p in state.players):
        shown = [p.life[0] for p in state.players]
        for index in (0, 1):
            t.damage(state, index, 1)  # the revealed card goes to the graveyard
        graveyard.settle(g)  # one card each: nobody chooses
        if rank(shown[0]) != rank(shown[1]):
            first = 0 if rank(shown[0]) > rank(shown[1]) else 1
            break
    t.draw(state, first, 1)
    state.turn_player = state.chance = first
    g.record(SetUp, first)


def _preset(g: Table, player: int, start: Start) -> None:
    """Each preset type takes the top card as a standing character of that type; a card that
    makes none (a Joker soldier where no soldier takes a Joker) goes to `start.unfit` and the
    next card is taken (frame.yaml 第8.0版, the ライト preset)."""
    life = g.state.players[player].life
    for character_type in start.preset:
        kind = KindOfType(type=character_type)
        while life and not t.characters_of(g, life[:1], kind):
            t.move_card(g.state, life[0], start.unfit)
        if life:
            t.place_units(g, life[:1], kind, None, charged=True)


def request(g: Table, option: RequestOption) -> None:
    """[4] reset the pass record, [5] pay and request, then [7]/[8] resolve or [10] stage."""
    state = g.state
    p = option.player
    action = g.rules.action(option.action)
    me = state.players[p]
    state.passes.clear()
    if action.id in g.rules.counted:
        me.used[action.id] = me.used.get(action.id, 0) + 1
    for cid in option.keys:
        t.take_card(state, cid)
    for letter, paid in option.payment:
        UNITS[letter].pay(g, p, paid)
    target = None if option.target is None else resolve_name(g, option.target)
    source = None
    if option.source is not None:  # driven as the request is made, like a cost, before [6]
        causing = next(u for u in me.field if u.cards[0] == option.source)
        t.drive(causing)
        source = causing.uid
    req = Request(state.new_uid(), action, p, option.keys, list(option.keys), target, source)
    if g.events is not None:  # the hot paths ask before calling `record` (most games keep no log)
        g.record(Requested, p, action.id)
    requested(g, req)  # [5] made, what it triggers waits for [6]
    if state.buffer and RESOLVES_BEFORE_COST_TRIGGERS not in action.limits:
        state.pending = req  # [6] the triggers the cost caused come first, then [7]
    else:
        _start(g, req)
    advance(g)


def _start(g: Table, req: Request) -> None:
    """[7] an immediate request resolves, [10] a normal one goes on the stage."""
    state = g.state
    if req.action.speed is IMMEDIATE:
        state.resolving.append(Resolution(req, PLAYER, [Frame(req.action.steps)]))
    else:
        state.stage.append(req)
        if g.rules.edition.core.auto_pass_after_normal_request:
            state.followup = AUTO_PASS


def pass_chance(g: Table, p: int) -> bool:
    """[11] record the pass; [12] all passed → [15] resolve the top, else [16] move chance.
    Whether it changed more than who holds the chance and has passed (the top resolved)."""
    state = g.state
    state.passes.add(p)
    if len(state.passes) < len(state.players):
        state.chance = 1 - p
        return False
    state.chance = None
    state.passes.clear()
    if state.stage:
        top = state.stage.pop()
        state.resolving.append(Resolution(top, STAGE, [Frame(top.action.steps)]))
        advance(g)
        return True
    state.chance = state.turn_player
    return False


def answer(g: Table, choice: Choice) -> None:
    """An answer to the first question of the rules (a graveyard's top card), else to the
    decision the running effect waits on."""
    state = g.state
    if state.asked:
        graveyard.answer(g, choice)
    else:
        res = state.resolving[-1]
        res.waiting = None
        res.answer = choice
    advance(g)


def advance(g: Table) -> None:
    """Run resolutions and the trigger check until a player must decide or the game ends."""
    state = g.state
    while state.result is None:
        if state.asked or ((state.arrived or state.left) and graveyard.settle(g)):
            return  # a graveyard's top card is chosen before the game goes on
        if state.resolving:
            res = state.resolving[-1]
            signal = run(g, res)
            if signal is WAIT:
                return
            if signal is None:
                state.resolving.pop()
                _finish(g, res)
            continue
        if state.buffer:
            _trigger_step(g)
            continue
        if state.pending is not None:
            req, state.pending = state.pending, None
            _start(g, req)
            continue
        followup, state.followup = state.followup, NO_FOLLOWUP
        if followup is AUTO_PASS and state.chance is not None:
            pass_chance(g, state.chance)
            continue
        if followup is CHANCE_TO_TURN_PLAYER:
            state.chance = state.turn_player
            state.passes.clear()
        return


def _finish(g: Table, res: Resolution) -> None:
    """After the effect: key cards it did not put elsewhere go to the graveyard, [9] win check,
    and the actions whose 誘発条件 this resolution meets go to the buffer ([6-1])."""
    state = g.state
    request = res.request
    if request.held:
        t.release_keys(state, request)
    if g.events is not None:
        g.record(Resolved, request.controller, request.action.id)
    players = state.players
    if not (players[0].life and players[1].life):  # after most resolutions: no call
        _win_check(g)
    if res.origin is STAGE:
        state.followup = CHANCE_TO_TURN_PLAYER
    if res.origin is SETUP:
        if not state.resolving:
            _deal(g)
        return
    if state.result is None:
        for action in g.rules.triggered.get(request.action.id, ()):
            rule = action.triggered_by
            assert rule is not None
            if rule.cond is None or condition(g, res, rule.cond):
                who = TRIGGERED_FOR[rule.player](state.turn_player, request.controller)
                state.buffer.append(Request(state.new_uid(), action, who, (), []))


def _win_check(g: Table) -> None:
    """[9] a player whose life is empty has lost (both: a draw)."""
    players = g.state.players
    alive = [i for i, p in enumerate(players) if p.life]
    g.state.result = Result.won_by(alive[0]) if alive else Result.DRAW
    g.record(GameOver, g.state.result)


def _trigger_step(g: Table) -> None:
    """One request out of the buffer: immediate before normal, the turn player's first, main
    before quick; a main-timing normal trigger is discarded when the stage is not empty."""
    state = g.state
    turn = state.turn_player
    # the first of the lowest rank, ranked as the tuple (normal, not the turn player's, quick)
    # sorts; a loop over ints rather than `min` with a key function, a call per request
    index, best = 0, 8
    for i, waiting in enumerate(state.buffer):
        action = waiting.action
        rank = 4 * (action.speed is NORMAL) + 2 * (waiting.controller != turn) + (action.timing is QUICK)
        if rank < best:
            index, best = i, rank
    req = state.buffer.pop(index)
    if g.events is not None:
        g.record(Triggered, req.controller, req.action.id)
    if req.action.speed is IMMEDIATE:
        state.resolving.append(Resolution(req, TRIGGER, [Frame(req.action.steps)]))
    elif req.action.timing is MAIN and state.stage:
        g.record(Discarded, req.action.id)
    else:
        state.stage.append(req)
