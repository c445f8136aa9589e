"""Generated broken inputs on every reading command: exit 0 or 1, located when 1, never a crash.

A fixed example budget and derandomized generation keep the run short and the same on
every machine; each example runs under a deadline, so a hang or a blow-up fails the test.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import yaml
from bad_input_support import EXAMPLE, EXAMPLE_FORMAT, SCENARIO, invoke
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
SCENARIO_TEXT = SCENARIO.read_bytes()
RULES = EXAMPLE.read_bytes()
LOCATED = re.compile(r"^\s*\S[^\n]*?:\d+:\d+: \S|^\S+: (no |not |--)", re.MULTILINE)

FUZZ = settings(
    max_examples=40,
    derandomize=True,
    database=None,
    deadline=timedelta(seconds=20),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@contextmanager
def written(name: str, data: bytes) -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, name)
        path.write_bytes(data)
        yield path


def check(*args: str | Path) -> None:
    result = invoke(*args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 1:
        assert LOCATED.search(result.stderr + result.stdout), result.output


COMMANDS: dict[str, Callable[[Path], tuple[str | Path, ...]]] = {
    "validate": lambda path: ("validate", path),
    "compile": lambda path: ("compile", "--format", EXAMPLE_FORMAT, "--rules", path),
    "scenario": lambda path: ("scenario", "run", path),
}


def on_every_yaml_path(data: bytes) -> None:
    with written("input.yaml", data) as path:
        for command in COMMANDS.values():
            check(*command(path))


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=12))
keys = st.sampled_from(
    [
        "kind",
        "id",
        "name",
        "edition",
        "format",
        "base",
        "actions",
        "setup",
        "p1",
        "commands",
        "expect",
        "cost",
        "key",
        "program",
        "if",
        "then",
        "as",
        "cards",
        "life",
    ]
) | st.text(max_size=6)
trees: st.SearchStrategy[Any] = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=30,
)


@FUZZ
@given(
    kind=st.sampled_from(["overlay", "edition", "scenario", None]),
    tree=st.dictionaries(keys, trees, max_size=6),
)
def test_generated_yaml_trees(kind: str | None, tree: dict[str, Any]) -> None:
    if kind is not None:
        tree = {"kind": kind, **tree}
    on_every_yaml_path(yaml.safe_dump(tree, allow_unicode=True).encode("utf-8"))


def mutate(source: bytes, data: st.DataObject) -> bytes:
    """Delete, insert, duplicate or overwrite a stretch of the text."""
    at = data.draw(st.integers(0, len(source)))
    width = data.draw(st.integers(0, 40))
    piece = data.draw(
        st.binary(max_size=8) | st.sampled_from([b"\t", b"&a ", b"*a", b"[", b"{", b":", b"\\ud800", b"\0"])
    )
    match data.draw(st.sampled_from(["delete", "insert", "duplicate", "overwrite"])):
        case "delete":
            return source[:at] + source[at + width :]
        case "insert":
            return source[:at] + piece + source[at:]
        case "duplicate":
            return source[:at] + source[at : at + width] * 2 + source[at + width :]
        case _:
            return source[:at] + piece + source[at + len(piece) :]


@FUZZ
@given(data=st.data())
def test_mutated_local_rule_file(data: st.DataObject) -> None:
    on_every_yaml_path(mutate(RULES, data))


@FUZZ
@given(data=st.data())
def test_mutated_scenario(data: st.DataObject) -> None:
    with written("input.yaml", mutate(SCENARIO_TEXT, data)) as path:
        check("scenario", "run", path)


@FUZZ
@given(raw=st.binary(max_size=300))
def test_random_bytes(raw: bytes) -> None:
    on_every_yaml_path(raw)
    with written("input.jsonl", raw) as path:
        check("replay", path)


def a_log() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        result = invoke("simulate", "-n", "1", "--logs", Path(folder, "logs"))
        assert result.exit_code == 0, result.output
        return Path(folder, "logs", "game-0000.jsonl").read_bytes()


LOG = a_log()


@FUZZ
@given(data=st.data())
def test_mutated_log(data: st.DataObject) -> None:
    with written("input.jsonl", mutate(LOG, data)) as path:
        check("replay", path)
