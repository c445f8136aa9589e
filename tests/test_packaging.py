"""A non-editable install ships the lists and schemas and works from any folder."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

from blackpoker.compiler import compile
from editions_support import EDITIONS, formats

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_install_works_from_another_folder(tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    # System site-packages provide the dependencies, so no network is needed.
    venv.EnvBuilder(system_site_packages=True, with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    work = tmp_path / "elsewhere"
    work.mkdir()
    exe = env_dir / "bin" / "blackpoker"
    validate = subprocess.run([exe, "validate"], cwd=work, capture_output=True, text=True, check=False)
    assert validate.returncode == 0, validate.stderr
    largest = formats(EDITIONS[0])[-1]
    compiled = subprocess.run(
        [exe, "compile", "--edition", EDITIONS[0], "--format", largest],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stderr
    assert len(json.loads(compiled.stdout)["actions"]) == len(compile(EDITIONS[0], largest).actions)
    where = subprocess.run(
        [python, "-c", "import blackpoker.compiler as c; print(c.__file__)"],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    )
    assert str(env_dir) in where.stdout  # the installed copy, not this checkout
    assert sys.prefix != str(env_dir)
