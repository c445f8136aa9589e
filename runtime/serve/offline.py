"""The back end of the static play page (`blackpoker build --play`): the app's API routes
answered inside the page, by Pyodide, with the same game sessions as `blackpoker serve`
(session.py, board.py) over rule sets compiled when the site was built.

The page's script (app/backend_pyodide.js) hands each request of the app to `Table.answer`
as the HTTP back end would send it to the server, and gets back the status and the JSON the
server would answer. Nothing here reads YAML or imports the compiler's stages: the bundle
holds the rule sets pickled, and a module this file loads is one the bundle ships
(runtime/serve/bundle.py lists them by importing this file).
"""

from __future__ import annotations

import json
import pickle
import random
import re
from pathlib import Path
from typing import Any

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import player_name
from blackpoker.runtime.play.labels import labels
from blackpoker.runtime.play.roster import make_agent
from blackpoker.runtime.play.source import RulesSource
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.runtime.serve.cards import Json
from blackpoker.runtime.serve.limits import Limits, served_agent
from blackpoker.runtime.serve.session import SEEDS, Refusal, Session, Steps, read_command
from blackpoker.runtime.serve.zones import trumps_json

LOBBY = "lobby.json"  # in the bundle: the lobby's choices and the rule sets' files
RULES = "rules"  # in the bundle: a folder of pickled rule sets, `N.pickle`
SEATS = ("p1", "p2")
# The agents the page offers. A search thinks in the page's only thread, so its budget and
# its time per decision are kept small (the browser's Python is some times slower).
AGENTS = ("random", "greedy", "search")
LIMITS = Limits(budget=64, think=1.0)
KEY = r"([A-Za-z0-9_-]{1,64})"
SEAT_ROUTE = re.compile(rf"/api/seat/{KEY}(?:/(choose|back|command|scenario|rematch|log|trumps))?")
FORM = ("opponent", "seat", "seed")  # what a rematch takes from the form, beside the rule set
PLAY_PATH = "#play/"  # a seat's page: the same document, its table shown


class Table:
    """The page's games, by seat token, and the rule sets it may play, by edition and format."""

    def __init__(self, folder: Path, seeds: random.Random | None = None) -> None:
        self.folder = folder
        lobby = json.loads((folder / LOBBY).read_text(encoding="utf-8"))
        self.editions: list[Json] = lobby["editions"]  # as the server's lobby gives them
        self.files: dict[str, str] = lobby["files"]  # "edition format" -> pickle's name
        self.extras: dict[str, str] = lobby["extras"]  # "edition extra" -> the built-in list played
        self.defaults: Json = lobby["defaults"]
        self.seeds = seeds or random.SystemRandom()
        self.seats: dict[str, Session] = {}
        self.loaded: dict[str, RuleSet] = {}

    def answer(self, method: str, path: str, body: str | None) -> tuple[int, str]:
        """The status and JSON text the server would answer this request with."""
        try:
            status, data = 200, self._route(method, path, body)
        except Refusal as refusal:
            status, data = refusal.status, {"error": refusal.message}
        return status, json.dumps(data, ensure_ascii=False)

    def _route(self, method: str, path: str, body: str | None) -> Json | str:
        if (method, path) == ("GET", "/api/lobby"):
            lobby = {"editions": self.editions, "agents": list(AGENTS), "defaults": self.defaults}
            return lobby | {"rules": None, "house": None}  # no local rule: every choice offered
        if (method, path) == ("POST", "/api/games"):
            return self.new_game(_json(body))
        match = SEAT_ROUTE.fullmatch(path)
        if match is None:
            raise Refusal(404, f"静的ページにはない機能です: {method} {path}（blackpoker serve で使えます）")
        session = self.seats.get(match.group(1))
        if session is None:
            raise Refusal(404, "no such seat: the link is wrong, or the page was reloaded")
        seat = session.tokens[match.group(1)]
        action = match.group(2)
        if action is None and method == "GET":
            return session.state(seat)
        if action in ("choose", "back") and method == "POST":
            steps = Steps.read(_json(body))
            return session.choose(seat, steps) if action == "choose" else session.back(seat, steps)
        if action == "command" and method == "POST":
            return session.command(seat, *read_command(_json(body)))
        if action == "rematch" and method == "POST":
            return self.rematch(session, seat)
        if action == "trumps" and method == "GET":
            return trumps_json(session.game.rules.ruleset)
        if action == "log" and method == "GET":
            return session.log(seat)  # JSON text: the page's back end hands the app the log's text
        if action == "scenario":
            raise Refusal(409, "静的ページでは局面を保存できません（blackpoker serve で保存できます）")
        raise Refusal(404, f"no such API: {method} {path}")

    def new_game(self, data: Any) -> Json:
        """A game from the lobby's form: {edition, format, opponent, seat, seed}, against an agent."""
        session = self._session(data)
        seats = {player_name(s): f"{PLAY_PATH}{session.token_of(s)}" for s in session.humans}
        return {"title": session.title, "seats": seats}

    def rematch(self, session: Session, seat: int) -> Json:
        """The next game of a finished one, as the server makes it (Session.rematched)."""
        after = session.rematched(self._session)
        return {"title": after.title, "page": f"{PLAY_PATH}{after.token_of(seat)}"}

    def _session(self, data: Any) -> Session:
        if not isinstance(data, dict):
            raise Refusal(400, "expected a JSON object")
        edition = data.get("edition", self.defaults["edition"])
        format_id = data.get("format", self.defaults["format"])
        name = f"{edition} {format_id}"
        if not isinstance(edition, str) or not isinstance(format_id, str) or name not in self.files:
            raise Refusal(400, f"edition, format: このページで遊べるのは {', '.join(self.files)} です")
        opponent, seat = data.get("opponent", self.defaults["opponent"]), data.get("seat", "p1")
        try:
            if not isinstance(opponent, str) or opponent.partition(":")[0] not in AGENTS:
                raise ValueError(f"このページのエージェントは {', '.join(AGENTS)} です")
            opponent = served_agent(opponent, LIMITS)
        except ValueError as error:
            raise Refusal(400, f"opponent: {error}") from None
        if seat not in SEATS:
            raise Refusal(400, "seat: p1 or p2")
        if data.get("people", 1) != 1:
            raise Refusal(400, "people: 静的ページの相手はエージェントだけです")
        seed = data.get("seed")
        given = seed is not None
        if seed is None:
            seed = self.seeds.randrange(SEEDS)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEEDS:
            raise Refusal(400, "seed: a whole number from 0")
        ruleset = self._ruleset(name)
        game = Game.new(ruleset, seed, check=True, events=[])
        agent = make_agent(opponent, ruleset, seed, LIMITS.think)
        where = f"シード{seed}" if given else "ランダム"
        title = f"{edition} {ruleset.format.name} · {where} · 相手 {labels().agent(opponent)}"
        source = RulesSource(edition, format_id, extra=self.extras.get(name))
        form = {k: v for k, v in data.items() if k in FORM} | {"edition": edition, "format": format_id}
        humans = (SEATS.index(seat),)
        session = Session(game, source, title, humans, agent, form, seed_known=given)
        self.seats.update(dict.fromkeys(session.tokens, session))
        return session

    def _ruleset(self, name: str) -> RuleSet:
        if name not in self.loaded:  # the bundle's own file, written by the build
            data = (self.folder / RULES / self.files[name]).read_bytes()
            self.loaded[name] = pickle.loads(data)
        return self.loaded[name]


def _json(body: str | None) -> Any:
    try:
        return json.loads(body or "")
    except ValueError as error:
        raise Refusal(400, f"not a JSON body: {error}") from None
