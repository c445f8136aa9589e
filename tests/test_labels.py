"""The labels file (runtime/play/labels.json) words everything the engine and the table say by
id: every refusal id in Japanese with the same fields as its English, every rule a refusal
names, every choose_one label of the built-in lists; targets and answers read in words."""

from __future__ import annotations

import string

from blackpoker.runtime.engine.options import Choice, HiddenCharacter, RequestOption, StagePosition
from blackpoker.runtime.engine.refusals import ENGLISH, Refusal, say
from blackpoker.runtime.engine.request_checks import CHECKS
from blackpoker.runtime.play.explain import ANSWER, OPTION
from blackpoker.runtime.play.labels import labels
from blackpoker.runtime.rules.program import ChooseOne, walk_steps
from editions_support import EDITIONS, compiled
from labels_support import ALLOWED, NOTATION, english_words


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_refusal_id_has_its_japanese_with_the_same_fields() -> None:
    japanese = labels()["refusals"]
    assert set(japanese) == set(ENGLISH)
    for key, english in ENGLISH.items():
        assert _fields(japanese[key]) == _fields(english), key
        text = japanese[key].format_map({f: "" for f in _fields(english)})
        assert english_words(text, ALLOWED | NOTATION) == [], key  # the notation may be quoted


def test_every_rule_a_refusal_names_has_a_japanese_name() -> None:
    assert {rule for rule, _ in CHECKS} | {ANSWER, OPTION} <= set(labels()["rules"])


def test_a_refusal_reads_in_japanese_with_its_values() -> None:
    said = say("once per turn", name="兵士召喚")
    refusal = Refusal("once per turn", said)
    assert refusal.message == "兵士召喚 can be requested once per turn"
    assert (
        labels().refusal(refusal)
        == "できません: 兵士召喚は1ターンに1回しか起こせません（ルール: 1ターンの回数）"
    )
    nested = Refusal("decision", say("not deciding", who="p2", decider=say("nobody")))
    assert (
        labels().refusal(nested)
        == "できません: p2はいま決定できません（決定するのは誰も）（ルール: 決定の順番）"
    )


def test_every_choose_one_label_of_the_built_in_lists_has_its_words() -> None:
    found = set()
    for edition in EDITIONS:
        for rules in compiled(edition).values():
            for action in rules.actions:
                for _, node in walk_steps(action.steps):
                    if isinstance(node, ChooseOne):
                        found |= {option.label for option in node.options}
    assert found and found <= set(labels()["choices"]), found - set(labels()["choices"])


def test_targets_and_answers_are_read_in_words_and_the_notation_stays() -> None:
    words = labels()
    assert words.target("stage:2") == "ステージ2"
    assert words.target("resolving:1") == "解決中1"
    assert words.target("face-down#12") == "裏向き#12"
    assert words.target("p2:♣9") == "p2:♣9"
    block = Choice(0, "block", 8, 20)  # ♣9 with ♡... : the engine's card ids
    assert words.choice(block).endswith("をブロック") and "with" not in words.choice(block)
    assert words.choice(Choice(0, "done")) == "選び終える"
    assert words.choice(Choice(0, "one_charged")) == "1枚をチャージ状態で"
    assert words.choice(Choice(0, "retarget", target=StagePosition(1))) == "対象をステージ1に変更"
    aimed = RequestOption(0, "x", "アップ", (3,), (("D", 5),), HiddenCharacter(12))
    assert words.option(aimed).endswith("→ 裏向き#12") and str(aimed).endswith("→ face-down#12")
