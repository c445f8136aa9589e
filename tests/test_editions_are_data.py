"""The newest edition and the editions it is based on are data only: no Python file of the
project (code, tests, benchmarks) names their ids or titles, or an action or trump they brought
that no older edition has. A newer edition must not need a Python edit to be built, printed
and played, and a test that named it would have to be edited when the next one comes."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.parse import EditionSource
from blackpoker.runtime.rules.program import ChooseOne, walk_steps
from conftest import ROOT
from editions_support import EDITIONS, environment

NOT_SOURCE = {"build", "dist", "node_modules", "__pycache__"}


def _family() -> list[EditionSource]:
    """The newest edition and its `base:` chain, newest first."""
    source: EditionSource | None = environment().edition(EDITIONS[0])
    chain = []
    while source is not None:
        chain.append(source)
        source = source.base
    return chain


def _names(env: Environment, edition: str) -> set[str]:
    """The names of an edition's actions (every format, its extra list, its frames) and trumps."""
    found = {a.name for ruleset in env.compile_edition(edition).values() for a in ruleset.actions}
    if env.builtin_extras(edition):
        extra = env.compile(edition, EXTRA_FORMAT.id)
        found |= {a.name for a in extra.actions} | {t.name for t in extra.trumps}
    regulations = env.edition_regulations(env.edition(edition))
    return found | ({a.name for a in regulations.actions} if regulations is not None else set())


def _python_files() -> Iterator[Path]:
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if not any(p.startswith(".") or p in NOT_SOURCE or p.endswith(".egg-info") for p in parts):
            yield path


def test_no_python_file_names_the_newest_editions_or_what_they_brought() -> None:
    env = environment()
    family = _family()
    ids = {s.edition.id for s in family}
    older = set().union(*(_names(env, e) for e in EDITIONS if e not in ids))
    brought = set().union(*(_names(env, s.edition.id) for s in family)) - older
    if not brought:
        pytest.fail("the newest editions bring no action or trump of their own: nothing is checked")
    words = ids | {s.edition.title for s in family} | brought
    files = list(_python_files())
    assert Path(__file__).resolve() in files  # the scan reads the tests, this file among them
    found = {
        f"{path.relative_to(ROOT)}: {word}"
        for path in files
        for word in words
        if word in path.read_text(encoding="utf-8")
    }
    assert sorted(found) == []


def _labels(env: Environment, edition: str) -> set[str]:
    """The labels of the `choose_one` steps of an edition's actions (every format, its extra list)."""
    rulesets = [*env.compile_edition(edition).values()]
    rulesets += [env.compile(edition, EXTRA_FORMAT.id)] if env.builtin_extras(edition) else []
    return {
        option.label
        for ruleset in rulesets
        for action in ruleset.actions
        for _, node in walk_steps(action.steps)
        if isinstance(node, ChooseOne)
        for option in node.options
    }


def _literals(path: Path) -> set[str]:
    """The strings a Python file writes, but for the values of enum members (a closed
    vocabulary's words, which may be a label's word too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    members = {
        id(statement.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and any(ast.unparse(b).endswith("Enum") for b in node.bases)
        for statement in node.body
        if isinstance(statement, ast.Assign)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in members
    }


def test_no_code_names_a_label() -> None:
    """What a `choose_one` label does is read from its steps: no code of any edition's engine,
    agents or compiler compares a label's word (a label is the rule set's word, like an id)."""
    env = environment()
    labels = set().union(*(_labels(env, e) for e in EDITIONS))
    if not labels:
        pytest.fail("no edition has a choose_one label: nothing is checked")
    code = [
        p for p in _python_files() if p.relative_to(ROOT).parts[0] in ("runtime", "compiler", "cli", "site")
    ]
    found = {f"{path.relative_to(ROOT)}: {label}" for path in code for label in _literals(path) & labels}
    assert sorted(found) == []
