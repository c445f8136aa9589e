"""`blackpoker regulation check` and `blackpoker validate` on regulations files, as a user runs them."""

from __future__ import annotations

from pathlib import Path

import yaml
from bad_input_support import invoke, refused
from blackpoker.compiler.documents.regulation import builtin_files, regulations_for
from blackpoker.runtime.rules.cards import full_deck
from regulation_support import regulated_edition

# the frames these tests use are the 2024 regulations'; the newest edition may have others
EDITION = ("--edition", regulated_edition("random-half"))


def deck_file(folder: Path, name: str, count: int, start: int = 0) -> Path:
    path = folder / name
    cards = ", ".join(str(card) for card in full_deck()[start : start + count])
    path.write_text(f"kind: deck\ncards: [{cards}]\n", encoding="utf-8")
    return path


def test_check_prints_the_regulation(tmp_path: Path) -> None:
    a, b = deck_file(tmp_path, "a.yaml", 20), deck_file(tmp_path, "b.yaml", 34, 20)
    result = invoke(
        "regulation",
        "check",
        *EDITION,
        "マスター + ランダムハーフ + プリセット 2",
        "--deck",
        f"p1={a}",
        "--deck",
        f"p1={b}",
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("マスター + ランダムハーフ + プリセット2 (mast+random-half+preset2): ")
    assert "format: マスター (mast)" in lines
    assert any(line.startswith("match: 2デッキマッチ (two-deck) (§5.2.1)") for line in lines)
    assert "  a deck that has won a game cannot be used again" in lines
    assert lines[-1] == f"p1: {a} (20 cards), {b} (34 cards): fits the frame"


def test_check_refuses_a_cell_of_table_5_2() -> None:
    result = refused(invoke("regulation", "check", *EDITION, "エクストラ+エントリー"))
    assert (
        "regulation:1:7: エクストラ + エントリー: refused by Table 5.2 フレーム対応一覧 (§5.4)"
        in result.stderr
    )
    assert result.stdout == ""


def test_check_reports_the_regulation_and_the_decks_together(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: deck\ncards: [♠A, ♠X]\n", encoding="utf-8")
    result = refused(
        invoke("regulation", "check", *EDITION, "std+nothing", "--deck", f"p1={bad}", "--deck", "p3=x.yaml")
    )
    assert "regulation:1:5: 'nothing' is not a frame" in result.stderr
    assert f"{bad}:2:13: cards[1]: not a card: '♠X'" in result.stderr
    assert "--deck: expected PLAYER=FILE with PLAYER one of p1, p2; got 'p3=x.yaml'" in result.stderr
    assert result.stderr.endswith("3 problems found\n")


def test_check_refuses_decks_the_frame_does_not_allow(tmp_path: Path) -> None:
    big = deck_file(tmp_path, "big.yaml", 41)
    result = invoke(
        "regulation", "check", *EDITION, "pro+built40", "--deck", f"p2={big}", "--deck", f"p2={big}"
    )
    assert result.exit_code == 1 and result.stderr == f"--deck: p2: {big} is given twice\n1 problem found\n"
    result = refused(invoke("regulation", "check", *EDITION, "pro+built40", "--deck", f"p2={big}"))
    assert f"{big}:2:1: cards: 41 cards; at most 40 allowed (構築40: " in result.stderr


def test_check_names_a_missing_deck_file_and_an_unknown_edition(tmp_path: Path) -> None:
    result = refused(
        invoke("regulation", "check", *EDITION, "std+full", "--deck", f"p1={tmp_path / 'none.yaml'}")
    )
    assert "none.yaml" in result.stderr
    result = invoke("regulation", "check", "std+full", "--edition", "v99")
    assert result.exit_code == 1 and "--edition: no regulations for edition 'v99'" in result.stderr


def test_every_built_in_regulations_file_validates() -> None:
    files = builtin_files()
    assert files
    result = invoke("validate", *files)
    assert result.exit_code == 0, result.output
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert regulations_for(data["id"]).id == data["id"]
        assert all(regulations_for(edition).id == data["id"] for edition in data["editions"])


def test_a_broken_regulations_file_is_located(tmp_path: Path) -> None:
    (source,) = [p for p in builtin_files() if p.name == "2024.yaml"]
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["frames"][1]["match"] = "three-deck"
    data["frames"][2]["name"] = data["frames"][0]["name"]
    data["frames"][0]["cards"][0] = "♠0"
    data["tables"][0]["allowed"]["entry"].append("expert")
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    result = refused(invoke("validate", path))
    messages = [line.split(": ", 1)[1] for line in result.stderr.splitlines() if line.startswith(str(path))]
    assert sorted(messages) == sorted(
        [
            "match: no match form 'three-deck' (one-deck, two-deck)",
            "frames[2].name: 'エントリー' is used twice (first on line "
            + messages_line(path, "name: エントリー")
            + ")",
            "cards[0]: not a card: '♠0'; write a suit (♠ ♡ ♢ ♣) then a rank (A, 2–10, J, Q, K), or Joker",
            "allowed: no format 'expert' in formats",
        ]
    )
    result = refused(invoke("regulation", "check", "std+full", "--edition", str(path)))
    assert "match: no match form 'three-deck'" in result.stderr


def messages_line(path: Path, text: str) -> str:
    """The line number of the first line of a file holding `text`."""
    return str(
        next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)
    )


def test_the_regulation_command_is_listed() -> None:
    result = invoke("--help")
    assert "regulation" in result.stdout
