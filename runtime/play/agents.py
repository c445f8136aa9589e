"""Agents pick one of the legal options; they see only their player's view."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any, Protocol

from blackpoker.compiler.model import Combat, RuleSet, SizeRule
from blackpoker.runtime.engine.options import Choice, Option, Pass, RequestOption, target_text
from blackpoker.runtime.engine.state import player_name
from blackpoker.runtime.engine.view import CharacterView, View
from blackpoker.runtime.engine.zones import card, rank
from blackpoker.runtime.scenario.notation import NotationError, parse_command


class Agent(Protocol):
    name: str  # how a command log's header names the agent

    def choose(self, view: View, options: Sequence[Option]) -> Option: ...


class RandomAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.name = f"random:{seed}"

    def choose(self, view: View, options: Sequence[Option]) -> Option:
        return options[self.rng.randrange(len(options))]


class FirstLegalAgent:
    name = "first-legal"

    def choose(self, view: View, options: Sequence[Option]) -> Option:
        return options[0]


# What the greedy agent weighs, in life cards (a life card is worth 1).
SOLDIER_BASE = 1.0  # a soldier is worth one hit of its size, plus this
BULWARK = 1.5  # a bulwark absorbs one attack
SEARCHED = 1.5  # a card of one's choice from the life
SPENT_KEY = 0.3  # a key card that goes to the graveyard instead of onto the field
DRIVE = 0.4  # a B or S payment: the character cannot block or attack until it is charged again
END_TURN = 0.05  # ending the turn is worth a little, so it comes once nothing else is worth more
IDLE_PASS = -0.5  # passing on one's own turn with nothing to resolve only hands chance around
LIFE_PRESSURE = 8.0  # a life card paid costs 1 + this / life: dearer as the life runs out
ATTACK_WORTH = 3.0  # requesting the attack with a charged soldier on one's field
EMBODY = ("put_character", "mount")  # steps that keep the key cards on the field


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

    def __init__(self, rules: RuleSet, seed: int) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.name = f"greedy:{seed}"

    def choose(self, view: View, options: Sequence[Option]) -> Option:
        scores = [self.score(view, o) for o in options]
        best = max(scores)
        top = [o for o, s in zip(options, scores, strict=True) if s == best]
        return top[self.rng.randrange(len(top))] if len(top) > 1 else top[0]

    def score(self, view: View, option: Option) -> float:
        if isinstance(option, Pass):
            idle = view.turn_player == view.me and not view.stage and not view.resolving
            return IDLE_PASS if idle else 0.0
        if isinstance(option, RequestOption):
            return self._gain(view, option) - self._cost(view, option)
        return self._answer(view, option)

    def _gain(self, view: View, option: RequestOption) -> float:
        """What the action's steps do for `option.player`, as far as the view tells."""
        gain = 0.0
        for step in self.rules.action(option.action).program:
            op = next(iter(step))
            arg = step[op]
            if op == "put_character":
                gain += self._placed(arg, option.keys)
            elif op == "mount":
                gain += sum(rank(c) for c in option.keys)
            elif op == "damage":
                hit = self._player(view, option, arg["player"])
                if hit is not None:
                    amount = _amount(arg["amount"], option.keys)
                    gain += amount if hit != option.player else -amount
            elif op == "choose" and arg.get("from") == "life":
                gain += SEARCHED
            elif op == "move" and arg.get("cards") == "target" and arg.get("to") == "graveyard":
                unit = _target_unit(view, option)
                if unit is not None:
                    gain += self._worth(unit) * (1 if _controller(unit, view) != option.player else -1)
            elif op == "modify_size":
                gain += self._resize(view, option, _amount(arg["by"], option.keys))
            elif op == "negate":
                gain += self._negation(view, option)
            elif op == "declare_attackers":
                ready = any(u.charged and self._is_soldier(u) for u in view.players[option.player].field)
                gain += ATTACK_WORTH if ready else -1.0
            elif op == "pass_turn":
                gain += END_TURN
        return gain

    def _placed(self, arg: dict[str, Any], keys: tuple[int, ...]) -> float:
        """A new character: a bulwark, or a soldier of the key cards' size (else a middling one).
        `as` may name a character type instead of a character ({type: 兵士}): a soldier."""
        kind = self.rules.character(arg["as"]) if isinstance(arg["as"], str) else None
        if kind is not None and kind.combat is Combat.BULWARK:
            return BULWARK
        body = keys if arg.get("cards") == "key" else ()
        return self._soldier(_size(body, kind.size if kind is not None else SizeRule.CARD_NUMBER))

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
        program = self.rules.action(option.action).program
        embodied = any(s.get(op, {}).get("cards") == "key" for s in program for op in EMBODY)
        return cost if embodied else cost + SPENT_KEY * len(option.keys)

    def _resize(self, view: View, option: RequestOption, by: int) -> float:
        """A size change pays in combat, or when it sends an opposing soldier to the graveyard."""
        unit = _target_unit(view, option)
        if unit is None:
            return 0.0
        mine = _controller(unit, view) == option.player
        if unit.attacking or unit.blocking is not None:
            return 1.5 if (by > 0) == mine else -1.5
        if not mine and unit.size is not None and unit.size + by <= 0:
            return self._worth(unit)
        return -1.0

    def _negation(self, view: View, option: RequestOption) -> float:
        """Negating a request is worth what it would have done for the opponent."""
        if option.target is None or option.target[0] != "request":
            return 0.0
        request = view.stage[option.target[1] - 1]
        if request.player == player_name(option.player):
            return -5.0
        other = RequestOption(1 - option.player, request.action, request.name, request.key_cards)
        return max(self._gain(view, other), 0.0) + 0.5

    def _answer(self, view: View, choice: Choice) -> float:
        me = view.players[view.me]
        life = me.life if isinstance(me.life, int) else 0
        word = choice.word
        if word == "attacker" and choice.a is not None:
            unit = _holding(view, choice.a)
            blockers = [u.size for u in view.players[1 - view.me].field if u.charged and u.size is not None]
            return 1.0 if unit is not None and (unit.size or 0) > max(blockers, default=0) else -0.5
        if word == "block" and choice.a is not None and choice.b is not None:
            return self._block(view, choice.a, choice.b, life)
        if word == "pick" and choice.a is not None:
            return -_card_worth(choice.a) if choice.a in (me.hand or ()) else _card_worth(choice.a)
        if word == "discard" and choice.a is not None:
            return -_card_worth(choice.a)
        if word == "yes":
            return 0.5 if life > 10 else -0.5
        if word in ("drive", "charge") and view.resolving:
            target = view.resolving[-1].target or ""
            mine = target.startswith(f"{player_name(view.me)}:")
            return 0.5 if (word == "charge") == mine else -0.5
        return 0.0

    def _block(self, view: View, attacker_card: int, blocker_card: int, life: int) -> float:
        attacker, blocker = _holding(view, attacker_card), _holding(view, blocker_card)
        if attacker is None or blocker is None:
            return 0.0
        if any(u.blocking == attacker.ref for u in view.players[view.me].field):
            return -1.0  # already blocked: another blocker only risks more
        hit = attacker.size or 0
        saved = hit * (1 if life > 15 else 2)
        if not self._is_soldier(blocker):
            return saved - BULWARK
        mine = blocker.size or 0
        killed = self._worth(attacker) if mine >= hit else 0.0
        lost = self._worth(blocker) if mine <= hit else 0.0
        return saved + killed - lost

    def _player(self, view: View, option: RequestOption, name: str) -> int | None:
        if name == "you":
            return option.player
        if name == "opponent":
            return 1 - option.player
        if name == "turn_player":
            return view.turn_player
        if name == "target" and option.target is not None and option.target[0] == "player":
            return option.target[1]
        return None

    def _is_soldier(self, unit: CharacterView) -> bool:
        return self.rules.character(unit.kind).combat is Combat.SOLDIER

    def _soldier(self, size: int) -> float:
        return SOLDIER_BASE + size

    def _worth(self, unit: CharacterView) -> float:
        return self._soldier(unit.size or 0) if self._is_soldier(unit) else BULWARK


def _size(cards: Sequence[int], rule: SizeRule) -> int:
    """The size a character made of `cards` gets (unknown cards: a middling 5)."""
    if not cards:
        return 5
    return sum(rank(c) for c in cards) if rule is SizeRule.KEY_SUM else rank(cards[0])


def _amount(value: object, keys: Sequence[int]) -> int:
    """A number of the program as far as the key cards tell (unknown forms count 1)."""
    if isinstance(value, int):
        return value
    if isinstance(value, dict):
        if "neg" in value:
            return -_amount(value["neg"], keys)
        if value.get("sum") == "key":
            suit = value.get("suit")
            return sum(rank(c) for c in keys if suit is None or str(card(c)).startswith(suit))
    return 1


def _card_worth(cid: int) -> float:
    """How much a card is worth keeping: its number, a Joker and an A more than their rank."""
    value = rank(cid)
    return 9.0 if card(cid).is_joker else 7.0 if value == 1 else float(value)


def _holding(view: View, cid: int) -> CharacterView | None:
    return next((u for p in view.players for u in p.field if cid in u.cards), None)


def _target_unit(view: View, option: RequestOption) -> CharacterView | None:
    if option.target is None or option.target[0] not in ("character", "face_down"):
        return None
    ref = target_text(option.target)
    return next((u for p in view.players for u in p.field if u.ref == ref), None)


def _controller(unit: CharacterView, view: View) -> int:
    """The player whose field shows the character."""
    return next(i for i, p in enumerate(view.players) if unit in p.field)


AGENTS = ("random", "first", "greedy")  # the names `simulate --agents` and `play --opponent` take


def make_agent(name: str, rules: RuleSet | None, seed: int) -> Agent:
    """A named agent; the greedy one reads the (public) rule set, so it needs `rules`."""
    if name == "random":
        return RandomAgent(seed)
    if name == "first":
        return FirstLegalAgent()
    if name == "greedy" and rules is not None:
        return GreedyAgent(rules, seed)
    raise ValueError(
        f"unknown agent '{name}' (known: {', '.join(AGENTS)})"
        if name not in AGENTS
        else f"the {name} agent needs the rule set"
    )


class ScriptedAgent:
    """Plays the given commands in order, in the scenario notation (`pN: ` may be left out)."""

    name = "scripted"

    def __init__(self, commands: Sequence[str]) -> None:
        self.commands = list(commands)

    def choose(self, view: View, options: Sequence[Option]) -> Option:
        if not self.commands:
            raise LookupError("the script has no command left")
        text = self.commands.pop(0)
        found = by_command(text, view.me, options)
        if isinstance(found, str):
            raise LookupError(f"scripted command '{text}': {found}")
        return found


def by_command(text: str, me: int, options: Sequence[Option]) -> Option | str:
    """The option a command names, or why there is none.

    An option's own text is taken as it is (a view names hidden characters `face-down#N`,
    which the notation has no form for); otherwise the command is read in the notation, so
    key cards and payments may come in any order.
    """
    written = text if re.match(r"p[12]\s*:", text) else f"{player_name(me)}: {text}"
    exact = next((o for o in options if f"{player_name(me)}: {o}" == written), None)
    if exact is not None:
        return exact
    try:
        command = parse_command(written)
    except NotationError as error:
        return error.message
    if command.player != me:
        return f"{player_name(command.player)} does not decide now: {player_name(me)} does"
    body = command.body()
    found = next((o for o in options if str(o) == body), None)
    return found if found is not None else f"'{body}' is not one of the options now"
