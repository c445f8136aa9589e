"""`blackpoker play` driven through a real process with piped input, and the scripted agent."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from blackpoker.compiler import compile
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option, RequestOption
from blackpoker.runtime.engine.request_checks import first_refusal
from blackpoker.runtime.engine.view import View
from blackpoker.runtime.engine.zones import card, label
from blackpoker.runtime.play.agents import RandomAgent
from blackpoker.runtime.play.choosing import Menu, advance, parts
from blackpoker.runtime.play.loop import play
from blackpoker.runtime.play.notation import RequestCommand, parse_command
from blackpoker.runtime.play.resolve import IllegalCommand, resolve_seen
from blackpoker.runtime.play.selfplay import random_agents
from blackpoker.runtime.serve.board import marks
from editions_support import EDITIONS, acting, formats
from engine_support import position

EDITION = EDITIONS[0]
SMALLEST = formats(EDITION)[0]
RULESET = compile(EDITION, SMALLEST)
SEED = 3  # p1 goes first, with `pass` among its first options


def _play(tmp_path: Path, answers: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from blackpoker.cli.main import main; main()", "play", *args]
    return subprocess.run(
        command,
        input="".join(a + "\n" for a in answers),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )


def _hidden_labels(game: Game, opponent: int) -> set[str]:
    """Labels of the opponent's cards its player may not see (Jokers left out: both decks have two)."""
    them = game.state.players[opponent]
    cards = [*them.hand, *(c for u in them.field if not u.face_up for c in u.cards)]
    return {label(c) for c in cards if not card(c).is_joker}


def test_a_person_plays_from_piped_input_and_sees_only_their_view(tmp_path: Path) -> None:
    end = acting(RULESET, "pass_turn").name  # it has no key: a key card makes it no option
    answers = ["zzz", "99", "p2: pass", f"{end} ★♠7", "pass", *["1"] * 30, "q"]
    result = _play(
        tmp_path,
        answers,
        "--edition",
        EDITION,
        "--format",
        SMALLEST,
        "--seed",
        str(SEED),
        "--log",
        "game.jsonl",
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "シード3 · あなたはp1、相手はランダムエージェント" in out
    refusals = [line for line in out.splitlines() if line.startswith("> できません: ")]
    assert len(refusals) == 3, refusals  # zzz, p2's pass and the keyed end: each names its rule
    assert all(re.search(r"（ルール: [^）a-z]+）$", line) for line in refusals), refusals
    # 99 is no entry's number: the numbers shown are pass's (1) and those of the actions open
    assert re.search(r"\n> 番号は(1から\d+まで|1、[\d、]+)、0で戻る、helpで説明\n", out)
    assert "できません: p2はいま決定できません（決定するのはp1）（ルール: 決定の順番）" in out
    assert "\np1: パス\n" in out  # the notation is accepted, and the decision told
    assert out.splitlines()[-1] == "> 終了しました"
    assert list(tmp_path.iterdir()) == [tmp_path / "game.jsonl"]
    # Replay the log to know every position the person was shown, and check each rendering.
    lines = [json.loads(line) for line in (tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()]
    assert lines[0]["agents"] == ["human", "random:3"]
    game = Game.new(RULESET, SEED)
    shown: list[set[str]] = []
    for line in lines[1:-1]:
        if line["event"] != "decision":
            continue
        if line["player"] == "p1" and _asked(game):
            shown.append(_hidden_labels(game, 1))
        game.apply(game.legal_options()[line["index"]])
    shown.append(_hidden_labels(game, 1))  # the position where q was typed
    renders = out.split("━━ ターン")[1:]
    assert not game.over  # q was typed at a render
    assert len(renders) == len(shown) > 10
    for render, hidden in zip(renders, shown, strict=True):
        opponent = render.split("p2（相手）", 1)[1].split("p1（あなた）", 1)[0]
        assert re.search(r"手札 \d+枚\n", opponent), opponent  # a count, not the cards
        assert not [text for text in hidden if text in opponent], opponent


def _asked(game: Game) -> bool:
    """The person is shown the board unless the decision is forced (one move, however printed)."""
    return len({parts(o) for o in game.legal_options()}) > 1


def test_q_quits_at_once_and_a_closed_input_too(tmp_path: Path) -> None:
    for answers in (["q"], []):
        result = _play(tmp_path, answers, "--seed", "4", "--seat", "p2")
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines()[-1].endswith("終了しました")
        assert "Traceback" not in result.stderr


def test_an_unknown_format_is_a_located_problem(tmp_path: Path) -> None:
    result = _play(tmp_path, [], "--format", "nope")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "problem" in result.stderr


class _Recording:
    """A random agent that also writes down, per player, the commands it chose as it saw them."""

    reads_view = True

    def __init__(self, seed: int, script: list[str]) -> None:
        self.inner = RandomAgent(seed)
        self.name = self.inner.name
        self.script = script

    def choose(self, view: View, options: tuple[Option, ...]) -> Option:
        chosen = self.inner.choose(view, options)
        self.script.append(f"p{view.me + 1}: {chosen}")
        return chosen


class ScriptedAgent:
    """Plays the given commands in order, each resolved on the player's view (`pN: ` may be
    left out)."""

    name = "scripted"
    reads_view = True

    def __init__(self, commands: list[str]) -> None:
        self.commands = commands

    def choose(self, view: View | None, options: tuple[Option, ...]) -> Option:
        assert view is not None and view.options == options
        return resolve_seen(view, self.commands.pop(0))


@pytest.mark.parametrize("seed", [1, 2])
def test_scripted_agents_replay_a_game_from_its_commands(seed: int) -> None:
    scripts: tuple[list[str], list[str]] = ([], [])
    first = Game.new(RULESET, seed)
    randoms = random_agents(seed)
    play(first, [_Recording(randoms[p].rng.randrange(10**9), scripts[p]) for p in (0, 1)])
    assert first.over
    again = Game.new(RULESET, seed)
    play(again, [ScriptedAgent(scripts[0]), ScriptedAgent(scripts[1])])
    assert again.state_hash() == first.state_hash()


def test_a_scripted_command_that_is_not_legal_names_itself_and_the_rule_it_breaks() -> None:
    game = Game.new(RULESET, SEED)
    end = acting(RULESET, "pass_turn").name  # it has no key: a key card makes it no option
    written = f"p1: {end} ★♠7"
    with pytest.raises(IllegalCommand, match=f"'{written}': ") as refused:
        play(game, [ScriptedAgent([written]), ScriptedAgent([])])
    # the rule the engine's checks name, explained from p1's view: p1's own hand is the game's
    request = parse_command(written)
    assert isinstance(request, RequestCommand)
    assert refused.value.refusal == first_refusal(Game.new(RULESET, SEED), request)


def test_a_caused_action_is_chosen_by_its_character_and_marks_it() -> None:
    """The first step lists a caused action once per character that may cause it; the browser
    marks that character's card at that step."""
    game, _ = position("slash")
    options = game.legal_options()
    caused = [o for o in options if isinstance(o, RequestOption) and o.source is not None]
    heads = {parts(o)[0] for o in caused}
    assert len(heads) == len({o.source for o in caused}) > 1
    menu = advance(options, [], [])
    assert isinstance(menu, Menu) and heads <= set(menu.values)
    assert all(marks(o, 0) == [f"card:{o.source}"] for o in caused)
