"""`blackpoker serve` in a real headless Chromium (Debian's /usr/bin/chromium, driven by the
Python playwright package; never `playwright install`): a whole game against an agent played
by clicking, a replay stepped, two seats in two browsers that never receive the other's hidden
cards, the phone and desktop layouts, and no console errors anywhere."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from blackpoker.runtime.engine.refs import result_name
from browser_support import DESKTOP, PHONE, Watched
from serve_support import (
    Running,
    card_ids,
    decide,
    frame_cards,
    game_log,
    hidden_cards,
    positions,
    start_game,
)


def test_a_whole_game_against_an_agent_is_played_in_the_page(watched: Watched, server: Running) -> None:
    page = watched.page
    start_game(page, server, opponent="random")
    page.wait_for_selector(".entry")
    token = page.url.rsplit("/", 1)[1]
    rng = random.Random(4)
    ways = set()
    for _ in range(3000):
        if page.locator(".result").count():
            break
        page.wait_for_selector(".entry, .result")
        if page.locator(".entry").count():
            ways.add(decide(page, rng, back_first="back" not in ways))
    game = server.session(token).game
    assert game.over and page.locator(".result").count() == 1
    shown = page.locator(".result").inner_text()
    assert ("あなたの勝ち" in shown) == (game.result is not None and result_name(game.result) == "p1"), shown
    assert page.locator("#log li").count() > 20 and ways == {"board", "back", "entry"}
    assert watched.problems == []


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return game_log(tmp_path_factory.mktemp("logs"), seed=6)


def _open_log(page: Any, server: Running, path: Path) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=format] option", state="attached")
    page.set_input_files("input[name=log]", str(path))
    page.click("#open-replay button[type=submit]")


def test_a_replay_is_stepped_forward_and_back(
    watched: Watched, server: Running, log: Path, tmp_path: Path
) -> None:
    page = watched.page
    _open_log(page, server, log)
    page.wait_for_selector("#board .player")
    steps = sum('"decision"' in line for line in log.read_text(encoding="utf-8").splitlines())
    position = page.locator("#position")
    assert position.inner_text() == f"0 / {steps}"
    for _ in range(3):
        page.click("[data-go=forward]")
        page.wait_for_function("n => document.querySelector('#position').textContent.startsWith(n)", arg="")
    page.wait_for_function(f"() => document.querySelector('#position').textContent === '3 / {steps}'")
    page.click("[data-go=back]")
    page.wait_for_function(f"() => document.querySelector('#position').textContent === '2 / {steps}'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.querySelector('#position').textContent === '1 / {steps}'")
    page.click("[data-go=last]")
    page.wait_for_selector(".result")
    full = page.locator(".player").first.locator(".card:not(.back)").count()
    page.select_option("#who", "p1")
    # the board is drawn again from p1's view: wait for it rather than for a card back or an
    # empty zone, which the full view may already show
    page.wait_for_function(
        "full => document.querySelectorAll('.player')[0].querySelectorAll('.card:not(.back)').length < full",
        arg=full,
    )
    assert (
        page.locator(".player").first.locator(".card:not(.back)").count() < full
    )  # p2's hand and life hidden
    tampered = tmp_path / "tampered.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()
    end = json.loads(lines[-1])
    lines[-1] = json.dumps({**end, "state": "0" * 64})
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _open_log(page, server, tampered)
    page.wait_for_selector("#error:not([hidden])")
    assert "upload.jsonl:" in page.locator("#error").inner_text() and "/replay/" not in page.url
    assert [p for p in watched.problems if "status of 400" not in p] == []  # the refused upload's only


def test_two_seats_in_two_browsers_never_receive_the_others_hidden_cards(
    chromium: Any, server: Running
) -> None:
    seats = [Watched(chromium), Watched(chromium)]
    try:
        start_game(seats[0].page, server, people="2")
        seats[0].page.wait_for_selector("#link-list a")
        links = seats[0].page.locator("#link-list a").all_inner_texts()
        assert len(links) == 2 and links[0] != links[1]
        for seat, link in zip(seats, links, strict=True):
            seat.responses.clear()  # the lobby's: their bodies go with the page
            seat.page.goto(link)
            seat.page.wait_for_selector("#menu .question")
        rng = random.Random(5)
        decided = 0
        for _ in range(400):
            movers = [s for s in seats if s.page.locator(".entry").count()]
            if not movers:
                seats[0].page.wait_for_timeout(200)  # the waiting page polls the server
                continue
            decide(movers[0].page, rng)
            decided += 1
            if decided == 30 or seats[0].page.locator(".result").count():
                break
        assert decided >= 10
        game = server.session(links[0].rsplit("/", 1)[1]).game
        at = positions(game)
        for me, seat in enumerate(seats):
            answers = [a for a in seat.json_answers() if "decision" in a]
            assert len(answers) >= decided // 2
            for answer in answers:
                leaked = card_ids(answer) & hidden_cards(at[answer["decision"]], 1 - me)
                assert not leaked, (me, answer["decision"], leaked)
                for decision, cards in frame_cards(answer):  # the boards played back
                    assert not cards & hidden_cards(at[decision], 1 - me), (me, decision)
            # the check can fail: a seat's own answers carry its own hidden cards
            assert any(card_ids(a) & hidden_cards(at[a["decision"]], me) for a in answers)
            assert seat.problems == []
    finally:
        for seat in seats:
            seat.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_table_fits_a_phone_and_a_desktop(
    seat: Watched, server: Running, viewport: dict[str, int], tmp_path: Path
) -> None:
    page = seat.page
    start_game(page, server, opponent="first")
    page.wait_for_selector(".entry")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    board, menu = page.locator("#board").bounding_box(), page.locator("#menu").bounding_box()
    if viewport is PHONE:  # one column, the menu docked at the bottom, in sight
        bottom = menu["y"] + menu["height"]
        assert abs(bottom - viewport["height"]) < 2 and menu["width"] > viewport["width"] * 0.8
    else:  # the menu beside the board
        assert menu["x"] > board["x"] + board["width"] * 0.9 and menu["y"] < 200
    page.fill("input[name=command]", "p2: pass")  # a command that breaks a rule: refused, said why
    page.click(".command button")
    page.wait_for_selector("#error:not([hidden])")
    assert "できません" in page.locator("#error").inner_text()
    page.locator(".about").first.click()  # an entry's explanation, as `?` gives it at the terminal
    explained = page.locator(".entry").first.get_attribute("title")
    assert explained and page.locator(".help").inner_text() == explained
    shot = tmp_path / "table.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p for p in seat.problems if "status of 400" not in p] == []  # the refused command's only
