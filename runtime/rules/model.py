"""The compiled rule set: immutable, typed, and exactly what the sheets and the engine consume.

The compiler makes it (compiler/link.py and the document kinds) and hashes it; nothing here
imports the compiler, so a rule set unpickles, programs and all, where no compiler is loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from blackpoker.runtime.rules.cards import Card, Rank, Suit
from blackpoker.runtime.rules.cost import Cost
from blackpoker.runtime.rules.enums import Face, Zone
from blackpoker.runtime.rules.frozen import rebuilt
from blackpoker.runtime.rules.keyspec import KeySpec
from blackpoker.runtime.rules.matcher import KeyMatcher
from blackpoker.runtime.rules.program import Ability, CausedBy, Requires, Step, TriggeredBy


class Timing(StrEnum):
    MAIN = "main"  # own turn, chance held, empty stage
    QUICK = "quick"  # whenever chance is held


class Speed(StrEnum):
    IMMEDIATE = "immediate"  # 即時: resolves at once, chance stays
    NORMAL = "normal"  # 通常: goes on the stage


class Trigger(StrEnum):
    DIRECT = "direct"  # a player requests it
    EFFECT = "effect"  # only another action's effect requests it
    TRIGGERED = "triggered"  # an ability triggers it (誘発)


class Limit(StrEnum):
    ONCE_PER_TURN = "once_per_turn"
    ONLY_WITHOUT_TURN = "only_without_turn"
    UNCOUNTERABLE = "uncounterable"
    RESOLVES_BEFORE_COST_TRIGGERS = "resolves_before_cost_triggers"


class Attack(StrEnum):
    NOT_READY = "not_ready"  # 準備
    HASTE = "haste"  # 速攻
    HASTE_WITH_ACE = "haste_with_ace"  # 速攻 when its cards include an A, else 準備
    NEVER = "never"


class SizeRule(StrEnum):
    CARD_NUMBER = "card_number"
    KEY_SUM = "key_sum"


class Combat(StrEnum):
    SOLDIER = "soldier"
    BULWARK = "bulwark"


@dataclass(frozen=True, slots=True)
class Action:
    id: str
    name: str
    type: str
    section: str
    formats: tuple[str, ...]
    timing: Timing
    speed: Speed
    effect: str
    since: str = ""
    trigger: Trigger = Trigger.DIRECT
    limits: frozenset[Limit] = frozenset()
    cost: Cost = Cost.NONE
    key: KeySpec | None = None
    key_from: tuple[Zone | str, ...] = (Zone.HAND,)  # the zones the key cards are taken from
    note: str = ""
    target: str = ""
    unit: str = ""  # 起因: the character that requests it, as printed (upstream's actUnit)
    program: tuple[Any, ...] = ()  # the program as written (plain data, emitted as JSON)
    steps: tuple[Step, ...] = field(default=(), compare=False, repr=False)  # the program's typed tree
    story: str = ""
    flavor: str = ""
    speaker: str = ""
    updates: tuple[str, ...] = ()
    ruby: str = ""
    activation_condition: str = ""  # 起動条件 as printed; `limits` is its structured form
    trigger_condition: str = ""  # 誘発条件 as printed; `triggered_by` is its structured form
    triggered_by: TriggeredBy | None = None  # 誘発条件: another action's resolution triggers it
    requires: Requires | None = None  # 起動条件 the engine checks before a request
    caused_by: CausedBy | None = None  # 兵士起因: requested by driving one of the requester's characters
    changed: bool = False  # the ● of an entry changed in this edition
    dev_note: str = ""
    format: str = ""  # the first format, as written; `formats` is computed from it
    matcher: KeyMatcher | None = field(default=None, compare=False, repr=False)
    # what the player may do, as the effect prints it (the clause a `may` step's yes/no
    # question quotes); found by the compiler, "" when the effect prints none
    may_clause: str = field(default="", compare=False)

    @property
    def direct(self) -> bool:
        return self.trigger is Trigger.DIRECT

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)  # with its typed program: the nodes pickle as they are


class When(StrEnum):
    """What triggers a character's ability (its `triggers`)."""

    LEAVES_FIELD_TO_GRAVEYARD = "leaves_field_to_graveyard"  # 場から墓地に行く場合
    # 場から墓地もしくは手札に行く場合
    LEAVES_FIELD_TO_GRAVEYARD_OR_HAND = "leaves_field_to_graveyard_or_hand"
    # its controller requested `action` (自分がエンドアクションを起こした場合: 起こす is to request)
    REQUESTED = "requested"


@dataclass(frozen=True, slots=True)
class CharacterTrigger:
    when: When
    request: str
    for_each_card: tuple[Rank, ...] = ()  # once per card of these ranks (none: once)
    action: str = ""  # with `requested`: the action whose request triggers it
    targets_card: bool = False  # each request targets its card (切札再生 of the summoned J)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Character:
    id: str
    name: str
    type: str
    formats: tuple[str, ...]
    key: KeySpec
    face: Face
    attack: Attack
    size: SizeRule
    combat: Combat
    ability: str = ""  # 8.x lists print labels and a size instead
    since: str = ""
    triggers: tuple[CharacterTrigger, ...] = ()
    waives_cost_of: tuple[str, ...] = ()
    waives_units: tuple[str, ...] = ()  # the cost units waived (none named: the whole cost)
    waives_timing: Timing | None = None  # only the actions of this timing (none: every timing)
    note: str = ""
    story: str = ""
    flavor: str = ""
    speaker: str = ""
    updates: tuple[str, ...] = ()
    ruby: str = ""
    labels: tuple[str, ...] = ()  # ids of the edition's labels (アタッカー / ブロッカー / 速攻)
    size_text: str = ""  # サイズ as printed; `size` is its structured form
    changed: bool = False
    dev_note: str = ""
    format: str = ""
    number: int | None = None  # 数字は N として扱う: its size instead of its cards'
    untargetable: bool = False  # アクションの対象にできない
    # the actions that cannot target it (装備アクションの対象にできない)
    untargetable_by: tuple[str, ...] = ()
    must_attack: bool = False  # an attacker whenever it can be, on its owner's turn (巨人)
    bulwark_proof: bool = False  # 防壁の効果によって墓地に移されない
    suits: tuple[Suit, ...] = ()  # ♠兵士としても♡兵士としても扱う: its suits whatever its cards

    def targetable_by(self, action_id: str) -> bool:
        return not self.untargetable and action_id not in self.untargetable_by

    def waives(self, action: Action) -> bool:
        """Whether its cost waiver (魔力増加) applies to the action: of a type it names, and of
        its timing if it names one."""
        return action.type in self.waives_cost_of and self.waives_timing in (None, action.timing)

    abilities: tuple[Ability, ...] = ()  # continuous abilities, on while it is on the field

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Fog:
    """An entry of the fog list: what the key cards of `action` are while they lie in the fog."""

    id: str
    name: str
    type: str
    formats: tuple[str, ...]
    key: KeySpec | None
    ability: str
    action: str
    since: str = ""
    ruby: str = ""
    target: str = ""
    story: str = ""
    flavor: str = ""
    speaker: str = ""
    updates: tuple[str, ...] = ()
    changed: bool = False
    dev_note: str = ""
    format: str = ""

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Label:
    id: str
    name: str  # as printed: アタッカー

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


# The extra format's id (001 §4.4): the format itself is compiler/documents/extra.py's; a
# played game's source (runtime/play/source.py) knows it by this id without the compiler.
EXTRA_FORMAT_ID = "extra"


@dataclass(frozen=True, slots=True)
class Format:
    id: str
    name: str
    mark: str
    base: str | None = None  # set for a local-rule format: the official format it starts from

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class CostUnit:
    unit: str
    name: str
    text: str

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class LegendBox:
    title: str
    lines: tuple[str, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


class Visibility(StrEnum):
    PUBLIC = "public"  # 完全公開: every player sees the cards
    OWNER = "owner"  # 個人公開: the owner sees the cards, the opponent the count
    HIDDEN = "hidden"  # 非公開: both players see only the count (an unopened pack)
    FACES = "faces"  # each card face up (完全公開) or face down (個人公開): the trumps (001 §3.12.1)


class GraveyardTop(StrEnum):
    """Which card of a graveyard lies on top, where every player sees it (完全公開)."""

    LAST_IN = "last_in"  # the card moved in last; when cards leave, the one below (the default)
    # 墓地の一番上のカードの扱い: its owner chooses among the cards arriving at once, and
    # among those that stay when cards leave
    OWNER_CHOOSES = "owner_chooses"


@dataclass(frozen=True, slots=True)
class ZoneRule:
    """A zone the edition adds to each player's side (the fog of edition 8)."""

    id: str
    name: str
    visibility: Visibility = Visibility.PUBLIC

    @classmethod
    def read(cls, raw: Mapping[str, str]) -> ZoneRule:
        """A zone as the data writes it (its visibility a word): the compiled class takes
        only a Visibility."""
        return cls(raw["id"], raw["name"], Visibility(raw.get("visibility", Visibility.PUBLIC)))

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class CoreRules:
    auto_pass_after_normal_request: bool
    hand_size: int
    hand_limit: int
    zones: tuple[ZoneRule, ...] = ()
    # 「対象」項目があるアクションは、適法な対象を指定できなければ起こせない (001 §3.10.3, and a FAQ)
    target_required: bool = True
    # アクションを対象とするアクションは、自分自身を対象にできない (the same FAQ)
    no_self_target: bool = True
    graveyard_top: GraveyardTop = GraveyardTop.LAST_IN

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


# What a sheet prints after @ when the edition does not say: @直接・通常・メイン.
USAGE_LINE = ("trigger", "speed", "timing")


@dataclass(frozen=True, slots=True)
class Edition:
    id: str
    title: str
    published: str
    magazine: str
    copyright: str
    formats: tuple[Format, ...]
    sections: tuple[str, ...]
    action_types: tuple[str, ...]
    character_types: tuple[str, ...]
    cost_units: tuple[CostUnit, ...]
    core: CoreRules
    legend: tuple[LegendBox, ...]
    labels: tuple[Label, ...] = ()
    fog_types: tuple[str, ...] = ()
    usage_line: tuple[str, ...] = USAGE_LINE
    abilities: tuple[Ability, ...] = ()  # always on (its own, then a local rule's)
    usage_separator: str = "・"  # between the usage line's parts (or - as in @直接-通常-クイック)

    def format(self, format_id: str) -> Format:
        return next(f for f in self.formats if f.id == format_id)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class TrumpRule:
    """A card whose ability is on while it lies face up in its owner's trump zone (extra
    format): the actions the ability grants."""

    card: Card  # ♠A
    id: str
    name: str
    actions: tuple[str, ...]  # in the rule set
    pending: tuple[str, ...] = ()  # its actions without a program yet: not in the rule set
    abilities: tuple[Ability, ...] = ()  # continuous abilities, on while the card lies face up

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One playable format of one edition: what `compile(edition, format)` returns."""

    edition: Edition
    format: Format
    actions: tuple[Action, ...]
    characters: tuple[Character, ...]
    fogs: tuple[Fog, ...] = ()
    trumps: tuple[TrumpRule, ...] = ()  # the extra format's abilities
    setup: Action | None = None  # run for each player before the game (the extra format's trumps)
    # The rule-set hash that command logs name the rules by: the compiler sets it from the rule
    # set's JSON (compiler/emit_json.py) as it finishes one; the engine only reads it.
    digest: str = field(default="", compare=False)
    _actions_by_id: MappingProxyType[str, Action] = field(init=False, compare=False, repr=False)
    _characters_by_id: MappingProxyType[str, Character] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Frozen: the lookup tables are set once here and are read-only views.
        # the set-up is looked up like an action while it resolves
        every = (*self.actions, self.setup) if self.setup is not None else self.actions
        object.__setattr__(self, "_actions_by_id", MappingProxyType({a.id: a for a in every}))
        object.__setattr__(self, "_characters_by_id", MappingProxyType({c.id: c for c in self.characters}))

    def __reduce__(self) -> tuple[Any, ...]:
        # The lookup tables are read-only views, which do not pickle: they are rebuilt on arrival.
        return RuleSet, (
            self.edition,
            self.format,
            self.actions,
            self.characters,
            self.fogs,
            self.trumps,
            self.setup,
            self.digest,
        )

    def action(self, action_id: str) -> Action:
        return self._actions_by_id[action_id]

    def character(self, character_id: str) -> Character:
        return self._characters_by_id[character_id]

    def debut(self, entry: Action | Character | Fog) -> Format:
        """The first format (in edition order) the entry belongs to: it sets the mark and tag."""
        return next((f for f in self.edition.formats if f.id in entry.formats), self.format)
