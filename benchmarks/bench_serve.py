"""`blackpoker serve`'s decision round-trip: the wall time of one POST /api/seat/TOKEN/choose
over real HTTP on 127.0.0.1 — the server reads the step, plays it when it settles an option,
lets the agent (random) answer until the person decides again, and sends the seat's board,
menu and log. Medians over runs of seeded games on the smallest format; goal ≤ 50 ms.

python benchmarks/bench_serve.py [requests per run] [runs]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import threading
import time
from collections.abc import Sequence
from typing import Any

import results
from blackpoker.runtime.serve.server import App, Defaults, Server
from played import EDITION, FORMATS

FORMAT = FORMATS[0]
GOAL_MS = 50.0
METRICS = {"serve.round_trip": "ms"}


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("requests", nargs="?", type=int, default=400, help="choose requests per run")
    parser.add_argument("runs", nargs="?", type=int, default=5)
    results.add_option(parser)
    return parser.parse_args(argv)


def call(connection: http.client.HTTPConnection, method: str, path: str, data: Any = None) -> Any:
    body = None if data is None else json.dumps(data, ensure_ascii=False).encode()
    connection.request(method, path, body=body, headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    answer = json.loads(response.read())
    if response.status >= 300:
        raise SystemExit(f"{method} {path}: {response.status} {answer}")
    return answer


def run(port: int, requests: int, seed: int) -> list[float]:
    """`requests` choose round-trips of random steps, in as many games as it takes (ms each)."""
    rng = random.Random(seed)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)  # kept alive, as a page's
    times: list[float] = []
    game = 0
    while len(times) < requests:
        made = call(connection, "POST", "/api/games", {"seed": seed * 1000 + game, "opponent": "random"})
        token = made["seats"]["p1"].rsplit("/", 1)[1]
        state = call(connection, "GET", f"/api/seat/{token}")
        while state["menu"] is not None and len(times) < requests:
            menu = state["menu"]
            value = rng.choice(menu["entries"])["value"]
            step = {
                "decision": state["decision"],
                "chosen": [*menu["chosen"], value],
                "auto": [*menu["auto"], False],
            }
            start = time.perf_counter()
            state = call(connection, "POST", f"/api/seat/{token}/choose", step)
            times.append((time.perf_counter() - start) * 1000)
        game += 1
    connection.close()
    return times


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv)
    server = Server(("127.0.0.1", 0), App(Defaults(EDITION, FORMAT)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        run(server.server_address[1], 5, 0)  # compile the rules, warm the caches
        medians, worst = [], []
        for number in range(args.runs):
            times = run(server.server_address[1], args.requests, number + 1)
            medians.append(statistics.median(times))
            worst.append(max(times))
    finally:
        server.shutdown()
        server.server_close()
    median = statistics.median(medians)
    runs = ", ".join(f"{m:.2f}" for m in medians)
    sizes = f"{args.requests} requests x {args.runs} runs"
    print(f"{EDITION} {FORMAT}, a person (random steps) vs the random agent, {sizes}")
    print(f"decision round-trip median {median:.2f} ms (runs: {runs}), slowest {max(worst):.1f} ms")
    verdict = "met" if median <= GOAL_MS else "NOT MET"
    results.write(args.results, METRICS, "serve.round_trip", median, args.runs, f"{EDITION} {FORMAT}")
    print(f"goal decision round-trip <= {GOAL_MS:.0f} ms: {median:.2f} ms, {verdict}")


if __name__ == "__main__":
    main()
