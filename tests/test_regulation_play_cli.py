"""`simulate --regulation/--deck/--match` and scenarios set up from a regulation: results,
reproducibility, and bad input located with exit 1 and no traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from blackpoker.cli.main import main
from blackpoker.runtime.scenario.load import load
from click.testing import CliRunner
from editions_support import EDITIONS
from regulation_support import regulated_edition

ROOT = Path(__file__).resolve().parents[1]
DECKS = ROOT / "examples" / "decks"
# the frames these tests use are the 2024 regulations'; the newest edition may have others
REGULATED = ("--edition", regulated_edition("random-half"))


def simulate(*args: str) -> tuple[int, str]:
    named = "--edition" in args or "--rules" in args
    result = CliRunner().invoke(main, ["simulate", *(() if named else REGULATED), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def report(*args: str) -> dict[str, Any]:
    code, output = simulate(*args, "--json")
    assert code == 0, output
    data: dict[str, Any] = json.loads(output)
    for run in data.get("compare", [data]):
        run.pop("seconds")
    return data


def test_a_two_deck_match_run_reports_matches_and_each_decks_games() -> None:
    data = report("--regulation", "スタンダード+ランダムハーフ+プリセット2", "--match", "-n", "12")
    matches = data["matches"]
    assert matches["matches"] == matches["finished"] == 12
    assert sum(matches[who]["count"] for who in ("p1", "p2", "draw")) == 12
    assert 24 <= data["games"] <= 36  # two or three games a match
    assert [(d["player"], d["deck"]) for d in matches["decks"]] == [
        ("p1", "deck 1"),
        ("p1", "deck 2"),
        ("p2", "deck 1"),
        ("p2", "deck 2"),
    ]
    p1_games = sum(d["wins"]["total"] for d in matches["decks"] if d["player"] == "p1")
    assert p1_games == data["games"]


def test_match_records_do_not_depend_on_the_jobs() -> None:
    args = ("--regulation", "std+random-half", "--match", "-n", "8")
    assert report(*args) == report(*args, "--jobs", "2")


def test_deck_files_are_played_and_named_in_the_report() -> None:
    decks = ("--deck", f"p1={DECKS / 'spades-hearts.yaml'}", "--deck", f"p2={DECKS / 'clubs-diamonds.yaml'}")
    data = report("--regulation", "std+built40", *decks, "--match", "-n", "5")
    assert data["games"] == 5 and data["matches"]["decks"] == []  # 1-deck matches: one game each
    code, output = simulate("--regulation", "std+built40", *decks, "--match", "-n", "3")
    assert code == 0 and "3 matches, 3 finished" in output


def test_a_refused_regulation_cites_the_table_and_exits_1() -> None:
    code, output = simulate("--edition", "v7", "--regulation", "エクストラ+エントリー", "-n", "10")
    assert code == 1
    assert "regulation:1:7: エクストラ + エントリー: refused by Table 5.2" in output


def test_bad_regulation_options_are_located() -> None:
    code, output = simulate("--regulation", "std+built40", "-n", "2")
    assert code == 1 and "--deck: p1: 構築40 is a 1デッキマッチ" in output
    code, output = simulate("--match", "-n", "2")
    assert code == 1 and "--match: needs --regulation" in output
    code, output = simulate("--edition", EDITIONS[0], "--regulation", "std+full", "--rules", "x.yaml")
    assert code == 1 and "--regulation: it names the rule set" in output
    code, output = simulate("--regulation", "std+full", "--format", "lite")  # then it names no format
    assert code == 1 and "regulation:1:6: 'std' is not a frame" in output


def test_a_scenario_with_a_refused_regulation_is_located(tmp_path: Path) -> None:
    path = tmp_path / "refused.yaml"
    path.write_text(
        "kind: scenario\nedition: v7\nformat: std\nname: refused\n"
        "setup: {seed: 1, regulation: std+entry+preset4}\ncommands: []\nexpect: {turn: p1}\n",
        encoding="utf-8",
    )
    scenario, problems = load(path)
    assert scenario is None
    assert [p.location.line for p in problems] == [5]
    assert (
        "エントリー + プリセット4: refused by Table 5.3 オプション対応一覧 (フレーム)" in problems[0].message
    )


def test_a_scenario_regulation_of_another_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.yaml"
    path.write_text(
        "kind: scenario\nedition: v7\nformat: lite\nname: other\n"
        "setup: {seed: 1, regulation: std+full}\ncommands: []\nexpect: {turn: p1}\n",
        encoding="utf-8",
    )
    scenario, problems = load(path)
    assert scenario is None and len(problems) == 1
    assert "its format is スタンダード (std); the scenario's is lite" in problems[0].message


def test_compare_takes_regulations_and_decks_as_sides() -> None:
    decks = f"p1={DECKS / 'spades-hearts.yaml'} p2={DECKS / 'clubs-diamonds.yaml'}"
    data = report("--compare", f"std+built40 {decks}", "スタンダード + ランダム40", "--match", "-n", "6")
    a, b = data["compare"]
    assert (a["format"], b["format"]) == ("std+built40", "std+random40")
    assert [m["regulation"] for m in data["matches"]] == [
        "スタンダード + 構築40 (p1 スペードとハート, p2 クラブとダイヤ)",
        "スタンダード + ランダム40",
    ]
    assert [m["matches"] for m in data["matches"]] == [6, 6]
    assert a["decisions"] != b["decisions"]  # different decks, different games


def test_a_compare_side_with_a_bad_regulation_is_refused() -> None:
    code, output = simulate("--compare", "std+random80", "std+full", "-n", "2")
    assert code == 1 and "'random80' is not a frame" in output
    code, output = simulate("--compare", "std+full", "lite", "--deck", "p1=x.yaml")
    assert code == 1 and "--deck: needs --regulation" in output


def test_the_html_report_holds_the_match_tables(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    code, output = simulate("--regulation", "std+random-half", "--match", "-n", "4", "--html", str(out))
    assert code == 0, output
    html = out.read_text(encoding="utf-8")
    assert "スタンダード + ランダムハーフ: 4 対戦 (終わった対戦 4)" in html
    assert "デッキごとのゲームの勝率" in html and "p1 の対戦勝利" in html


def _my_life(args: list[str]) -> int:
    """The person's life on the first board of `blackpoker play ARGS` (quit at once)."""
    played = CliRunner().invoke(main, ["play", *REGULATED, *args], input="q\n")
    assert played.exit_code == 0, played.output
    line = next(line for line in played.output.splitlines() if "（あなた） ライフ" in line)
    return int(line.split("ライフ")[1].split("枚")[0])


def test_play_starts_the_first_game_of_a_regulation() -> None:
    args = ["--regulation", "std+random40+preset2", "--seed", "4"]
    opened = CliRunner().invoke(main, ["play", *REGULATED, *args], input="q\n")
    first = opened.output.splitlines()[0]
    assert "ランダム40" in first and "プリセット2" in first
    # 14 cards left out of the deck, and the presets on the field
    assert _my_life(args) <= _my_life(["--format", "std", "--seed", "4"]) - 14


def test_play_refuses_decks_it_cannot_use() -> None:
    decks = CliRunner().invoke(main, ["play", *REGULATED, "--deck", f"p1={DECKS / 'spades-hearts.yaml'}"])
    assert decks.exit_code == 1 and decks.stderr.startswith("--deck: needs --regulation")
    refused = CliRunner().invoke(main, ["play", *REGULATED, "--regulation", "エクストラ+エントリー"])
    assert refused.exit_code == 1 and "Table 5.2" in refused.stderr
