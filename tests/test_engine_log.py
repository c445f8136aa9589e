"""Command logs: simulated games replay to the same state hash; a bad log is refused, located."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from blackpoker.cli.main import main
from blackpoker.compiler import compile
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.play.log import replay
from blackpoker.runtime.play.log_writer import LOG_KIND, log_lines
from blackpoker.runtime.play.loop import play
from blackpoker.runtime.play.selfplay import random_agents
from click.testing import CliRunner
from editions_support import EDITIONS, formats

EDITION = EDITIONS[0]
SMALLEST = formats(EDITION)[0]
RULESET = compile(EDITION, SMALLEST)


def _end(path: Path) -> dict[str, object]:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[-1])


GAMES_PER_FORMAT = 20


@pytest.mark.parametrize(("edition", "format_id"), [(e, f) for e in EDITIONS for f in formats(e)])
def test_simulated_games_checked_at_every_decision_replay_to_their_state_hashes(
    tmp_path: Path, edition: str, format_id: str
) -> None:
    """`simulate` checks the invariants after every decision by default; every log it writes
    replays, event by event, to its decisions, result and state hash."""
    logs = tmp_path / "logs"
    run = [
        "simulate",
        "--edition",
        edition,
        "--format",
        format_id,
        "-n",
        str(GAMES_PER_FORMAT),
        "--seed",
        "1",
        "--json",
    ]
    result = CliRunner().invoke(main, [*run, "--logs", str(logs)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["completed"] == GAMES_PER_FORMAT
    files = sorted(logs.iterdir())
    assert [f.name for f in files[:2]] == ["game-0000.jsonl", "game-0001.jsonl"]
    assert len(files) == GAMES_PER_FORMAT and list(tmp_path.iterdir()) == [logs]  # writes only into --logs
    for file in files:
        end = _end(file)
        done = replay(file)
        assert (done.state, done.decisions, done.result) == (end["state"], end["decisions"], end["result"])
    longest = max(files, key=lambda f: _end(f)["decisions"])  # type: ignore[arg-type, return-value]
    result = CliRunner().invoke(main, ["replay", str(files[0]), str(longest)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "2 replayed, 0 failed"


def _game_log(tmp_path: Path) -> tuple[Path, list[str]]:
    game = Game.new(RULESET, 5, events=[])
    agents = random_agents(5)
    play(game, agents)
    lines = [json.dumps(line, ensure_ascii=False) for line in log_lines(game, [a.name for a in agents])]
    return tmp_path / "game.jsonl", lines


def _first(lines: list[str], event: str, after: int = 0) -> int:
    return next(i for i, line in enumerate(lines) if i > after and json.loads(line).get("event") == event)


def _tamper_option(lines: list[str]) -> tuple[int, str]:
    """Another legal option's text in a decision line (index kept): the replay's event differs."""
    i = _first(lines, "decision", _first(lines, "decision"))
    data = json.loads(lines[i])
    data["option"] = "pass" if data["option"] != "pass" else "done"
    lines[i] = json.dumps(data, ensure_ascii=False)
    return i, f"the log records option '{data['option']}', the replay gives"


def _tamper_index(lines: list[str]) -> tuple[int, str]:
    i = _first(lines, "decision")
    lines[i] = lines[i].replace('"index": ', '"index": 9999')
    return i, "is out of range: there are"


def _tamper_json(lines: list[str]) -> tuple[int, str]:
    i = _first(lines, "resolved")
    lines[i] = lines[i][:-1]
    return i, "not a JSON value"


def _tamper_ruleset(lines: list[str]) -> tuple[int, str]:
    data = json.loads(lines[0])
    data["ruleset"] = "0" * 64
    lines[0] = json.dumps(data)
    return 0, "the rules changed since, so it cannot be replayed faithfully"


def _tamper_state(lines: list[str]) -> tuple[int, str]:
    data = json.loads(lines[-1])
    data["state"] = "f" * 64
    lines[-1] = json.dumps(data)
    return len(lines) - 1, "the log records state 'ffff"


def _tamper_drop_event(lines: list[str]) -> tuple[int, str]:
    i = _first(lines, "resolved")
    del lines[i]
    return i, "the log records event"


def _tamper_cut(lines: list[str]) -> tuple[int, str]:
    del lines[len(lines) // 2 :]
    return len(lines) - 1, "the log has no closing 'end' line"


@pytest.mark.parametrize(
    "tamper",
    [
        _tamper_option,
        _tamper_index,
        _tamper_json,
        _tamper_ruleset,
        _tamper_state,
        _tamper_drop_event,
        _tamper_cut,
    ],
)
def test_a_tampered_log_is_refused_with_a_located_message(tmp_path: Path, monkeypatch, tamper) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    path, lines = _game_log(tmp_path)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    assert replay(path).state == json.loads(lines[-1])["state"]  # untouched, it replays
    index, message = tamper(lines)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "game.jsonl"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    problem = result.stderr.splitlines()[0]
    assert problem.startswith(f"game.jsonl:{index + 1}:"), problem
    assert message in problem
    assert result.stdout.splitlines()[-1] == "0 replayed, 1 failed"


def test_a_file_that_is_not_a_log_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"hello": 1}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path), str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 1
    assert (
        f"{path}:1:1: not a command log: the first line must be its header (log: {LOG_KIND})" in result.stderr
    )
    assert f"{tmp_path / 'missing.jsonl'}:1:1: cannot read file" in result.stderr


# --- the header is an input like any file ------------------------------------------------


def _with_header(tmp_path: Path, header: str) -> Path:
    log, lines = _game_log(tmp_path)
    log.write_text("\n".join([header, *lines[1:]]) + "\n", encoding="utf-8")
    return log


def test_a_header_with_a_mistyped_agent_and_a_repeated_key_is_refused_with_both(tmp_path: Path) -> None:
    log, lines = _game_log(tmp_path)
    header = json.loads(lines[0])
    agent = header["agents"][0]
    kind = agent.split(":")[0]
    mistyped = lines[0].replace(f'"{agent}"', f'"{kind[:-1]}:{agent.partition(":")[2]}"', 1)
    twice = mistyped.replace('"seed":', f'"format": "{header["format"]}", "seed":', 1)
    result = CliRunner().invoke(main, ["replay", str(_with_header(tmp_path, twice))])
    assert result.exit_code == 1 and "Traceback" not in result.output
    column = twice.index('"format"', twice.index('"format"') + 1) + 1
    assert f"{log}:1:{column}: 'format' is given twice" in result.stderr, result.stderr
    column = twice.index(f'"{kind[:-1]}:') + 1
    assert (
        f"{log}:1:{column}: unknown agent '{kind[:-1]}:" in result.stderr
        and f"did you mean '{kind}'" in result.stderr
    )
    assert result.stderr.splitlines()[-1] == "2 problems found"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda h: h | {"agent": h["agents"]}, "unknown key 'agent'; did you mean 'agents'?"),
        (lambda h: h | {"agents": h["agents"][:1]}, "'agents' names 1 players, not 2"),
        (
            lambda h: h | {"agents": ["search:x:1", h["agents"][1]]},
            "the search agent is recorded as search:BUDGET:SEED",
        ),
        (lambda h: h | {"agents": [7, h["agents"][1]]}, "agent 7 is not a name"),
    ],
    ids=["unknown-key", "one-agent", "agent-form", "agent-not-text"],
)
def test_a_header_with_an_unknown_value_is_refused_located(tmp_path: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    _, lines = _game_log(tmp_path)
    header = change(json.loads(lines[0]))
    result = CliRunner().invoke(
        main, ["replay", str(_with_header(tmp_path, json.dumps(header, ensure_ascii=False)))]
    )
    assert result.exit_code == 1 and "Traceback" not in result.output
    located = [
        line for line in result.stderr.splitlines() if line.startswith(f"{tmp_path / 'game.jsonl'}:1:")
    ]
    assert any(message in line for line in located), result.stderr
