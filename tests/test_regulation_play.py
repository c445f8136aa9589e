"""Games and matches under a regulation: the frame's decks, the options' start, the match form."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from blackpoker.compiler import compile
from blackpoker.compiler.documents.regulation import (
    builtin_files,
    parse_regulation,
    read_regulations,
    regulations_for,
)
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.invariants import check_invariants
from blackpoker.runtime.engine.refs import Result
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.engine.start import Start
from blackpoker.runtime.engine.zones import card, deck_ids
from blackpoker.runtime.play.regulation import Match, Setup, start_problems
from blackpoker.runtime.play.selfplay import play_match
from blackpoker.runtime.rules.cards import full_deck

REGULATIONS = regulations_for("v7")
STD = Rules(compile("v7", "std"))


def setup_of(text: str) -> Setup:
    return Setup.of(parse_regulation(text, REGULATIONS))


def started(text: str, seed: int) -> tuple[Match, Game]:
    setup = setup_of(text)
    match = Match(setup, random.Random(seed))
    game = Game.new(STD, seed, start=setup.start(match.decks, match.choose()), check=True)
    check_invariants(game)
    return match, game


def in_game(game: Game, player: int) -> int:
    p = game.state.players[player]
    return len(p.life) + len(p.hand) + len(p.graveyard) + sum(len(u.cards) for u in p.field)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random40_leaves_40_cards_and_the_pack_holds_the_other_14(seed: int) -> None:
    match, game = started("std+random40+pack", seed)
    for player in (0, 1):
        assert in_game(game, player) == 40
        pack = game.state.players[player].zones["pack"]
        assert len(pack) == 14 and not game.state.players[player].outside
        assert Counter(card(c) for c in pack) == Counter(full_deck()) - Counter(match.decks[player][0])


def test_random_half_splits_the_set_between_a_players_two_decks() -> None:
    match, game = started("std+random-half", 4)
    for player in (0, 1):
        first, second = match.decks[player]
        assert len(first) + len(second) == 54 and first and second
        assert Counter(first) + Counter(second) == Counter(full_deck())
        assert in_game(game, player) + len(game.state.players[player].outside) == 54
    assert match.decks != setup_of("std+random-half").deal(random.Random(5))


def test_a_deal_is_reproducible_from_its_seed() -> None:
    setup = setup_of("std+random40")
    assert setup.deal(random.Random(9)) == setup.deal(random.Random(9))
    assert setup.deal(random.Random(9)) != setup.deal(random.Random(10))


def test_entry_plays_its_fixed_cards() -> None:
    _, game = started("std+entry", 2)
    frame = parse_regulation("std+entry", REGULATIONS).frame
    assert frame.cards is not None
    for player in (0, 1):
        assert in_game(game, player) == len(frame.cards)


@pytest.mark.parametrize(
    ("text", "bulwarks", "soldiers"), [("std+full+preset2", 1, 1), ("std+full+preset4", 2, 2)]
)
def test_presets_put_bulwarks_and_soldiers_on_the_field(text: str, bulwarks: int, soldiers: int) -> None:
    _, game = started(text, 6)
    for player in game.state.players:
        types = Counter(u.kind.type for u in player.field)
        assert types == Counter({"防壁": bulwarks, "兵士": soldiers})
        assert all(u.charged for u in player.field)
        assert len(player.hand) in (7, 8)


def test_a_preset_joker_that_makes_no_soldier_goes_to_the_graveyard() -> None:
    lite = compile("v7", "lite")
    joker, ace = deck_ids(0)[52], deck_ids(0)[0]
    bulwark = deck_ids(0)[1]
    start = Start((tuple(deck_ids(0)), tuple(deck_ids(1))), preset=("防壁", "兵士"))
    game = Game.new(lite, 1, tops=((bulwark, joker, ace), ()), start=start, check=True)
    me = game.state.players[0]
    assert [u.cards for u in me.field] == [[bulwark], [ace]]
    assert joker in me.graveyard


def test_a_two_deck_match_retires_a_winning_deck_and_ends_at_two_wins() -> None:
    setup = setup_of("std+random-half+preset2")
    seen = 0
    for index in range(12):
        records = play_match(STD, setup, ("random", "random"), 3, index)
        assert 2 <= len(records) <= 3 and all(r.crash is None for r in records)
        wins = Counter(r.result for r in records)
        assert max(wins[Result.P1_WINS], wins[Result.P2_WINS]) == 2 or wins[Result.DRAW]
        for player, name in ((0, Result.P1_WINS), (1, Result.P2_WINS)):
            won = [r.decks[player] for r in records if r.result == name and r.decks]
            for at, record in enumerate(records):
                assert record.decks is not None
                earlier = [r.decks[player] for r in records[:at] if r.result == name and r.decks]
                assert record.decks[player] not in earlier
            seen += len(won)
    assert seen >= 12


def test_a_one_deck_match_is_one_game_and_is_reproducible() -> None:
    setup = setup_of("std+random40")
    first = play_match(STD, setup, ("random", "random"), 1, 0)
    assert len(first) == 1 and first == play_match(STD, setup, ("random", "random"), 1, 0)


def test_a_drawn_game_retires_no_deck_and_a_match_without_two_wins_is_drawn() -> None:
    match = Match(setup_of("std+random-half"), random.Random(1))
    match.record((0, 1), Result.P1_WINS)
    assert match.retired == ({0}, set()) and not match.over
    assert match.choose()[0] == 1  # p1 must play its other deck
    match.record((1, 0), Result.DRAW)
    assert match.retired == ({0}, set()) and not match.over
    match.record((1, 0), Result.P2_WINS)
    assert match.over and match.result is Result.DRAW and match.retired == ({0}, {0})


def test_a_failed_game_ends_the_match_without_a_result() -> None:
    match = Match(setup_of("std+random-half"), random.Random(1))
    match.record((0, 0), None)
    assert match.over and match.result is None


def test_a_preset_type_the_edition_lacks_is_located_in_the_regulations_file(tmp_path: Path) -> None:
    text = next(p for p in builtin_files() if p.name == "2024.yaml")
    path = tmp_path / "regulations.yaml"
    path.write_text(
        text.read_text(encoding="utf-8").replace("[防壁, 兵士]", "[防壁, 歩兵]"), encoding="utf-8"
    )
    regulations, problems = read_regulations(path, path.name)
    assert regulations is not None and not problems
    found = start_problems(parse_regulation("std+full+preset2", regulations), STD.ruleset.edition)
    assert len(found) == 1 and found[0].location.path == path.name
    assert "preset: '歩兵' is not a character type of v7 (兵士, 防壁)" in found[0].message
    assert start_problems(parse_regulation("std+full+preset4", regulations), STD.ruleset.edition) == []
