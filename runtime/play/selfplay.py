"""Self-play: the loop that lets agents decide, and the games `blackpoker simulate` runs."""

from __future__ import annotations

import dataclasses
import gc
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from blackpoker.compiler.outputs import write_whole
from blackpoker.runtime.engine.errors import EngineError
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.invariants import check_invariants
from blackpoker.runtime.engine.refs import Result, player_name
from blackpoker.runtime.engine.rules import Rules, rules_of
from blackpoker.runtime.play.agents import Agent, Forfeit
from blackpoker.runtime.play.loop import DECISION_CAP, Faces, play
from blackpoker.runtime.play.roster import Seat, make_agent
from blackpoker.runtime.play.source import Named
from blackpoker.runtime.rules.model import RuleSet

if TYPE_CHECKING:
    from blackpoker.runtime.play.regulation import Dealt, Setup

# A run without logs or a regulation loads neither their modules nor, through them, the
# compiler's readers: they are imported where a game writes its log or a match is dealt.

YOUNG_THRESHOLD = 10_000  # allocations between collections of the youngest generation during a run


class Checks(Enum):
    """When a simulated game's invariants are checked (runtime/engine/invariants.py)."""

    NONE = "none"
    END = "end"  # once, on the final state: a card lost or doubled by then, a malformed character
    EVERY = "every"  # after every decision: the first decision that broke one, even if later repaired


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What a simulation keeps of one game: small and picklable, so worker processes return it."""

    index: int
    seed: int
    first: int  # the player who started (set-up decides)
    result: Result | None  # None when the game crashed or reached the decision cap
    turns: int
    decisions: int
    uses: tuple[tuple[str, int, int], ...]  # (action id, player, requests by that player's decisions)
    crash: str | None = None  # the exception that stopped the game
    match: int | None = None  # the match it belongs to (--match: `index` is the game in the match)
    decks: tuple[int, int] | None = None  # under a regulation: the deck each player used
    # (card, player, lay face up) for each card a player placed in a zone whose cards have
    # faces (the extra format's trumps)
    trumps: tuple[tuple[str, int, bool], ...] = ()
    forfeit: str | None = None  # why a player's agent forfeited the game (its result: the other wins)

    @property
    def failure(self) -> str | None:
        if self.crash is not None:
            return f"seed {self.seed}: {self.crash}"
        if self.result is None:
            return f"seed {self.seed}: no result after {self.decisions} decisions"
        return None


def game_seed(seed: int, index: int) -> int:
    """Game `index` of a run seeded `seed`: each game has its own seed, so the games can be
    played in any order, in any process, and give the same results."""
    return seed * 1_000_003 + index


def frozen_between(games: Iterable[int]) -> Iterator[int]:
    """The games of a run, with what lives before each one (the rule set, the rules context
    and its caches so far) frozen out of the garbage collector's sight: the caches grow
    with every game, and each full collection would walk them all again (a tenth of a run's
    time). A game leaves no reference cycles behind, and whatever frozen a later game does
    turn into cyclic garbage waits for the run's end, which unfreezes everything unless
    something froze before the run.

    During the run the youngest generation is collected after YOUNG_THRESHOLD allocations
    instead of Python's 700: a decision allocates many short-lived tuples that reference
    counting frees anyway, and a collection every few decisions cost about a twentieth of
    the engine's time. The threshold found is restored at the end."""
    thaw = gc.get_freeze_count() == 0
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], YOUNG_THRESHOLD), *threshold[1:])
    try:
        for game in games:
            gc.freeze()
            yield game
    finally:
        gc.set_threshold(*threshold)
        if thaw:
            gc.unfreeze()


def random_agents(seed: int) -> tuple[Agent, Agent]:
    """The two seeded random agents of the game played with `seed`."""
    return seated_agents(("random", "random"), None, seed)


def seated_agents(
    names: tuple[str, str], rules: RuleSet | None, seed: int, seats: tuple[Seat, Seat] | None = None
) -> tuple[Agent, Agent]:
    """p1's and p2's agents of the game played with `seed`, each seeded apart from the other."""
    first, second = seats or (None, None)
    return (
        make_agent(names[0], rules, seed * 2 + 1, seat=first),
        make_agent(names[1], rules, seed * 2 + 2, seat=second),
    )


def play_game(
    rules: RuleSet | Rules,
    agents: tuple[str, str],
    seed: int,
    index: int,
    *,
    check: Checks = Checks.END,
    cap: int = DECISION_CAP,
    log: Path | None = None,
    named: Named | None = None,
    dealt: Dealt | None = None,
    seats: tuple[Seat, Seat] | None = None,
) -> GameRecord:
    """Play game `index` of a run seeded `seed`; with `log`, write its command log there.
    `named` is what the log's header names of the rules' source (RulesSource.named, looked up
    once per run), `dealt` the regulation's start. A run passes one `Rules` context to all its
    games, so they share its caches. A broken invariant (after any decision with `Checks.EVERY`,
    at the end with `Checks.END`) is a crash. An agent that forfeits (agents.Forfeit) loses the
    game; `seats` carries what the agents' names do not (roster.Seat). An agent that holds a
    program is ended with the game."""
    number = game_seed(seed, index)
    context = rules_of(rules)
    seated = seated_agents(agents, context.ruleset, number, seats)
    start = None if dealt is None else dealt.start()
    game = Game.new(
        context, number, start=start, check=check is Checks.EVERY, events=None if log is None else []
    )
    uses: Counter[tuple[str, int]] = Counter()
    faces = Faces(context.ruleset)
    crash = forfeit = None
    result = None
    try:
        with ExitStack() as stack:
            for agent in seated:
                if isinstance(agent, AbstractContextManager):
                    stack.enter_context(agent)
            play(game, seated, cap, uses, faces if faces.zones else None)
        if check is Checks.END:
            check_invariants(game)
    except Forfeit as error:
        seat = game.to_move
        assert seat is not None
        result = Result.won_by(1 - seat)
        forfeit = f"{player_name(seat)} {agents[seat]}: {error}"
    except EngineError as error:  # a broken rule or invariant: the game's failure, in words
        crash = f"{type(error).__name__}: {error.message}"
    except Exception as error:  # any other crash is a failure too, not an abort
        crash = f"{type(error).__name__}: {error}"
    # the first player is decided once a set-up's decisions are made (trumps, a frame's cards):
    # read from the turn player and the turns played since
    first = game.state.turn_player ^ ((game.state.turn - 1) & 1)
    if log is not None:
        from blackpoker.runtime.play.log_writer import log_text

        # into a --logs folder checked new or empty before the run (compiler/outputs.py)
        write_whole(log, log_text(log, game, [a.name for a in seated], named, dealt))
    return GameRecord(
        index,
        number,
        first,
        result or (game.result if crash is None else None),
        game.state.turn,
        game.decisions,
        tuple((action, player, n) for (action, player), n in sorted(uses.items())),
        crash,
        trumps=faces.record(),
        forfeit=forfeit,
    )


def log_width(games: int) -> int:
    """Digits of the log file numbers, so that they sort in game order."""
    return max(4, len(str(games - 1)))


def play_match(
    rules: Rules,
    setup: Setup,
    agents: tuple[str, str],
    seed: int,
    index: int,
    *,
    games: int | None = None,
    check: Checks = Checks.END,
    cap: int = DECISION_CAP,
    logs: Path | None = None,
    width: int = 4,
    named: Named | None = None,
    seats: tuple[Seat, Seat] | None = None,
) -> list[GameRecord]:
    """Match `index` of a run seeded `seed`, or its first `games` games: the decks are dealt
    and picked from the match's own seed, and game k plays with seed game_seed(match seed, k).
    With `logs`, each game's log goes there: game-INDEX.jsonl for a match's first game alone,
    match-INDEX-game-K.jsonl (K from 1) for the games of a whole match."""
    from blackpoker.runtime.play.regulation import Dealt, Match

    number = game_seed(seed, index)
    match = Match(setup, random.Random(number))
    records: list[GameRecord] = []
    while not match.over and len(records) < (games or setup.games):
        decks = match.choose()
        k = len(records)
        name = f"game-{index:0{width}d}" if games == 1 else f"match-{index:0{width}d}-game-{k + 1}"
        log = None if logs is None else logs / f"{name}.jsonl"
        dealt = Dealt(setup, number, decks)
        record = play_game(
            rules, agents, number, k, check=check, cap=cap, log=log, named=named, dealt=dealt, seats=seats
        )
        records.append(dataclasses.replace(record, match=index, decks=decks))
        match.record(decks, record.result)
    return records
