"""Benchmark the notation layer: key and cost parsing rates, and key-matcher enumeration time.

Run: python benchmarks/bench_notation.py [--repeats N] [--rounds N] [--hands N]
Every figure is the median of several repeats; nothing is cached between parses. Times are
process CPU time, so that other work on a shared machine does not count against the parser.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import results
from blackpoker.compiler.notation import parse_cost, parse_key
from blackpoker.runtime.rules.cards import Card, full_deck
from blackpoker.runtime.rules.matcher import compile_matcher

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from notation_samples import UPSTREAM_COSTS, UPSTREAM_KEYS

COSTS = [*UPSTREAM_COSTS, "$BL", "ＢＬ", "B L"]  # and the other spellings
KEY_GOAL = 20_000  # parses per second
METRICS = {"notation.key_parses": "parses/s"}
REPEATS = 7  # default
HANDS = 10  # default seeded random hands per size


def median_rate(parse: Callable[[str], object], texts: Sequence[str], rounds: int, repeats: int) -> float:
    """Median parses per second over `repeats` runs of `rounds` passes through `texts`."""
    rates = []
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(rounds):
            for text in texts:
                parse(text)
        rates.append(rounds * len(texts) / (time.process_time() - start))
    return statistics.median(rates)


def median_matcher_time(hands: Sequence[Sequence[Card]], repeats: int) -> tuple[float, float]:
    """Median over `repeats` of (µs per ways() call, ms for every key spec on every hand)."""
    matchers = [compile_matcher(parse_key(text)) for text in UPSTREAM_KEYS]
    totals = []
    for _ in range(repeats):
        start = time.process_time()
        for cards in hands:
            for matcher in matchers:
                matcher.ways(cards)
        totals.append(time.process_time() - start)
    total = statistics.median(totals)
    return total / (len(hands) * len(matchers)) * 1e6, total * 1e3


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--rounds", type=int, default=400, help="passes through the keys (costs: 1.5 x)")
    parser.add_argument("--hands", type=int, default=HANDS, help="seeded random hands per size")
    results.add_option(parser)
    args = parser.parse_args(argv)
    for text in UPSTREAM_KEYS:  # warm up: build the parser, fill the character cache
        parse_key(text)
    parse_cost("BL")

    key_rate = median_rate(parse_key, UPSTREAM_KEYS, args.rounds, args.repeats)
    verdict = "met" if key_rate >= KEY_GOAL else "MISSED"
    results.write(args.results, METRICS, "notation.key_parses", key_rate, args.repeats)
    keys = f"{len(UPSTREAM_KEYS)} upstream keys"
    print(f"key parsing   {key_rate:>10,.0f} parses/s  ({keys}; goal {KEY_GOAL:,}: {verdict})")
    cost_rate = median_rate(parse_cost, COSTS, args.rounds * 3 // 2, args.repeats)
    print(f"cost parsing  {cost_rate:>10,.0f} parses/s  ({len(COSTS)} costs)")

    deck = full_deck()
    for size in (7, 12):
        hands = [random.Random(seed).sample(deck, size) for seed in range(args.hands)]
        per_call, total = median_matcher_time(hands, args.repeats)
        print(
            f"matcher {size:>2}-card hands  {per_call:>7.1f} µs per ways() call  "
            f"({total:.1f} ms for {len(UPSTREAM_KEYS)} keys × {args.hands} hands)"
        )
    print(f"(medians of {args.repeats} repeats)")


if __name__ == "__main__":
    main()
