"""A one-game `simulate` on a warm rule-set cache starts without the compiler's stages and the
parser packages: the rule set and the registry's defaults come from the cache, and the HTML
report's Jinja is imported with --html only (docs/benchmarks.md, start-up). Each run is a fresh process whose
loaded modules are read at its exit; the cold run shows that the same probe sees them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from blackpoker.compiler.cache import CACHE_DIR

PARSERS = ("yaml", "jsonschema", "referencing", "lark", "jinja2")
# what a cache hit may load of the compiler: its face without the pipeline, how files are named,
# the cache and the write plan
LIGHT = {
    "blackpoker.compiler",
    "blackpoker.compiler.paths",
    "blackpoker.compiler.cache",
    "blackpoker.compiler.outputs",
}
PROBE = (
    "import atexit, json, sys\n"
    "listing = sys.argv.pop(1)\n"
    "def dump():\n"
    "    with open(listing, 'w') as out:\n"
    "        json.dump(sorted(sys.modules), out)\n"
    "atexit.register(dump)\n"
    "from blackpoker.cli.main import main\n"
    "main()\n"
)


def _loaded(tmp_path: Path, cache: Path, *args: str) -> tuple[set[str], str]:
    """The modules a `blackpoker ARGS` process loaded, and what it printed."""
    listing = tmp_path / "modules.json"
    env = {**os.environ, CACHE_DIR: str(cache)}
    command = [sys.executable, "-c", PROBE, str(listing), *args]
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert result.returncode == 0, result.stderr
    return set(json.loads(listing.read_text("utf-8"))), result.stdout


def _heavy(modules: set[str]) -> list[str]:
    parsers = [m for m in modules if m.split(".")[0] in PARSERS]
    stages = [m for m in modules if m.startswith("blackpoker.compiler") and m not in LIGHT]
    return sorted([*parsers, *stages])


def test_a_warm_one_game_simulate_loads_no_parser(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold, first = _loaded(tmp_path, cache, "simulate", "-n", "1", "--seed", "3")
    assert {"yaml", "lark", "blackpoker.compiler.parse"} <= cold  # a miss compiles
    warm, again = _loaded(tmp_path, cache, "simulate", "-n", "1", "--seed", "3")
    assert _heavy(warm) == []
    # nor what only a miss (the package's version) or several jobs need
    assert not warm & {"importlib.metadata", "multiprocessing"}
    assert "blackpoker.runtime.engine.game" in warm  # the game was played
    # the same game, reported alike (but for its time)
    assert [line.split(" in ")[0] for line in again.splitlines()] == [
        line.split(" in ")[0] for line in first.splitlines()
    ]
