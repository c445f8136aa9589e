"""The options a game keeps up to date across decisions (runtime/engine/kept.py) are, at every
decision of seeded games of every built-in rule set, the ones a search from scratch finds: a
new rules context (empty caches) and a new game (nothing kept) on a copy of the state."""

from __future__ import annotations

import pytest
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.option_search import request_options
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.play.agents import decide
from blackpoker.runtime.play.selfplay import random_agents
from editions_support import EDITIONS, environment, formats

RULE_SETS = [
    (edition, format_id)
    for edition in EDITIONS
    for format_id in [*formats(edition), *([EXTRA_FORMAT.id] if environment().extras(edition) else [])]
]
SEEDS = (1, 2)
TRIED = 7  # every TRIED-th decision, a pushed option and its pop are checked too


def from_scratch(game: Game) -> tuple[object, ...]:
    return Game(Rules(game.rules.ruleset), game.state.copy(), check=False).legal_options()


@pytest.mark.parametrize(("edition", "format_id"), RULE_SETS)
def test_kept_options_equal_a_search_from_scratch_at_every_decision(edition: str, format_id: str) -> None:
    rules = Rules(environment().compile(edition, format_id))
    reused = carried = 0
    for seed in SEEDS:
        game = Game.new(rules, seed, check=False)
        agents = random_agents(seed)
        while not game.over:
            state = game.state
            chance = state.chance
            waiting = state.asked or (state.resolving and state.resolving[-1].waiting is not None)
            searching = chance is not None and not waiting  # the chance holder's requests
            if searching:
                assert chance is not None
                kept = game.kept[chance]
                reused += kept.stamp == game.touched
                carried += kept.cards is not None and kept.cards != game.state.players[chance].hand
            options = game.legal_options()
            assert options == from_scratch(game), f"decision {game.decisions} of seed {seed}"
            if game.decisions % TRIED == 0:  # the search agent's push / pop leave nothing stale
                game.push(options[-1])
                assert game.over or game.legal_options() == from_scratch(game)
                game.pop()
                if searching:  # searched again, through what the game keeps
                    assert chance is not None
                    assert request_options(game, chance) == options
            game.apply(decide(game, agents))
    # both ways of keeping were taken: options reused after passes, plans carried to a new hand
    assert reused > 0 and carried > 0
