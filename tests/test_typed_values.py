"""Cards, suits, ranks, results, zones and answer words are values inside the compiled program
and the engine, and the parser reads a field by its type; text is made from them only at the
edges (the compiled JSON, logs, reports), as it was printed before."""

from __future__ import annotations

import json

import pytest
from blackpoker.compiler import compile
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.compiler.emit_json import ruleset_json
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.parse import parse_steps
from blackpoker.runtime.engine.events import GameOver
from blackpoker.runtime.engine.flow import _win_check
from blackpoker.runtime.engine.game import Game, _answers_data, snapshot
from blackpoker.runtime.engine.options import Choice
from blackpoker.runtime.engine.refs import Result, result_name, result_named
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.event_text import record
from blackpoker.runtime.play.notation import AnswerCommand, parse_command
from blackpoker.runtime.rules.cards import Card, Rank, Suit
from blackpoker.runtime.rules.enums import Answer, Destination, Zone
from blackpoker.runtime.rules.program import (
    Choose,
    DigUntil,
    FaceUp,
    Move,
    Orderer,
    Pile,
    Player,
    PlayerName,
    Request,
    walk,
    walk_steps,
    written,
)
from editions_support import EDITIONS


def test_a_rank_reads_and_prints_as_the_data_writes_it() -> None:
    words = ["Joker", "A", *map(str, range(2, 11)), "J", "Q", "K"]
    assert [str(Rank.parse(w)) for w in words] == words
    assert [int(Rank.parse(w)) for w in words] == list(range(14))
    assert Rank.parse("A") == Card.parse("♠A").rank  # an int: compared with a card's rank as it is
    for bad in ("1", "a", "11", ""):
        with pytest.raises(ValueError, match="not a rank"):
            Rank.parse(bad)


def test_results_are_typed_and_print_as_logs_always_did() -> None:
    assert [result_name(r) for r in Result] == ["p1", "p2", "draw"]
    assert all(result_named(result_name(r)) is r for r in Result) and result_named("p3") is None
    assert [Result.won_by(seat).winner for seat in (0, 1)] == [0, 1] and Result.DRAW.winner is None
    assert all(Result)  # a win of seat 0 is still a result


def test_both_players_out_of_life_is_a_draw_printed_as_draw() -> None:
    game = Game.new(Rules(compile(EDITIONS[0], "lite")), 1, events=[])
    for side in game.state.players:
        side.life.clear()
    _win_check(game)
    assert game.result is Result.DRAW
    assert snapshot(game.state)["result"] == "draw"
    assert game.events is not None and game.events[-1] == GameOver(Result.DRAW)
    assert record(game.events[-1]) == {"event": "result", "result": "draw"}


def test_the_program_holds_cards_and_ranks_and_the_json_prints_them() -> None:
    env = Environment()
    extra = next(e for e in EDITIONS if env.builtin_extras(e))
    ruleset = env.compile(extra, EXTRA_FORMAT.id)
    faces = [
        n for a in ruleset.actions if a.requires for _, n in walk(a.requires.cond) if isinstance(n, FaceUp)
    ]
    assert faces and all(isinstance(f.card, Card) for f in faces)
    assert {type(t.card) for t in ruleset.trumps} == {Card}
    digs = [n for a in ruleset.actions for _, n in walk_steps(a.steps) if isinstance(n, DigUntil)]
    assert digs and all(isinstance(r, Rank) for d in digs for r in d.ranks)
    assert written(digs[0])["dig_until"]["ranks"] == [str(r) for r in digs[0].ranks]
    data = ruleset_json(ruleset)
    printed = json.dumps(data, ensure_ascii=False)
    assert "Card(" not in printed and "Suit." not in printed and "Rank." not in printed
    assert {t["card"] for t in data["trumps"]} == {str(t.card) for t in ruleset.trumps}
    suited = [c for c in ruleset.characters if c.suits]
    assert suited and all(isinstance(s, Suit) for c in suited for s in c.suits)


def test_the_parser_reads_each_field_by_its_type() -> None:
    """A field's reader is found from its type (not its annotation's text): an optional field
    by its type's, a union by the union's, a shorthand by the data's shape."""
    move, request, short = parse_steps(
        [
            {"move": {"cards": "key", "to": "hand", "order": "owners"}},
            {"move": {"cards": "key", "to": "hand", "order": "opponent"}},
            {"request": "x"},
        ]
    )
    assert isinstance(move, Move) and move.order is Orderer.OWNERS
    assert isinstance(request, Move) and request.order == Player(name=PlayerName.OPPONENT)
    assert isinstance(short, Request) and short.short and short.action == "x"
    assert written(short) == {"request": "x"}  # the shorthand is how it is written, not a field


def test_answer_words_are_an_enum_and_a_label_stays_the_rule_sets_word() -> None:
    assert [str(a) for a in Answer] == [a.value for a in Answer]
    done = parse_command("p1: done")
    assert isinstance(done, AnswerCommand) and done.word is Answer.DONE
    label_ = parse_command("p1: lean")  # a choose_one label: the rule set's word, not the engine's
    assert isinstance(label_, AnswerCommand) and label_.word == "lean" and not isinstance(label_.word, Answer)
    top = Choice(0, Answer.TOP, 5)
    assert str(top) == f"top {label(5)}" and str(Choice(0, Answer.DONE)) == "done"
    assert type(str(Choice(0, Answer.DONE))) is str
    # a waiting prompt is hashed as the text it always was
    assert _answers_data((top,)) == "(Choice(player=0, word='top', a=5, b=None, target=None),)"


def test_a_program_names_built_in_zones_by_enum_and_declared_ones_by_id() -> None:
    choose, move, to_declared = parse_steps(
        [
            {"choose": {"player": "you", "from": "graveyard", "as": "x"}},
            {"move": {"cards": {"zone": "hand", "player": "you"}, "to": "life_bottom"}},
            {"move": {"cards": "key", "to": "declared"}},  # a zone an edition declares, by its id
        ]
    )
    assert isinstance(choose, Choose) and choose.zone is Zone.GRAVEYARD
    assert isinstance(move, Move) and move.to is Destination.LIFE_BOTTOM
    assert isinstance(move.cards, Pile) and move.cards.zone is Zone.HAND
    assert isinstance(to_declared, Move) and to_declared.to == "declared"
    assert not isinstance(to_declared.to, Destination)
    assert written(move) == {"move": {"cards": {"zone": "hand", "player": "you"}, "to": "life_bottom"}}
    ruleset = compile(EDITIONS[0], "lite")
    assert all(z is Zone.HAND for a in ruleset.actions for z in a.key_from)
    assert all(a.key_from == ("hand",) for a in ruleset.actions)  # as the compiled JSON prints it
