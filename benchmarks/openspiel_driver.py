"""Random play of an OpenSpiel game from a Python loop; run by bench_openspiel.py in its own venv.

python openspiel_driver.py GAME GAMES SEED  ->  one JSON line: games, decisions, chance, seconds

Players pick uniformly among `state.legal_actions()`; chance nodes are sampled from
`state.chance_outcomes()`. `decisions` counts player decisions only (chance outcomes are
counted apart in `chance`); `seconds` is the CPU time of the loop, after loading the game.
It imports only the standard library and pyspiel (the C++ games' binding).
"""

from __future__ import annotations

import json
import random
import sys
import time

import pyspiel


def play(name: str, games: int, seed: int) -> dict[str, float]:
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    draw = rng.getrandbits
    decisions = chance = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                chance += 1
            else:
                actions = state.legal_actions()
                # rng.randrange(count) drawn inline, as bench_engine.py's engine-only loop draws it
                count = len(actions)
                bits = count.bit_length()
                chosen = draw(bits)
                while chosen >= count:
                    chosen = draw(bits)
                state.apply_action(actions[chosen])
                decisions += 1
    return {"games": games, "decisions": decisions, "chance": chance, "seconds": time.process_time() - start}


if __name__ == "__main__":
    print(json.dumps(play(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))))
