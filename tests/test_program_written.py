"""`written` gives a program node back in the data's notation: reading it again gives the same
node, for every program and `requires` of every built-in rule set (so an explanation quotes
what the author wrote), and `notation` prints it on one line."""

from __future__ import annotations

from blackpoker.compiler.environment import Environment
from blackpoker.compiler.parse import parse_steps
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.runtime.rules.program import Compare, Condition, If, notation, walk_steps, written


def _read_condition(data: object) -> Condition:
    (step,) = parse_steps([{"if": data, "then": []}])
    assert isinstance(step, If)
    return step.cond


def _rule_sets() -> list[RuleSet]:
    env = Environment()
    found = []
    for edition in env.builtin_editions():
        found += env.compile_edition(edition).values()
        found += [env.compile(edition, "extra", extra=path.stem) for path in env.builtin_extras(edition)]
    return found


def test_every_program_and_requirement_reads_back_from_its_written_form() -> None:
    checked = 0
    for ruleset in _rule_sets():
        for action in (*ruleset.actions, *((ruleset.setup,) if ruleset.setup else ())):
            if action.program:
                tree = parse_steps(action.program)
                assert parse_steps(written(tree)) == tree, (ruleset.edition.id, action.id)
                checked += 1
            if action.requires is not None:
                cond = action.requires.cond
                assert _read_condition(written(cond)) == cond, (ruleset.edition.id, action.id)
                checked += 1
    assert checked


def test_notation_prints_a_comparison_under_its_word_on_one_line() -> None:
    # the first comparison of a requirement, else of a program's condition
    actions = [a for r in _rule_sets() for a in r.actions]
    conditions = [a.requires.cond for a in actions if a.requires is not None]
    programs = [n for a in actions for _, n in walk_steps(parse_steps(a.program))]
    compared = next(n for n in (*conditions, *programs) if isinstance(n, Compare))
    assert isinstance(compared, Compare)
    text = notation(compared)
    assert text.startswith(f"{{{compared.op.value}: [") and "\n" not in text
    assert text == notation(_read_condition(written(compared)))
