"""`blackpoker simulate --cluster`: a real process against a local two-worker Dask cluster
gives the figures of `--jobs 1` and `--jobs 2`; a cluster that cannot be used is one message."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from blackpoker.cli.main import main
from click.testing import CliRunner

if not os.environ.get("CI"):  # CI installs the extra: there a missing Dask is a failure
    pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")

from distributed import LocalCluster

GAMES = ("-n", "30", "--seed", "5", "--json")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def _simulate(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("blackpoker") or pytest.fail("the blackpoker console script is not installed")
    return subprocess.run([exe, "simulate", *args], capture_output=True, text=True, timeout=300, check=False)


def _figures(*args: str) -> dict[str, Any]:
    result = _simulate(*GAMES, *args)
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    del data["seconds"]
    return data


def test_a_cluster_run_gives_the_figures_of_one_and_two_jobs(scheduler: str) -> None:
    on_cluster = _figures("--cluster", scheduler)
    assert on_cluster["games"] == on_cluster["completed"] == 30
    assert on_cluster == _figures("--jobs", "1") == _figures("--jobs", "2")


def test_an_unreachable_scheduler_is_one_message_and_exit_1() -> None:
    with socket.socket() as probe:  # a port nobody listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = _simulate("-n", "1", "--cluster", f"tcp://127.0.0.1:{port}")
    assert result.returncode == 1
    assert result.stderr.startswith(f"--cluster: cannot reach the scheduler at tcp://127.0.0.1:{port} within")
    assert "Traceback" not in result.stderr


def test_without_the_extra_cluster_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if Dask were not installed
    result = CliRunner().invoke(main, ["simulate", "-n", "1", "--cluster", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 1
    assert "--cluster: needs the Dask distributed engine: pip install 'blackpoker[cluster]'" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--jobs", "2"], "--jobs: not with --cluster"),
        (["--logs", "logs"], "--logs: not with --cluster"),
        (["--cluster", "127.0.0.1"], "--cluster: '127.0.0.1' is not a scheduler address (tcp://host:port)"),
    ],
)
def test_options_the_cluster_replaces_are_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["simulate", "-n", "1", "--cluster", "tcp://127.0.0.1:8786", *args])
    assert result.exit_code == 1
    assert message in result.stderr
    assert list(tmp_path.iterdir()) == []
