"""`blackpoker watch FILE` in a real headless Chromium: the page shows a local rule's sheet and
its comparison with its base; a save changes the sheet in the page, a broken save shows the
located problem, a fixed one takes it away; nothing is left behind when it stops. Then its bad
input: a missing file, a FIFO, a folder, a port in use."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from blackpoker.site.report_tables import JAPANESE

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "my-std.yaml"  # a local rule with a base to compare with
GAMES = "6"  # a side: enough to fill the tables, few enough for a shared machine
WAIT = 120_000  # ms: a save is validated, built and compared on a loaded machine
WATCH = [sys.executable, "-c", "from blackpoker.cli.main import main; main()", "watch"]


class Watching:
    """A `blackpoker watch` process and the address it printed."""

    def __init__(self, file: Path, tmp: Path) -> None:
        env = {**os.environ, "TMPDIR": str(tmp)}
        command = [*WATCH, str(file), "--port", "0", "-n", GAMES, "--every", "0.2"]
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
        assert self.process.stderr is not None
        self.first = self.process.stderr.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", self.first)
        assert found, self.first
        self.url = found.group(0)
        self.rest: list[str] = []
        self._reader = threading.Thread(target=lambda: self.rest.extend(self.process.stderr or []))
        self._reader.start()

    def stop(self) -> int:
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(timeout=60)
        self._reader.join(timeout=10)
        return code


@pytest.fixture
def watching(tmp_path: Path) -> Iterator[tuple[Watching, Path, Path]]:
    file = tmp_path / EXAMPLE.name
    file.write_bytes(EXAMPLE.read_bytes())
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    running = Watching(file, temporary)
    yield running, file, temporary
    if running.process.poll() is None:
        running.process.kill()
        running.process.wait()


def _panel(page: Any, text: str) -> None:
    """Wait until the page's panel shows `text`."""
    script = "(text) => document.getElementById('panel')?.innerText.includes(text)"
    page.wait_for_function(script, arg=text, timeout=WAIT)


def test_the_page_follows_each_save(watching: tuple[Watching, Path, Path]) -> None:
    from browser_support import CHROMIUM, FLAGS, sync_api  # skips with the browser named if absent

    running, file, temporary = watching
    data = yaml.safe_load(file.read_text("utf-8"))
    lines = file.read_text("utf-8").splitlines(keepends=True)
    errors: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.goto(running.url)
        sheet = page.frame_locator("#frame")
        sheet.get_by_text(data["title"]).first.wait_for(timeout=WAIT)
        # the comparison with the base: both sides named, the win rates with their intervals
        _panel(page, JAPANESE.results.split(" (")[0])
        _panel(page, f"B: {data['edition']} {data['name']}")

        # a save: the sheet in the page shows the new text, with no reload by hand
        renamed = f"{data['title']}・改訂"
        file.write_text("".join(lines).replace(f"title: {data['title']}", f"title: {renamed}"), "utf-8")
        sheet.get_by_text(renamed).first.wait_for(timeout=WAIT)

        # a broken save: the located problem in the page, the line and caret with it
        at = next(n for n, line in enumerate(lines) if re.match(r"\s+cost: ", line))
        broken = [*lines[:at], re.sub(r"cost: .*", 'cost: "QQ"', lines[at]), *lines[at + 1 :]]
        file.write_text("".join(broken), "utf-8")
        _panel(page, f"{file.name}:{at + 1}:")
        assert 'cost: "QQ"' in page.inner_text("#panel")

        # fixed again: the problem is gone
        file.write_text("".join(lines), "utf-8")
        page.wait_for_function(
            "(text) => !document.getElementById('panel').innerText.includes(text)",
            arg=f"{file.name}:{at + 1}:",
            timeout=WAIT,
        )
        sheet.get_by_text(data["title"]).first.wait_for(timeout=WAIT)
        browser.close()
    assert errors == []
    assert running.stop() == 0
    assert list(temporary.iterdir()) == []  # its own folder of sheets is removed


def _refused(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [*WATCH, *args], capture_output=True, text=True, cwd=cwd, timeout=120, check=False
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    return result


def test_a_missing_file_a_fifo_and_a_folder_are_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "folder").mkdir()
    expected = {
        "missing.yaml": "missing.yaml:1:1: cannot read file: No such file or directory",
        "pipe.yaml": "pipe.yaml:1:1: not a regular file (a FIFO, socket or device); refusing to read it",
        "folder": "folder:1:1: is a folder; expected a file",
    }
    for name, message in expected.items():
        started = time.monotonic()
        result = _refused(name, "--port", "0", cwd=tmp_path)
        assert result.stderr == f"{message}\n1 problem found\n"
        assert time.monotonic() - started < 60  # never waits on the FIFO


def test_a_port_in_use_is_said_plainly(tmp_path: Path) -> None:
    file = tmp_path / EXAMPLE.name
    file.write_bytes(EXAMPLE.read_bytes())
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "TMPDIR": str(temporary)}
        result = subprocess.run(
            [*WATCH, str(file), "--port", str(port)], capture_output=True, text=True, env=env, timeout=120
        )
    assert result.returncode == 1, result.stderr
    assert result.stderr == (
        f"--port: cannot listen on 127.0.0.1:{port}: the port is in use; give another (0: any free port)\n"
        "1 problem found\n"
    )
    assert list(temporary.iterdir()) == []
