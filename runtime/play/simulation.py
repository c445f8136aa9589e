"""Many games at once: `blackpoker simulate` spreads them over worker processes.

Every game has its own seed (`selfplay.game_seed(seed, index)`) and its agents derive from
it, so a game's record does not depend on which process plays it or when: any number of
jobs gives the same records, which are returned in game order.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from blackpoker.runtime.engine.rules import Rules, rules_of
from blackpoker.runtime.play.loop import DECISION_CAP
from blackpoker.runtime.play.roster import Seat
from blackpoker.runtime.play.selfplay import (
    Checks,
    GameRecord,
    frozen_between,
    log_width,
    play_game,
    play_match,
)
from blackpoker.runtime.play.source import Named, RulesSource
from blackpoker.runtime.rules.model import RuleSet

if TYPE_CHECKING:
    from blackpoker.compiler.environment import Environment
    from blackpoker.runtime.play.regulation import Setup

# RulesSource is part of this module's interface: a Plan is made from one.
__all__ = ["CHUNKS_PER_JOB", "Plan", "RulesSource", "chunks", "play_games", "run", "run_all"]

CHUNKS_PER_JOB = 16  # small enough chunks to balance the processes and move the progress bar


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything a worker needs to play its share of a run, besides the rule set."""

    source: RulesSource
    agents: tuple[str, str]  # p1's and p2's agent names (runtime.play.agents.AGENTS)
    seed: int
    games: int
    check: Checks = Checks.END  # when the invariants are checked
    cap: int = DECISION_CAP
    logs: Path | None = None
    setup: Setup | None = None  # a regulation's decks and start (runtime/play/regulation.py)
    match: bool = False  # with a setup: each of the `games` is a whole match
    seats: tuple[Seat, Seat] | None = None  # what the agents' names do not carry (fitted weights)
    named: Named | None = None  # what the logs' headers name of `source`: looked up once per run

    def looked_up(self, env: Environment | None = None) -> Plan:
        """The plan with what its logs name looked up (in `env`, or in a new environment):
        once per run, not in every game, and its workers get it pickled with the plan."""
        return (
            self
            if self.logs is None or self.named is not None
            else replace(self, named=self.source.named(env))
        )


def play_games(rules: RuleSet | Rules, plan: Plan, start: int, stop: int) -> list[GameRecord]:
    """Games start … stop-1 of the run, played with `rules` (in a worker, or in this process);
    the games share one rules context, and so its caches."""
    width = log_width(plan.games)
    context = rules_of(rules)
    if plan.setup is not None:
        games = None if plan.match else 1
        return [
            record
            for i in frozen_between(range(start, stop))
            for record in play_match(
                context,
                plan.setup,
                plan.agents,
                plan.seed,
                i,
                games=games,
                check=plan.check,
                cap=plan.cap,
                logs=plan.logs,
                width=width,
                named=plan.named,
                seats=plan.seats,
            )
        ]
    return [
        play_game(
            context,
            plan.agents,
            plan.seed,
            i,
            check=plan.check,
            cap=plan.cap,
            log=None if plan.logs is None else plan.logs / f"game-{i:0{width}d}.jsonl",
            named=plan.named,
            seats=plan.seats,
        )
        for i in frozen_between(range(start, stop))
    ]


def chunks(games: int, jobs: int) -> list[tuple[int, int]]:
    size = max(1, min(100, games // (jobs * CHUNKS_PER_JOB)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def run(plan: Plan, jobs: int = 1, rules: RuleSet | None = None) -> Iterator[list[GameRecord]]:
    """The run's records in chunks, as they finish (sort by `index` for game order).

    The rule set is compiled here once, unless the caller already has it, and so are the files
    the logs name looked up (`plan.named`). With several jobs,
    `spawn`ed worker processes get it pickled once, when they start, and keep it for every
    chunk they play; nothing of the parent (a progress bar's thread) is forked. Leaving the
    iteration early (Ctrl-C) ends them at once.
    """
    rules = plan.source.compile() if rules is None else rules
    plan = plan.looked_up()
    parts = chunks(plan.games, jobs)
    if jobs <= 1:
        shared = Rules(rules)
        for start, stop in parts:
            yield play_games(shared, plan, start, stop)
        return
    import multiprocessing  # several jobs only: one game in one process does without it

    context = multiprocessing.get_context("spawn")
    with ExitStack() as stack:  # leaving it terminates the workers, finished or not
        with _interrupts_held():
            pool = stack.enter_context(context.Pool(jobs, _start_worker, (rules,)))
        yield from pool.imap_unordered(_play_chunk, [(plan, start, stop) for start, stop in parts])


def run_all(plan: Plan, jobs: int = 1, rules: RuleSet | None = None) -> list[GameRecord]:
    """Every record of the run, in game order."""
    return sorted((r for part in run(plan, jobs, rules) for r in part), key=order)


def order(record: GameRecord) -> tuple[int, int]:
    """Game order: by match, then by game (a record of no match is its own)."""
    return (record.index, 0) if record.match is None else (record.match, record.index)


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl-C waits while the workers start: they are born ignoring it (an ignored signal stays
    ignored through exec, and Python then leaves it so), and the parent gets it right after and
    stops the run; no worker prints a traceback, even halfway through its imports."""
    from multiprocessing import resource_tracker

    # Started first: starting it unblocks Ctrl-C, which the ignoring below would then lose.
    resource_tracker.ensure_running()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # pending, not lost (Linux)
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


# A worker process's rules context: set once by the pool's initializer (the only way a pool
# hands data to its tasks), read by every chunk it plays; its caches live as long as the worker.
_worker_rules: list[Rules] = []


def _start_worker(rules: RuleSet) -> None:
    _worker_rules.append(Rules(rules))


def _play_chunk(task: tuple[Plan, int, int]) -> list[GameRecord]:
    (rules,) = _worker_rules
    return play_games(rules, *task)
