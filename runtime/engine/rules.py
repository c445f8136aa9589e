"""The rules context: a compiled rule set with what the engine derives from it once.

`Rules(ruleset)` is built once and shared by every game played by those rules (a run of
self-play builds one per process). It owns the derived tables and the bounded caches the
option search fills; nothing in the engine keeps state outside a context or a game.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from operator import or_
from typing import Generic, TypeVar

from blackpoker.runtime.engine.options import Payment
from blackpoker.runtime.engine.plans import KeyWays, Planned, Requestable, Timed
from blackpoker.runtime.engine.state import PLAYERS
from blackpoker.runtime.engine.zones import DECK, DECK_SIZE
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.enums import Zone
from blackpoker.runtime.rules.keyspec import CardPattern, KeySpec
from blackpoker.runtime.rules.matcher import KeyMatcher, compile_matcher
from blackpoker.runtime.rules.model import Action, Character, Edition, Format, Limit, RuleSet, When
from blackpoker.runtime.rules.program import Ability, ChangeNumber, Event, Quantity, Target

K = TypeVar("K")
V = TypeVar("V")

# Cache sizes, in entries. A hand stays the same over many decisions, and the key-card ways
# of an action depend only on the few hand cards that can be its key cards, so hits are
# frequent; the bounds keep long simulations within a few hundred MB.
HAND_ACTIONS_SIZE = 50_000  # (player, hand) → action id → what the hand decides of its options
HAND_PLANS_SIZE = 100_000  # (player, hand, timing situation) → the actions it allows
KEY_PLANS_SIZE = 50_000  # (player, action id, its relevant hand cards as bits) → its plan without D, or False
RELEVANT_WAYS_SIZE = 200_000  # (action id, its relevant hand cards as bits) → key-card ways
VALUE_WAYS_SIZE = 100_000  # (action id, those cards' values) → key-card ways, as positions
DISCARD_WAYS_SIZE = 1 << 16  # (how many, cards left in the hand) → the ways to discard them
PART_PAID_SIZE = 1_000  # (action id, the cost units abilities and waivers leave) → its entry at that cost


class Recent(Generic[K, V]):
    """A mapping of at most `size` entries that keeps the recently used ones, in two plain
    dicts: new entries and hits go to the newer; when it holds half the size, the older is
    forgotten and the newer becomes the older. A hit costs one dict lookup, where an LRU's
    ordered dict costs two and a reordering: these lookups are on every decision's path."""

    __slots__ = ("half", "newer", "older")

    def __init__(self, size: int) -> None:
        self.half = max(1, size // 2)
        self.newer: dict[K, V] = {}
        self.older: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        found = self.newer.get(key)
        if found is None:
            found = self.older.get(key)
            if found is not None:
                self.put(key, found)
        return found

    def put(self, key: K, value: V) -> V:
        newer = self.newer
        if len(newer) >= self.half:
            self.older = newer
            self.newer = newer = {}
        newer[key] = value
        return value

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        found = self.get(key)
        return self.put(key, make()) if found is None else found

    def __len__(self) -> int:
        return len(self.newer) + sum(1 for key in self.older if key not in self.newer)


class Rules:
    """A rule set and its derived tables; `Game.rules` is one, shared by many games."""

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        # the rule set's parts the engine reads, as plain attributes (read on every request)
        self.edition: Edition = ruleset.edition
        self.format: Format = ruleset.format
        self.actions: tuple[Action, ...] = ruleset.actions
        self.characters: tuple[Character, ...] = ruleset.characters
        self.setup: Action | None = ruleset.setup  # run for each player before the game
        # action id → its `target` step (a program's first step when it has one)
        self.target_specs: dict[str, Target] = {
            a.id: s for a in ruleset.actions for s in a.steps[:1] if isinstance(s, Target)
        }
        # each keyed action's id, key and the game cards (both decks) each of its patterns
        # takes, as bits by id
        keyed = [
            (a.id, a.key, tuple(map(cards_of, a.key.patterns))) for a in ruleset.actions if a.key is not None
        ]
        # keyed action id → which game cards can be its key cards
        self.relevant: dict[str, int] = {i: reduce(or_, cards, 0) for i, _, cards in keyed}
        # keyed action id → the cards of each of its patterns, when its key is one card of each
        # and no card meets two: its ways are listed without the matcher (option_search.one_of_each)
        self.one_per_pattern: dict[str, tuple[int, ...]] = {
            i: cards for i, key, cards in keyed if takes_one_per_pattern(key, cards)
        }
        # the zones other than the hand that direct actions take key cards from (the rare card)
        self.key_zones: tuple[str, ...] = tuple(
            sorted(
                {z for a in ruleset.actions if a.key is not None and a.direct for z in a.key_from}
                - {Zone.HAND}
            )
        )
        # the direct actions each timing situation allows: made by the option search when it
        # first plans a hand (option_search.timed_requestables), as it fills the caches below
        self.requestables: Timed | None = None
        # resolved action id → the actions its resolution triggers (誘発条件 `triggered_by`)
        triggered: dict[str, list[Action]] = {}
        requested: dict[str, list[Action]] = {}  # requested action id → the actions it triggers
        events: dict[Event, list[Action]] = {}  # event → the actions it triggers
        for a in ruleset.actions:
            rule = a.triggered_by
            if rule is not None and rule.resolved is not None:
                triggered.setdefault(rule.resolved, []).append(a)
            if rule is not None and rule.requested is not None:
                requested.setdefault(rule.requested, []).append(a)
            if rule is not None and rule.event is not None:
                events.setdefault(rule.event, []).append(a)
        self.triggered: dict[str, tuple[Action, ...]] = {k: tuple(v) for k, v in triggered.items()}
        self.requested: dict[str, tuple[Action, ...]] = {k: tuple(v) for k, v in requested.items()}
        # the actions whose request some character's trigger waits for (魔王 at エンド)
        self.watched: frozenset[str] = frozenset(
            t.action for c in ruleset.characters for t in c.triggers if t.when is When.REQUESTED
        )
        self.events: dict[Event, tuple[Action, ...]] = {k: tuple(v) for k, v in events.items()}
        # card → the continuous abilities of its trump (on while it lies face up)
        self.trump_abilities: dict[Card, tuple[Ability, ...]] = {
            t.card: t.abilities for t in ruleset.trumps if t.abilities
        }
        # whether any ability can be on: when none, numbers are read as printed at once
        self.has_abilities = bool(self.trump_abilities or ruleset.edition.abilities) or any(
            c.abilities for c in ruleset.characters
        )
        # the actions whose cost / use limit some `change` names: only theirs are looked up
        changes = [
            a
            for source in (
                ruleset.edition.abilities,
                *self.trump_abilities.values(),
                *(c.abilities for c in ruleset.characters),
            )
            for a in source
            if isinstance(a, ChangeNumber) and a.action is not None
        ]
        self.changed_costs = frozenset(a.action for a in changes if a.number is Quantity.COST)
        self.changed_limits = frozenset(a.action for a in changes if a.number is Quantity.USES_PER_TURN)
        # the actions whose requests a turn counts: printed once per turn, or limited by an ability
        self.counted = frozenset(
            a.id for a in ruleset.actions if Limit.ONCE_PER_TURN in a.limits or a.id in self.changed_limits
        )
        # character id → the actions whose cost it waives (魔力増加): only when some character
        # waives costs is the field searched for one
        self.waived_by: dict[str, tuple[str, ...]] = {
            c.id: tuple(a.id for a in ruleset.actions if c.waives(a))
            for c in ruleset.characters
            if c.waives_cost_of
        }
        self.waivers = bool(self.waived_by)
        # which cards make which character (兵士として, 防壁にする)
        self.character_matchers: dict[str, KeyMatcher] = {
            c.id: compile_matcher(c.key) for c in ruleset.characters
        }
        self.hand_plans: Recent[
            tuple[int, tuple[int, ...], tuple[int, ...], bool, bool], tuple[Planned, ...]
        ] = Recent(HAND_PLANS_SIZE)
        self.hand_actions: Recent[tuple[int, tuple[int, ...], tuple[int, ...]], dict[str, Planned | None]] = (
            Recent(HAND_ACTIONS_SIZE)
        )
        # False: those cards allow no key-card way (kept too: most hands hold none of an action's)
        self.key_plans: Recent[tuple[int, str, int], Planned | bool] = Recent(KEY_PLANS_SIZE)
        self.relevant_ways: Recent[tuple[str, int], KeyWays] = Recent(RELEVANT_WAYS_SIZE)
        self.value_ways: Recent[tuple[str, tuple[int, ...]], KeyWays] = Recent(VALUE_WAYS_SIZE)
        self.part_paid: Recent[tuple[str, tuple[str, ...]], Requestable] = Recent(PART_PAID_SIZE)
        self.discard_ways: Recent[tuple[int, tuple[int, ...]], tuple[tuple[Payment, ...], ...]] = Recent(
            DISCARD_WAYS_SIZE
        )

    def __reduce__(self) -> tuple[object, ...]:
        # A context travels as its rule set and is rebuilt, caches empty, where it arrives: a
        # cluster worker receives it once and its games share it from then on.
        return Rules, (self.ruleset,)

    def action(self, action_id: str) -> Action:
        return self.ruleset.action(action_id)

    def character(self, character_id: str) -> Character:
        return self.ruleset.character(character_id)


def cards_of(pattern: CardPattern) -> int:
    """The game cards (both decks) a key pattern takes, as bits by id."""
    return sum(
        1 << (owner * DECK_SIZE + index)
        for index, c in enumerate(DECK)
        if pattern.matches(c)
        for owner in PLAYERS
    )


def takes_one_per_pattern(key: KeySpec, cards: tuple[int, ...]) -> bool:
    """Whether the key is one card of each pattern (no 以上, 同じスート, 同じ数字) and no card
    meets two patterns (`cards`: each pattern's, as bits); else the matcher decides."""
    if key.count != 1 or key.or_more or key.same_suit or key.same_number:
        return False
    return sum(cards) == reduce(or_, cards, 0)  # no card counted twice


def rules_of(rules: RuleSet | Rules) -> Rules:
    """A context as it is, or a new one for a bare rule set."""
    return rules if isinstance(rules, Rules) else Rules(rules)
