"""The loop that lets agents decide until a game ends, with what it notes on the way (the
requests each player chose, the trumps placed). Every simulated decision runs through it, so
it is compiled with the engine (setup.py): it imports only the engine, the rule set's classes
and the agents' protocol, which is what a compiled build's type check may read. Self-play
(selfplay.py) sets games up around it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import RequestOption
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.agents import Agent, decide
from blackpoker.runtime.rules.model import RuleSet, Visibility

DECISION_CAP = 5_000


class Faces:
    """The cards that lay in a player's zones whose cards have faces (the trumps) at some point
    of a game, and those of them that lay face up, as (player, card id)."""

    __slots__ = ("placed", "up", "zones")

    def __init__(self, rules: RuleSet) -> None:
        self.zones = tuple(z.id for z in rules.edition.core.zones if z.visibility is Visibility.FACES)
        self.placed: set[tuple[int, int]] = set()
        self.up: set[tuple[int, int]] = set()

    def note(self, game: Game) -> None:
        for index, side in enumerate(game.state.players):
            for zone in self.zones:
                self.placed.update((index, c) for c in side.zones.get(zone, ()))
            self.up.update((index, c) for c in side.face_up)

    def record(self) -> tuple[tuple[str, int, bool], ...]:
        return tuple(sorted((label(c), p, (p, c) in self.up) for p, c in self.placed))


def play(
    game: Game,
    agents: Sequence[Agent],
    cap: int = DECISION_CAP,
    uses: Counter[tuple[str, int]] | None = None,
    faces: Faces | None = None,
) -> None:
    """Let the agents decide until the game ends or reaches `cap` decisions; with `uses`, count
    the requests each player chose, by (action id, player); with `faces`, note the trumps."""
    while not game.over and game.decisions < cap:
        option = decide(game, agents)
        if uses is not None and isinstance(option, RequestOption):
            uses[option.action, option.player] += 1
        game.apply(option)
        if faces is not None:
            faces.note(game)
