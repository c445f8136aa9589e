"""Random self-play: the games `blackpoker simulate` runs and the tests sample."""

from __future__ import annotations

from dataclasses import dataclass, field

from blackpoker.compiler.model import RuleSet
from blackpoker.runtime.agents import RandomAgent
from blackpoker.runtime.game import Game

DECISION_CAP = 5_000


@dataclass
class Tally:
    games: int = 0
    completed: int = 0  # finished with a result before the decision cap
    decisions: int = 0
    results: dict[str, int] = field(default_factory=lambda: {"p1": 0, "p2": 0, "draw": 0})
    failures: list[str] = field(default_factory=list)


def play_random(rules: RuleSet, seed: int, *, check: bool = True, cap: int = DECISION_CAP) -> Game:
    """One game between two seeded random agents; the game and agents derive from `seed`."""
    game = Game.new(rules, seed, check=check)
    agents = (RandomAgent(seed * 2 + 1), RandomAgent(seed * 2 + 2))
    while not game.over and game.decisions < cap:
        player = game.to_move
        assert player is not None
        game.apply(agents[player].choose({}, game.legal_options()))
    return game


def simulate(rules: RuleSet, games: int, seed: int, *, check: bool = True, cap: int = DECISION_CAP) -> Tally:
    tally = Tally()
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        tally.games += 1
        try:
            game = play_random(rules, game_seed, check=check, cap=cap)
        except Exception as error:  # reported per game: a crash is a failure, not an abort
            tally.failures.append(f"seed {game_seed}: {type(error).__name__}: {error}")
            continue
        tally.decisions += game.decisions
        if game.result is None:
            tally.failures.append(f"seed {game_seed}: no result after {cap} decisions")
        else:
            tally.completed += 1
            tally.results[game.result] += 1
    return tally
