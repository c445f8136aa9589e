"""The complete list of legal requests for the chance holder: timing, limits, key cards,
every way to pay the cost (runtime/engine/payments.py) and every target.

The search enumerates what the checks of runtime/engine/request_checks.py accept, with their
predicates; the two agree (tests/test_legality.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import product
from typing import TYPE_CHECKING, Final

from blackpoker.runtime.engine.expressions import reads_key, requirement_holds
from blackpoker.runtime.engine.kept import Kept
from blackpoker.runtime.engine.options import (
    PASSES,
    Option,
    Payment,
    RequestOption,
    first_per_value,
    sort_cards,
)
from blackpoker.runtime.engine.payments import UNITS
from blackpoker.runtime.engine.plans import Cost, KeyWays, Paid, Planned, Requestable, Timed
from blackpoker.runtime.engine.refs import OptionTarget
from blackpoker.runtime.engine.request_checks import (
    causing_units,
    cost_needed,
    once_allows,
    timing_allows,
    turn_allows,
    waived_units,
)
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.engine.targets import candidates
from blackpoker.runtime.engine.zones import CARD_SORT_KEY, card, order
from blackpoker.runtime.rules.enums import Zone
from blackpoker.runtime.rules.model import Action, Limit
from blackpoker.runtime.rules.program import Target

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table


NO_KEYS: Final[list[tuple[int, ...]]] = [()]
HAND: Final = (Zone.HAND,)  # where key cards come from unless an action says otherwise
NO_TARGET: Final[list[OptionTarget | None]] = [None]
NO_COST: Final[list[tuple[Payment, ...]]] = [()]
ONLY_PASS: Final = ((PASSES[0],), (PASSES[1],))  # each player's options when it can request nothing


def timed_requestables(rules: Rules) -> Timed:
    """The context's direct actions each timing situation allows, made on first use."""
    timed = rules.requestables
    if timed is None:
        direct = tuple(a for a in rules.actions if a.direct)
        timed = rules.requestables = requestables(direct, rules.target_specs, rules.relevant)
    return timed


def requestables(
    actions: tuple[Action, ...], specs: Mapping[str, Target], relevant: Mapping[str, int]
) -> Timed:
    """The direct actions each situation allows by timing, in rule-set order, keyed by
    (main timing possible: own turn and an empty stage, own turn); `relevant`: which cards can
    be each keyed action's key cards (`Rules.relevant`)."""
    entries = [requestable(a, a.cost.units, specs.get(a.id), relevant.get(a.id, 0)) for a in actions]

    def allowed(entry: Requestable, stage_empty: bool, turn: bool) -> bool:
        return timing_allows(entry.action, turn, stage_empty) and turn_allows(entry.action, turn)

    # (main timing possible, own turn): main timing is possible only on the own turn
    return {
        (main_ok, turn): tuple(e for e in entries if allowed(e, main_ok, turn))
        for main_ok in (False, True)
        for turn in (False, True)
    }


def requestable(a: Action, units: tuple[str, ...], spec: Target | None, relevant: int) -> Requestable:
    """The entry of an action as it is paid with the cost `units` (its own, or as abilities
    change it and a character waives part of it); `relevant`: the cards that can be its key
    cards, as bits by id."""
    cost = tuple((letter, units.count(letter)) for letter in sorted(set(units)))
    constant = [UNITS[letter].constant(n) for letter, n in cost]
    return Requestable(
        a,
        Limit.ONCE_PER_TURN in a.limits,  # refused once used up (or an ability limits it)
        cost,
        tuple(unit for unit in cost if not UNITS[unit[0]].uses_hand),
        any(UNITS[letter].uses_hand for letter, _ in cost),
        all(UNITS[letter].constant(n) is not None or UNITS[letter].uses_hand for letter, n in cost),
        None if None in constant else [tuple(pay for way in constant if way for pay in way)],
        spec,
        spec is not None and spec.suit_of is not None,
        reads_key(a),
        relevant,
        a.matcher is None or a.key_from == HAND,
    )


class Payer:
    """The ways to pay costs in one position, each part and each whole payment built once:
    B / L / S do not depend on the key cards, so each is kept here; D depends on the cards
    they leave, which differ from one key way to the next, so its ways are the rules
    context's (`Rules.discard_ways`), kept for every position and not copied here."""

    __slots__ = ("game", "parts", "payments", "player")

    def __init__(self, game: Table, player: int) -> None:
        self.game = game
        self.player = player
        self.parts: dict[tuple[str, int], Sequence[tuple[Payment, ...]]] = {}  # B / L / S: the field's
        self.payments: dict[tuple[Cost, tuple[int, ...]], Sequence[tuple[Payment, ...]]] = {}

    def part(self, letter: str, n: int, rest: tuple[int, ...]) -> Sequence[tuple[Payment, ...]]:
        unit = UNITS[letter]
        if unit.uses_hand:  # kept by the cards left, for every position (`Rules.discard_ways`)
            return unit.ways(self.game, self.player, n, rest)
        key = (letter, n)
        found = self.parts.get(key)
        if found is None:
            found = self.parts[key] = unit.ways(self.game, self.player, n, rest)
        return found

    def ways(self, cost: Cost, rest: tuple[int, ...]) -> Sequence[tuple[Payment, ...]]:
        """Each whole payment, the parts in letter order; `rest` matters only with a D."""
        if len(cost) == 1:  # a cost of one letter: its ways are the payments, kept as the part's
            ((letter, n),) = cost
            return self.part(letter, n, rest)
        found = self.payments.get((cost, rest))
        if found is None:
            # every way of each part after every way of the parts before, as `product` orders
            # them: tuples joined in a loop, no generator per payment
            joined: list[tuple[Payment, ...]] = [()]
            for letter, n in cost:
                part = self.part(letter, n, rest)
                joined = [done + way for done in joined for way in part]
            found = self.payments[(cost, rest)] = joined
        return found


def request_options(g: Table, p: int) -> tuple[Option, ...]:
    """The chance holder's options: every legal request, in a fixed order (by action, key-card
    way, payment, target), then the pass.

    Called for every chance decision, and kept up to date rather than searched afresh: the
    game keeps each player's last search (`Kept`), which serves as it is when only passes
    moved the chance since, and otherwise gives the plan of what changed (`kept_plan`). The
    whole tuple is kept, so a decision whose options are kept builds nothing.
    """
    kept = g.kept[p]
    if kept.stamp == g.touched:  # nothing the options read was touched since
        return kept.options
    found = search(g, p, kept)
    options = kept.options = (*found, PASSES[p]) if found else ONLY_PASS[p]
    kept.stamp = g.touched
    return options


def search(g: Table, p: int, kept: Kept) -> list[RequestOption]:
    """The options of `request_options`, found with the player's kept plan.

    The work is arranged to be done once: what the hand alone decides (which actions have
    key-card ways, the payments of a cost without B or S, the whole options of such an action
    without a target) is planned once per hand and timing situation (`hand_plan`), so a hand
    that allows nothing (most chance decisions off one's main timing) costs a lookup. Per
    call, the waived actions are found once, payments that read the field are built once per
    part (`Payer`), and the targets of an action whose target test does not read the key
    cards are listed once.
    """
    state, rules = g.state, g.rules
    me = state.players[p]
    turn = p == state.turn_player
    main = turn and not state.stage
    hand, plan = kept_plan(g, p, kept, main, turn)
    if not plan:
        return []
    waived = waived_units(g, p) if me.field and rules.waivers else {}
    target_required = rules.edition.core.target_required  # 適法な対象を指定できなければ起こせない
    changed_limits, changed_costs, used = rules.changed_limits, rules.changed_costs, me.used
    payer: Payer | None = None
    found: list[RequestOption] = []
    # An action's attributes are read as few times as possible: the rule set's classes are plain
    # Python, slower to read than the engine's own once these are compiled with mypyc.
    for planned in plan:
        entry = planned.entry
        action = entry.action
        action_id = action.id
        if action_id in changed_limits:
            if not once_allows(g, p, action):
                continue
        elif entry.once and action_id in used:  # as printed: once a turn
            continue
        keyed = entry.keyed_requirement
        if action.requires is not None and not keyed and not requirement_holds(g, p, action):
            continue
        sources: list[int] | None = None  # a caused action: the first cards of its causing characters
        if action.caused_by is not None:
            sources = [u.cards[0] for u in causing_units(g, p, action.caused_by)]
            if not sources:
                continue
        free = part = False
        if (waived and action_id in waived) or action_id in changed_costs:
            left = cost_needed(g, p, action, waived)
            free = not left
            part = bool(left) and left != action.cost.units
            if part:  # some units waived, some not: the entry of the cost that is left
                cut = rules.part_paid.get((action_id, left))
                if cut is None:
                    cut = rules.part_paid.put(
                        (action_id, left), requestable(action, left, entry.target, entry.relevant)
                    )
                entry = cut
        by_hand = entry.hand_only and not free and not part
        if by_hand and planned.paid is not None and not planned.paid:  # the hand cannot pay it
            continue
        # the targets, when the key cards do not matter
        aims: Sequence[OptionTarget | None] | None = None
        if entry.target is not None and not entry.keyed_target:
            aims = candidates(g, p, action_id, entry.target, ())
            if not aims:  # listed first: no target means no option, whatever the payments
                if target_required:
                    continue
                aims = NO_TARGET
        # the options depend on the key way only through the payments: made from those, kept
        whole = not keyed and (entry.target is None or aims is not None)
        made: Sequence[RequestOption]
        if by_hand and whole:
            made = planned.made(hand_paid(g, planned), NO_TARGET if aims is None else aims)
        elif whole and entry is planned.entry and not free and not entry.uses_hand:  # paid from the field
            payer = payer or Payer(g, p)
            made = planned.made(
                _paid(payer, entry, hand, planned.ways, False), NO_TARGET if aims is None else aims
            )
        else:
            if by_hand:
                paid = hand_paid(g, planned)
            else:
                payer = payer or Payer(g, p)
                paid = _paid(payer, entry, hand, planned.ways, free)
            listed: list[RequestOption] = []
            for keys, pays in paid:
                if keyed and not requirement_holds(g, p, action, keys):
                    continue
                targets: Sequence[OptionTarget | None] = NO_TARGET
                if aims is not None:
                    targets = aims
                elif entry.target is not None:
                    targets = candidates(g, p, action_id, entry.target, keys)
                    if not targets and not target_required:
                        targets = NO_TARGET
                for payment in pays:  # every payment at every target, as `product` orders them
                    for target in targets:
                        listed.append(RequestOption(p, action_id, action.name, keys, payment, target))
            made = listed
        if sources is None:
            found.extend(made)
        else:  # each option once per causing character
            found.extend(replace(option, source=source) for source in sources for option in made)
    return found


def hand_paid(g: Table, planned: Planned) -> Paid:
    """Each key way of a plan that can pay its cost, with its payments: only for a `hand_only`
    cost, which the hand alone decides, so it is found once per plan."""
    paid = planned.paid
    if paid is None:
        payer = Payer(g, planned.player)
        paid = planned.paid = _paid(payer, planned.entry, planned.hand, planned.ways, False)
    return paid


def _paid(payer: Payer, entry: Requestable, hand: tuple[int, ...], ways: KeyWays, free: bool) -> Paid:
    """Each key way that can pay the action's cost now, with its payments (none when `free`).
    A way is dropped as soon as the cost's B / L / S part or its D part cannot be paid."""
    pays = NO_COST if free else entry.pays
    if pays is None:
        for letter, n in entry.fixed:  # a loop, not `all` over a generator: one less frame a call
            if not payer.part(letter, n, ()):
                return ()
        if not entry.uses_hand:
            pays = payer.ways(entry.cost, ())
    if pays is not None:
        return tuple([(keys, pays) for keys in ways]) if pays else ()
    paid = []  # a loop and lists, not generators: compiled with mypyc, a generator costs more
    for keys in ways:
        left = payer.ways(entry.cost, tuple([c for c in hand if c not in keys]))
        if left:
            paid.append((keys, left))
    return tuple(paid)


def kept_plan(
    g: Table, p: int, kept: Kept, main: bool, turn: bool
) -> tuple[tuple[int, ...], tuple[Planned, ...]]:
    """The player's hand (sorted ids) and its plan in this timing situation, updated in
    `kept`: two searches in three come with the player's last hand (the stage's passes and
    resolutions), and comparing the hand as it lies costs less than sorting it and looking
    the plan up."""
    rules = g.rules
    me = g.state.players[p]
    same = kept.cards == me.hand and not rules.key_zones  # else the other zones' cards could differ
    if same and kept.main == main and kept.turn == turn:
        return kept.hand, kept.plan
    if same:
        hand, held, known = kept.hand, kept.held, kept.known
        others: tuple[int, ...] = ()
    else:
        hand = tuple(sorted(me.hand))
        held = sum([1 << c for c in hand])  # a list, not a generator: one frame less (and compiled)
        # the cards of the other zones key cards come from (the rare card) decide the plan too
        others = (
            tuple(sorted(c for zone in rules.key_zones for c in me.zones[zone])) if rules.key_zones else ()
        )
        known = rules.hand_actions.get_or_make((p, hand, others), dict)
    situation = (p, hand, others, main, turn)
    plan = rules.hand_plans.get(situation)
    if plan is None:
        plan = rules.hand_plans.put(situation, hand_plan(g, p, hand, held, known, kept, main, turn))
    if not same:
        kept.cards, kept.hand, kept.held, kept.known = list(me.hand), hand, held, known
    kept.main, kept.turn, kept.plan = main, turn, plan
    return hand, plan


def hand_plan(
    g: Table,
    p: int,
    hand: tuple[int, ...],
    held: int,
    known: dict[str, Planned | None],
    kept: Kept,
    main: bool,
    turn: bool,
) -> tuple[Planned, ...]:
    """The actions player `p` may request by timing whose key cards `hand` (sorted ids; `held`,
    the same as bits by id) holds, or the cards of the zones an action takes them from (its
    `key_from`), with what the hand alone decides of their options; the rest is left to each
    call. The timing situations of one hand share each action's plan (`known`, the hand's
    entry in `Rules.hand_actions`).

    An action's plan is carried over from the player's previous hand (`kept`) when none of
    the cards that can be its key cards came or went: its key-card ways are the same, and
    unless its cost reads the cards they leave (D) so is the whole plan."""
    ordered: tuple[int, ...] | None = None  # as key_ways takes them: sorted once, when first needed
    previous = kept.known if kept.cards is not None and kept.known is not known else {}
    changed = held ^ kept.held
    plan = []
    for entry in timed_requestables(g.rules)[main, turn]:
        action_id = entry.action.id
        if action_id in known:
            planned = known[action_id]
        elif entry.from_hand and not changed & entry.relevant and action_id in previous:
            prior = previous[action_id]
            planned = prior if prior is None or not entry.uses_hand else Planned(entry, p, hand, prior.ways)
            known[action_id] = planned
        else:
            if ordered is None:
                ordered = sort_cards(hand)
            planned = known[action_id] = _planned(g, p, hand, ordered, held, entry)
        if planned is not None:
            plan.append(planned)
    return tuple(plan)


def _planned(
    g: Table, p: int, hand: tuple[int, ...], ordered: tuple[int, ...], held: int, entry: Requestable
) -> Planned | None:
    """The action's plan for this hand (sorted ids; `ordered`: the same in canonical order).
    Unless its cost reads the cards the key cards leave (D), its options depend on the hand
    only through its key-card ways: then every hand with the same cards that can be its key
    cards shares one plan (`Rules.key_plans`), and with it the options the plan keeps."""
    action = entry.action
    if action.matcher is not None and action.key_from != HAND:
        pool = key_pool(g, p, action)
        ways = key_ways(g, action, pool, sum(1 << c for c in pool))
        return Planned(entry, p, hand, ways) if ways else None
    if entry.uses_hand:  # its plan reads the hand: its own, with the ways the relevant cards have
        ways = NO_KEYS if action.matcher is None else key_ways(g, action, ordered, held)
        return Planned(entry, p, hand, ways) if ways else None
    shared = (p, action.id, held & entry.relevant)
    found = g.rules.key_plans.get(shared)  # looked up first: a plan found needs no key-card ways
    if found is not None:
        return found if isinstance(found, Planned) else None
    # the plan is what these relevant cards are kept under, so their ways need no entry of their own
    ways = NO_KEYS if action.matcher is None else relevant_ways(g, action, ordered, shared[2])
    if not ways:
        g.rules.key_plans.put(shared, False)
        return None
    planned = Planned(entry, p, hand, ways)
    g.rules.key_plans.put(shared, planned)
    return planned


def key_pool(g: Table, p: int, action: Action) -> tuple[int, ...]:
    """The cards of the zones the action takes its key cards from, in canonical order."""
    return sort_cards([c for zone in action.key_from for c in g.state.players[p].pile(zone)])


def key_ways(g: Table, action: Action, ordered: tuple[int, ...], held: int) -> KeyWays:
    """Each distinct choice of key cards from a hand, or the cards of the zones the action
    takes them from (in canonical order; `held`: the same as bits by id), in canonical order.

    The ways depend only on the cards that can be key cards of the action, so a hand that
    differs only in other cards finds them under its relevant cards; and those depend only
    on the cards' values, so the other deck's cards of the same values find them as positions.
    """
    mine = held & g.rules.relevant[action.id]
    ways = g.rules.relevant_ways.get((action.id, mine))
    if ways is None:
        ways = g.rules.relevant_ways.put((action.id, mine), relevant_ways(g, action, ordered, mine))
    return ways


def relevant_ways(g: Table, action: Action, ordered: tuple[int, ...], mine: int) -> KeyWays:
    """`key_ways` found anew from the hand's cards that can be the action's key cards (`mine`,
    as bits by id): listed for one card of each pattern, else the matcher's ways by values."""
    cards = tuple([c for c in ordered if mine >> c & 1])
    patterns = g.rules.one_per_pattern.get(action.id)
    if patterns is not None:
        return one_of_each(cards, patterns)
    values = (action.id, tuple(order(c) for c in cards))
    positions = g.rules.value_ways.get(values)
    if positions is None:
        positions = g.rules.value_ways.put(values, _positions(action, cards))
    return [tuple(cards[i] for i in way) for way in positions]


def one_of_each(cards: Sequence[int], patterns: tuple[int, ...]) -> KeyWays:
    """The ways to take one of `cards` (in canonical order) for each pattern (the cards it
    takes, as bits by id; no card meets two), as the matcher lists them: of cards of one value
    the first (two Jokers: the lower id), each way and the list in canonical card order."""
    if len(patterns) == 1:
        return [(c,) for c in first_per_value(cards)]
    firsts = [first_per_value([c for c in cards if taken >> c & 1]) for taken in patterns]
    ways = [sort_cards(pick) for pick in product(*firsts)]
    ways.sort(key=canonical)
    return ways


def canonical(way: tuple[int, ...]) -> tuple[int, ...]:
    """Sorts ways of cards as the matcher's positions into the canonically sorted cards do."""
    return tuple(CARD_SORT_KEY[c] for c in way)


def _positions(action: Action, ordered: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The matcher's ways as positions into `ordered`: a way's cards of one value are the first
    of that value (two Jokers: the lower id first)."""
    assert action.matcher is not None
    return action.matcher.selections([card(c) for c in ordered])
