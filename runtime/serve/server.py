"""The HTTP side of `blackpoker serve`: the standard library's ThreadingHTTPServer, the app's
page from its Jinja template (autoescaped) and its script and style sheet, all shipped in the
package beside this module (app/), and
a JSON API: the routes are the table ROUTES. Every error is a JSON `{"error": …}` with a 4xx
status (5xx only for a fault of the server itself, never with a traceback); a refused request
changes nothing.
"""

from __future__ import annotations

import io
import json
import random
import re
import secrets
import socket
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, parse_qs, urlsplit

from blackpoker.compiler import CompileError
from blackpoker.compiler.environment import Environment, is_path
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.play.labels import browser_script, labels
from blackpoker.runtime.play.log import ReplayError
from blackpoker.runtime.play.roster import AGENTS, make_agent
from blackpoker.runtime.play.source import RulesSource, ServedFiles
from blackpoker.runtime.rules.diagnostics import Diagnostic
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.runtime.scenario.build import build
from blackpoker.runtime.scenario.load import load
from blackpoker.runtime.serve.cards import Json
from blackpoker.runtime.serve.limits import Connections, Deadline, Limits, served_agent
from blackpoker.runtime.serve.lobby import DECK_NAMES, Choice, choice, editions_json, house_rules_json
from blackpoker.runtime.serve.match import MatchTable
from blackpoker.runtime.serve.page import app_pages
from blackpoker.runtime.serve.replays import UPLOAD_NAME, WHO, Replay
from blackpoker.runtime.serve.session import SEEDS, Refusal, Session, Steps, read_command
from blackpoker.runtime.serve.zones import trumps_json

MAX_BODY = 8 * 1024 * 1024  # a command log of a whole game is a few hundred KiB
MAX_SESSIONS = 64  # games and replays kept; the oldest is dropped first
SEATS = ("p1", "p2")
ASSETS = {
    name: f"text/{'javascript' if name.endswith('.js') else 'css'}"
    for name in (
        "app.js",
        "backend_server.js",
        "app.css",
        "lobby.js",
        "zones.js",
        "zones.css",
        "game.js",
        "game.css",
        "hotseat.js",
        "match.js",
        "labels.js",
    )
}
SCENARIO_NAME = "upload.yaml"  # how an uploaded scenario is named in its errors
# where the choices of a new game are located: the server's options, the form's extra list
# and regulation
OPTIONS = ("--edition", "--format", "--extra", "--rules", "extra", "regulation", "--deck")
KEY = r"([A-Za-z0-9_-]{1,64})"  # a seat's token or a replay's id


@dataclass(frozen=True, slots=True)
class Route:
    """A route of the app: a method and a path; `name` is the Handler's method `_NAME` that
    answers it, with the path's match."""

    method: str
    path: re.Pattern[str]
    name: str


def _route(method: str, path: str, name: str) -> Route:
    return Route(method, re.compile(path.replace("KEY", KEY)), name)


# Every response the app gives comes from one of these (or is a refusal): the secrecy tests
# (tests/test_serve_secrecy.py) check each one by its name.
ROUTES = (
    _route("GET", "/", "lobby_page"),
    _route("GET", "/api/lobby", "lobby"),
    _route("GET", "/static/app/(" + "|".join(map(re.escape, ASSETS)) + ")", "asset"),
    _route("POST", "/api/games", "new_game"),
    _route("GET", "/play/KEY", "seat_page"),
    _route("GET", "/api/seat/KEY", "seat_state"),
    _route("POST", "/api/seat/KEY/choose", "seat_choose"),
    _route("POST", "/api/seat/KEY/back", "seat_back"),
    _route("POST", "/api/seat/KEY/command", "seat_command"),
    _route("GET", "/api/seat/KEY/scenario", "seat_scenario"),
    _route("GET", "/api/seat/KEY/log", "seat_log"),
    _route("GET", "/api/seat/KEY/trumps", "seat_trumps"),
    _route("POST", "/api/seat/KEY/rematch", "seat_rematch"),
    _route("POST", "/api/seat/KEY/next", "seat_next"),
    _route("POST", "/api/replays", "new_replay"),
    _route("GET", "/replay/KEY", "replay_page"),
    _route("GET", "/api/replay/KEY", "replay_frame"),
    _route("GET", "/api/replay/KEY/trumps", "replay_trumps"),
)


@dataclass(frozen=True, slots=True)
class Defaults:
    """What `blackpoker serve` was started with: a new game's defaults."""

    edition: str
    format: str
    rules: Path | None = None  # a local-rule file: every game plays it
    seed: int | None = None
    opponent: str = "random"


class App:
    """The server's state: games by seat token, replays by id, compiled rule sets."""

    def __init__(
        self,
        defaults: Defaults,
        env: Environment | None = None,
        seeds: random.Random | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.defaults = defaults
        self.env = env or Environment()
        self.limits = limits or Limits()
        self.seeds = seeds or random.SystemRandom()  # the secret seeds the server draws
        self.seats: OrderedDict[str, Session] = OrderedDict()
        self.replays: OrderedDict[str, Replay] = OrderedDict()
        self.compiled: dict[RulesSource, RuleSet] = {}
        self.lock = threading.Lock()  # for the tables above
        self.compiling = threading.Lock()  # for the environment, which caches what it read
        # the only files a client may name: the ones the server was started with
        self.served = ServedFiles.of(RulesSource(defaults.edition, defaults.format, defaults.rules), self.env)
        # the lobby's choices, read once before serving (every edition and its regulations: a
        # second or two), so that no visitor waits for them or holds up a game's compilation
        self.offered = {"editions": editions_json(self.env, defaults.edition)}

    # -- games -------------------------------------------------------------------------------

    def rules(self, source: RulesSource) -> RuleSet:
        with self.compiling:
            if source not in self.compiled:
                try:
                    self.compiled[source] = source.compile(self.env)
                except CompileError as error:
                    raise Refusal(400, _shown(error.diagnostics, OPTIONS)) from None
            return self.compiled[source]

    def lobby(self) -> Json:
        d = self.defaults
        house = (
            None
            if d.rules is None
            else house_rules_json(self.rules(RulesSource(d.edition, d.format, d.rules)))
        )
        return {
            **self.offered,
            "agents": list(AGENTS),
            "defaults": {"edition": d.edition, "format": d.format, "seed": d.seed, "opponent": d.opponent},
            "rules": None if d.rules is None else d.rules.name,
            "house": house,
        }

    def new_game(self, data: Any) -> Json:
        """A game from the lobby's form: {edition, format, opponent, seat, people, seed, scenario}."""
        session = self._session(data)
        seats = {SEATS[s]: f"/play/{session.token_of(s)}" for s in sorted(session.humans)}
        return {"title": session.title, "seats": seats}

    def rematch(self, token: str) -> Json:
        """The next game of a finished one (Session.rematched)."""
        session, seat = self.seat(token)
        after = session.rematched(self._session)
        return {"title": after.title, "page": f"/play/{after.token_of(seat)}"}

    def next_game(self, token: str, data: Any) -> Json:
        """A match's next game, once the game is over and until the match is decided: the
        seat's deck as `{deck}` asks (an index of its decks, for a game against an agent), the
        others picked at random. The first seat to ask starts it; the other finds it in its state."""
        session, seat = self.seat(token)
        deck = data.get("deck") if isinstance(data, dict) else None
        with session.lock:
            match = session.match
            if match is None:
                raise Refusal(409, labels()["match"]["not a match"])
            if session.next_game is None:
                refused = match.refusal(seat, deck, len(session.humans))
                if refused is not None:
                    raise Refusal(*refused)
                match.next(seat, deck if isinstance(deck, int) else None)
                session.next_game = self._session(session.form, match)
            after = session.next_game
        return {"title": after.title, "page": f"/play/{after.token_of(seat)}"}

    def _session(self, data: Any, match: MatchTable | None = None) -> Session:
        if not isinstance(data, dict):
            raise Refusal(400, "expected a JSON object")
        d = self.defaults
        edition, format_id = _text(data, "edition", d.edition), _text(data, "format", d.format)
        if edition != d.edition and edition not in self.env.builtin_editions():  # never a client's file
            known = ", ".join((*self.env.builtin_editions(), *([d.edition] if is_path(d.edition) else [])))
            raise Refusal(400, f"edition: このサーバーで遊べる版は {known} です")
        opponent, seat = _text(data, "opponent", d.opponent), _text(data, "seat", "p1")
        try:
            opponent = served_agent(opponent, self.limits)
        except ValueError as error:
            raise Refusal(400, f"opponent: {error}") from None
        if seat not in SEATS:
            raise Refusal(400, "seat: p1 or p2")
        people = data.get("people", 1)
        if people not in (1, 2) or isinstance(people, bool):
            raise Refusal(400, "people: 1 (against an agent) or 2 (two browsers)")
        # A seed deals the whole game: whoever knows it knows both hands. The server draws a
        # secret one unless the form (or --seed) gives one, which a game between two people
        # cannot take: the one who gave it would know the other's cards.
        seed = data.get("seed", d.seed if people == 1 else None)
        if "decks" in data and people == 2:  # whoever sends them would know the other's deck
            raise Refusal(400, "decks: 二人対戦ではデッキファイルを受け付けません")
        if seed is not None and people == 2:
            message = "二人対戦ではシードを指定できません（シードを知る人には相手の手札が分かります）"
            raise Refusal(400, f"seed: {message}")
        given = seed is not None
        if seed is None:
            seed = self.seeds.randrange(SEEDS)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEEDS:
            raise Refusal(400, "seed: a whole number from 0")
        scenario = data.get("scenario")
        if scenario is not None and not isinstance(scenario, str):
            raise Refusal(400, "scenario: the text of a scenario file")
        # a server started with local rules plays them only
        chosen = (
            Choice(RulesSource(d.edition, d.format, d.rules))
            if d.rules
            else self._choice(edition, format_id, data)
        )
        source, setup = chosen.source, chosen.setup
        if scenario is not None:
            game, source = self._scenario_game(scenario, seed)
        elif setup is not None:  # a game of a match: its decks dealt from the seed, as the terminal's
            match = match or MatchTable(setup, seed)
            game = match.game(setup.additions.widen(self.rules(source)))
        else:
            game = Game.new(self.rules(source), seed, check=True, events=[])
        humans = (0, 1) if people == 2 else (SEATS.index(seat),)
        agent = None if people == 2 else make_agent(opponent, game.rules.ruleset, seed, self.limits.think)
        rules = game.rules.ruleset
        against = "二人対戦" if people == 2 else f"相手 {labels().agent(opponent)}"
        where = "シナリオ" if scenario is not None else f"シード{seed}" if given else "ランダム"
        played = (
            rules.format.name
            if match is None or scenario is not None
            else f"{match.setup.name} {labels().say('match', 'game', n=match.number)}"
        )
        title = f"{rules.edition.id} {played} · {where} · {against}"
        form = {**data, "people": people, "seat": seat, "opponent": opponent} | (
            {"seed": seed} if given else {}
        )
        match = None if scenario is not None else match
        session = Session(game, source, title, humans, agent, form, given and scenario is None, match)
        if setup is not None and scenario is None:
            session.regulation = setup.name
        with self.lock:
            for token in session.tokens:
                self.seats[token] = session
            _trim(self.seats, MAX_SESSIONS * 2)
        return session

    def _choice(self, edition: str, format_id: str, data: dict[str, Any]) -> Choice:
        with self.compiling:
            found = choice(self.env, edition, format_id, data)
        if isinstance(found, Choice):
            return found
        raise Refusal(400, _shown(found, (*OPTIONS, "decks", *DECK_NAMES)))

    def _scenario_game(self, text: str, seed: int) -> tuple[Game, RulesSource]:
        """A game from an uploaded scenario's set-up (its commands and expectations are not
        played). It may name only the server's own files (an exported position names them by
        absolute path); its unknown cards and the game's later shuffles follow `seed`, not the
        file, so that whoever wrote the file does not know them."""
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / SCENARIO_NAME
            path.write_text(text, encoding="utf-8")
            with self.compiling:
                scenario, problems = load(path, self.env, SCENARIO_NAME, self.served, seed)
            if scenario is None:
                raise Refusal(400, _shown(problems, (SCENARIO_NAME,)))
            game = build(scenario)
        game.state.rng = random.Random(seed)
        data, d = scenario.doc.data, self.defaults
        rules = scenario.rules
        if "rules" in data:  # the server's own files, by their names on the server
            return game, RulesSource(d.edition, rules.format.id, d.rules)
        edition = d.edition if is_path(data["edition"]) else rules.edition.id
        return game, RulesSource(edition, rules.format.id, None, data.get("extra"))

    def seat(self, token: str) -> tuple[Session, int]:
        with self.lock:
            session = self.seats.get(token)
        if session is None:
            raise Refusal(404, "no such seat: the link is wrong, or the server was restarted")
        return session, session.tokens[token]

    # -- replays -----------------------------------------------------------------------------

    def new_replay(self, body: bytes) -> Json:
        try:
            with self.compiling:
                book = Replay.of_upload(body, self.env, self.served)
        except ReplayError as error:
            shown = _shown([error.diagnostic], (UPLOAD_NAME,))
            raise Refusal(400, f"not a command log this server can replay: {shown}") from None
        ident = secrets.token_urlsafe(12)
        with self.lock:
            self.replays[ident] = book
            _trim(self.replays, MAX_SESSIONS)
        return {"title": book.title, "steps": book.steps, "page": f"/replay/{ident}"}

    def replay(self, ident: str) -> Replay:
        with self.lock:
            book = self.replays.get(ident)
        if book is None:
            raise Refusal(404, "no such replay: open the log again")
        return book

    def replay_frame(self, ident: str, query: dict[str, list[str]]) -> Json:
        book = self.replay(ident)
        step_text, who = query.get("step", ["0"])[-1], query.get("who", ["all"])[-1]
        if not step_text.isascii() or not step_text.isdigit() or int(step_text[:9]) > book.steps:
            raise Refusal(400, f"step: a number from 0 to {book.steps}")
        if who not in WHO:
            raise Refusal(400, f"who: one of {', '.join(WHO)}")
        return book.frame(int(step_text), who)


def _shown(problems: Sequence[Diagnostic], places: tuple[str, ...]) -> str:
    """Problems as a client may read them: those located in what it sent (or in its options);
    one in a file of the server is not quoted, since its text is no client's to read."""
    said = [p.render() for p in problems if p.location.path in places]
    if len(said) < len(problems):
        said.append("サーバーのルールファイルに問題があります（サーバーを起動した端末で確かめてください）")
        for problem in problems:
            if problem.location.path not in places:
                sys.stderr.write(problem.render() + "\n")
    return "\n".join(said)


def _text(data: dict[str, Any], key: str, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or not value:
        raise Refusal(400, f"{key}: expected a name")
    return value


def _trim(kept: OrderedDict[str, Any], most: int) -> None:
    while len(kept) > most:
        kept.popitem(last=False)


class Handler(BaseHTTPRequestHandler):
    """One request; `server.app` is the App. Answers only as the routes above say."""

    server: Server
    protocol_version = "HTTP/1.1"
    # the head and the body go out in two writes: without this, Nagle's algorithm holds the
    # body until the client's delayed ACK, some 40 ms per answer
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a page polls the server, so a line per request would flood the terminal."""

    def setup(self) -> None:
        super().setup()
        self.reader = Deadline(self.connection)
        self.rfile = self.buffered = io.BufferedReader(self.reader)

    def handle_one_request(self) -> None:
        """Wait for the next request at most `idle` seconds; once its first byte is in, it has
        `request` seconds to arrive whole (Limits)."""
        limits = self.server.limits
        self.reader.deadline = None
        self.connection.settimeout(limits.idle)
        try:
            started = self.buffered.peek(1)
        except OSError:  # idle too long (TimeoutError), or the client went away
            started = b""
        if not started:
            self.close_connection = True
            return
        self.reader.deadline = time.monotonic() + limits.request
        super().handle_one_request()

    def do_GET(self) -> None:
        self._answer()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_GET

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (a malformed request line, an unknown method) as JSON too,
        as the client's fault (4xx), in HTTP/1.1 even when the request line named no version."""
        self.close_connection = True
        self.request_version = self.protocol_version
        status = {501: 405, 505: 400}.get(int(code), int(code))  # not implemented, HTTP version
        self._json({"error": message or HTTPStatus(code).phrase}, status)

    def _answer(self) -> None:
        try:
            self._dispatch(urlsplit(self.path))
        except Refusal as refusal:
            self._json({"error": refusal.message}, refusal.status)
        except Exception as error:  # a fault of the server: said in one line, the game untouched
            self._json({"error": f"internal error: {type(error).__name__}"}, 500)
            self.log_error("%s", f"{type(error).__name__}: {error}")

    def _dispatch(self, url: SplitResult) -> None:
        if self.command not in ("GET", "POST"):
            raise Refusal(405, f"{self.command} is not supported: the API takes GET and POST")
        for route in ROUTES:
            match = route.path.fullmatch(url.path)
            if match is not None and route.method == self.command:
                answer: Callable[[re.Match[str], SplitResult], None] = getattr(self, f"_{route.name}")
                return answer(match, url)
        if self.command == "GET":
            raise Refusal(404, f"no such page: {url.path}")
        raise Refusal(404, f"no such API: POST {url.path}")

    # -- the routes (ROUTES), each with its path's match -------------------------------------

    def _lobby_page(self, match: re.Match[str], url: SplitResult) -> None:
        self._page("lobby", "")

    def _lobby(self, match: re.Match[str], url: SplitResult) -> None:
        self._json(self.server.app.lobby())

    def _asset(self, match: re.Match[str], url: SplitResult) -> None:
        name = match.group(1)
        if name not in ASSETS:
            raise Refusal(404, f"no such page: {url.path}")
        data = resources.files("blackpoker.runtime.serve").joinpath("app", name).read_bytes()
        if name == "labels.js":
            data = browser_script(data)
        self._send(data, ASSETS[name] + "; charset=utf-8")

    def _new_game(self, match: re.Match[str], url: SplitResult) -> None:
        self._json(self.server.app.new_game(self._json_body()), 201)

    def _seat_page(self, match: re.Match[str], url: SplitResult) -> None:
        self.server.app.seat(match.group(1))
        self._page("play", match.group(1))

    def _seat_state(self, match: re.Match[str], url: SplitResult) -> None:
        session, seat = self.server.app.seat(match.group(1))
        self._json(session.state(seat))

    def _seat_choose(self, match: re.Match[str], url: SplitResult) -> None:
        session, seat = self.server.app.seat(match.group(1))
        self._json(session.choose(seat, Steps.read(self._json_body())))

    def _seat_back(self, match: re.Match[str], url: SplitResult) -> None:
        session, seat = self.server.app.seat(match.group(1))
        self._json(session.back(seat, Steps.read(self._json_body())))

    def _seat_command(self, match: re.Match[str], url: SplitResult) -> None:
        session, seat = self.server.app.seat(match.group(1))
        self._json(session.command(seat, *read_command(self._json_body())))

    def _seat_scenario(self, match: re.Match[str], url: SplitResult) -> None:
        session, seat = self.server.app.seat(match.group(1))
        self._send(session.scenario(seat).encode(), "application/yaml; charset=utf-8")

    def _seat_log(self, match: re.Match[str], url: SplitResult) -> None:
        session, seat = self.server.app.seat(match.group(1))
        self._send(session.log(seat).encode(), "application/x-ndjson; charset=utf-8")

    def _seat_trumps(self, match: re.Match[str], url: SplitResult) -> None:
        session, _ = self.server.app.seat(match.group(1))
        self._json(trumps_json(session.game.rules.ruleset), cached=True)

    def _seat_next(self, match: re.Match[str], url: SplitResult) -> None:
        self._json(self.server.app.next_game(match.group(1), self._json_body()), 201)

    def _seat_rematch(self, match: re.Match[str], url: SplitResult) -> None:
        self._body()  # read, so that the connection's next request starts after it
        self._json(self.server.app.rematch(match.group(1)), 201)

    def _new_replay(self, match: re.Match[str], url: SplitResult) -> None:
        self._json(self.server.app.new_replay(self._body()), 201)

    def _replay_page(self, match: re.Match[str], url: SplitResult) -> None:
        if match.group(1) not in self.server.app.replays:
            raise Refusal(404, "no such replay: open the log again")
        self._page("replay", match.group(1))

    def _replay_frame(self, match: re.Match[str], url: SplitResult) -> None:
        self._json(self.server.app.replay_frame(match.group(1), parse_qs(url.query)))

    def _replay_trumps(self, match: re.Match[str], url: SplitResult) -> None:
        book = self.server.app.replay(match.group(1))
        self._json(trumps_json(book.keyframes[0].rules.ruleset), cached=True)

    def _body(self) -> bytes:
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            raise Refusal(411, "a request body needs a Content-Length")
        if int(length) > MAX_BODY:
            self.close_connection = True  # the body is not read: the connection cannot go on
            raise Refusal(413, f"the body is {length} bytes, more than {MAX_BODY}")
        try:
            body = self.rfile.read(int(length))
        except TimeoutError:
            self.close_connection = True
            raise Refusal(408, f"本文が {self.server.limits.request:g} 秒以内に届きませんでした") from None
        if len(body) < int(length):
            self.close_connection = True
            raise Refusal(400, f"本文が Content-Length（{length} バイト）より短いまま途切れました")
        return body

    def _json_body(self) -> Any:
        try:
            return json.loads(self._body())
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            raise Refusal(400, f"not a JSON body: {error}") from None

    def _page(self, kind: str, key: str) -> None:
        html = self.server.pages.get_template("app.html").render(kind=kind, key=key, offline=False)
        self._send(html.encode(), "text/html; charset=utf-8")

    def _json(self, data: Json, status: int = 200, cached: bool = False) -> None:
        text = json.dumps(data, ensure_ascii=False).encode()
        self._send(text, "application/json; charset=utf-8", status, cached)

    def _send(self, data: bytes, kind: str, status: int = 200, cached: bool = False) -> None:
        """`cached`: an answer that never changes for its key (the trump table), kept by the
        browser; any other is asked anew."""

        self.connection.settimeout(self.server.limits.idle)  # not what the request's deadline left
        self.send_response(status, HTTPStatus(status).phrase)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "private, max-age=86400, immutable" if cached else "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        # everything the pages use is this server's own: no CDN, no inline script
        self.send_header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:")
        self.end_headers()
        self.wfile.write(data)


class Server(ThreadingHTTPServer):
    """A thread per connection, as many as Limits allow: a connection over them is answered
    429 and closed at once, by the thread that accepts connections."""

    daemon_threads = True
    # connections waiting to be accepted: past the default 5, a burst of clients has its
    # connections dropped and retried by TCP a second or more later
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], app: App) -> None:
        super().__init__(address, Handler)
        self.app = app
        self.pages = app_pages()
        self.limits = app.limits
        self.connections = Connections(app.limits)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.connections.admit(client_address[0]):
            self._turn_away(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread took it
            self.connections.release(client_address[0])
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.connections.release(client_address[0])

    def _turn_away(self, request: socket.socket) -> None:
        limits = self.limits
        most = f"一つのアドレスから {limits.per_client}、全体で {limits.connections} まで"
        message = f"同時接続が多すぎます（{most}）"
        body = json.dumps({"error": message}, ensure_ascii=False).encode()
        head = (
            "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nRetry-After: 5\r\nConnection: close\r\n\r\n"
        )
        try:
            request.settimeout(0.5)  # a few hundred bytes: the socket's buffer takes them at once
            request.sendall(head.encode() + body)
        except OSError:
            pass
        self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that failed outside a request's answer (the client went away): one
        line on the terminal at most, never a traceback."""
        error = sys.exc_info()[1]
        if not isinstance(error, ConnectionError | TimeoutError):
            sys.stderr.write(f"blackpoker serve: {type(error).__name__}: {error}\n")
