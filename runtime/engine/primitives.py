"""The primitive vocabulary: each step of an effect program is implemented once, here.

A primitive gets the game, the running resolution and its step, and returns None when
done, WAIT when it needs a decision (the resolution then holds a Prompt), STOP to end the
program (a lost target), or NESTED after putting an immediate request on top of the
resolution stack. docs/effects.md documents each one with an example.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, TypeVar

from blackpoker.runtime.engine import transitions as t
from blackpoker.runtime.engine.combat import block_pairs, can_attack, judge
from blackpoker.runtime.engine.errors import NestingLimit
from blackpoker.runtime.engine.events import (
    Damaged,
    LostTarget,
    Negated,
    Requested,
    Revealed,
    Shuffled,
    TurnPassed,
)
from blackpoker.runtime.engine.expressions import (
    cards_of,
    condition,
    filtered,
    fits,
    number,
    player,
    things,
)
from blackpoker.runtime.engine.options import Choice, Prompt, distinct_values
from blackpoker.runtime.engine.refs import RequestRef, StagePosition, StateTarget, UnitRef
from blackpoker.runtime.engine.state import Followup, Frame, Origin, Request, Resolution, Unit
from blackpoker.runtime.engine.targets import BY_CARD, resolve_name, retarget_candidates, still_valid
from blackpoker.runtime.engine.triggers import happened, requested
from blackpoker.runtime.engine.zones import SORT_SPAN, owner, rank, virtual_card
from blackpoker.runtime.rules import program
from blackpoker.runtime.rules.enums import Answer, BuiltInName, Face
from blackpoker.runtime.rules.model import Speed
from blackpoker.runtime.rules.program import Event, PlayerRef, State, Step, Steps

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table

# Answer words bound once (an enum member read as `Answer.DONE` goes through the enum class's
# attribute hook: see engine/targets.py)
PICK: Final = Answer.PICK
DONE: Final = Answer.DONE
PLACE: Final = Answer.PLACE
YES: Final = Answer.YES
NO: Final = Answer.NO
RETARGET: Final = Answer.RETARGET
DISCARD: Final = Answer.DISCARD
ATTACKER: Final = Answer.ATTACKER
BLOCK: Final = Answer.BLOCK
FACE_UP: Final = Face.UP
FACE_DOWN: Final = Face.DOWN
CHARGED: Final = State.CHARGED
TARGET: Final = BuiltInName.TARGET


class Signal(Enum):
    WAIT = "wait"
    STOP = "stop"
    NESTED = "nested"


# bound once too: returned or read once per step, request or discard
WAIT: Final = Signal.WAIT
STOP: Final = Signal.STOP
NESTED: Final = Signal.NESTED
DISCARDED: Final = Event.DISCARDED
TURNED_FACE_UP: Final = Event.TURNED_FACE_UP
AUTO_PASS: Final = Followup.AUTO_PASS
NORMAL: Final = Speed.NORMAL
EFFECT: Final = Origin.EFFECT


# Answers made once, as [player][card id]: a prompt lists one per card value, and making each
# anew was most of what listing them cost. The players are (0, 1, -1): nobody (-1) reads the last.
ANSWERING: Final = (0, 1, -1)


def _card_answers(word: Answer) -> tuple[tuple[Choice, ...], ...]:
    return tuple(tuple([Choice(p, word, c) for c in range(SORT_SPAN)]) for p in ANSWERING)


PICK_ANSWERS: Final = _card_answers(PICK)
PLACE_ANSWERS: Final = _card_answers(PLACE)
DISCARD_ANSWERS: Final = _card_answers(DISCARD)
ATTACKER_ANSWERS: Final = _card_answers(ATTACKER)
DONE_ANSWERS: Final = tuple(Choice(p, DONE) for p in ANSWERING)

S = TypeVar("S", bound=Step)
Primitive = Callable[["Table", Resolution, S], Signal | None]
_ORDER: Final = "_order"  # the cards an ordered move has named so far; no program name starts with _
PRIMITIVES: Final[dict[type[Step], Primitive[Any]]] = {}  # node class → its one implementation
MAX_NESTED: Final = 64  # resolutions in progress at once; far above any real chain (docs/engine.md)


def primitive(node: type[S]) -> Callable[[Primitive[S]], Primitive[S]]:
    def register(fn: Primitive[S]) -> Primitive[S]:
        PRIMITIVES[node] = fn
        return fn

    return register


def _ask(res: Resolution, who: int, options: list[Choice]) -> Signal:
    res.waiting = Prompt(who, tuple(options))
    return WAIT


def _answer(res: Resolution) -> Choice | None:
    answer, res.answer = res.answer, None
    return answer


def _units(items: list[Any]) -> list[Unit]:
    return [u for u in items if isinstance(u, Unit)]


@primitive(program.Target)
def _target(g: Table, res: Resolution, step: program.Target) -> Signal | None:
    if still_valid(g, res.request, step):
        return None
    g.record(LostTarget, res.request.action.id)
    return STOP


@primitive(program.Choose)
def _choose(g: Table, res: Resolution, step: program.Choose) -> Signal | None:
    """One decision per card or character; the picks so far are bound to the name (a new list
    each time, so a copied resolution keeps its own). A character is named as a target is
    (`pick → p2:♣9`), so a face-down one stays hidden. With `count: any` the player may
    answer `done` once `min` are picked."""
    who = player(g, res, step.player)
    items = _choosable(g, res, step, who)
    answer = _answer(res)
    picked = res.vars.get(step.as_, []) if answer is not None else []
    if answer is not None and answer.word != DONE:
        picked = [*picked, _picked(g, items, answer)]
    res.vars[step.as_] = picked
    if (answer is not None and answer.word == DONE) or who < 0:
        return None
    count = step.count
    if not isinstance(count, program.Amount) and len(picked) >= number(g, res, count):
        return None  # all picked: what is left is not listed
    taken = set(cards_of(picked))
    left = [i for i in items if not taken.intersection(cards_of([i]))] if taken else items
    if not left:
        return None
    # equal loose cards are one decision
    units = [Choice(who, PICK, target=BY_CARD[u.cards[0]]) for u in _units(left)]
    picks = PICK_ANSWERS[who]
    loose = [picks[cid] for cid in distinct_values([i for i in left if isinstance(i, int)])]
    done = [DONE_ANSWERS[who]] if isinstance(count, program.Amount) and len(picked) >= step.least else []
    return _ask(res, who, [*units, *loose, *done])


def _picked(g: Table, items: list[Any], answer: Choice) -> Any:
    """The card or character an answer names among the items."""
    if answer.target is None:
        return next(i for i in items if answer.a == i)
    ref = resolve_name(g, answer.target)
    return next(i for i in _units(items) if isinstance(ref, UnitRef) and i.uid == ref.uid)


def _choosable(g: Table, res: Resolution, step: program.Choose, who: int) -> list[Any]:
    """What a choose step picks among: the named cards or characters, or the cards of a zone."""
    if step.among is not None:
        named = things(g, res, step.among)
        return [i for i in named if not isinstance(i, int) or _fits_anywhere(g, res, step, i)]
    holder = player(g, res, step.owner) if step.owner is not None else who
    if who < 0 or holder < 0 or step.zone is None:
        return []
    side = g.state.players[holder]
    pile = side.pile(step.zone)
    if not filtered(step):
        return list(pile)  # from a whole zone (a hand, a life): no test per card
    return [c for c in pile if fits(g, res, step, side.face_up, c)]


def _fits_anywhere(g: Table, res: Resolution, step: program.Choose, cid: int) -> bool:
    return fits(g, res, step, g.state.players[owner(cid)].face_up, cid)


@primitive(program.ChooseRequest)
def _choose_request(g: Table, res: Resolution, step: program.ChooseRequest) -> Signal | None:
    """One decision, naming the request by its stage position (`pick → stage:1`)."""
    who = player(g, res, step.player)
    answer = _answer(res)
    stage = g.state.stage
    if answer is not None and answer.target is not None:
        ref = resolve_name(g, answer.target)
        res.vars[step.as_] = [r for r in stage if isinstance(ref, RequestRef) and r.uid == ref.uid]
        return None
    res.vars[step.as_] = []
    most = None if step.single_key_at_most is None else number(g, res, step.single_key_at_most)
    choices = [
        Choice(who, PICK, target=StagePosition(i))
        for i, r in enumerate(stage, 1)
        if (not step.key_cards or len(r.key_cards) in step.key_cards)
        and (most is None or len(r.key_cards) != 1 or rank(r.key_cards[0]) <= most)
    ]
    return _ask(res, who, choices) if choices and who >= 0 else None


@primitive(program.Top)
def _top(g: Table, res: Resolution, step: program.Top) -> Signal | None:
    who = player(g, res, step.player)
    count = max(number(g, res, step.count), 0)
    res.vars[step.as_] = list(g.state.players[who].life[:count]) if who >= 0 else []
    return None


@primitive(program.PutCharacter)
def _put_character(g: Table, res: Resolution, step: program.PutCharacter) -> Signal | None:
    cards = cards_of(things(g, res, step.cards))
    if cards:
        face = step.face
        t.place_units(g, cards, step.as_, None if face is None else face is FACE_UP, step.state is CHARGED)
    return None


@primitive(program.Become)
def _become(g: Table, res: Resolution, step: program.Become) -> Signal | None:
    for unit in _units(things(g, res, step.of)):
        t.transform(g, unit, step.as_)
    return None


@primitive(program.LeaveCombat)
def _leave_combat(g: Table, res: Resolution, step: program.LeaveCombat) -> Signal | None:
    for unit in _units(things(g, res, step.of)):
        t.leave_combat(g.state, unit.uid)
    return None


@primitive(program.Mount)
def _mount(g: Table, res: Resolution, step: program.Mount) -> Signal | None:
    units = _units(things(g, res, step.onto))
    cards = cards_of(things(g, res, step.cards))
    if units and cards:
        t.mount(g, units[0], cards, step.as_)
    return None


@primitive(program.Move)
def _move(g: Table, res: Resolution, step: program.Move) -> Signal | None:
    """Characters and loose cards (a card inside a character moves only with it). With
    `order`, that player names the cards from the top down, one decision each."""
    zone = step.to
    state = g.state
    found = things(g, res, step.cards)
    if not found:  # nothing to move (most turns' end finds the fog empty)
        if step.as_ is not None:
            res.vars[step.as_] = []
        return None
    items = [i for i in found if not isinstance(i, int) or t.is_loose(state, i)]
    cards = cards_of(items)
    sequence = None
    if step.order is not None and len(cards) > 1:
        answer = _answer(res)
        picked = [] if answer is None else [*res.vars[_ORDER], answer.a]
        res.vars[_ORDER] = picked
        # who orders which cards: one player all of them, or each owner their own
        if isinstance(step.order, program.Orderer):
            groups = [(p, [c for c in cards if owner(c) == p]) for p in range(len(state.players))]
        else:
            groups = [(player(g, res, step.order), cards)]
        sequence = []
        for who, group in groups:
            left = [c for c in group if c not in picked]
            if len(left) > 1 and who >= 0:
                places = PLACE_ANSWERS[who]
                return _ask(res, who, [places[cid] for cid in distinct_values(left)])
            sequence += t.placing_order([c for c in picked if c in group] + left, zone)
    # in an ordered move the characters leave first, then every card is placed in order
    for unit in _units(items):
        if state.unit(unit.uid) is not None:
            t.remove_unit(g, unit, zone, None if sequence is None else [])
    loose = [i for i in items if isinstance(i, int)]
    dropped = [c for c in loose if c in state.players[owner(c)].hand] if zone == t.GRAVEYARD else []
    for cid in loose if sequence is None else sequence:
        if cid in loose:
            t.move_card(state, cid, zone)
        else:
            t.put_card(state, cid, zone)
    if dropped:
        for who in sorted({owner(c) for c in dropped}):  # one discard per player (暴動)
            happened(g, DISCARDED, who, [c for c in dropped if owner(c) == who])
    if step.as_ is not None:
        res.vars[step.as_] = cards
    return None


@primitive(program.Turn)
def _turn(g: Table, res: Resolution, step: program.Turn) -> Signal | None:
    """Cards of a declared zone (a trump) lie face up or face down; others do not turn. A card
    held face down (`hold`) does not turn face up again this turn."""
    for cid in cards_of(things(g, res, step.cards)):
        who = owner(cid)
        side = g.state.players[who]
        if any(cid in cards for cards in side.zones.values()):
            if step.face is FACE_DOWN:
                side.face_up.pop(cid, None)
                if step.hold and cid not in side.kept_down:
                    side.kept_down.append(cid)
            elif cid not in side.face_up and cid not in side.kept_down:
                side.face_up[cid] = g.state.new_uid()  # its abilities' timestamp
                happened(g, TURNED_FACE_UP, who, [cid])
    return None


@primitive(program.Damage)
def _damage(g: Table, res: Resolution, step: program.Damage) -> Signal | None:
    who = player(g, res, step.player)
    if who >= 0 and who not in res.shielded:
        amount = number(g, res, step.amount)
        if amount > 0:
            g.record(Damaged, who, amount)
        t.damage(g.state, who, amount)
    return None


@primitive(program.Draw)
def _draw(g: Table, res: Resolution, step: program.Draw) -> Signal | None:
    who = player(g, res, step.player)
    if who >= 0:
        t.draw(g.state, who, number(g, res, step.count))
    return None


@primitive(program.SetState)
def _set_state(g: Table, res: Resolution, step: program.SetState) -> Signal | None:
    charged = step.state is CHARGED
    for unit in _units(things(g, res, step.of)):
        unit.charged = charged
    return None


@primitive(program.ModifySize)
def _modify_size(g: Table, res: Resolution, step: program.ModifySize) -> Signal | None:
    amount = number(g, res, step.by)
    for unit in _units(things(g, res, step.of)):
        unit.size_mod += amount
    return None


@primitive(program.If)
def _if(g: Table, res: Resolution, step: program.If) -> Signal | None:
    branch = step.then if condition(g, res, step.cond) else step.otherwise
    if branch:
        res.frames.append(Frame(branch))
    return None


@primitive(program.May)
def _may(g: Table, res: Resolution, step: program.May) -> Signal | None:
    # 必要であれば: a choice between doing the steps and doing nothing.
    return _branch(g, res, step.player, {YES: step.steps, NO: ()})


@primitive(program.Repeat)
def _repeat(g: Table, res: Resolution, step: program.Repeat) -> Signal | None:
    """Asked again after each pass: the steps run on top of a frame that repeats this step."""
    if not condition(g, res, step.cond):
        _answer(res)
        return None
    who = player(g, res, step.player)
    answer = _answer(res)
    if answer is None:
        return _ask(res, who, [Choice(who, YES), Choice(who, NO)])
    if answer.word == YES:
        res.frames.append(Frame((step,)))
        res.frames.append(Frame(step.steps))
    return None


@primitive(program.ChooseOne)
def _choose_one(g: Table, res: Resolution, step: program.ChooseOne) -> Signal | None:
    return _branch(g, res, step.player, {o.label: o.steps for o in step.options})


def _branch(g: Table, res: Resolution, who_value: PlayerRef, branches: dict[str, Steps]) -> Signal | None:
    """Ask the player for one label, then run that label's steps."""
    who = player(g, res, who_value)
    answer = _answer(res)
    if answer is None:
        return _ask(res, who, [Choice(who, label) for label in branches])
    if branches[answer.word]:
        res.frames.append(Frame(branches[answer.word]))
    return None


@primitive(program.ForEach)
def _for_each(g: Table, res: Resolution, step: program.ForEach) -> Signal | None:
    # Frames run last-in first-out, so the passes are pushed in reverse (a slice: mypyc
    # cannot compile reversed() over a list of Any).
    for item in things(g, res, step.in_)[::-1]:
        res.frames.append(Frame(step.steps, 0, (step.as_, [item])))
    return None


@primitive(program.Reveal)
def _reveal(g: Table, res: Resolution, step: program.Reveal) -> Signal | None:
    g.record(Revealed, tuple(cards_of(things(g, res, step.cards))))
    return None


@primitive(program.Shuffle)
def _shuffle(g: Table, res: Resolution, step: program.Shuffle) -> Signal | None:
    who = player(g, res, step.player)
    if who >= 0:
        t.shuffle(g.state, g.state.players[who].life)
        g.record(Shuffled, who)
    return None


@primitive(program.Request)
def _request(g: Table, res: Resolution, step: program.Request) -> Signal | None:
    """An indirect request: no cost, no automatic pass, chance does not move — unless the step
    says `then_pass`. It may be given a target and key cards (bound ones leave their zone)."""
    state = g.state
    action = g.rules.action(step.action)
    keys, held = [virtual_card(value) for value in step.virtual_key], []  # virtual: held by nobody
    if step.key is not None:
        keys = held = [c for c in cards_of(things(g, res, step.key)) if t.is_loose(state, c)]
        for cid in keys:
            t.take_card(state, cid)
    target = _given_target(g, res, step)
    request = Request(state.new_uid(), action, res.request.controller, tuple(keys), list(held), target)
    g.record(Requested, request.controller, action.id, indirect=True)
    requested(g, request)  # the trigger check runs once the resolution that made it is done
    if step.then_pass:
        state.followup = AUTO_PASS
    if action.speed is NORMAL:
        state.stage.append(request)
        return None
    if len(state.resolving) >= MAX_NESTED:
        chain = " -> ".join(r.request.action.id for r in state.resolving[-3:])
        raise NestingLimit(f"more than {MAX_NESTED} nested resolutions (… {chain} -> {action.id})")
    state.resolving.append(Resolution(request, EFFECT, [Frame(action.steps)]))
    return NESTED


def _given_target(g: Table, res: Resolution, step: program.Request) -> StateTarget | None:
    """The target a request step names: the resolving request's own, or a named character."""
    if step.target is None:
        return None
    if step.target.name == TARGET:
        return res.request.target
    units = _units(things(g, res, step.target))
    return UnitRef(units[0].uid) if units else None


@primitive(program.Negate)
def _negate(g: Table, res: Resolution, step: program.Negate) -> Signal | None:
    for found in things(g, res, step.of):
        if isinstance(found, Request) and found in g.state.stage:
            g.state.stage.remove(found)
            t.release_keys(g.state, found)
            g.record(Negated, found.action.id)
    return None


@primitive(program.Retarget)
def _retarget(g: Table, res: Resolution, step: program.Retarget) -> Signal | None:
    """The controller of the resolving request picks the named request's new target."""
    requests = [r for r in things(g, res, step.of) if isinstance(r, Request)]
    if not requests:
        return None
    answer = _answer(res)
    if answer is not None and answer.target is not None:
        requests[0].target = resolve_name(g, answer.target)
        return None
    who = res.request.controller
    choices = [Choice(who, RETARGET, target=c) for c in retarget_candidates(g, requests[0], res.request)]
    return _ask(res, who, choices) if choices else None


@primitive(program.DiscardDownTo)
def _discard_down_to(g: Table, res: Resolution, step: program.DiscardDownTo) -> Signal | None:
    who = player(g, res, step.player)
    answer = _answer(res)
    if answer is not None and answer.a is not None:
        t.move_card(g.state, answer.a, t.GRAVEYARD)
        happened(g, DISCARDED, who, [answer.a])
    hand = g.state.players[who].hand
    if not hand or len(hand) <= number(g, res, step.count):
        return None
    discards = DISCARD_ANSWERS[who]
    return _ask(res, who, [discards[cid] for cid in distinct_values(hand)])


@primitive(program.PassTurn)
def _pass_turn(g: Table, res: Resolution, step: program.PassTurn) -> Signal | None:
    state = g.state
    state.turn_player = 1 - state.turn_player
    state.turn += 1
    state.attackers.clear()  # an attack whose ダメージ判定 was negated ends with the turn
    state.blocks.clear()
    for p in state.players:
        p.used.clear()  # once-per-turn limits last until the turn player changes
        p.kept_down.clear()  # cards held face down "until the end of the turn" (a close)
        for unit in p.field:
            unit.size_mod = 0  # "until the end of the turn"
    if g.events is not None:  # once a turn: asked before the call, as the core flow's hot paths do
        g.record(TurnPassed, state.turn_player, state.turn)
    return None


@primitive(program.DeclareAttackers)
def _declare_attackers(g: Table, res: Resolution, step: program.DeclareAttackers) -> Signal | None:
    who = player(g, res, step.player)
    state = g.state
    answer = _answer(res)
    if answer is None:  # a new attack: marks left by one whose ダメージ判定 was negated go
        state.attackers.clear()
        state.blocks.clear()
    else:
        if answer.word == DONE:
            return None
        unit = next(u for u in state.players[who].field if answer.a in u.cards)
        unit.charged = False
        state.attackers.append(unit.uid)
    eligible = [u for u in state.players[who].field if can_attack(g, u, step)]
    if not eligible:
        return None
    # one that must attack whenever it can (巨人) is declared before the player may stop
    done = [] if any(u.kind.must_attack for u in eligible) else [DONE_ANSWERS[who]]
    attackers = ATTACKER_ANSWERS[who]
    return _ask(res, who, [*[attackers[u.cards[0]] for u in eligible], *done])


@primitive(program.DeclareBlockers)
def _declare_blockers(g: Table, res: Resolution, step: program.DeclareBlockers) -> Signal | None:
    who = player(g, res, step.player)
    state = g.state
    answer = _answer(res)
    if answer is not None:
        if answer.word == DONE:
            return None
        attacker = next(uid for uid in state.attackers if (u := state.unit(uid)) and answer.a in u.cards)
        blocker = next(u for u in state.players[who].field if answer.b in u.cards)
        state.blocks.setdefault(attacker, []).append(blocker.uid)
    pairs = block_pairs(g, who, step.label)
    if not pairs:
        return None
    return _ask(
        res, who, [*(Choice(who, BLOCK, a.cards[0], b.cards[0]) for a, b in pairs), DONE_ANSWERS[who]]
    )


@primitive(program.JudgeCombat)
def _judge_combat(g: Table, res: Resolution, step: program.JudgeCombat) -> Signal | None:
    judge(g)
    return None


@primitive(program.DigUntil)
def _dig_until(g: Table, res: Resolution, step: program.DigUntil) -> Signal | None:
    who = player(g, res, step.player)
    life = g.state.players[who].life
    ranks = step.ranks
    while life and rank(life[0]) not in ranks:
        t.damage(g.state, who, 1)  # the same move as damage: the top card to the graveyard
    res.vars[step.as_] = life[:1]
    return None
