"""`blackpoker serve` cannot be stalled by one client: a request must arrive whole within its
deadline however slowly its bytes come, an address holds a bounded number of connections, and
an agent's budget and thinking time per decision are capped, with a refusal above the cap.
The server here runs with short limits (Limits), so that each case takes a second or two."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import pytest
from blackpoker.cli.main import main
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.play.agents import decide
from blackpoker.runtime.play.roster import make_agent
from blackpoker.runtime.serve.limits import Limits
from click.testing import CliRunner
from editions_support import compiled
from serve_support import EDITION, SMALLEST, Running, running

LIMITS = Limits(idle=2.0, request=1.0, per_client=4, connections=32, budget=50, think=0.2)
SLACK = 1.5  # seconds a deadline may be overrun by on a loaded machine


@pytest.fixture(scope="module")
def server() -> Iterator[Running]:
    with running(limits=LIMITS) as found:
        yield found


def _connect(server: Running, source: str = "127.0.0.1") -> socket.socket:
    """A connection from a loopback address of its own (the server counts connections by it)."""
    connection = socket.socket()
    connection.settimeout(10)
    connection.bind((source, 0))
    connection.connect(("127.0.0.1", server.port))
    return connection


def _reply(connection: socket.socket) -> bytes:
    """All the server sends until it closes the connection."""
    reply = b""
    try:
        while chunk := connection.recv(65536):
            reply += chunk
    except ConnectionResetError:
        pass
    return reply


def _held(server: Running, sent: bytes, source: str) -> tuple[float, bytes]:
    """Send `sent`, then nothing more: how long until the server answers and closes."""
    with _connect(server, source) as connection:
        start = time.monotonic()
        connection.sendall(sent)
        reply = _reply(connection)
        return time.monotonic() - start, reply


def test_a_body_shorter_than_its_length_is_refused_at_the_deadline(server: Running) -> None:
    head = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"
    took, reply = _held(server, head + b'{"people"', "127.0.0.2")
    assert LIMITS.request - 0.2 <= took <= LIMITS.request + SLACK, took
    assert reply.startswith(b"HTTP/1.1 408 ") and "秒以内に届きませんでした" in reply.decode(), reply


def test_a_request_dripping_in_byte_by_byte_runs_out_of_time(server: Running) -> None:
    """One byte every 0.3 s never trips a timeout per read; the deadline closes it all the same."""
    with _connect(server, "127.0.0.3") as connection:
        start = time.monotonic()
        closed = None
        for byte in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:
            try:
                connection.sendall(bytes([byte]))
            except OSError:
                closed = time.monotonic() - start
                break
            time.sleep(0.3)
            if time.monotonic() - start > LIMITS.request + SLACK + 1:
                connection.settimeout(0.1)
                try:
                    if connection.recv(1) == b"":
                        closed = time.monotonic() - start
                        break
                except (TimeoutError, OSError):
                    continue
        assert closed is not None and closed <= LIMITS.request + SLACK + 1.5, closed


def test_a_kept_alive_connection_is_closed_when_idle(server: Running) -> None:
    with _connect(server, "127.0.0.4") as connection:
        connection.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n\r\n")
        first = connection.recv(65536)
        assert first.startswith(b"HTTP/1.1 200 "), first
        start = time.monotonic()
        while connection.recv(65536):
            pass
        assert LIMITS.idle - 0.2 <= time.monotonic() - start <= LIMITS.idle + SLACK


def test_a_body_cut_short_is_refused(server: Running) -> None:
    head = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{}"
    with _connect(server, "127.0.0.5") as connection:
        connection.sendall(head)
        connection.shutdown(socket.SHUT_WR)
        reply = _reply(connection)
    assert reply.startswith(b"HTTP/1.1 400 ") and "Content-Length" in reply.decode(), reply


def test_an_address_holds_a_bounded_number_of_connections(server: Running) -> None:
    """Past `per_client` connections an address is turned away at once (429), while another
    address is answered; once its connections end, the address is served again."""
    held = [_connect(server, "127.0.0.6") for _ in range(LIMITS.per_client)]
    try:
        for connection in held:  # each holds a request that never ends
            connection.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n")
        time.sleep(0.2)
        start = time.monotonic()
        with _connect(server, "127.0.0.6") as extra:
            reply = _reply(extra)
        assert time.monotonic() - start < 1.0 and reply.startswith(b"HTTP/1.1 429 "), reply
        assert "同時接続が多すぎます" in json.loads(reply.split(b"\r\n\r\n", 1)[1])["error"]
        assert server.call("GET", "/api/lobby").status == 200  # another address
    finally:
        for connection in held:
            connection.close()
    time.sleep(0.3)
    with _connect(server, "127.0.0.6") as again:
        again.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert _reply(again).startswith(b"HTTP/1.1 200 ")


def test_an_agent_over_the_budget_is_refused(server: Running) -> None:
    answer = server.post("/api/games", {"opponent": "search:1000000000"})
    assert answer.status == 400 and f"{LIMITS.budget} 回まで" in answer.data["error"], answer.text
    assert server.post("/api/games", {"opponent": f"search:{LIMITS.budget}"}).status == 201
    result = CliRunner().invoke(main, ["serve", "--opponent", "search:1000000000"])
    assert result.exit_code == 1 and "--opponent: search:1000000000: " in result.output, result.output


def test_an_agents_decision_is_cut_at_its_time() -> None:
    """A search of any budget gives its choice when its time is up (each option tried once)."""
    rules = compiled(EDITION)[SMALLEST]
    game = Game.new(rules, 3)
    while len(game.legal_options()) < 3:
        game.apply(game.legal_options()[0])
    agent = make_agent("search:1000000000", rules, 1, seconds=0.2)
    start = time.monotonic()
    option = decide(game, [agent, agent])
    assert time.monotonic() - start < 0.2 + SLACK and option in game.legal_options()
