"""The engine compiled with mypyc plays exactly as the pure-Python one: the same simulations,
decision for decision, and every ruling scenario; and with its compiled files removed the same
install falls back to the pure engine.

The compiled install is made by the one command docs/engine.md gives (read from the page and
run as written) in a fresh virtual environment of its own, from a copy of the checkout: pip
builds it in an isolated environment with the mypy the build backend asks for, and installs
the dependencies (it needs a C compiler and the package index, as any install does).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

import pytest
from editions_support import EDITIONS, formats

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "engine.md"
# what a checkout has that a fresh clone has not: builds, environments, caches
NOT_CLONED = shutil.ignore_patterns(
    ".git", "build", "dist", ".venv*", ".builds", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis"
)


def documented_command() -> tuple[dict[str, str], list[str]]:
    """The compiled engine's install command of docs/engine.md: its variables and its words."""
    found = re.search(r"^(BLACKPOKER_COMPILED=1 pip install [^\n#]*?)\s*$", GUIDE.read_text("utf-8"), re.M)
    assert found, "docs/engine.md gives the compiled engine's install command"
    words = shlex.split(found.group(1))
    variables = dict(word.split("=", 1) for word in words if re.match(r"^[A-Z_]+=", word))
    return variables, words[len(variables) :]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh environment where the documented command installed the package."""
    where = tmp_path_factory.mktemp("compiled")
    source = where / "checkout"
    shutil.copytree(ROOT, source, ignore=NOT_CLONED, symlinks=True)
    venv.EnvBuilder(with_pip=True).create(where / "venv")
    bin_dir = where / "venv" / "bin"
    variables, words = documented_command()
    assert words[0] == "pip"
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env |= {
        **variables,
        "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        "VIRTUAL_ENV": str(bin_dir.parent),
    }
    installed = subprocess.run(words, capture_output=True, text=True, cwd=source, env=env, check=False)
    assert installed.returncode == 0, installed.stderr[-3000:]
    return bin_dir


def test_the_command_needs_no_preinstalled_mypy(compiled: Path) -> None:
    """The fresh environment got the package and its dependencies, but mypy only in the build's."""
    listed = subprocess.run([compiled / "python", "-m", "pip", "list"], capture_output=True, text=True)
    names = {line.split()[0].lower() for line in listed.stdout.splitlines()[2:]}
    assert "blackpoker" in names and "lark" in names and "mypy" not in names


def blackpoker(bin_dir: Path | None, *args: str) -> subprocess.CompletedProcess[str]:
    """The command in the compiled environment (its own package, whatever PYTHONPATH says),
    or (None) in this one."""
    python = sys.executable if bin_dir is None else str(bin_dir / "python")
    command = [python, "-c", "from blackpoker.cli.main import main; main()", *args]
    env = None if bin_dir is None else {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=False)


def simulation(bin_dir: Path | None, edition: str, format_id: str, *more: str) -> dict[str, Any]:
    games = ("-n", "25", "--seed", "3", "--check", "--json", *more)
    result = blackpoker(bin_dir, "simulate", "--edition", edition, "--format", format_id, *games)
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    del report["seconds"], report["rates"]  # the only figures that depend on speed
    return report


def test_the_compiled_modules_are_the_ones_loaded(compiled: Path) -> None:
    assert "engine: compiled with mypyc" in blackpoker(compiled, "--version").stdout
    assert "engine: pure Python" in blackpoker(None, "--version").stdout


@pytest.mark.parametrize("edition", EDITIONS)
def test_simulations_agree_decision_for_decision(compiled: Path, edition: str) -> None:
    format_id = formats(edition)[-1]  # the largest format: every action of the edition
    ours = simulation(compiled, edition, format_id)
    assert ours["decisions"] > 0 and ours["completed"] == 25
    assert ours == simulation(None, edition, format_id)


def test_the_search_agent_is_compiled_and_plays_alike(compiled: Path) -> None:
    """Its own modules are compiled with the engine (setup.py): the same choices, game for game."""
    probe = "import blackpoker.runtime.play.{0} as m; print(m.__file__)"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the installed package
    for module in ("search", "greedy", "features"):
        command = [compiled / "python", "-c", probe.format(module)]
        found = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=True)
        assert found.stdout.strip().endswith(".so"), found.stdout
    edition = EDITIONS[0]
    format_id = formats(edition)[-1]
    agents = ("--agents", "search:8,greedy")
    assert simulation(compiled, edition, format_id, *agents) == simulation(None, edition, format_id, *agents)


def test_the_compiled_rule_set_travels_to_worker_processes(compiled: Path) -> None:
    """--jobs pickles the rule set, compiled classes included, to each worker."""
    edition = EDITIONS[0]
    format_id = formats(edition)[-1]
    assert simulation(compiled, edition, format_id, "--jobs", "2") == simulation(None, edition, format_id)


# Every built-in rule set as the compiler emits it (a run of the compiler on the build's program
# nodes, which read their field types from their source and their words from tables)
EMITTED = """
import json
from blackpoker.compiler.emit_json import ruleset_json
from blackpoker.compiler.environment import Environment
env = Environment()
found = {}
for edition in env.builtin_editions():
    for format_id, rules in env.compile_edition(edition).items():
        found[f"{edition} {format_id}"] = ruleset_json(rules)
print(json.dumps(found, ensure_ascii=False))
"""

# A rule set stored in the cache and read back on a hit (a miss would make the environment)
CACHED = """
import sys
from pathlib import Path
from blackpoker.compiler.cache import compile_cached
from blackpoker.compiler.emit_json import ruleset_json
edition, format_id, folder = sys.argv[1], sys.argv[2], Path(sys.argv[3])
stored, _ = compile_cached(None, edition, format_id, folder=folder)
def miss(): raise AssertionError("a cache miss")
loaded, _ = compile_cached(miss, edition, format_id, folder=folder)
assert loaded is not stored and loaded == stored and ruleset_json(loaded) == ruleset_json(stored)
assert [a.steps for a in loaded.actions] == [a.steps for a in stored.actions]
print(len(list(folder.iterdir())))
"""


def run_python(bin_dir: Path | None, code: str, *args: str) -> str:
    python = sys.executable if bin_dir is None else str(bin_dir / "python")
    env = None if bin_dir is None else {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([python, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_the_compiler_emits_the_same_rule_sets_on_the_compiled_program_nodes(compiled: Path) -> None:
    ours = json.loads(run_python(compiled, EMITTED))
    assert len(ours) > 20
    assert ours == json.loads(run_python(None, EMITTED))


def test_a_cached_rule_set_of_the_compiled_build_reads_back_equal(compiled: Path, tmp_path: Path) -> None:
    edition = EDITIONS[0]
    assert run_python(compiled, CACHED, edition, formats(edition)[-1], str(tmp_path)).strip() == "1"


def test_every_scenario_passes_on_the_compiled_engine(compiled: Path) -> None:
    result = blackpoker(compiled, "scenario", "run", "scenarios")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    pure = blackpoker(None, "scenario", "run", "scenarios")
    assert result.stdout.splitlines()[-1] == pure.stdout.splitlines()[-1]  # `N passed, …`


def test_without_its_compiled_files_the_install_falls_back_to_pure_python(compiled: Path) -> None:
    """Last in this file: it removes the compiled files from the fixture's environment."""
    site = next((compiled.parent / "lib").glob("python3*/site-packages"))
    removed = [path for path in site.rglob("*.so") if "mypyc" in path.name or "blackpoker" in path.parts]
    assert len(removed) > 10
    for path in removed:
        path.unlink()
    assert "engine: pure Python" in blackpoker(compiled, "--version").stdout
    edition = EDITIONS[0]
    format_id = formats(edition)[0]
    assert simulation(compiled, edition, format_id) == simulation(None, edition, format_id)
