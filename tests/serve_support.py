"""A `blackpoker serve` server in a thread of the test process, on a free port, with helpers
to call its API over real HTTP (http.client) and to replay a game's decisions, the rule sets
the serve tests look for by what they have, and the steps of its page that the browser tests
take (in a browser of browser_support.py)."""

from __future__ import annotations

import http.client
import json
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from blackpoker.cli.main import main
from blackpoker.runtime.engine.events import Decided
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.start import Start
from blackpoker.runtime.rules.model import Visibility
from blackpoker.runtime.serve.limits import Limits
from blackpoker.runtime.serve.server import App, Defaults, Server
from blackpoker.runtime.serve.session import Session
from click.testing import CliRunner
from editions_support import EDITIONS, environment, formats

EDITION = EDITIONS[0]
SMALLEST = formats(EDITION)[0]
EXTRA = next(e for e in EDITIONS if environment().builtin_extras(e))
FOG = next(  # an edition with a zone every player sees (the fog), in its largest format
    (e, formats(e)[-1])
    for e in EDITIONS
    if any(z.visibility is Visibility.PUBLIC for z in environment().edition(e).edition.core.zones)
)
SEED = 3  # of the games the lobby's form starts (start_game)
T = TypeVar("T")
# Marks an element whose click (with its enclosing character's and player's keys) names
# exactly one menu entry, as the page's own click handler reads it.
FIND_PICK = """() => {
  const entries = [...document.querySelectorAll('.entry')]
    .map((b) => b.dataset.marks.split(' ').filter(Boolean));
  for (const node of document.querySelectorAll('#board .pickable')) {
    if (!node.checkVisibility()) continue;  // a card folded away (a long graveyard's) is unfolded first
    const keys = [];
    for (let n = node; n; n = n.parentElement.closest('[data-keys]')) keys.push(...n.dataset.keys.split(' '));
    if (entries.filter((marks) => marks.some((m) => keys.includes(m))).length === 1) {
      node.setAttribute('data-test-pick', '');
      return true;
    }
  }
  return false;
}"""


@dataclass
class Answer:
    status: int
    kind: str
    text: str

    @property
    def data(self) -> Any:
        assert self.kind.startswith("application/json"), (self.status, self.kind, self.text[:200])
        return json.loads(self.text)


@dataclass
class Running:
    app: App
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def call(
        self, method: str, path: str, body: bytes | str | None = None, headers: dict[str, str] | None = None
    ) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        data = body.encode() if isinstance(body, str) else body
        connection.request(method, path, body=data, headers=headers or {})
        response = connection.getresponse()
        answer = Answer(response.status, response.getheader("Content-Type") or "", response.read().decode())
        connection.close()
        return answer

    def post(self, path: str, data: Any) -> Answer:
        return self.call(
            "POST", path, json.dumps(data, ensure_ascii=False), {"Content-Type": "application/json"}
        )

    def new_game(self, **form: Any) -> dict[str, str]:
        answer = self.post("/api/games", {"edition": EDITION, "format": SMALLEST, **form})
        assert answer.status == 201, answer.text
        return {seat: path.rsplit("/", 1)[1] for seat, path in answer.data["seats"].items()}

    def session(self, token: str) -> Session:
        return self.app.seats[token]

    def choose_at_random(self, token: str, state: dict[str, Any], rng: random.Random) -> Answer:
        """The seat's next step: one of its menu's entries, at random."""
        return self.post(f"/api/seat/{token}/choose", random_step(state, rng))


def random_step(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The body of a seat's `choose` that takes one of its menu's entries, at random."""
    menu = state["menu"]
    value = rng.choice(menu["entries"])["value"]
    return {"decision": state["decision"], "chosen": [*menu["chosen"], value], "auto": [*menu["auto"], False]}


@contextmanager
def running(defaults: Defaults | None = None, limits: Limits | None = None) -> Iterator[Running]:
    """A server whose secret seeds come from a seeded generator, so that each test plays the
    same games every run."""
    app = App(defaults or Defaults(EDITION, SMALLEST), seeds=random.Random(1), limits=limits)
    server = Server(("127.0.0.1", 0), app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Running(app, server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def positions(game: Game, start: Start | None = None) -> list[Game]:
    """The game's positions from its set-up on (a game kept with events=[] and a seed): the
    same seed (and a regulation's `start`) and the logged decisions, replayed."""
    assert game.seed is not None and game.events is not None
    again = Game.new(game.rules, game.seed, start=start, events=[])
    found = [again.copy()]
    for event in game.events:
        if isinstance(event, Decided):
            again.apply(again.legal_options()[event.index])
            found.append(again.copy())
    return found


def hidden_cards(game: Game, opponent: int) -> set[int]:
    """The opponent's cards the other player may not see: hand, life, face-down characters."""
    them = game.state.players[opponent]
    return {*them.hand, *them.life, *(c for u in them.field if not u.face_up for c in u.cards)}


def card_ids(data: Any) -> set[int]:
    """Every card id a JSON answer carries: card objects, and the menu's `card:ID` marks; not
    those of its playback's boards (`frames`), each of an earlier position (frame_cards)."""
    found: set[int] = set()
    if isinstance(data, dict):
        if {"id", "label", "suit"} <= data.keys():
            found.add(data["id"])
        for key, value in data.items():
            if key != "frames":
                found |= card_ids(value)
    elif isinstance(data, list):
        for value in data:
            found |= card_ids(value)
    elif isinstance(data, str) and data.startswith("card:"):
        found.add(int(data.removeprefix("card:")))
    return found


def game_log(folder: Path, seed: int, edition: str = EDITION, format_id: str = SMALLEST) -> Path:
    """The command log of one game (of the smallest format), as `simulate --logs` writes it."""
    args = ["simulate", "--edition", edition, "--format", format_id, "-n", "1", "--seed", str(seed)]
    result = CliRunner().invoke(main, [*args, "--logs", str(folder)])
    assert result.exit_code == 0, result.output
    return next(folder.glob("*.jsonl"))


def frame_cards(data: Any) -> list[tuple[int, set[int]]]:
    """A seat's answer's playback boards: for each, the decision it was drawn after and its cards."""
    return [(frame["decision"], card_ids(frame["board"])) for frame in data.get("frames", [])]


def start_game(
    page: Any, server: Running, edition: str = EDITION, played: str = SMALLEST, seed: int = SEED, **form: str
) -> None:
    """Fill the lobby's form (an edition, its format `played`, a seed and any other list) and
    start a game."""
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=format] option", state="attached")
    page.select_option("select[name=edition]", edition)
    page.select_option("select[name=format]", played)
    page.fill("input[name=seed]", str(seed))
    for name, value in form.items():
        page.select_option(f"select[name={name}]", value)
    page.click("#new-game button[type=submit]")


def answered(page: Any, action: Callable[[], T]) -> T:
    """Do `action` (a click that sends a step) and wait until the page has drawn the answer:
    the menu's entries of before are gone (a count taken earlier would be the old menu's)."""
    page.evaluate("() => document.querySelectorAll('#menu .entry').forEach((e) => { e.dataset.stale = ''; })")
    with page.expect_response(lambda r: "/choose" in r.url or "/back" in r.url):
        done = action()
    page.wait_for_function("() => !document.querySelector('#menu .entry[data-stale]')")
    return done


def decide(page: Any, rng: random.Random, back_first: bool = False) -> str:
    """One step: a board click that names one entry, going back, or an entry button;
    `back_first`: going back whenever the page offers it (until once seen)."""

    def click() -> str:
        roll = 0.35 if back_first and page.locator("button.back:enabled").count() else rng.random()
        if roll < 0.3 and page.evaluate(FIND_PICK):
            page.click("[data-test-pick]")
            return "board"
        if roll < 0.4 and page.locator("button.back:enabled").count():
            page.click("button.back")
            return "back"
        entries = page.locator(".entry")
        entries.nth(rng.randrange(entries.count())).click()
        return "entry"

    return answered(page, click)
