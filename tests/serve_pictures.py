"""The screenshots of docs/play.md, taken from today's app in headless Chromium:

    python3 tests/serve_pictures.py [docs/images]

Each picture is a position the browser tests reach (through the same helpers,
serve_positions.py and serve_support.py): the table on a desktop with a request's key cards outlined (the
position of the phone's)
(serve-desktop.png), a payment of two bulwarks being chosen on a phone (serve-phone.png), a fight
with a face-down blocker (serve-fight.png), an extra game's trumps (serve-extra.png) and a fog's
cards with their notes (serve-fog.png). Needs what the browser tests need (playwright, chromium).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.runtime.engine.options import RequestOption
from browser_support import DESKTOP, PHONE, Watched, launched
from editions_support import environment
from serve_positions import card_at, drive, hidden_block, paid, scenario_game
from serve_support import EDITION, EXTRA, FOG, SMALLEST, Running, running, start_game

Scene = Callable[[Any, Running, Path], None]


def desktop(page: Any, server: Running, scratch: Path) -> None:
    game = server.session(scenario_game(page, server, scratch)).game
    keyed = next(o for o in game.legal_options() if isinstance(o, RequestOption) and o.keys)
    page.click(f'.entry[data-value="{keyed.head}"]')  # its key cards then outlined on the board
    page.wait_for_selector(f'.entry[data-value="{keyed.key_text}"]')
    page.wait_for_selector("#playback", state="detached")
    page.wait_for_selector(".entry")


def phone(page: Any, server: Running, scratch: Path) -> None:
    token = scenario_game(page, server, scratch)
    game = server.session(token).game
    option = next(o for o in game.legal_options() if isinstance(o, RequestOption) and len(paid(o)) == 2)
    page.click(f'.entry[data-value="{option.head}"]')
    page.wait_for_selector(f'.entry[data-value="{option.key_text}"]')
    page.click(f'.entry[data-value="{option.key_text}"]')
    page.wait_for_selector(".picking")
    page.click(card_at(paid(option)[0]))


def fight(page: Any, server: Running, scratch: Path) -> None:
    seats, _ = drive(server, environment().compile(EDITION, SMALLEST), hidden_block)
    page.goto(f"{server.url}/play/{seats['p1']}")
    page.wait_for_selector(".fight-tag")


def extra(page: Any, server: Running, scratch: Path) -> None:
    start_game(page, server, EXTRA, EXTRA_FORMAT.id)
    page.wait_for_selector(".card-table")
    placed = 0
    while page.locator(".card-table").count():  # the trumps placed: two cards apart in the table
        with page.expect_response(lambda r: "/choose" in r.url):
            page.locator(".card-table .card.pick").nth(10 + 17 * placed).click()
        placed += 1
        page.wait_for_selector(".entry, .result", state="attached")
    page.wait_for_selector(".player:not(.mine) .trumps .card.back")
    page.wait_for_selector("#playback", state="detached")


def fog(page: Any, server: Running, scratch: Path) -> None:
    """A game of the fog's format played with the first entries until a card lies in a fog."""
    edition, played = FOG
    for seed in range(40):
        token = server.new_game(edition=edition, format=played, seed=seed, opponent="random")["p1"]
        for _ in range(400):
            state = server.call("GET", f"/api/seat/{token}").data
            lying = [c for p in state["board"]["players"] for z in p["zones"] for c in z["cards"] or []]
            if any(c.get("note") for c in lying) or state["board"]["result"]:
                break
            menu = state["menu"]
            entries = menu["entries"]
            chosen = [*menu["chosen"], entries[(state["decision"] * 7) % len(entries)]["value"]]
            path = {"decision": state["decision"], "chosen": chosen, "auto": [*menu["auto"], False]}
            server.post(f"/api/seat/{token}/choose", path)
        if server.session(token).notes[0].notes:
            page.goto(f"{server.url}/play/{token}")
            page.wait_for_selector(".zone-card .note")
            return
    raise SystemExit("no card reached the fog in 40 games")


SCENES: dict[str, tuple[Scene, dict[str, int]]] = {
    "serve-desktop.png": (desktop, DESKTOP),
    "serve-phone.png": (phone, PHONE),
    "serve-fight.png": (fight, DESKTOP),
    "serve-extra.png": (extra, DESKTOP),
    "serve-fog.png": (fog, DESKTOP),
}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with launched() as chromium, running() as server, tempfile.TemporaryDirectory() as scratch:
        for name, (scene, viewport) in SCENES.items():
            seat = Watched(chromium, viewport)
            try:
                scene(seat.page, server, Path(scratch))
                seat.page.screenshot(path=str(out / name), full_page=viewport is DESKTOP)
            finally:
                seat.close()
            print(out / name)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
