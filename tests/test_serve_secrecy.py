"""No answer of `blackpoker serve` gives a seat a card outside that seat's view.

Every route of the server's table (server.ROUTES) has a check here, by its name: a route added
without one fails. The games are played over real HTTP by two people in the smallest format,
in a format whose edition has a public zone (the fog) and in the extra format (trumps lying
face down or up), and by one person against an agent. Every answer a seat received is kept
with the position it was given at and checked against that seat's view there
(runtime/engine/view.py): the cards a JSON answer carries, the log it says, the cards an
exported scenario names, the words of a refusal, and the game's secret seed.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.runtime.engine.determinize import named_cards as options_cards
from blackpoker.runtime.engine.events import Decided
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option
from blackpoker.runtime.engine.start import Start
from blackpoker.runtime.engine.view import View, hidden_from, masked, view
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.chronicle import named_cards, said
from blackpoker.runtime.play.labels import labels_for
from blackpoker.runtime.play.log import replay
from blackpoker.runtime.play.regulation import Dealt
from blackpoker.runtime.rules.enums import Face
from blackpoker.runtime.rules.model import Visibility
from blackpoker.runtime.scenario.unknown import UNKNOWN
from blackpoker.runtime.serve.server import ROUTES
from editions_support import EDITIONS, environment
from match_support import match_frame
from serve_support import (
    EDITION,
    FOG,
    SMALLEST,
    Answer,
    Running,
    card_ids,
    frame_cards,
    game_log,
    positions,
    running,
)

CARD = re.compile(r"(?:[♠♡♢♣](?:10|[2-9AJQK]))|Joker")
SEATS = ("p1", "p2")
HIDDEN_WORD = "（非公開のカード）"  # how a log says an opponent's decision naming a card not seen
EXTRA = next((e, EXTRA_FORMAT.id) for e in EDITIONS if environment().builtin_extras(e))
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
GAMES = ((EDITION, SMALLEST), FOG, EXTRA)
MOST = 150  # decisions played in each game
GIVEN_SEED = 11  # the seed a seat gives in the lobby: the game's log may then be downloaded


@dataclass
class Seen:
    """An answer a seat received, with a copy of the game it was given at."""

    number: int  # which game (a replay's too)
    seat: int
    game: Game
    answer: Answer
    typed: str = ""  # the command the seat sent, whose cards a refusal may name
    said: list[str] = field(default_factory=list)  # the seat's log then (an exported scenario's)


@dataclass
class Played:
    server: Running
    kept: dict[str, list[Seen]] = field(default_factory=lambda: {r.name: [] for r in ROUTES})
    secret_seeds: list[int] = field(default_factory=list)
    # by game, for each seat, the log lines that would say a card it did not see (_hidden_lines)
    hidden_lines: dict[int, dict[int, set[str]]] = field(default_factory=dict)
    positions: dict[int, list[Game]] = field(default_factory=dict)  # by game, after each decision
    before: dict[str, str] = field(default_factory=dict)  # what the game-free routes said first
    after: dict[str, Answer] = field(default_factory=dict)  # and last


def _allowed(game: Game, seat: int) -> set[int]:
    """The cards the seat may be given: what it sees, and what its options name (a card it
    picks out of its own life)."""
    seen = view(game, seat)
    return seen.visible_cards() | options_cards(seen.options)


def _hidden_lines(game: Game, start: Start | None = None) -> dict[int, set[str]]:
    """For each seat, the log lines that would say an opponent's decision naming a card the
    seat saw neither before nor after it, in full (less any said alike by a decision the seat
    did see). The game's decisions are played again from its seed (kept with events=[]) and
    its regulation's `start`."""
    assert game.seed is not None and game.events is not None
    again = Game.new(game.rules, game.seed, start=start)
    words = labels_for(game.rules.ruleset)
    hidden: dict[int, set[str]] = {0: set(), 1: set()}
    shown: dict[int, set[str]] = {0: set(), 1: set()}
    for event in game.events:
        if not isinstance(event, Decided):
            continue
        before = again.copy()
        option = again.legal_options()[event.index]
        again.apply(option)
        seat = 1 - option.player
        seen = view(before, seat).visible_cards() | view(again, seat).visible_cards()
        shown_as = masked(before.state, option, hidden_from(before.state, seat))
        if shown_as != option:  # a hidden character named by its card
            hidden[seat].add(f"{SEATS[option.player]}: {said(words, option)}")
        line = f"{SEATS[option.player]}: {said(words, shown_as)}"  # as the log says it, in whole
        (shown if named_cards(shown_as) <= seen else hidden)[seat].add(line)
    return {seat: hidden[seat] - shown[seat] for seat in (0, 1)}


# -- playing -----------------------------------------------------------------------------------


class Table:
    """One game on the server, its seats played by random choices; every answer is kept."""

    def __init__(
        self,
        played: Played,
        form: dict[str, Any],
        seed: int | None = None,
        tokens: list[str] | None = None,
    ) -> None:
        self.played, self.server = played, played.server
        self.number = len(played.hidden_lines)  # the game's number, for the lines hidden in it
        played.hidden_lines[self.number] = {}
        made = None
        if tokens is None:  # a new game from the lobby's form; else a match's next game
            made = self.server.post("/api/games", form | ({} if seed is None else {"seed": seed}))
            assert made.status == 201, made.text
            tokens = [path.rsplit("/", 1)[1] for path in made.data["seats"].values()]
        self.tokens = tokens
        self.game = self.server.session(self.tokens[0]).game
        self.session = self.server.session(self.tokens[0])
        self.seats = sorted(self.session.tokens[t] for t in self.tokens)
        if made is not None:
            self.keep("new_game", self.seats[0], made)
        assert self.game.seed is not None
        if seed is None:
            played.secret_seeds.append(self.game.seed)
        match = self.session.match
        self.start = None  # a regulation's decks, to play the game again from its seed
        if match is not None:  # the match's seed deals every game's decks
            played.secret_seeds.append(match.seed)
            self.start = Dealt(match.setup, match.seed, match.chosen).start()

    def following(self) -> Table | None:
        """The match's next game, once a seat started it (None: no match, or it is decided)."""
        after = self.session.next_game
        return None if after is None else Table(self.played, {}, tokens=list(after.tokens))

    def keep(self, route: str, seat: int, answer: Answer, typed: str = "") -> Answer:
        said = list(self.session.chronicles[seat].lines) if route == "seat_scenario" else []
        self.played.kept[route].append(Seen(self.number, seat, self.game.copy(), answer, typed, said))
        return answer

    def call(self, route: str, seat: int, method: str, tail: str = "", data: Any = None) -> Answer:
        token = self.session.token_of(seat)
        path = (f"/play/{token}" if route == "seat_page" else f"/api/seat/{token}") + tail
        answer = self.server.call(method, path) if data is None else self.server.post(path, data)
        return self.keep(route, seat, answer, data.get("text", "") if isinstance(data, dict) else "")

    def play(self, rng: random.Random, most: int = MOST) -> None:
        for seat in self.seats:
            self.call("seat_page", seat, "GET")
            self.call("seat_trumps", seat, "GET", "/trumps")
        for turn in range(most):
            mover = self.game.to_move
            if self.game.over or mover not in self.seats:
                break
            state = self.call("seat_state", mover, "GET").data
            if turn % 3 == 0:
                for seat in self.seats:
                    if seat != mover:
                        self.call("seat_state", seat, "GET")
            if turn % 3 == 0 or any(z for p in self.game.state.players for z in p.zones.values()):
                for seat in self.seats:
                    self.call("seat_scenario", seat, "GET", "/scenario")
            if turn % 40 == 0:  # before the end: refused
                self.call("seat_log", mover, "GET", "/log")
                self.call("seat_rematch", mover, "POST", "/rematch", {})
                self.call("seat_next", mover, "POST", "/next", {})
            self.step(mover, state, rng)
        for seat in self.seats:
            self.call("seat_page", seat, "GET")
            self.call("seat_trumps", seat, "GET", "/trumps")
            self.call("seat_log", seat, "GET", "/log")
            self.call("seat_rematch", seat, "POST", "/rematch", {})
            self.call("seat_next", seat, "POST", "/next", {})
        self.played.hidden_lines[self.number] = _hidden_lines(self.game, self.start)
        self.played.positions[self.number] = positions(self.game, self.start)

    def step(self, seat: int, state: dict[str, Any], rng: random.Random) -> None:
        menu, roll = state["menu"], rng.random()
        path = {"decision": state["decision"], "chosen": menu["chosen"], "auto": menu["auto"]}
        if roll < 0.1 and menu["can_back"]:
            self.call("seat_back", seat, "POST", "/back", path)
            return
        if roll < 0.2:  # a command naming cards at random: refused, or played
            words = [e["value"] for e in menu["entries"]]
            cards = [label(rng.randrange(108)) for _ in range(2)]
            other = SEATS[1 - seat]
            text = rng.choice([f"{rng.choice(words)} ★{cards[0]} → {other}:{cards[1]}", "pass"])
            sent = {"decision": path["decision"], "text": text}
            answer = self.call("seat_command", seat, "POST", "/command", sent)
            if answer.status == 200:
                return
        value = rng.choice(menu["entries"])["value"]
        chosen = {**path, "chosen": [*menu["chosen"], value], "auto": [*menu["auto"], False]}
        answer = self.call("seat_choose", seat, "POST", "/choose", chosen)
        assert answer.status == 200, answer.text
        if rng.random() < 0.05:  # a stale path: refused
            self.call("seat_choose", seat, "POST", "/choose", chosen)


GAME_FREE = {"lobby_page": "/", "lobby": "/api/lobby", "asset": "/static/app/app.js"}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    with running() as server:
        done = Played(server)
        for route, path in GAME_FREE.items():
            done.before[route] = server.call("GET", path).text
        # each game its own generator, so that what one game draws does not change the others
        for n, (edition, fmt) in enumerate(GAMES):
            Table(done, _form(edition, fmt, people=2)).play(random.Random(7 + n))
        Table(done, _form(*FOG, people=1)).play(random.Random(7 + len(GAMES)))
        # a game whose seed the seat gave, played to its end: its log is the seat's to have
        Table(done, _form(EDITION, SMALLEST, people=1), seed=GIVEN_SEED).play(random.Random(3), most=10_000)
        # a regulation's whole match between two people, game after game (its seeds drawn)
        edition, fmt, frame = match_frame(server.call("GET", "/api/lobby").data)
        table: Table | None = Table(done, _form(edition, fmt, people=2) | {"regulation": frame["id"]})
        while table is not None:
            table.play(random.Random(20 + table.number), most=10_000)
            table = table.following()
        for edition, fmt in GAMES:
            _replay(done, tmp_path_factory.mktemp("logs"), edition, fmt)
        for route, path in GAME_FREE.items():
            done.after[route] = server.call("GET", path)
        yield done


def _form(edition: str, fmt: str, people: int) -> dict[str, Any]:
    return {"edition": edition, "format": fmt, "people": people}


def _replay(played: Played, folder: Path, edition: str, fmt: str) -> None:
    """A finished game's log opened in the replay viewer; each player's view of every step kept."""
    log = game_log(folder, seed=5, edition=edition, format_id=fmt)
    number = len(played.hidden_lines)
    frames: list[Game] = []
    live: list[Game] = []  # the replay's own game, which keeps its events

    def watch(game: Game, option: Option | None) -> None:
        frames.append(game.copy())
        live[:] = [game]

    replay(log, watch=watch)
    opened = played.server.call("POST", "/api/replays", log.read_bytes())
    played.kept["new_replay"].append(Seen(number, 0, frames[0], opened))
    ident = opened.data["page"].rsplit("/", 1)[1]
    page = played.server.call("GET", f"/replay/{ident}")
    played.kept["replay_page"].append(Seen(number, 0, frames[0], page))
    trumps = played.server.call("GET", f"/api/replay/{ident}/trumps")
    played.kept["replay_trumps"].append(Seen(number, 0, frames[-1], trumps))
    for step in range(0, len(frames), 3):
        for seat, who in enumerate(SEATS):
            answer = played.server.call("GET", f"/api/replay/{ident}?step={step}&who={who}")
            played.kept["replay_frame"].append(Seen(number, seat, frames[step], answer))
    full = played.server.call("GET", f"/api/replay/{ident}?step={len(frames) - 1}&who=all").data
    played.hidden_lines[number] = _hidden_lines(live[0])
    for hidden in played.hidden_lines[number].values():
        assert hidden & set(full["log"]), "the check can fail: the full view says what the players' hide"


# -- the checks, one per route -----------------------------------------------------------------

CHECKS: dict[str, Callable[[Played], None]] = {}


def check(*names: str) -> Callable[[Callable[[Played], None]], Callable[[Played], None]]:
    def register(function: Callable[[Played], None]) -> Callable[[Played], None]:
        for name in names:
            CHECKS[name] = function
        return function

    return register


def _answers(played: Played, *names: str) -> list[Seen]:
    found = [seen for name in names for seen in played.kept[name]]
    assert found, f"no answer of {names} was received: the route was not exercised"
    return found


def _no_secret(played: Played, seen: Seen) -> None:
    """No answer holds a game's seed the server drew: it deals every hidden card."""
    leaked = [s for s in played.secret_seeds if str(s) in seen.answer.text]
    assert not leaked, (seen.answer.text[:300], leaked)


def _refusal_names_only_seen_cards(seen: Seen) -> None:
    """A refusal's words name only cards the seat sees or typed itself (and the rule set's
    key notations, ♢A〜10, and the notation's example after "write e.g.")."""
    message = seen.answer.data["error"].split("write e.g.")[0]
    rules = seen.game.rules
    keys = {str(k.key) for k in (*rules.actions, *rules.characters) if k.key}
    for key in sorted(keys, key=len, reverse=True):
        message = message.replace(key, "")
    allowed = {label(c) for c in _allowed(seen.game, seen.seat)} | set(CARD.findall(seen.typed))
    assert set(CARD.findall(message)) <= allowed, (message, seen.typed)


@check("seat_state", "seat_choose", "seat_back", "seat_command")
def _seat_answers(played: Played) -> None:
    names = ("seat_state", "seat_choose", "seat_back", "seat_command")
    answers = _answers(played, *names)
    refusals = frames = 0
    for seen in answers:
        _no_secret(played, seen)
        if seen.answer.status != 200:
            refusals += 1
            _refusal_names_only_seen_cards(seen)
            continue
        data = seen.answer.data
        assert data["decision"] == seen.game.decisions
        leaked = card_ids(data) - _allowed(seen.game, seen.seat)
        assert not leaked, (seen.seat, data["decision"], sorted(map(label, leaked)))
        for decision, cards in frame_cards(data):  # each board played back, at its own position
            frames += 1
            leaked = cards - _allowed(played.positions[seen.number][decision], seen.seat)
            assert not leaked, (seen.seat, decision, sorted(map(label, leaked)))
        said = set(data["log"]) & played.hidden_lines[seen.number][seen.seat]
        assert not said, said
    assert refusals and frames
    # the check can fail: a seat's own answers carry its own hidden cards, which the other lacks
    played_out = [s for s in answers if s.answer.status == 200]
    assert any(card_ids(s.answer.data) - _allowed(s.game, 1 - s.seat) for s in played_out)
    assert any(HIDDEN_WORD in line for s in played_out for line in s.answer.data["log"])


def _zone_views(seen: View, index: int) -> dict[str, list[str]]:
    """What the seat sees of a player's zones, by label, as a scenario names them."""
    player = seen.players[index]
    found = {
        "life": [],
        "hand": [label(c) for c in player.hand or ()],
        "graveyard": [label(c) for c in player.graveyard],
        "face_up": [label(c) for z in player.zones for c in z.face_up],
    }
    for zone in player.zones:
        found[f"zones.{zone.id}"] = [label(c) for c in (zone.face_up if zone.cards is None else zone.cards)]
    for n, unit in enumerate(player.field):
        found[f"field.{n}"] = [label(c) for c in unit.cards]
    return found


def _written(zones: dict[str, Any]) -> dict[str, list[str]]:
    found = {key: list(zones.get(key, [])) for key in ("life", "hand", "graveyard", "face_up")}
    for zone, cards in zones.get("zones", {}).items():
        found[f"zones.{zone}"] = cards
    for n, unit in enumerate(zones.get("field", [])):
        found[f"field.{n}"] = unit["cards"]
    return found


@check("seat_scenario")
def _exports(played: Played) -> None:
    """An exported position names exactly the cards the seat sees, each where it sees it, and
    every other card as unknown; its `expect` names no other card either."""
    written = [s for s in _answers(played, "seat_scenario") if s.answer.status == 200]
    covered: Counter[str] = Counter()
    for seen in written:
        _no_secret(played, seen)
        data = yaml.safe_load(seen.answer.text)
        looks, state = view(seen.game, seen.seat), seen.game.state
        extra = seen.game.rules.format.id == EXTRA_FORMAT.id
        public = [z for z in seen.game.rules.edition.core.zones if z.visibility is Visibility.PUBLIC]
        for index, who in enumerate(SEATS):
            shown, zones = _zone_views(looks, index), _written(data["setup"][who])
            assert shown.keys() == zones.keys(), (shown.keys(), zones.keys())
            for key, cards in zones.items():
                known = [c for c in cards if c != UNKNOWN]
                assert Counter(known) == Counter(shown[key]), (who, key, cards, shown[key])
            player = state.players[index]
            assert len(zones["life"]) == len(player.life) and len(zones["hand"]) == len(player.hand)
            expected = _written({**data["expect"][who], "field": [], "life": []})
            for key in ("hand", "graveyard", "face_up"):
                assert Counter(expected[key]) == Counter(zones[key]), (who, key)
            texts = " ".join(data["expect"][who]["field"])
            on_field = {c for n in range(len(player.field)) for c in zones[f"field.{n}"]}
            assert set(CARD.findall(texts)) <= on_field, texts
            lying = [c for z in player.zones.values() for c in z]
            other = index != seen.seat
            covered["face-down character"] += other and any(not u.face_up for u in player.field)
            covered["face-down trump"] += other and any(c not in player.face_up for c in lying) and extra
            covered["fog"] += any(player.zones[z.id] for z in public)  # by chance: see below
        covered["after a hidden payment"] += any(HIDDEN_WORD in line for line in seen.said)
        covered["two people"] += seen.number < len(GAMES)
        covered["against an agent"] += seen.number == len(GAMES)  # the game played after GAMES
    # a public zone's cards (the fog) come only by chance in random games: a position that has
    # some is exported in test_an_export_names_the_cards_every_player_sees
    wanted = ("face-down character", "face-down trump", "after a hidden payment", "two people")
    wanted += ("against an agent",)
    assert all(covered[w] for w in wanted), covered
    refused = [s for s in played.kept["seat_scenario"] if s.answer.status != 200]
    assert refused and all(s.answer.data["error"] for s in refused)  # a stage, a result: said, not written


@check("seat_log")
def _logs(played: Played) -> None:
    """A command log holds the seed, so every card: it is given only for a finished game whose
    seat gave the seed (it tells that seat nothing new); any other is refused without a card."""
    answers = _answers(played, "seat_log")
    given = [s for s in answers if s.answer.status == 200]
    for seen in answers:
        _no_secret(played, seen)
        if seen.answer.status != 200:
            assert seen.answer.status == 409 and not CARD.search(seen.answer.data["error"]), seen.answer.text
            continue
        header = json.loads(seen.answer.text.splitlines()[0])
        assert seen.game.over and header["seed"] == GIVEN_SEED == seen.game.seed, header
    assert given, "no finished game's log was downloaded: the check cannot fail"
    assert len(given) < len(answers)  # and some were refused: before the end, or by a drawn seed


@check("seat_rematch", "seat_next")
def _next_pages(played: Played) -> None:
    """A rematch, or a match's next game, says the seat's new page and the title; refused
    without naming a card: before the game's end, and for the next game also outside a match
    and once the match is decided."""
    for route in ("seat_rematch", "seat_next"):
        answers = _answers(played, route)
        made = [s for s in answers if s.answer.status == 201]
        for seen in answers:
            _no_secret(played, seen)
            data = seen.answer.data
            if seen.answer.status != 201:
                assert not CARD.search(data["error"]) and (route == "seat_next" or not seen.game.over), data
                continue
            assert seen.game.over and set(data) == {"title", "page"} and not CARD.search(data["title"]), data
        assert made and len(made) < len(answers), route


@check("replay_frame")
def _replay_frames(played: Played) -> None:
    for seen in _answers(played, "replay_frame"):
        data = seen.answer.data
        leaked = card_ids(data) - _allowed(seen.game, seen.seat)
        assert not leaked, (data["who"], data["step"], sorted(map(label, leaked)))
        said = set(data["log"]) & played.hidden_lines[seen.number][seen.seat]
        assert not said, (data["who"], said)


@check("seat_trumps", "replay_trumps")
def _trump_tables(played: Played) -> None:
    """The trump table is the extra list as printed (each trump's face, name and its actions'
    effect texts), the same for both seats at the start and at the end: no card of a game."""
    answers = _answers(played, "seat_trumps", "replay_trumps")
    for seen in answers:
        _no_secret(played, seen)
        rules = seen.game.rules.ruleset
        printed = [
            {
                "card": str(t.card),
                "name": t.name,
                "about": "\n".join(f"{a.name}: {a.effect}" for a in map(rules.action, t.actions) if a.effect),
            }
            for t in rules.trumps
        ]
        assert seen.answer.status == 200 and seen.answer.data == {"trumps": printed}, seen.answer.text[:300]
        assert not card_ids(seen.answer.data)
    assert any(s.answer.data["trumps"] for s in answers)  # the extra game's: the check can fail


@check("new_game", "new_replay")
def _made(played: Played) -> None:
    """A new game's or replay's answer says where to go and its title, no card."""
    for seen in _answers(played, "new_game", "new_replay"):
        _no_secret(played, seen)
        data = seen.answer.data
        assert set(data) <= {"title", "seats", "steps", "page"}, data
        assert not CARD.search(data["title"]), data["title"]


@check("seat_page", "replay_page")
def _pages(played: Played) -> None:
    """A page is the same for every game and moment: it holds nothing of a game but its key."""
    answers = _answers(played, "seat_page", "replay_page")
    pages = {re.sub(r'data-key="[^"]*"', "KEY", s.answer.text) for s in answers}
    assert len(pages) == 2 and not any(CARD.search(page) for page in pages), len(pages)  # play, replay


@check(*GAME_FREE)
def _game_free(played: Played) -> None:
    """The lobby, its page and the assets say the same before and after every game."""
    assert played.before.keys() == played.after.keys() == GAME_FREE.keys()
    for route, first in played.before.items():
        last = played.after[route]
        assert last.status == 200 and last.text == first, route


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.name)
def test_no_route_gives_a_seat_a_card_outside_its_view(played: Played, route: Any) -> None:
    assert route.name in CHECKS, f"{route.method} {route.path.pattern} ({route.name}) has no secrecy check"
    CHECKS[route.name](played)


# -- what a refusal or an uploaded position could still tell ------------------------------------


def _position(hidden: str) -> str:
    """p1 to act with a hand of every ♡ and ♢; p2 with one face-down character of `hidden`."""
    rules = environment().compile(EDITION, SMALLEST)
    down = next(c for c in rules.characters if c.face is Face.DOWN)
    hand = ", ".join(f"{suit}{rank}" for suit in "♡♢" for rank in ("A", *range(2, 11), "J", "Q", "K"))
    return f"""kind: scenario
name: a face-down character of {hidden}
edition: {EDITION}
format: {SMALLEST}
setup:
  turn: p1
  p1: {{life: 28, hand: [{hand}]}}
  p2: {{life: 53, field: [{{as: {down.id}, cards: [{hidden}], face: down}}]}}
commands: []
expect: {{winner: none}}
"""


def test_a_refused_command_does_not_tell_what_a_face_down_card_is() -> None:
    """A command naming the opponent's face-down character by the card it is, and the same
    command where that card is another, are refused alike: the rule is found in a game dealt
    from what the seat sees, not in the real one."""
    with running() as server:
        tokens = [server.new_game(scenario=_position(card))["p1"] for card in ("♠5", "♠6")]
        game = server.session(tokens[0]).game
        hidden = {c for u in game.state.players[1].field for c in u.cards}
        texts = [
            str(o)
            for o in game.legal_options()
            if getattr(o, "target", None) is not None and getattr(o.target, "card", None) in hidden
        ]
        assert texts, "no option of p1 targets the face-down character"
        for text in texts[:5]:
            answers = [server.post(f"/api/seat/{t}/command", {"decision": 0, "text": text}) for t in tokens]
            assert [a.status for a in answers] == [400, 400], [a.text for a in answers]
            assert answers[0].data == answers[1].data, (text, answers[0].text, answers[1].text)


def test_an_uploaded_position_deals_its_unknown_cards_by_the_servers_seed() -> None:
    """The uploader knows the file's unknown_seed: the server deals the unknown cards (and the
    game's later shuffles) by a seed of its own, anew for each game."""
    with running() as server:
        token = server.new_game(people=2)["p1"]
        exported = server.call("GET", f"/api/seat/{token}/scenario").text
        assert "unknown_seed" in exported and UNKNOWN in exported
        hands = []
        for _ in range(2):
            again = server.new_game(scenario=exported)["p1"]
            hands.append(server.session(again).game.state.players[1].hand)
        assert hands[0] != hands[1]
        title = server.call("GET", f"/api/seat/{token}").data["title"]
        assert "シード" not in title  # a seed the server drew is never shown


def _public_cards(path: Path) -> dict[tuple[str, str], list[str]]:
    """The cards a shipped scenario's set-up lays in the zones every player sees (the fog),
    by seat and zone."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if "rules" in data or data.get("edition") not in EDITIONS:
        return {}
    zones = environment().edition(data["edition"]).edition.core.zones
    public = {z.id for z in zones if z.visibility is Visibility.PUBLIC}
    laid = {who: data["setup"].get(who, {}).get("zones", {}) for who in SEATS}
    return {(who, z): laid[who][z] for who in SEATS for z in public if laid[who].get(z)}


def test_an_export_names_the_cards_every_player_sees() -> None:
    """A position with cards in a public zone (the fog), uploaded: each seat's export names
    every one of them where it lies, the opponent's too."""
    path = next(p for p in sorted(SCENARIOS.glob("*/*.yaml")) if _public_cards(p))
    with running() as server:
        for token in server.new_game(scenario=path.read_text(encoding="utf-8"), people=2).values():
            exported = yaml.safe_load(server.call("GET", f"/api/seat/{token}/scenario").text)
            for (who, zone), cards in _public_cards(path).items():
                assert sorted(exported["setup"][who]["zones"][zone]) == sorted(cards), (who, zone)


def test_an_opponents_face_down_trump_is_drawn_by_its_place_only(played: Played) -> None:
    """The board's trump zone (a zone whose cards have faces) gives each of the opponent's
    face-down cards as its place there (`p2:trump#1`) and nothing else: how many lie there and
    which lie face up, never what the others are."""
    hidden = 0
    for seen in played.kept["seat_state"] + played.kept["seat_choose"]:
        if seen.answer.status != 200 or seen.game.rules.format.id != EXTRA_FORMAT.id:
            continue
        other = seen.game.state.players[1 - seen.seat]
        for zone in seen.answer.data["board"]["players"][1 - seen.seat]["zones"]:
            if "places" not in zone:
                continue
            lying = other.zones[zone["id"]]
            assert len(zone["places"]) == len(lying)
            for place, cid in zip(zone["places"], lying, strict=True):
                if cid in other.face_up:
                    assert place["id"] == cid and place["face_up"]
                else:
                    assert set(place) == {"hidden"} and not CARD.search(place["hidden"]), place
                    hidden += 1
    assert hidden  # the check can fail: face-down trumps were drawn
