"""Typed events: the engine records values, the log turns each kind into its own line."""

from __future__ import annotations

import dataclasses
import typing

from blackpoker.runtime.engine import events
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Pass
from blackpoker.runtime.engine.refs import Result
from blackpoker.runtime.play.log import event_json
from blackpoker.runtime.play.selfplay import play, random_agents
from engine_support import compiled, format_ids, reference_edition

SAMPLE = {
    "int": 1,
    "str": "x",
    "bool": True,
    "tuple[int, ...]": (0,),
    "Option": Pass(0),
    "Result": Result.DRAW,
}


def one_of_each() -> list[events.Event]:
    made = []
    for cls in typing.get_args(events.Event):
        values = {f.name: SAMPLE[str(f.type)] for f in dataclasses.fields(cls)}
        made.append(cls(**values))
    return made


def test_every_event_kind_has_its_own_log_line() -> None:
    names = [event_json(e)["event"] for e in one_of_each()]
    assert len(set(names)) == len(names) == len(typing.get_args(events.Event))


def test_a_game_records_typed_events_and_its_log_prints_them() -> None:
    edition = reference_edition()
    rules = compiled(edition, format_ids(edition)[-1])
    game = Game.new(rules, 3, events=[])
    play(game, random_agents(3), 400)
    kinds = {type(e) for e in game.events or ()}
    assert kinds <= set(typing.get_args(events.Event))
    assert {events.SetUp, events.Decided, events.Requested, events.Resolved} <= kinds
    decisions = [e for e in game.events or () if isinstance(e, events.Decided)]
    assert len(decisions) == game.decisions
    assert all(event_json(e)["player"] in ("p1", "p2") for e in decisions)
