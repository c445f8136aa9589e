"""A build killed outright (SIGKILL) leaves no PDF worker behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("weasyprint", reason="PDF extra not installed")

SCRIPT = """
import sys, time
from blackpoker.site.pdf import worker_pool

pool = worker_pool(2)
futures = [pool.submit(time.sleep, 60) for _ in range(2)]
while len(pool._processes) < 2:
    time.sleep(0.05)
print(" ".join(str(pid) for pid in pool._processes), flush=True)
time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")  # a zombie has ended; only its parent's reaping is left


@pytest.mark.skipif(sys.platform != "linux", reason="the parent-death signal is Linux's")
def test_pdf_workers_die_with_a_killed_parent() -> None:
    parent = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    workers = [int(pid) for pid in parent.stdout.readline().split()]
    assert len(workers) == 2 and all(alive(pid) for pid in workers)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:  # do not leave them running if the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left
