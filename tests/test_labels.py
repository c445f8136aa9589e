"""The labels file (runtime/play/labels.json) words everything the engine and the table say by
id: every refusal id in Japanese with the same fields as its English, every rule a refusal
names, every choose_one label of the built-in lists; targets and answers read in words."""

from __future__ import annotations

import re
import string
from pathlib import Path

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


# -- the words the code writes itself: all in the file, none left in the code -------------------

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "runtime" / "serve" / "app"
# A Japanese letter (kana or kanji). The middle dot ・ (U+30FB) is punctuation: the app joins a
# unit's states with it and splits them on it again, as it joins any list.
JAPANESE = re.compile(r"[\u3040-\u309f\u30a0-\u30fa\u30fc-\u30ff\u3400-\u9fff]")
# JavaScript's comments and string literals, left to right (a "//" inside a string stays in it).
JS_TOKEN = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`", re.S)
# The labels' `say`: the scripts' and the page's function, Python's method (Labels.say; the
# engine's own `say` words a refusal in English for scenarios).
SAY = {".py": re.compile(r"\.say\(\s*[\"']([^\"']+)[\"'],\s*"), "": re.compile(r"\bsay\(\s*\"([^\"]+)\",\s*")}
INDEXED = re.compile(r"\[\"([^\"]+)\"\]\[\"([^\"]+)\"\]")
LITERAL = re.compile(r"[\"']([^\"']*)[\"']")
# The sections only the code's own words fill (the rest are keyed by the engine's ids).
OWN = ("table", "app", "page", "terminal")


def _sources() -> list[Path]:
    python = [p for folder in ("cli", "runtime") for p in (ROOT / folder).rglob("*.py")]
    return [*python, *APP.glob("*.js"), APP / "app.html"]


def _argument(text: str, start: int) -> str:
    """The argument of a call that starts at `start`: up to its comma or closing parenthesis."""
    depth = 0
    for end in range(start, len(text)):
        if text[end] in "([{":
            depth += 1
        elif depth == 0 and text[end] in ",)]}":
            return text[start:end]
        elif text[end] in ")]}":
            depth -= 1
    return text[start:]


def _used() -> dict[tuple[str, str], str]:
    """Every (section, id) the code asks for by literal, with the file that asks for it: `say`'s
    (the scripts', the page's and Labels.say; every literal of its id argument, a conditional's
    ids included) and Python's `[section][id]`."""
    used: dict[tuple[str, str], str] = {}
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        for call in SAY[".py" if path.suffix == ".py" else ""].finditer(text):
            for key in LITERAL.findall(_argument(text, call.end())):
                used[call[1], key] = path.name
        for section, key in INDEXED.findall(text):
            used[section, key] = path.name
    return used


def test_every_label_the_code_asks_for_is_in_the_file_and_every_own_word_is_used() -> None:
    used = _used()
    sections = labels().sections
    missing = [
        (section, key, name) for (section, key), name in used.items() if key not in sections.get(section, {})
    ]
    assert missing == []
    unused = [(s, k) for s in OWN for k in sections[s] if (s, k) not in used]
    assert unused == []
    assert {name for (section, _), name in used.items() if section == "table"} >= {
        "app.js",
        "play_terminal.py",
    }


def test_no_japanese_word_is_left_in_the_app_scripts_or_its_page() -> None:
    left = []
    for script in APP.glob("*.js"):
        for token in JS_TOKEN.finditer(script.read_text(encoding="utf-8")):
            if not token[0].startswith("/") and JAPANESE.search(token[0]):
                left.append((script.name, token[0]))
    page = re.sub(
        r"\{\{.*?\}\}|\{#.*?#\}|<!--.*?-->", "", (APP / "app.html").read_text(encoding="utf-8"), flags=re.S
    )
    left += [("app.html", line) for line in page.splitlines() if JAPANESE.search(line)]
    assert left == []


def test_the_terminal_writes_no_japanese_of_its_own() -> None:
    for name in ("play.py", "play_terminal.py"):
        text = (ROOT / "cli" / name).read_text(encoding="utf-8")
        code = re.sub(r"#[^\n]*|\"\"\".*?\"\"\"", "", text, flags=re.S)  # comments and docstrings
        assert [line for line in code.splitlines() if JAPANESE.search(line)] == [], name
