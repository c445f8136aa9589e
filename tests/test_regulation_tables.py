"""The 2024 regulations as data: tables 5.1–5.3 agree with the rules text (seed 001), and a
regulation in the official notation is accepted or refused cell by cell, citing the table."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from blackpoker.compiler.documents.regulation import Regulations, parse_regulation, regulations_for
from blackpoker.runtime.rules.diagnostics import CompileError
from blackpoker.runtime.rules.normalize import normalize


@pytest.fixture(scope="module")
def regs() -> Regulations:
    return regulations_for("v7")


def _key(text: str) -> str:
    return normalize(text).text.casefold()


def _rows(seed_text: str, title: str) -> list[list[str]]:
    """The cells of the Markdown table that follows a title line in the seed."""
    lines = seed_text[seed_text.index(title) :].splitlines()[1:]
    table = list(itertools.takewhile(lambda line: line.startswith("|") or not line.strip(), lines))
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table if line.startswith("|")]
    return [row for row in rows if not re.fullmatch(r"-+", row[0])]


@pytest.fixture(scope="module")
def seed_text(seeds: Path) -> str:
    return next(seeds.glob("001_*.txt")).read_text(encoding="utf-8")


def _allowed(regs: Regulations, table_name: str) -> set[tuple[str, str]]:
    """The ○ cells of a data table, as (row name, column name) keys."""
    table = next(t for t in regs.tables if t.name == table_name)
    names = {e.id: _key(e.name) for kind in ("formats", "frames", "options") for e in regs.kind(kind)}
    return {(names[row], names[column]) for row, columns in table.allowed.items() for column in columns}


def _marked(header: list[str], rows: list[list[str]]) -> set[tuple[str, str]]:
    """The ○ cells of seed rows, as (row name, column name) keys."""
    return {
        (_key(row[0]), _key(column))
        for row in rows
        for column, mark in zip(header[1:], row[1:], strict=True)
        if mark == "○"
    }


def test_table_5_2_is_the_seeds(regs: Regulations, seed_text: str) -> None:
    header, *rows = _rows(seed_text, "Table 5.2 フレーム対応一覧")
    assert len(rows) == len(regs.frames) and len(header) - 1 == len(regs.formats)
    assert _allowed(regs, "Table 5.2 フレーム対応一覧") == _marked(header, rows)


def test_table_5_3_is_the_seeds(regs: Regulations, seed_text: str) -> None:
    header, *rows = _rows(seed_text, "Table 5.3 オプション対応一覧")
    split = next(i for i, row in enumerate(rows) if row[0] == "【フレーム】")
    parts = {"(フォーマット)": rows[1:split], "(フレーム)": rows[split + 1 :]}
    for suffix, part in parts.items():
        assert _allowed(regs, f"Table 5.3 オプション対応一覧 {suffix}") == _marked(header, part)
    assert len(header) - 1 == len(regs.options)


def test_table_5_1_frames_are_the_seeds(regs: Regulations, seed_text: str) -> None:
    _, *rows = _rows(seed_text, "Table 5.1 フレーム一覧")
    assert [_key(row[0]) for row in rows] == [_key(frame.name) for frame in regs.frames]
    build = {"固定": "fixed", "ランダム": "random", "構築": "built"}
    for row, frame in zip(rows, regs.frames, strict=True):
        assert build[row[1]] == frame.build
        assert _key(row[3].replace("<br>", "")) == _key(frame.text)
        # 3 デッキマッチ in the table is read as the 2-deck match (docs/decisions.md)
        decks = 1 if row[5] == "x" else 2
        assert frame.match.decks == decks
        assert row[2].startswith(f"{1 if decks == 1 else 3} ")


def test_the_entry_frame_lists_the_seeds_21_cards(regs: Regulations, seed_text: str) -> None:
    entry = next(f for f in regs.frames if f.id == "entry")
    assert entry.cards is not None and len(entry.cards) == 21
    row = next(r for r in _rows(seed_text, "Table 5.1 フレーム一覧") if _key(r[0]) == _key(entry.name))
    spelled = normalize(row[3].split("<br>")[0]).text
    for suit, ranks in re.findall(r"([♠♡♢♣])([0-9AJQK]+)", spelled):
        wanted = re.findall(r"10|[2-9AJQK]", ranks)
        got = [str(card)[1:] for card in entry.cards if str(card).startswith(suit)]
        assert got == wanted


def test_the_rules_example_and_the_id_spelling_agree(regs: Regulations) -> None:
    by_name = parse_regulation("マスター + ランダムハーフ + プリセット 2", regs)
    by_id = parse_regulation("mast+random-half+preset2", regs)
    assert (by_name.id, by_name.name) == (by_id.id, by_id.name)
    assert by_name.name == "マスター + ランダムハーフ + プリセット2"
    assert by_name.frame.match.decks == 2 and by_name.frame.match.wins == 2
    several = parse_regulation("マスター + ランダム 40+ プリセット 2+ パック", regs)
    assert [o.id for o in several.options] == ["preset2", "pack"]


def test_every_cell_of_the_tables_decides(regs: Regulations) -> None:
    """Each format + frame + option is accepted exactly when every table has its pairs as ○."""
    cells = {t.name: t for t in regs.tables}
    for format_, frame, option in itertools.product(regs.formats, regs.frames, [None, *regs.options]):
        text = "+".join(e.id for e in (format_, frame, option) if e is not None)
        chosen = {"formats": format_.id, "frames": frame.id, "options": option.id if option else None}
        refusing = [
            name
            for name, table in cells.items()
            if chosen[table.columns] is not None
            and chosen[table.columns] not in table.allowed.get(chosen[table.rows], ())
        ]
        if not refusing:
            assert parse_regulation(text, regs).id == text
            continue
        with pytest.raises(CompileError) as error:
            parse_regulation(text, regs)
        messages = [d.message for d in error.value.diagnostics]
        assert [m.split("refused by ")[1].split(" (§")[0] for m in messages] == refusing


def test_a_refusal_names_the_table_and_the_cell(regs: Regulations) -> None:
    with pytest.raises(CompileError) as error:
        parse_regulation("エクストラ+エントリー", regs)
    (problem,) = error.value.diagnostics
    assert problem.render() == (
        "regulation:1:7: エクストラ + エントリー: refused by Table 5.2 フレーム対応一覧 (§5.4): "
        "the cell of row エントリー, column エクストラ is x\n"
        "    エクストラ+エントリー\n"
        "               ^^^^^^^^^^"
    )


@pytest.mark.parametrize(
    ("text", "col", "words"),
    [
        ("マスタ + フル", 1, "'マスタ' is not a format"),
        ("std + ランダム", 7, "did you mean ランダム40 (random40)?"),
        ("std", 1, "a regulation is written フォーマット + フレーム + オプション… (§5.1.1)"),
        ("std + + pack", 7, "a regulation is written"),
        ("std+full+preset2+プリセット2", 18, "プリセット2 is named twice"),
        ("std+full+full", 10, "'full' is not an option"),
    ],
)
def test_bad_notation_is_located(regs: Regulations, text: str, col: int, words: str) -> None:
    with pytest.raises(CompileError) as error:
        parse_regulation(text, regs)
    assert any(d.location.col == col and words in d.message for d in error.value.diagnostics), error.value
