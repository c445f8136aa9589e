"""`blackpoker simulate`: per-game seeds and parallel jobs, the statistics, the report forms,
overlays and --compare, and bad input."""

from __future__ import annotations

import gc
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from blackpoker.cli.main import main
from blackpoker.compiler import compile
from blackpoker.runtime.play.selfplay import YOUNG_THRESHOLD, frozen_between, game_seed
from blackpoker.runtime.play.simulation import Plan, RulesSource, run_all
from blackpoker.runtime.play.stats import Difference, Rate, Spread, wilson
from click.testing import CliRunner
from editions_support import EDITIONS, acting, formats
from simulate_support import EDITION, SMALLEST, local_rule
from site_support import HOSTILE

# The games are played in the newest edition's smallest format, named on every command line.
PLAY = ("--edition", EDITION, "--format", SMALLEST)


def _run(*args: str) -> Any:
    result = CliRunner().invoke(main, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return result


def _json(*args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_run(*args, "--json").stdout)
    return data


def _without_time(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "seconds"}


def test_one_and_two_jobs_give_identical_results() -> None:
    args = ("-n", "48", "--seed", "7", "--agents", "random,greedy")
    one = _json(*args, "--jobs", "1")
    two = _json(*args, "--jobs", "2")
    assert _without_time(one) == _without_time(two)
    assert one["games"] == one["completed"] == 48
    assert _json(*args[:-2], "--agents", "random,random") != one  # the agents matter


def test_the_workers_play_the_rule_set_compiled_here(tmp_path: Path) -> None:
    rules = local_rule(tmp_path)
    source = RulesSource(EDITION, "my-rules", rules)
    compiled = source.compile()
    rules.unlink()  # a worker that compiled the rules itself would not find them
    plan = Plan(source, ("random", "greedy"), 3, 12)
    records = run_all(plan, jobs=2, rules=compiled)
    assert [r.index for r in records] == list(range(12))
    assert all(r.failure is None for r in records)
    assert records == run_all(plan, jobs=1, rules=compiled)


def test_a_run_freezes_the_heap_between_games_and_thaws_it_at_its_end() -> None:
    plan = Plan(RulesSource(EDITION, SMALLEST), ("random", "random"), 1, 3)
    before = gc.get_threshold()
    assert all(gc.get_freeze_count() > 0 for _ in frozen_between(range(2)))
    assert all(gc.get_threshold()[0] == YOUNG_THRESHOLD > before[0] for _ in frozen_between(range(2)))
    run_all(plan)
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before
    gc.freeze()  # frozen before the run by someone else: left so
    try:
        run_all(plan)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def _workers(pid: int) -> list[str]:
    """The worker processes `pid` has started (their command lines name multiprocessing's spawn)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    lines = [Path(f"/proc/{child}/cmdline").read_bytes() for child in children]
    return [child for child, line in zip(children, lines, strict=True) if b"spawn_main" in line]


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads child processes from /proc")
@pytest.mark.parametrize("playing", [0.0, 2.0], ids=["while-the-workers-start", "while-they-play"])
def test_ctrl_c_stops_a_run_with_jobs_at_once_and_no_worker_prints_a_traceback(playing: float) -> None:
    exe = shutil.which("blackpoker") or pytest.fail("the blackpoker console script is not installed")
    process = subprocess.Popen(
        [exe, "simulate", "-n", "100000", "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, which Ctrl-C signals as a whole
    )
    try:
        while process.poll() is None and len(_workers(process.pid)) < 2:
            time.sleep(0.01)
        time.sleep(playing)  # 0: the workers are still importing the package
        os.killpg(process.pid, signal.SIGINT)
        # The workers share stderr: it closes only when the parent and every worker have ended.
        _, errors = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 1
    assert errors.strip() == "Aborted!"


def test_a_game_seed_depends_on_the_run_seed_and_the_index_only() -> None:
    seeds = {game_seed(s, i) for s in range(1, 4) for i in range(1000)}
    assert len(seeds) == 3000
    assert game_seed(1, 5) == game_seed(1, 5)


def test_the_json_keeps_the_old_keys_and_adds_the_statistics() -> None:
    data = _json(*PLAY, "-n", "60", "--seed", "3")
    assert {"games", "completed", "decisions", "seconds", "wins", "draws", "failures"} <= set(data)
    rates = data["rates"]
    done = data["completed"]
    assert rates["first"]["count"] + rates["second"]["count"] + rates["draw"]["count"] == done
    assert rates["p1"]["count"] == data["wins"]["p1"] and rates["draw"]["count"] == data["draws"]
    for rate in rates.values():
        low, high = rate["ci95"]
        assert rate["total"] == done and low <= rate["rate"] <= high
    assert data["turns"]["q1"] <= data["turns"]["median"] <= data["turns"]["q3"]
    assert sum(data["turn_histogram"].values()) == done
    ruleset = compile(EDITION, SMALLEST)
    actions = {a["id"]: a for a in data["actions"]}
    assert list(actions) == [a.id for a in ruleset.actions if a.direct]
    assert actions[acting(ruleset, "pass_turn").id]["games"] == done  # every game passes a turn
    for action in actions.values():
        assert action["games"] <= action["uses"]
        assert action["user_wins"]["total"] >= action["games"]  # one or both players used it


def test_the_terminal_report_has_the_three_tables() -> None:
    out = _run(*PLAY, "-n", "20", "--seed", "2", "--agents", "greedy,random").stdout
    assert "p1 greedy vs p2 random" in out
    every_game = acting(compile(EDITION, SMALLEST), "pass_turn").name
    for text in ("first player wins", "second player wins", "draws", "median [quartiles]", every_game):
        assert text in out


def test_an_overlay_runs_and_its_added_action_is_reported(tmp_path: Path) -> None:
    data = _json("--rules", str(local_rule(tmp_path)), "-n", "30")
    assert data["format"] == "my-rules" and data["completed"] == 30
    assert "shout" in [a["id"] for a in data["actions"]]


def test_compare_puts_a_local_rule_beside_its_base(tmp_path: Path) -> None:
    rules = str(local_rule(tmp_path))
    data = _json("--edition", EDITION, "--compare", SMALLEST, rules, "-n", "40", "--seed", "5")
    base, local = data["compare"]
    assert (base["format"], local["format"]) == (SMALLEST, "my-rules")
    assert _without_time(base) == _without_time(_json(*PLAY, "-n", "40", "--seed", "5"))  # the same games
    differences = data["differences"]
    first = differences["rates"]["first"]
    assert first["difference"] == pytest.approx(
        local["rates"]["first"]["rate"] - base["rates"]["first"]["rate"]
    )
    assert "shout" not in differences["actions"]  # only in one of them
    out = _run("--edition", EDITION, "--compare", SMALLEST, rules, "-n", "10").stdout
    assert "difference (95% CI)" in out and "my-rules" in out and "シャウト" in out


def test_html_report_is_self_contained_and_escapes_rule_text(tmp_path: Path) -> None:
    rules = local_rule(tmp_path, title=HOSTILE, name=HOSTILE)
    out = tmp_path / "report.html"
    _run("--edition", EDITION, "--compare", SMALLEST, str(rules), "-n", "20", "--html", str(out))
    html = out.read_text(encoding="utf-8")
    assert html.count("<svg") == 4
    assert "<script" not in html and HOSTILE not in html and "&lt;script&gt;" in html
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in html
    assert sorted(tmp_path.iterdir()) == sorted([rules, out])


def test_logs_are_written_by_the_workers_too(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    data = _json("-n", "12", "--jobs", "2", "--logs", str(logs))
    assert data["completed"] == 12
    assert sorted(f.name for f in logs.iterdir()) == [f"game-{i:04d}.jsonl" for i in range(12)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "random"], "--agents: expected two of random, first, greedy"),
        (["--agents", "random,smart"], "--agents: unknown agent 'smart'"),
        (["--agents", "search:0,random"], "--agents: the budget of 'search:0'"),
        (["--agents", "search:x,random"], "--agents: the budget of 'search:x'"),
        (["--agents", "greedy:5,random"], "--agents: the greedy agent takes no budget"),
        (["--compare", SMALLEST, "nope.yaml"], "nope.yaml:1:1: cannot read file"),
        (["--compare", SMALLEST, SMALLEST, "--format", SMALLEST], "--compare: it names both rule sets"),
        (["--compare", SMALLEST, formats(EDITION)[-1], "--logs", "x"], "--logs: not with --compare"),
        (["--html", "missing/report.html"], "--html: missing: no such folder"),
        (["--format", "nope"], "no format 'nope'"),
    ],
)
def test_bad_options_are_reported_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["simulate", "-n", "1", *args])
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_compared_file_that_is_no_rule_source_is_located(tmp_path: Path) -> None:
    scenario = tmp_path / "mine.yaml"
    scenario.write_text("kind: scenario\n", encoding="utf-8")
    result = CliRunner().invoke(
        main, ["simulate", "--edition", EDITION, "--compare", SMALLEST, str(scenario)]
    )
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.startswith(f"{scenario}:1:"), result.stderr


def test_wilson_interval_known_values() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson(10, 10)
    assert round(low, 4) == 0.7225 and high == pytest.approx(1.0)


def test_newcombe_difference_and_quartiles() -> None:
    same = Difference.of(Rate(50, 100), Rate(50, 100))
    assert same.value == 0 and same.low < 0 < same.high and not same.clear
    apart = Difference.of(Rate(20, 100), Rate(80, 100))
    assert apart.value == pytest.approx(0.6) and apart.clear and 0.45 < apart.low < apart.high < 0.75
    spread = Spread.of([1, 2, 3, 4, 5])
    assert (spread.q1, spread.median, spread.q3, spread.low, spread.high) == (2, 3, 4, 1, 5)
    assert Spread.of([7]).median == 7


def test_check_after_every_decision_plays_the_same_games() -> None:
    args = ["-n", "6", "--seed", "2"]
    assert _without_time(_json(*args, "--check")) == _without_time(_json(*args))


def test_a_rules_file_changed_between_two_runs_in_one_process_is_read_again(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    example = (Path(__file__).parents[1] / "examples" / "my-std.yaml").read_text(encoding="utf-8")
    rules.write_text(example, encoding="utf-8")
    first = CliRunner().invoke(main, ["simulate", "--rules", str(rules), "-n", "2", "--json"])
    assert first.exit_code == 0, first.output
    rules.write_text(example + "\nunknown_key: 1\n", encoding="utf-8")
    second = CliRunner().invoke(main, ["simulate", "--rules", str(rules), "-n", "2", "--json"])
    assert second.exit_code == 1
    assert "unknown_key" in second.stderr


def test_the_guides_one_liner_ranks_the_actions_of_two_editions_reports(tmp_path: Path) -> None:
    """The balance note's command (docs/simulate.md) joins two editions' --json reports by action
    id and prints the five actions whose share of games moved most, largest first."""
    guide = (Path(__file__).parents[1] / "docs" / "simulate.md").read_text(encoding="utf-8")
    (script,) = re.findall(r'^python3 -c "(.*)" \S+\.json \S+\.json$', guide, re.M)
    reports = []
    for edition in (EDITIONS[-1], EDITIONS[0]):  # the oldest and the newest, each its largest format
        result = CliRunner().invoke(
            main, ["simulate", "--edition", edition, "--format", formats(edition)[-1], "-n", "4", "--json"]
        )
        assert result.exit_code == 0, result.output
        path = tmp_path / f"{edition}.json"
        path.write_text(result.stdout, encoding="utf-8")
        reports.append(json.loads(result.stdout))
    done = subprocess.run(
        [sys.executable, "-c", script, *(str(tmp_path / f"{e}.json") for e in (EDITIONS[-1], EDITIONS[0]))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    shares = [{a["id"]: a["share"] for a in r["actions"]} for r in reports]
    moved = {i: shares[1].get(i, 0) - shares[0].get(i, 0) for i in shares[0].keys() | shares[1].keys()}
    names = {a["name"] for r in reports for a in r["actions"]}
    lines = done.stdout.splitlines()
    assert len(lines) == 5
    printed = [float(moves[0]) for line in lines if (moves := re.findall(r"\(([-+][\d.]+)\)", line))]
    assert len(printed) == 5
    assert printed == sorted(printed, key=abs, reverse=True)
    assert abs(printed[0]) == pytest.approx(100 * max(abs(d) for d in moved.values()), abs=0.05)
    assert all(line.split(" share ")[0] in names for line in lines)
