"""`--agents cmd:PROGRAM`: an outside program plays from one JSON line per decision, with real
subprocesses: the shipped example plays whole games against greedy; a program that times
out, answers garbage or exits forfeits its game without stopping the run; the program runs
without a shell and is ended with its game; and what it is sent is its player's view alone
(docs/agents.md)."""

from __future__ import annotations

import json
import random
import shlex
import sys
import time
from pathlib import Path

import pytest
from blackpoker.cli.main import main
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import Result
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.play.agents import Forfeit, decide
from blackpoker.runtime.play.greedy import GreedyAgent
from blackpoker.runtime.play.outside import CommandAgent, message
from blackpoker.runtime.play.roster import Seat, run_agent_name
from blackpoker.runtime.play.selfplay import game_seed, play_game
from click.testing import CliRunner
from editions_support import EDITIONS, compiled, formats

EDITION = EDITIONS[0]
SMALLEST = formats(EDITION)[0]
RULES = compiled(EDITION)[SMALLEST]
READ = "import sys, time\nsys.stdin.readline()\n"  # a program's start: the first decision read
KEEP = "; sys.stdout.flush()\nsys.stdin.read()\n"  # its end: what it wrote sent, and the game awaited
# time enough for a program to start and answer on a loaded machine, where none is to run out
PATIENT = Seat(timeout=60.0)
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "agents" / "longest.py"


def _program(tmp_path: Path, body: str) -> str:
    """A cmd: agent's name running `body` as a Python program."""
    path = tmp_path / "agent.py"
    path.write_text(body, encoding="utf-8")
    return run_agent_name(f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(path))}")


def _example() -> str:
    return run_agent_name(f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(EXAMPLE))}")


def test_the_example_agent_plays_whole_games_against_greedy() -> None:
    for index in range(2):
        record = play_game(RULES, (_example(), "greedy"), 1, index, seats=(PATIENT, PATIENT))
        assert record.crash is None and record.forfeit is None
        assert record.result is not None and record.decisions > 20
    # and as p2, through the command line
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            "--edition",
            EDITION,
            "--format",
            SMALLEST,
            "-n",
            "2",
            "--agents",
            f"greedy,{_example()}",
            "--agent-timeout",
            str(PATIENT.timeout),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "2 finished" in result.output and "FORFEIT" not in result.output


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("import sys, time\nsys.stdin.readline()\ntime.sleep(30)\n", "gave no answer within 0.5 s"),
        (
            "import sys\nfor line in sys.stdin:\n    print('not a move at all', flush=True)\n",
            "plays no legal option",
        ),
        ("import sys\nsys.stdin.readline()\nsys.exit(3)\n", "exited with status 3 without answering"),
        (
            "import sys\nsys.stdout.buffer.write(b'\\xff\\xfe\\n'); sys.stdout.flush()\nsys.stdin.read()\n",
            "not UTF-8",
        ),
        (
            "import sys\nsys.stdout.write('x' * 100000); sys.stdout.flush()\nsys.stdin.read()\n",
            "without ending the line",
        ),
    ],
    ids=["times out", "garbage", "exits", "not utf-8", "endless line"],
)
def test_a_program_that_fails_forfeits_its_game(tmp_path: Path, body: str, why: str) -> None:
    name = _program(tmp_path, body)
    # a short time only where the program is to run out of it: a loaded machine may take
    # longer than that to start a program that fails otherwise
    timeout = 0.5 if "within" in why else 60.0
    record = play_game(RULES, (name, "greedy"), 1, 0, seats=(Seat(timeout=timeout), Seat()))
    assert record.crash is None and record.failure is None
    assert record.result is Result.P2_WINS
    assert record.forfeit is not None and record.forfeit.startswith(f"p1 {name}: ") and why in record.forfeit


def test_a_program_that_cannot_start_forfeits(tmp_path: Path) -> None:
    record = play_game(RULES, ("greedy", f"cmd:{tmp_path / 'no-such-program'}"), 1, 0)
    assert record.result is Result.P1_WINS
    assert record.forfeit is not None and "cannot start" in record.forfeit


def test_simulate_reports_a_forfeit_and_goes_on(tmp_path: Path) -> None:
    name = _program(tmp_path, "import sys\nfor line in sys.stdin:\n    print('?', flush=True)\n")
    args = ["simulate", "--edition", EDITION, "--format", SMALLEST, "-n", "2", "--agents", f"{name},greedy"]
    result = CliRunner().invoke(main, [*args, "--json", "--agent-timeout", str(PATIENT.timeout)])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("FORFEIT seed ") == 2
    data = json.loads(result.stdout)
    assert data["completed"] == 2 and data["wins"] == {"p1": 0, "p2": 2}
    assert len(data["forfeits"]) == 2 and "plays no legal option" in data["forfeits"][0]


def test_the_program_runs_without_a_shell(tmp_path: Path) -> None:
    marker = tmp_path / "touched"
    words = f"{shlex.quote(sys.executable)} {shlex.quote(str(EXAMPLE))} ; touch {marker} $(touch {marker})"
    record = play_game(RULES, (f"cmd:{words}", "greedy"), 1, 0, seats=(PATIENT, PATIENT))
    assert record.forfeit is None and record.result is not None  # the words are arguments, unread
    assert not marker.exists()


def test_the_program_is_ended_with_its_game(tmp_path: Path) -> None:
    # a program that answers, but does not stop when its input ends
    body = (
        "import sys, time\n"
        "for line in sys.stdin:\n"
        "    print(json.loads(line)['options'][0], flush=True)\n"
        "time.sleep(60)\n"
    )
    name = _program(tmp_path, "import json\n" + body)
    agent = CommandAgent(shlex.split(name.partition(":")[2]), PATIENT.timeout)
    game = Game.new(RULES, 1)
    with agent:
        seats = (agent, GreedyAgent(RULES, 2))
        while game.to_move != 0:
            game.apply(decide(game, seats))
        game.apply(decide(game, seats))
        process = agent.process
        assert process is not None and process.poll() is None
    assert process.poll() is not None  # killed after the grace, and reaped


def test_the_message_is_the_players_view_alone() -> None:
    # Every card outside the view dealt anew gives the same message: nothing in it depends on
    # a card the player may not see.
    game = Game.new(RULES, 5)
    agents = [GreedyAgent(RULES, 5)] * 2
    rng = random.Random(0)
    checked = 0
    while not game.over and checked < 60:
        me = game.to_move
        assert me is not None
        seen = view(game, me)
        sent = json.dumps(message(seen), ensure_ascii=False)
        assert message(seen)["options"] and message(seen)["players"][1 - me]["hand"] is None
        public = seen.public
        assert public is not None
        for _ in range(2):
            dealt = public.sample(rng)
            assert json.dumps(message(view(dealt, me)), ensure_ascii=False) == sent
        checked += 1
        game.apply(decide(game, agents))
    assert checked == 60


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "cmd:,greedy"], "--agents: cmd: names no program"),
        (["--agents", "cmd:'unclosed,greedy"], "--agents: cannot read the program"),
        (["--agents", "cmd:bot,greedy", "--cluster", "tcp://h:9"], "--cluster: not with a cmd: agent"),
    ],
)
def test_a_cmd_agent_that_cannot_be_run_is_refused_before_any_game(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["simulate", "-n", "1", *args])
    assert result.exit_code == 1 and message in result.output, result.output


def test_agent_timeout_sets_the_time_a_program_may_take(tmp_path: Path) -> None:
    name = _program(tmp_path, f"{READ}time.sleep(30)\n")
    args = ["simulate", "--edition", EDITION, "--format", SMALLEST, "-n", "1", "--agents", f"greedy,{name}"]
    result = CliRunner().invoke(main, [*args, "--agent-timeout", "0.3"])
    assert result.exit_code == 0, result.output
    assert f"FORFEIT seed {game_seed(1, 0)}: p2 {name}: gave no answer within 0.3 s" in result.stderr


def test_a_program_that_stops_reading_forfeits_instead_of_hanging() -> None:
    agent = CommandAgent([sys.executable, "-c", "import time; time.sleep(30)"], 0.5)
    with agent:
        process = agent._started()
        with pytest.raises(Forfeit, match=r"did not read its decision within 0\.5 s"):
            agent._send(process, b"x" * 1_000_000, time.monotonic() + 0.5)  # more than a pipe holds
