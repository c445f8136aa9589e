"""The frames of act-frame.yaml (a regulations file no edition plays yet): every frame its actions
name is converted with exactly those actions; a frame the engine cannot play is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from bad_input_support import invoke, refused
from blackpoker.compiler.documents.regulation import (
    Regulations,
    builtin_regulations,
    parse_regulation,
    regulations_for,
)
from blackpoker.runtime.play.regulation import start_problems
from editions_support import EDITIONS, environment, read_upstream
from regulation_support import file_data, write

ACT_FRAME = read_upstream("act-frame.yaml")


def _frames_of(text: str) -> list[str]:
    return [line.removeprefix("・") for line in text.splitlines()]


@pytest.fixture(scope="module")
def regs() -> Regulations:
    """The built-in regulations converted from act-frame.yaml: those whose notation cites it."""
    (found,) = [r for r in builtin_regulations() if r.notation.startswith(f"{ACT_FRAME['data']['id']}.yaml")]
    return found


def _upstream_frames(regs: Regulations) -> dict[str, list[str]]:
    """Each frame act-frame.yaml names, with the ids of its frame actions: those some frame the
    engine can play has too (the others belong to the trumps of the frame it cannot play)."""
    closed = {frame.name for frame in regs.frames if frame.unplayable}
    frames: dict[str, list[str]] = {}
    for group in ACT_FRAME["actList"]:
        for act in group["acts"]:
            names = _frames_of(act["frame"])
            for name in names:
                frames.setdefault(name, [])
                if set(names) - closed:
                    frames[name].append(act["actId"])
    return frames


def test_every_frame_act_frame_names_is_converted(regs: Regulations) -> None:
    upstream = _upstream_frames(regs)
    assert [frame.name for frame in regs.frames] == list(upstream)
    for frame in regs.frames:
        assert list(frame.actions) == upstream[frame.name]


def test_no_edition_plays_them_and_they_are_found_by_their_id(regs: Regulations) -> None:
    assert regs.editions == ()
    assert regulations_for(regs.id) is not None and regulations_for(regs.id).id == regs.id
    assert not any(regs.id == edition for edition in EDITIONS)


def test_regulation_check_prints_a_frame_and_why_it_cannot_be_played(regs: Regulations) -> None:
    (closed,) = [frame for frame in regs.frames if frame.unplayable]
    text = f"{regs.formats[-1].id}+{closed.id}"
    result = invoke("regulation", "check", text, "--edition", regs.id)
    assert result.exit_code == 0, result.output
    assert f"  not playable yet: {closed.unplayable}" in result.stdout.splitlines()
    assert [f"  adds: {a}" for a in closed.actions] == [
        line for line in result.stdout.splitlines() if line.startswith("  adds: ")
    ]


def test_a_frame_the_engine_cannot_play_is_refused_at_its_place(regs: Regulations) -> None:
    (closed,) = [frame for frame in regs.frames if frame.unplayable]
    chosen = parse_regulation(f"{regs.formats[-1].id}+{closed.id}", regs)
    edition = environment().edition(EDITIONS[0]).edition
    (problem,) = start_problems(chosen, edition)
    index = [frame.id for frame in regs.frames].index(closed.id)
    line = regs.doc.locate(("frames", index, "unplayable")).line
    message = f"{closed.name} cannot be played yet: {closed.unplayable}"
    assert (problem.location.line, problem.message) == (line, message)
    playable = next(frame for frame in regs.frames if not frame.unplayable)
    assert start_problems(parse_regulation(f"{regs.formats[-1].id}+{playable.id}", regs), edition) == []


def test_an_empty_unplayable_reason_is_refused(tmp_path: Path, regs: Regulations) -> None:
    data = file_data(regs)
    data["frames"][0]["unplayable"] = ""
    path = write(tmp_path / "frames.yaml", data)
    result = refused(invoke("validate", path))
    assert f"{path}:" in result.stderr and "unplayable" in result.stderr
