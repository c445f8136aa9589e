"""Every benchmark in benchmarks/ still runs: each main() with tiny sizes (timings are not checked)."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
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
    "bench_search": (
        ["1", "1", "--budget", "4"],
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
    name: str, benchmarks: None, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, expected = SMOKE[name]
    importlib.import_module(name).main(argv)
    out = capsys.readouterr().out
    assert re.search(expected, out), out


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
