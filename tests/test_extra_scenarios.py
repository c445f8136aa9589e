"""Scenarios of the extra format: a written position lays trumps face up (`face_up:`), an
`expect` checks which lie face up, and a card that cannot lie face up is a located error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bad_input_support import invoke

EXTRA = Path(__file__).resolve().parents[1] / "scenarios" / "extra"
BASE = (EXTRA / "open-at-main.yaml").read_text(encoding="utf-8")
ZONE = re.search(r"zones: \{(\w+): \[(\S+?)\]\}\n", BASE)
OPENED = re.search(r"face_up: \[(\S+?)\]", BASE)
assert ZONE is not None and OPENED is not None
PLACED = ZONE[0]
OUTSIDE = "♢K"  # a card the base scenario places nowhere
assert OUTSIDE not in BASE


def _laid(*cards: str) -> str:
    """The base's zone line followed by a `face_up` line naming `cards`."""
    return f"{PLACED[:-1]}\n    face_up: [{', '.join(cards)}]\n"


NOT_THERE = "is not in a zone"
BROKEN = {
    "not-in-the-zone": (PLACED, _laid(OUTSIDE), f"face_up: {OUTSIDE} {NOT_THERE}"),
    "not-a-card": (PLACED, _laid("♣Z"), "♣Z"),
    "twice": (PLACED, _laid(ZONE[2], ZONE[2]), f"face_up: {ZONE[2]} {NOT_THERE}"),
    "bad-expect-card": (OPENED[0], "face_up: [♣Z]", "♣Z"),
}


def _run(tmp_path: Path, texts: dict[str, str]) -> tuple[str, str]:
    for name, text in texts.items():
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    result = invoke("scenario", "run", tmp_path)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result.stdout, result.stderr


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_card_that_cannot_lie_face_up_is_located(tmp_path: Path, name: str) -> None:
    old, new, message = BROKEN[name]
    assert old in BASE
    stdout, stderr = _run(tmp_path, {name: BASE.replace(old, new, 1)})
    assert "0 passed, 1 failed" in stdout
    located = [line for line in stderr.splitlines() if re.match(rf".*{name}\.yaml:\d+:\d+: ", line)]
    assert any(message in line for line in located), stderr


def test_face_up_is_compared_as_a_set_of_the_cards_lying_face_up(tmp_path: Path) -> None:
    stdout, stderr = _run(tmp_path, {"still-down": BASE.replace(OPENED[0], "face_up: []", 1)})
    assert "0 passed, 1 failed" in stdout
    assert f"p1.face_up: expected [], got ['{OPENED[1]}']" in stdout + stderr


def test_a_trump_written_face_up_lies_face_up_from_the_start(tmp_path: Path) -> None:
    written = BASE.replace(PLACED, _laid(ZONE[2]), 1)
    head = written[: written.index("commands:")]
    text = head + f"commands: []\nexpect:\n  p1: {{face_up: [{ZONE[2]}]}}\n"
    stdout, stderr = _run(tmp_path, {"written": text})
    assert "1 passed, 0 failed" in stdout, stdout + stderr
