"""A regulation's whole match at `blackpoker serve`'s table (runtime/serve/match.py): the
games follow one another as the terminal's `play --regulation … --match` plays them, the score
and each game's winner are kept, a seat picks its next deck among those that may still be
used, and the next game is refused before a game's end and after the match's."""

from __future__ import annotations

import random
from pathlib import Path

from blackpoker.runtime.engine.refs import result_name
from blackpoker.runtime.play.log import replay
from blackpoker.runtime.play.selfplay import game_seed
from match_support import match_frame, play_out
from serve_support import Running

SEED = 5


def test_a_whole_match_is_played_game_after_game(server: Running, tmp_path: Path) -> None:
    edition, played, frame = match_frame(server.call("GET", "/api/lobby").data)
    token = server.new_game(edition=edition, format=played, regulation=frame["id"], seed=SEED)["p1"]
    first = server.session(token).match
    assert first is not None
    rng = random.Random(2)
    winners: list[str | None] = []
    for k in range(frame["games"]):
        session = server.session(token)
        assert session.match is first and session.game.seed == game_seed(SEED, k)  # the terminal's seeds
        early = server.post(f"/api/seat/{token}/next", {})
        assert early.status == 409 and "終わって" in early.data["error"]
        state = play_out(server, [token], rng)
        # the seat gave the seed: the game's log, its decks with it, plays the game again
        log = tmp_path / f"game-{k + 1}.jsonl"
        log.write_text(server.call("GET", f"/api/seat/{token}/log").text, encoding="utf-8")
        replayed = replay(log)
        assert replayed.decisions == session.game.decisions and replayed.result == result_name(
            session.game.result
        )
        match = state["match"]
        winners.append(state["ending"]["winner"])
        assert match["game"] == k + 1 and match["winners"] == winners
        assert match["wins"] == {p: winners.count(p) for p in ("p1", "p2")}
        if match["over"]:
            assert max(match["wins"].values()) == match["wins_needed"] or k + 1 == frame["games"]
            assert match["decks"] == [] and match["winner"] in (*match["wins"], None)
            refused = server.post(f"/api/seat/{token}/next", {})
            assert refused.status == 409 and "決着" in refused.data["error"]
            break
        assert match["winner"] is None
        retired = first.match.retired[0]
        usable = [d["index"] for d in match["decks"]]
        assert usable == [d for d in range(len(first.match.decks[0])) if d not in retired]
        wrong = server.post(f"/api/seat/{token}/next", {"deck": max(retired, default=len(usable) + 5)})
        assert wrong.status == 400, wrong.text  # a deck that won, or none of the seat's
        made = server.post(f"/api/seat/{token}/next", {"deck": usable[-1]})
        assert made.status == 201, made.text
        again = server.post(f"/api/seat/{token}/next", {})  # the same next game, once made
        assert again.data == made.data
        token = made.data["page"].rsplit("/", 1)[1]
        following = server.call("GET", f"/api/seat/{token}").data
        assert (
            following["match"]["deck"] == match["decks"][-1]["name"] and following["match"]["game"] == k + 2
        )
        assert f"{k + 2}" in following["title"]
    else:
        raise AssertionError("the match was not decided in its games")
    assert len(winners) >= match["wins_needed"]


def test_a_game_outside_a_match_has_no_next_game(server: Running) -> None:
    token = server.new_game(seed=1)["p1"]
    state = server.call("GET", f"/api/seat/{token}").data
    assert state["match"] is None and state["next_game"] is None
    refused = server.post(f"/api/seat/{token}/next", {})
    assert refused.status == 409 and "マッチ" in refused.data["error"]


def test_two_people_cannot_pick_decks_but_start_the_next_game_together(server: Running) -> None:
    edition, played, frame = match_frame(server.call("GET", "/api/lobby").data)
    answer = server.post(
        "/api/games", {"edition": edition, "format": played, "regulation": frame["id"], "people": 2}
    )
    tokens = [path.rsplit("/", 1)[1] for path in answer.data["seats"].values()]
    play_out(server, tokens, random.Random(3))
    picked = server.post(f"/api/seat/{tokens[0]}/next", {"deck": 0})
    assert picked.status == 400 and "無作為" in picked.data["error"]
    made = server.post(f"/api/seat/{tokens[0]}/next", {})
    assert made.status == 201
    other = server.call("GET", f"/api/seat/{tokens[1]}").data
    assert other["next_game"] is not None and other["next_game"] != made.data["page"]  # its own seat
