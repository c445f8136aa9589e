"""The engine compiled with mypyc, in its own environment, for the benchmarks that measure it
beside the pure-Python one (docs/engine.md, "The compiled engine").

benchmarks/.venv-compiled has the system's packages (the project's dependencies) and the
project built with `BLACKPOKER_COMPILED=1` (setup.py). A stamp holds the digest of the sources
it was built from, so a change to them rebuilds it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VENV = HERE / ".venv-compiled"
STAMP = VENV / "sources.sha256"
ENGINE_BENCH = HERE / "bench_engine.py"


def python() -> Path:
    return VENV / "bin" / "python"


def digest() -> str:
    """The sources a compiled build depends on: the compiler and the runtime (the engine, and
    the agents bench_search.py runs there, installed as copies), and setup.py."""
    runtime = (ROOT / "runtime").rglob("*.py")
    files = sorted([ROOT / "setup.py", *(ROOT / "compiler").rglob("*.py"), *runtime])
    hashed = hashlib.sha256()
    for path in files:
        hashed.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return hashed.hexdigest()


def available() -> bool:
    """Built, and from the sources as they are now."""
    return STAMP.is_file() and STAMP.read_text() == digest()


def setup() -> str | None:
    """Build the environment unless it is current; None when ready, else why it is not."""
    if available():
        return None
    problem = build(VENV, ROOT, compiled=True)
    if problem is None:
        STAMP.write_text(digest())
    return problem


def isolated() -> dict[str, str]:
    """The environment for an installed build's Python: without PYTHONPATH, which would put
    another checkout's package in front of the one installed there."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def build(venv: Path, source: Path, *, compiled: bool) -> str | None:
    """A virtual environment at `venv` with the system's packages (the project's dependencies)
    and the project at `source` installed, its engine compiled with mypyc when `compiled`;
    None when made, else why not (and nothing is left at `venv`)."""
    shutil.rmtree(venv, ignore_errors=True)
    # setuptools stages what it builds in the source's build/lib.*, and installs all it finds
    # there: a module no longer compiled (setup.py's COMPILED) would come back as an old
    # extension that does not load with the new ones
    for staged in (source / "build").glob("lib.*"):
        shutil.rmtree(staged)
    python = venv / "bin" / "python"
    env = {**isolated(), "BLACKPOKER_COMPILED": "1" if compiled else "0"}
    # the engine must be the one installed there, not the system's (an editable install)
    probe = (
        "import blackpoker.runtime.engine.game as m; "
        f"assert m.__file__.startswith({str(venv.resolve())!r}), m.__file__; "
        f"assert m.__file__.endswith('.so') is {compiled}, m.__file__"
    )
    install = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps"]
    steps: dict[str, tuple[list[str], dict[str, str] | None]] = {
        "python -m venv": ([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], None),
        f"pip install (BLACKPOKER_COMPILED={env['BLACKPOKER_COMPILED']})": (
            [*install, "--no-build-isolation", str(source)],
            env,
        ),
        "import the engine": ([str(python), "-c", probe], isolated()),
    }
    for name, (command, step_env) in steps.items():
        try:
            subprocess.run(command, check=True, capture_output=True, text=True, env=step_env, cwd=HERE)
        except (OSError, subprocess.CalledProcessError) as error:
            shutil.rmtree(venv, ignore_errors=True)  # half made is absent: the next run tries again
            output = getattr(error, "stderr", None) or str(error)
            lines = [line for line in output.splitlines() if line.strip()]
            return f"{name} failed: {lines[-1] if lines else error}"
    return None


def engine_runs(games: int, first_seed: int) -> dict[str, tuple[int, float]]:
    """One run of bench_engine.py's loops on the compiled engine: (decisions, CPU seconds) by loop."""
    command = [str(python()), str(ENGINE_BENCH), str(games), "1", "--first-seed", str(first_seed), "--json"]
    result = subprocess.run(command, check=True, capture_output=True, text=True, env=isolated())
    found: dict[str, Any] = json.loads(result.stdout)
    return {label: (int(d), float(s)) for label, (d, s) in found.items()}
