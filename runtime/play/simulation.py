"""Many games at once: `blackpoker simulate` spreads them over worker processes.

Every game has its own seed (`selfplay.game_seed(seed, index)`) and its agents derive from
it, so a game's record does not depend on which process plays it or when: any number of
jobs gives the same records, which are returned in game order.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from blackpoker.compiler import compile_ruleset
from blackpoker.compiler.model import RuleSet
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.play.selfplay import DECISION_CAP, GameRecord, log_width, play_game

CHUNKS_PER_JOB = 16  # small enough chunks to balance the processes and move the progress bar


@dataclass(frozen=True, slots=True)
class RulesSource:
    """Where a rule set comes from: workers compile it themselves (a RuleSet does not pickle)."""

    edition: str
    format: str
    rules: Path | None = None  # a local-rule file

    def compile(self) -> RuleSet:
        return _compiled(self).ruleset


@cache
def _compiled(source: RulesSource) -> Rules:
    """The rules context, once per process: all its games share the caches."""
    return Rules(compile_ruleset(source.edition, source.format, source.rules))


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything a worker needs to play its share of a run."""

    source: RulesSource
    agents: tuple[str, str]  # p1's and p2's agent names (runtime.play.agents.AGENTS)
    seed: int
    games: int
    check: bool = True  # invariants after every decision
    cap: int = DECISION_CAP
    logs: Path | None = None


def play_range(plan: Plan, start: int, stop: int) -> list[GameRecord]:
    """Games start … stop-1 of the run (runs in a worker process, or in this one)."""
    rules = _compiled(plan.source)
    width = log_width(plan.games)
    return [
        play_game(
            rules, plan.agents, plan.seed, i, check=plan.check, cap=plan.cap, logs=plan.logs, width=width
        )
        for i in range(start, stop)
    ]


def chunks(games: int, jobs: int) -> list[tuple[int, int]]:
    size = max(1, min(100, games // (jobs * CHUNKS_PER_JOB)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def run(plan: Plan, jobs: int = 1) -> Iterator[list[GameRecord]]:
    """The run's records in chunks, as they finish (sort by `index` for game order).

    Workers are started with `spawn`: they import the package and compile the rules from
    `plan.source`, and nothing of the parent (a progress bar's thread) is forked.
    """
    parts = chunks(plan.games, jobs)
    if jobs <= 1:
        for start, stop in parts:
            yield play_range(plan, start, stop)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))
    try:
        futures = [pool.submit(play_range, plan, start, stop) for start, stop in parts]
        for future in as_completed(futures):
            yield future.result()
    finally:  # an interrupted run does not wait for the games nobody will read
        pool.shutdown(cancel_futures=True)


def run_all(plan: Plan, jobs: int = 1) -> list[GameRecord]:
    """Every record of the run, in game order."""
    return sorted((r for part in run(plan, jobs) for r in part), key=lambda r: r.index)
