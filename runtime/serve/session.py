"""A game at the browser table: its seats (a person's, by a secret token) and an agent.

Each seat is answered from its player's view only (runtime/engine/view.py): the board, the
menu of the stepwise choice (runtime/play/choosing.py) and the events in words as that player
may read them. A request changes the game only when its whole path names a legal option of
the decision it was made at; anything else is a Refusal and leaves the game as it was.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option
from blackpoker.runtime.engine.refs import player_name
from blackpoker.runtime.engine.view import View, view
from blackpoker.runtime.play.agents import Agent, decide
from blackpoker.runtime.play.choosing import (
    Menu,
    advance,
    back,
    command_option,
    entry,
    explain_entry,
    parts,
    question,
)
from blackpoker.runtime.play.chronicle import Chronicle, glimpse
from blackpoker.runtime.play.labels import labels
from blackpoker.runtime.play.roster import PERSON
from blackpoker.runtime.play.source import RulesSource
from blackpoker.runtime.rules.enums import Answer
from blackpoker.runtime.serve.board import board_json, marks
from blackpoker.runtime.serve.cards import Json
from blackpoker.runtime.serve.ending import ending_json, log_refusal, seat_log
from blackpoker.runtime.serve.zones import ZoneNotes, noted

if TYPE_CHECKING:  # the static page's engine has no regulations: it ships no match
    from blackpoker.runtime.play.regulation import Dealt
    from blackpoker.runtime.serve.match import MatchTable

DONE = Answer.DONE.value  # the answer that ends a choice asked again and again, as menus print it
SEEDS = 2**63  # a game's seed is below this; the server and the static page draw theirs from all
MAX_FRAMES = 200  # boards kept for a playback: an agent's longest turns are far shorter
MAX_STEPS = 8  # a path is at most a request's four steps: longer is not a path


class Refusal(Exception):
    """A request the server does not carry out: its HTTP status and what is wrong."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True, slots=True)
class Steps:
    """The steps a person has taken in the current decision (`auto`: taken without asking)."""

    decision: int  # the decision it was chosen at: a path of an earlier one is stale
    chosen: tuple[str, ...] = ()
    auto: tuple[bool, ...] = ()

    @classmethod
    def read(cls, data: Any) -> Steps:
        """A path from a request's JSON, checked for shape (not yet for legality)."""
        if not isinstance(data, dict):
            raise Refusal(400, "expected a JSON object {decision, chosen, auto}")
        decision, chosen, auto = data.get("decision"), data.get("chosen", []), data.get("auto", [])
        if not isinstance(decision, int) or isinstance(decision, bool):
            raise Refusal(400, "decision: expected the decision number the path was chosen at")
        if not isinstance(chosen, list) or not all(isinstance(c, str) for c in chosen):
            raise Refusal(400, "chosen: expected a list of the values chosen")
        if (
            not isinstance(auto, list)
            or not all(isinstance(a, bool) for a in auto)
            or len(auto) != len(chosen)
        ):
            raise Refusal(400, "auto: expected a true/false for each value chosen")
        if len(chosen) > MAX_STEPS:
            raise Refusal(400, f"chosen: a path has at most {MAX_STEPS} steps")
        return cls(decision, tuple(chosen), tuple(auto))


def read_command(data: Any) -> tuple[int, str]:
    """A typed command's request {decision, text}, checked for shape: the decision number and
    the command's text."""
    decision, text = (data.get("decision"), data.get("text")) if isinstance(data, dict) else (None, None)
    if not isinstance(decision, int) or not isinstance(text, str) or not text.strip():
        raise Refusal(400, "expected a JSON object {decision, text}: the decision number and a command")
    return decision, text.strip()


class Session:
    """One game: `humans` are the seats people play (by token); an agent plays the others."""

    def __init__(
        self,
        game: Game,
        source: RulesSource,
        title: str,
        humans: Sequence[int],
        agent: Agent | None,
        form: Json | None = None,
        seed_known: bool = False,
        match: MatchTable | None = None,
    ) -> None:
        self.game = game
        self.source = source
        self.title = title
        self.agent = agent
        self.form = form or {}  # the lobby's form the game was made from: a rematch's
        self.seed_known = seed_known  # the seat gave the seed, so it knows every card already
        self.rematch: Session | None = None  # the next game, once a seat asked for it
        self.tokens = {secrets.token_urlsafe(18): seat for seat in humans}
        self.chronicles = {seat: Chronicle() for seat in humans}
        self.notes = {seat: ZoneNotes(seat) for seat in humans} if noted(game) else {}
        self.regulation: str | None = None  # the name of the regulation it is played under
        self.match = match  # the regulation's match this game is one of (runtime/serve/match.py)
        self.next_game: Session | None = None  # the match's next game, once a seat started it
        self.dealt: Dealt | None = None if match is None else match.dealt()  # its decks, for its log
        # for each seat, its board after each of the other player's decisions since its own
        # last one, so that its page can play them back one at a time
        self.frames: dict[int, list[Json]] = {seat: [] for seat in humans}
        self.lock = threading.Lock()
        for chronicle in self.chronicles.values():
            chronicle.follow(game)
        self._settle()

    @property
    def humans(self) -> set[int]:
        return set(self.chronicles)

    def token_of(self, seat: int) -> str:
        return next(t for t, s in self.tokens.items() if s == seat)

    # -- answers -----------------------------------------------------------------------------

    def state(self, seat: int, path: Steps | None = None) -> Json:
        """What the seat's page shows: its board, the log and, when it decides, the menu."""
        with self.lock:
            return self._state(seat, path)

    def choose(self, seat: int, path: Steps) -> Json:
        """Take a step (or settle on an option and play it, then let the agent move)."""
        with self.lock:
            menu = self._menu(seat, path)
            if not isinstance(menu, Menu):
                return self._play(seat, menu)
            return self._state(seat, path)

    def command(self, seat: int, decision: int, text: str) -> Json:
        """Play a command typed in the notation; one that is no legal option is refused with
        the rule it breaks."""
        with self.lock:
            self._menu(seat, Steps(decision))  # the decision's and the seat's checks
            found = command_option(self.game.rules, view(self.game, seat), text)
            if isinstance(found, str):
                raise Refusal(400, found)
            return self._play(seat, found)

    def back(self, seat: int, path: Steps) -> Json:
        with self.lock:
            menu = self._menu(seat, path)
            if not isinstance(menu, Menu):
                raise Refusal(400, "this path settles on an option: there is no step to go back from")
            previous = back(menu)
            if previous is None:
                raise Refusal(409, labels()["server"]["first step"])
            return self._state(seat, Steps(path.decision, tuple(previous[0]), tuple(previous[1])))

    def rematched(self, make: Callable[[Json], Session]) -> Session:
        """The next game of this finished one, made by `make` from the same form (the first
        seat to ask makes it; the other seat's page finds it in its state): a new deal, by a
        seed `make` draws, or the given seed plus one."""
        with self.lock:
            if not self.game.over:
                raise Refusal(409, "再戦はゲームが終わってから始められます")
            if self.rematch is None:
                form = dict(self.form)
                if "seed" in form:
                    form["seed"] = (form["seed"] + 1) % SEEDS
                self.rematch = make(form)
            return self.rematch

    def log(self, seat: int) -> str:
        """The game's command log, when the seat may have it (runtime/serve/ending.py)."""
        with self.lock:
            agents = [PERSON if s in self.humans else self._agent_name() for s in (0, 1)]
            text = seat_log(self.game, self.source, agents, self.seed_known, self.dealt)
            if text is None:
                raise Refusal(409, log_refusal(self.game, self.seed_known))
            return text

    def _agent_name(self) -> str:
        assert self.agent is not None
        return self.agent.name

    def scenario(self, seat: int) -> str:
        """The position as a scenario file, as the seat sees it: any card it does not see is
        written as unknown (runtime/serve/position.py)."""
        if self.regulation is not None:  # a written position names no regulation (its pack)
            raise Refusal(
                409,
                f"{self.regulation} の対戦の局面はシナリオに書けません"
                "（書いた局面はレギュレーションを持てません）",
            )
        # Its writer is imported here: it needs the YAML and scenario packages, which the
        # static page's engine does not ship.
        from blackpoker.runtime.serve.position import Unwritable, position_scenario, scenario_yaml

        with self.lock:
            game = self.game
            try:
                position = position_scenario(
                    game, self.source, f"{self.title}: {game.decisions}回目の決定のあと", seat
                )
            except Unwritable as error:
                raise Refusal(409, str(error)) from None
            return scenario_yaml(position)

    # -- the game ----------------------------------------------------------------------------

    def _menu(self, seat: int, path: Steps) -> Menu | Option:
        game = self.game
        if path.decision != game.decisions:
            said = labels().say("server", "moved on", decision=path.decision, now=game.decisions)
            raise Refusal(409, said)
        if game.to_move != seat:
            raise Refusal(409, labels()["server"]["not yours"])
        found = advance(view(game, seat).options, path.chosen, path.auto)
        if found is None:
            raise Refusal(400, labels().say("server", "not a choice", chosen=" › ".join(path.chosen)))
        return found

    def _play(self, seat: int, shown: Option) -> Json:
        """Play an option of the seat's view (the engine's at the same index), let the agent
        answer, and say what the seat sees then."""
        self._apply(self.game.legal_options()[view(self.game, seat).options.index(shown)])
        self._settle()
        return self._state(seat, None)

    def _apply(self, option: Option) -> None:
        seen = {seat: glimpse(self.game, option, seat) for seat in self.humans}
        for seat, notes in self.notes.items():
            notes.before(self.game, view(self.game, seat), option)
        self.game.play(option)
        for seat, notes in self.notes.items():
            notes.after(self.game, view(self.game, seat))
        for seat, chronicle in self.chronicles.items():
            chronicle.witnessed(self.game, seen[seat])
            frames = self.frames[seat]
            if option.player == seat:
                frames.clear()
            elif len(frames) < MAX_FRAMES:
                board = board_json(self.game, view(self.game, seat))
                frames.append({"decision": self.game.decisions, "said": len(chronicle.lines), "board": board})

    def _settle(self) -> None:
        """Play on until a person has a choice to make: the agent's decisions, and a person's
        decisions with one option only (taken without asking, as at the terminal)."""
        game = self.game
        while not game.over:
            mover = game.to_move
            assert mover is not None
            if mover in self.humans:
                seen = view(game, mover)
                only = advance(seen.options, (), ())
                if isinstance(only, Menu) or only is None:
                    return
                self._apply(game.legal_options()[seen.options.index(only)])
            else:
                assert self.agent is not None
                self._apply(decide(game, [self.agent, self.agent]))
        if self.match is not None and game.over:
            self.match.ended(game.result)

    def _state(self, seat: int, path: Steps | None) -> Json:
        game = self.game
        seen = view(game, seat)
        menu = None
        if game.to_move == seat:
            found = advance(seen.options, path.chosen if path else (), path.auto if path else ())
            menu = _menu_json(game, seen, found) if isinstance(found, Menu) else None
        return {
            "title": self.title,
            "seat": player_name(seat),
            "people": len(self.humans),
            "decision": game.decisions,
            "to_move": None if game.to_move is None else player_name(game.to_move),
            "board": board_json(game, seen, self.notes[seat].notes if self.notes else None),
            "menu": menu,
            "log": self.chronicles[seat].lines[-300:],
            "said": len(self.chronicles[seat].lines),
            "frames": self.frames[seat],
            "ending": ending_json(game),
            "can_save_log": game.over and self.seed_known,
            "rematch": None if self.rematch is None else f"/play/{self.rematch.token_of(seat)}",
            "match": None if self.match is None else self.match.json(seat),
            "next_game": None if self.next_game is None else f"/play/{self.next_game.token_of(seat)}",
        }


def _menu_json(game: Game, seen: View, menu: Menu) -> Json:
    return {
        "question": question(game.rules, seen, menu, keys=False),
        "effect": "\n".join(explain_entry(game.rules, seen, menu, None).splitlines()[1:]),
        "chosen": list(menu.chosen),
        "auto": list(menu.auto),
        "can_back": not all(menu.auto),
        "several": _several(menu),
        "entries": [
            {
                "value": value,
                "text": entry(game.rules, menu, value),
                "help": explain_entry(game.rules, seen, menu, value),
                "marks": _marks(menu, value),
            }
            for value in menu.values
        ],
    }


def _several(menu: Menu) -> Json | None:
    """A decision the engine asks again until `done` (attackers, cards picked one by one): the
    things it may pick now, each with its path and marks, so that the page can take several
    clicks before it sends them one decision after another."""
    if menu.step != 0 or DONE not in menu.values:
        return None
    items = []
    for option in menu.left:
        words = parts(option)
        if words[0] == DONE:
            continue
        items.append({"chosen": list(words), "marks": marks(option, 1)})
    if len(items) < 2 or any(not item["marks"] for item in items):  # one is a click as any other
        return None
    return {"done": DONE, "items": items}


def _marks(menu: Menu, value: str) -> list[str]:
    """What an entry uses on the board: at the first step, a whole option's all (a group of
    options by action marks nothing), later the things this step chooses."""
    matching = menu.matching(value)
    step = None if menu.step == 0 and len(matching) == 1 else menu.step
    return sorted({m for option in matching for m in marks(option, step)})
