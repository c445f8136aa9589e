"""Facts about the built-in editions, read from their data, for tests that must not name them.

A test about "any edition" is parameterised over `EDITIONS`; a test that needs one edition
with some property asks `reference_edition` for the first (newest) built-in edition that has
it; entries are picked by what their programs do (`ops`) or by their fields, never by id.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import pytest
import yaml
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.rules.model import Action, RuleSet
from blackpoker.runtime.rules.program import Step, walk_steps, word
from conftest import SHARED

UPSTREAM = SHARED / "reference" / "upstream"

T = TypeVar("T")


@cache
def environment() -> Environment:
    return Environment()


EDITIONS: tuple[str, ...] = environment().builtin_editions()  # newest first


@cache
def compiled(edition: str) -> dict[str, RuleSet]:
    """Every format of a built-in edition, smallest first."""
    return environment().compile_edition(edition)


def written_out(edition: str) -> dict[str, Any]:
    """A built-in edition's data written out in full: a based edition's changes applied to its
    base's data (what it compiles from), an edition written in full as its file holds it."""
    data: dict[str, Any] = copy.deepcopy(environment().edition(edition).doc.data)
    return data


def written_in_full(edition: str) -> bool:
    """Whether the edition's own file holds every entry (no `base:`)."""
    data = yaml.safe_load(environment().builtin_path(edition).read_text(encoding="utf-8"))
    return "base" not in data


def formats(edition: str) -> list[str]:
    """The format ids of an edition, smallest first."""
    return [f.id for f in environment().edition(edition).edition.formats]


def largest(edition: str) -> RuleSet:
    return compiled(edition)[formats(edition)[-1]]


def reference_edition(has: Callable[[dict[str, RuleSet]], object] = lambda _: True) -> str:
    """The newest built-in edition whose compiled formats have the property `has`."""
    found = next((e for e in EDITIONS if has(compiled(e))), None)
    assert found is not None, "no built-in edition has the property the test needs"
    return found


def ops(steps: Iterable[Step]) -> set[str]:
    """The step words a program uses anywhere, nested steps included."""
    return {word(node) for _, node in walk_steps(tuple(steps)) if isinstance(node, Step)}


def first(entries: Iterable[T], test: Callable[[T], object]) -> T:
    found = next((e for e in entries if test(e)), None)
    assert found is not None, "no entry has the property the test needs"
    return found


def acting(ruleset: RuleSet, *words: str) -> Action:
    """The first directly requested action whose program uses every step word in `words`."""
    return first(ruleset.actions, lambda a: a.direct and set(words) <= ops(a.steps))


# --- the upstream lists -------------------------------------------------------------------


@cache  # read-only: the lists are large and many tests read them
def read_upstream(name: str) -> dict[str, Any]:
    path = UPSTREAM / name
    if not path.is_file():
        pytest.skip("the shared upstream data (../shared/reference/upstream) is not beside this checkout")
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def newest_upstream(*keys: str) -> list[str]:
    """The upstream files that have one of `keys` at the top, only the newest of each `data.ver`
    (by `lastupdate`): the list a built-in file is imported from (act-frame.yaml of 03/31 is an
    older copy of a frame list, superseded by the copy of a later lastupdate)."""
    newest: dict[str, tuple[tuple[int, ...], str]] = {}
    for path in sorted(UPSTREAM.glob("*.yaml")):
        data = read_upstream(path.name)
        if not set(keys) & set(data):
            continue
        header = data.get("data", {})
        date = tuple(int(part) for part in str(header.get("lastupdate", "0")).split("/"))
        ver = str(header.get("ver"))
        if ver not in newest or newest[ver][0] < date:
            newest[ver] = (date, path.name)
    return sorted(name for _, name in newest.values())


@cache
def upstream_lists() -> dict[str, str]:
    """{edition id: upstream list name} for each upstream list whose edition is built in: the
    list's `data.ver` is the edition's title (the extra and frame lists have titles of their own)."""
    titles = {environment().edition(e).edition.title: e for e in EDITIONS}
    found: dict[str, str] = {}
    for path in sorted(UPSTREAM.glob("*.yaml")):  # none when the shared data is not beside the checkout
        if edition := titles.get(read_upstream(path.name).get("data", {}).get("ver")):
            found[edition] = path.name
    return dict(sorted(found.items(), key=lambda item: EDITIONS.index(item[0])))  # newest first


def upstream_with(has: Callable[[dict[str, Any]], object]) -> str:
    """The upstream list, newest edition first, whose data has the property `has`."""
    if not upstream_lists():
        pytest.skip("the shared upstream data (../shared/reference/upstream) is not beside this checkout")
    found = next((name for name in upstream_lists().values() if has(read_upstream(name))), None)
    assert found is not None, "no upstream list has the property the test needs"
    return found


def upstream_entries(data: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(kind, entry) for every action, character and fog of an upstream list."""
    for kind, groups, items in (
        ("act", "actList", "acts"),
        ("char", "charList", "chars"),
        ("fog", "fogList", "fogs"),
    ):
        for group in data.get(groups) or ():
            for entry in group.get(items) or ():
                yield kind, entry


# --- seed 003 -------------------------------------------------------------------------------


def seed_edition(path: Path) -> tuple[str, str]:
    """(edition id, format id) of an official sheet extracted as text: its title line is the
    edition's title followed by the format's name."""
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for edition in EDITIONS:
        data = environment().edition(edition).edition
        for fmt in data.formats:
            if f"{data.title} {fmt.name}" in lines[:5]:
                return edition, fmt.id
    raise AssertionError(f"{path.name}: no built-in edition has its title")


# --- the recorded departures from the sources (tests/data/a/decisions.yaml) ---------------

DECISIONS = Path(__file__).resolve().parent / "data" / "a" / "decisions.yaml"
Place = tuple[str, str, str]  # (list, id, field)


@cache
def decisions() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(DECISIONS.read_text(encoding="utf-8"))
    return data


def change_logs() -> dict[str, str]:
    """{edition id: the official change log it is written from} for the built-in editions
    upstream publishes only as a change log (based editions)."""
    logs: dict[str, str] = decisions()["change_logs"]
    return logs


def import_like(edition: str) -> str:
    """The edition given as --like when `edition` was imported."""
    like: str = decisions()["imports"][edition]["like"]
    return like


def accepted(edition: str) -> dict[Place, tuple[str, tuple[str, str] | None]]:
    """Where `edition` departs from a fresh import: place → (decision topic, the repair:
    upstream text → built-in text, or None when the built-in value is chosen outright); none
    for an edition written from a change log (`change_logs`), which no import made."""
    rows = decisions()["imports"].get(edition, {}).get("accepted", ())
    return {
        (row["list"], row["id"], row["field"]): (
            row["topic"],
            tuple(row["repair"]) if "repair" in row else None,
        )
        for row in rows
    }
