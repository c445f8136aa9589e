"""`play --regulation … --match`: a whole match at the terminal — the person picks one of their
decks that may still be used before each game (shown by name and size only), a deck that won a
game is not used again (§5.2.1), and each game's log replays.

The regulation is found in the data by its match form, never by name."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from blackpoker.cli.main import main
from blackpoker.compiler import compile
from blackpoker.compiler.documents.regulation import parse_regulation
from blackpoker.runtime.engine.refs import Result as GameResult
from blackpoker.runtime.play.log import REGULATION, replay
from blackpoker.runtime.play.regulation import Match, Setup
from click.testing import CliRunner, Result
from editions_support import acting, formats
from regulation_support import TABLED, tabled_regulation, two_decks

EDITION = TABLED.editions[0]
REGULATION_TEXT = tabled_regulation(two_decks)
# The person ends each turn they may (エンド, the format's action that passes the turn, typed
# in the notation: refused when it is no option) and otherwise takes entry 1 — パス at a
# chance, the first answer or deck offered — so that every game goes on to its end.
END = acting(compile(EDITION, formats(EDITION)[0]), "pass_turn").name
ANSWERS = f"{END}\n1\n" * 10_000


def _play(tmp_path: Path, first_deck: int, seed: int) -> tuple[Result, list[dict[str, Any]]]:
    log = tmp_path / "m.jsonl"
    args = ["play", "--edition", EDITION, "--regulation", REGULATION_TEXT, "--match", "--seed", str(seed)]
    result = CliRunner().invoke(main, [*args, "--log", str(log)], input=f"{first_deck}\n{ANSWERS}")
    assert result.exit_code == 0, result.output
    logs = sorted(tmp_path.glob("m-game-*.jsonl"))
    assert [p.name for p in logs] == [f"m-game-{k}.jsonl" for k in range(1, len(logs) + 1)]
    assert all(replay(p).result is not None for p in logs)
    lines = [p.read_text(encoding="utf-8").splitlines() for p in logs]
    return result, [json.loads(g[0]) | {"result": json.loads(g[-1])["result"]} for g in lines]


def test_a_whole_match_is_played_to_its_end_with_the_deck_the_person_picks(tmp_path: Path) -> None:
    match = parse_regulation(REGULATION_TEXT, TABLED).frame.match
    result, games = _play(tmp_path, 2, seed=3)
    assert match.wins <= len(games) <= match.games
    assert games[0][REGULATION]["decks"][0] == 1  # p1, the person, picked their second deck
    wins = [sum(g["result"] == who for g in games) for who in ("p1", "p2")]
    assert max(wins) == match.wins or len(games) == match.games
    assert "マッチ終了" in result.output and result.output.count("デッキを選んでください") >= 1


def test_a_deck_that_won_a_game_is_not_used_again(tmp_path: Path) -> None:
    for seed in range(1, 6):
        (tmp_path / str(seed)).mkdir()
        _, games = _play(tmp_path / str(seed), 1, seed)
        for k, game in enumerate(games):
            if game["result"] in ("p1", "p2"):
                winner = ("p1", "p2").index(game["result"])
                won_with = game[REGULATION]["decks"][winner]
                assert all(later[REGULATION]["decks"][winner] != won_with for later in games[k + 1 :])


def test_a_match_offers_only_the_decks_that_may_still_be_used() -> None:
    setup = Setup.of(parse_regulation(REGULATION_TEXT, TABLED))
    match = Match(setup, random.Random(1))
    everything = match.usable(0)
    assert len(everything) == setup.decks
    match.record((everything[0], everything[0]), GameResult.P1_WINS)
    assert match.usable(0) == everything[1:] and match.usable(1) == everything


def test_match_needs_a_regulation() -> None:
    result = CliRunner().invoke(main, ["play", "--match"])
    assert result.exit_code == 1 and result.stderr.startswith("--match: needs --regulation")
