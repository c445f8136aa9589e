"""How much searching each decision asks of the engine, counted in seeded self-play: option
lists computed, request searches asked and made, hand plans, target lists and payment lists,
per decision, with who asked (the calling function) under --callers.

python benchmarks/count_searches.py [games] [--greedy-games N] [--edition E ...] [--callers]

Plays each edition asked (by default the registry's) in its two smallest formats, random
against random and greedy against greedy (seed 1, games 0..N-1), as `simulate` plays them.
Counting wraps the engine's functions, so it is slow; it counts, it does not time
(docs/engine.md, "Searches per decision").
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from blackpoker.compiler.environment import Environment
from blackpoker.runtime.engine import game, option_search
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.play.selfplay import play_game
from blackpoker.runtime.play.simulation import RulesSource
from played import EDITION

COUNTS: Counter[tuple[str, str]] = Counter()  # (what, who asked)
# what → (module, function): the modules that call each function hold their own name for it
COUNTED = {
    "option lists": (game.Game, "_compute_options"),
    "searches asked": (game, "request_options"),
    "searches made": (option_search, "search"),
    "hand plans": (option_search, "hand_plan"),
    "target lists": (option_search, "candidates"),
    "payment lists": (option_search, "_paid"),
}


def counting(what: str, function: Callable[..., Any], depth: int) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        caller = sys._getframe(depth).f_code
        COUNTS[(what, f"{caller.co_filename.rsplit('/', 1)[-1]}:{caller.co_name}")] += 1
        return function(*args, **kwargs)

    return counted


@contextmanager
def installed() -> Iterator[None]:
    """The engine's functions counted while inside, as they were after."""
    kept = {what: getattr(owner, name) for what, (owner, name) in COUNTED.items()}
    try:
        for what, (owner, name) in COUNTED.items():
            # an option list is asked through legal_options: its asker is one frame further out
            setattr(owner, name, counting(what, kept[what], 2 if owner is game.Game else 1))
        yield
    finally:
        for what, (owner, name) in COUNTED.items():
            setattr(owner, name, kept[what])


def run(edition: str, format_id: str, agent: str, games: int, callers: bool) -> None:
    COUNTS.clear()
    rules = Rules(RulesSource(edition, format_id).compile())
    decisions = sum(play_game(rules, (agent, agent), 1, index).decisions for index in range(games))
    totals: Counter[str] = Counter()
    for (what, _), n in COUNTS.items():
        totals[what] += n
    row = " | ".join(f"{totals[what] / decisions:.2f}" for what in COUNTED)
    print(f"| {edition} {format_id} | {agent} | {decisions} | {row} |")
    if callers:
        for (what, caller), n in sorted(COUNTS.items()):
            print(f"|   {what} | {caller} | {n} | {n / decisions:.2f} |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=30, help="random games per rule set")
    parser.add_argument("--greedy-games", type=int, default=10)
    parser.add_argument("--edition", action="append", help="an edition to play (repeatable)")
    parser.add_argument("--callers", action="store_true", help="each count by the function that asked")
    args = parser.parse_args(argv)
    env = Environment()
    print(f"| rule set | agents | decisions | {' | '.join(COUNTED)} (per decision) |")
    print("| --- | --- | ---: |" + " ---: |" * len(COUNTED))
    with installed():
        for agent, games in (("random", args.games), ("greedy", args.greedy_games)):
            for edition in args.edition or [EDITION]:
                for format_id in [f.id for f in env.edition(edition).edition.formats][:2]:
                    run(edition, format_id, agent, games, args.callers)


if __name__ == "__main__":
    main()
