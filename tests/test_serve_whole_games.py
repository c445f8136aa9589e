"""Whole games in a real headless Chromium, on a desktop (1280 px) and a phone (390 px) page,
with the page's text scanned for English words at every step (labels_support.py): the smallest
format, the largest format of the newest and of the oldest edition with a fog, the extra format
with its trumps, and a regulation's whole match game after game; and the lobby itself. Each rule
set is found in the data by what it has, never by name."""

from __future__ import annotations

import random
from typing import Any

import pytest
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.runtime.rules.model import Visibility
from browser_support import DESKTOP, PHONE, Watched
from editions_support import EDITIONS, environment, formats
from labels_support import ALLOWED, HELP, NOTATION, TEXT, english_words
from match_support import match_frame, play_out
from serve_support import EDITION, EXTRA, FOG, SEED, SMALLEST, Running

SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
# The lobby's choices as a person reads them: every option of every list, shown or not.
# Marks the choices drawn now: the page has drawn its answer once none is left.
STALE = (
    "() => document.querySelectorAll('.entry, .card-table .pick').forEach((e) => { e.dataset.stale = ''; })"
)
OPTIONS = "() => [...document.querySelectorAll('option')].map((o) => o.textContent).join('\\n')"


def _english(page: Any, where: str, found: dict[str, str]) -> None:
    for word in english_words(page.evaluate(TEXT)) + english_words(page.evaluate(HELP), ALLOWED | NOTATION):
        found.setdefault(word, where)


def _lobby(page: Any, server: Running, edition: str, played: str) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=format] option", state="attached")
    page.select_option("select[name=edition]", edition)
    page.select_option("select[name=format]", played)
    page.fill("input[name=seed]", str(SEED))


def _start(page: Any) -> None:
    page.click("#new-game button[type=submit]")
    page.wait_for_selector(".entry, .card-table")


def _play_out(page: Any, rng: random.Random, found: dict[str, str], where: str) -> int:
    """The game on the page played to its end by clicks (an entry, or a card of a table of
    cards), the text scanned at each step; the steps taken."""
    for steps in range(3000):
        page.wait_for_selector(".entry, .card-table .pick, .result", state="attached")
        _english(page, f"{where}, step {steps}", found)
        if page.locator(".result").count():
            page.wait_for_selector("#menu .ending")
            _english(page, f"{where}, the end", found)
            return steps
        page.evaluate(STALE)
        table = page.locator(".card-table .pick")
        choices = table if table.count() else page.locator(".entry")
        with page.expect_response(lambda r: "/choose" in r.url):
            choices.nth(rng.randrange(choices.count())).click()
        page.wait_for_function("() => !document.querySelector('[data-stale]')")
    raise AssertionError(f"{where}: the game did not end")


def _fits(page: Any, viewport: dict[str, int]) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


# The oldest edition with a fog (the edition that brought it; the list is newest first), in its
# largest format: its own actions and fog entries, beside the newest's.
FIRST_FOG = next(
    (e, formats(e)[-1])
    for e in reversed(EDITIONS)
    if any(z.visibility is Visibility.PUBLIC for z in environment().edition(e).edition.core.zones)
)
GAMES = {
    "smallest": (EDITION, SMALLEST),
    "fog": FOG,
    **({"first fog": FIRST_FOG} if FIRST_FOG != FOG else {}),
    "extra": (EXTRA, EXTRA_FORMAT.id),
}


@SIZES
@pytest.mark.parametrize("kind", list(GAMES))
def test_a_whole_game_says_nothing_in_english(
    seat: Watched, server: Running, viewport: dict[str, int], kind: str
) -> None:
    page = seat.page
    _lobby(page, server, *GAMES[kind])
    _start(page)
    found: dict[str, str] = {}
    steps = _play_out(page, random.Random(5), found, kind)
    game = server.session(page.url.rsplit("/", 1)[1]).game
    assert game.over and steps > 10 and page.locator("#log li").count() > 20
    if kind == "extra":  # the trumps were placed and are drawn
        assert page.locator(".player.mine .trumps .card").count() > 0
    _fits(page, viewport)
    assert found == {}, found
    assert seat.problems == []


@SIZES
def test_a_regulations_whole_match_is_played_game_after_game(
    seat: Watched, server: Running, viewport: dict[str, int]
) -> None:
    edition, played, frame = match_frame(server.call("GET", "/api/lobby").data)
    page = seat.page
    _lobby(page, server, edition, played)
    page.select_option("select[name=regulation]", frame["id"])
    _start(page)
    match = server.session(page.url.rsplit("/", 1)[1]).match
    assert match is not None
    rng = random.Random(6)
    found: dict[str, str] = {}
    for k in range(frame["games"]):
        _play_out(page, rng, found, f"game {k + 1}")
        page.wait_for_selector("#menu .match")
        score = page.locator(".match-score").inner_text()
        assert f"あなた{match.match.wins[0]}勝、相手{match.match.wins[1]}勝" in score, score
        assert page.locator(".match-winners").inner_text().count("第") == k + 1  # 第1ゲーム p2の勝ち …
        if match.match.over:
            shown = page.locator(".match-result").inner_text()
            won = match.match.result is not None and match.match.result.winner == 0
            assert ("あなたの勝ち" in shown) == won and not page.locator(".next-game").count(), shown
            break
        buttons = page.locator(".next-game")
        assert buttons.count() == len(match.match.usable(0))  # one per deck that may still be played
        with page.expect_navigation():
            buttons.nth(rng.randrange(buttons.count())).click()
        page.wait_for_selector(".entry, .card-table")
        assert f"第{k + 2}ゲーム" in page.locator("#title").inner_text()
    else:
        raise AssertionError("the match was not decided")
    _fits(page, viewport)
    assert found == {}, found
    assert seat.problems == []


@SIZES
def test_the_lobby_says_nothing_in_english(seat: Watched, server: Running, viewport: dict[str, int]) -> None:
    """Every edition's formats, extra lists, frames and options, and the agents, by their
    printed names: ids are the options' values only."""
    page = seat.page
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=format] option", state="attached")
    found: dict[str, str] = {}
    lobby = server.call("GET", "/api/lobby").data
    for edition in lobby["editions"]:
        page.select_option("select[name=edition]", edition["id"])
        for format_ in edition["formats"]:
            page.select_option("select[name=format]", format_["id"])
            _english(page, f"{edition['id']} {format_['id']}", found)
            for word in english_words(page.evaluate(OPTIONS)):
                found.setdefault(word, f"{edition['id']} {format_['id']}: a list's option")
    agents = page.locator("select[name=opponent] option")
    assert agents.evaluate_all("o => o.map((x) => x.value)") == lobby["agents"]
    assert "random" in lobby["agents"] and "random" not in agents.all_inner_texts()
    _fits(page, viewport)
    assert found == {}, found
    assert seat.problems == []


@pytest.mark.parametrize("viewport", [DESKTOP], ids=["desktop"])
def test_a_match_at_one_screen_goes_on_with_both_seats(seat: Watched, server: Running) -> None:
    """Hot-seat: the next game's page holds both seats' links of the match's next game."""
    edition, played, frame = match_frame(server.call("GET", "/api/lobby").data)
    page = seat.page
    _lobby(page, server, edition, played)
    page.select_option("select[name=people]", "hotseat")
    page.select_option("select[name=regulation]", frame["id"])
    page.click("#new-game button[type=submit]")
    page.wait_for_selector(".entry, .cover-show")
    first, second = page.url.split("#hotseat=")
    tokens = [first.rsplit("/", 1)[1], second]
    play_out(server, tokens, random.Random(9))  # the first game, played over the API
    page.reload()
    page.wait_for_selector(".cover-show, #menu .match")
    if page.locator(".cover-show").count():
        page.click(".cover-show")
    page.wait_for_selector("#menu .match .next-game")
    assert page.locator(".next-game").count() == 1  # two people: the decks are picked at random
    with page.expect_navigation():
        page.click(".next-game")
    page.wait_for_selector(".entry, .cover-show")
    after = server.session(tokens[0]).next_game
    assert after is not None
    mine, theirs = page.url.split("#hotseat=")
    assert {mine.rsplit("/", 1)[1], theirs} == set(after.tokens)
    assert "第2ゲーム" in page.locator("#title").inner_text()
    assert seat.problems == []
