"""The two JSON Schema implementations of the validate stage give the same verdicts: a document
jsonschema-rs accepts has no problem for python-jsonschema either (compiler/validate.py lets
the Rust one's yes stand for every rule), on the shipped files, the broken files of the error
corpora, edited documents, and each schema pattern against every character class it meets.
The generated cases are derandomized, as in test_bad_input_fuzz.py: every run tries the same."""

from __future__ import annotations

import copy
import json
import re
import unicodedata
from collections.abc import Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from blackpoker.compiler.load import load_file
from blackpoker.compiler.validate import KINDS, keeps_schema, validator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).parents[1]
TESTS = Path(__file__).parent
FILES = sorted(
    {
        *(ROOT / "actionlists").rglob("*.yaml"),
        *(ROOT / "examples").rglob("*.yaml"),
        *(ROOT / "scenarios").rglob("*.yaml"),
        *(TESTS / "errors").rglob("*.yaml"),
        *(TESTS / "overlay-errors").rglob("*.yaml"),
        *(TESTS / "data").rglob("*.yaml"),
    }
)
SCHEMA_KINDS = (*KINDS, "scenario")


def _documents() -> Iterator[tuple[Path, str, Any]]:
    for path in FILES:
        doc, _ = load_file(path)
        data = doc.data if doc is not None else None
        if isinstance(data, dict) and data.get("kind") in SCHEMA_KINDS:
            yield path, str(data["kind"]), data


DOCUMENTS = list(_documents())


def python_accepts(kind: str, data: Any) -> bool:
    return next(validator(kind).iter_errors(data), None) is None


def test_the_files_cover_every_kind_valid_and_broken() -> None:
    verdicts = {(kind, python_accepts(kind, data)) for _, kind, data in DOCUMENTS}
    assert {kind for kind, _ in verdicts} == set(SCHEMA_KINDS)
    assert (("edition", False) in verdicts) and (("edition", True) in verdicts)


@pytest.mark.parametrize(
    "path, kind, data", DOCUMENTS, ids=[str(p.relative_to(ROOT)) for p, _, _ in DOCUMENTS]
)
def test_a_file_gets_the_same_verdict_from_both(path: Path, kind: str, data: Any) -> None:
    assert keeps_schema(kind, data) == python_accepts(kind, data)


SHIPPED = [(kind, data) for path, kind, data in DOCUMENTS if (ROOT / "actionlists") in path.parents]
# what an edit may put in place of a value: every JSON type, text with any character
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


def _places(data: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    yield path
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        yield from _places(value, (*path, key))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.data())
def test_an_edited_document_gets_the_same_verdict_from_both(data: st.DataObject) -> None:
    kind, shipped = data.draw(st.sampled_from(SHIPPED))
    edited = copy.deepcopy(shipped)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(_places(edited))[1:]))
        holder = edited
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = data.draw(VALUES)
    assert keeps_schema(kind, edited) == python_accepts(kind, edited)


def test_a_value_json_has_no_type_for_is_refused_by_both() -> None:
    """A `!!binary` scalar loads as bytes, which jsonschema-rs cannot read: it refuses the
    document rather than fail, and the Python validator says what is wrong."""
    kind, shipped = next((kind, data) for kind, data in SHIPPED if kind == "edition")
    edited = {**shipped, "title": b"\x00"}
    assert not keeps_schema(kind, edited) and not python_accepts(kind, edited)


def test_a_lone_surrogate_gets_the_same_verdict_from_both() -> None:
    """A YAML escape such as "\\ud800" loads as a lone surrogate, which jsonschema-rs cannot
    encode when a pattern reads it: `keeps_schema` then says no rather than fail, and the
    Python validator's verdict stands; a text no pattern reads is accepted by both."""
    kind, shipped = next((kind, data) for kind, data in SHIPPED if kind == "edition")
    titled = {**shipped, "title": "\ud800"}
    assert keeps_schema(kind, titled) and python_accepts(kind, titled)
    named = copy.deepcopy(shipped)
    named["actions"][0]["id"] = "\ud800"
    assert not keeps_schema(kind, named) and not python_accepts(kind, named)


def _patterns(schema: Any) -> Iterator[str]:
    if isinstance(schema, dict):
        if isinstance(schema.get("pattern"), str):
            yield schema["pattern"]
        for value in schema.values():
            yield from _patterns(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _patterns(value)


def _schemas() -> list[Any]:
    folder = resources.files("blackpoker.schema")
    return [json.loads(f.read_text(encoding="utf-8")) for f in folder.iterdir() if f.name.endswith(".json")]


PATTERNS = sorted({p for schema in _schemas() for p in _patterns(schema)})
# each character that a class of some regex dialect may set apart: ASCII and Latin-1 (controls,
# the separators U+001C-U+001F), every other Unicode space, and the symbols the patterns name
CHARACTERS = sorted(
    {
        *map(chr, range(0x250)),
        *(chr(c) for c in range(0x110000) if chr(c).isspace() or unicodedata.category(chr(c)) == "Zs"),
        *"★$→〜♠♡♢♣♤♥♦♧兵士召喚\u200b\ufeff",
    }
)


@cache
def _string_checker(pattern: str) -> jsonschema_rs.Validator:
    return jsonschema_rs.Draft202012Validator({"type": "string", "pattern": pattern})


def _same_match(pattern: str, text: str) -> bool:
    """Python's `re.search` and jsonschema-rs agree on the text, but where only Python's `$`
    matches before a final line break (the Rust verdict is then the stricter)."""
    python = re.search(pattern, text) is not None
    try:
        rust = _string_checker(pattern).is_valid(text)
    except UnicodeEncodeError:  # a lone surrogate: jsonschema-rs cannot read the text, and
        return True  # `keeps_schema` leaves it to python-jsonschema (the lone surrogate test)
    return rust == python or (python and text.endswith("\n"))


def _seeds(pattern: str) -> list[str]:
    """Up to three texts of the shipped files that the pattern matches."""
    texts = {t for _, data in SHIPPED for t in _texts(data)}
    return sorted(t for t in texts if re.search(pattern, t))[:3]


def _texts(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        yield from _texts(key) if isinstance(key, str) else iter(())
        yield from _texts(value)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_pattern_reads_every_character_alike(pattern: str) -> None:
    """Each character in front of, inside and after texts that the pattern matches."""
    seeds = _seeds(pattern) or [""]
    differ = [
        (seed, char)
        for seed in seeds
        for char in CHARACTERS
        for text in (char + seed, seed[:1] + char + seed[1:], seed + char)
        if not _same_match(pattern, text)
    ]
    assert differ == []


@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_a_pattern_reads_generated_texts_alike(pattern: str, data: st.DataObject) -> None:
    text = data.draw(st.from_regex(pattern, fullmatch=True) | st.text())
    at = data.draw(st.integers(0, len(text)))
    char = data.draw(st.characters() | st.sampled_from(CHARACTERS))
    assert _same_match(pattern, text)
    assert _same_match(pattern, text[:at] + char + text[at:])
