"""A regulation's whole match at the browser table, as `blackpoker play --regulation … --match`
plays it at the terminal (runtime/play/regulation.py's Match): the match's seed deals every
player's decks, game k is played with the seed game_seed(seed, k), a deck that won a game is
not used again (§5.2.1), and the match ends when a player has won enough games or the frame's
games are played.

Each game is a Session of its own; they share one MatchTable, which keeps the games' winners
and the next game's decks. A seat is told the score, each game's winner and its own decks
(names and sizes: their cards stay hidden, as at the terminal), never the other player's.
"""

from __future__ import annotations

import random

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import Result, player_name
from blackpoker.runtime.play.labels import labels
from blackpoker.runtime.play.regulation import Dealt, Match, Setup
from blackpoker.runtime.play.selfplay import game_seed
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.runtime.serve.cards import Json


class MatchTable:
    """A match in progress: its record (Match), the decks of the game in play or next."""

    def __init__(self, setup: Setup, seed: int) -> None:
        self.setup = setup
        self.seed = seed
        self.match = Match(setup, random.Random(seed))
        self.chosen = self.match.choose()  # the first game's decks, each picked at random
        self.playing = True  # a game is in play whose result is not recorded yet

    @property
    def number(self) -> int:
        """The game in play (or last played), from 1."""
        return len(self.match.games) + (1 if self.playing else 0)

    def dealt(self) -> Dealt:
        """The decks of the game in play, as its log records them."""
        return Dealt(self.setup, self.seed, self.chosen)

    def game(self, rules: RuleSet) -> Game:
        """The game in play, dealt as the terminal's match deals it."""
        seed = game_seed(self.seed, len(self.match.games))
        return Game.new(rules, seed, start=self.dealt().start(), check=True, events=[])

    def ended(self, result: Result | None) -> None:
        """The game in play is over: its winner counts (once)."""
        if self.playing:
            self.match.record(self.chosen, result)
            self.playing = False

    def refusal(self, seat: int, deck: object, people: int) -> tuple[int, str] | None:
        """Why the next game cannot be started with the seat's `deck` (an index, or None for
        one picked at random), with the HTTP status to answer; None when it can."""
        said = labels()["match"]
        if self.playing:
            return 409, said["not over"]
        if self.match.over:
            return 409, said["decided"]
        if deck is None:
            return None
        if people != 1:  # each person would pick the other's deck too: both are picked at random
            return 400, said["no pick"]
        if not isinstance(deck, int) or isinstance(deck, bool) or deck not in self.match.usable(seat):
            return 400, labels().say("match", "not usable", decks=len(self.match.decks[seat]))
        return None

    def next(self, seat: int, deck: int | None) -> None:
        """Start the next game: the seat's deck as asked, the others' picked at random."""
        picks = list(self.match.choose())
        if deck is not None:
            picks[seat] = deck
        self.chosen = (picks[0], picks[1])
        self.playing = True

    def deck_names(self, seat: int) -> tuple[str, ...]:
        """The seat's decks by name: its files' names, or numbered when the match dealt them."""
        if self.setup.given[seat]:
            return self.setup.names[seat]
        return tuple(labels().say("match", "deck", n=n + 1) for n in range(len(self.match.decks[seat])))

    def json(self, seat: int) -> Json:
        """What the seat is told of the match: nothing of the other player's decks."""
        match, names = self.match, self.deck_names(seat)
        result = match.result if match.over else None
        return {
            "name": self.setup.name,
            "game": self.number,
            "games": self.setup.games,
            "wins_needed": self.setup.wins,
            "wins": {player_name(p): match.wins[p] for p in (0, 1)},
            "winners": [
                None if g.result is None or g.result.winner is None else player_name(g.result.winner)
                for g in match.games
            ],
            "deck": names[self.chosen[seat]],
            "decks": []
            if match.over
            else [
                {"index": d, "name": names[d], "size": len(match.decks[seat][d])} for d in match.usable(seat)
            ],
            "over": match.over,
            "winner": None if result is None or result.winner is None else player_name(result.winner),
        }
