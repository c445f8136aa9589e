"""push / pop: a decision taken back leaves the game exactly as it was, for search agents."""

from __future__ import annotations

import random

import pytest
from blackpoker.runtime.engine.errors import EngineError
from blackpoker.runtime.engine.game import Game
from engine_support import compiled, format_ids, reference_edition

EDITION = reference_edition()
LARGEST = compiled(EDITION, format_ids(EDITION)[-1])  # every action in play


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_popping_every_push_restores_the_game(seed: int) -> None:
    game = Game.new(LARGEST, seed, events=[])
    chooser = random.Random(seed)
    for _ in range(40):  # somewhere into the game
        options = game.legal_options()
        game.apply(options[chooser.randrange(len(options))])
    before = (game.state_hash(), game.decisions, game.legal_options(), list(game.events or ()))
    pushed = []
    while len(pushed) < 30 and not game.over:
        options = game.legal_options()
        pushed.append(options[chooser.randrange(len(options))])
        game.push(pushed[-1])
    after_pushes = game.state_hash()
    for _ in pushed:
        game.pop()
    assert (game.state_hash(), game.decisions, game.legal_options(), list(game.events or ())) == before
    for option in pushed:  # the same decisions again give the same game: the generator was restored
        game.apply(option)
    assert game.state_hash() == after_pushes


def test_pop_without_a_push_is_an_engine_error() -> None:
    with pytest.raises(EngineError, match="no pushed decision"):
        Game.new(LARGEST, 1).pop()
