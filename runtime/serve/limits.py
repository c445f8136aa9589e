"""What one client may cost `blackpoker serve`, so that no client stalls the others: how long
a request may take to arrive, how many connections an address may hold, and how much an
agent may think (docs/play.md#limits).

A request is read against a deadline, not only a timeout per read: a client that sends one
byte a second never trips a timeout, but runs out of time all the same.
"""

from __future__ import annotations

import io
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass

from blackpoker.runtime.play.roster import BUDGETED, agent_name


@dataclass(frozen=True, slots=True)
class Limits:
    idle: float = 30.0  # seconds a kept-alive connection waits for its next request
    request: float = 15.0  # seconds a request has to arrive whole (its line, head and body)
    per_client: int = 16  # connections open at once from one address (a browser opens 6)
    connections: int = 128  # connections open at once in all
    budget: int = 1000  # the most iterations a search agent may take per decision (search:N)
    think: float = 2.0  # seconds an agent may think over one decision


def served_agent(name: str, limits: Limits) -> str:
    """The agent's name as `agent_name` reports it, within the server's budget; ValueError
    says what is wrong, in the app's words."""
    name = agent_name(name)
    kind, _, budget = name.partition(":")
    if kind == BUDGETED and int(budget) > limits.budget:
        most = f"このサーバーでは search の予算は1回の決定につき {limits.budget} 回まで"
        raise ValueError(f"{name}: {most}です")
    return name


class Deadline(io.RawIOBase):
    """A connection's reading side: each read waits at most until `deadline` (a time of
    time.monotonic(); None: as long as the socket's own timeout says)."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection
        self.deadline: float | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request did not arrive in time")
            self.connection.settimeout(left)
        return self.connection.recv_into(buffer)


class Connections:
    """The connections open now, by the address they come from."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: Counter[str] = Counter()
        self.lock = threading.Lock()

    def admit(self, address: str) -> bool:
        """Count a new connection in, unless its address or the server has too many."""
        with self.lock:
            if self.open[address] >= self.limits.per_client or self.open.total() >= self.limits.connections:
                return False
            self.open[address] += 1
            return True

    def release(self, address: str) -> None:
        with self.lock:
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]
