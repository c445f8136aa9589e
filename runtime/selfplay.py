"""Self-play: the loop that lets agents decide, and the random games `blackpoker simulate` runs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from blackpoker.compiler.model import RuleSet
from blackpoker.runtime.agents import Agent, RandomAgent
from blackpoker.runtime.game import Game
from blackpoker.runtime.log import write_log
from blackpoker.runtime.options import Option
from blackpoker.runtime.view import view

DECISION_CAP = 5_000


@dataclass
class Tally:
    games: int = 0
    completed: int = 0  # finished with a result before the decision cap
    decisions: int = 0
    results: dict[str, int] = field(default_factory=lambda: {"p1": 0, "p2": 0, "draw": 0})
    failures: list[str] = field(default_factory=list)


def decide(game: Game, agents: Sequence[Agent]) -> Option:
    """Ask the deciding player's agent for a move; it sees that player's view, never the game.

    The view's options name hidden characters by reference, so the answer is mapped back to
    the engine's option at the same index.
    """
    player = game.to_move
    assert player is not None
    seen = view(game, player)
    answer = agents[player].choose(seen, seen.options)
    options = game.legal_options()
    if seen.options is options:
        return answer
    index = next((i for i, o in enumerate(seen.options) if o is answer), None)
    return options[seen.options.index(answer) if index is None else index]


def play(game: Game, agents: Sequence[Agent], cap: int = DECISION_CAP) -> None:
    """Let the agents decide until the game ends or reaches `cap` decisions."""
    while not game.over and game.decisions < cap:
        game.apply(decide(game, agents))


def random_agents(seed: int) -> tuple[RandomAgent, RandomAgent]:
    """The two seeded random agents of the game played with `seed`."""
    return RandomAgent(seed * 2 + 1), RandomAgent(seed * 2 + 2)


def play_random(rules: RuleSet, seed: int, *, check: bool = True, cap: int = DECISION_CAP) -> Game:
    """One game between two seeded random agents; the game and agents derive from `seed`."""
    game = Game.new(rules, seed, check=check)
    play(game, random_agents(seed), cap)
    return game


def simulate(
    rules: RuleSet,
    games: int,
    seed: int,
    *,
    check: bool = True,
    cap: int = DECISION_CAP,
    logs: Path | None = None,
) -> Tally:
    """Play `games` random games; with `logs`, write each game's command log into that folder."""
    tally = Tally()
    width = max(4, len(str(games - 1)))
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        agents = random_agents(game_seed)
        tally.games += 1
        game = Game.new(rules, game_seed, check=check, events=None if logs is None else [])
        crash = None
        try:
            play(game, agents, cap)
        except Exception as error:  # reported per game: a crash is a failure, not an abort
            crash = f"seed {game_seed}: {type(error).__name__}: {error}"
        if logs is not None:
            write_log(logs / f"game-{index:0{width}d}.jsonl", game, [a.name for a in agents])
        if crash is not None:
            tally.failures.append(crash)
        elif game.result is None:
            tally.decisions += game.decisions
            tally.failures.append(f"seed {game_seed}: no result after {cap} decisions")
        else:
            tally.decisions += game.decisions
            tally.completed += 1
            tally.results[game.result] += 1
    return tally
