"""`blackpoker simulate --format extra`: per-trump statistics (placed, face up, the owner's
win rate when face up) in the numbers, the text, JSON and HTML reports, and --compare of two
extra lists. Every trump and list is read from the built-in extra lists."""

from __future__ import annotations

import json
from pathlib import Path

from bad_input_support import invoke
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.engine.refs import Result
from blackpoker.runtime.play.selfplay import GameRecord
from blackpoker.runtime.play.stats import summarize

ENV = Environment()
EDITION = next(e for e in ENV.builtin_editions() if ENV.builtin_extras(e))
NEWEST = ENV.builtin_extras(EDITION)[0]
RULES = ENV.compile(EDITION, EXTRA_FORMAT.id)
EXTRA = ("--edition", EDITION, "--format", EXTRA_FORMAT.id)


def _record(index: int, result: Result, trumps: tuple[tuple[str, int, bool], ...]) -> GameRecord:
    return GameRecord(index, index, 0, result, 5, 100, (), trumps=trumps)


def test_a_trump_counts_games_placed_and_face_up_and_its_owners_wins_when_face_up() -> None:
    first, second = (str(t.card) for t in RULES.trumps[:2])  # a game record prints its trumps
    records = [
        _record(0, Result.P1_WINS, ((first, 0, True), (first, 1, False))),  # both placed it; p1's opened
        _record(1, Result.P1_WINS, ((first, 1, True), (second, 0, False))),  # p2 opened it and lost
        _record(2, Result.P2_WINS, ()),
    ]
    summary = summarize(records, RULES, ("random", "random"), 1, 1.0)
    by_card = {t.card: t for t in summary.trumps}
    assert [t.card for t in summary.trumps] == [str(t.card) for t in RULES.trumps]
    assert (by_card[first].placed, by_card[first].opened) == (2, 2)
    assert (by_card[first].wins.count, by_card[first].wins.total) == (1, 2)
    assert (by_card[second].placed, by_card[second].opened, by_card[second].wins.total) == (1, 0, 0)
    assert summary.json()["trumps"][0]["owner_wins"]["ci95"] == [
        round(x, 4) for x in by_card[first].wins.interval
    ]


def test_simulate_reports_each_trump_in_text_json_and_html(tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    result = invoke("simulate", *EXTRA, "-n", "12", "--seed", "2", "--json", "--html", html)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = data["trumps"]
    assert [r["card"] for r in rows] == [str(t.card) for t in RULES.trumps]
    assert all(r["opened"] <= r["placed"] <= data["completed"] for r in rows)
    assert any(r["opened"] for r in rows)  # random agents place and open some trumps
    assert all(r["owner_wins"]["total"] >= r["opened"] for r in rows)  # a game may have it twice
    page = html.read_text(encoding="utf-8")
    assert all(f"{t.card} {t.name}" in page for t in RULES.trumps)
    text = invoke("simulate", *EXTRA, "-n", "12", "--seed", "2")
    assert all(f"{t.card} {t.name}" in text.stdout for t in RULES.trumps)


def test_a_format_without_trumps_reports_none() -> None:
    base = RULES.edition.formats[-1].id
    result = invoke("simulate", "--edition", EDITION, "--format", base, "-n", "3", "--json")
    assert result.exit_code == 0, result.output
    assert "trumps" not in json.loads(result.stdout)


def test_compare_two_extra_lists_tests_each_trump(tmp_path: Path) -> None:
    text = NEWEST.read_text(encoding="utf-8")
    list_id = NEWEST.stem
    changed = tmp_path / "changed.yaml"
    changed.write_text(text.replace(f"id: {list_id}\n", "id: changed\n", 1), encoding="utf-8")
    result = invoke("simulate", "--compare", list_id, changed, "-n", "8", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    a, b = data["compare"]
    assert a["format"] == f"{EXTRA_FORMAT.id} {list_id}" and b["format"].endswith("changed.yaml")
    compared = data["differences"]["trumps"]
    assert list(compared) == [str(t.card) for t in RULES.trumps]
    tested = sum(1 for t in compared.values() for d in t.values() if d is not None)
    assert tested and data["holm"]["comparisons"] >= tested


def test_extra_option_plays_the_named_list(tmp_path: Path) -> None:
    fewer = tmp_path / "fewer.yaml"
    text = NEWEST.read_text(encoding="utf-8")
    # the list without its last trump: one row fewer
    kept = text[: text.rindex("\n  - suit:")] + "\n"
    fewer.write_text(kept.replace(f"id: {NEWEST.stem}\n", "id: fewer\n", 1), encoding="utf-8")
    result = invoke("simulate", *EXTRA, "--extra", fewer, "-n", "3", "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["trumps"]) == len(RULES.trumps) - 1


def test_extra_option_errors_name_the_option(tmp_path: Path) -> None:
    base = RULES.edition.formats[-1].id
    cases = [
        (("--compare", base, NEWEST.stem, "--extra", NEWEST.stem), "--extra: not with --compare"),
        (("--edition", EDITION, "--compare", base, "nothing"), "--compare: 'nothing' is not a format of"),
    ]
    for args, message in cases:
        result = invoke("simulate", *args, "-n", "1")
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert message in result.stderr, result.stderr
