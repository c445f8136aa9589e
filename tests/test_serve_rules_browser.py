"""Every format and rule set in the browser (`blackpoker serve` in headless Chromium): the lobby
offers the extra format and its lists, the regulations' frames and a local rule's own format;
an extra game is played whole with its trumps drawn and picked on the board; the fog's cards
say what they do; a regulation's pack is drawn. Nothing here names an edition or a format:
each is found in the data by what it has."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml
from blackpoker.cli.rule_set import declared_edition, declared_format
from blackpoker.compiler.documents.extra import EXTRA_FORMAT, TRUMP_ZONE
from blackpoker.runtime.engine.zones import card
from blackpoker.runtime.play.labels import labels
from blackpoker.runtime.serve.server import Defaults
from browser_support import Watched
from editions_support import EDITIONS, environment, formats
from regulation_support import DECKS, built_frame
from serve_support import EXTRA, FOG, SEED, Running, decide, running, start_game

# Marks a trump on the board whose click names exactly one menu entry.
FIND_TRUMP = """() => {
  const entries = [...document.querySelectorAll('.entry')]
    .map((b) => b.dataset.marks.split(' ').filter(Boolean));
  for (const node of document.querySelectorAll('#board .trumps .pickable')) {
    const keys = node.dataset.keys.split(' ');
    if (entries.filter((marks) => marks.some((m) => keys.includes(m))).length === 1) {
      node.setAttribute('data-test-trump', '');
      return true;
    }
  }
  return false;
}"""


def _pack_frame() -> tuple[str, str, str, str, int]:
    """An edition whose regulations have a dealing frame that sets cards aside in a zone (the
    pack): edition, format, frame id, the zone's printed name and how many cards lie there."""
    for edition in EDITIONS:
        try:
            regulations = environment().regulations(edition)
        except Exception:  # an edition no regulations name
            continue
        names = {z.id: z.name for z in regulations.zones}
        for frame in regulations.frames:
            if frame.set_aside and not frame.needs_decks and frame.unplayable is None and not frame.extra:
                zone, count = frame.set_aside[0]
                played = frame.formats[0] if frame.formats else formats(edition)[0]
                return edition, played, frame.id, names[zone], count
    raise AssertionError("no regulations with a frame that sets cards aside")


def _lobby(page: Any, server: Running) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=format] option", state="attached")


def test_the_lobby_offers_every_format_the_engine_plays(watched: Watched, server: Running) -> None:
    page = watched.page
    _lobby(page, server)
    env = environment()
    assert page.locator("select[name=edition] option").evaluate_all("o => o.map((x) => x.value)") == list(
        EDITIONS
    )
    for edition in EDITIONS:
        page.select_option("select[name=edition]", edition)
        shown = page.locator("select[name=format] option").evaluate_all("o => o.map((x) => x.value)")
        extra = [EXTRA_FORMAT.id] if env.builtin_extras(edition) else []
        assert shown == [*formats(edition), *extra], edition
    page.select_option("select[name=edition]", EXTRA)
    page.select_option("select[name=format]", EXTRA_FORMAT.id)
    lists = page.locator("select[name=extra] option").evaluate_all("o => o.map((x) => x.value)")
    assert lists == [p.stem for p in env.builtin_extras(EXTRA)]
    assert page.locator("select[name=extra]").is_visible()
    assert not page.locator("select[name=regulation]").is_visible()  # the extra format takes no frame
    assert watched.problems == []


def test_an_extra_game_with_trumps_is_started_from_the_lobby_and_played_whole(
    watched: Watched, server: Running
) -> None:
    page = watched.page
    start_game(page, server, EXTRA, EXTRA_FORMAT.id)
    # the trumps are placed from the whole deck: picked from a table of cards, each with its ability
    page.wait_for_selector(".card-table")
    token = page.url.rsplit("/", 1)[1]
    game = server.session(token).game
    rules = game.rules.ruleset
    assert EXTRA_FORMAT.name in page.locator("#title").inner_text()
    trump = rules.trumps[0]
    page.locator(".trump-choice", has=page.locator(f".card.pick:text-is('{trump.card}')")).locator(
        ".trump-help"
    ).click()
    assert trump.name in page.locator(".help").inner_text()
    assert rules.action(trump.actions[0]).effect.splitlines()[0] in page.locator(".help").inner_text()
    placed = 0
    while page.locator(".card-table").count():
        face = str(rules.trumps[placed].card)
        with page.expect_response(lambda r: "/choose" in r.url):
            page.click(f".card-table .card.pick:text-is('{face}')")
        placed += 1
        page.wait_for_selector(".entry, .result", state="attached")
    mine = game.state.players[0].zones[TRUMP_ZONE.id]
    assert placed == len(mine) and {str(card(c)) for c in mine} == {
        str(t.card) for t in rules.trumps[:placed]
    }
    page.wait_for_selector(".player.mine .trumps .trump")
    assert page.locator(".player.mine .trumps .trump .card").count() == len(mine)
    theirs = game.state.players[1]
    down = [c for c in theirs.zones[TRUMP_ZONE.id] if c not in theirs.face_up]
    # the opponent's face-down trumps: backs named by place, never by card (drawn once the
    # opponent's placing has been played back)
    page.wait_for_selector(".player:not(.mine) .trumps .card.back")
    page.wait_for_selector("#playback", state="detached")
    assert page.locator(".player:not(.mine) .trumps .card.back").count() == len(down) > 0
    keys = page.locator(".player:not(.mine) .trumps [data-keys]").evaluate_all(
        "n => n.map((x) => x.dataset.keys)"
    )
    assert not any(f"card:{c}" in k for c in down for k in keys)
    # the board may be drawn anew after a click (the agent answered meanwhile): click until shown
    page.wait_for_function(
        """() => {
        const help = document.querySelector('.player.mine .trumps .trump-help');
        if (help) help.click();
        const about = document.querySelector('.player.mine .trump-about');
        return about && !about.hidden && about.textContent;
    }"""
    )
    assert page.locator(".player.mine .trump-about").inner_text()
    rng = random.Random(4)
    ways: set[str] = set()
    for _ in range(3000):
        if page.locator(".result").count():
            break
        page.wait_for_selector(".entry, .result", state="attached")
        if not page.locator(".entry").count():
            continue
        table = page.locator(".card-table .card.pick")
        if table.count():  # a pick out of the deck again
            with page.expect_response(lambda r: "/choose" in r.url):
                table.nth(rng.randrange(table.count())).click()
            ways.add("table")
        elif rng.random() < 0.6 and page.evaluate(FIND_TRUMP):
            with page.expect_response(lambda r: "/choose" in r.url):
                page.click("[data-test-trump]")
            ways.add("trump")
        else:
            ways.add(decide(page, rng))
    assert game.over and page.locator(".result").count() == 1
    assert "trump" in ways  # a trump was chosen by clicking it on the board
    assert watched.problems == []


def test_the_fogs_cards_say_what_they_do(watched: Watched, server: Running) -> None:
    """A game of the fog's format played over the API until a card lies in a fog; the page
    then names, beside it, the fog entry of the request that put it there and its target."""
    edition, played = FOG
    rng = random.Random(7)
    for seed in range(40):
        token = server.new_game(edition=edition, format=played, seed=seed, opponent="random")["p1"]
        session = server.session(token)
        for _ in range(400):
            state = server.call("GET", f"/api/seat/{token}").data
            lying = [z for p in state["board"]["players"] for z in p["zones"] if z["cards"]]
            if any(c.get("note") for z in lying for c in z["cards"]) or state["board"]["result"]:
                break
            server.choose_at_random(token, state, rng)
        notes = session.notes[0].notes
        if notes:
            break
    else:
        raise AssertionError("no card reached the fog in 40 games")
    page = watched.page
    page.goto(f"{server.url}/play/{token}")
    page.wait_for_selector(".zone-card .note")
    rules = session.game.rules.ruleset
    shown = page.locator(".zone-card .note").all_inner_texts()
    assert sorted(shown) == sorted(notes.values())
    names = {f.name for f in rules.fogs} | {a.name for a in rules.actions}
    assert all(any(text.startswith(name) for name in names) for text in shown), shown
    assert any("→" in text or ":" in text for text in shown)
    assert page.locator(".zone .empty:text-is('なし')").count() >= 1  # the other player's empty fog
    assert watched.problems == []


def test_a_regulations_frame_is_played_from_the_lobby_with_its_pack_drawn(
    watched: Watched, server: Running
) -> None:
    edition, played, frame, zone, count = _pack_frame()
    page = watched.page
    _lobby(page, server)
    page.select_option("select[name=edition]", edition)
    page.select_option("select[name=format]", played)
    page.select_option("select[name=regulation]", frame)
    page.fill("input[name=seed]", str(SEED))
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#board .player")
    page.wait_for_selector(f".pile-title:text-is('{zone} {count}枚')")
    assert page.locator(f".pile-title:text-is('{zone} {count}枚')").count() == 2  # each player's
    game = server.session(page.url.rsplit("/", 1)[1]).game
    assert game.rules.ruleset.edition.id == environment().edition(edition).edition.id
    pack = next(z.id for z in game.rules.ruleset.edition.core.zones if z.name == zone)
    assert [len(p.zones[pack]) for p in game.state.players] == [count, count]
    # a written position has no regulation: its export is refused, said why
    page.click("#export")
    page.wait_for_selector("#error:not([hidden])")
    assert "シナリオに書けません" in page.locator("#error").inner_text()
    assert [p for p in watched.problems if "status of 409" not in p] == []


def _scenario_frame() -> tuple[str, Any]:
    """The frame whose players choose the most parts before the game (シナリオ構築: a scenario
    hand, a rare card), played without the extra list or deck files: its edition and frame."""
    found = []
    for edition in EDITIONS:
        try:
            regulations = environment().regulations(edition)
        except Exception:  # an edition no regulations name
            continue
        found += [
            (len(f.scenario), edition, f)
            for f in regulations.frames
            if f.scenario and f.setup and not f.extra and not f.needs_decks and f.unplayable is None
        ]
    assert found, "no frame whose players choose parts before the game"
    _, edition, frame = max(found, key=lambda t: t[0])
    return edition, frame


def test_a_frames_rare_card_and_scenario_hand_are_drawn(watched: Watched, server: Running) -> None:
    """The parts chosen before the game, each where its frame puts it: the seat's own cards in
    its zone by the zone's printed name (and its scenario hand in its hand), the opponent's as
    a count only."""
    edition, frame = _scenario_frame()
    page = watched.page
    played = frame.formats[0] if frame.formats else formats(edition)[0]
    start_game(page, server, edition, played, regulation=frame.id)
    page.wait_for_selector(".entry")
    token = page.url.rsplit("/", 1)[1]
    game = server.session(token).game
    rng = random.Random(2)
    while page.locator("#menu .question").inner_text().startswith(f"「{frame.setup.name}」"):
        entries = page.locator(".entry")
        with page.expect_response(lambda r: "/choose" in r.url):
            entries.nth(rng.randrange(entries.count())).click()
        page.wait_for_selector(".entry, .result", state="attached")
    page.wait_for_selector("#playback", state="detached")
    names = {z.id: z.name for z in game.rules.ruleset.edition.core.zones}
    zones = [c.part.zone for c in frame.scenario if c.part.zone in names]
    assert zones, frame.scenario
    for zone in zones:
        mine, theirs = (p.zones[zone] for p in game.state.players)
        assert mine and theirs  # chosen by both
        own = page.locator(".player.mine .pile", has=page.locator(f".pile-title:text-is('{names[zone]}')"))
        assert sorted(own.locator(".card").all_inner_texts()) == sorted(str(card(c)) for c in mine)
        counted = f"{names[zone]} {len(theirs)}枚"
        assert page.locator(f".player:not(.mine) .pile-title:text-is('{counted}')").count() == 1
    if any(c.part.zone not in names for c in frame.scenario):  # a part that goes to the hand
        title = labels().say("table", "hand")
        hand = page.locator(".player.mine .pile", has=page.locator(f".pile-title:text-is('{title}')"))
        shown = sorted(hand.locator(".card").all_inner_texts())
        assert shown == sorted(str(card(c)) for c in game.state.players[0].hand), shown
    assert watched.problems == []


def test_a_local_rules_lobby_shows_its_own_format(watched: Watched, tmp_path: Path) -> None:
    rules = Path(__file__).resolve().parents[1] / "examples" / "my-std.yaml"
    declared = declared_format(rules, "--rules")
    name = environment().compile(declared_edition(rules, "--rules"), declared, rules).format.name
    with running(Defaults(declared_edition(rules, "--rules"), declared, rules)) as local:
        page = watched.page
        _lobby(page, local)
        assert page.locator("select[name=format] option").all_inner_texts() == [name]
        assert page.locator("select[name=format]").is_disabled()
        assert name in page.locator("#local-rules").inner_text()
        assert not page.locator("select[name=regulation]").is_visible()
        page.click("#new-game button[type=submit]")
        page.wait_for_selector(".entry")
        assert name in page.locator("#title").inner_text()
        assert watched.problems == []


def test_a_server_started_in_the_extra_format_offers_it_first(watched: Watched) -> None:
    """`serve --format extra`: the lobby opens on the extra format, and a game starts in it."""
    with running(Defaults(EXTRA, EXTRA_FORMAT.id)) as extra:
        page = watched.page
        _lobby(page, extra)
        assert page.locator("select[name=edition]").input_value() == EXTRA
        assert page.locator("select[name=format]").input_value() == EXTRA_FORMAT.id
        assert page.locator("select[name=format]").is_enabled()
        page.click("#new-game button[type=submit]")
        page.wait_for_selector(".card-table")
        assert EXTRA_FORMAT.name in page.locator("#title").inner_text()
        assert watched.problems == []


def test_deck_files_are_chosen_in_the_lobby_for_a_frame_that_needs_them(
    watched: Watched, server: Running
) -> None:
    edition, played, frame = built_frame()
    page = watched.page
    _lobby(page, server)
    page.select_option("select[name=edition]", edition)
    page.select_option("select[name=format]", played)
    assert not page.locator("input[name=my-decks]").is_visible()
    page.select_option("select[name=regulation]", frame)
    page.set_input_files("input[name=my-decks]", str(DECKS[0]))
    page.set_input_files("input[name=their-decks]", str(DECKS[1]))
    page.fill("input[name=seed]", str(SEED))
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#board .player")
    game = server.session(page.url.rsplit("/", 1)[1]).game
    listed = yaml.safe_load(DECKS[0].read_text(encoding="utf-8"))["cards"]
    mine = game.state.players[0]
    assert sorted(str(card(c)) for c in [*mine.hand, *mine.life, *mine.graveyard]) == sorted(listed)
    assert watched.problems == []
