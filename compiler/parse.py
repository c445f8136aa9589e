"""Stage 3 — parse: a validated document → typed entries, with cost and key notation parsed.

Field conversion is table-driven and shared by edition entries and overlay edits, so an
overlay's changed cost is parsed (and its errors located) exactly like an edition's.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as node_fields
from functools import reduce
from types import MappingProxyType, NoneType
from typing import Any, TypeVar, get_args

from blackpoker.compiler.load import Document, PathKey
from blackpoker.compiler.notation import NotationError, parse_cost, parse_key
from blackpoker.runtime.rules.cards import Card, Rank, Suit, rank_from_label
from blackpoker.runtime.rules.cost import Cost
from blackpoker.runtime.rules.diagnostics import Diagnostic
from blackpoker.runtime.rules.enums import Destination, Face, Zone, destination_named, zone_named
from blackpoker.runtime.rules.model import (
    USAGE_LINE,
    Action,
    Attack,
    Character,
    CharacterTrigger,
    Combat,
    CoreRules,
    CostUnit,
    Edition,
    Fog,
    Format,
    GraveyardTop,
    Label,
    LegendBox,
    Limit,
    SizeRule,
    Speed,
    Timing,
    Trigger,
    When,
    ZoneRule,
)
from blackpoker.runtime.rules.program import (
    ABILITIES,
    STEPS,
    Abilities,
    All,
    Amount,
    AnyOf,
    Binding,
    CardRange,
    Cards,
    CausedBy,
    ChooseCount,
    Compare,
    Comparison,
    Condition,
    Core,
    Count,
    Dies,
    Event,
    FaceUp,
    Field,
    Haste,
    If,
    Is,
    Join,
    Kind,
    KindOfType,
    Mod,
    Name,
    Neg,
    Node,
    Not,
    Number,
    Only,
    Option,
    Orderer,
    OwnerOf,
    Pile,
    Player,
    PlayerName,
    PlayerRef,
    Plus,
    Points,
    Quantity,
    RankCount,
    Request,
    Requires,
    Scope,
    Shorthand,
    Size,
    State,
    Step,
    Steps,
    Sum,
    Targetable,
    TargetKind,
    TriggeredBy,
    field_types,
    prefix,
)

Fields = dict[str, Any]
N = TypeVar("N", bound=Node)
E = TypeVar("E", Action, Character, Fog)

_COMMON: dict[str, Callable[[Any], Any]] = {"updates": tuple}
_ACTION: dict[str, Callable[[Any], Any]] = {
    **_COMMON,
    "timing": Timing,
    "speed": Speed,
    "trigger": Trigger,
    "limits": lambda values: frozenset(map(Limit, values)),
    "program": tuple,
    "key_from": lambda values: tuple(map(zone_named, values)),
    "triggered_by": lambda value: _build(TriggeredBy, {"triggered_by": value}),
    "requires": lambda value: _build(Requires, {"requires": value}),
    "caused_by": lambda value: _build(CausedBy, {"caused_by": value}),
}
_CHARACTER: dict[str, Callable[[Any], Any]] = {
    **_COMMON,
    "face": Face,
    "attack": Attack,
    "size": SizeRule,
    "combat": Combat,
    "waives_cost_of": tuple,
    "waives_units": tuple,
    "waives_timing": Timing,
    "labels": tuple,
    "untargetable_by": tuple,
    "suits": lambda values: tuple(map(Suit, values)),
    "triggers": lambda items: tuple(
        CharacterTrigger(
            When(t["when"]),
            t["request"],
            _ranks(t.get("for_each_card", ())),
            t.get("action", ""),
            t.get("targets_card", False),
        )
        for t in items
    ),
}


_FOG: dict[str, Callable[[Any], Any]] = _COMMON


@dataclass(frozen=True, slots=True)
class Edits:
    """An overlay's edits of one list (actions or characters)."""

    add: tuple[Any, ...] = ()
    change: Mapping[str, Fields] = field(default_factory=lambda: MappingProxyType({}))
    remove: tuple[str, ...] = ()
    take: tuple[str, ...] = ()  # entries of bigger formats of the edition that join as they are


@dataclass(frozen=True, slots=True)
class EditionSource:
    doc: Document
    edition: Edition
    actions: tuple[Action, ...]
    characters: tuple[Character, ...]
    fogs: tuple[Fog, ...] = ()
    # a based edition: its base, and its own file as written (with its `extra:` and
    # `regulations:` edits of what it inherits from the base)
    base: EditionSource | None = None
    edits: Document | None = None
    # the entries by id, made once: the checks look a name up per entry they check, so a
    # list of n entries is checked in time linear in n (the last of duplicate ids, reported)
    action_by_id: Mapping[str, Action] = field(init=False, repr=False, compare=False)
    character_ids: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "action_by_id", {a.id: a for a in self.actions})
        object.__setattr__(self, "character_ids", frozenset(c.id for c in self.characters))


@dataclass(frozen=True, slots=True)
class OverlaySource:
    doc: Document
    format: Format
    edition_id: str
    description: str
    actions: Edits
    characters: Edits
    sections: tuple[str, ...] = ()  # added after the edition's, for this format's sheet
    action_types: tuple[str, ...] = ()
    abilities: Abilities = ()  # always on in its format, after the edition's
    extra: str | None = None  # with base: extra, its extra list (a built-in id or a file); None: the newest


Source = EditionSource | OverlaySource


def parse(doc: Document) -> tuple[Source | None, list[Diagnostic]]:
    problems: list[Diagnostic] = []
    data = doc.data
    source: Source
    if data["kind"] == "edition":
        edition = _edition(doc, problems)
        order = [f.id for f in edition.formats]

        def entries(name: str, build: type[E], table: Mapping[str, Callable[[Any], Any]]) -> tuple[E, ...]:
            return tuple(
                build(**{"formats": (), "key": None, **_fields(doc, (name, i), raw, table, problems, order)})
                for i, raw in enumerate(data.get(name, ()))
            )

        source = EditionSource(
            doc,
            edition,
            entries("actions", Action, _ACTION),
            entries("characters", Character, _CHARACTER),
            entries("fogs", Fog, _FOG),
        )
    else:
        source = OverlaySource(
            doc,
            Format(data["name"], data.get("title", data["name"]), data.get("mark", "◇"), data["base"]),
            data["edition"],
            data.get("description", ""),
            _edits(doc, "actions", Action, _ACTION, problems),
            _edits(doc, "characters", Character, _CHARACTER, problems),
            tuple(data.get("sections", ())),
            tuple(data.get("action_types", ())),
            parse_abilities(doc, ("abilities",), data.get("abilities", ()), problems),
            data.get("extra"),
        )
    # A broken field is left out of its entry, so the source is still checked and its
    # problems reported with these; it is never linked (the caller refuses the file).
    return source, problems


def notation_problems(doc: Document) -> list[Diagnostic]:
    """Cost and key errors anywhere in a document, even one whose structure is invalid,
    so that one run reports them together with the schema's findings. A program's `key` is
    the name of bound cards (`request: {key: armour}`), not notation: programs are skipped."""
    problems: list[Diagnostic] = []

    def walk(value: Any, path: PathKey) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("cost", "key") and isinstance(item, str):
                    _notation(doc, (*path, key), item, problems)
                elif key != "program":
                    walk(item, (*path, key))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, (*path, i))

    walk(doc.data, ())
    return problems


def _edition(doc: Document, problems: list[Diagnostic]) -> Edition:
    data = doc.data
    return Edition(
        id=data["id"],
        title=data["title"],
        published=data["published"],
        magazine=data.get("magazine", ""),
        copyright=data.get("copyright", ""),
        formats=tuple(Format(f["id"], f["name"], f["mark"]) for f in data["formats"]),
        sections=tuple(data["sections"]),
        action_types=tuple(data["action_types"]),
        character_types=tuple(data["character_types"]),
        cost_units=tuple(CostUnit(u["unit"], u["name"], u["text"]) for u in data["cost_units"]),
        core=CoreRules(
            **{
                **data["core"],
                "zones": tuple(ZoneRule.read(z) for z in data["core"].get("zones", ())),
                "graveyard_top": GraveyardTop(data["core"].get("graveyard_top", GraveyardTop.LAST_IN)),
            }
        ),
        legend=tuple(LegendBox(box["title"], tuple(box["lines"])) for box in data.get("legend", ())),
        labels=tuple(Label(label["id"], label["name"]) for label in data.get("labels", ())),
        fog_types=tuple(data.get("fog_types", ())),
        usage_line=tuple(data.get("usage_line", USAGE_LINE)),
        usage_separator=data.get("usage_separator", "・"),
        abilities=parse_abilities(doc, ("abilities",), data.get("abilities", ()), problems),
    )


def _edits(
    doc: Document,
    name: str,
    build: Callable[..., Any],
    table: Mapping[str, Callable[[Any], Any]],
    problems: list[Diagnostic],
) -> Edits:
    raw = doc.data.get(name, {})
    added = []
    for i, entry in enumerate(raw.get("add", ())):
        fields = _fields(doc, (name, "add", i), entry, table, problems)
        fields.setdefault("formats", ())
        fields.setdefault("since", "")
        fields.setdefault("key", None)  # a character's, when its notation was broken
        added.append(build(**fields))
    changes = {
        entry_id: _fields(doc, (name, "change", entry_id), entry, table, problems)
        for entry_id, entry in raw.get("change", {}).items()
    }
    return Edits(
        tuple(added), MappingProxyType(changes), tuple(raw.get("remove", ())), tuple(raw.get("take", ()))
    )


def setup_action(doc: Document, path: PathKey, raw: Mapping[str, Any], problems: list[Diagnostic]) -> Action:
    """A set-up: an action no player requests, run for each player before the game (the
    extra format's trumps, a frame's chosen cards)."""
    fields = _fields(doc, path, raw, _ACTION, problems)
    return Action(
        **{
            "type": "",
            "section": "",
            "formats": (),
            "timing": Timing.QUICK,
            "speed": Speed.IMMEDIATE,
            **fields,
        },
        trigger=Trigger.EFFECT,
    )


def _fields(
    doc: Document,
    path: PathKey,
    raw: Mapping[str, Any],
    table: Mapping[str, Callable[[Any], Any]],
    problems: list[Diagnostic],
    order: Sequence[str] = (),
) -> Fields:
    """The typed fields of one entry; `format` also gives `formats`, the formats of `order`
    from it on (none when the format is unknown: link reports it)."""
    fields: Fields = {}
    for key, value in raw.items():
        if key == "format":
            fields["format"] = value
            fields["formats"] = tuple(order[order.index(value) :]) if value in order else ()
        elif key in ("cost", "key"):
            before = len(problems)
            parsed = _notation(doc, (*path, key), value, problems)
            if len(problems) == before:  # a broken one is left out: the rest is still checked
                fields[key] = parsed
        elif key == "abilities":
            fields[key] = parse_abilities(doc, (*path, key), value, problems)
        elif key == "program":
            fields["program"] = tuple(value)
            fields["steps"] = parse_steps(value)
        else:
            fields[key] = table.get(key, _same)(value)
    return fields


def parse_steps(raw: Sequence[Any]) -> Steps:
    """A validated program → its typed tree (the schema guarantees the shapes)."""
    return tuple(_step(item) for item in raw)


def _step(item: Mapping[str, Any]) -> Step:
    if "if" in item:
        return _build(If, item)
    op, value = next(iter(item.items()))
    if STEPS[op] is Request and isinstance(value, str):  # the short form `request: ID`
        return Request(action=value, short=True)
    return _build(STEPS[op], item)


def parse_abilities(
    doc: Document, path: PathKey, raw: Sequence[Any], problems: list[Diagnostic]
) -> Abilities:
    """Validated continuous abilities → their typed nodes (each entry has one word); a cost a
    `change` sets is parsed like an action's, its errors located."""
    return tuple(
        _build(ABILITIES[next(iter(item))], _costs_parsed(doc, (*path, i), item, problems))
        for i, item in enumerate(raw)
    )


def _costs_parsed(doc: Document, path: PathKey, item: Mapping[str, Any], problems: list[Diagnostic]) -> Any:
    changed = item.get("change", {})
    if changed.get("number") != Quantity.COST or not isinstance(changed.get("set"), str):
        return item
    return {
        "change": {
            **changed,
            "set": _notation(doc, (*path, "change", "set"), changed["set"], problems, parse_cost),
        }
    }


_NUMBERS: Mapping[str, type[Node]] = MappingProxyType(
    {
        "sum": Sum,
        "count": Count,
        "size": Size,
        "core": Core,
        "mod": Mod,
        "neg": Neg,
        "plus": Plus,
        "points": Points,
    }
)
_CONDITIONS: Mapping[str, type[Node]] = MappingProxyType(
    {"all": All, "any": AnyOf, "not": Not, "is": Is, "face_up": FaceUp, "targetable": Targetable}
)


def _build(cls: type[N], data: Any) -> N:
    """A node from the data written at its place: each field is read at its `at` path with
    the reader of its type; a field the data leaves out keeps its default."""
    values = {}
    for name, path, read in _PLANS[cls]:
        value = data
        for key in (*prefix(cls), *path):
            if not isinstance(value, dict | list) or (isinstance(value, dict) and key not in value):
                break
            value = value[key]
        else:
            values[name] = read(value)
    return cls(**values)


def _name(value: str) -> Name:
    return Name(name=value)


def _player(value: str | dict[str, Any]) -> PlayerRef:
    return Player(name=PlayerName(value)) if isinstance(value, str) else _build(OwnerOf, value)


def _cards(value: str | list[Any] | dict[str, Any]) -> Cards:
    if isinstance(value, str):
        return Name(name=value)
    if isinstance(value, list):
        return Join(items=tuple(map(_cards, value)))
    if "zone" in value:
        return _build(Pile, value)
    if "of" in value:
        return _build(Only, value)
    side, least, state = value["field"], value.get("at_least"), value.get("state")
    return Field(
        side=None if side == "all" else _player(side),
        type=value.get("type"),
        at_least=None if least is None else _number(least),
        state=None if state is None else State(state),
    )


def _number(value: int | dict[str, Any]) -> Number:
    if isinstance(value, int):
        return value
    built = _build(_NUMBERS[next(k for k in value if k in _NUMBERS)], value)
    assert isinstance(built, Sum | Count | Size | Core | Mod | Neg | Plus | Points)
    return built


def _condition(value: dict[str, Any]) -> Condition:
    ((word, arg),) = value.items()
    if word in _CONDITIONS:
        built = _build(_CONDITIONS[word], value)
        assert isinstance(built, All | AnyOf | Not | Is | FaceUp | Targetable)
        return built
    left, right = arg
    return Compare(op=Comparison(word), left=_number(left), right=_number(right))


def _card_range(value: str) -> CardRange:
    """`♠2〜10`, `J〜K` or `♡4` (the schema checks the shape; the linker, the order)."""
    suit = Suit(value[0]) if value[0] in "♠♡♢♣" else None
    low, _, high = value.removeprefix(suit.value if suit else "").partition("〜")
    ranks = [rank_from_label(label) or 0 for label in (low, high or low)]
    return CardRange(suit=suit, low=ranks[0], high=ranks[1])


def _ranks(values: Sequence[str]) -> tuple[Rank, ...]:
    return tuple(map(Rank.parse, values))


def _kind(value: str | dict[str, Any]) -> Kind:
    return value if isinstance(value, str) else _build(KindOfType, value)


# The reader of each field type the program nodes use, keyed by the type itself (an optional
# field, `X | None`, is read as X).
_READERS: Mapping[Any, Callable[[Any], Any]] = MappingProxyType(
    {
        str: str,
        Binding: str,
        bool: bool,
        int: int,
        int | Cost: lambda value: value,  # a cost set is parsed, located, beforehand
        Shorthand: lambda value: not isinstance(value, dict),
        tuple[int, ...]: tuple,
        tuple[str, ...]: tuple,
        Card: Card.parse,
        tuple[Card, ...]: lambda items: tuple(map(Card.parse, items)),
        Suit: Suit,
        tuple[Rank, ...]: _ranks,
        PlayerName: PlayerName,
        State: State,
        Face: Face,
        Comparison: Comparison,
        Zone | str: zone_named,
        Destination | str: destination_named,
        TargetKind: TargetKind,
        Scope: Scope,
        Quantity: Quantity,
        Dies: Dies,
        Event: Event,
        Name: _name,
        PlayerRef: _player,
        Cards: _cards,
        tuple[Cards, ...]: lambda items: tuple(map(_cards, items)),
        Number: _number,
        ChooseCount: lambda value: Amount(value) if isinstance(value, str) else _number(value),
        PlayerRef | Orderer: lambda value: Orderer(value) if value in tuple(Orderer) else _player(value),
        CardRange: _card_range,
        Condition: _condition,
        tuple[Condition, ...]: lambda items: tuple(map(_condition, items)),
        Kind: _kind,
        Steps: parse_steps,
        tuple[Option, ...]: lambda items: tuple(_build(Option, item) for item in items),
        tuple[Haste, ...]: lambda items: tuple(_build(Haste, item) for item in items),
        tuple[Number, ...]: lambda items: tuple(map(_number, items)),
        tuple[RankCount, ...]: lambda items: tuple(_build(RankCount, item) for item in items),
    }
)


def _reader(kind: Any) -> Callable[[Any], Any]:
    """The reader of a field's type; an optional one's, of the type without None."""
    if NoneType in get_args(kind):  # X | None, or Optional[X] when X is `Annotated`
        kind = reduce(operator.or_, [k for k in get_args(kind) if k is not NoneType])
    return _READERS[kind]


def _node_classes(cls: type[Node]) -> Iterator[type[Node]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _node_classes(sub)


# How each node class is read, found once from its fields' types: (field, where it is written
# under the node's prefix, reader).
_PLANS: Mapping[type[Node], tuple[tuple[str, tuple[Any, ...], Callable[[Any], Any]], ...]] = MappingProxyType(
    {
        cls: tuple((f.name, f.metadata["at"], _reader(types[f.name])) for f in node_fields(cls))
        for cls in _node_classes(Node)
        for types in (field_types(cls),)
    }
)


def _same(value: Any) -> Any:
    return value


def _notation(
    doc: Document,
    path: PathKey,
    text: str,
    problems: list[Diagnostic],
    parse_text: Callable[[str], Any] | None = None,
) -> Any:
    """Cost or key notation (by the field's name, unless `parse_text` is given) parsed, its
    errors located within the text."""
    parse_text = parse_text or (parse_cost if path[-1] == "cost" else parse_key)
    if path[-1] == "key" and not text.strip():
        return None
    try:
        return parse_cost(text, doc.cost_units) if parse_text is parse_cost else parse_text(text)
    except NotationError as error:
        for problem in error.problems:
            width = max(1, problem.end - problem.start)
            problems.append(
                doc.at_text(path, problem.start, width, f"{path[-1]} '{text}': {problem.message}")
            )
        return None
