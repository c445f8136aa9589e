"""Games under a built-in regulation, and copies of its file to break, for the regulation tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import product
from pathlib import Path
from typing import Any

import yaml
from blackpoker.compiler import CompileError, compile
from blackpoker.compiler.documents.regulation import (
    Frame,
    Regulation,
    Regulations,
    additions,
    builtin_files,
    builtin_regulations,
    parse_regulation,
)
from blackpoker.compiler.pipeline import edition_source
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.invariants import check_invariants
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.play.regulation import Match, Setup
from editions_support import EDITIONS, environment, formats


def regulated_edition(frame: str) -> str:
    """The newest built-in edition whose regulations have the frame (by id): the commands take
    the newest edition when not told, whose regulations may have other frames or none, so a
    test of a regulation names the edition it is written for."""
    env = environment()
    found = ((e, env.edition_regulations(env.edition(e))) for e in EDITIONS)
    return next(e for e, r in found if r is not None and any(f.id == frame for f in r.frames))


def rules_under(regulation: Regulation) -> tuple[Rules, Setup]:
    """The rule set its games play (of its regulations' first edition) with what the regulation
    adds, and its set-up without deck files."""
    edition = regulation.regulations.editions[0]
    added, problems = additions(regulation, edition_source(edition))
    assert problems == []
    rules = Rules(added.widen(compile(edition, regulation.played_format)))
    return rules, Setup.of(regulation, ((), ()), added)


def game_under(regulation: Regulation, seed: int, rules: Rules | None = None) -> tuple[Game, Setup]:
    """The first game of a match under the regulation (of its first edition), its decks dealt
    from the seed; the rule set has what the regulation adds (`rules`: that of `rules_under`,
    shared by several games)."""
    made, setup = rules_under(regulation)
    match = Match(setup, random.Random(seed))
    game = Game.new(rules or made, seed, start=setup.start(match.decks, match.choose()), check=True)
    check_invariants(game)
    return game, setup


def file_data(regulations: Regulations) -> dict[str, Any]:
    """The data of a built-in regulations file, to change and write elsewhere."""
    (source,) = [p for p in builtin_files() if p.name == Path(regulations.doc.path).name]
    data: dict[str, Any] = yaml.safe_load(source.read_text(encoding="utf-8"))
    return data


def write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


TABLED = next(r for r in builtin_regulations() if r.tables and r.editions)  # the 2024-style regulations


def tabled_regulation(wanted: Callable[[Frame], bool]) -> str:
    """The first format + frame of TABLED that passes its tables and whose frame is `wanted`."""
    for fmt, frame in product(TABLED.formats, TABLED.frames):
        try:
            parse_regulation(f"{fmt.id}+{frame.id}", TABLED)
        except CompileError:
            continue
        if wanted(frame):
            return f"{fmt.id}+{frame.id}"
    raise AssertionError("no such regulation")


def two_decks(frame: Frame) -> bool:
    """A frame that deals each player two decks for a match of several games."""
    return frame.build == "random" and frame.match.decks == 2 and frame.match.games > 1


DECKS = sorted((Path(__file__).resolve().parents[1] / "examples" / "decks").glob("*.yaml"))


def built_frame() -> tuple[str, str, str]:
    """A frame whose players bring one deck file each, that the example decks fit: edition,
    format and the frame's id (found by trying, through the same check the terminal uses)."""
    from blackpoker.compiler.documents.deck import read_deck
    from blackpoker.runtime.play.regulation import checked_setup

    decks = [read_deck(path, path.name)[0] for path in DECKS[:2]]
    for edition in EDITIONS:
        try:
            regulations = environment().regulations(edition)
        except Exception:  # no regulations name it
            continue
        for frame in regulations.frames:
            if frame.needs_decks and frame.match.decks == 1:
                for played in frame.formats or formats(edition):
                    checked = checked_setup(
                        environment(), edition, frame.id, [[decks[0]], [decks[1]]], played
                    )
                    if checked.setup is not None:
                        return edition, played, frame.id
    raise AssertionError("no frame with one deck file each fits the example decks")
