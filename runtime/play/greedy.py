"""The greedy agent: the option whose visible effect is worth most, a one-step look-ahead from its
view; the search agent (search.py) takes its scores as a prior and its answers inside effects.

The values a program reads (numbers, conditions, players) are read by the engine's own
evaluator (engine/expressions.py), for the option's request in a game dealt from the view
(its `public` handle), so the agent reads them as the engine will; a value that reads a name
a step binds only as the program runs is unknown beforehand.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from blackpoker.runtime.engine import refs
from blackpoker.runtime.engine.abilities import size
from blackpoker.runtime.engine.expressions import condition, named_player, number, player
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, Option, Pass, RequestOption
from blackpoker.runtime.engine.state import GameState, Origin, Request, Resolution
from blackpoker.runtime.engine.targets import resolve_name
from blackpoker.runtime.engine.transitions import draw_below
from blackpoker.runtime.engine.view import CharacterView, View, hidden_from
from blackpoker.runtime.engine.zones import card, owner, rank
from blackpoker.runtime.play.agents import decide, idle
from blackpoker.runtime.rules.enums import SOURCE, Answer, BuiltInName, Destination, Zone
from blackpoker.runtime.rules.model import Combat, RuleSet, SizeRule
from blackpoker.runtime.rules.program import (
    All,
    Amount,
    AnyOf,
    Become,
    Cards,
    Choose,
    ChooseOne,
    Condition,
    Damage,
    DeclareAttackers,
    Field,
    ForEach,
    If,
    Join,
    JudgeCombat,
    Kind,
    ModifySize,
    Mount,
    Move,
    Name,
    Negate,
    Node,
    Not,
    Number,
    Only,
    PassTurn,
    PathKey,
    Pile,
    Player,
    PlayerRef,
    PutCharacter,
    Retarget,
    SetState,
    State,
    Step,
    Top,
    walk,
    walk_steps,
)

# What the greedy agent weighs, in life cards (a life card is worth 1).
SOLDIER_BASE = 1.0  # a soldier is worth one hit of its size, plus this
BULWARK = 1.5  # a bulwark absorbs one attack
SEARCHED = 1.5  # a card of one's choice from the life
TURNED_TO_HAND = 1.0  # a card turned over from the top of the life that ends in the hand
SPENT_KEY = 0.3  # a key card that goes to the graveyard instead of onto the field
DRIVE = 0.4  # a B or S payment: the character cannot block or attack until it is charged again
END_TURN = 0.05  # ending the turn is worth a little, so it comes once nothing else is worth more
IDLE_PASS = -0.5  # passing on one's own turn with nothing to resolve only hands chance around
LIFE_PRESSURE = 8.0  # a life card paid costs 1 + this / life: dearer as the life runs out
ATTACK_WORTH = 3.0  # requesting the attack with a charged soldier on one's field
WAIVED = 0.75  # per action whose cost a character waives while on the field (魔力増加)
RECOVERED = 1.0  # a card of one's choice back from the graveyard
HAND_CARD = 2.0  # a card of one's choice out of the opponent's hand
RETURNED = 0.5  # a card of a character that goes back to the hand
FLIP = 1.0  # charging one's own driven character, or driving an opposing charged one
BOOST = 0.3  # per point of size of one's own soldier before it attacks
RETARGET = 2.0  # sending an opposing request away from what it would hit of one's own


# the names whose values a request has before it resolves: its key cards, its target (and the
# targeted request's key cards) and its causing character; the attackers and a trigger's
# cause are made as programs run, like the names their steps bind
KNOWN_NAMES = frozenset((BuiltInName.KEY, BuiltInName.TARGET, BuiltInName.TARGET_KEY, BuiltInName.SOURCE))

# the answers whose worth reads the view's board (with the cards they name)
VIEWED = frozenset((Answer.ATTACKER, Answer.BLOCK, Answer.PICK))

Enclosing = tuple[tuple[Node, bool], ...]  # the ifs (and which branch) and for_eachs a step sits in


@dataclass(frozen=True, slots=True)
class Loops:
    over: dict[str, Cards]  # what each for_each name runs over
    taken: dict[str, Number]  # how many cards a name bound by `top` takes


Ifs = tuple[tuple[If, bool], ...]  # the ifs among them
# each step where it sits, what the for_eachs run over, and whether a step keeps the key cards
Program = tuple[tuple[tuple[Step, Enclosing, Ifs], ...], Loops, bool]


class Fighter:
    """What an answer reads of a character whose cards the viewer sees. A plain class: mypyc
    compiles its `__init__`, not a dataclass's or a named tuple's (a board makes one a character)."""

    __slots__ = ("kind", "ref", "size")

    def __init__(self, ref: refs.CharacterRef, kind: str, size: int | None) -> None:
        self.ref = ref  # as the view names it
        self.kind = kind
        self.size = size

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Fighter):
            return NotImplemented
        return self.ref == other.ref and self.kind == other.kind and self.size == other.size


@dataclass(frozen=True, slots=True)
class Board:
    """The parts of a view the answers inside effects read, indexed: the search agent's
    look-ahead asks the greedy agent thousands of such questions a decision."""

    holding: dict[int, Fighter]  # each shown card of a character → that character
    blocked: frozenset[refs.CharacterRef]  # the attackers the viewer's characters block
    biggest_blocker: int  # the size of the opponent's biggest charged character shown, else 0
    life: int  # the viewer's life count
    hand: frozenset[int]

    @staticmethod
    def of(view: View) -> Board:
        me = view.players[view.me]
        blockers = [u.size for u in view.players[1 - view.me].field if u.charged and u.size is not None]
        holding: dict[int, Fighter] = {}
        for p in view.players:
            for u in p.field:
                if u.cards:
                    fighter = Fighter(u.ref, u.kind, u.size)
                    for c in u.cards:
                        holding.setdefault(c, fighter)
        return Board(
            holding,
            frozenset(u.blocking for u in me.field if u.blocking is not None),
            max(blockers, default=0),
            me.life if isinstance(me.life, int) else 0,
            frozenset(me.hand or ()),
        )

    @staticmethod
    def seen(game: Game, me: int) -> Board:
        """`Board.of(view(game, me))`, read from the game without making the rest of the view
        (the search agent's look-ahead answers attacks, blocks and picks in games it dealt
        itself): an opponent's face-down character shows neither its cards nor its size, and
        is named by reference (engine/view.py)."""
        state = game.state
        hidden = hidden_from(state, me)
        holding: dict[int, Fighter] = {}
        blockers: list[int] = []
        for seat, p in enumerate(state.players):
            for u in p.field:
                if u.uid in hidden:
                    continue
                shown = size(game, u)
                fighter = Fighter(refs.CharacterByCard(u.cards[0]), u.kind.id, shown)
                for c in u.cards:
                    holding.setdefault(c, fighter)
                if u.charged and seat != me:
                    blockers.append(shown)
        blocked: set[refs.CharacterRef] = set()
        if state.attackers:  # as a view shows it, only while an attack is declared
            blocks = {b: a for a, found in state.blocks.items() for b in found}
            for u in state.players[me].field:
                attacker = state.unit(blocks.get(u.uid, -1))
                if attacker is not None:
                    hides = attacker.uid in hidden
                    blocked.add(
                        refs.HiddenCharacter(attacker.uid)
                        if hides
                        else refs.CharacterByCard(attacker.cards[0])
                    )
        mine = state.players[me]
        return Board(
            holding, frozenset(blocked), max(blockers, default=0), len(mine.life), frozenset(mine.hand)
        )


class GreedyAgent:
    """Takes the option whose visible effect is worth most: a one-step look-ahead from the view.

    It reads only its view and the public rule set (what the printed sheet says): an action is
    worth what the steps of its program do to what the view shows (sizes of face-up
    characters, the stage, its own hand), minus what its cost and spent key cards take; an
    answer inside an effect is judged the same way (attack when no charged blocker is bigger,
    block when it saves more than it loses, bulwark the weakest hand card, search the
    strongest). Steps it does not know are worth 0, so every format and local rule plays.
    Ties are broken with its own seeded generator.
    """

    reads_view = True

    def __init__(self, rules: RuleSet, seed: int) -> None:
        self.rules = rules
        self.rng = random.Random(seed)  # breaks ties
        self.name = f"greedy:{seed}"
        self._programs: dict[str, Program] = {}
        self._labels: dict[tuple[str, str], State | None] = {}  # (action, label) → _label_state
        self._unknown: dict[int, bool] = {}  # id of a value node of the rule set → _bound_as_it_runs
        # the view being decided, and each option's request in the game arranged from it
        self._view: View | None = None
        self._probes: dict[RequestOption, Resolution] = {}
        self._option: RequestOption | None = None  # the option last read, and its reading
        self._read: tuple[Game, Resolution] | None = None
        self._boarded: tuple[View, Board] | None = None  # the view last answered from, indexed

    def choose(self, view: View | None, options: Sequence[Option]) -> Option:
        assert view is not None
        return self._best(options, [self.score(view, o) for o in options])

    def answer(self, game: Game) -> Option:
        """The answer `decide` would get from this agent to a question inside an effect of a
        game the search agent plays ahead in (it plays both players there), without the
        player's view where no answer's worth reads it: most such questions (which card of a
        graveyard goes on top, which card to discard) need only the answers and the action
        being resolved, and a view costs more than the rest of the answer."""
        options = game.legal_options()
        if len(options) == 1:
            return options[0]
        me = game.to_move
        assert me is not None
        state = game.state
        request = state.resolving[-1].request if state.resolving else state.pending  # a view's last
        action = request.action.id if request is not None else None
        scores: list[float] = []
        board: Board | None = None
        for o in options:
            if not isinstance(o, Choice):
                return decide(game, (self, self))
            if _reads_board(o):
                board = Board.seen(game, me) if board is None else board
                worth = self._on_board(board, o)
            else:
                blind = self._blind(o, action)
                if blind is None:  # a label that sets the target's state (see _blind)
                    assert request is not None and action is not None
                    mine = _seen_on_side(state, request, me)
                    if mine is None:
                        return decide(game, (self, self))
                    blind = self._labelled(action, o.word, mine)
                worth = blind
            scores.append(worth)
        return self._best(options, scores)

    def _best(self, options: Sequence[Option], scores: Sequence[float]) -> Option:
        """The option scored best, ties broken by the agent's generator."""
        best = max(scores)
        top = [o for o, s in zip(options, scores, strict=True) if s == best]
        return top[draw_below(self.rng, len(top))] if len(top) > 1 else top[0]  # as randrange draws

    def score(self, view: View, option: Option) -> float:
        if isinstance(option, Pass):
            return IDLE_PASS if idle(view, option) else 0.0
        if isinstance(option, RequestOption):
            return self._gain(view, option) - self._cost(view, option)
        return self._answer(view, option)

    def _gain(self, view: View, option: RequestOption) -> float:
        """What the action's steps do for `option.player`, as far as the view tells: every step
        of its program, nested ones included (each option of a choice; the branch of an if
        whose condition the view decides, else both)."""
        steps, loops, _ = self._program(option.action)
        held: dict[int, bool | None] = {}  # id of an if → its condition, read once for the option
        return sum(
            self._step(view, option, step, loops) * self._times(view, option, loops, enclosing)
            for step, enclosing, ifs in steps
            if not ifs or self._branch_taken(view, option, ifs, held)
        )

    def _branch_taken(
        self, view: View, option: RequestOption, ifs: Ifs, held: dict[int, bool | None]
    ) -> bool:
        """Whether a step inside these ifs may run: no if's condition is known to go the other way."""
        for node, then in ifs:
            if id(node) not in held:
                held[id(node)] = self._holds(view, option, node.cond)
            if held[id(node)] not in (None, then):
                return False
        return True

    def _times(self, view: View, option: RequestOption, loops: Loops, enclosing: Enclosing) -> int:
        """How often a step runs as far as the key cards tell: once per card a for_each runs
        over when an earlier step took a number of them (a field's characters count as themselves)."""
        times = 1
        for node, _ in enclosing:
            if isinstance(node, ForEach) and isinstance(node.in_, Name):
                taken = loops.taken.get(node.in_.name)
                times *= 1 if taken is None else max(self._amount(view, option, taken), 0)
        return times

    def _program(self, action_id: str) -> Program:
        """The action's steps in walking order, each with the ifs it sits in (and in which
        branch), what each for_each name runs over, and whether a step keeps the key cards."""
        known = self._programs.get(action_id)
        if known is None:
            nodes = dict(walk_steps(self.rules.action(action_id).steps))
            placed = [(n, tuple(_enclosing(nodes, path))) for path, n in nodes.items() if isinstance(n, Step)]
            steps = tuple(
                (step, enclosing, tuple((n, then) for n, then in enclosing if isinstance(n, If)))
                for step, enclosing in placed
            )
            loops = Loops(
                {s.as_: s.in_ for s, _, _ in steps if isinstance(s, ForEach)},
                {s.as_: s.count for s, _, _ in steps if isinstance(s, Top)},
            )
            known = steps, loops, any(_keeps_key(s) for s, _, _ in steps)
            self._programs[action_id] = known
        return known

    def _holds(self, view: View, option: RequestOption, cond: Condition) -> bool | None:
        """Whether a condition holds as the engine reads it for the option's request, None when
        that is unknown before it resolves; `all`, `any_of` and `not` combine what is known."""
        if isinstance(cond, All | AnyOf):
            found = [self._holds(view, option, c) for c in cond.items]
            decided, undecided = (False, True) if isinstance(cond, All) else (True, False)
            return decided if decided in found else None if None in found else undecided
        if isinstance(cond, Not):
            held = self._holds(view, option, cond.of)
            return None if held is None else not held
        if self._bound_as_it_runs(cond):
            return None
        return condition(*self._reading(view, option), cond)

    def _amount(self, view: View, option: RequestOption, expr: Number) -> int:
        """A number of the program as far as the agent can tell (an unknown one counts 1)."""
        value = self._number(view, option, expr)
        return 1 if value is None else value

    def _number(self, view: View, option: RequestOption, expr: Number) -> int | None:
        """A number as the engine reads it for the option's request (None: unknown yet)."""
        if isinstance(expr, int):
            return expr
        return None if self._bound_as_it_runs(expr) else number(*self._reading(view, option), expr)

    def _player(self, view: View, option: RequestOption, ref: PlayerRef) -> int | None:
        """The player a reference names for the option's request (None: nobody, or unknown);
        a name needs no dealt game, an owner of cards does."""
        if isinstance(ref, Player):
            found = named_player(ref.name, option.player, view.turn_player, option.target)
        elif self._bound_as_it_runs(ref):
            return None
        else:
            found = player(*self._reading(view, option), ref)
        return None if found < 0 else found

    def _bound_as_it_runs(self, node: Node) -> bool:
        """Whether a value reads a name an earlier step binds: unknown before the request
        resolves (found once per node of the rule set)."""
        found = self._unknown.get(id(node))
        if found is None:
            found = self._unknown[id(node)] = any(
                isinstance(n, Name) and n.name not in KNOWN_NAMES for _, n in walk(node)
            )
        return found

    def _reading(self, view: View, option: RequestOption) -> tuple[Game, Resolution]:
        """The option's request, before it resolves, in the game arranged from the view (its
        `public` handle): where the engine's evaluator reads the program's values."""
        if view is self._view and option is self._option and self._read is not None:
            return self._read  # the values of one option are read one after another
        assert view.public is not None  # a view built by engine/view.py has its handle
        game = view.public.arranged()
        if view is not self._view:
            self._view, self._probes = view, {}
        probe = self._probes.get(option)
        if probe is None:
            target = None if option.target is None else resolve_name(game, option.target)
            source = None
            if option.source is not None:  # a caused action: its causing character
                field = game.state.players[option.player].field
                source = next((u.uid for u in field if u.cards[:1] == [option.source]), None)
            action = self.rules.action(option.action)
            request = Request(-1, action, option.player, option.keys, list(option.keys), target, source)
            probe = self._probes[option] = Resolution(request, Origin.PLAYER, [])
        self._option, self._read = option, (game, probe)
        return self._read

    def _step(self, view: View, option: RequestOption, step: Step, loops: Loops) -> float:
        me = option.player
        if isinstance(step, PutCharacter):
            return self._placed(step, option.keys)
        if isinstance(step, Mount):
            return sum(rank(c) for c in option.keys)
        if isinstance(step, Damage):
            hit = self._player(view, option, step.player)
            if hit is None:
                return 0.0
            amount = self._amount(view, option, step.amount)
            return amount if hit != me else -amount
        if isinstance(step, Choose):
            return self._chosen(view, option, step)
        if isinstance(step, Move):
            taken = loops.taken.get(step.cards.name) if isinstance(step.cards, Name) else None
            if taken is not None:  # cards a `top` took from the life: no characters
                to_hand = step.to == Destination.HAND
                return TURNED_TO_HAND * self._amount(view, option, taken) if to_hand else 0.0
            units = self._units(view, option, step.cards, loops)
            return sum(self._moved(view, me, u, step.to) for u in units)
        if isinstance(step, ModifySize):
            if isinstance(step.of, Name) and step.of.name == BuiltInName.TARGET:
                return self._resize(view, option, step.by)
            units = self._units(view, option, step.of, loops)
            if not units:  # the amount is read only for a character it changes
                return 0.0
            by = self._amount(view, option, step.by)
            return sum(self._boost(view, me, u, by) for u in units)
        if isinstance(step, SetState):
            charged = step.state is State.CHARGED
            units = self._units(view, option, step.of, loops)
            return sum(FLIP * _side(u, view, me) * (charged - u.charged) for u in units)
        if isinstance(step, Become):
            units = self._units(view, option, step.of, loops)
            return sum((self._kind_worth(step.as_, u) - self._worth(u)) * _side(u, view, me) for u in units)
        if isinstance(step, Negate):
            return self._negation(view, option)
        if isinstance(step, Retarget):
            return self._retarget(view, option)
        if isinstance(step, JudgeCombat):
            return self._judged(view, me)
        if isinstance(step, DeclareAttackers):
            ready = any(u.charged and self._is_soldier(u) for u in view.players[me].field)
            return ATTACK_WORTH if ready else -1.0
        if isinstance(step, PassTurn):
            return END_TURN
        return 0.0

    def _placed(self, step: PutCharacter, keys: tuple[int, ...]) -> float:
        """A new character: a bulwark, or a soldier of the key cards' size (else a middling one),
        more if it waives costs; `as` may name a character type instead ({type: 兵士}): a soldier."""
        kind = self.rules.character(step.as_) if isinstance(step.as_, str) else None
        driven = DRIVE if step.state is State.DRIVEN else 0.0
        if kind is not None and kind.combat is Combat.BULWARK:
            return BULWARK - driven
        body = keys if isinstance(step.cards, Name) and step.cards.name == BuiltInName.KEY else ()
        waiver = WAIVED * sum(
            1 for a in self.rules.actions if kind is not None and kind.waives(a) and a.cost.units
        )
        size_rule = kind.size if kind is not None else SizeRule.CARD_NUMBER
        fixed = kind.number if kind is not None else None  # 数字は11として扱う
        return self._soldier(_size(body, size_rule) if fixed is None else fixed) + waiver - driven

    def _chosen(self, view: View, option: RequestOption, step: Choose) -> float:
        """Cards picked from a zone: searched from the life, taken back from one's graveyard, or
        taken from the opponent's hand."""
        holder = self._player(view, option, step.owner if step.owner is not None else step.player)
        if holder is None:
            return 0.0
        if step.zone == Zone.LIFE:
            count = 1 if isinstance(step.count, Amount) else step.count
            return SEARCHED * self._amount(view, option, count)
        if step.zone == Zone.GRAVEYARD and view.players[holder].graveyard:
            return RECOVERED
        return HAND_CARD if step.zone == Zone.HAND and holder != option.player else 0.0

    def _units(self, view: View, option: RequestOption, ref: Cards, loops: Loops) -> list[CharacterView]:
        """The characters a reference names as far as the view tells: the target, a field, or
        the characters a for_each runs over (a zone's cards are no characters)."""
        if isinstance(ref, Pile | Only):
            return []
        if isinstance(ref, Join):
            return [u for part in ref.items for u in self._units(view, option, part, loops)]
        if isinstance(ref, Field):
            side = None if ref.side is None else self._player(view, option, ref.side)
            return [
                u
                for i, p in enumerate(view.players)
                if side is None or i == side
                for u in p.field
                if ref.type is None or self.rules.character(u.kind).type == ref.type
            ]
        if ref.name in (BuiltInName.TARGET, SOURCE):
            unit = _named_unit(view, option, ref.name)
            return [] if unit is None else [unit]
        over = loops.over.get(ref.name)
        return [] if over is None else self._units(view, option, over, loops)

    def _moved(self, view: View, me: int, unit: CharacterView, zone: Destination | str) -> float:
        """A character leaving the field: lost, or back in its owner's hand (worth it for one's
        own character that an opposing request on the stage is about to hit)."""
        side = _side(unit, view, me)
        if zone != Destination.HAND:
            return -self._worth(unit) * side
        kept = RETURNED * len(unit.cards)
        if side > 0:
            threatened = any(r.target == unit.ref and r.player != me for r in view.stage)
            return kept if threatened else kept - self._worth(unit)
        return self._worth(unit) - kept

    def _boost(self, view: View, me: int, unit: CharacterView, by: int) -> float:
        """A size change of a character the effect does not target: in combat as for a target;
        one's own charged soldier before attacking gains a little per point."""
        if unit.attacking or unit.blocking is not None:
            return 1.5 if (by > 0) == (_side(unit, view, me) > 0) else -1.5
        ready = unit.charged and view.turn_player == me and self._is_soldier(unit)
        return BOOST * by * _side(unit, view, me) if ready else 0.0

    def _kind_worth(self, kind: Kind, unit: CharacterView) -> float:
        character = self.rules.character(kind) if isinstance(kind, str) else None
        if character is not None and character.combat is Combat.BULWARK:
            return BULWARK
        return self._soldier(unit.size if unit.size is not None else _size((), SizeRule.CARD_NUMBER))

    def _judged(self, view: View, me: int) -> float:
        """ダメージ判定 as far as the view tells: what unblocked attackers deal."""
        blocked = {u.blocking for p in view.players for u in p.field if u.blocking is not None}
        return sum(
            (u.size or 0) * _side(u, view, me)
            for p in view.players
            for u in p.field
            if u.attacking and u.ref not in blocked
        )

    def _cost(self, view: View, option: RequestOption) -> float:
        life = view.players[view.me].life
        assert isinstance(life, int)  # one's own life count is always shown
        cost = 0.0
        for unit, cid in option.payment:
            if unit == "L":
                cost += 1 + LIFE_PRESSURE / max(life, 1)
            elif unit == "D" and cid is not None:
                cost += 0.5 + _card_worth(cid) / 26
            else:
                cost += DRIVE
        if option.source is not None:  # the causing character is driven
            cost += DRIVE
        _, _, kept = self._program(option.action)
        return cost if kept else cost + SPENT_KEY * len(option.keys)

    def _resize(self, view: View, option: RequestOption, by: Number) -> float:
        """A size change pays in combat, or when it sends an opposing soldier to the graveyard
        (the amount is read only where it counts)."""
        unit = _target_unit(view, option)
        if unit is None:
            return 0.0
        mine = _controller(unit, view) == option.player
        if unit.attacking or unit.blocking is not None:
            return 1.5 if (self._amount(view, option, by) > 0) == mine else -1.5
        if not mine and unit.size is not None and unit.size + self._amount(view, option, by) <= 0:
            return self._worth(unit)
        return -1.0

    def _negation(self, view: View, option: RequestOption) -> float:
        """Negating a request is worth what it would have done for the opponent."""
        if not isinstance(option.target, refs.StagePosition):
            return 0.0
        request = view.stage[option.target.position - 1]
        if request.player == option.player:
            return -5.0
        other = RequestOption(1 - option.player, request.action, request.name, request.key_cards)
        return max(self._gain(view, other), 0.0) + 0.5

    def _retarget(self, view: View, option: RequestOption) -> float:
        """Sending an opposing request away from one's own character or oneself."""
        if not isinstance(option.target, refs.StagePosition):
            return 0.0
        request = view.stage[option.target.position - 1]
        if request.player == option.player:
            return -RETARGET
        hits_me = request.target == refs.PlayerRef(option.player) or any(
            u.ref == request.target for u in view.players[option.player].field
        )
        return RETARGET if hits_me else 0.0

    def _answer(self, view: View, choice: Choice) -> float:
        if _reads_board(choice):  # the board is indexed only for the words that read it
            return self._on_board(self._board(view), choice)
        worth = self._blind(choice, view.resolving[-1].action if view.resolving else None)
        if worth is not None:
            return worth
        resolved = view.resolving[-1]  # a label that sets the target's state: see _blind
        return self._labelled(resolved.action, choice.word, _on_side(resolved.target, view.me))

    def _labelled(self, action: str, label: str, mine: bool) -> float:
        """A label that sets the request's target's state: charge one's own, drive an opposing one."""
        state = self._label_state(action, label)
        return 0.5 if (state is State.CHARGED) == mine else -0.5

    def _on_board(self, board: Board, choice: Choice) -> float:
        """The worth of an answer that reads the board (`_reads_board`)."""
        word, a, b = choice.word, choice.a, choice.b
        if word == Answer.YES:
            return 0.5 if board.life > 10 else -0.5
        assert a is not None
        if word == Answer.ATTACKER:
            unit = board.holding.get(a)
            return 1.0 if unit is not None and (unit.size or 0) > board.biggest_blocker else -0.5
        if word == Answer.BLOCK:
            assert b is not None
            return self._block(board, a, b)
        return -_card_worth(a) if a in board.hand else _card_worth(a)  # a pick

    def _blind(self, choice: Choice, action: str | None) -> float | None:
        """The worth of an answer that does not read the board (`_reads_board`): from nothing of
        the view but the action being resolved (`action`, if any); None for a label that sets
        the target's state, worth by the target's side."""
        word, a = choice.word, choice.a
        if word == Answer.DISCARD and a is not None:
            return -_card_worth(a)
        if action is not None and self._label_state(action, word) is not None:
            return None  # the label sets the target's state: worth by the target's side
        return 0.0

    def _board(self, view: View) -> Board:
        """What the answers to one question read of the view, indexed once for all of them
        (a block is asked with one answer per attacker and blocker)."""
        if self._boarded is None or self._boarded[0] is not view:
            self._boarded = view, Board.of(view)
        return self._boarded[1]

    def _label_state(self, action_id: str, label: str) -> State | None:
        """The state a `choose_one` label of the action sets the request's target to, when that
        is all the label does: what the label means is read from the rule set, not its word."""
        key = (action_id, label)
        if key not in self._labels:
            nodes = (n for _, n in walk_steps(self.rules.action(action_id).steps) if isinstance(n, ChooseOne))
            found = {_sets_target(o.steps) for n in nodes for o in n.options if o.label == label}
            self._labels[key] = found.pop() if len(found) == 1 else None
        return self._labels[key]

    def _block(self, board: Board, attacker_card: int, blocker_card: int) -> float:
        attacker, blocker = board.holding.get(attacker_card), board.holding.get(blocker_card)
        if attacker is None or blocker is None:
            return 0.0
        if attacker.ref in board.blocked:
            return -1.0  # already blocked: another blocker only risks more
        hit = attacker.size or 0
        saved = hit * (1 if board.life > 15 else 2)
        if not self._is_soldier(blocker):
            return saved - BULWARK
        mine = blocker.size or 0
        killed = self._worth(attacker) if mine >= hit else 0.0
        lost = self._worth(blocker) if mine <= hit else 0.0
        return saved + killed - lost

    def _is_soldier(self, unit: CharacterView | Fighter) -> bool:
        return self.rules.character(unit.kind).combat is Combat.SOLDIER

    def _soldier(self, size: int) -> float:
        return SOLDIER_BASE + size

    def _worth(self, unit: CharacterView | Fighter) -> float:
        return self._soldier(unit.size or 0) if self._is_soldier(unit) else BULWARK


def _reads_board(choice: Choice) -> bool:
    """Whether an answer's worth reads the board: an attacker, a block or a pick with the cards
    it names, or a yes (by the viewer's life)."""
    word, a = choice.word, choice.a
    if word == Answer.YES:
        return True
    return word in VIEWED and a is not None and (word != Answer.BLOCK or choice.b is not None)


def _seen_on_side(state: GameState, request: Request, me: int) -> bool | None:
    """`_on_side` of the request's target as `me`'s view names it, when it is a character (None
    for any other target): a character gone, or face down on the opponent's field, is named
    so that it lies on no side (engine/view.py)."""
    if not isinstance(request.target, refs.UnitRef):
        return None
    unit = state.unit(request.target.uid)
    if unit is None or unit.uid in hidden_from(state, me):
        return False
    return owner(unit.cards[0]) == me


def _size(cards: Sequence[int], rule: SizeRule) -> int:
    """The size a character made of `cards` gets (unknown cards: a middling 5)."""
    if not cards:
        return 5
    return sum(rank(c) for c in cards) if rule is SizeRule.KEY_SUM else rank(cards[0])


def _enclosing(nodes: dict[PathKey, Node], path: PathKey) -> Iterator[tuple[Node, bool]]:
    """The ifs (with whether in the `then` branch) and for_eachs a node at `path` sits in."""
    for i, word in enumerate(path):
        outer = nodes.get(path[:i])
        if isinstance(outer, If | ForEach) and word in ("then", "else", "for_each"):
            yield outer, word == "then"


def _keeps_key(step: Step) -> bool:
    """The step keeps the key cards: on the field (a character of them) or back in the hand."""
    cards = step.cards if isinstance(step, PutCharacter | Mount | Move) else None
    on_key = isinstance(cards, Name) and cards.name == BuiltInName.KEY
    return on_key and (not isinstance(step, Move) or step.to == Destination.HAND)


def _side(unit: CharacterView, view: View, me: int) -> int:
    """1 for a character on `me`'s field, -1 for one on the opponent's."""
    return 1 if _controller(unit, view) == me else -1


def _card_worth(cid: int) -> float:
    """How much a card is worth keeping: its number, a Joker and an A more than their rank."""
    value = rank(cid)
    return 9.0 if card(cid).is_joker else 7.0 if value == 1 else float(value)


def _target_unit(view: View, option: RequestOption) -> CharacterView | None:
    ref = option.target
    if not isinstance(ref, refs.CharacterByCard | refs.HiddenCharacter):
        return None
    return next((u for p in view.players for u in p.field if u.ref == ref), None)


def _on_side(target: refs.ViewTarget | None, seat: int) -> bool:
    """Whether a request's target lies on `seat`'s side: a character of theirs, a card of
    their zone (a player, a request or a hidden character is not)."""
    if isinstance(target, refs.CharacterByCard | refs.ZoneCard):
        return owner(target.card) == seat
    return isinstance(target, refs.HiddenZoneCard) and target.player == seat


def _named_unit(view: View, option: RequestOption, name: str) -> CharacterView | None:
    """The character `target` or `source` names, as the view shows it (else None)."""
    if name == BuiltInName.TARGET:
        return _target_unit(view, option)
    if name != SOURCE or option.source is None:
        return None
    return next((u for u in view.players[option.player].field if u.cards[:1] == (option.source,)), None)


def _controller(unit: CharacterView, view: View) -> int:
    """The player whose field shows the character."""
    return next(i for i, p in enumerate(view.players) if unit in p.field)


def _sets_target(steps: Sequence[Step]) -> State | None:
    """The state a program sets the request's target to, when that is all it does."""
    only = steps[0] if len(steps) == 1 else None
    if isinstance(only, SetState) and isinstance(only.of, Name) and only.of.name == BuiltInName.TARGET:
        return only.state
    return None
