"""A game a person can follow, in a real headless Chromium (runtime/serve/app/game.js and
hotseat.js): the end of a game with its reason, a rematch and the log's download opened in the
replay viewer (and accepted by `blackpoker replay`), the replay's autoplay, two people at one
screen with a cover between turns, a payment of several cards chosen by toggling them, and the
phone's layout (the dock at the bottom, words kept whole, a long graveyard folded)."""

from __future__ import annotations

import random
from pathlib import Path

from blackpoker.cli.main import main
from blackpoker.runtime.engine.options import RequestOption
from browser_support import PHONE, Watched
from click.testing import CliRunner
from editions_support import environment
from serve_positions import card_at, drive, hidden_block, paid, scenario_game, several_picks
from serve_support import (
    EDITION,
    SEED,
    SMALLEST,
    Running,
    answered,
    card_ids,
    frame_cards,
    game_log,
    hidden_cards,
    positions,
    start_game,
)


def _finish(server: Running, token: str) -> None:
    """Play the seat's decisions to the end over the API (random entries), as a page would."""
    rng = random.Random(2)
    while True:
        state = server.call("GET", f"/api/seat/{token}").data
        if state["ending"]:
            return
        assert server.choose_at_random(token, state, rng).status == 200


def test_a_finished_game_says_why_and_gives_a_rematch_and_its_log(
    watched: Watched, server: Running, tmp_path: Path
) -> None:
    page = watched.page
    start_game(page, server, opponent="random")
    page.wait_for_selector(".entry")
    token = page.url.rsplit("/", 1)[1]
    _finish(server, token)
    page.reload()
    page.wait_for_selector(".ending")
    game = server.session(token).game
    reason = page.locator(".ending-reason").inner_text()
    assert "ライフが0枚になった" in reason and "の解決で" in reason, reason
    won = game.result is not None and game.result.winner == 0
    assert ("あなたの勝ち" in page.locator(".ending-result").inner_text()) == won
    with page.expect_download() as download:
        page.click("button.save-log")
    saved = tmp_path / "game.jsonl"
    download.value.save_as(saved)
    replayed = CliRunner().invoke(main, ["replay", str(saved)])
    assert replayed.exit_code == 0 and "matches" in replayed.output, replayed.output
    # the download opened in the lobby's replay viewer: autoplay, the result only at the end
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=format] option", state="attached")
    page.set_input_files("input[name=log]", str(saved))
    page.click("#open-replay button[type=submit]")
    page.wait_for_selector("#board .player")
    assert "結果" not in page.locator("#title").inner_text() and not page.locator(".result").count()
    page.click("button.autoplay")
    page.wait_for_function("() => Number(document.querySelector('#position').textContent.split(' ')[0]) >= 2")
    assert not page.locator(".result, #controls .ending").count()
    page.click("button.autoplay")  # paused
    page.click("[data-go=last]")
    page.wait_for_selector("#controls .ending")
    assert page.locator("#controls .ending-reason").inner_text() == reason
    # a rematch: a new game from the same form, the given seed plus one
    page.go_back()
    page.goto(f"{server.url}/play/{token}")
    page.wait_for_selector("button.rematch")
    page.click("button.rematch")
    page.wait_for_function(f"() => !location.pathname.endsWith('{token}')")
    page.wait_for_selector(".entry")
    assert f"シード{SEED + 1}" in page.locator("#title").inner_text()
    again = server.session(page.url.rsplit("/", 1)[1])
    assert again is not server.session(token) and not again.game.over
    assert watched.problems == []


def test_a_game_without_a_given_seed_keeps_its_log(watched: Watched, server: Running) -> None:
    """Its log would deal every card: the end offers the rematch, and no download."""
    token = server.new_game(opponent="random")["p1"]
    _finish(server, token)
    watched.page.goto(f"{server.url}/play/{token}")
    watched.page.wait_for_selector(".ending")
    assert watched.page.locator("button.rematch").count() == 1
    assert watched.page.locator("button.save-log").count() == 0
    assert server.call("GET", f"/api/seat/{token}/log").status == 409


def test_two_people_at_one_screen_see_their_own_views_with_a_cover_between(
    watched: Watched, server: Running
) -> None:
    page = watched.page
    start_game(page, server, people="hotseat")
    page.wait_for_selector(".entry, .cover-show")
    watched.responses.clear()  # the lobby's: their bodies went with its page
    token = page.url.split("#")[0].rsplit("/", 1)[1]
    rng = random.Random(8)
    covers = 0
    seen_seats = set()
    for _ in range(200):
        page.wait_for_selector(".entry, .cover-show, .ending")
        if page.locator(".cover-show").count():
            covers += 1
            assert not page.locator(".table").is_visible()  # the other seat's view is hidden
            page.click(".cover-show")
            page.wait_for_selector(".cover", state="detached")
            continue
        if page.locator(".ending").count() or covers >= 4:
            break
        seen_seats.add(page.locator("#title").inner_text().rsplit("あなたは", 1)[1])
        entries = page.locator(".entry:visible")
        entry = entries.nth(rng.randrange(entries.count()))
        answered(page, entry.click)
    assert covers >= 2 and seen_seats == {"p1", "p2"}, (covers, seen_seats)
    at = positions(server.session(token).game)
    answers = [a for a in watched.json_answers() if "decision" in a and "seat" in a]
    for answer in answers:
        me = int(answer["seat"][1]) - 1
        leaked = card_ids(answer) & hidden_cards(at[answer["decision"]], 1 - me)
        assert not leaked, (answer["seat"], answer["decision"], leaked)
        for decision, cards in frame_cards(answer):  # the boards played back
            assert not cards & hidden_cards(at[decision], 1 - me), (answer["seat"], decision)
    assert {a["seat"] for a in answers} == {"p1", "p2"}
    assert watched.problems == []


def test_a_payment_of_several_cards_is_chosen_by_toggling_them(
    watched: Watched, server: Running, tmp_path: Path
) -> None:
    page = watched.page
    token = scenario_game(page, server, tmp_path)
    game = server.session(token).game
    paying = [o for o in game.legal_options() if isinstance(o, RequestOption) and len(paid(o)) == 2]
    option = paying[0]  # a request paid with two of the three: three payments of it
    head, keys = option.head, option.key_text
    first, second = paid(option)
    page.click(f'.entry[data-value="{head}"]')
    page.wait_for_selector(f'.entry[data-value="{keys}"]')
    page.click(f'.entry[data-value="{keys}"]')
    page.wait_for_selector(".picking")
    rows = page.locator(".entry-row:visible")
    assert rows.count() == 3
    page.click(card_at(first))
    assert rows.count() == 2  # the payments without the first card are gone
    page.click(card_at(first))
    assert rows.count() == 3  # and back: nothing was sent
    page.click(card_at(first))
    page.click("button.back")  # the card taken back: still nothing sent
    assert rows.count() == 3 and server.session(token).game.decisions == 0
    page.click(card_at(second))
    assert rows.count() == 2
    with page.expect_response(lambda r: "/choose" in r.url):  # one payment left: taken
        page.click(card_at(first))
    page.wait_for_function("() => !document.querySelector('.picking')")
    assert server.session(token).game.decisions > 0
    said = " ".join(page.locator("#log li").all_inner_texts())
    assert f"p1: {option}" in said, said
    assert watched.problems == []


def test_the_phone_layout_docks_the_decision_and_folds_the_graveyard(
    phone: Watched, server: Running, tmp_path: Path
) -> None:
    page = phone.page
    scenario_game(page, server, tmp_path)
    height = PHONE["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    menu = page.locator("#menu").bounding_box()
    assert abs(menu["y"] + menu["height"] - height) < 2 and menu["width"] >= PHONE["width"] - 2
    field = page.locator(".player.mine .field")
    field.evaluate("(node) => node.scrollIntoView({block: 'end'})")
    shown, status = field.bounding_box(), page.locator(".status").bounding_box()
    assert shown["y"] + shown["height"] <= page.locator("#menu").bounding_box()["y"]
    assert 0 <= status["y"] < height  # the turn line stays in sight
    # no state broken inside a word: each word is one line box
    broken = page.evaluate(
        "() => [...document.querySelectorAll('.unit-state .word')]"
        ".filter((w) => w.getClientRects().length > 1).length"
    )
    words = page.locator(".unit-state .word").count()
    assert words >= 6 and broken == 0, (words, broken)
    # the graveyard of eight shows its top card and a count, and opens on a click
    grave = page.locator(".player.mine .pile", has_text="墓地")
    assert grave.locator(".card:visible").count() == 1 and "計8枚" in grave.locator(".fold").inner_text()
    assert grave.locator(".card:visible").inner_text() == "♡J"
    grave.locator(".fold").click()
    assert grave.locator(".card:visible").count() == 8
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=False)
    assert phone.problems == []


def test_the_phone_replay_controls_are_in_reach_and_drawn(
    phone: Watched, server: Running, tmp_path: Path
) -> None:
    log = game_log(tmp_path, seed=6)
    page = phone.page
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=format] option", state="attached")
    page.set_input_files("input[name=log]", str(log))
    page.click("#open-replay button[type=submit]")
    page.wait_for_selector("#board .player")
    controls = page.locator("#controls").bounding_box()
    assert abs(controls["y"] + controls["height"] - PHONE["height"]) < 2
    for go in ("first", "last"):
        button = page.locator(f"[data-go={go}]")
        assert button.inner_text().strip() == ""  # no glyph a font may lack
        widths = page.evaluate(
            """(go) => ['::before', '::after'].map((p) => {
              const s = getComputedStyle(document.querySelector(`[data-go=${go}]`), p);
              return parseFloat(s.width) + parseFloat(s.borderLeftWidth) + parseFloat(s.borderRightWidth);
            })""",
            go,
        )
        assert all(w > 0 for w in widths), (go, widths)
    page.click("[data-go=last]")
    page.wait_for_selector("#controls .ending")
    assert phone.problems == []


def test_the_opponents_events_are_played_back_one_by_one(watched: Watched, server: Running) -> None:
    page = watched.page
    start_game(page, server, opponent="random")
    page.wait_for_selector(".entry")
    watched.responses.clear()  # the lobby's: their bodies went with its page
    for _ in range(300):  # pass until the opponent has done several things
        answered(page, lambda: page.locator(".entry").last.click())
        if page.locator("#playback").count():
            break
        page.wait_for_selector(".entry, .ending")
        if page.locator(".ending").count():
            break
    assert page.locator("#playback").count() == 1
    first = page.locator(".playback-line").inner_text()
    hidden = page.locator("#log li.fresh[hidden]").count()
    assert hidden >= 1  # the later events wait their turn
    page.wait_for_function("t => document.querySelector('.playback-line')?.textContent !== t", arg=first)
    # the board played back is the one after each of those decisions, as this seat saw it
    assert any(a.get("frames") for a in watched.json_answers())
    page.click("#playback .skip")
    assert page.locator("#playback").count() == 0 and page.locator("#log li[hidden]").count() == 0
    assert watched.problems == []


def test_an_attack_and_its_blocker_are_marked_even_when_the_blocker_is_face_down(
    watched: Watched, server: Running
) -> None:
    seats, _ = drive(server, environment().compile(EDITION, SMALLEST), hidden_block)
    page = watched.page
    page.goto(f"{server.url}/play/{seats['p1']}")
    page.wait_for_selector(".fight-tag")
    tags = page.locator(".fight-tag").all_inner_texts()
    blocked = [t for t in tags if "（裏向き）がブロック" in t]
    blocking = [t for t in tags if t.endswith("をブロック")]
    assert blocked and blocking, tags
    pair = blocked[0].split(":")[0]
    assert blocking[0].startswith(pair), tags  # the same fight, named on both sides
    assert page.locator(".player.mine .unit.fight").count() >= 1
    assert page.locator(".player:not(.mine) .unit.fight.face-down").count() == 1
    assert watched.problems == []


def test_several_attackers_are_picked_on_the_board_before_anything_is_sent(
    watched: Watched, server: Running
) -> None:
    seats, session = drive(server, environment().compile(EDITION, SMALLEST), several_picks)
    page = watched.page
    page.goto(f"{server.url}/play/{seats['p1']}")
    page.wait_for_selector(".picking")
    units = page.locator(".player.mine .unit .card")
    decided = session.game.decisions
    units.nth(0).click()
    units.nth(0).click()  # taken back
    assert page.locator(".send-picked").count() == 0
    units.nth(0).click()
    units.nth(1).click()
    assert session.game.decisions == decided  # nothing sent yet
    page.click(".send-picked")
    page.wait_for_function("() => !document.querySelector('.picking')")
    page.wait_for_selector(".unit.fight, .cover, #menu .question")
    assert len(session.game.state.attackers) == 2, session.game.state.attackers
    assert watched.problems == []
