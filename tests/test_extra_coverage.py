"""The table "Coverage of each list" in docs/extra.md is what `compile --format extra` reports
for every built-in extra list: its trumps, the actions with a program, and the abilities whose
actions are still `pending` (or that have no action: their ability is continuous). It is
computed here; when programs are added the test prints the new table to put in its place."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from blackpoker.compiler.documents.extra import EXTRA_FORMAT, ExtraSource
from blackpoker.compiler.environment import Environment

DOC = Path(__file__).resolve().parents[1] / "docs" / "extra.md"
START, END = "<!-- coverage -->", "<!-- /coverage -->"


def coverage_rows(env: Environment) -> list[str]:
    rows = [
        "| list | trumps | actions with a program and continuous abilities"
        " | abilities not covered yet (their pending actions) |"
    ]
    rows.append("|---|---|---|---|")
    for edition in env.builtin_editions():
        for path in env.builtin_extras(edition):
            ruleset = env.compile(edition, EXTRA_FORMAT.id, extra=path.stem)
            names = {action.id: action.name for _, action in _source(env, path).actions()}
            coverage = [
                (f"{t.card} {t.name}", (*t.actions, *t.abilities), [names[a] for a in t.pending])
                for t in ruleset.trumps
            ]
            rows.append(_row(path.stem, coverage))
    return rows


def _source(env: Environment, path: Path) -> ExtraSource:
    source, _ = env.read(path)
    assert isinstance(source, ExtraSource)
    return source


def _row(list_id: str, coverage: list[tuple[str, Sequence[str], list[str]]]) -> str:
    """A list's row from each trump's name, what it plays (actions and continuous abilities) and
    its pending actions' names."""
    played = sum(len(actions) for _, actions, _ in coverage)
    every = played + sum(len(pending) for _, _, pending in coverage)
    missing = [
        f"{name} ({'、'.join(pending) if pending else 'no action'})"
        for name, actions, pending in coverage
        if pending or not actions
    ]
    return f"| {list_id} | {len(coverage)} | {played} of {every} | {', '.join(missing)} |"


def test_the_coverage_table_is_what_compile_reports() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert START in text and END in text
    written = text[text.index(START) + len(START) : text.index(END)].strip().splitlines()
    computed = coverage_rows(Environment())
    assert written == computed, "replace the table in docs/extra.md with:\n" + "\n".join(computed)
