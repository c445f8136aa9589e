"""The graveyard's top card (`core.graveyard_top`): where the edition says `owner_chooses`
(墓地の一番上のカードの扱い), the owner of a graveyard that received several cards at
once, or lost cards and keeps two or more, chooses its top card before the game goes on; the
top card is public in every player's view. Editions are picked by that data, never by id."""

from __future__ import annotations

import random

from blackpoker.runtime.engine import graveyard
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, distinct_values
from blackpoker.runtime.engine.transitions import GRAVEYARD, move_card, take_card
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.engine.zones import order
from blackpoker.runtime.play.agents import RandomAgent, decide
from blackpoker.runtime.play.search import SearchAgent
from blackpoker.runtime.rules.model import GraveyardTop
from editions_support import EDITIONS, compiled, formats, largest

CHOOSING = next(e for e in EDITIONS if largest(e).edition.core.graveyard_top is GraveyardTop.OWNER_CHOOSES)
ORDERED = next(e for e in EDITIONS if largest(e).edition.core.graveyard_top is GraveyardTop.LAST_IN)


def _questions(edition: str, games: int) -> tuple[int, int]:
    """Random games of the edition's largest format, invariants checked after every decision:
    (top-card questions asked, games played). Each question names distinct cards of its player's
    graveyard; the chosen one lies on top and both players' views show it as the top."""
    rules = largest(edition)
    asked = 0
    for seed in range(games):
        game = Game.new(rules, seed=seed, check=True)
        agents = (RandomAgent(seed), RandomAgent(seed + 1000))
        while not game.over and game.decisions < 3000:
            question = game.state.asked[0] if game.state.asked else None
            option = decide(game, agents)
            before = game.copy()
            game.apply(option)
            if question is None:
                continue
            asked += 1
            assert isinstance(option, Choice) and option.word == "top" and option.a is not None
            pile = game.state.players[question.player].graveyard
            cards = [c.a for c in question.options]
            assert len(cards) >= 2 and len(set(cards)) == len(cards)
            assert all(c in pile for c in cards)
            answered = before  # the answer alone, before the game goes on and covers the card
            graveyard.answer(answered, option)
            assert answered.state.players[question.player].graveyard[-1] == option.a
            for me in (0, 1):
                assert view(answered, me).players[question.player].top == option.a
    return asked, games


def test_owners_choose_top_cards_where_the_edition_says_so() -> None:
    asked, games = _questions(CHOOSING, 12)
    assert asked >= games  # damage, key cards and combat put several cards at once, every game


def test_nobody_is_asked_where_the_last_card_in_lies_on_top() -> None:
    asked, _ = _questions(ORDERED, 6)
    assert asked == 0
    game = Game.new(largest(ORDERED), seed=1)
    assert game.state.arrived is None and game.state.left is None  # nothing is even noted


def test_the_opponent_sees_the_top_card_and_nothing_below_it() -> None:
    rules = compiled(CHOOSING)[formats(CHOOSING)[0]]
    game = Game.new(rules, seed=5)
    agents = (RandomAgent(1), RandomAgent(2))
    while not game.over and not (game.state.players[0].graveyard[1:] and game.state.players[1].graveyard[1:]):
        game.apply(decide(game, agents))
    for me in (0, 1):
        them = view(game, me).players[1 - me]
        pile = game.state.players[1 - me].graveyard
        assert them.top == pile[-1] and them.graveyard == (pile[-1],)
        mine = game.state.players[me].graveyard
        assert (
            view(game, me).players[me].graveyard == tuple(mine) and view(game, me).players[me].top == mine[-1]
        )


def test_a_search_agent_plays_through_the_questions() -> None:
    """The search agent deals the cards it may not see anew (determinize); a question of the
    other player's stays answerable in every dealt game."""
    rules = compiled(CHOOSING)[formats(CHOOSING)[0]]
    game = Game.new(rules, seed=3, check=True)
    agents = (SearchAgent(rules, seed=3, budget=8), RandomAgent(4))
    rng = random.Random(0)
    seen = 0
    while not game.over and game.decisions < 600:
        if game.state.asked and game.to_move == 1:
            for _ in range(3):  # the other player's view deals the graveyard below the top anew
                dealt = view(game, 0).public
                assert dealt is not None
                sample = dealt.sample(rng)
                assert sample.legal_options() and all(
                    isinstance(o, Choice) and o.a in sample.state.players[1].graveyard
                    for o in sample.legal_options()
                )
            seen += 1
        game.apply(decide(game, agents))
    assert seen > 0


def test_a_settle_asks_only_the_owner_of_a_graveyard_with_a_choice() -> None:
    """One card in alone and none out asks nobody (the common settle: a request's key card put
    away); two values into a graveyard at once, or cards out of one that keeps two values, ask
    its owner, even while a single card comes into the other graveyard."""
    game = Game.new(compiled(CHOOSING)[formats(CHOOSING)[0]], seed=1)
    state = game.state
    assert not state.asked and not state.arrived and not state.left
    mine, theirs = state.players[0], state.players[1]
    low = mine.life[0]
    move_card(state, low, GRAVEYARD)
    assert not graveyard.settle(game) and state.asked == () and not state.arrived
    high = next(c for c in mine.life if order(c) != order(low))
    third = next(c for c in mine.life if order(c) not in (order(low), order(high)))
    for cid in (high, third, theirs.life[0]):
        move_card(state, cid, GRAVEYARD)
    assert graveyard.settle(game)
    assert [(q.player, {c.a for c in q.options}) for q in state.asked] == [(0, {high, third})]
    graveyard.answer(game, state.asked[0].options[0])
    assert state.asked == () and not state.arrived
    move_card(state, theirs.life[0], GRAVEYARD)
    take_card(state, low)
    assert graveyard.settle(game)
    assert [(q.player, [c.a for c in q.options]) for q in state.asked] == [
        (0, distinct_values(mine.graveyard))
    ]
