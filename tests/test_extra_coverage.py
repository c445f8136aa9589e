"""The table "Coverage of each list" in docs/extra.md is what `compile --format extra` reports
for every built-in extra list: its trumps, the actions with a program, and the abilities whose
actions are still `pending` (or that have no action: their ability is continuous). It is
computed here from the compiled rule sets; when programs are added the test prints the new
table to put in its place."""

from __future__ import annotations

from pathlib import Path

from blackpoker.compiler.environment import Environment
from blackpoker.compiler.extra import EXTRA_FORMAT, ExtraSource

DOC = Path(__file__).resolve().parents[1] / "docs" / "extra.md"
START, END = "<!-- coverage -->", "<!-- /coverage -->"


def coverage_rows(env: Environment) -> list[str]:
    rows = ["| list | trumps | actions with a program | abilities not covered yet (their pending actions) |"]
    rows.append("|---|---|---|---|")
    for edition in env.builtin_editions():
        for path in env.builtin_extras(edition):
            ruleset = env.compile(edition, EXTRA_FORMAT.id, extra=path.stem)
            source, _ = env.read(path)
            assert isinstance(source, ExtraSource)
            names = {action.id: action.name for _, action in source.actions()}
            played = sum(len(t.actions) for t in ruleset.trumps)
            every = played + sum(len(t.pending) for t in ruleset.trumps)
            missing = [
                f"{t.card} {t.name} ({'、'.join(names[a] for a in t.pending) if t.pending else 'no action'})"
                for t in ruleset.trumps
                if t.pending or not t.actions
            ]
            rows.append(
                f"| {path.stem} | {len(ruleset.trumps)} | {played} of {every} | {', '.join(missing)} |"
            )
    return rows


def test_the_coverage_table_is_what_compile_reports() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert START in text and END in text
    written = text[text.index(START) + len(START) : text.index(END)].strip().splitlines()
    computed = coverage_rows(Environment())
    assert written == computed, "replace the table in docs/extra.md with:\n" + "\n".join(computed)
