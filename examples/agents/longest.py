"""An outside agent for `blackpoker simulate --agents cmd:...` (docs/agents.md), stdlib only.

Reads one JSON line per decision on stdin and answers one line on stdout: the command it
plays. It reads no action by name, so it plays any edition: it answers the legal option that
names the most cards (a big request, a big payment), a key card (★) breaking ties, and passes
only when nothing else is legal. It ends when its input does.
"""

import json
import sys

SUITS = "♠♡♢♣"

for line in sys.stdin:
    decision = json.loads(line)
    moves = [o for o in decision["options"] if o != "pass"]
    best = max(moves, key=lambda o: (sum(map(o.count, SUITS)), "★" in o), default="pass")
    print(best, flush=True)
