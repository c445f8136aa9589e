"""The frames of the newest frame list (act-frame.yaml, its newest copy): every frame its actions
name is converted with exactly its frame actions, played by the edition of the list, with the
frame that plays the extra list as the extra format; a frame the engine cannot play is refused."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from bad_input_support import invoke, refused
from blackpoker.compiler.documents.extra import EXTRA_FORMAT, TRUMP_ZONE
from blackpoker.compiler.documents.regulation import (
    Regulations,
    builtin_regulations,
    parse_regulation,
    regulations_for,
)
from blackpoker.compiler.upstream.vocabulary import vocabulary
from blackpoker.runtime.engine.options import Choice
from blackpoker.runtime.play.regulation import start_problems
from editions_support import environment, newest_upstream, read_upstream
from regulation_support import file_data, game_under, write

WORDS = vocabulary()


def _act_frame() -> dict[str, Any]:
    names = newest_upstream("trumpList")
    if not names:
        pytest.skip("the shared upstream data is not beside this checkout")
    return read_upstream(names[0])


def _frames_of(text: str) -> list[str]:
    return [line.removeprefix("・") for line in text.splitlines()]


@pytest.fixture(scope="module")
def regs() -> Regulations:
    """The built-in regulations converted from act-frame.yaml: those whose notation cites it."""
    cited = f"{_act_frame()['data']['id']}.yaml"
    (found,) = [r for r in builtin_regulations() if r.notation.startswith(cited)]
    return found


def _upstream_frames() -> dict[str, list[str]]:
    """Each frame act-frame.yaml names, with the ids of its frame actions (not the trumps'
    groups: those are the extra list's)."""
    upstream = _act_frame()
    trumps = {g["type"] for g in upstream["trumpList"]} | {WORDS.trump_operations}
    frames: dict[str, list[str]] = {}
    for group in upstream["actList"]:
        for act in group["acts"]:
            for name in _frames_of(act["frame"]):
                frames.setdefault(name, [])
                if group["type"] not in trumps:
                    frames[name].append(act["actId"])
    return frames


def test_every_frame_act_frame_names_is_converted(regs: Regulations) -> None:
    upstream = _upstream_frames()
    assert [frame.name for frame in regs.frames] == list(upstream)
    for frame in regs.frames:
        assert list(frame.actions) == upstream[frame.name]
        assert frame.unplayable is None


def test_the_list_s_edition_plays_them_and_they_are_found_by_their_id(regs: Regulations) -> None:
    (edition,) = regs.editions
    assert environment().regulations(edition) is regs or environment().regulations(edition).id == regs.id
    assert regulations_for(regs.id).id == regs.id
    (extra,) = [f for f in regs.frames if f.extra]
    assert parse_regulation(f"{regs.formats[-1].id}+{extra.id}", regs).played_format == EXTRA_FORMAT.id


def test_the_extra_frame_deals_trumps_a_chosen_hand_a_rare_card_and_a_pack(regs: Regulations) -> None:
    """Its set-up chooses each part (the trumps, one of them turned face up, the hand, the rare
    card), then the pack is set aside, the presets placed and the hand drawn up to its size."""
    (frame,) = [f for f in regs.frames if f.extra]
    chosen = parse_regulation(f"{regs.formats[-1].id}+{frame.id}", regs)
    game, _ = game_under(chosen, 3)
    rng = random.Random(3)
    while game.state.turn == 1 and game.state.chance is None:
        options = game.legal_options()
        assert all(isinstance(o, Choice) for o in options)
        game.apply(rng.choice(options))
    zones = {name: count for name, count in frame.set_aside}
    counts = {part.part.zone: part.count for part in frame.scenario}
    for index, player in enumerate(game.state.players):
        trumps = player.zones[TRUMP_ZONE.id]
        assert len(trumps) == counts[TRUMP_ZONE.id]
        shown = next(p.face_up for p in frame.scenario if p.face_up)
        assert len([c for c in trumps if c in player.face_up]) == shown
        assert all(len(player.zones[zone]) == count for zone, count in zones.items())
        rare = next(p.part.zone for p in frame.scenario if p.part.zone not in ("hand", TRUMP_ZONE.id))
        assert len(player.zones[rare]) == counts[rare]
        drawn = 1 if index == game.state.turn_player else 0  # the first player draws one more
        assert len(player.hand) == game.rules.edition.core.hand_size + drawn
        assert len(player.field) == len(frame.preset)


def _unplayable(tmp_path: Path, regs: Regulations, reason: str) -> tuple[Path, Regulations]:
    data = file_data(regs)
    data["frames"][0]["unplayable"] = reason
    path = write(tmp_path / "frames.yaml", data)
    return path, regulations_for(str(path))


def test_regulation_check_prints_why_a_frame_cannot_be_played(tmp_path: Path, regs: Regulations) -> None:
    path, written = _unplayable(tmp_path, regs, "no engine yet")
    frame = written.frames[0]
    played = frame.formats[0] if frame.formats else written.formats[0].id
    result = invoke("regulation", "check", f"{played}+{frame.id}", "--edition", path)
    assert result.exit_code == 0, result.output
    assert "  not playable yet: no engine yet" in result.stdout.splitlines()


def test_a_frame_the_engine_cannot_play_is_refused_at_its_place(tmp_path: Path, regs: Regulations) -> None:
    _, written = _unplayable(tmp_path, regs, "no engine yet")
    frame = written.frames[0]
    played = frame.formats[0] if frame.formats else written.formats[0].id
    edition = environment().edition(regs.editions[0]).edition
    (problem,) = start_problems(parse_regulation(f"{played}+{frame.id}", written), edition)
    line = written.doc.locate(("frames", 0, "unplayable")).line
    reason = f"{frame.name} cannot be played yet: no engine yet"
    assert (problem.location.line, problem.message) == (line, reason)
    assert start_problems(parse_regulation(f"{played}+{frame.id}", regs), edition) == []


def test_an_empty_unplayable_reason_is_refused(tmp_path: Path, regs: Regulations) -> None:
    data = file_data(regs)
    data["frames"][0]["unplayable"] = ""
    path = write(tmp_path / "frames.yaml", data)
    result = refused(invoke("validate", path))
    assert f"{path}:" in result.stderr and "unplayable" in result.stderr
