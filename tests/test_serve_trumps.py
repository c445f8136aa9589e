"""The extra format's trumps at `blackpoker serve`: the trump table (some 10 KB, the same all
game) is sent once, from its own cached route, never with a poll; the page still shows each
trump's ability behind its `?`; and once the trumps are placed no picking bar is left on the
screen. The extra edition is found in the data by what it has, never by name."""

from __future__ import annotations

import http.client
import json
import random
from pathlib import Path
from typing import Any

from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.runtime.rules.model import RuleSet
from browser_support import DESKTOP
from serve_support import EXTRA, Running, game_log, start_game


def keys(data: Any) -> set[str]:
    """Every key of a JSON answer, at any depth (its playback boards too)."""
    if isinstance(data, dict):
        return set(data) | {k for value in data.values() for k in keys(value)}
    if isinstance(data, list):
        return {k for value in data for k in keys(value)}
    return set()


def _get(server: Running, path: str) -> tuple[int, str, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    connection.request("GET", path)
    response = connection.getresponse()
    answer = response.status, response.getheader("Cache-Control") or "", json.loads(response.read())
    connection.close()
    return answer


def _table(rules: RuleSet) -> list[str]:
    return [str(t.card) for t in rules.trumps]


def _placing(rules: RuleSet, state: dict[str, Any]) -> bool:
    """Whether the seat is placing its trumps (the rule set's set-up action being resolved)."""
    assert rules.setup is not None
    return state["menu"] is not None and state["menu"]["question"].startswith(f"「{rules.setup.name}」")


def test_a_poll_leaves_the_trump_table_out(server: Running, tmp_path: Path) -> None:
    token = server.new_game(edition=EXTRA, format=EXTRA_FORMAT.id, seed=1)["p1"]
    rules = server.session(token).game.rules.ruleset
    status, cache, table = _get(server, f"/api/seat/{token}/trumps")
    assert status == 200 and [t["card"] for t in table["trumps"]] == _table(rules) != []
    assert all(t["name"] and t["about"] for t in table["trumps"])
    assert "max-age" in cache and "private" in cache  # kept by the browser: asked once
    polled = 0
    rng = random.Random(1)
    state = server.call("GET", f"/api/seat/{token}").data
    while state["menu"] is not None and polled < 60:
        answer = server.choose_at_random(token, state, rng)
        for data in (state, answer.data):
            assert "trumps" not in keys(data)
            assert table["trumps"][0]["about"] not in json.dumps(data, ensure_ascii=False)
        polled += 1
        state = server.call("GET", f"/api/seat/{token}").data
    assert polled > 10
    # a poll has no-store: it is asked anew each time
    assert _get(server, f"/api/seat/{token}")[1] == "no-store"
    # the replay viewer's table, once too; its frames leave it out
    log = game_log(tmp_path, seed=2, edition=EXTRA, format_id=EXTRA_FORMAT.id)
    page = server.call("POST", "/api/replays", log.read_bytes()).data["page"]
    ident = page.rsplit("/", 1)[1]
    status, cache, replayed = _get(server, f"/api/replay/{ident}/trumps")
    assert status == 200 and replayed == table and "max-age" in cache
    assert "trumps" not in keys(server.call("GET", f"/api/replay/{ident}?step=3&who=p1").data)


def _seed_with_cards_beside_end(server: Running) -> int:
    """A seed whose first chance after the trumps are placed offers an action with two cards
    (two key cards) among entries with none (パス, エンド): the first step of a choice, whose
    entries are whole options, where the page once drew a picking bar for toggled cards."""
    for seed in range(40):
        token = server.new_game(edition=EXTRA, format=EXTRA_FORMAT.id, seed=seed)["p1"]
        rules = server.session(token).game.rules.ruleset
        state = server.call("GET", f"/api/seat/{token}").data
        while _placing(rules, state):
            menu = state["menu"]  # its first card, as the page's table of cards lays it first
            chosen = [*menu["chosen"], menu["entries"][0]["value"]]
            path = {"decision": state["decision"], "chosen": chosen, "auto": [*menu["auto"], False]}
            state = server.post(f"/api/seat/{token}/choose", path).data
        menu = state["menu"]
        if menu is None or menu["chosen"]:
            continue
        marks = [e["marks"] for e in menu["entries"]]
        if any(len(m) > 1 for m in marks) and all(x.startswith("card:") for m in marks for x in m):
            return seed
    raise AssertionError("no seed's first chance has an action with two cards: the check cannot fail")


def test_after_the_trumps_are_placed_no_picking_bar_is_left(chromium: Any, server: Running) -> None:
    seed = _seed_with_cards_beside_end(server)
    context = chromium.new_context(viewport=DESKTOP)
    answers: list[Any] = []
    problems: list[str] = []
    context.on("response", lambda r: answers.append(r))
    page = context.new_page()
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        start_game(page, server, EXTRA, EXTRA_FORMAT.id, seed)
        page.wait_for_selector(".card-table")
        token = page.url.rsplit("/", 1)[1]
        rules = server.session(token).game.rules.ruleset
        # a trump's ? still gives its ability, from the table asked once
        trump = rules.trumps[0]
        chosen = page.locator(".trump-choice", has=page.locator(f".card.pick:text-is('{trump.card}')"))
        chosen.locator(".trump-help").click()
        assert trump.name in page.locator(".help").inner_text()
        assert rules.action(trump.actions[0]).effect.splitlines()[0] in page.locator(".help").inner_text()
        while page.locator(".card-table").count():
            with page.expect_response(lambda r: "/choose" in r.url):
                page.locator(".card-table .card.pick").first.click()
            page.wait_for_selector(".entry, .result", state="attached")
        state = server.call("GET", f"/api/seat/{token}").data
        assert not _placing(rules, state) and state["menu"]["chosen"] == []
        page.wait_for_selector("#playback", state="detached")
        assert page.locator("#menu .picking").count() == 0, page.locator("#menu .picking").inner_text()
        assert "で決定" not in page.locator("#menu").inner_text()
        asked = [r for r in answers if r.url.endswith(f"/api/seat/{token}/trumps")]
        polls = [r for r in answers if r.url.endswith(f"/api/seat/{token}") or "/choose" in r.url]
        assert len(asked) == 1 and len(polls) > 2
        assert not any("trumps" in keys(r.json()) for r in polls)
        assert problems == []
    finally:
        context.close()
