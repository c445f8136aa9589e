"""An agent in any language: an outside program that reads one JSON line per decision (its
player's view and legal options, in the command notation) and answers with one line, the
command it plays (docs/agents.md).

The program is started without a shell when its player first decides, and gets its view
alone: the message is built from the `View` (engine/view.py), never from the game, so it
holds no card the player may not see. A program that does not answer in time, answers
something that is not one of its legal options, or exits, forfeits the game
(agents.Forfeit; docs/decisions.md); it never stops the run. When the game ends its input is
closed, and a program still running a moment later is killed.
"""

from __future__ import annotations

import json
import os
import select
import shlex
import subprocess
import time
from collections.abc import Sequence
from dataclasses import asdict
from types import TracebackType
from typing import Any

from blackpoker.runtime.engine.options import Option, target_text
from blackpoker.runtime.engine.refs import player_name, result_name
from blackpoker.runtime.engine.view import CharacterView, PlayerView, RequestView, View, reference_text
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.agents import Forfeit
from blackpoker.runtime.rules.diagnostics import clipped

DEFAULT_TIMEOUT = 10.0  # seconds a program may take over one decision (simulate --agent-timeout)
MAX_ANSWER = 64 * 1024  # bytes of an answer line: a longer one is refused, not read on
GRACE = 1.0  # seconds a program has to exit once its input is closed, before it is killed
PROTOCOL = 1  # the message's version, in every line (`protocol`)


def program_words(text: str) -> tuple[str, ...]:
    """The program's words, split as a POSIX shell would but run without one; ValueError says
    what is wrong."""
    try:
        words = tuple(shlex.split(text))
    except ValueError as error:
        raise ValueError(f"cannot read the program '{text}': {error}") from None
    if not words:
        raise ValueError("cmd: names no program (cmd:PROGRAM [ARGUMENTS])")
    return words


def message(view: View) -> dict[str, Any]:
    """What the program gets at a decision: the view, cards by their labels (♠4, Joker), and the
    legal options as the commands that play them."""
    return {
        "protocol": PROTOCOL,
        "me": player_name(view.me),
        "turn": view.turn,
        "turn_player": player_name(view.turn_player),
        "chance": None if view.chance is None else player_name(view.chance),
        "players": [_player(p) for p in view.players],
        "stage": [_request(r) for r in view.stage],
        "resolving": [_request(r) for r in view.resolving],
        "result": None if view.result is None else result_name(view.result),
        "options": [str(o) for o in view.options],
    }


def _cards(cards: Sequence[int] | None) -> list[str] | None:
    return None if cards is None else [label(c) for c in cards]


def _player(p: PlayerView) -> dict[str, Any]:
    return {
        "name": player_name(p.seat),
        "life": p.life if isinstance(p.life, int) else str(p.life),  # the opponent's 10 or more: "10+"
        "hand": _cards(p.hand),
        "hand_count": p.hand_count,
        "graveyard": _cards(p.graveyard),
        "top": None if p.top is None else label(p.top),
        "field": [_character(u) for u in p.field],
        "zones": [
            {
                "id": z.id,
                "name": z.name,
                "cards": _cards(z.cards),
                "count": z.count,
                "face_up": _cards(z.face_up),
            }
            for z in p.zones
        ],
    }


def _character(u: CharacterView) -> dict[str, Any]:
    # references as the options write them: p2:♣9, or face-down#3 for a hidden character
    refs = {"ref": target_text(u.ref), "blocking": None if u.blocking is None else target_text(u.blocking)}
    return {**asdict(u), "cards": _cards(u.cards), **refs}


def _request(r: RequestView) -> dict[str, Any]:
    target = None if r.target is None else reference_text(r.target)
    return {**asdict(r), "player": player_name(r.player), "key_cards": _cards(r.key_cards), "target": target}


class CommandAgent:
    """The agent that asks an outside program; a context manager, so that the game that seats
    it ends the program (selfplay.play_game)."""

    reads_view = True
    name = "cmd"  # as a command log records it: the program may differ on the machine replaying

    def __init__(self, words: Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> None:
        self.words = tuple(words)
        self.timeout = timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.pending = b""  # read past the last answer's line

    def __enter__(self) -> CommandAgent:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def choose(self, view: View | None, options: Sequence[Option]) -> Option:
        assert view is not None
        line = json.dumps(message(view), ensure_ascii=False) + "\n"
        process = self._started()
        deadline = time.monotonic() + self.timeout
        self._send(process, line.encode(), deadline)
        answer = self._answer(process, deadline)
        # the notation's parser, loaded once a program answers: a run of the built-in agents
        # (which imports this module through the roster) loads no parser (docs/benchmarks.md)
        from blackpoker.runtime.play.notation import CommandError
        from blackpoker.runtime.play.resolve import resolve_seen

        try:
            return resolve_seen(view, answer)
        except CommandError as error:
            why = "; ".join(d.message for d in error.diagnostics)
            raise Forfeit(f"answered {clipped(answer)}, which plays no legal option: {why}") from None

    def _started(self) -> subprocess.Popen[bytes]:
        if self.process is None:
            try:  # a list of words and no shell: nothing in the name is interpreted
                self.process = subprocess.Popen(self.words, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            except OSError as error:
                raise Forfeit(f"cannot start {self.words[0]}: {error.strerror}") from None
        return self.process

    def _send(self, process: subprocess.Popen[bytes], data: bytes, deadline: float) -> None:
        """The decision written against its deadline: a program that stops reading while its
        input's pipe is full (it answers without reading) must not hang the game."""
        assert process.stdin is not None
        stream = process.stdin.fileno()
        os.set_blocking(stream, False)
        while data:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [stream], [], left)[1]:
                raise Forfeit(f"did not read its decision within {self.timeout:g} s")
            try:
                data = data[os.write(stream, data) :]
            except BlockingIOError:  # another writer's bytes filled the pipe since select
                continue
            except OSError:
                raise Forfeit(f"the program {self._ended(process)} before the decision was sent") from None

    def _answer(self, process: subprocess.Popen[bytes], deadline: float) -> str:
        """The program's next line, read against the decision's deadline."""
        assert process.stdout is not None
        stream = process.stdout.fileno()
        while b"\n" not in self.pending:
            if len(self.pending) > MAX_ANSWER:
                raise Forfeit(f"answered more than {MAX_ANSWER} bytes without ending the line")
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([stream], [], [], left)[0]:
                raise Forfeit(f"gave no answer within {self.timeout:g} s")
            chunk = os.read(stream, 4096)
            if not chunk:
                raise Forfeit(f"the program {self._ended(process)} without answering")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        try:
            return line.decode().strip()
        except UnicodeDecodeError:
            raise Forfeit("answered a line that is not UTF-8") from None

    def _ended(self, process: subprocess.Popen[bytes]) -> str:
        try:
            status = process.wait(GRACE)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exited with status {status}"

    def close(self) -> None:
        """End of the game: the program's input closed, and the program killed if it has not
        exited a moment later."""
        process, self.process = self.process, None
        if process is None:
            return
        for pipe in (process.stdin, process.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:  # the program has already gone: its input's last bytes were not taken
                pass
        try:
            process.wait(GRACE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
