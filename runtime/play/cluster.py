"""`blackpoker simulate --cluster`: a run's games on a Dask distributed cluster.

The same chunks of games as with `--jobs`, played by `simulation.play_games` on the cluster's
workers (which have this package installed). The rule set is compiled here and its rules context is
sent to every worker once; each chunk's task refers to that copy, so its caches stay
warm. Dask is the optional `cluster` extra.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from blackpoker.runtime.engine.rules import rules_of
from blackpoker.runtime.play.selfplay import GameRecord
from blackpoker.runtime.play.simulation import Plan, chunks, play_games
from blackpoker.runtime.rules.diagnostics import BlackPokerError, Diagnostic, Location
from blackpoker.runtime.rules.model import RuleSet

if TYPE_CHECKING:
    from distributed import Client

CONNECT_SECONDS = 3  # how long an unreachable scheduler is tried before giving up
EXTRA = "pip install 'blackpoker[cluster]'"


class ClusterError(BlackPokerError):
    """Why the cluster cannot be used, in one line, located at the option."""

    def __init__(self, message: str) -> None:
        super().__init__([Diagnostic(Location("--cluster", 0, 0), message)])
        self.message = message


def connect(address: str, timeout: float = CONNECT_SECONDS) -> Client:
    """A client of the scheduler at `address` (tcp://host:port) with at least one worker;
    close it (`with client:`) when the run ends."""
    try:
        from distributed import Client  # optional: only --cluster needs it
        from distributed.comm import get_address_host_port
    except ImportError:
        raise ClusterError(f"needs the Dask distributed engine: {EXTRA}") from None
    try:  # first, as a client given a bad address lingers and fails again when collected
        get_address_host_port(address)
    except ValueError as error:
        raise ClusterError(f"'{address}' is not a scheduler address (tcp://host:port): {error}") from None
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except OSError:  # refused or timed out: Dask tries until the timeout either way
        raise ClusterError(f"cannot reach the scheduler at {address} within {timeout:g} s") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        client.close()
        raise ClusterError(f"the scheduler at {address} has no workers") from None
    return client


def run(client: Client, plan: Plan, rules: RuleSet | None = None) -> Iterator[list[GameRecord]]:
    """The run's records in chunks, as they finish (sort by `index` for game order)."""
    from distributed import as_completed

    # One context per worker, sent once: its caches stay warm across the worker's chunks.
    context = rules_of(plan.source.compile() if rules is None else rules)
    plan = plan.looked_up()
    (shared,) = client.scatter([context], broadcast=True)
    parts = chunks(plan.games, sum(client.nthreads().values()))
    futures = [client.submit(play_games, shared, plan, start, stop, pure=False) for start, stop in parts]
    try:
        for future in as_completed(futures, loop=client.loop):
            yield future.result()
    finally:  # an interrupted run leaves no games queued on the cluster
        client.cancel(futures)
