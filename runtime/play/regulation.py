"""Games and matches under a regulation (rules 2024 §5): each player's decks come from the
frame (fixed cards, dealt at random, or the player's deck files), the options add preset
characters and the zone of the cards left out, and the match form says how many games are
played, how many wins take the match, and whether a deck that won is retired.

Everything comes from the regulation's data; a match is reproducible from its seed alone.
"""

from __future__ import annotations

import dataclasses
import random
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from blackpoker.compiler.documents.deck import Deck, read_deck
from blackpoker.compiler.documents.regulation import (
    Additions,
    Count,
    Frame,
    Option,
    Regulation,
    additions,
    deck_problems,
    parse_regulation,
)
from blackpoker.runtime.engine.refs import Result, player_name, result_name
from blackpoker.runtime.engine.start import Start
from blackpoker.runtime.engine.state import PLAYERS
from blackpoker.runtime.engine.zones import card, deck_ids
from blackpoker.runtime.play.source import file_record
from blackpoker.runtime.rules.cards import Card, full_deck
from blackpoker.runtime.rules.diagnostics import Diagnostic
from blackpoker.runtime.rules.enums import Destination
from blackpoker.runtime.rules.model import Edition

if TYPE_CHECKING:
    from blackpoker.compiler.environment import Environment

Cards = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Setup:
    """A regulation as the games need it: plain data, so worker processes get it pickled."""

    id: str  # the regulation's id, e.g. std+random-half+preset2
    name: str
    build: str  # fixed, random or built (the frame's build type)
    cards: Cards | None  # a fixed frame's cards (None: the whole set)
    size: Count | None  # each deck
    together: Count | None  # a player's decks together
    decks: int  # each player's decks
    games: int  # games at most
    wins: int  # wins that take the match
    retire: bool  # a deck that won a game cannot be used again
    preset: tuple[str, ...]
    unfit: Destination | str
    left_out: str | None
    given: tuple[tuple[Cards, ...], tuple[Cards, ...]]  # each player's deck files (none: dealt)
    names: tuple[tuple[str, ...], tuple[str, ...]]  # each player's deck names
    additions: Additions = dataclasses.field(default_factory=Additions)  # its frame's actions
    set_aside: tuple[tuple[str, int], ...] = ()  # the frame's: the deck's top cards into a zone
    files: tuple[tuple[Path, ...], tuple[Path, ...]] = ((), ())  # each player's deck files, as given
    rule: str = ""  # the match form's rule, cited when a retired deck is named

    @classmethod
    def of(
        cls,
        regulation: Regulation,
        decks: Sequence[Sequence[Deck]] = ((), ()),
        additions: Additions | None = None,
    ) -> Setup:
        """The regulation with each player's checked decks (compiler.regulation.deck_problems)
        and what it adds to the rule set (compiler.regulation.additions)."""
        frame, match = regulation.frame, regulation.frame.match
        parts: tuple[Frame | Option, ...] = (frame, *regulation.options)
        preset = tuple(t for part in parts for t in part.preset)
        unfit = next((part.unfit for part in parts if part.preset), Destination.GRAVEYARD)
        left_out = next((o.left_out for o in regulation.options if o.left_out), None)
        names = tuple(
            tuple(d.name for d in mine) if mine else tuple(f"deck {n + 1}" for n in range(match.decks))
            for mine in decks
        )
        return cls(
            regulation.id,
            regulation.name,
            frame.build,
            frame.cards,
            frame.size,
            frame.together,
            match.decks,
            match.games,
            match.wins,
            match.retire_winning_deck,
            preset,
            unfit,
            left_out,
            (tuple(d.cards for d in decks[0]), tuple(d.cards for d in decks[1])),
            (names[0], names[1]),
            additions or Additions(),
            frame.set_aside,
            (tuple(Path(d.doc.path) for d in decks[0]), tuple(Path(d.doc.path) for d in decks[1])),
            match.rule,
        )

    @property
    def label(self) -> str:
        """The regulation's name, with the players' deck files when they bring any."""
        given = [f"{player_name(p)} {' / '.join(self.names[p])}" for p in PLAYERS if self.given[p]]
        return f"{self.name} ({', '.join(given)})" if given else self.name

    def deal(self, rng: random.Random) -> tuple[tuple[Cards, ...], tuple[Cards, ...]]:
        """Each player's decks for a match: the given deck files, else the frame's cards."""
        dealt = tuple(self.given[p] or self._frame_decks(rng) for p in PLAYERS)
        return dealt[0], dealt[1]

    def _frame_decks(self, rng: random.Random) -> tuple[Cards, ...]:
        if self.build != "random":  # fixed: the listed cards, or the whole set
            return (self.cards or full_deck(),) * self.decks
        pool = list(full_deck())
        rng.shuffle(pool)
        if self.decks == 1:
            limit = self.size or self.together
            return (tuple(pool[: limit.number if limit else len(pool)]),)
        count = self.together.number if self.together else len(pool)
        while True:  # each card to a deck at random; a deck is never empty
            lots = [rng.randrange(self.decks) for _ in range(count)]
            if len(set(lots)) == self.decks:
                return tuple(
                    tuple(c for c, lot in zip(pool, lots, strict=False) if lot == d)
                    for d in range(self.decks)
                )

    def start(self, decks: Sequence[Sequence[Cards]], chosen: Sequence[int]) -> Start:
        """The engine's start when each player plays the chosen one of their decks: the cards
        in none of the player's decks are left out (the pack); the other decks are set aside."""
        ids = [_deck_ids(p, decks[p]) for p in PLAYERS]
        played = tuple(ids[p][chosen[p]] for p in PLAYERS)
        aside = tuple(
            tuple(c for d, deck in enumerate(ids[p]) if d != chosen[p] for c in deck) for p in PLAYERS
        )
        return Start(
            (played[0], played[1]),
            self.left_out,
            self.preset,
            self.unfit,
            (aside[0], aside[1]),
            self.set_aside,
        )


def start_problems(regulation: Regulation, edition: Edition) -> list[Diagnostic]:
    """What keeps games from being played under the regulation, each at its place in the
    regulations file: a frame the engine cannot play yet (its `unplayable`), and the options'
    preset types that are no character type of the rule set's edition (a wrong type would send
    every card to `unfit`)."""
    known = edition.character_types
    data = regulation.regulations.doc
    problems = []
    frame = regulation.frame
    if frame.unplayable is not None:
        index = [f.id for f in regulation.regulations.frames].index(frame.id)
        message = f"{frame.name} cannot be played yet: {frame.unplayable}"
        problems.append(data.at(("frames", index, "unplayable"), message))
    chosen = {"frames": {frame.id}, "options": {o.id for o in regulation.options}}
    for part, ids in chosen.items():
        for index, raw in enumerate(data.data.get(part, ())):
            if raw["id"] not in ids:
                continue
            for at, name in enumerate(raw.get("preset", {}).get("types", ())):
                if name not in known:
                    message = f"preset: '{name}' is not a character type of {edition.id} ({', '.join(known)})"
                    problems.append(data.at((part, index, "preset", "types", at), message))
    return problems


@dataclass(frozen=True, slots=True)
class Checked:
    """A regulation text checked with the players' decks: the set-up and the format its
    games play, or the problems that keep it from being played; `notes`: warnings."""

    setup: Setup | None
    format: str
    problems: tuple[Diagnostic, ...] = ()
    notes: tuple[Diagnostic, ...] = ()


def checked_setup(
    env: Environment,
    edition: str,
    text: str,
    decks: Sequence[Sequence[Deck]] = ((), ()),
    format_id: str | None = None,
) -> Checked:
    """The regulation `text` of the edition's regulations and each player's decks, checked as
    `regulation check` checks them, with the format its games play (a frame with the extra
    list plays the extra format). With `format_id`, the text names the frame and options only.
    What the terminal's --regulation and the browser's lobby both start games from."""
    from blackpoker.runtime.rules.diagnostics import CompileError

    if format_id is not None:
        text = f"{format_id}+{text}"
    try:
        regulations = env.regulations(edition)
        chosen = parse_regulation(text, regulations)
        source = env.edition(edition)
    except CompileError as error:
        return Checked(None, "", tuple(error.diagnostics))
    problems = start_problems(chosen, source.edition)
    added, wrong = additions(chosen, source)
    problems += wrong
    if not problems:
        for p, mine in enumerate(decks):
            if mine or chosen.frame.needs_decks:  # other frames deal, or play the whole set
                problems += deck_problems(chosen, player_name(p), mine)
    setup = None if problems else Setup.of(chosen, decks, added)
    return Checked(setup, chosen.played_format, tuple(problems), regulations.notes)


def uploaded_decks(texts: Sequence[Sequence[str]]) -> tuple[list[list[Deck]], list[Diagnostic]]:
    """Each player's decks from the texts of deck files (the browser's uploads), read as a
    deck file is; a problem is located in `pN-deckK.yaml`, the name `upload_name` gives it."""
    decks: list[list[Deck]] = []
    problems: list[Diagnostic] = []
    with tempfile.TemporaryDirectory() as folder:
        for p, mine in enumerate(texts):
            decks.append([])
            for k, text in enumerate(mine, 1):
                path = Path(folder) / upload_name(p, k)
                path.write_text(text, encoding="utf-8")
                deck, found = read_deck(path, path.name)
                problems += found
                if deck is not None:
                    decks[-1].append(deck)
    return decks, problems


def upload_name(player: int, k: int) -> str:
    """How the browser's deck upload K of a player is named in its problems."""
    return f"{player_name(player)}-deck{k}.yaml"


def _deck_ids(player: int, decks: Sequence[Cards]) -> list[tuple[int, ...]]:
    """The player's card ids of each deck; the decks come from one set, so the two Jokers of
    the set are two ids wherever they lie."""
    free = {value: [c for c in deck_ids(player) if card(c) == value] for d in decks for value in d}
    return [tuple(free[value].pop(0) for value in deck) for deck in decks]


@dataclass(frozen=True, slots=True)
class Played:
    """One game of a match: the decks used (indexes into each player's decks) and the winner."""

    decks: tuple[int, int]
    result: Result | None  # None: the game failed


class Match:
    """A match in progress: who has won how often, which decks are retired, which game is next."""

    def __init__(self, setup: Setup, rng: random.Random) -> None:
        self.setup = setup
        self.rng = rng
        self.decks = setup.deal(rng)
        self.wins = [0, 0]
        self.retired: tuple[set[int], set[int]] = (set(), set())
        self.games: list[Played] = []

    @property
    def over(self) -> bool:
        failed = any(g.result is None for g in self.games)
        return failed or max(self.wins) >= self.setup.wins or len(self.games) >= self.setup.games

    @property
    def result(self) -> Result | None:
        if any(g.result is None for g in self.games):
            return None
        won = [p for p in PLAYERS if self.wins[p] >= self.setup.wins]
        return Result.won_by(won[0]) if won else Result.DRAW

    def usable(self, player: int) -> list[int]:
        """The player's decks that may still be used: none that won a game (§5.2.1)."""
        return [d for d in range(len(self.decks[player])) if d not in self.retired[player]]

    def refusal(self, decks: tuple[int, int]) -> str | None:
        """Why the next game cannot be played with these decks (indexes): the match is over,
        or a deck won an earlier game (§5.2.1); None when it can."""
        if self.over:
            printed = "none" if self.result is None else result_name(self.result)
            return f"the match is over after {len(self.games)} games ({printed} won)"
        for p in PLAYERS:
            if decks[p] in self.retired[p]:
                won = next(
                    n
                    for n, g in enumerate(self.games, 1)
                    if g.decks[p] == decks[p] and g.result is Result.won_by(p)
                )
                return (
                    f"{player_name(p)}'s deck {decks[p] + 1} won game {won}: a deck that won a game is not "
                    f"used again ({self.setup.rule})"
                )
        return None

    def choose(self) -> tuple[int, int]:
        """Each player picks, at random, a deck that may still be used."""
        picks = [self.rng.choice(self.usable(p)) for p in PLAYERS]
        return picks[0], picks[1]

    def record(self, decks: tuple[int, int], result: Result | None) -> None:
        self.games.append(Played(decks, result))
        for p in PLAYERS:
            if result is Result.won_by(p):
                self.wins[p] += 1
                if self.setup.retire:
                    self.retired[p].add(decks[p])


@dataclass(frozen=True, slots=True)
class Dealt:
    """A game's start under a regulation, as its log records it: the match's seed deals the
    decks (a match deals before anything else), and each player plays the chosen one."""

    setup: Setup
    match_seed: int
    chosen: tuple[int, int]

    def start(self) -> Start:
        return self.setup.start(self.setup.deal(random.Random(self.match_seed)), self.chosen)

    def record(self, folder: Path) -> dict[str, Any]:
        """The log header's `regulation`: the deck files by path from `folder` and hash, as the
        rules files are recorded (runtime/play/source.py)."""
        files = {
            player_name(p): [file_record(f, folder) for f in self.setup.files[p]]
            for p in PLAYERS
            if self.setup.files[p]
        }
        found = {"id": self.setup.id, "match_seed": self.match_seed, "decks": list(self.chosen)}
        return found | ({"deck_files": files} if files else {})
