"""Effect programs as a typed tree: one frozen node class per primitive and per value form.

Nodes hold only tuples, strings, ints, enums, cards and other nodes, so a rule set pickles;
cards, suits and ranks are `cards.Card`, `cards.Suit` and `cards.Rank`, printed back as the
data writes them only where a node is printed (`written`, the compiled JSON). Each
field knows where it is written in the document (`at`, relative to its node), which gives
the one walker its paths: `Node.children()` is derived from the dataclass fields, and
`walk()` yields every node with its document path, for located errors.

A field annotated `Binding` names the value a step binds (`as:`); a `Name` node is a read
of a name. The YAML key of a field is the last element of its `at`.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from enum import Enum, StrEnum
from functools import cache
from pathlib import Path
from types import MappingProxyType, SimpleNamespace
from typing import Annotated, Any, Final, get_args, get_type_hints

from blackpoker.runtime.rules.cards import Card, Rank, Suit, rank_label
from blackpoker.runtime.rules.cost import Cost
from blackpoker.runtime.rules.enums import Destination, Face, Zone
from blackpoker.runtime.rules.frozen import rebuilt_by_name

PathKey = tuple[str | int, ...]
# a name a step binds for the steps after it: a type of its own, which `binding` finds
Binding = Annotated[str, "binding"]
# whether a step is written as its one value (`request: ID`): a type of its own, which the
# parser reads from the data's shape and `written` leaves out
Shorthand = Annotated[bool, "shorthand"]


def at(*path: str | int) -> dict[str, PathKey]:
    """Field metadata: the field is written at `path` under its node's prefix."""
    return {"at": path}


def later(*path: str | int) -> dict[str, Any]:
    """`at`, for a field added after rule sets were hashed: left out of the compiled JSON
    while unset, so that the hash of a rule set without it stays what it was."""
    return {"at": path, "later": True}


class PlayerName(StrEnum):
    YOU = "you"  # the request's controller
    OPPONENT = "opponent"
    TURN_PLAYER = "turn_player"
    TARGET = "target"  # the targeted player


class State(StrEnum):
    CHARGED = "charged"
    DRIVEN = "driven"


class TargetKind(StrEnum):
    CHARACTER = "character"
    REQUEST = "request"
    PLAYER = "player"
    CARD = "card"  # a card lying in a zone whose cards have faces (a trump: 切札1枚を対象とする)


class Amount(StrEnum):
    ANY = "any"  # choose: as many as the player wants (at least `min`), then `done`


class Orderer(StrEnum):
    OWNERS = "owners"  # move: each owner orders their own cards


class Comparison(StrEnum):
    EQ = "eq"
    NE = "ne"
    LT = "lt"
    LE = "le"
    GT = "gt"
    GE = "ge"


COMPARE: dict[Comparison, Callable[[int, int], bool]] = {
    Comparison.EQ: operator.eq,
    Comparison.NE: operator.ne,
    Comparison.LT: operator.lt,
    Comparison.LE: operator.le,
    Comparison.GT: operator.gt,
    Comparison.GE: operator.ge,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Node:
    """The base of every program node; `prefix(node)` is where its own fields are written."""

    def at(self, name: str) -> PathKey:
        """Where the field `name` is written, relative to this node."""
        found = next(f for f in fields(self) if f.name == name)
        return (*prefix(self), *found.metadata["at"])

    def children(self) -> Iterator[tuple[PathKey, Node]]:
        """Each direct child node with its path relative to this node."""
        for f in fields(self):
            value = getattr(self, f.name)
            where = (*prefix(self), *f.metadata["at"])
            if isinstance(value, Node):
                yield where, value
            elif isinstance(value, tuple):
                for i, item in enumerate(value):
                    if isinstance(item, Node):
                        yield (*where, i), item

    def __reduce__(self) -> tuple[Any, ...]:
        # compiled, a frozen node refuses the fields a dataclass's own unpickling sets
        return rebuilt_by_name(self)


def field_types(cls: type[Node]) -> dict[str, Any]:
    """The type of each field of a node class, as objects (the annotations are text here):
    what the parser and `written` dispatch on. A build compiled with mypyc keeps only the
    outer class of each annotation (a union becomes `type`), so there they are read from
    this module's source, as `get_type_hints` reads the text of a pure class's."""
    if __file__.endswith(".py"):
        return get_type_hints(cls, include_extras=True)
    return source_field_types(cls)


def source_field_types(cls: type[Node]) -> dict[str, Any]:
    """`field_types` from the annotations as this module's source writes them."""
    texts = {name: text for base in reversed(cls.__mro__) for name, text in _annotated(base.__name__).items()}
    return get_type_hints(SimpleNamespace(__annotations__=texts), globals(), include_extras=True)


def _annotated(name: str) -> dict[str, str]:
    return _source_annotations().get(name, {})


@cache
def _source_annotations() -> dict[str, dict[str, str]]:
    """Each class of this module's source: its annotated names with their annotations' text."""
    tree = ast.parse(Path(__file__).with_name("program.py").read_text(encoding="utf-8"))
    return {
        node.name: {
            item.target.id: ast.unparse(item.annotation)
            for item in node.body
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
        }
        for node in tree.body
        if isinstance(node, ast.ClassDef)
    }


def walk(node: Node, path: PathKey = ()) -> Iterator[tuple[PathKey, Node]]:
    """The node and every node below it, each with its document path."""
    yield path, node
    for where, child in node.children():
        yield from walk(child, (*path, *where))


def walk_steps(steps: Sequence[Step], path: PathKey = ()) -> Iterator[tuple[PathKey, Node]]:
    """Every node of a program (a list of steps written at `path`)."""
    for i, step in enumerate(steps):
        yield from walk(step, (*path, i))


# --- values -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Name(Node):
    """A read of a name: a built-in one (key, target, …) or one bound by an earlier step."""

    name: str = field(metadata=at())


@dataclass(frozen=True, slots=True, kw_only=True)
class Player(Node):
    name: PlayerName = field(metadata=at())


@dataclass(frozen=True, slots=True, kw_only=True)
class OwnerOf(Node):
    """{owner: NAME}: the owner of the named cards or character."""

    of: Name = field(metadata=at("owner"))


PlayerRef = Player | OwnerOf


@dataclass(frozen=True, slots=True, kw_only=True)
class CardRange(Node):
    """A card filter written as a key spec's one card, `♠2〜10` or `♢J〜K` (suit optional, A=1 …
    K=13): the cards of that suit whose number lies in the range; never a Joker."""

    suit: Suit | None = field(default=None, metadata=at())
    low: int = field(metadata=at())
    high: int = field(metadata=at())

    def __str__(self) -> str:
        low, high = rank_label(self.low), rank_label(self.high)
        suit = "" if self.suit is None else self.suit.value
        return f"{suit}{low if low == high else f'{low}〜{high}'}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Field(Node):
    """{field: PLAYER}: the characters on a player's field (None: every field), maybe of one type,
    maybe only those of at least a size (`at_least`), maybe in one state."""

    side: PlayerRef | None = field(default=None, metadata=at("field"))
    type: str | None = field(default=None, metadata=at("type"))
    at_least: Number | None = field(default=None, metadata=at("at_least"))
    state: State | None = field(default=None, metadata=later("state"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Pile(Node):
    """{zone: Z, player: P}: the cards lying in a player's zone (hand, graveyard, or a zone the
    edition declares in `core.zones`, such as the fog); `face`, `suit_of` and `rank_of` keep only
    the cards lying so, of a suit or number of the named cards (choose's filters)."""

    zone: Zone | str = field(metadata=at("zone"))  # a built-in pile, or a declared zone by id
    side: PlayerRef = field(metadata=at("player"))
    face: Face | None = field(default=None, metadata=at("face"))
    suit_of: Name | None = field(default=None, metadata=at("suit_of"))
    rank_of: Name | None = field(default=None, metadata=at("rank_of"))
    card: Card | None = field(default=None, metadata=at("card"))
    match: CardRange | None = field(default=None, metadata=at("match"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Only(Node):
    """{of: NAME, card: ♣K}: those of the named cards that are this card (the key cards), or,
    with `suit_of` / `rank_of`, of a suit / a number of other named cards, or with `face`,
    lying so in their zone (切札破壊: the target, face up, of the key's suit and number)."""

    of: Name = field(metadata=at("of"))
    card: Card | None = field(default=None, metadata=at("card"))
    face: Face | None = field(default=None, metadata=at("face"))
    suit_of: Name | None = field(default=None, metadata=at("suit_of"))
    rank_of: Name | None = field(default=None, metadata=at("rank_of"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Join(Node):
    """[CARDS, CARDS, …]: what each names, together (the key cards and a named trump, put on
    the field as one character)."""

    items: tuple[Cards, ...] = field(metadata=at())


Cards = Name | Field | Pile | Only | Join


@dataclass(frozen=True, slots=True, kw_only=True)
class Sum(Node):
    of: Name = field(metadata=at("sum"))
    suit: Suit | None = field(default=None, metadata=at("suit"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Count(Node):
    of: Cards = field(metadata=at("count"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Size(Node):
    of: Name = field(metadata=at("size"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Core(Node):
    rule: str = field(metadata=at("core"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Mod(Node):
    left: Number = field(metadata=at("mod", 0))
    right: Number = field(metadata=at("mod", 1))


@dataclass(frozen=True, slots=True, kw_only=True)
class Neg(Node):
    of: Number = field(metadata=at("neg"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Plus(Node):
    items: tuple[Number, ...] = field(metadata=at("plus"))


@dataclass(frozen=True, slots=True, kw_only=True)
class RankCount(Node):
    """{ranks: [A], as: 11, else: 1}: a card of these ranks counts `as`, or `else` when `as`
    would take the running total past the limit."""

    ranks: tuple[Rank, ...] = field(metadata=at("ranks"))
    value: int = field(metadata=at("as"))
    fallback: int | None = field(default=None, metadata=at("else"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Points(Node):
    """{points: NAME, counts: [...], limit: 21}: the cards' points added up in order, each its
    number (Joker 0) unless a `counts` entry says otherwise (B・J's 合計点)."""

    of: Name = field(metadata=at("points"))
    counts: tuple[RankCount, ...] = field(default=(), metadata=at("counts"))
    limit: int | None = field(default=None, metadata=at("limit"))


Number = int | Sum | Count | Size | Core | Mod | Neg | Plus | Points
ChooseCount = Number | Amount


@dataclass(frozen=True, slots=True, kw_only=True)
class All(Node):
    items: tuple[Condition, ...] = field(metadata=at("all"))


@dataclass(frozen=True, slots=True, kw_only=True)
class AnyOf(Node):
    items: tuple[Condition, ...] = field(metadata=at("any"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Not(Node):
    of: Condition = field(metadata=at("not"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Compare(Node):
    """{eq: [N, N]} and the other comparisons: written under the comparison's word."""

    op: Comparison = field(metadata=at())
    left: Number = field(metadata=at(0))
    right: Number = field(metadata=at(1))


@dataclass(frozen=True, slots=True, kw_only=True)
class Is(Node):
    """{is: {of: NAME, type: T, state: S}}: the named character is on the field, so."""

    of: Name = field(metadata=at("of"))
    type: str | None = field(default=None, metadata=at("type"))
    state: State | None = field(default=None, metadata=at("state"))


@dataclass(frozen=True, slots=True, kw_only=True)
class FaceUp(Node):
    """{face_up: {zone: Z, card: ♠2, player: P}}: the card lies face up in the player's zone
    (default `you`): a trump whose ability is on (001 §3.11.5)."""

    zone: str = field(metadata=at("zone"))
    card: Card = field(metadata=at("card"))
    player: PlayerRef = field(default=Player(name=PlayerName.YOU), metadata=at("player"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Targetable(Node):
    """{targetable: {of: NAME, by: ACTION}}: the named character could be the action's target
    now, by its target spec without the key-card filters (its key is not chosen yet)."""

    of: Name = field(metadata=at("of"))
    by: str = field(metadata=at("by"))


Condition = All | AnyOf | Not | Compare | Is | FaceUp | Targetable


@dataclass(frozen=True, slots=True, kw_only=True)
class KindOfType(Node):
    """{type: 兵士}: for each group of cards, the first character of that type whose key takes them."""

    type: str = field(metadata=at("type"))


Kind = str | KindOfType  # a character id, or a character type


# --- steps --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Step(Node):
    """One step of a program. `word(step)` is its word in the document (`STEPS`); its fields
    are written under that word (`prefix`), except a step whose whole value is one field (`at()`)."""


Steps = tuple[Step, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Target(Step):
    """対象: the spec of what a request may target, checked again at resolution."""

    kind: TargetKind = field(metadata=at("kind"))
    side: PlayerName | None = field(default=None, metadata=at("side"))
    type: str | None = field(default=None, metadata=at("type"))
    suit_of: Name | None = field(default=None, metadata=at("suit_of"))
    no_joker: bool = field(default=False, metadata=at("no_joker"))
    key_cards: tuple[int, ...] = field(default=(), metadata=at("key_cards"))
    counterable: bool = field(default=False, metadata=at("counterable"))
    action: str | None = field(default=None, metadata=at("action"))
    has_target: bool = field(default=False, metadata=at("has_target"))
    has_key: bool = field(default=False, metadata=at("has_key"))
    match: CardRange | None = field(default=None, metadata=at("match"))  # holds such a card
    state: State | None = field(default=None, metadata=at("state"))  # a character so (ドライブ状態の)
    zone: str | None = field(default=None, metadata=at("zone"))  # kind card: the zone it lies in
    face: Face | None = field(default=None, metadata=at("face"))  # kind card: lying so (表切札)


@dataclass(frozen=True, slots=True, kw_only=True)
class Choose(Step):
    """The player picks cards of a zone (`from`), or cards or characters among named ones
    (`among`): one decision each. Not a 対象: an untargetable character may be picked."""

    player: PlayerRef = field(metadata=at("player"))
    zone: Zone | str | None = field(default=None, metadata=at("from"))
    among: Cards | None = field(default=None, metadata=at("among"))
    owner: PlayerRef | None = field(default=None, metadata=at("owner"))
    count: ChooseCount = field(default=1, metadata=at("count"))
    least: int = field(default=0, metadata=at("min"))  # with count: any, picks before `done`
    as_: Binding = field(metadata=at("as"))
    face: Face | None = field(default=None, metadata=at("face"))  # only cards lying so (a trump)
    suit_of: Name | None = field(default=None, metadata=at("suit_of"))  # only a suit of these cards
    rank_of: Name | None = field(default=None, metadata=at("rank_of"))  # only a number of these cards
    card: Card | None = field(default=None, metadata=at("card"))  # only this card (♡4)
    match: CardRange | None = field(default=None, metadata=at("match"))  # only cards so (♠2〜10)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseRequest(Step):
    """The player picks a request on the stage (not a 対象), one with as many key cards as
    `key_cards` allows and, with `single_key_at_most`, of a number at most that when it has one
    key card (策士召喚); none to pick → none. It is bound to a name."""

    player: PlayerRef = field(metadata=at("player"))
    as_: Binding = field(metadata=at("as"))
    key_cards: tuple[int, ...] = field(default=(), metadata=at("key_cards"))
    single_key_at_most: Number | None = field(default=None, metadata=at("single_key_at_most"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Top(Step):
    player: PlayerRef = field(metadata=at("player"))
    count: Number = field(metadata=at("count"))
    as_: Binding = field(metadata=at("as"))


@dataclass(frozen=True, slots=True, kw_only=True)
class PutCharacter(Step):
    cards: Cards = field(metadata=at("cards"))
    as_: Kind = field(metadata=at("as"))
    state: State = field(default=State.CHARGED, metadata=at("state"))
    face: Face | None = field(default=None, metadata=at("face"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Mount(Step):
    cards: Cards = field(metadata=at("cards"))
    onto: Name = field(metadata=at("onto"))
    as_: str = field(metadata=at("as"))  # a character id


@dataclass(frozen=True, slots=True, kw_only=True)
class Move(Step):
    cards: Cards = field(metadata=at("cards"))
    to: Destination | str = field(metadata=at("to"))  # a built-in destination, or a declared zone by id
    order: PlayerRef | Orderer | None = field(default=None, metadata=at("order"))
    as_: Binding | None = field(default=None, metadata=at("as"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn(Step):
    """Turn cards of a zone face up or face down (a trump: オープン, クローズ); `hold`: turned
    face down, they cannot turn face up again this turn (このターンが終わるまで、それは表切札に
    ならない)."""

    cards: Cards = field(metadata=at("cards"))
    face: Face = field(metadata=at("face"))
    hold: bool = field(default=False, metadata=at("hold"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Damage(Step):
    player: PlayerRef = field(metadata=at("player"))
    amount: Number = field(metadata=at("amount"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw(Step):
    player: PlayerRef = field(metadata=at("player"))
    count: Number = field(metadata=at("count"))


@dataclass(frozen=True, slots=True, kw_only=True)
class SetState(Step):
    of: Cards = field(metadata=at("of"))
    state: State = field(metadata=at("state"))


@dataclass(frozen=True, slots=True, kw_only=True)
class ModifySize(Step):
    of: Cards = field(metadata=at("of"))
    by: Number = field(metadata=at("by"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Become(Step):
    of: Cards = field(metadata=at("of"))
    as_: Kind = field(metadata=at("as"))


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaveCombat(Step):
    of: Cards = field(metadata=at())


@dataclass(frozen=True, slots=True, kw_only=True)
class Retarget(Step):
    of: Name = field(metadata=at())


@dataclass(frozen=True, slots=True, kw_only=True)
class If(Step):
    cond: Condition = field(metadata=at("if"))
    then: Steps = field(metadata=at("then"))
    otherwise: Steps = field(default=(), metadata=at("else"))


@dataclass(frozen=True, slots=True, kw_only=True)
class May(Step):
    """必要であれば: the player decides whether to do the steps."""

    player: PlayerRef = field(metadata=at("player"))
    steps: Steps = field(metadata=at("steps"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Repeat(Step):
    """While `while` holds, the player decides whether to run the steps once more (yes / no):
    B・J's ヒット / スタンド."""

    player: PlayerRef = field(metadata=at("player"))
    cond: Condition = field(metadata=at("while"))
    steps: Steps = field(metadata=at("steps"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Option(Node):
    label: str = field(metadata=at("label"))
    steps: Steps = field(metadata=at("steps"))


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseOne(Step):
    player: PlayerRef = field(metadata=at("player"))
    options: tuple[Option, ...] = field(metadata=at("options"))


@dataclass(frozen=True, slots=True, kw_only=True)
class ForEach(Step):
    """The steps once per card or character; `as` is bound inside them only."""

    in_: Cards = field(metadata=at("in"))
    as_: Binding = field(metadata=at("as"))
    steps: Steps = field(metadata=at("steps"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Reveal(Step):
    cards: Cards = field(metadata=at())


@dataclass(frozen=True, slots=True, kw_only=True)
class Shuffle(Step):
    player: PlayerRef = field(metadata=at("player"))
    zone: Zone | str = field(metadata=at("zone"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Request(Step):
    """An indirect request: `request: ID`, or `request: {action: ID, …}` that names the new
    request's target, its key cards (bound cards, or printed ones that are in no zone:
    仮想的に) and whether its controller then passes the chance."""

    action: str = field(metadata=at("action"))
    target: Name | None = field(default=None, metadata=at("target"))
    key: Name | None = field(default=None, metadata=at("key"))
    virtual_key: tuple[Card, ...] = field(default=(), metadata=at("virtual_key"))
    then_pass: bool = field(default=False, metadata=at("then_pass"))
    short: Shorthand = field(default=False, metadata=at())

    def at(self, name: str) -> PathKey:
        return prefix(self) if self.short and name == "action" else Node.at(self, name)


@dataclass(frozen=True, slots=True, kw_only=True)
class Negate(Step):
    of: Name = field(metadata=at())


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardDownTo(Step):
    player: PlayerRef = field(metadata=at("player"))
    count: Number = field(metadata=at("count"))


@dataclass(frozen=True, slots=True, kw_only=True)
class PassTurn(Step):
    """The opponent becomes the turn player (`pass_turn: {}`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Haste(Node):
    """{label: L, ranks: [A]}: a character with label L ignores 準備 (with `ranks`: only when
    one of its cards has one of those ranks)."""

    label: str = field(metadata=at("label"))
    ranks: tuple[Rank, ...] = field(default=(), metadata=at("ranks"))


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareAttackers(Step):
    """Without `label` a character's `attack` rule decides who may attack; with it, the
    character's labels do: it needs `label`, and 準備 applies unless a `haste` entry lifts it."""

    player: PlayerRef = field(metadata=at("player"))
    label: str | None = field(default=None, metadata=at("label"))
    haste: tuple[Haste, ...] = field(default=(), metadata=at("haste"))


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareBlockers(Step):
    """With `label`, only characters with that label may block."""

    player: PlayerRef = field(metadata=at("player"))
    label: str | None = field(default=None, metadata=at("label"))


@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeCombat(Step):
    """ダメージ判定 of the combat on the field (`judge_combat: {}`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DigUntil(Step):
    player: PlayerRef = field(metadata=at("player"))
    ranks: tuple[Rank, ...] = field(metadata=at("ranks"))
    as_: Binding = field(metadata=at("as"))


# Each step's word in the document (the first key of its mapping), in the order the
# documentation lists them. The words live here rather than on the classes: mypyc compiles
# a dataclass's ClassVar as a field, which a subclass cannot then set.
STEPS: Final[Mapping[str, type[Step]]] = MappingProxyType(
    {
        "target": Target,
        "choose": Choose,
        "choose_request": ChooseRequest,
        "top": Top,
        "put_character": PutCharacter,
        "mount": Mount,
        "move": Move,
        "turn": Turn,
        "damage": Damage,
        "draw": Draw,
        "set_state": SetState,
        "modify_size": ModifySize,
        "become": Become,
        "leave_combat": LeaveCombat,
        "retarget": Retarget,
        "if": If,
        "may": May,
        "repeat": Repeat,
        "choose_one": ChooseOne,
        "for_each": ForEach,
        "reveal": Reveal,
        "shuffle": Shuffle,
        "request": Request,
        "negate": Negate,
        "discard_down_to": DiscardDownTo,
        "pass_turn": PassTurn,
        "declare_attackers": DeclareAttackers,
        "declare_blockers": DeclareBlockers,
        "judge_combat": JudgeCombat,
        "dig_until": DigUntil,
    }
)


class Event(StrEnum):
    """What happens in a game that may trigger an action (`triggered_by.event`)."""

    TURNED_FACE_UP = "turned_face_up"  # the action's own trump turned face up (its ability is on)
    DISCARDED = "discarded"  # a player discarded cards of their hand (a cost, an effect)
    UNBLOCKED = "unblocked"  # ダメージ判定 of an attacker no one blocked
    BULWARK_FELL = "bulwark_fell"  # ダメージ判定 sent a blocking bulwark to the graveyard


@dataclass(frozen=True, slots=True, kw_only=True)
class TriggeredBy(Node):
    """誘発条件 as data: the action triggers when a request of the action `resolved` has
    resolved, when the action `requested` is requested (起こした場合: 起こす is to request, 002
    §6.2.1.5), or when the `event` happens, for `player` (turn_player, or you / opponent: the
    resolved or made request's controller, or the player the event is about, or their
    opponent), if `cond` holds then (read like that request's program's own conditions).
    `card`: the card whose turning face up triggers it (the extra format fills in the action's
    trump)."""

    resolved: str | None = field(default=None, metadata=at("resolved"))
    requested: str | None = field(default=None, metadata=at("requested"))
    event: Event | None = field(default=None, metadata=later("event"))
    card: Card | None = field(default=None, metadata=later("card"))
    player: PlayerName = field(default=PlayerName.TURN_PLAYER, metadata=at("player"))
    cond: Condition | None = field(default=None, metadata=at("if"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Requires(Node):
    """起動条件 as data: the action can be requested only while the condition holds, read for
    the requesting player (`you`) before there is a request, so it names no cards of one."""

    cond: Condition = field(metadata=at())


@dataclass(frozen=True, slots=True, kw_only=True)
class CausedBy(Node):
    """兵士起因 as data: the action is requested by driving one of the requester's charged
    characters that fits every filter given: its type, a suit one of its cards has, its
    character id (`kind`). The program names that character `source`."""

    type: str | None = field(default=None, metadata=at("type"))
    suit: Suit | None = field(default=None, metadata=at("suit"))
    kind: str | None = field(default=None, metadata=at("kind"))


# --- continuous abilities -------------------------------------------------------------------


class Scope(StrEnum):
    """What an ability reaches (002 §6.4.2): abilities apply all → your → this, each scope by
    timestamp, so the narrower and the newer one has the last word."""

    ALL = "all"  # every player, every character
    YOUR = "your"  # its owner and their characters
    THIS = "this"  # the character that carries it


class Quantity(StrEnum):
    """The numbers a `change` ability changes."""

    HAND_LIMIT = "hand_limit"  # a player's (core.hand_limit)
    SIZE = "size"  # a character's
    COST = "cost"  # an action's, as its requester pays it
    USES_PER_TURN = "uses_per_turn"  # how often a once-per-turn action may be requested a turn


class Dies(StrEnum):
    SMALLER = "smaller"
    LARGER = "larger"


@dataclass(frozen=True, slots=True, kw_only=True)
class Ability(Node):
    """One continuous ability: on while its trump lies face up, its character is on the
    field, or always (an edition's). `scope` None takes its source's (trump: your,
    character: this, edition: all). `word(ability)` is its word in the document (`ABILITIES`)."""

    scope: Scope | None = field(default=None, metadata=at("scope"))


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeNumber(Ability):
    """Kind (c): `set` the number, then `add` to it; a size only of characters of `type`; a
    cost or a use limit only of `action`. A cost is `set` to units (its notation parsed), then
    its `waive` units are not paid."""

    number: Quantity = field(metadata=at("number"))
    set_to: int | Cost | None = field(default=None, metadata=at("set"))
    add: int = field(default=0, metadata=at("add"))
    type: str | None = field(default=None, metadata=at("type"))
    action: str | None = field(default=None, metadata=later("action"))
    waive: tuple[str, ...] | None = field(default=None, metadata=later("waive"))


@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeSoldiers(Ability):
    """Kind (d): ダメージ判定 of soldiers against soldiers (one attacker against the sum of its
    blockers): which side `dies` (both on a tie), and whether the difference is `damage` to
    the player whose soldier died. The defaults are the printed rule."""

    dies: Dies = field(default=Dies.SMALLER, metadata=at("dies"))
    damage: bool = field(default=False, metadata=at("damage"))


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplaceEffect(Ability):
    """Kind (d): a request of `action` that starts to resolve while `cond` holds (read for the
    ability's owner) runs `steps` instead of its own program."""

    action: str = field(metadata=at("action"))
    cond: Condition | None = field(default=None, metadata=at("if"))
    steps: Steps = field(metadata=at("program"))


@dataclass(frozen=True, slots=True, kw_only=True)
class PreventDamage(Ability):
    """Kind (d): the effect of a request of the owner's `by` player (with a key card of
    `key_suit`) deals the owner no damage, when `cond` held as it started to resolve."""

    by: PlayerName = field(default=PlayerName.OPPONENT, metadata=at("by"))
    key_suit: Suit | None = field(default=None, metadata=at("key_suit"))
    cond: Condition | None = field(default=None, metadata=at("if"))


# Each continuous ability's word in the document (as `STEPS`).
ABILITIES: Final[Mapping[str, type[Ability]]] = MappingProxyType(
    {
        "change": ChangeNumber,
        "judge_soldiers": JudgeSoldiers,
        "replace_effect": ReplaceEffect,
        "prevent_damage": PreventDamage,
    }
)
_WORDS: Final[dict[type[Node], str]] = {cls: word for word, cls in (*STEPS.items(), *ABILITIES.items())}
# Where each node class writes its own fields: under its word, but for the steps written
# beside it (`if:` with `then:`, a step without fields) and the nodes written at their place.
_PREFIXES: Final[dict[type[Node], PathKey]] = {
    **{cls: (word,) for cls, word in _WORDS.items() if cls not in (If, PassTurn, JudgeCombat)},
    Is: ("is",),
    FaceUp: ("face_up",),
    Targetable: ("targetable",),
    TriggeredBy: ("triggered_by",),
    Requires: ("requires",),
    CausedBy: ("caused_by",),
}


def word(node: Step | Ability | type[Step | Ability]) -> str:
    """A step's or a continuous ability's word in the document (of its class, or of it)."""
    return _WORDS[node if isinstance(node, type) else type(node)]


def prefix(node: Node | type[Node]) -> PathKey:
    """Where a node's own fields are written, relative to it: a comparison's under its
    operator ({ge: [N, N]})."""
    if isinstance(node, Compare):
        return (node.op.value,)
    return _PREFIXES.get(node if isinstance(node, type) else type(node), ())


Abilities = tuple[Ability, ...]


def binding(step: Step) -> str | None:
    """The name a step binds for the steps after it (a for_each's name is bound inside only)."""
    if isinstance(step, ForEach):
        return None
    types = field_types(type(step))
    found = next(
        (f for f in fields(step) if types[f.name] == Binding or Binding in get_args(types[f.name])), None
    )
    return None if found is None else getattr(step, found.name)


def reads(node: Node, path: PathKey = ()) -> Iterator[tuple[PathKey, Name]]:
    """The names a step reads itself (not those its nested steps read), with their paths."""
    for where, child in node.children():
        if isinstance(child, Name):
            yield (*path, *where), child
        elif not isinstance(child, Step | Option):
            yield from reads(child, (*path, *where))


def branches(step: Step) -> tuple[tuple[PathKey, Steps], ...]:
    """The nested step lists of a step, each with its path under the step: at most one of
    them runs (a for_each runs its steps any number of times, maybe none)."""
    if isinstance(step, If):
        return (step.at("then"), step.then), (step.at("otherwise"), step.otherwise)
    if isinstance(step, May | ForEach | Repeat):
        return ((step.at("steps"), step.steps),)
    if isinstance(step, ChooseOne):
        return tuple(((*step.at("options"), i, "steps"), o.steps) for i, o in enumerate(step.options))
    return ()


def written(value: Any) -> Any:
    """A node as it is written in the data (what parsing reads back to the same node), the
    fields at their defaults left out: what an explanation quotes to the rules' author."""
    if isinstance(value, Card | Rank):  # as the data writes them: ♡4, Joker, A
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [written(item) for item in value]
    if not isinstance(value, Node):
        return value
    if isinstance(value, CardRange):  # written as one card of a key spec
        return str(value)
    # a step without fields is its word over an empty mapping ({pass_turn: {}}); the fields of
    # both sides are written `field: all`
    own = prefix(value)
    head = own or ((word(value),) if isinstance(value, Step) else ())
    tree: Any = _put(None, head, {}) if head else None
    if isinstance(value, Field) and value.side is None:
        tree = {"field": "all"}
    types = field_types(type(value))
    for f in fields(value):
        if types[f.name] == Shorthand:  # how the step is written, which `at` already says
            continue
        item = getattr(value, f.name)
        path = value.at(f.name)
        is_word = path == own != () and written(item) == path[-1]  # a comparison's op
        if not is_word and (f.default is MISSING or item != f.default):
            tree = _put(tree, path, written(item))
    return tree


def _put(tree: Any, path: PathKey, value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        items = list(tree) if isinstance(tree, list) else []
        items += [None] * (head + 1 - len(items))
        items[head] = _put(items[head], rest, value)
        return items
    mapping = dict(tree) if isinstance(tree, dict) else {}
    mapping[head] = _put(mapping.get(head), rest, value)
    return mapping


def notation(value: Any) -> str:
    """A node on one line in the data's flow notation: {ge: [{count: {zone: trump}}, 1]}."""
    data = written(value)
    if isinstance(data, dict):
        return "{" + ", ".join(f"{k}: {notation(v)}" for k, v in data.items()) + "}"
    if isinstance(data, list):
        return "[" + ", ".join(map(notation, data)) + "]"
    if isinstance(data, bool):
        return str(data).lower()
    return str(data)
