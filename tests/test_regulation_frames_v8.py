"""The frames of edition 8 (actionlists/regulations/8.0.yaml) agree with upstream frame.yaml, and
the actions they add are act-frame.yaml's, by id."""

from __future__ import annotations

import re
from typing import Any

import pytest
from blackpoker.compiler.documents.regulation import Frame, Regulations, parse_regulation, regulations_for
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.diagnostics import CompileError
from editions_support import read_upstream

LEVELS = {"完全公開": "public", "個人公開": "owner", "非公開": "hidden"}


@pytest.fixture(scope="module")
def regs() -> Regulations:
    return regulations_for("v8.2")


@pytest.fixture(scope="module")
def upstream() -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = read_upstream("frame.yaml")["frames"]
    return frames


def _bullets(text: str) -> list[str]:
    return [line[2:] for line in text.splitlines() if line.startswith("* ")]


def _access(text: str) -> list[dict[str, str]]:
    """`パック\n | 完全公開：…` blocks as {what, public, owner, hidden}."""
    blocks = []
    for block in filter(None, re.split(r"\n\s*\n", text.strip())):
        what, *levels = [line.strip() for line in block.strip().splitlines()]
        entry = {"what": what}
        for level in levels:
            name, _, shown = level.lstrip("| ").partition("：")
            entry[LEVELS[name]] = shown
        blocks.append(entry)
    return blocks


def _frame(regs: Regulations, frame_id: str) -> Frame:
    return next(frame for frame in regs.frames if frame.id == frame_id)


def test_every_upstream_frame_is_converted(regs: Regulations, upstream: list[dict[str, Any]]) -> None:
    assert [f["frameId"] for f in upstream] == [frame.id for frame in regs.frames]
    action_ids = {
        act["actName"]: act["actId"]
        for group in read_upstream("act-frame.yaml")["actList"]
        for act in group["acts"]
    }
    for raw in upstream:
        frame = _frame(regs, raw["frameId"])
        assert frame.name == raw["name"]
        assert list(frame.formats or ()) == raw["format"].split(",")
        assert list(frame.start) == _bullets(raw["start"])
        assert list(frame.actions) == [action_ids[name] for name in _bullets(raw.get("actionList", ""))]
        assert [dict(a) for a in frame.access] == _access(raw.get("accessLevel", ""))


def test_the_entry20_deck_is_upstreams(regs: Regulations, upstream: list[dict[str, Any]]) -> None:
    raw = next(f for f in upstream if f["frameId"] == "entry20")
    listed = [
        Card.parse(suit + rank)
        for suit, ranks in re.findall(r"\* ([♠♡♢♣])(.+)", raw["deck"])
        for rank in ranks.replace(" ", "").split(",")
    ]
    frame = _frame(regs, "entry20")
    assert frame.text == raw["deck"].splitlines()[0]
    assert frame.cards == tuple(listed) and len(listed) == 20


def test_a_frame_is_played_with_its_formats_only(regs: Regulations) -> None:
    assert parse_regulation("プロ+ストラテジー", regs).frame.id == "strategy"
    with pytest.raises(CompileError) as error:
        parse_regulation("std+strategy", regs)
    (problem,) = error.value.diagnostics
    assert (
        problem.message == "ストラテジー is played with プロ, マスター only (frame.yaml 第8.0版 ストラテジー)"
    )
    assert problem.location.col == 5
