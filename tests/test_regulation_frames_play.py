"""Games under a frame of frame.yaml (the frames that bring their own start): the pack is the
shuffled deck's top cards, the presets stand on the field, a built frame without deck files
plays the whole set, and a frame's start decisions come first. Frames are found in the
data by what they do, never by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from bad_input_support import invoke, refused
from blackpoker.compiler.documents.regulation import (
    Frame,
    Regulation,
    Regulations,
    builtin_regulations,
    parse_regulation,
)
from blackpoker.runtime.engine.options import Choice
from blackpoker.runtime.rules.cards import full_deck
from editions_support import EDITIONS, environment
from regulation_support import file_data, game_under, write

FRAMED = [r for r in builtin_regulations() if r.editions and any(f.set_aside for f in r.frames)]


@pytest.fixture(scope="module", params=FRAMED, ids=lambda r: r.id)
def regs(request: pytest.FixtureRequest) -> Regulations:
    found: Regulations = request.param
    return found


def _regulation(regs: Regulations, frame: Frame) -> Regulation:
    fmt = next(f for f in regs.formats if frame.formats is None or f.id in frame.formats)
    return parse_regulation(f"{fmt.id}+{frame.id}", regs)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_pack_is_set_aside_and_the_presets_stand(regs: Regulations, seed: int) -> None:
    frame = next(f for f in regs.frames if f.set_aside and not f.unplayable)
    assert frame.default_deck is not None  # played here without deck files: the whole set
    game, _ = game_under(_regulation(regs, frame), seed)
    for player in game.state.players:
        for zone, count in frame.set_aside:
            assert len(player.zones[zone]) == count
        types = [u.kind.type for u in player.field]
        assert sorted(types) == sorted(frame.preset)
        assert all(u.charged for u in player.field)
        held = (
            len(player.life)
            + len(player.hand)
            + len(player.graveyard)
            + sum(len(u.cards) for u in player.field)
        )
        assert held + sum(len(z) for z in player.zones.values()) == len(full_deck())
    first = game_under(_regulation(regs, frame), seed)[0].state.players[0].zones[frame.set_aside[0][0]]
    other = game_under(_regulation(regs, frame), seed + 10)[0].state.players[0].zones[frame.set_aside[0][0]]
    assert first != other  # the top of a shuffled deck


def test_a_fixed_frame_places_its_presets() -> None:
    """Each frame of fixed cards with presets, of the regulations every built-in edition plays
    (a based edition's inherited and edited ones too): the presets stand, the rest of the
    set stays outside the game."""
    env = environment()
    played = {r.id: r for e in EDITIONS if (r := env.edition_regulations(env.edition(e))) is not None}
    fixed = [(regs, f) for regs in played.values() for f in regs.frames if f.cards and f.preset]
    assert fixed
    for regs, frame in fixed:
        game, _ = game_under(_regulation(regs, frame), 3)
        for player in game.state.players:
            assert len(player.field) == len(frame.preset), frame.id
            assert len(player.outside) == len(full_deck()) - len(frame.cards or ()), frame.id


def test_simulate_plays_every_frame_given_with_format(regs: Regulations) -> None:
    (edition,) = regs.editions
    played = [f for f in regs.frames if f.set_aside and not f.unplayable]
    assert any(f.setup for f in played)  # a frame whose start has decisions
    for frame in played:
        fmt = next(f.id for f in regs.formats if frame.formats is None or f.id in frame.formats)
        result = invoke(
            "simulate", "--edition", edition, "--format", fmt, "--regulation", frame.id, "-n", "20", "--check"
        )
        assert result.exit_code == 0, result.output
        names = {a.name for a in regs.actions if a.id in frame.actions}
        assert all(name in result.stdout for name in names)
        assert f"{edition} {fmt}+{frame.id} " in result.stdout


def test_a_frames_start_decisions_come_before_the_set_aside_cards(regs: Regulations) -> None:
    """Each player in turn, p1 first, makes the frame's set-up decisions on the whole shuffled
    deck; the pack and the presets are taken from what is left, then the hand is drawn up to
    its size (cards chosen into it stay: ストラテジー's opening hand)."""
    frames = [f for f in regs.frames if f.setup and f.set_aside]
    assert len(frames) > 1
    hand_size = 0
    for frame in frames:
        game, _ = game_under(_regulation(regs, frame), 3)
        hand_size = game.rules.edition.core.hand_size
        deciders = []
        chosen: list[list[int]] = [[], []]
        while game.state.resolving:
            option = game.legal_options()[-1]  # the last card offered, not the deck's top
            assert isinstance(option, Choice) and isinstance(option.a, int)
            deciders.append(option.player)
            chosen[option.player].append(option.a)
            game.apply(option)
        assert deciders == sorted(deciders) and set(deciders) == {0, 1}
        for index, player in enumerate(game.state.players):
            set_aside = {c for zone, _ in frame.set_aside for c in player.zones[zone]}
            kept = {c for cards in player.zones.values() for c in cards} - set_aside
            assert set(chosen[index]) <= set(player.hand) | kept
            assert len(player.hand) == hand_size + (index == game.state.turn_player)
            for zone, count in frame.set_aside:
                assert len(player.zones[zone]) == count
            assert len(player.field) == len(frame.preset)
        assert game.state.start is None and not game.over
    assert hand_size > 0


def test_a_frames_set_aside_names_a_zone_of_the_file(regs: Regulations, tmp_path: Path) -> None:
    data = file_data(regs)
    frame = next(f for f in data["frames"] if "set_aside" in f)
    frame["set_aside"][0]["zone"] = "nowhere"
    frame["default_deck"] = "half"
    path = write(tmp_path / "frames.yaml", data)
    result = refused(invoke("validate", path))
    assert "default_deck" in result.stderr and "Traceback" not in result.output
    del frame["default_deck"]
    write(path, data)
    result = refused(invoke("validate", path))
    assert f"{path}:" in result.stderr and "set_aside: no zone 'nowhere' in zones" in result.stderr
