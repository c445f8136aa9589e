"""The static play page of `blackpoker build --play`: its size, and in headless Chromium (Debian's,
driven by playwright) the time to the first decision — from opening the page to the first
menu of a game against the greedy agent, the engine loaded in Pyodide — with an empty cache
(a fresh browser context) and with the browser's cache (the page opened again), and a
decision's round-trip in the page (a click to the menu drawn again, the greedy agent's
answers included). The page is served by a plain static file server on 127.0.0.1.

python benchmarks/bench_play_page.py [runs] [decisions per run]
"""

from __future__ import annotations

import argparse
import functools
import gzip
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from played import EDITION, FORMATS

FORMAT = FORMATS[0]
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="?", type=int, default=5, help="page loads, each cold and warm")
    parser.add_argument("decisions", nargs="?", type=int, default=40, help="clicks timed per run")
    return parser.parse_args(argv)


class _Files(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


def build(out: Path) -> float:
    """`blackpoker build --html-only --edition EDITION --play`; its wall time in seconds."""
    command = [sys.executable, "-c", "from blackpoker.cli.main import main; main()"]
    command += ["build", "--html-only", "--edition", EDITION, "--play", "--out", str(out)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr.strip())
    return time.perf_counter() - start


def sizes(play: Path) -> dict[str, tuple[int, int]]:
    """Bytes of the page's parts, as stored and gzipped (as a static host sends them)."""
    parts: dict[str, tuple[int, int]] = {}
    for path in sorted(p for p in play.rglob("*") if p.is_file()):
        part = path.parent.name if path.parent != play else path.name
        data = path.read_bytes()
        stored, zipped = parts.get(part, (0, 0))
        parts[part] = (stored + len(data), zipped + len(gzip.compress(data, 6)))
    return parts


MARKS = """() => Object.fromEntries(["runtime", "engine"].map(
  (name) => [name, performance.getEntriesByName(`blackpoker:${name}`)[0].startTime / 1000]))"""


def first_decision(page: Any, url: str, marks: list[dict[str, float]]) -> float:
    """Seconds from opening the page to the first menu of a new game; `marks` gets the
    seconds from the page's start to the Pyodide runtime loaded and to the engine ready."""
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("select[name=format] option", state="attached", timeout=180_000)
    marks.append(page.evaluate(MARKS))
    page.select_option("select[name=edition]", EDITION)
    page.select_option("select[name=format]", FORMAT)
    page.click("#new-game button[type=submit]")
    page.wait_for_selector(".entry", timeout=60_000)
    return time.perf_counter() - start


def decisions(page: Any, count: int, rng: random.Random) -> list[float]:
    """Milliseconds per click, from the click to the menu drawn anew, until the game ends."""
    times: list[float] = []
    while len(times) < count:
        if page.locator(".result").count() or not page.locator(".entry").count():
            break
        entries = page.locator(".entry")
        chosen = entries.nth(rng.randrange(entries.count()))
        shown = chosen.element_handle()
        start = time.perf_counter()
        chosen.click()
        page.wait_for_function("(entry) => !entry.isConnected", arg=shown)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv)
    from playwright.sync_api import sync_playwright  # a test extra, as the browser tests use

    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        built = build(site)
        parts = sizes(site / "play")
        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Files, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/play/index.html"
        cold, warm, clicks = [], [], []
        marks: list[dict[str, float]] = []
        try:
            with sync_playwright() as playwright:
                chromium = playwright.chromium.launch(
                    headless=True, args=CHROMIUM_FLAGS, executable_path=shutil.which("chromium")
                )
                for run in range(args.runs):
                    context = chromium.new_context()
                    page = context.new_page()
                    cold.append(first_decision(page, url, marks))
                    warm.append(first_decision(page, url, []))
                    clicks += decisions(page, args.decisions, random.Random(run))
                    context.close()
                chromium.close()
        finally:
            server.shutdown()
            server.server_close()
    stored = sum(s for s, _ in parts.values())
    zipped = sum(z for _, z in parts.values())
    print(f"{EDITION} (every format) on the page; `build --play` of it: {built:.1f} s wall")
    for part, (size, packed) in parts.items():
        print(f"  {part:<12} {size / 1e6:7.2f} MB, gzipped {packed / 1e6:6.2f} MB")
    print(f"page size {stored / 1e6:.2f} MB, gzipped {zipped / 1e6:.2f} MB")
    print(f"{EDITION} {FORMAT} vs greedy, {args.runs} runs:")
    first = f"median {statistics.median(cold):.2f} s cold, {statistics.median(warm):.2f} s warm"
    print(f"time to first decision: {first}")
    runtime, engine = (statistics.median(m[name] for m in marks) for name in ("runtime", "engine"))
    print(f"  cold: Pyodide's runtime loaded at {runtime:.2f} s, the engine ready at {engine:.2f} s")
    if clicks:
        median = statistics.median(clicks)
        print(f"decision round-trip in the page: median {median:.1f} ms over {len(clicks)} clicks")


if __name__ == "__main__":
    main()
