"""A bounded load test of `blackpoker serve`, on loopback addresses only: a server in its own
process (so that its memory is its own) is played by many games at once against agents
(random, greedy, search at a budget), while slow clients hold bodies shorter than their
Content-Length and malformed clients send broken requests. Every game's request and a probe
of the lobby are answered within ANSWER seconds, each slow connection is closed at its
deadline, and the server's peak memory stays under MEMORY_MB (docs/play.md#limits).

Each kind of client comes from a loopback address of its own (127.0.0.N), as the server
bounds connections per address."""

from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from serve_support import EDITION, SMALLEST, Answer, random_step

SECONDS = 20.0  # how long the load lasts
GAMES = 10  # games played at once, each by its own client
IDLE_GAMES = 40  # games started and left waiting, as closed browser tabs leave them
SLOW = 30  # slow connections kept open at once, from one address (half of them turned away)
REQUEST = 2.0  # the server's deadline for a request to arrive (Limits.request)
ANSWER = 3.0  # the most a game's request or the probe may wait for its answer, in seconds
MEMORY_MB = 150  # the most the server's resident memory may reach (measured: 55 MB)
AGENTS = ("random", "greedy", "search:100")
LAUNCH = """
import sys
from blackpoker.runtime.serve.limits import Limits
from blackpoker.runtime.serve.server import App, Defaults, Server
app = App(Defaults(sys.argv[1], sys.argv[2]), limits=Limits(idle=5.0, request=float(sys.argv[3])))
server = Server(("127.0.0.1", 0), app)
print(server.server_address[1], flush=True)
server.serve_forever()
"""


@dataclass
class Load:
    port: int
    until: float
    waits: list[float] = field(default_factory=list)  # each game request's and probe's wait
    failures: list[str] = field(default_factory=list)
    slow_closed: list[float] = field(default_factory=list)  # seconds from a slow body to its close
    turned_away: int = 0
    malformed: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def call(self, method: str, path: str, body: object = None, source: str = "127.0.0.1") -> Answer:
        """A request on a connection of its own from `source`, timed."""
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        head += "" if data is None else f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        start = time.monotonic()
        reply = _exchange(self.port, (head + "\r\n").encode() + (data or b""), source)
        waited = time.monotonic() - start
        status, kind, text = _parse(reply)
        with self.lock:
            self.waits.append(waited)
            if not 200 <= status < 300:
                self.failures.append(f"{method} {path}: {status} {text[:200]}")
        return Answer(status, kind, text)


def _exchange(port: int, request: bytes, source: str) -> bytes:
    with socket.socket() as connection:
        connection.settimeout(60)
        connection.bind((source, 0))
        connection.connect(("127.0.0.1", port))
        connection.sendall(request)
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
        return reply


def _parse(reply: bytes) -> tuple[int, str, str]:
    head, _, body = reply.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines[0].startswith("HTTP/") else 0
    kind = next(
        (line.split(":", 1)[1].strip() for line in lines if line.lower().startswith("content-type:")), ""
    )
    return status, kind, body.decode("utf-8", "replace")


def _game(load: Load, number: int) -> None:
    """Start a game against an agent and play random entries until it ends or the load does."""
    rng = random.Random(number)
    made = load.call("POST", "/api/games", {"opponent": AGENTS[number % len(AGENTS)], "seed": number})
    if made.status != 201:
        return
    token = made.data["seats"]["p1"].rsplit("/", 1)[1]
    state = load.call("GET", f"/api/seat/{token}").data
    while time.monotonic() < load.until and state["menu"]:
        answer = load.call("POST", f"/api/seat/{token}/choose", random_step(state, rng))
        if answer.status != 200:
            return
        state = answer.data


def _slow(load: Load) -> None:
    """Keep SLOW connections each holding a body shorter than its Content-Length."""
    head = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{"
    held: dict[socket.socket, float] = {}
    while time.monotonic() < load.until:
        while len(held) < SLOW:
            connection = socket.socket()
            connection.bind(("127.0.0.2", 0))
            connection.connect(("127.0.0.1", load.port))
            connection.sendall(head)
            connection.setblocking(False)
            held[connection] = time.monotonic()
        time.sleep(0.05)
        for connection, since in list(held.items()):
            try:
                reply = connection.recv(65536)
            except BlockingIOError:
                continue
            except ConnectionResetError:
                reply = b""
            if not reply or reply.startswith(b"HTTP/1.1 429 ") or reply.startswith(b"HTTP/1.1 408 "):
                with load.lock:
                    if reply.startswith(b"HTTP/1.1 429 "):
                        load.turned_away += 1
                    else:
                        load.slow_closed.append(time.monotonic() - since)
                connection.close()
                del held[connection]
    for connection in held:
        connection.close()


CLOSE = b"Connection: close\r\n"  # else a well-formed one keeps its connection for the next
MALFORMED = (
    b"GARBAGE\r\n\r\n",
    b"GET / HTTP/9.9\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\n" + CLOSE + b"Content-Length: 5\r\n\r\n{{{{{",
    b"POST /api/games HTTP/1.1\r\n" + CLOSE + b"Content-Length: 2\r\n\r\n[]",
    b"POST /api/seat/nobody/choose HTTP/1.1\r\n" + CLOSE + b"Content-Length: 2\r\n\r\n{}",
    b"POST /api/replays HTTP/1.1\r\n" + CLOSE + b"Content-Length: 7\r\n\r\ngarbage",
    b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n",
    b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 200 + b"\r\n",
    b"BREW / HTTP/1.1\r\n" + CLOSE + b"\r\n",
)


def _malformed(load: Load) -> None:
    rng = random.Random(3)
    while time.monotonic() < load.until:
        try:
            reply = _exchange(load.port, rng.choice(MALFORMED), "127.0.0.3")
        except OSError as error:
            with load.lock:
                load.failures.append(f"a malformed request broke its connection: {error}")
            continue
        with load.lock:
            load.malformed += 1
            if not reply.startswith(b"HTTP/1.1 4"):
                load.failures.append(f"a malformed request got {reply[:80]!r}")
        time.sleep(0.01)


def _probe(load: Load) -> None:
    while time.monotonic() < load.until:
        load.call("GET", "/api/lobby", source="127.0.0.4")
        time.sleep(0.2)


@pytest.fixture
def server() -> Iterator[tuple[subprocess.Popen[str], int]]:
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, EDITION, SMALLEST, str(REQUEST)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        yield process, int(process.stdout.readline())
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def _peak_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def test_the_server_answers_everyone_under_load(server: tuple[subprocess.Popen[str], int]) -> None:
    process, port = server
    load = Load(port, time.monotonic() + SECONDS)
    for number in range(IDLE_GAMES):
        load.call("POST", "/api/games", {"seed": number})
    workers: list[Callable[..., None]] = [_slow, _malformed, _probe]
    threads = [threading.Thread(target=w, args=(load,)) for w in workers]
    threads += [threading.Thread(target=_game, args=(load, n)) for n in range(GAMES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=SECONDS + 60)
    assert process.poll() is None, "the server died"
    waits = sorted(load.waits)
    report = f"{len(waits)} answers: median {waits[len(waits) // 2]:.3f} s, max {waits[-1]:.3f} s"
    assert not load.failures, load.failures[:5]
    assert waits[-1] <= ANSWER, report
    assert load.turned_away > 0 and load.malformed > 20, (load.turned_away, load.malformed)
    assert load.slow_closed and max(load.slow_closed) <= REQUEST + 2.0, max(load.slow_closed)
    peak = _peak_mb(process.pid)
    assert peak <= MEMORY_MB, f"peak memory {peak:.0f} MB"
    print(
        f"\n{report}; {load.turned_away} slow connections turned away, {load.malformed} malformed "
        f"requests; slow bodies closed after at most {max(load.slow_closed):.2f} s; peak {peak:.0f} MB"
    )
