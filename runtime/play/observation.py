"""A seat's view as a fixed-size tensor, for the standard game-AI interfaces (the OpenSpiel
game and the PettingZoo environment; numpy, which both extras bring).

For each card id (both decks: 0 .. 107), one plane per place the viewer sees it: its own
hand, graveyard, field and zones; the opponent's graveyard, field and zones as the view shows
them (face-up cards, the graveyard's top); the key cards on the stage and resolving. Then each
seat's counts, the viewer's first: life (the opponent's as the view gives it, 10 from 10 on),
hand, graveyard, field characters, zone cards. Then whether the viewer is p1, has the turn,
holds chance, the turn and the decisions made. Counts and turns are fractions of a deck
(above 1 past turn 54), decisions of the decision cap. Only the view is read, so the tensor
holds no card the seat may not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option
from blackpoker.runtime.engine.rules import Rules, rules_of
from blackpoker.runtime.engine.view import AtLeast, View
from blackpoker.runtime.engine.zones import DECK_SIZE
from blackpoker.runtime.play.loop import DECISION_CAP
from blackpoker.runtime.play.source import RulesSource

# The actions are indices into the engine's legal options; random games of the built-in formats
# reach about 140 options, so 1024 leaves room for local rules (a parameter raises it).
MAX_ACTIONS = 1024
CARDS = 2 * DECK_SIZE
PLANES = (
    "my_hand",
    "my_graveyard",
    "my_field",
    "my_zones",
    "their_graveyard",
    "their_field",
    "their_zones",
    "key_cards",
)
PER_SEAT = 5  # life, hand, graveyard, field characters, zone cards
SCALARS = ("p1", "my_turn", "my_chance", "turn", "decisions")
SCALE = float(DECK_SIZE)


@dataclass(frozen=True, slots=True)
class Piece:
    name: str
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


PIECES = (
    Piece("cards", (len(PLANES), CARDS)),
    Piece("counts", (2 * PER_SEAT,)),
    Piece("scalars", (len(SCALARS),)),
)
SIZE = sum(p.size for p in PIECES)


def parts(tensor: np.ndarray) -> dict[str, np.ndarray]:
    """The named pieces of a flat tensor of SIZE, as views into it."""
    named, index = {}, 0
    for piece in PIECES:
        named[piece.name] = tensor[index : index + piece.size].reshape(piece.shape)
        index += piece.size
    return named


def fill(named: dict[str, np.ndarray], seen: View, decisions: int) -> None:
    """Write a view into a tensor's pieces (zeroed before)."""
    cards, counts = named["cards"], named["counts"]
    me = seen.me
    for offset, seat in ((0, me), (1, 1 - me)):
        p = seen.players[seat]
        # the planes of this seat's hand, graveyard, field and zones (an opponent's hand has none)
        hand, graveyard, field, zones = (0, 1, 2, 3) if seat == me else (None, 4, 5, 6)
        if hand is not None:
            cards[hand, list(p.hand or ())] = 1
        cards[graveyard, list(p.graveyard)] = 1
        cards[field, [c for unit in p.field for c in unit.cards]] = 1
        cards[zones, [c for zone in p.zones for c in zone.cards or ()]] = 1
        life = p.life.count if isinstance(p.life, AtLeast) else p.life
        shown = (life, p.hand_count, len(p.graveyard), len(p.field), sum(z.count for z in p.zones))
        counts[offset * PER_SEAT : (offset + 1) * PER_SEAT] = [n / SCALE for n in shown]
    cards[len(PLANES) - 1, [c for r in (*seen.stage, *seen.resolving) for c in r.key_cards]] = 1
    named["scalars"][:] = [
        float(me == 0),
        float(seen.turn_player == me),
        float(seen.chance == me),
        seen.turn / SCALE,
        decisions / DECISION_CAP,
    ]


def tensor(seen: View, decisions: int) -> np.ndarray:
    """A new float32 tensor of the view."""
    flat = np.zeros(SIZE, np.float32)
    fill(parts(flat), seen, decisions)
    return flat


def indexed_options(game: Game, max_actions: int) -> tuple[Option, ...]:
    """The legal options an action indexes, in the engine's order; more than `max_actions` is an error."""
    options = game.legal_options()
    if len(options) > max_actions:
        raise ValueError(f"{len(options)} legal options exceed max_actions={max_actions} (raise it)")
    return options


def compiled_rules(edition: str | None, format: str | None, rules: str | Path | None) -> Rules:
    """The rule set an interface is asked for, named as `blackpoker simulate` names it; an
    edition or format not given (None or "") is the registry's default, a local-rule file
    not given (None or "") is none."""
    from blackpoker.compiler.environment import Environment

    env = Environment()
    source = RulesSource(
        edition or env.default("edition"), format or env.default("format"), Path(rules) if rules else None
    )
    return rules_of(source.compile(env))
