"""Command logs in tests: a log whose header is changed, and where replay refuses it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from blackpoker.runtime.play.log import ReplayError, replay


def refused_header(log: Path, change: Callable[[dict[str, Any]], None], key: str, message: str) -> None:
    """Replay refuses the log once `change` edits its header: at `key` in line 1, saying `message`."""
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    change(header)
    lines[0] = json.dumps(header, ensure_ascii=False)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReplayError) as raised:
        replay(log)
    problem = raised.value.diagnostic
    column = lines[0].index(f'"{key}"') + 1
    assert (problem.location.line, problem.location.col) == (1, column) and message in problem.message
