"""The engine compiled with mypyc (`BLACKPOKER_COMPILED=1 pip install .`, setup.py) plays exactly
as the pure-Python one: the same simulations, decision for decision, and every ruling scenario;
and with its compiled files removed the same install falls back to the pure engine.

The wheel is built here and installed into a fresh environment that borrows the system's
packages for the dependencies (the build needs mypy, from the `test` extra, and a C compiler).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

import pytest
from editions_support import EDITIONS, formats

ROOT = Path(__file__).resolve().parents[1]
PIP = ["-m", "pip", "--disable-pip-version-check", "-q"]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of an environment holding the compiled wheel."""
    where = tmp_path_factory.mktemp("compiled")
    wheels = where / "wheels"
    build = ["wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(ROOT)]
    env = {**os.environ, "BLACKPOKER_COMPILED": "1"}
    built = subprocess.run([sys.executable, *PIP, *build], capture_output=True, text=True, env=env)
    assert built.returncode == 0, built.stderr[-3000:]
    venv.EnvBuilder(with_pip=True, system_site_packages=True).create(where / "venv")
    bin_dir = where / "venv" / "bin"
    (wheel,) = wheels.glob("blackpoker-*.whl")
    installed = subprocess.run(
        [bin_dir / "python", *PIP, "install", "--no-deps", wheel], capture_output=True, text=True
    )
    assert installed.returncode == 0, installed.stderr
    return bin_dir


def blackpoker(bin_dir: Path | None, *args: str) -> subprocess.CompletedProcess[str]:
    """The command in the compiled environment, or (None) in this one."""
    python = sys.executable if bin_dir is None else str(bin_dir / "python")
    command = [python, "-c", "from blackpoker.cli.main import main; main()", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)


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


def test_the_compiled_rule_set_travels_to_worker_processes(compiled: Path) -> None:
    """--jobs pickles the rule set, compiled classes included, to each worker."""
    edition = EDITIONS[0]
    format_id = formats(edition)[-1]
    assert simulation(compiled, edition, format_id, "--jobs", "2") == simulation(None, edition, format_id)


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
