"""A compiled rule set pickles (that is how worker processes and cluster workers receive it),
and the copy is equal to the original and plays exactly the same games."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest
import yaml
from blackpoker.compiler import RuleSet, compile
from blackpoker.compiler.emit_json import ruleset_json
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.play.loop import play
from blackpoker.runtime.play.selfplay import seated_agents
from blackpoker.runtime.rules.cards import full_deck
from editions_support import EDITIONS, formats

EDITION = EDITIONS[0]
FORMATS = formats(EDITION)
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "my-std.yaml"


def _round_trip(rules: RuleSet) -> RuleSet:
    copy: RuleSet = pickle.loads(pickle.dumps(rules))
    assert copy is not rules
    return copy


def _final_hash(rules: RuleSet, seed: int) -> tuple[str, int]:
    game = Game.new(rules, seed)
    play(game, seated_agents(("greedy", "random"), rules, seed))
    return game.state_hash(), game.decisions


def _assert_same(rules: RuleSet, copy: RuleSet) -> None:
    assert copy == rules
    assert ruleset_json(copy) == ruleset_json(rules)
    # Not part of ==: the parsed programs and the lookup tables, rebuilt on arrival.
    assert [a.steps for a in copy.actions] == [a.steps for a in rules.actions]
    assert all(copy.action(a.id) is a for a in copy.actions)
    assert all(copy.character(c.id) is c for c in copy.characters)
    for seed in range(3):
        assert _final_hash(copy, seed) == _final_hash(rules, seed)


@pytest.mark.parametrize("format_id", FORMATS)
def test_a_pickled_format_is_equal_and_plays_the_same_games(format_id: str) -> None:
    rules = compile(EDITION, format_id)
    _assert_same(rules, _round_trip(rules))


def test_a_pickled_local_rule_is_equal_and_plays_the_same_games() -> None:
    example = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    rules = compile(example["edition"], example["name"], EXAMPLE)
    _assert_same(rules, _round_trip(rules))


def test_a_pickled_matcher_finds_the_same_key_cards() -> None:
    rules = compile(EDITION, FORMATS[-1])
    deck, rng = full_deck(), random.Random(1)
    hands = [rng.sample(deck, 6) for _ in range(200)]
    keyed = [a for a in rules.actions if a.matcher is not None]
    assert keyed
    copies = [a for a in _round_trip(rules).actions if a.matcher is not None]
    for action, copy in zip(keyed, copies, strict=True):
        assert copy.matcher is not None and copy.matcher is not action.matcher
        assert copy.matcher.spec == action.matcher.spec
        assert [copy.matcher.ways(h) for h in hands] == [action.matcher.ways(h) for h in hands]


def test_a_rules_context_travels_as_its_rule_set_and_arrives_with_empty_caches() -> None:
    rules = Rules(compile(EDITION, FORMATS[0]))
    play(Game.new(rules, 1), seated_agents(("random", "random"), rules.ruleset, 1))
    assert len(rules.hand_plans) > 0  # the games filled the caches
    copy: Rules = pickle.loads(pickle.dumps(rules))
    assert copy.ruleset == rules.ruleset
    assert len(copy.hand_plans) == 0 and len(copy.value_ways) == 0
    # What travels holds no cache: the played context pickles as a fresh one of the same rule set.
    assert pickle.dumps(rules) == pickle.dumps(Rules(rules.ruleset))
