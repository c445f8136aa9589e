"""OpenSpiel's ISMCTS bot against our greedy and search agents: the rung of docs/simulate.md's
strength ladder. Needs the `openspiel` extra in this environment (pip install -e ".[openspiel]").

Game i is deal i of `blackpoker(format=F)` (the engine's seeded deal of game i of
`simulate --seed 0`); ISMCTS sits at p1 in the even games and p2 in the odd ones. ISMCTS runs
`--simulations` simulations a decision, each from a fresh deal of the hidden cards, with one
random roll-out as its evaluator and UCT constant 2. Prints ISMCTS's win rate against each
agent with its 95% Wilson interval (a draw is not a win), and the seconds a game took.

python benchmarks/ismcts_ladder.py [games per opponent] [--simulations N] [--format F]
                                   [--agents greedy,search]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np
import pyspiel
from blackpoker.runtime.play.openspiel_game import AgentBot, play_bots
from blackpoker.runtime.play.stats import wilson
from open_spiel.python.algorithms import ismcts, mcts


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=20, help="games per opponent")
    parser.add_argument("--simulations", type=int, default=16, help="ISMCTS simulations per decision")
    parser.add_argument("--format", default="lite")
    parser.add_argument("--agents", default="greedy,search", help="our agents, comma-separated")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv)
    game = pyspiel.load_game("blackpoker", {"format": args.format})
    print(f"ISMCTS ({args.simulations} simulations) on {args.format}, {args.games} games per opponent")
    print("| opponent | ISMCTS wins | 95% interval | draws | s/game |")
    print("|---|---|---|---|---|")
    for name in args.agents.split(","):
        wins = draws = 0
        start = time.perf_counter()
        for deal in range(args.games):
            evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(deal))
            bot = ismcts.ISMCTSBot(
                game, evaluator, 2.0, args.simulations, random_state=np.random.RandomState(deal)
            )
            seat = deal % 2
            ours = AgentBot(game, name, deal)
            returns = play_bots(game, (bot, ours) if seat == 0 else (ours, bot), deal)
            wins += returns[seat] > 0
            draws += returns[seat] == 0
        low, high = wilson(wins, args.games)
        seconds = (time.perf_counter() - start) / args.games
        print(
            f"| {name} | {wins / args.games:.1%} ({wins}/{args.games}) | [{low:.1%}, {high:.1%}] "
            f"| {draws} | {seconds:.1f} |"
        )


if __name__ == "__main__":
    main()
