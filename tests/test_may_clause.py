"""The clause a player may do (必要であれば、…) is data of the compiled action: the compiler
finds it in the effect once, and the yes/no question of a `may` step quotes it."""

from __future__ import annotations

from dataclasses import replace

from blackpoker.compiler.link import MAY_MARKER, finish
from blackpoker.runtime.engine.options import Choice
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.play.choosing import Menu, advance, question
from blackpoker.runtime.rules.program import May, word
from engine_support import actions_using, compiled, environment, format_ids, random_positions


def _edition_with_may() -> tuple[str, str]:
    """An edition and format with an action whose program has a `may` step and whose effect
    prints the marker."""
    env = environment()
    for edition in env.builtin_editions():
        for fmt in format_ids(edition):
            if any(MAY_MARKER in a.effect for a in actions_using(compiled(edition, fmt).actions, word(May))):
                return edition, fmt
    raise AssertionError("no built-in edition prints a may step's marker")


def test_the_compiled_action_holds_the_clause_its_effect_prints() -> None:
    ruleset = compiled(*_edition_with_may())
    marked = [a for a in ruleset.actions if MAY_MARKER in a.effect]
    assert marked
    for action in marked:
        line = next(line for line in action.effect.splitlines() if MAY_MARKER in line)
        assert action.may_clause and action.may_clause in line  # the words after the marker
        assert not action.may_clause.startswith("、") and not action.may_clause.endswith("。")
    assert all(a.may_clause == "" for a in ruleset.actions if MAY_MARKER not in a.effect)


def test_a_changed_effect_text_changes_the_clause() -> None:
    ruleset = compiled(*_edition_with_may())
    action = next(a for a in ruleset.actions if a.may_clause)
    changed = replace(action, effect=f"1. {MAY_MARKER}、カードを1枚捨てる。")
    relinked = finish(replace(ruleset, actions=(changed,)))
    assert relinked.actions[0].may_clause == "カードを1枚捨てる"
    # found from the effect, it is not hashed: the rule-set hash stays what logs name
    assert relinked.digest == finish(replace(ruleset, actions=(replace(changed, may_clause="x"),))).digest


def test_the_yes_no_question_quotes_the_clause() -> None:
    ruleset = compiled(*_edition_with_may())
    rules = Rules(ruleset)
    asked = 0
    for game in random_positions(ruleset, 4, 200):
        options = game.legal_options()
        if {str(o) for o in options} != {"yes", "no"}:
            continue
        seen = view(game, game.to_move)
        menu = advance(options, [], [])
        assert isinstance(menu, Menu) and all(isinstance(o, Choice) for o in menu.left)
        action = rules.action(seen.resolving[-1].action)
        text = question(rules, seen, menu)
        assert text.startswith(f"「{action.name}」") and text.endswith("しますか？")
        assert (f": {action.may_clause} " in text) == bool(action.may_clause), text
        asked += bool(action.may_clause)
    assert asked, "no may step with a printed clause came up"
