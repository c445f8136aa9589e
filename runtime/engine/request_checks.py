"""The one legality check of a request: an ordered list of rules, each refusing or not.

A request written by a player (the command notation's view: cards by value) is legal when
no check refuses it. The option search (option_search.py) enumerates the requests that pass, with
the same predicates (`timing_allows`, `turn_allows`, `once_allows`, `waived_units`, the
payment registry, `targets.candidates`); explanations report the first refusal's message.
"""

from __future__ import annotations

from collections.abc import Callable
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
from blackpoker.runtime.engine.refusals import Refusal, Said, say
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


def game_on(s: Subject) -> Said | None:
    return say("game over") if s.game.state.result is not None else None


def deciding(s: Subject) -> Said | None:
    decider = s.game.state.to_move()
    if decider != s.player:
        return say(
            "not deciding", who=s.who, decider=say("nobody") if decider is None else player_name(decider)
        )
    return None


def no_effect_waiting(s: Subject) -> Said | None:
    if s.game.state.asked:
        return say("top first", who=s.who)
    resolving = s.game.state.resolving
    return say("answer waiting", who=s.who) if resolving and resolving[-1].waiting else None


def action_exists(s: Subject) -> Said | None:
    if s.action is None:
        return say("no action", name=s.written.name, format=s.game.rules.format.id)
    return None


def direct(s: Subject) -> Said | None:
    return None if s.named.direct else say("not direct", name=s.named.name)


def timing(s: Subject) -> Said | None:
    state, action = s.game.state, s.named
    own_turn = s.written.player == state.turn_player
    if timing_allows(action, own_turn, not state.stage):
        return None
    if not own_turn:
        return say("main timing turn", name=action.name, who=s.who)
    return say("main timing stage", name=action.name)


def once_per_turn(s: Subject) -> Said | None:
    if once_allows(s.game, s.written.player, s.named):
        return None
    allowed = abilities.uses_per_turn(s.game, s.written.player, s.named)
    if allowed == 1:
        return say("once per turn", name=s.named.name)
    return say("times per turn", name=s.named.name, count=str(allowed))


def without_turn(s: Subject) -> Said | None:
    if turn_allows(s.named, s.written.player == s.game.state.turn_player):
        return None
    return say("only without turn", name=s.named.name, who=s.who)


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


def causing_character(s: Subject) -> Said | None:
    """A caused action names one of the requester's charged characters that fits it
    (`by ♠5`, any card of the character); any other action names none."""
    caused, written, name = s.named.caused_by, s.written.source, s.named.name
    if caused is None:
        return None if written is None else say("not caused", name=name, card=str(written))
    printed = caused.suit.value if caused.suit is not None else None
    wanted = say(
        "character of",
        suit=f"{printed} " if printed else "",
        type=caused.type or say("character"),
        kind=f" {caused.kind}" if caused.kind else "",
    )
    if written is None:
        return say("cause missing", name=name, wanted=wanted, who=s.who)
    fielded = [u for u in s.game.state.players[s.written.player].field if written in map(card, u.cards)]
    if not fielded:
        other = player_name(1 - s.written.player)
        if any(written in map(card, u.cards) for u in s.game.state.players[1 - s.written.player].field):
            return say("cause theirs", card=str(written), other=other, who=s.who, name=name)
        return say("cause absent", who=s.who, card=str(written))
    fitting = [u for u in fielded if causes(caused, u)]
    if not fitting:
        return say("cause unfit", card=str(written), wanted=wanted, name=name)
    if not any(u.charged for u in fitting):
        return say("cause driven", card=str(written), wanted=wanted, name=name)
    return None


def requirement(s: Subject) -> Said | None:
    """The printed 起動条件, or the part of `requires` that does not hold."""
    action, player, keys = s.named, s.written.player, key_ids(s)
    if requirement_holds(s.game, player, action, keys):
        return None
    if action.activation_condition:
        return say("requirement printed", name=action.name, condition=action.activation_condition)
    condition, now = unmet_requirement(s.game, player, action, keys)
    if not now:
        return say("requirement", name=action.name, condition=condition)
    read = tuple(say("now", value=value, number=str(number)) for value, number in now)
    return say("requirement now", name=action.name, condition=condition, now=read)


def keys_in_hand(s: Subject) -> Said | None:
    """The key cards lie where the action takes them from: the hand, or its `key_from` zones."""
    missing = hand_after_keys(s)
    if not isinstance(missing, Card):
        return None
    names = {z.id: z.name for z in s.game.rules.edition.core.zones}
    where = tuple(say("hand") if z == Zone.HAND else names.get(z, z) for z in s.named.key_from)
    return say("key not there", card=str(missing), who=s.who, where=where)


def keys_match(s: Subject) -> Said | None:
    action, keys = s.named, s.written.keys
    if action.matcher is None:
        return say("no keys taken", name=action.name) if keys else None
    if not action.matcher.matches(keys):
        return say("keys unmatched", keys="".join(map(str, keys)) or say("no cards"), key=str(action.key))
    return None


def cost(s: Subject) -> Said | None:
    needed = "".join(cost_needed(s.game, s.written.player, s.named))
    given = "".join(sorted(unit for unit, _ in s.written.payment))
    if given == needed:
        return None
    return say("cost", needed=needed or say("no cost"), given=given or say("no cost"))


def payable(s: Subject) -> Said | None:
    rest = hand_after_keys(s)
    assert not isinstance(rest, Card)
    spent = Spent(s.who, s.written.keys, rest)
    for letter, paid in s.written.payment:
        refused = UNITS[letter].refusal(s.game, s.written.player, paid, spent)
        if refused is not None:
            return refused
    return None


def target_given(s: Subject) -> Said | None:
    g = s.game
    spec = g.rules.target_specs.get(s.named.id)
    if spec is not None and s.written.target is None:
        taken = taken_keys(s)
        assert not isinstance(taken, Card)  # checked by `keys_in_hand`
        if candidates(g, s.written.player, s.named.id, spec, tuple(taken[0])):
            return say("needs target", name=s.named.name)
        if g.rules.edition.core.target_required:
            return say("no legal target", name=s.named.name)
        return None  # the edition lets it be requested without one: it resolves with no effect
    if spec is None and s.written.target is not None:
        return say("takes no target", name=s.named.name)
    return None


def target_valid(s: Subject) -> Said | None:
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
        return say("no such character", who=player_name(written.player), card=str(written.card))
    if isinstance(written, WrittenZoneCard) and not any(
        card(c) == written.card for c in g.state.players[written.player].zones.get(written.zone, ())
    ):
        return say(
            "no such zone card", who=player_name(written.player), card=str(written.card), zone=written.zone
        )
    shown = target_text(written)
    stage = g.state.stage
    position = written.position if isinstance(written, StagePosition) else 0
    targeted = stage[position - 1] if 0 < position <= len(stage) else None
    if spec.counterable and targeted and Limit.UNCOUNTERABLE in targeted.action.limits:
        return say("uncounterable", target=shown, name=targeted.action.name)
    return say("invalid target", target=shown, name=s.named.name)


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


Check = Callable[[Subject], Said | None]

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
        said = check(s)
        if said is not None:
            return Refusal(rule, said)
    return None
