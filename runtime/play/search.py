"""The search agent: information-set Monte Carlo tree search from its player's own view.

Each iteration deals the cards the player may not see anew (engine/determinize.py, through
the view's `public` handle), picks one of the root options by UCB1, plays it in the dealt game,
lets both players go on with the greedy agent for a few decisions, and scores the position it
reaches with a value fitted on played games (features.py). The option tried most often is
chosen. The budget counts iterations, so a choice is the same on any machine; the agent's
seeded generator deals and breaks ties, so it is deterministic for a seed. It reads no action:
the engine plays the programs, so every edition, format and local rule works.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option, Pass
from blackpoker.runtime.engine.view import View, hidden_from, masked_options
from blackpoker.runtime.play.agents import idle
from blackpoker.runtime.play.features import WEIGHTS, fitted_value
from blackpoker.runtime.play.greedy import GreedyAgent
from blackpoker.runtime.rules.model import RuleSet

DEFAULT_BUDGET = 32  # iterations per decision: see docs/simulate.md's ladder for why
HORIZON = 12  # decisions played on after the root option, at most, before the position is scored
EXPLORE = 0.5  # UCB1's exploration weight, for values in [0, 1]
WIDTH = 2  # options tried per iteration of the budget: the greedy agent's best first (see `_width`)
PRIOR = 0.02  # the greedy agent's score, per life card, added to an option's mean value
CHECK = 8  # iterations between checks for a settled choice (see `_settled`)
LEAD = 0.05  # the lead, in value, of an option that settles the choice at a check


class SearchAgent:
    reads_view = True

    def __init__(
        self,
        rules: RuleSet,
        seed: int,
        budget: int = DEFAULT_BUDGET,
        weights: Sequence[float] = WEIGHTS,
        seconds: float | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        # a decision's time, past which the iterations left are not run (`serve` caps it;
        # a choice cut short depends on the machine's speed, so only `serve` sets it)
        self.seconds = seconds
        self.weights = weights  # of the value of the positions it reaches (features.py)
        self.name = f"search:{budget}:{seed}"
        self.greedy = GreedyAgent(rules, seed)  # the prior, and the answers inside effects ahead

    def choose(self, view: View | None, options: Sequence[Option]) -> Option:
        assert view is not None and view.public is not None
        if len(options) == 1:
            return options[0]
        prior = [self.greedy.score(view, o) for o in options]
        # an idle pass comes back to the same decision: a look-ahead cannot tell it from
        # waiting forever, so it is tried only when nothing else may be done
        order = sorted((i for i, o in enumerate(options) if not idle(view, o)), key=lambda i: -prior[i])
        tried = order[: _width(self.budget, len(options))]
        if len(tried) == 1:  # the one option besides waiting: no look-ahead tells it from itself
            return options[tried[0]]
        visits = dict.fromkeys(tried, 0)
        wins = dict.fromkeys(tried, 0.0)
        # the j-th visit of every option plays in the j-th deal, with the deal's own options
        deals: list[tuple[Game, dict[Option, Option]]] = []
        stop = None if self.seconds is None else time.monotonic() + self.seconds
        for n in range(self.budget):
            if stop is not None and n >= len(tried) and time.monotonic() > stop:
                break
            if n >= len(tried) and n % CHECK == 0 and _settled(visits, wins, prior):
                break
            i = tried[n] if n < len(tried) else _ucb(visits, wins, n)
            if visits[i] == len(deals):
                dealt = view.public.sample(self.rng)
                deals.append((dealt, _same_options(dealt, view.me)))
            deal, same = deals[visits[i]]
            visits[i] += 1
            found = same.get(options[i])
            if found is not None:  # else not legal in this deal: worth nothing there
                game = _trial(deal)
                game.apply(found)
                wins[i] += self._settle(game, view.me)
        return options[max(tried, key=lambda i: _score(visits, wins, prior, i))]

    def _settle(self, game: Game, me: int) -> float:
        """Play on until the option has taken effect: every player passes and effects ask the
        greedy agent, until `me` holds chance again over an empty stage or the turn has passed
        (at most HORIZON decisions); the value of the position then for `me`."""
        turn = game.state.turn
        for _ in range(HORIZON):
            state = game.state
            if state.result is not None:
                break
            waiting = state.asked or (state.resolving[-1].waiting if state.resolving else None)
            if waiting:  # an effect's decision, or a question of the rules (a graveyard's top card)
                game.apply(self.greedy.answer(game))
                continue
            if not state.stage and not state.resolving and (state.chance == me or state.turn != turn):
                break
            assert state.chance is not None
            game.apply(Pass(state.chance))
        return fitted_value(game.state, me, self.weights)


def _width(budget: int, options: int) -> int:
    """How many of the best options by the prior a budget tries: each at least a few times."""
    return max(2, min(options, budget // WIDTH))


def _score(visits: dict[int, int], wins: dict[int, float], prior: Sequence[float], i: int) -> float:
    """An option's mean value over the deals it was tried in, plus a little of its prior."""
    return wins[i] / max(visits[i], 1) + PRIOR * prior[i]


def _settled(visits: dict[int, int], wins: dict[int, float], prior: Sequence[float]) -> bool:
    """Whether the best option leads every other by LEAD already: the iterations left would
    almost never change the choice (measured: docs/simulate.md), so they are not run."""
    first, second = sorted((_score(visits, wins, prior, i) for i in visits), reverse=True)[:2]
    return first - second > LEAD


def _ucb(visits: dict[int, int], wins: dict[int, float], total: int) -> int:
    log = math.log(total)
    return max(visits, key=lambda i: wins[i] / visits[i] + EXPLORE * math.sqrt(log / visits[i]))


def _trial(deal: Game) -> Game:
    """A copy of a dealt game to play one iteration in. It shares the deal's chance generator
    (the deal itself is never played; its copies draw from it one after the other, in the
    seeded order of the iterations) and its cache of character views, which are keyed by all
    they show: copying a generator's state costs as much as a third of the game's."""
    return deal.copy(deal.state.rng, deal.views)


def _same_options(game: Game, me: int) -> dict[Option, Option]:
    """The dealt game's options by the way `me`'s view names them (a hidden character by
    reference); the first of options named alike."""
    found = game.legal_options()
    shown = masked_options(game.state, found, hidden_from(game.state, me))
    same: dict[Option, Option] = {}
    for s, o in zip(shown, found, strict=True):
        same.setdefault(s, o)
    return same
