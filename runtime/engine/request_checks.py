"""The one legality check of a request: an ordered list of rules, each refusing or not.

A request written by a player (the command notation's view: cards by value) is legal when
no check refuses it. The option search (option_search.py) enumerates the requests that pass, with
the same predicates (`timing_allows`, `turn_allows`, `once_allows`, `waived_units`, the
payment registry, `targets.candidates`); explanations report the first refusal's message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from blackpoker.runtime.engine import abilities
from blackpoker.runtime.engine.expressions import requirement_holds, unmet_requirement
from blackpoker.runtime.engine.options import target_text
from blackpoker.runtime.engine.payments import UNITS, Spent
from blackpoker.runtime.engine.refs import (
    CharacterByCard,
    CommandTarget,
    OptionTarget,
    StagePosition,
    WrittenCharacter,
    WrittenZoneCard,
    ZoneCard,
    player_name,
)
from blackpoker.runtime.engine.state import Unit
from blackpoker.runtime.engine.targets import candidates
from blackpoker.runtime.engine.zones import card, owner, suit
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.enums import Zone
from blackpoker.runtime.rules.model import Action, Limit, Timing
from blackpoker.runtime.rules.program import CausedBy

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table


class Written(Protocol):
    """A request as a player writes it (runtime/play/notation.py's RequestCommand is one)."""

    @property
    def player(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def keys(self) -> tuple[Card, ...]: ...
    @property
    def payment(self) -> tuple[tuple[str, Card | None], ...]: ...
    @property
    def target(self) -> CommandTarget | None: ...
    @property
    def source(self) -> Card | None: ...


@dataclass(frozen=True, slots=True)
class Refusal:
    rule: str  # the check that refused, e.g. "timing"
    message: str


class Subject:
    """The decision under check (a pass, an answer or a request) and what the checks look up once.

    A plain class, not a dataclass: `Table` is known here only to the type checker, and a
    compiled dataclass (mypyc, docs/engine.md) needs its field types at run time."""

    __slots__ = ("_written", "action", "game", "player")

    def __init__(self, game: Table, player: int, written: Written | None, action: Action | None) -> None:
        self.game = game
        self.player = player
        self._written = written  # None for a pass or an answer: only the decision checks run
        self.action = action  # the action it names, if the format has one

    @property
    def who(self) -> str:
        return player_name(self.player)

    @property
    def written(self) -> Written:
        assert self._written is not None  # the request checks run on requests only
        return self._written

    @property
    def named(self) -> Action:
        assert self.action is not None  # `action_exists` runs before every check that reads it
        return self.action


# The predicates the option search applies too.


def timing_allows(action: Action, own_turn: bool, stage_empty: bool) -> bool:
    """Main timing: only on the player's own turn, with an empty stage."""
    return action.timing is not Timing.MAIN or (own_turn and stage_empty)


def turn_allows(action: Action, own_turn: bool) -> bool:
    return not (own_turn and Limit.ONLY_WITHOUT_TURN in action.limits)


def once_allows(g: Table, p: int, action: Action) -> bool:
    """An action is allowed while the player's uses of it this turn are fewer than its limit
    (printed: once for a once-per-turn action; abilities may change or set one)."""
    allowed = abilities.uses_per_turn(g, p, action)
    return allowed is None or g.state.players[p].used.get(action.id, 0) < allowed


def waived_units(g: Table, p: int) -> dict[str, frozenset[str] | None]:
    """魔力増加: action id → the cost units a character on the player's field waives for it
    (None: the whole cost)."""
    found: dict[str, frozenset[str] | None] = {}
    waived_by = g.rules.waived_by
    for u in g.state.players[p].field:
        actions = waived_by.get(u.kind.id, ())
        if not actions:
            continue
        units = frozenset(u.kind.waives_units) if u.kind.waives_units else None
        for action_id in actions:
            known = found.get(action_id, frozenset())
            found[action_id] = None if units is None or known is None else known | units
    return found


def causes(caused: CausedBy, unit: Unit) -> bool:
    """Whether a character fits a caused action's filters; it is of a suit when one of its
    cards is (docs/decisions.md)."""
    return (
        (caused.type is None or unit.kind.type == caused.type)
        and (caused.kind is None or unit.kind.id == caused.kind)
        and (caused.suit is None or any(suit(c) is caused.suit for c in unit.cards))
    )


def causing_units(g: Table, p: int, caused: CausedBy) -> list[Unit]:
    """The player's characters that may cause the action now: charged, fitting its filters."""
    return [u for u in g.state.players[p].field if u.charged and causes(caused, u)]


def cost_left(units: tuple[str, ...], waived: frozenset[str] | None) -> tuple[str, ...]:
    """The units of a cost still to pay once `waived` ones are not (None: nothing is left)."""
    return () if waived is None else tuple(u for u in units if u not in waived)


def cost_needed(
    g: Table, p: int, action: Action, waived: dict[str, frozenset[str] | None] | None = None
) -> tuple[str, ...]:
    """The payment units the request must pay: the cost as the abilities on change it, then
    less what characters waive for it (`waived`: those found already)."""
    waived = waived_units(g, p) if waived is None else waived
    units = abilities.cost(g, p, action)
    return cost_left(units, waived[action.id]) if action.id in waived else units


# The checks, in the order a refusal is reported.


def game_on(s: Subject) -> str | None:
    return "the game is over" if s.game.state.result is not None else None


def deciding(s: Subject) -> str | None:
    decider = s.game.state.to_move()
    if decider != s.player:
        return f"{s.who} cannot act now: {'nobody' if decider is None else player_name(decider)} decides"
    return None


def no_effect_waiting(s: Subject) -> str | None:
    if s.game.state.asked:
        return f"{s.who} chooses a graveyard's top card first"
    resolving = s.game.state.resolving
    return f"an effect waits for {s.who}'s answer" if resolving and resolving[-1].waiting else None


def action_exists(s: Subject) -> str | None:
    if s.action is None:
        return f"no action named '{s.written.name}' in format {s.game.rules.format.id}"
    return None


def direct(s: Subject) -> str | None:
    return None if s.named.direct else f"{s.named.name} cannot be requested directly"


def timing(s: Subject) -> str | None:
    state, action = s.game.state, s.named
    own_turn = s.written.player == state.turn_player
    if timing_allows(action, own_turn, not state.stage):
        return None
    if not own_turn:
        return f"{action.name} has main timing: only on {s.who}'s own turn"
    return f"{action.name} has main timing: the stage must be empty"


def once_per_turn(s: Subject) -> str | None:
    if once_allows(s.game, s.written.player, s.named):
        return None
    allowed = abilities.uses_per_turn(s.game, s.written.player, s.named)
    return f"{s.named.name} can be requested {'once' if allowed == 1 else f'{allowed} times'} per turn"


def without_turn(s: Subject) -> str | None:
    if turn_allows(s.named, s.written.player == s.game.state.turn_player):
        return None
    return f"{s.named.name} can be requested only without the turn: {s.who} holds it"


def taken_keys(s: Subject) -> tuple[list[int], list[Card]] | Card:
    """The key cards as ids, taken from the zones the action takes them from (the hand unless
    its `key_from` says otherwise; equal cards are alike, the first will do), and the hand's
    cards left; or the first key card those zones lack."""
    me = s.game.state.players[s.written.player]
    pool = [c for zone in s.named.key_from for c in me.pile(zone)]
    rest = list(me.hand)
    ids = []
    for key in s.written.keys:
        cid = next((c for c in pool if card(c) == key), None)
        if cid is None:
            return key
        pool.remove(cid)
        ids.append(cid)
        if cid in rest:
            rest.remove(cid)
    return ids, [card(c) for c in rest]


def hand_after_keys(s: Subject) -> list[Card] | Card:
    """The hand's cards left once the key cards are taken, or the first key card it lacks."""
    taken = taken_keys(s)
    return taken if isinstance(taken, Card) else taken[1]


def key_ids(s: Subject) -> tuple[int, ...]:
    """The hand's cards the written key cards name; one the hand lacks is left out (the key
    check after this one reports it)."""
    rest = list(s.game.state.players[s.written.player].hand)
    found = []
    for key in s.written.keys:
        cid = next((c for c in rest if card(c) == key), None)
        if cid is not None:
            rest.remove(cid)
            found.append(cid)
    return tuple(found)


def causing_character(s: Subject) -> str | None:
    """A caused action names one of the requester's charged characters that fits it
    (`by ♠5`, any card of the character); any other action names none."""
    caused, written, name = s.named.caused_by, s.written.source, s.named.name
    if caused is None:
        return None if written is None else f"{name} is not caused by a character: drop 'by {written}'"
    printed = caused.suit.value if caused.suit is not None else None
    wanted = " ".join(w for w in (printed, caused.type or "character", caused.kind) if w)
    if written is None:
        return f"{name} is caused by a charged {wanted} of {s.who}'s: name it with 'by CARD'"
    fielded = [u for u in s.game.state.players[s.written.player].field if written in map(card, u.cards)]
    if not fielded:
        other = player_name(1 - s.written.player)
        theirs = any(written in map(card, u.cards) for u in s.game.state.players[1 - s.written.player].field)
        mine = f"only {s.who}'s own characters cause {name}"
        return f"{written} is {other}'s: {mine}" if theirs else f"{s.who} has no {written} on the field"
    fitting = [u for u in fielded if causes(caused, u)]
    if not fitting:
        return f"{written} is not a {wanted}: {name} is caused by one"
    if not any(u.charged for u in fitting):
        return f"{written} is driven: {name} is caused by a charged {wanted}"
    return None


def requirement(s: Subject) -> str | None:
    """The printed 起動条件, or the part of `requires` that does not hold."""
    action, player, keys = s.named, s.written.player, key_ids(s)
    if requirement_holds(s.game, player, action, keys):
        return None
    if action.activation_condition:
        return f"{action.name} can be requested only when: {action.activation_condition}"
    return f"{action.name} can be requested only when {unmet_requirement(s.game, player, action, keys)}"


def keys_in_hand(s: Subject) -> str | None:
    """The key cards lie where the action takes them from: the hand, or its `key_from` zones."""
    missing = hand_after_keys(s)
    if not isinstance(missing, Card):
        return None
    names = {z.id: z.name for z in s.game.rules.edition.core.zones}
    where = " or ".join(str(z) if z == Zone.HAND else names.get(z, z) for z in s.named.key_from)
    return f"key card {missing} is not in {s.who}'s {where}"


def keys_match(s: Subject) -> str | None:
    action, keys = s.named, s.written.keys
    if action.matcher is None:
        return f"{action.name} takes no key cards" if keys else None
    if not action.matcher.matches(keys):
        return f"key cards {''.join(map(str, keys)) or '(none)'} do not match {action.key}"
    return None


def cost(s: Subject) -> str | None:
    needed = "".join(cost_needed(s.game, s.written.player, s.named))
    given = "".join(sorted(unit for unit, _ in s.written.payment))
    return None if given == needed else f"the cost is ${needed or ' (none)'}, not ${given or ' (none)'}"


def payable(s: Subject) -> str | None:
    rest = hand_after_keys(s)
    assert not isinstance(rest, Card)
    spent = Spent(s.who, s.written.keys, rest)
    for letter, paid in s.written.payment:
        refused = UNITS[letter].refusal(s.game, s.written.player, paid, spent)
        if refused is not None:
            return refused
    return None


def target_given(s: Subject) -> str | None:
    g = s.game
    spec = g.rules.target_specs.get(s.named.id)
    if spec is not None and s.written.target is None:
        taken = taken_keys(s)
        assert not isinstance(taken, Card)  # checked by `keys_in_hand`
        if candidates(g, s.written.player, s.named.id, spec, tuple(taken[0])):
            return f"{s.named.name} needs a target"
        if g.rules.edition.core.target_required:
            return f"{s.named.name} has no legal target now, and an action with a 対象 needs one"
        return None  # the edition lets it be requested without one: it resolves with no effect
    if spec is None and s.written.target is not None:
        return f"{s.named.name} takes no target"
    return None


def target_valid(s: Subject) -> str | None:
    written = s.written.target
    if written is None:
        return None
    g, p = s.game, s.written.player
    spec = g.rules.target_specs[s.named.id]
    taken = taken_keys(s)  # equal cards are alike to a target test: any of them will do
    assert not isinstance(taken, Card)  # checked by `keys_in_hand`
    if any(_names(found, written) for found in candidates(g, p, s.named.id, spec, tuple(taken[0]))):
        return None
    if isinstance(written, WrittenCharacter) and not any(
        card(c) == written.card for u in g.state.players[written.player].field for c in u.cards
    ):
        return f"{player_name(written.player)} has no {written.card} on the field"
    if isinstance(written, WrittenZoneCard) and not any(
        card(c) == written.card for c in g.state.players[written.player].zones.get(written.zone, ())
    ):
        return f"{player_name(written.player)} has no {written.card} in {written.zone}"
    shown = target_text(written)
    stage = g.state.stage
    position = written.position if isinstance(written, StagePosition) else 0
    targeted = stage[position - 1] if 0 < position <= len(stage) else None
    if spec.counterable and targeted and Limit.UNCOUNTERABLE in targeted.action.limits:
        return f"{shown} is {targeted.action.name}, which counter actions cannot target"
    return f"{shown} is not a valid target of {s.named.name}"


def _names(found: OptionTarget, written: CommandTarget) -> bool:
    """Whether a written target names a candidate: a character by its owner and any card face
    equal to its first card's, everything else by equal reference."""
    if isinstance(found, CharacterByCard) and isinstance(written, WrittenCharacter):
        return (owner(found.card), card(found.card)) == (written.player, written.card)
    if isinstance(found, ZoneCard) and isinstance(written, WrittenZoneCard):
        return (owner(found.card), found.zone, card(found.card)) == (
            written.player,
            written.zone,
            written.card,
        )
    return found == written


Check = Callable[[Subject], str | None]

Checks = tuple[tuple[str, Check], ...]

DECIDING: Checks = (("game over", game_on), ("decision", deciding))  # every command (an answer too)
NOT_ANSWERING: Checks = (*DECIDING, ("effect waiting", no_effect_waiting))  # a pass or a request
CHECKS: Checks = (
    *NOT_ANSWERING,
    ("action", action_exists),
    ("direct", direct),
    ("timing", timing),
    ("once per turn", once_per_turn),
    ("only without turn", without_turn),
    ("causing character", causing_character),
    ("requirement", requirement),
    ("key cards in hand", keys_in_hand),
    ("key cards match", keys_match),
    ("cost", cost),
    ("payment", payable),
    ("target needed", target_given),
    ("target valid", target_valid),
)


def first_refusal(game: Table, written: Written, checks: Checks = CHECKS) -> Refusal | None:
    """The first rule the request breaks (later checks assume the earlier ones passed), or
    None when it breaks none of `checks`: then it is legal."""
    action = next((a for a in game.rules.actions if a.name == written.name), None)
    return _first(Subject(game, written.player, written, action), checks)


def decision_refusal(game: Table, player: int, checks: Checks) -> Refusal | None:
    """Why `player` may not make a decision that names no action now (`DECIDING`: an answer;
    `NOT_ANSWERING`: a pass), or None."""
    return _first(Subject(game, player, None, None), checks)


def _first(s: Subject, checks: Checks) -> Refusal | None:
    for rule, check in checks:
        message = check(s)
        if message is not None:
            return Refusal(rule, message)
    return None
