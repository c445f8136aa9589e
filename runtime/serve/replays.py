"""A command log opened in the browser: replayed and checked (runtime/play/log.py), every
position kept, so the page steps forward and back with either player's view or the full state.

A log holds every decision in full, so whoever has it sees everything: a player's view here
shows the board and the log as that player saw them (an opponent's decision naming a card the
player did not see is said by its word), the full state shows all."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from blackpoker.compiler.environment import Environment
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.engine.zones import owner
from blackpoker.runtime.play.chronicle import Chronicle, glimpse
from blackpoker.runtime.play.log import replay
from blackpoker.runtime.play.source import ServedFiles
from blackpoker.runtime.serve.board import board_json
from blackpoker.runtime.serve.cards import Json, cards_json
from blackpoker.runtime.serve.ending import ending_json
from blackpoker.runtime.serve.zones import ZoneNotes, noted

UPLOAD_NAME = "upload.jsonl"  # how an uploaded log is named in its errors
ALL = "all"
WHO = ("p1", "p2", ALL)  # the players' views, by seat, then the full state


KEYFRAME = 16  # a replay keeps every 16th position and plays the decisions between again


@dataclass
class Replay:
    """A replayed log: its positions as keyframes and the decisions between them (a position
    kept whole is some 10 KB, so a long log kept whole would cost the server its memory)."""

    title: str
    keyframes: list[Game] = field(default_factory=list)  # after set-up and every KEYFRAME-th decision
    decisions: list[Option] = field(default_factory=list)
    # the log as each of WHO follows it, and how many of its lines each position has said
    chronicles: dict[str, Chronicle] = field(default_factory=lambda: {who: Chronicle() for who in WHO})
    told: dict[str, list[int]] = field(default_factory=lambda: {who: [] for who in WHO})
    before: Game | None = None  # while the log is replayed: the position before the next decision
    # what the fog's cards do after each step, as each player's view named it (zones.py)
    notes: list[tuple[Mapping[int, str], Mapping[int, str]]] = field(default_factory=list)
    watching: tuple[ZoneNotes, ZoneNotes] | None = None
    ending: Json | None = None  # why the game ended, shown at its last step only

    @classmethod
    def of_upload(cls, data: bytes, env: Environment, served: ServedFiles) -> Replay:
        """A log's bytes replayed with the server's own files only; a ReplayError (a tampered
        or broken log, a file the server does not serve) is the caller's."""
        book = cls("")
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / UPLOAD_NAME
            path.write_bytes(data)
            done = replay(path, UPLOAD_NAME, env=env, watch=book._watch, served=served)
        book.before = None
        game = book.keyframes[0]
        # no result in the title: the viewer tells it at the end, not before
        book.title = (
            f"{game.rules.edition.id} {game.rules.format.name} · シード{game.seed} · {done.decisions}回の決定"
        )
        return book

    @property
    def steps(self) -> int:
        return len(self.decisions)

    def position(self, step: int) -> Game:
        """The game after `step` decisions: its keyframe, played on."""
        game = self.keyframes[step // KEYFRAME].copy()
        for option in self.decisions[step - step % KEYFRAME : step]:
            game.apply(option)
        return game

    def _watch(self, game: Game, option: Option | None) -> None:
        if option is None or self.notes:  # the set-up, or rules with a public zone
            self._note(game, option)
        for seat, who in enumerate(WHO):
            chronicle = self.chronicles[who]
            if option is None:
                chronicle.follow(game)
            elif who == ALL:
                chronicle.decided(game, option.player, option)
            else:
                assert self.before is not None
                chronicle.witnessed(game, glimpse(self.before, option, seat))
            self.told[who].append(len(chronicle.lines))
        if option is not None:
            self.decisions.append(option)
        self.ending = ending_json(game)  # said from the replayed game, which keeps its events
        if self.steps % KEYFRAME == 0:
            self.keyframes.append(game.copy())
        self.before = game.copy()

    def _note(self, game: Game, option: Option | None) -> None:
        if option is None:
            if noted(game):
                self.watching = (ZoneNotes(0), ZoneNotes(1))
                self.notes.append(({}, {}))
            return
        assert self.before is not None and self.watching is not None
        for seat, notes in enumerate(self.watching):
            notes.before(self.before, view(self.before, seat), option)
            notes.after(game, view(game, seat))
        self.notes.append((self.watching[0].notes, self.watching[1].notes))

    def frame(self, step: int, who: str) -> Json:
        """The position after `step` decisions, as `who` (p1, p2) saw it or in full (all)."""
        game = self.position(step)
        if who == ALL:
            mine = (view(game, 0), view(game, 1))  # each player as its owner sees them
            seen = replace(mine[0], players=(mine[0].players[0], mine[1].players[1]), options=())
            both = self.notes[step] if self.notes else ({}, {})  # each card as its owner named it
            board = board_json(
                game, seen, {c: n for seat in (0, 1) for c, n in both[seat].items() if owner(c) == seat}
            )
            for index, player in enumerate(board["players"]):
                player["life_cards"] = cards_json(game.state.players[index].life)
        else:
            seat = WHO.index(who)
            board = board_json(game, view(game, seat), self.notes[step][seat] if self.notes else None)
        return {
            "title": self.title,
            "step": step,
            "steps": self.steps,
            "who": who,
            "board": board,
            "log": self.chronicles[who].lines[: self.told[who][step]][-300:],
            "ending": self.ending if step == self.steps else None,
        }
