"""Every benchmark in benchmarks/ still runs: each main() with tiny sizes (timings are not checked);
the goal table of `python benchmarks` reads the goals and the scripts' results right."""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
# Tiny sizes, and a line each run must print.
SMOKE: dict[str, tuple[list[str], str]] = {
    # Every page of every built-in edition, HTML only.
    "bench_build": (
        ["--runs", "1", "--html-only"],
        r"editions [\w., -]+: all formats.*\nhtml: median [\d.]+ s wall",
    ),
    "bench_compile": (
        ["1"],
        r"compile of all [\w.]+ formats +median +[\d.]+ ms(.|\n)*goal fresh process <= 500 ms: (met|NOT MET)",
    ),
    "bench_large": (
        ["1", "--sizes", "20", "--based", "10"],
        r"[\w.]+ \+ 20 actions +\d+ KiB +median +[\d.]+ s CPU(.|\n)*"
        r"based on [\w.]+ \+ 10 .*s per 1,000 actions added",
    ),
    "bench_engine": (["2", "1"], r"goal engine >= 100,000 decisions/s: [\d,]+, (met|NOT MET)"),
    "bench_notation": (["--repeats", "1", "--rounds", "1", "--hands", "1"], r"key parsing +[\d,]+ parses/s"),
    "bench_openspiel": (["2", "2", "1", "--no-setup"], r"goal simulate >= 0.8 x engine: [\d.]+"),
    "bench_rules": (
        [str(ROOT / "examples" / "my-std.yaml"), "--runs", "1", "--html-only"],
        r"build --rules my-std.yaml \(HTML only\): median [\d.]+ s wall",
    ),
    "bench_search": (
        ["2", "1", "--budget", "4"],
        r"search:4 vs greedy(.|\n)*goal search:4 >= [\d.]+ games/s on one core: [\d.]+, (met|NOT MET)",
    ),
    "bench_simulate": (["1", "1", "2", "1"], r"\w+ --jobs 1: [\d.]+ games/s, --jobs 2: [\d.]+ games/s"),
    "bench_play_page": (
        ["1", "2"],
        r"page size [\d.]+ MB(.|\n)*time to first decision: median [\d.]+ s cold",
    ),
    "bench_serve": (["10", "1"], r"goal decision round-trip <= 50 ms: [\d.]+ ms, (met|NOT MET)"),
    "bench_startup": (["1"], r"goal --version <= 3 x python3 -c pass: [\d.]+, (met|NOT MET)"),
}


@pytest.fixture
def benchmarks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Import benchmarks/ as the scripts see it (bench_openspiel imports bench_engine)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    yield


def test_every_benchmark_is_smoke_tested() -> None:
    assert sorted(p.stem for p in BENCHMARKS.glob("bench_*.py")) == sorted(SMOKE)


@pytest.mark.parametrize("name", sorted(SMOKE))
def test_a_benchmark_runs_with_tiny_sizes(
    name: str, benchmarks: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A script that measures goals also writes each of its figures, or why it has none, as a
    result line of a metric it declares."""
    argv, expected = SMOKE[name]
    module = importlib.import_module(name)
    declared = getattr(module, "METRICS", {})
    results = tmp_path / "results.jsonl"
    module.main([*argv, *(["--results", str(results)] if declared else [])])
    out = capsys.readouterr().out
    assert re.search(expected, out), out
    lines = [json.loads(line) for line in results.read_text().splitlines()] if declared else []
    for line in lines:
        assert line["metric"] in declared, line
        if "missing" not in line:
            assert line["unit"] == declared[line["metric"]] and line["rounds"] >= 1, line
            assert isinstance(line["median"], float), line
    assert not declared or lines, f"{name} declares METRICS but wrote no result"


def test_searches_are_counted_per_decision_and_the_engine_is_left_as_it_was(
    benchmarks: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """count_searches.py: each decision computes its option list once, asked by the agent;
    a search is made at most as often as asked; the counting is undone after the run."""
    count = importlib.import_module("count_searches")
    search = importlib.import_module("blackpoker.runtime.engine.option_search").search
    count.main(["2", "--greedy-games", "1", "--callers"])
    out = capsys.readouterr().out
    rows = re.findall(
        r"^\| \S+ \w+ \| (random|greedy) \| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|", out, re.M
    )
    assert len(rows) == 4, out  # two formats, two pairs of agents
    for _, decisions, lists, asked, made in rows:
        assert int(decisions) > 0 and float(lists) == 1.0 and float(made) <= float(asked) < 1.0, out
    assert "option lists | agents.py:decide" in out
    assert importlib.import_module("blackpoker.runtime.engine.option_search").search is search


def test_the_engine_loops_play_the_same_games(benchmarks: None) -> None:
    bench = importlib.import_module("bench_engine")
    counts = {loop.label: loop.play(2, 7) for loop in bench.LOOPS}
    assert len(set(counts.values())) == 1 and min(counts.values()) > 0, counts


@pytest.fixture
def openspiel(benchmarks: None) -> ModuleType:
    """bench_openspiel, when OpenSpiel's own environment exists (.ci/run creates it)."""
    bench = importlib.import_module("bench_openspiel")
    if not bench.available():
        pytest.skip(
            f"OpenSpiel's environment benchmarks/{bench.VENV.name} is absent "
            "(python benchmarks/bench_openspiel.py --setup creates it)"
        )
    return bench


def test_the_openspiel_driver_counts_player_decisions_of_hearts(openspiel: ModuleType) -> None:
    bench = openspiel
    run = bench.play_openspiel(bench.REFERENCE, 4, 1)
    # 52 cards played, plus 3 passed by each of 4 players in 3 hands out of 4; the deal is chance.
    assert run.games == 4 and 4 * 52 <= run.decisions <= 4 * 64, run
    assert run.chance >= 4 * 52 and run.seconds > 0, run


def test_the_comparison_prints_the_ratio_to_hearts(
    openspiel: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    openspiel.main(["2", "2", "1", "--no-setup"])
    out = capsys.readouterr().out
    assert re.search(r"OpenSpiel hearts \(C\+\+, Python loop\) +[\d,]+ decisions/s", out), out
    assert re.search(r"engine/hearts [\d.]+, simulate/hearts [\d.]+", out), out
    assert re.search(r"goal simulate/hearts >= 0.5: [\d.]+, (met|NOT MET)", out), out


def test_two_builds_are_timed_at_once_on_one_core(
    benchmarks: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """compare_builds.py installs a revision (pure Python here: a compiled build takes
    minutes) and races the two sides; the same revision twice plays the same games."""
    compare = importlib.import_module("compare_builds")
    monkeypatch.setattr(compare, "BUILDS", tmp_path)
    compare.main(["HEAD", "--pure", "--rounds", "2", "--games", "2"])
    out = capsys.readouterr().out
    assert re.search(r"changed / base: median ratio \d\.\d{3} of 2 rounds", out), out
    assert "different games" not in out
    compare.main(["HEAD", "--pure", "--rounds", "2", "--games", "2", "--loop", "simulate"])
    out = capsys.readouterr().out
    assert "simulate_path loop" in out and re.search(r"median ratio \d\.\d{3} of 2 rounds", out), out
    assert "different games" not in out
    compare.main(["HEAD", "--pure", "--rounds", "2", "--games", "2", "--search", "lite"])
    out = capsys.readouterr().out
    assert "search:32 vs greedy on lite" in out and re.search(r"median ratio \d\.\d{3} of 2 rounds", out), out
    assert "different games" not in out
    (build,) = tmp_path.iterdir()  # one build serves both sides
    assert (build / compare.READY).read_text() == compare.commit("HEAD")


def test_a_revision_that_names_no_commit_is_refused(benchmarks: None) -> None:
    compare = importlib.import_module("compare_builds")
    with pytest.raises(SystemExit, match="'no-such-revision' is not a commit of this repository"):
        compare.main(["no-such-revision", "--pure"])


def test_same_games_lists_every_rule_set_of_the_registry_and_plays_from_a_checkout(
    benchmarks: None, tmp_path: Path
) -> None:
    """same_games.py checks out a revision and runs it from there: the rule sets it plays are
    the registry's (every built-in edition's formats, and extra where it has an extra list),
    and a report it reads has no clock."""
    from blackpoker.compiler.documents.extra import EXTRA_FORMAT
    from editions_support import EDITIONS, environment, formats

    same = importlib.import_module("same_games")
    checkout = same.Checkout(same.commit("HEAD"), tmp_path / "head")
    listed = same.json.loads(checkout.python("-c", same.LIST_RULE_SETS))
    expected = [
        [e, f]
        for e in EDITIONS
        for f in [*formats(e), *([EXTRA_FORMAT.id] if environment().extras(e) else [])]
    ]
    assert listed == expected
    args = same.arguments(["HEAD", "-n", "2"])
    report = checkout.simulate(EDITIONS[0], formats(EDITIONS[0])[0], args, tmp_path / "logs")
    assert same.CLOCK not in report and report["games"] == 2 and report["decisions"] > 0
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == ["game-0000.jsonl", "game-0001.jsonl"]


def test_same_games_names_the_first_difference(benchmarks: None, tmp_path: Path) -> None:
    same = importlib.import_module("same_games")
    a = {"games": 2, "wins": {"p1": 1, "p2": 1}, "actions": [{"id": "x", "uses": 3}]}
    assert same.first_difference(a, a) is None
    b = {"games": 2, "wins": {"p1": 1, "p2": 1}, "actions": [{"id": "x", "uses": 4}]}
    assert same.first_difference(a, b) == ".actions[0].uses: 3 → 4"
    assert same.first_difference(a, {**a, "actions": []}) == ".actions: 1 items, then 0"
    base, changed = tmp_path / "base", tmp_path / "changed"
    for folder, last in ((base, "pass"), (changed, "サーチ ★Joker")):
        folder.mkdir()
        (folder / "game-0000.jsonl").write_text("same\n", encoding="utf-8")
        (folder / "game-0001.jsonl").write_text(f"same\n{last}\n", encoding="utf-8")
    assert same.log_difference(base, changed) == "game-0001.jsonl:2: pass  →  サーチ ★Joker"
    (changed / "game-0002.jsonl").write_text("", encoding="utf-8")
    (changed / "game-0001.jsonl").write_text("same\npass\n", encoding="utf-8")
    assert same.log_difference(base, changed) == "game-0002.jsonl: written by one revision only"


@pytest.fixture
def goals(benchmarks: None) -> ModuleType:
    return importlib.import_module("goals")


def test_the_goals_file_is_valid_and_every_goal_is_measured_by_a_script(goals: ModuleType) -> None:
    """Every goal names a script that declares its metric (read from the scripts' text, not
    run), or says why none measures it; every script has its --quick arguments."""
    found = goals.load()
    assert sorted(found.scripts) == goals.script_names()
    ids = [goal.id for goal in found.goals]
    assert len(ids) == len(set(ids)) >= 20, ids
    for goal in found.goals:
        if goal.unmeasured is None:
            declared = goals.declared_metrics(BENCHMARKS / f"bench_{goal.script}.py")
            assert goal.metric in declared, goal
        else:
            assert goal.script is None and goal.metric is None, goal


def test_a_bad_goals_file_is_refused_with_every_problem_located(goals: ModuleType, tmp_path: Path) -> None:
    text = (BENCHMARKS / "goals.yaml").read_text()
    text = text.replace('compare: ">=", threshold: 0.35', 'compare: "=>", threshold: 0.35', 1)
    text = text.replace("metric: startup.version_ratio", "metric: startup.versions", 1)
    text = text.replace("id: build-pdf,", "id: build-html,", 1)
    bad = tmp_path / "goals.yaml"
    bad.write_text(text)
    with pytest.raises(goals.GoalsError) as raised:
        goals.load(bad)
    lines = str(raised.value).splitlines()
    assert any(
        re.match(rf"{re.escape(str(bad))}:\d+:\d+: goals\.0\.compare: '=>' is not one of", line)
        for line in lines
    )
    assert len(lines) == 1, lines  # the meaning is checked once the shape is right
    fixed = text.replace('"=>"', '">="')
    bad.write_text(fixed)
    with pytest.raises(goals.GoalsError) as raised:
        goals.load(bad)
    where = rf"{re.escape(str(bad))}:\d+:\d+: "
    message = str(raised.value)
    assert re.search(
        where + r"metric: bench_startup.py does not write 'startup.versions' \(its METRICS: ", message
    )
    assert re.search(where + r"id: 'build-html' is used twice", message), message


def _goal(goals: ModuleType, compare: str, threshold: float, script: str | None = "s") -> object:
    metric = "s.figure" if script else None
    why = None if script else "needs a fresh machine"
    return goals.Goal(
        f"g{compare}{threshold}", "a figure", "issue 1", compare, threshold, "x", script, metric, why
    )


def test_the_goals_are_marked_met_not_met_or_not_measured_from_the_result_lines(goals: ModuleType) -> None:
    result = {"s.figure": {"metric": "s.figure", "median": 2.0, "rounds": 5, "unit": "x", "note": "one note"}}
    cases = [
        (_goal(goals, ">=", 2.0), result, {}, "met"),
        (_goal(goals, ">=", 2.5), result, {}, "NOT MET"),
        (_goal(goals, "<=", 2.0), result, {}, "met"),
        (_goal(goals, "<=", 1.5), result, {}, "NOT MET"),
        (
            _goal(goals, ">=", 1),
            {"s.figure": {"metric": "s.figure", "missing": "OpenSpiel absent"}},
            {},
            "not measured: OpenSpiel absent",
        ),
        (_goal(goals, ">=", 1), {}, {"s": "failed (exit 2)"}, "not measured: bench_s.py failed (exit 2)"),
        (_goal(goals, ">=", 1), {}, {}, "not measured: bench_s.py wrote no figure for it"),
        (_goal(goals, "<=", 4, script=None), result, {}, "not measured: needs a fresh machine"),
    ]
    for goal, found, failed, verdict in cases:
        (row,) = goals.rows([goal], found, failed)
        assert row.verdict == verdict, (goal, row)
        assert (row.median, row.rounds) == ((2.0, 5) if verdict in ("met", "NOT MET") else (None, None)), row
    table = goals.table(goals.rows([cases[1][0]], result, {}), lambda goal: f"rerun {goal.id}")
    assert "| a figure ≥ 2.5 x (issue 1) | 2.00 x (one note) | 5 | NOT MET | `rerun g>=2.5` |" in table, table


def test_the_results_file_keeps_the_last_line_of_a_metric_and_names_a_bad_line(
    goals: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "results.jsonl"
    first = {"metric": "a", "median": 1.0, "rounds": 3, "unit": "x"}
    no_rounds = {"metric": "b", "median": 1.0}
    lines = [first, "not json", {**first, "median": 2.0}, no_rounds, {"metric": "c", "missing": "why"}]
    path.write_text("".join(f"{line if isinstance(line, str) else json.dumps(line)}\n" for line in lines))
    found, bad = goals.read_results(path)
    assert found == {"a": {**first, "median": 2.0}, "c": {"metric": "c", "missing": "why"}}, found
    assert [line.split(": not a result line")[0] for line in bad] == ["results.jsonl:2", "results.jsonl:4"], (
        bad
    )


def test_python_benchmarks_runs_a_subset_and_ends_with_the_goal_table() -> None:
    """The collector end to end on its cheapest script, with --quick."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS), "--only", "key-parsing", "--quick"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    table = done.stdout.split("== goals: 1 script run --quick in ", 1)[1]
    row = r"\| key parsing ≥ 20,000 parses/s \(docs/benchmarks.md\) \| [\d,]+ parses/s \| 3 \| "
    row += r"(met|NOT MET) \| "
    rerun = r"`python benchmarks --only key-parsing --quick` \|"
    assert re.search(row + rerun, table), table
    assert table.count("\n| ") == 3, table  # the header, its rule and the one goal asked for


def test_an_unknown_name_for_only_is_refused_with_the_nearest() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS), "--only", "serch"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1 and not done.stdout, done
    assert "--only: 'serch' is neither a script nor a measured goal" in done.stderr
    assert "did you mean 'search'" in done.stderr, done.stderr
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS), "--only", ","], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1 and "--only: expected script names or goal ids" in done.stderr, done


def test_a_script_that_fails_makes_its_goals_not_measured_and_the_run_fail(
    goals: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = importlib.util.spec_from_file_location("benchmarks_main", BENCHMARKS / "__main__.py")
    assert spec is not None and spec.loader is not None
    collector = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(collector)
    found = goals.load()
    (goal,) = [goal for goal in found.goals if goal.script == "rules"]
    broken = goals.Script("rules", (str(tmp_path / "absent.yaml"),), (), found.scripts["rules"].metrics)
    failed = collector.run(goals.Goals({"rules": broken}, (goal,)), ["rules"], False, tmp_path / "r.jsonl")
    assert failed == {"rules": "failed (exit 2)"}, failed
    assert "== bench_rules.py failed (exit 2) in " in capsys.readouterr().out
    (row,) = goals.rows([goal], {}, failed)
    assert row.verdict == "not measured: bench_rules.py failed (exit 2)"
