"""`blackpoker play` in a real pseudo-terminal of 24 rows × 80 columns, typed at as a person does:
help, ? on an option, refused commands, a request chosen step by step with a step back, and
several turns; every board render must fit the terminal."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pexpect
import pytest
from blackpoker.compiler import compile
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import RequestOption
from blackpoker.runtime.play.choosing import parts
from editions_support import acting, formats, ops, reference_edition
from labels_support import ALLOWED, KEYS, NOTATION, english_words
from rich.cells import cell_len

# the newest edition whose smallest format asks a yes/no question (a `may` step) in a game
EDITION = reference_edition(
    lambda rulesets: any("may" in ops(a.steps) for a in next(iter(rulesets.values())).actions)
)
SMALLEST = formats(EDITION)[0]
RULESET = compile(EDITION, SMALLEST)
SEED = 3  # p1 goes first
ROWS, COLUMNS = 24, 80
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPT = "\n> "
ENTRY = re.compile(r"(\d+)\) (.+?)(?:（\d+通り）)?(?=  \d+\)|$)")


def entries(output: str) -> list[tuple[int, str]]:
    """The numbered entries of the last menu in `output`, as (number, text)."""
    rows = [row for row in output.split("\n") if re.match(r"  \d+\) ", row)]
    return [(int(n), text) for row in rows for n, text in ENTRY.findall(row.strip())]


def chance_menus(transcript: str) -> list[list[tuple[int, str]]]:
    """Each menu a chance was chosen from (an action or パス), as printed."""
    found = []
    for chunk in transcript.split("あなたのチャンス: ")[1:]:
        found.append(entries(chunk.split("\n>", 1)[0]))
    return found


class Person:
    """Types into the program and keeps the whole screen output as plain text."""

    def __init__(self, tmp_path: Path) -> None:
        command = ["-c", "from blackpoker.cli.main import main; main()", "play"]
        args = [*command, "--edition", EDITION, "--format", SMALLEST, "--seed", str(SEED)]
        self.child = pexpect.spawn(
            sys.executable, args, cwd=str(tmp_path), dimensions=(ROWS, COLUMNS), encoding="utf-8", timeout=60
        )
        self.transcript = ""
        self.last = self._read()

    def _read(self) -> str:
        index = self.child.expect([PROMPT, pexpect.EOF])
        text = ESCAPES.sub("", (self.child.before or "") + (self.child.after if index == 0 else "")).replace(
            "\r", ""
        )
        self.transcript += text
        return text

    def type(self, text: str) -> str:
        """The output the answer caused, up to the next prompt (or the end)."""
        self.child.sendline(text)
        self.last = self._read()
        return self.last


def renders(transcript: str) -> list[list[str]]:
    """Each board as printed: from its header line to the input prompt under it."""
    boards = []
    for chunk in transcript.split("━━ ターン")[1:]:
        rows = ("━━ ターン" + chunk).split("\n")
        end = next((n for n, row in enumerate(rows) if row.startswith(">")), len(rows) - 1)
        boards.append(rows[: end + 1])
    return boards


@dataclass
class Session:
    """What the person saw after each thing they typed."""

    person: Person
    help: str
    explained: tuple[str, str]  # an action's entry, and `? N` on it
    refused: tuple[str, str]
    stepped: str
    asked: str  # `?` alone at that step
    back: str
    before_first: str  # `0` at the first step
    again: str

    @property
    def transcript(self) -> str:
        return self.person.transcript


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    person = Person(tmp_path_factory.mktemp("play"))
    first = next((n, text) for n, text in entries(person.last) if text != "パス")  # an action
    shown = [person.type("help"), person.type(f"? {first[0]}")]
    refused = (person.type("p2: pass"), person.type(f"{acting(RULESET, 'pass_turn').name} ★♠7"))
    # Take the first entry other than パス until a request needs a second step, step back,
    # and go on.
    for _ in range(200):
        chosen = next((str(n) for n, text in entries(person.last) if text != "パス"), "1")
        if "›" in person.type(chosen):
            break
    stepped = person.last
    asked = person.type("?")
    back, before_first, again = person.type("0"), person.type("0"), person.type(chosen)
    for _ in range(300):  # several turns
        if "━━ ターン4" in person.last or "ゲーム終了" in person.last:
            break
        person.type("1")
    person.type("q")
    return Session(person, shown[0], (first[1], shown[1]), refused, stepped, asked, back, before_first, again)


def test_help_explains_the_commands_and_the_notation(session: Session) -> None:
    text = session.help
    for word in ("使い方", "? 番号", "0 または b", "★ キーカード", "$ 支払い", "→ 対象", "準備"):
        assert word in text, word


def test_a_question_mark_explains_an_action_entry_from_the_rule_set(session: Session) -> None:
    entry, explained = session.explained
    options = Game.new(RULESET, SEED).legal_options()
    option = next(o for o in options if isinstance(o, RequestOption) and parts(o)[0] == entry.split(" ")[0])
    action = RULESET.action(option.action)
    assert action.effect.splitlines()[0] in explained


def test_a_refused_command_names_the_rule_it_breaks(session: Session) -> None:
    wrong_player, keyed_end = session.refused
    assert "できません: p2はいま決定できません（決定するのはp1）（ルール: 決定の順番）" in wrong_player
    assert re.search(r"できません: .+（ルール: [^）a-z]+）", keyed_end), keyed_end


def test_a_request_is_chosen_step_by_step_with_a_way_back(session: Session) -> None:
    stepped = session.stepped
    question = next(row for row in stepped.split("\n") if "›" in row)
    assert re.search(r"› (キーカード|支払い|対象)を選ぶ（0で戻る）", question), question
    assert question in session.asked  # `?` says what is being decided
    assert "あなたのチャンス" in session.back
    assert "いまが最初の段階です" in session.before_first
    assert question in session.again  # the same step again


def test_every_board_fits_the_terminal_and_is_labelled_in_japanese(session: Session) -> None:
    boards = renders(session.transcript)
    turns = {int(m) for m in re.findall(r"━━ ターン(\d+)", session.transcript)}
    assert len(boards) > 10 and max(turns) >= 3, turns
    for board in boards:
        assert len(board) <= ROWS, "\n".join(board)
        assert all(cell_len(row) <= COLUMNS for row in board), "\n".join(board)
        text = "\n".join(board)
        for word in ("ライフ", "手札", "墓地", "チャンス", "最近の出来事", "場:"):
            assert word in text, (word, text)
        assert not re.search(r"\b(life|hand|graveyard|cards)\b", text), text


def test_prompts_say_what_is_decided_and_effects_are_not_a_players_request(session: Session) -> None:
    names = {a.name for a in RULESET.actions}
    asked = [board for board in renders(session.transcript) if any("しますか？" in row for row in board)]
    assert asked, "no yes/no decision came up"
    for board in asked:
        question = board[-3] if board[-2].startswith("  1)") else board[-2]
        found = re.search(r"「(.+?)」.*しますか？", question)
        assert found and found.group(1) in names, board
    indirect = [a.name for a in RULESET.actions if not a.direct]
    shown = re.findall(r"(\S+)（p[12]）", session.transcript)
    assert shown and not set(shown) & set(indirect), shown
    assert re.search(r"p[12]が\d枚引いた（手札\d+枚）", session.transcript)


def test_q_ends_the_session(session: Session) -> None:
    assert session.transcript.rstrip().endswith("終了しました") or "ゲーム終了" in session.transcript
    session.person.child.expect(pexpect.EOF)
    session.person.child.close()
    assert session.person.child.exitstatus == 0


def test_a_chance_entry_keeps_its_number_across_prompts(session: Session) -> None:
    """パス is 1 at every chance, and each action keeps the number it was first shown with."""
    menus = chance_menus(session.transcript)
    assert len(menus) > 10
    numbers: dict[str, set[int]] = {}
    for menu in menus:
        assert (1, "パス") in menu, menu
        for n, text in menu:
            numbers.setdefault(text.split(" ")[0], set()).add(n)
    assert len(numbers) > 3 and all(len(found) == 1 for found in numbers.values()), numbers
    assert len({min(found) for found in numbers.values()}) == len(numbers)  # no two share one


def test_the_session_says_nothing_in_english(session: Session) -> None:
    """Every line the program printed (not the person's typing, echoed after `> `) is in
    Japanese, but the card notation, the keys a prompt names and the allow-list of
    labels_support.py; the help may quote the command notation too."""
    printed = "\n".join(row for row in session.transcript.split("\n") if not row.startswith(">"))
    help_text = session.help.split("\n", 1)[1].removesuffix(PROMPT)  # after the typed `help`
    helped = printed.replace(help_text, "")
    assert help_text in printed and english_words(helped, ALLOWED | KEYS) == [], english_words(helped)
    assert english_words(help_text, ALLOWED | KEYS | NOTATION) == []
