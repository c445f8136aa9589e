"""A plain `pip install` (no extras) runs every command but PDF rendering, which says what to install.

The wheel goes into a fresh virtual environment without the system's packages, so only the
core dependencies are there (pip fetches them from the package index).
"""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.request
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh environment holding the wheel and its core dependencies."""
    where = tmp_path_factory.mktemp("plain")
    wheels = where / "wheels"
    pip = ["-m", "pip", "--disable-pip-version-check", "-q"]
    build = ["wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(ROOT)]
    subprocess.run([sys.executable, *pip, *build], check=True, capture_output=True)
    venv.EnvBuilder(with_pip=True).create(where / "venv")
    bin_dir = where / "venv" / "bin"
    (wheel,) = wheels.glob("blackpoker-*.whl")
    installed = subprocess.run([bin_dir / "python", *pip, "install", wheel], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    return bin_dir


def run(bin_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [str(bin_dir / "blackpoker"), *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, check=False)


def test_no_pdf_library_is_installed(plain: Path) -> None:
    probe = "import importlib.util as u; print([m for m in ('weasyprint', 'pypdf') if u.find_spec(m)])"
    found = subprocess.run([plain / "python", "-c", probe], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


def test_every_command_but_pdf_runs(plain: Path, tmp_path: Path) -> None:
    scenario = next((ROOT / "scenarios").rglob("*.yaml"))
    for args in (
        ("--help",),
        ("validate",),
        ("compile",),
        ("build", "--html-only", "--out", "site"),
        ("simulate", "-n", "4", "--seed", "1"),
        ("scenario", "run", str(scenario)),
    ):
        result = run(plain, tmp_path, *args)
        assert result.returncode == 0, (args, result.stderr)
        assert "Traceback" not in result.stderr
    assert (tmp_path / "site" / "index.html").is_file()


def test_a_pdf_build_says_which_extra_to_install(plain: Path, tmp_path: Path) -> None:
    result = run(plain, tmp_path, "build", "--out", "site")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "blackpoker[pdf]" in lines[0] and "apt-get install" in lines[0], lines
    assert not (tmp_path / "site").exists()  # refused before anything is written


def test_serve_runs_from_the_wheel_with_its_page_and_assets(plain: Path, tmp_path: Path) -> None:
    server = subprocess.Popen(
        [str(plain / "blackpoker"), "serve", "--port", "0"], cwd=tmp_path, stderr=subprocess.PIPE, text=True
    )
    try:
        assert server.stderr is not None
        address = re.search(r"http://[\d.]+:\d+/", server.stderr.readline())
        assert address is not None
        for path, kind in (
            ("", "text/html"),
            ("static/app/app.js", "text/javascript"),
            ("static/app/app.css", "text/css"),
        ):
            with urllib.request.urlopen(address[0] + path, timeout=30) as answer:
                assert answer.headers["Content-Type"].startswith(kind) and len(answer.read()) > 1000, path
    finally:
        server.terminate()
        server.wait(timeout=30)
