"""The table and the replay viewer of `blackpoker serve` speak Japanese: in a real headless
Chromium, the page's rendered text (the board, the menu and each entry's explanation, the log,
refusals) is scanned at every step of a game for English words, outside the notation and the
short allow-list of labels_support.py."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import CHROMIUM, FLAGS, sync_api
from editions_support import formats
from labels_support import ALLOWED, HELP, NOTATION, TEXT, english_words
from serve_support import EDITION, Running, game_log

TYPED = ("p2: pass", "zzz", "pass ♠4")  # commands refused: the rule broken, the notation not read


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser.new_page()
        browser.close()


def _english(page: Any, where: str, found: dict[str, str]) -> None:
    """The English words on the page now (the commands a person typed, quoted back in a
    refusal, aside)."""
    text = page.evaluate(TEXT)
    for typed in TYPED:
        text = text.replace(typed, "")
    for word in english_words(text) + english_words(page.evaluate(HELP), ALLOWED | NOTATION):
        found.setdefault(word, where)


@pytest.mark.parametrize("format_id", [formats(EDITION)[0], formats(EDITION)[-1]])
def test_a_game_in_the_page_says_nothing_in_english(page: Any, server: Running, format_id: str) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=format] option", state="attached")
    page.select_option("select[name=edition]", EDITION)
    page.select_option("select[name=format]", format_id)
    page.fill("input[name=seed]", "5")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector(".entry")
    found: dict[str, str] = {}  # an English word, and where it was first seen
    for command in TYPED:
        page.fill("input[name=command]", command)
        with page.expect_response(lambda r: "/command" in r.url):
            page.click(".command button")
        page.wait_for_selector("#error:not([hidden])")
        _english(page, f"refusal of {command}", found)
    rng = random.Random(7)
    steps = 0
    for steps in range(250):
        page.wait_for_selector(".entry, .result")
        _english(page, f"step {steps}", found)
        if page.locator(".result").count():
            break
        with page.expect_response(lambda r: "/choose" in r.url or "/back" in r.url):
            if rng.random() < 0.1 and page.locator("button.back:enabled").count():
                page.click("button.back")
            else:
                entries = page.locator(".entry")
                entries.nth(rng.randrange(entries.count())).click()
    assert steps > 50 and page.locator("#log li").count() > 20
    assert found == {}, found


def test_the_replay_viewer_says_nothing_in_english(page: Any, server: Running, tmp_path: Path) -> None:
    log = game_log(tmp_path, seed=6, format_id=formats(EDITION)[-1])
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=format] option", state="attached")
    page.set_input_files("input[name=log]", str(log))
    page.click("#open-replay button[type=submit]")
    page.wait_for_selector("#board .player")
    found: dict[str, str] = {}
    for who in ("all", "p1", "p2"):
        page.select_option("#who", who)
        page.click("[data-go=last]")
        page.wait_for_selector(".result")
        page.wait_for_function("() => document.querySelectorAll('#log li').length > 20")
        _english(page, f"the end, seen by {who}", found)
    assert found == {}, found


def test_the_scan_finds_the_english_it_looks_for() -> None:
    said = "can be requested once per turn (rule: once per turn) attacker ♢8 done pick: one_charged"
    english = [
        "attacker",
        "be",
        "can",
        "done",
        "once",
        "one_charged",
        "per",
        "pick",
        "requested",
        "rule",
        "turn",
    ]
    assert english_words(said) == english
    assert english_words("p1: 兵士召喚 ★♢4 $B(♠4)L → p2:♣9 face-down#12") == ["face-down"]
    assert english_words(f"p1: 兵士召喚 ★♢4 $D(Joker)L → p2:♣9 {EDITION} BlackPoker ★Joker") == []
