"""Stage 3 — parse: a validated document → typed entries, with cost and key notation parsed.

Field conversion is table-driven and shared by edition entries and overlay edits, so an
overlay's changed cost is parsed (and its errors located) exactly like an edition's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from blackpoker.compiler.diagnostics import Diagnostic
from blackpoker.compiler.load import Document, PathKey
from blackpoker.compiler.model import (
    Action,
    Attack,
    Character,
    CharacterTrigger,
    Combat,
    CoreRules,
    CostUnit,
    Edition,
    Face,
    Format,
    LegendBox,
    Limit,
    SizeRule,
    Speed,
    Step,
    Timing,
    Trigger,
)
from blackpoker.compiler.notation import NotationError, parse_cost, parse_key

Fields = dict[str, Any]

_COMMON: dict[str, Callable[[Any], Any]] = {"formats": tuple, "updates": tuple}
_ACTION: dict[str, Callable[[Any], Any]] = {
    **_COMMON,
    "timing": Timing,
    "speed": Speed,
    "trigger": Trigger,
    "limits": lambda values: frozenset(map(Limit, values)),
    "program": tuple,
}
_CHARACTER: dict[str, Callable[[Any], Any]] = {
    **_COMMON,
    "face": Face,
    "attack": Attack,
    "size": SizeRule,
    "combat": Combat,
    "waives_cost_of": tuple,
    "triggers": lambda items: tuple(
        CharacterTrigger(t["when"], t["request"], tuple(t["for_each_card"])) for t in items
    ),
}


@dataclass(frozen=True, slots=True)
class Edits:
    """An overlay's edits of one list (actions or characters)."""

    add: tuple[Any, ...] = ()
    change: Mapping[str, Fields] = field(default_factory=lambda: MappingProxyType({}))
    remove: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EditionSource:
    doc: Document
    edition: Edition
    actions: tuple[Action, ...]
    characters: tuple[Character, ...]


@dataclass(frozen=True, slots=True)
class OverlaySource:
    doc: Document
    format: Format
    edition_id: str
    description: str
    actions: Edits
    characters: Edits


Source = EditionSource | OverlaySource


def parse(doc: Document) -> tuple[Source | None, list[Diagnostic]]:
    problems: list[Diagnostic] = []
    data = doc.data
    source: Source
    if data["kind"] == "edition":
        source = EditionSource(
            doc,
            _edition(data),
            tuple(
                Action(**_fields(doc, ("actions", i), raw, _ACTION, problems))
                for i, raw in enumerate(data["actions"])
            ),
            tuple(
                Character(**_fields(doc, ("characters", i), raw, _CHARACTER, problems))
                for i, raw in enumerate(data["characters"])
            ),
        )
    else:
        source = OverlaySource(
            doc,
            Format(data["name"], data.get("title", data["name"]), data.get("mark", "◇"), data["base"]),
            data["edition"],
            data.get("description", ""),
            _edits(doc, "actions", Action, _ACTION, problems),
            _edits(doc, "characters", Character, _CHARACTER, problems),
        )
    return (None if problems else source), problems


def notation_problems(doc: Document) -> list[Diagnostic]:
    """Cost and key errors anywhere in a document, even one whose structure is invalid,
    so that one run reports them together with the schema's findings."""
    problems: list[Diagnostic] = []

    def walk(value: Any, path: PathKey) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("cost", "key") and isinstance(item, str):
                    _notation(doc, (*path, key), item, problems)
                else:
                    walk(item, (*path, key))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, (*path, i))

    walk(doc.data, ())
    return problems


def _edition(data: Mapping[str, Any]) -> Edition:
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
        core=CoreRules(**data["core"]),
        legend=tuple(LegendBox(box["title"], tuple(box["lines"])) for box in data.get("legend", ())),
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
        added.append(build(**fields))
    changes = {
        entry_id: _fields(doc, (name, "change", entry_id), entry, table, problems)
        for entry_id, entry in raw.get("change", {}).items()
    }
    return Edits(tuple(added), MappingProxyType(changes), tuple(raw.get("remove", ())))


def _fields(
    doc: Document,
    path: PathKey,
    raw: Mapping[str, Any],
    table: Mapping[str, Callable[[Any], Any]],
    problems: list[Diagnostic],
) -> Fields:
    fields: Fields = {}
    for key, value in raw.items():
        if key in ("cost", "key"):
            fields[key] = _notation(doc, (*path, key), value, problems)
        elif key == "program":
            fields["program"] = tuple(value)
            fields["steps"] = parse_steps(value)
        else:
            fields[key] = table.get(key, _same)(value)
    return fields


# Step keys whose value is a nested step list; the schema guarantees the shapes.
_STEP_LISTS = ("steps", "then", "else")


def parse_steps(raw: list[Any]) -> tuple[Step, ...]:
    """A validated program → typed frozen steps (an `if` step carries `then` / `else`)."""
    steps = []
    for item in raw:
        if "if" in item:
            branches = parse_steps(item["then"]), parse_steps(item.get("else", []))
            steps.append(Step("if", _freeze(item["if"]), *branches))
        else:
            ((op, arg),) = item.items()
            steps.append(Step(op, _freeze(arg)))
    return tuple(steps)


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType(
            {k: parse_steps(v) if k in _STEP_LISTS else _freeze(v) for k, v in value.items()}
        )
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _same(value: Any) -> Any:
    return value


def _notation(doc: Document, path: PathKey, text: str, problems: list[Diagnostic]) -> Any:
    parse_text = parse_cost if path[-1] == "cost" else parse_key
    if path[-1] == "key" and not text.strip():
        return None
    try:
        return parse_text(text)
    except NotationError as error:
        for problem in error.problems:
            width = max(1, problem.end - problem.start)
            problems.append(
                doc.at_text(path, problem.start, width, f"{path[-1]} '{text}': {problem.message}")
            )
        return None
