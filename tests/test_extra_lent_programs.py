"""An extra list may name another built-in list (`programs_from`): each of its actions without
a program takes the engine data of the other's action of the same id when both print it exactly
alike, and the other's set-up when it has none. The lists are found by the key in the data,
never by name."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from bad_input_support import invoke, located
from blackpoker.compiler.documents.extra import EXTRA_FORMAT, ExtraSource
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.rules.model import Action

ENV = Environment()
BORROWERS = [
    (edition, path)
    for edition in ENV.builtin_editions()
    for path in ENV.builtin_extras(edition)
    if "programs_from" in yaml.safe_load(path.read_text(encoding="utf-8"))
]


def _source(path: Path) -> ExtraSource:
    source, problems = ENV.read(path)
    assert problems == [] and isinstance(source, ExtraSource)
    return source


def _lent(source: ExtraSource) -> dict[str, Action]:
    """The actions the lender plays, by id: with what its own lender lends it."""
    edition = next(
        e for e in ENV.builtin_editions() for p in ENV.builtin_extras(e) if p.stem == source.programs_from
    )
    return {a.id: a for a in ENV.compile(edition, EXTRA_FORMAT.id, extra=source.programs_from).actions}


def test_an_action_printed_alike_takes_the_lenders_program_and_one_printed_otherwise_does_not() -> None:
    """One printed otherwise plays its own program, or none (pending)."""
    assert BORROWERS
    for edition, path in BORROWERS:
        source = _source(path)
        lender = _lent(source)
        ruleset = ENV.compile(edition, EXTRA_FORMAT.id, extra=path.stem)
        played = {a.id: a for a in ruleset.actions}
        pending = {a for t in ruleset.trumps for a in t.pending}
        alike = differ = 0
        for _, action in source.actions():
            origin = lender.get(action.id)
            if origin is None or not origin.program:
                continue
            same = (action.effect, action.cost, action.key, action.timing, action.note) == (
                origin.effect,
                origin.cost,
                origin.key,
                origin.timing,
                origin.note,
            )
            if action.program:
                assert action.id in played and played[action.id].program == action.program, action.id
            elif same:
                assert action.id in played and played[action.id].program == origin.program, action.id
            else:
                assert action.id not in played, action.id
                assert action.id in pending or action in source.operations, action.id
            alike += same
            differ += not same
        assert alike and ruleset.setup is not None
    assert differ  # some list prints one of them otherwise (its effect or cost)


def test_a_changed_print_is_not_lent_a_program(tmp_path: Path) -> None:
    edition, path = BORROWERS[0]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    before = ENV.compile(edition, EXTRA_FORMAT.id, extra=path.stem)
    own = {t["id"] for t in data["trumps"] if "program" in t.get("actions", [{}])[0]}
    lent = next(t for t in before.trumps if t.actions and t.id not in own)
    trump = next(t for t in data["trumps"] if t["id"] == lent.id)
    trump["actions"][0]["effect"] += "（変更）"
    copy = tmp_path / path.name
    copy.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    after = ENV.compile(edition, EXTRA_FORMAT.id, extra=str(copy))
    (changed,) = [t for t in after.trumps if t.id == lent.id]
    assert trump["actions"][0]["id"] in changed.pending and trump["actions"][0]["id"] not in changed.actions


@pytest.mark.parametrize(
    ("lender", "message"),
    [("nothing", "no built-in extra list 'nothing'"), (None, "borrows from this list in turn")],
    ids=["unknown", "itself"],
)
def test_a_lender_that_is_no_built_in_list_or_the_list_itself_is_located(
    tmp_path: Path, lender: str | None, message: str
) -> None:
    _, path = BORROWERS[0]
    text = path.read_text(encoding="utf-8")
    source = _source(path)
    copy = tmp_path / path.name
    named = lender or source.id
    copy.write_text(
        text.replace(f"programs_from: {source.programs_from}", f"programs_from: {named}"), encoding="utf-8"
    )
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("programs_from:"))
    located(invoke("validate", copy), str(copy), line, len("programs_from: ") + 1, message)


def test_a_borrowing_list_plays() -> None:
    edition, path = BORROWERS[0]
    result = invoke(
        "simulate",
        "--edition",
        edition,
        "--format",
        EXTRA_FORMAT.id,
        "--extra",
        path.stem,
        "-n",
        "3",
        "--json",
    )
    assert result.exit_code == 0, result.output
