"""Typed events: the engine records values; the one printer turns each kind into its own log
line, and into the words of a scenario and of the table."""

from __future__ import annotations

import dataclasses
import typing

from blackpoker.runtime.engine import events
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Pass
from blackpoker.runtime.engine.refs import Result
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.chronicle import Chronicle
from blackpoker.runtime.play.event_text import SCENARIO, in_words, record
from blackpoker.runtime.play.labels import labels
from blackpoker.runtime.play.loop import play
from blackpoker.runtime.play.selfplay import random_agents
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
    names = [record(e)["event"] for e in one_of_each()]
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
    assert all(record(e)["player"] in ("p1", "p2") for e in decisions)


def test_every_event_is_said_from_its_log_record_in_each_readers_words() -> None:
    """A scenario names every event but a decision (its commands are the decisions); the
    table says a request only when an effect made it, and never the result."""
    edition = reference_edition()
    rules = compiled(edition, format_ids(edition)[-1])
    game = Game.new(rules, 3, events=[])
    play(game, random_agents(3), 400)
    for event in one_of_each() + list(game.events or ()):
        if not isinstance(event, events.Decided) and hasattr(event, "action"):
            event = dataclasses.replace(event, action=rules.actions[0].id)  # type: ignore[type-var]
        line = record(event)
        scenario, told = (
            in_words(game.rules, event, SCENARIO),
            in_words(game.rules, event, labels()["events"]),
        )
        assert (scenario is None) == isinstance(event, events.Decided), event
        made = line["event"] == "request" and not line.get("indirect")  # a player's: said as decided
        assert (told is None) == (made or isinstance(event, events.Decided | events.GameOver)), event
        if "action" in line:
            name = rules.action(line["action"]).name
            assert scenario is not None and name in scenario
            assert told is None or name in told


def test_a_fights_damage_and_deaths_are_events_the_table_reads() -> None:
    """Damage judgment (ダメージ判定) records the damage a player takes and each character it
    sends to the graveyard (a face-up one by its cards); a person reads them in the log."""
    edition = reference_edition()
    rules = compiled(edition, format_ids(edition)[-1])
    damage, died = 0, 0
    for seed in range(20):
        played = Game.new(rules, seed, events=[])
        play(played, random_agents(seed), 3000)
        game = Game.new(rules, seed, events=[])  # again, decision by decision
        chronicle = Chronicle()
        for decided in [e for e in played.events or () if isinstance(e, events.Decided)]:
            fields = [{c for u in p.field for c in u.cards} for p in game.state.players]
            told = len(game.events or ())
            game.apply(game.legal_options()[decided.index])
            chronicle.follow(game)
            said = "\n".join(chronicle.lines)
            for event in (game.events or ())[told:]:
                if isinstance(event, events.Damaged):
                    damage += 1
                    assert event.amount > 0 and f"p{event.player + 1}に{event.amount}点のダメージ" in said
                elif isinstance(event, events.Died) and event.cards:
                    died += 1
                    assert set(event.cards) <= fields[event.player], event  # it was on the field
                    cards = " ".join(label(c) for c in event.cards)
                    assert f"p{event.player + 1}の{cards}が破壊された" in said
        if damage and died:
            break
    assert damage and died, (damage, died)
