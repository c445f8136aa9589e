"""Stage 2 — validate: check a loaded document against the JSON Schema of its kind.

Every violation is reported, located at the offending value (or key), naming the field
and what was expected.

Two implementations of JSON Schema share the work. jsonschema-rs tells whether a document
keeps every rule of its schema, a hundred times faster than the Python one (a shipped edition
in well under a millisecond against tens of them); only a document it refuses is walked by
python-jsonschema, whose errors carry the paths and the schema rules that the located messages
are made of (and which is imported only then). Where the two read a rule differently, the
Rust one must be the stricter: a pattern's whitespace class is Unicode White_Space there,
which lacks the separators U+001C-U+001F that Python's has, so the schemas name them beside it
(tests/test_validate_agreement.py holds both to the same verdicts). A document the Rust one
refuses and the Python one accepts (`$` before a final line break, which only Python lets
match) gives no problem, as before.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import jsonschema_rs
from blackpoker.compiler.load import Document, PathKey
from blackpoker.runtime.rules.cards import with_suit_symbols
from blackpoker.runtime.rules.diagnostics import Diagnostic, did_you_mean, nearest

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator, ValidationError

KINDS = (
    "edition",
    "overlay",
    "extra",
    "deck",
    "regulations",
)  # the kinds the compiler reads; scenarios have a loader of their own
_SCHEMA_FILES = ("defs.schema.json", *(f"{kind}.schema.json" for kind in (*KINDS, "scenario")))
# The address the schemas stand at for jsonschema-rs, which resolves a `$ref` to another file
# ("defs.schema.json#/$defs/id") against the address of the schema it is in. Nothing is
# fetched from it: every schema is in the registry, and the validators run offline.
_HOME = "file:///blackpoker/schema/"


@cache
def _schemas() -> dict[str, dict[str, Any]]:
    folder = resources.files("blackpoker.schema")
    return {name: json.loads(folder.joinpath(name).read_text(encoding="utf-8")) for name in _SCHEMA_FILES}


@cache
def validator(kind: str) -> Draft202012Validator:
    """python-jsonschema's validator of `kind`, whose errors the located messages are made of."""
    from jsonschema import Draft202012Validator  # for a document with problems only
    from referencing import Registry, Resource

    schemas = _schemas()
    registry: Registry = Registry().with_resources(
        (name, Resource.from_contents(schema)) for name, schema in schemas.items()
    )
    return Draft202012Validator(schemas[f"{kind}.schema.json"], registry=registry)


@cache
def _checker(kind: str) -> jsonschema_rs.Validator:
    """jsonschema-rs's validator of `kind`: whether a document keeps every rule of it."""
    schemas = _schemas()
    registry = jsonschema_rs.Registry([(_HOME + name, schema) for name, schema in schemas.items()])
    home = f"{_HOME}{kind}.schema.json"
    return jsonschema_rs.Draft202012Validator(
        schemas[f"{kind}.schema.json"], registry=registry, base_uri=home, offline=True
    )


def keeps_schema(kind: str, data: Any) -> bool:
    """Whether `data` keeps every rule of the schema of `kind`, as jsonschema-rs reads them."""
    try:
        return _checker(kind).is_valid(data)
    except (ValueError, TypeError, OverflowError):  # a value JSON has no type for (a !!binary
        return False  # scalar's bytes): python-jsonschema says what is wrong


def validate(doc: Document) -> list[Diagnostic]:
    data = doc.data
    if not isinstance(data, dict):
        return [doc.at((), f"expected a mapping at the top of the file, got {_type_name(data)}")]
    kind = data.get("kind")
    if kind not in KINDS:
        where: PathKey = ("kind",) if "kind" in data else ()
        got = f"'{kind}'" if "kind" in data else "nothing"
        return [doc.at(where, f"kind: expected one of {', '.join(KINDS)}; got {got}")]
    return schema_problems(doc, kind)


def schema_problems(doc: Document, kind: str) -> list[Diagnostic]:
    """Every violation of the JSON Schema of `kind`, located at the offending value or key."""
    if keeps_schema(kind, doc.data):
        return []
    errors = [
        error
        for error in _leaf_errors(validator(kind).iter_errors(doc.data), kind)
        if not _only_known_keys(error, _home(kind, error))
    ]
    dedented = _dedented(doc, errors)
    problems = [
        p for e in errors if e.validator not in _UNKNOWN_KEY for p in _missing(doc, e, kind, dedented)
    ]
    for error in (e for e in errors if e.validator in _UNKNOWN_KEY):
        path: PathKey = tuple(error.absolute_path)
        problems += [
            _dedent_problem(doc, (*path, key), entry)
            for key, entry in dedented.items()
            if key in error.instance and entry[: len(path)] == path
        ]
        if set(error.instance) - set(_allowed_keys(error.schema, _home(kind, error))) - set(dedented):
            problems.append(_diagnostic(doc, error, _home(kind, error), skip=frozenset(dedented)))
    return problems


_UNKNOWN_KEY = ("additionalProperties", "unevaluatedProperties")


def _dedented(doc: Document, errors: list[ValidationError]) -> dict[str, PathKey]:
    """The unknown keys of a mapping that the entry written above them in it lacks: a field
    indented too little, read by YAML as a key of the mapping that holds the entry (key → entry)."""
    missing = {(tuple(e.absolute_path), e.message.split("'")[1]) for e in errors if e.validator == "required"}
    found: dict[str, PathKey] = {}
    for error in (e for e in errors if e.validator in _UNKNOWN_KEY and isinstance(e.instance, dict)):
        path = tuple(error.absolute_path)
        for key in error.instance:
            line = doc.locate((*path, key), key=True).line
            above = [
                entry
                for entry, name in missing
                if name == key
                and len(entry) > len(path)
                and entry[: len(path)] == path
                and doc.locate(entry).line < line
            ]
            if above:
                found[str(key)] = max(above, key=lambda entry: doc.locate(entry).line)
    return found


def _missing(
    doc: Document, error: ValidationError, kind: str, dedented: dict[str, PathKey]
) -> list[Diagnostic]:
    """The problem of a violation other than an unknown key; none for a missing key written,
    indented too little, below its entry (that line has the problem)."""
    path = tuple(error.absolute_path)
    if error.validator == "required" and dedented.get(error.message.split("'")[1]) == path:
        return []
    return [_diagnostic(doc, error, _home(kind, error))]


def _dedent_problem(doc: Document, at: PathKey, entry: PathKey) -> Diagnostic:
    where = doc.locate(at, key=True)
    fields = sorted(
        (doc.keys[p] for p in doc.keys if len(p) == len(entry) + 1 and p[: len(entry)] == entry),
        key=lambda m: m.line,
    )
    column = fields[0].column if fields else where.col - 1
    holder = _field(at[:-1], doc.data)
    message = (
        f"{_field(entry, doc.data)}: '{at[-1]}' is indented {where.col - 1} spaces, so YAML reads it as a key"
        f" of {holder}; as a field of the entry above, indent it {column} spaces"
    )
    line = doc.line(where.line)
    return Diagnostic(where, message, line, before=doc.line(where.line - 1) or None)


def without_broken(doc: Document) -> Document | None:
    """The document with each field the schema refuses left out, so that the rest of the file is
    still parsed and checked (every problem in one run): inside an entry of a list (an action,
    a character, an edit of one), its whole field (`cost`, `program`), else the refused key. An
    entry that cannot do without the field is left out whole. None when what is left is still
    invalid: a part the file cannot do without."""
    kind = doc.data.get("kind") if isinstance(doc.data, dict) else None
    if kind not in KINDS:
        return None
    data = copy.deepcopy(doc.data)
    for path in _refused(doc.data, kind):
        _drop(data, _field_of(path))
    entries = {_entry_of(path) for path in _refused(data, kind)}
    if None in entries:
        return None
    values, keys = dict(doc.values), dict(doc.keys)
    for entry in sorted((e for e in entries if e is not None), reverse=True):  # later items first
        _drop(data, entry)
        if isinstance(entry[-1], int):
            values, keys = _renumbered(values, entry), _renumbered(keys, entry)
    if next(validator(kind).iter_errors(data), None) is not None:
        return None
    return replace(doc, data=data, values=values, keys=keys)


def _refused(data: Any, kind: str) -> Iterator[PathKey]:
    """The paths of the values the schema refuses (of each unknown key, the key's)."""
    for error in _leaf_errors(validator(kind).iter_errors(data), kind):
        home = _home(kind, error)
        if _only_known_keys(error, home):
            continue
        path = tuple(error.absolute_path)
        if error.validator in ("additionalProperties", "unevaluatedProperties"):
            allowed = set(_allowed_keys(error.schema, home)) if isinstance(error.schema, dict) else set()
            yield from ((*path, key) for key in error.instance if key not in allowed)
        else:
            yield path


def _entry_of(path: PathKey) -> PathKey | None:
    """The entry of a list a path is in (`actions[3]`, `actions.add[0]`, `actions.change.up`)."""
    if len(path) > 1 and isinstance(path[1], int):
        return path[:2]
    if len(path) > 2 and path[1] in ("add", "change"):
        return path[:3]
    return None


def _field_of(path: PathKey) -> PathKey:
    """The field a refused value stands in: an entry's field (`actions[3].program`,
    `actions.change.up.timing`), else the path up to its last key."""
    entry = _entry_of(path)
    if entry is not None and len(path) > len(entry):
        return path[: len(entry) + 1]
    while path and not isinstance(path[-1], str):
        path = path[:-1]
    return path


def _drop(data: Any, path: PathKey) -> None:
    """Leave out the value at `path`: a key of a mapping, or an item of a list."""
    for part in path[:-1]:
        if not _holds(data, part):
            return
        data = data[part]
    if path and isinstance(data, dict):
        data.pop(path[-1], None)
    elif path and isinstance(data, list) and isinstance(path[-1], int) and _holds(data, path[-1]):
        del data[path[-1]]


def _holds(data: Any, part: str | int) -> bool:
    if isinstance(data, dict):
        return part in data
    return isinstance(data, list) and isinstance(part, int) and part < len(data)


def _renumbered(table: dict[PathKey, Any], item: PathKey) -> dict[PathKey, Any]:
    """The marks once the list item at `item` is left out: its own gone, the later ones moved up."""
    n, index = len(item) - 1, item[-1]
    assert isinstance(index, int)
    moved: dict[PathKey, Any] = {}
    for path, mark in table.items():
        at = path[n] if path[:n] == item[:-1] and len(path) > n else None
        if not isinstance(at, int) or at < index:
            moved[path] = mark
        elif at > index:
            moved[(*path[:n], at - 1, *path[n + 1 :])] = mark
    return moved


def _only_known_keys(error: ValidationError, home: str) -> bool:
    """An unevaluatedProperties error whose keys are all declared: it only follows from another
    error inside the entry (a failing part of an allOf or $ref evaluates none of its keys)."""
    if error.validator != "unevaluatedProperties" or not isinstance(error.schema, dict):
        return False
    return not set(error.instance) - set(_allowed_keys(error.schema, home))


def _leaf_errors(errors: Iterator[ValidationError], kind: str) -> Iterator[ValidationError]:
    # Combinators (oneOf, anyOf, $ref chains) hide the precise failure in their context.
    for error in errors:
        if error.validator in ("oneOf", "anyOf") and error.context:
            claimed = _claiming(error, _home(kind, error))
            if claimed is None:  # no form fits the value: one line listing the forms
                yield error
            else:
                yield from _leaf_errors((e for e in error.context if e.schema_path[0] == claimed), kind)
        elif error.context:
            yield from _leaf_errors(iter(error.context), kind)
        else:
            yield error


def _claiming(error: ValidationError, home: str) -> int | None:
    """The one alternative of a oneOf that the value was meant for: the mapping form whose
    keys the value uses (or misspells) most: `{count: …}` is meant as the count form, however
    wrong inside. None when no single form claims it, e.g. text where a number goes."""
    if not isinstance(error.instance, dict):
        return None
    scores = [_closeness(error.instance, _allowed_keys(form, home)) for form in error.validator_value]
    best = max(scores, default=0)
    return scores.index(best) if best and scores.count(best) == 1 else None


def _closeness(instance: dict[Any, Any], allowed: list[str]) -> int:
    """How well a mapping's keys fit a form: 2 per key it has, 1 per misspelling of one."""
    return sum(
        2 if key in allowed else int(nearest(str(key), allowed, cutoff=0.8) is not None) for key in instance
    )


def _forms(alternatives: list[dict[str, Any]], home: str) -> str:
    """The forms of a oneOf as a reader writes them: `a whole number`, `{sum: …}`."""
    forms = []
    for alternative in alternatives:
        where, schema = _resolve(alternative["$ref"], home) if "$ref" in alternative else (home, alternative)
        if "oneOf" in schema or "anyOf" in schema:
            forms.append(_forms(schema.get("oneOf") or schema["anyOf"], where))
        elif "const" in schema:
            forms.append(f"'{schema['const']}'")
        elif "enum" in schema:
            forms.append(" or ".join(f"'{value}'" for value in schema["enum"]))
        elif schema.get("type") == "object" and schema.get("required"):
            forms.append("{" + ", ".join(f"{key}: …" for key in schema["required"]) + "}")
        else:
            forms.append(_expected(schema))
    return ", ".join(forms)


def _field(path: PathKey, data: Any) -> str:
    """`actions[3] (summonsHero).cost`: the path, with the id of each listed entry."""
    text = ""
    for part in path:
        if isinstance(part, int):
            data = data[part] if isinstance(data, list) and part < len(data) else None
            entry = data.get("id") if isinstance(data, dict) else None
            text += f"[{part}]" + (f" ({entry})" if isinstance(entry, str) else "")
        else:
            data = data.get(part) if isinstance(data, dict) else None
            text += f".{part}" if text else str(part)
    return text or "the document"


def _type_name(value: Any) -> str:
    names = {
        dict: "a mapping",
        list: "a list",
        str: "text",
        bool: "true/false",
        int: "a number",
        float: "a number",
    }
    return "nothing" if value is None else names.get(type(value), type(value).__name__)


def _allowed_keys(schema: dict[str, Any], home: str) -> list[str]:
    keys = list(schema.get("properties", {}))
    ref = schema.get("$ref", "")
    if ref:
        where, target = _resolve(ref, home)
        keys += _allowed_keys(target, where)
    for part in schema.get("allOf", ()):
        keys += _allowed_keys(part, home)
    return keys


def _resolve(ref: str, home: str) -> tuple[str, dict[str, Any]]:
    """The schema a $ref names (a local ref is in `home`), and the file it is in."""
    file, _, pointer = ref.partition("#")
    file = file or home
    return file, _pointer(_schemas()[file], pointer)


def _pointer(schema: Any, pointer: str) -> Any:
    for part in pointer.strip("/").split("/") if pointer.strip("/") else ():
        schema = schema[part]
    return schema


def _home(kind: str, error: ValidationError) -> str:
    """The schema file a failing rule is written in: its path from the root schema, each $ref
    on the way (the path steps over them) followed into the file it names."""
    file = f"{kind}.schema.json"
    node: Any = _schemas()[file]
    for key in error.absolute_schema_path:
        while isinstance(node, dict) and key not in node and "$ref" in node:
            file, node = _resolve(node["$ref"], file)
        node = node[key]
    return file


def _expected(schema: dict[str, Any]) -> str:
    names = {
        "object": "a mapping",
        "array": "a list",
        "string": "text",
        "boolean": "true/false",
        "integer": "a whole number",
    }
    kinds = schema.get("type")
    if isinstance(kinds, list):
        return " or ".join(names.get(str(k), str(k)) for k in kinds)
    return names.get(str(kinds), str(kinds))


def _diagnostic(
    doc: Document, error: ValidationError, home: str, skip: frozenset[str] = frozenset()
) -> Diagnostic:
    """`home`: the schema file the failing rule is written in, for its local $refs."""
    path: PathKey = tuple(error.absolute_path)
    name = _field(path, doc.data)
    schema = error.schema if isinstance(error.schema, dict) else {}
    hint = f" ({schema['description']})" if "description" in schema else ""
    match error.validator:
        case "additionalProperties" | "unevaluatedProperties":
            allowed = _allowed_keys(schema, home)
            extra = sorted(set(error.instance) - set(allowed) - skip)
            key = extra[0] if extra else "?"
            suggestion = did_you_mean(key, allowed) or f"; allowed keys: {', '.join(allowed)}"
            others = f" (and {', '.join(extra[1:])})" if len(extra) > 1 else ""
            return doc.at((*path, key), f"{name}: unknown key '{key}'{others}{suggestion}", key=True)
        case "required":
            missing = error.message.split("'")[1]
            return doc.at(path, f"{name}: missing required key '{missing}'", key=True)
        case "enum":
            options = ", ".join(str(o) for o in error.validator_value)
            suggestion = did_you_mean(str(error.instance), [str(o) for o in error.validator_value])
            return doc.at(path, f"{name}: expected one of {options}; got '{error.instance}'{suggestion}")
        case "const":
            return doc.at(path, f"{name}: expected '{error.validator_value}'; got '{error.instance}'")
        case "type":
            expected = _expected(schema)
            return doc.at(path, f"{name}: expected {expected}, got {_type_name(error.instance)}")
        case "pattern":
            why = hint or f" (pattern {error.validator_value})"
            meant = with_suit_symbols(str(error.instance))  # a card's suit as a letter or a name
            if meant != error.instance and re.fullmatch(error.validator_value, meant):
                why += f"; did you mean '{meant}'?"
            return doc.at(path, f"{name}: '{error.instance}' is not valid{why}")
        case "not":
            return doc.at(
                path, f"{name}: a change cannot rename an entry (drop 'id'; remove it and add a new one)"
            )
        case "oneOf" | "anyOf":
            return doc.at(path, f"{name}: expected one of {_forms(error.validator_value, home)}{hint}")
        case "uniqueItems":
            return doc.at(path, f"{name}: items must not repeat")
        case "minItems":
            return doc.at(path, f"{name}: must list at least {error.validator_value} item(s)")
        case "minLength":
            return doc.at(path, f"{name}: must not be empty")
        case _:
            return doc.at(path, f"{name}: {error.message}")
