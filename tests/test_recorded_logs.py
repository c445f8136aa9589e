"""Command logs recorded by an earlier build replay unchanged: the same rule-set hash, every
logged event (options printed in the notation), the result and the final state hash.

The logs in tests/data/logs/ were written by `blackpoker simulate --logs` before the engine
held cards, results, zones and answers as typed values; they pin that the change kept the
printed log, the rule set's JSON and the state hash as they were. A change that alters any of
these must say so (a new LOG_VERSION) instead of breaking these logs silently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from blackpoker.cli.main import main
from blackpoker.runtime.play.log import replay
from click.testing import CliRunner

LOGS = sorted((Path(__file__).parent / "data" / "logs").rglob("*.jsonl"))


def test_the_recorded_logs_cover_editions_formats_and_setups() -> None:
    headers = [json.loads(p.read_text(encoding="utf-8").splitlines()[0]) for p in LOGS]
    assert len({h["edition"] for h in headers}) >= 3
    assert any(h["format"] == "extra" for h in headers)  # trumps
    assert any("regulation" in h for h in headers)  # decks, presets
    assert any("rules_file" in h for h in headers)  # a local rule
    assert any(any(a.startswith("greedy") for a in h["agents"]) for h in headers)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_recorded_log_replays_unchanged(path: Path) -> None:
    end = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    done = replay(path)
    assert (done.decisions, done.result, done.state) == (end["decisions"], end["result"], end["state"])


def test_replay_checks_the_recorded_logs_as_a_folder() -> None:
    result = CliRunner().invoke(main, ["replay", str(LOGS[0].parent.parent)])
    assert result.exit_code == 0, result.output
    assert f"{len(LOGS)} replayed, 0 failed" in result.output
