"""Deck files (`kind: deck`): the cards of one set, each problem located in the file."""

from __future__ import annotations

from pathlib import Path

from bad_input_support import invoke, refused
from blackpoker.compiler.documents.deck import MAX_JOKERS, read_deck
from blackpoker.runtime.rules.cards import Card, full_deck


def write(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(body, encoding="utf-8")
    return path


def test_a_deck_reads_every_notation_of_cards(tmp_path: Path) -> None:
    path = write(tmp_path, "d.yaml", "kind: deck\nname: 速攻\ncards: [♠A, ♥10, ♦Q, ♣K, ＪＯＫＥＲ, joker]\n")
    deck, problems = read_deck(path, "d.yaml")
    assert problems == []
    assert deck is not None and deck.name == "速攻"
    assert [str(card) for card in deck.cards] == ["♠A", "♡10", "♢Q", "♣K", "Joker", "Joker"]


def test_a_deck_without_a_name_is_named_after_its_file(tmp_path: Path) -> None:
    deck, _ = read_deck(write(tmp_path, "mine.yaml", "kind: deck\ncards: [♠A]\n"), "mine.yaml")
    assert deck is not None and deck.name == "mine"


def test_the_whole_set_is_a_deck(tmp_path: Path) -> None:
    cards = ", ".join(str(card) for card in full_deck())
    deck, problems = read_deck(write(tmp_path, "full.yaml", f"kind: deck\ncards: [{cards}]\n"), "full.yaml")
    assert problems == [] and deck is not None and deck.cards == full_deck()


def test_unknown_cards_repeats_and_extra_jokers_are_located(tmp_path: Path) -> None:
    body = "kind: deck\ncards:\n  - ♠A\n  - ♠1\n  - ♡A\n  - ♠A\n" + "  - Joker\n" * (MAX_JOKERS + 1)
    deck, problems = read_deck(write(tmp_path, "bad.yaml", body), "bad.yaml")
    assert deck is None
    rendered = [p.render() for p in problems]
    assert rendered[0].startswith("bad.yaml:4:5: cards[1]: not a card: '♠1'")
    assert rendered[1] == (
        "bad.yaml:6:5: cards[3]: ♠A is listed twice (first on line 3); "
        "a set of cards holds each card once (§3.3)"
    )
    last = 7 + MAX_JOKERS
    assert (
        rendered[2]
        == f"bad.yaml:{last}:5: cards[{last - 3}]: Joker no. {MAX_JOKERS + 1}; a set has at most 2 (§3.3)"
    )
    assert len(rendered) == 3


def test_the_schema_is_checked_first(tmp_path: Path) -> None:
    deck, problems = read_deck(write(tmp_path, "s.yaml", "kind: deck\ncard: [♠A]\ncards: ♠A\n"), "s.yaml")
    assert deck is None
    assert sorted(p.render() for p in problems) == [
        "s.yaml:2:1: the document: unknown key 'card'; did you mean 'cards'?",
        "s.yaml:3:8: cards: expected a list, got text",
    ]


def test_a_file_of_another_kind_is_no_deck(tmp_path: Path) -> None:
    deck, problems = read_deck(write(tmp_path, "o.yaml", "kind: overlay\n"), "o.yaml")
    assert deck is None and [p.render() for p in problems] == ["o.yaml:1:7: kind: expected 'deck'"]


def test_validate_checks_deck_files(tmp_path: Path) -> None:
    write(tmp_path, "good.yaml", "kind: deck\ncards: [♠A, ♠2]\n")
    write(tmp_path, "bad.yaml", "kind: deck\ncards: [♠A, ♠A]\n")
    result = refused(invoke("validate", tmp_path))
    assert f"{tmp_path / 'bad.yaml'}:2:13: cards[1]: ♠A is listed twice" in result.output
    assert "good.yaml" not in result.output
    assert invoke("validate", tmp_path / "good.yaml").exit_code == 0


def test_a_deck_is_not_taken_for_local_rules(tmp_path: Path) -> None:
    path = write(tmp_path, "d.yaml", "kind: deck\ncards: [♠A]\n")
    result = refused(invoke("compile", "--rules", path, "--format", "std"))
    assert "d.yaml:1:7: kind: a deck file is not an edition, local rules or extra list" in result.output


def test_card_parse_agrees_with_the_printed_names() -> None:
    assert all(Card.parse(str(card)) == card for card in full_deck())
