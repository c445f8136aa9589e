"""A short seeded trial of the trumps a local extra list changes: what no check of the programs
finds (a loop through the game state) is found by playing, before `simulate` would.

Each changed trump is laid face up in both players' trump zones once the set-up is done, then
random agents play a few turns: an engine failure (a request nested past its limit) or a turn
that never ends is the trial's failure, located at the trump, with the requests that looped.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from blackpoker.compiler.documents.extra import EXTRA_FORMAT, ExtraSource, Trump
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.parse import OverlaySource
from blackpoker.runtime.engine import transitions as t
from blackpoker.runtime.engine.errors import EngineError
from blackpoker.runtime.engine.events import Requested
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.state import Origin
from blackpoker.runtime.engine.zones import card, deck_ids
from blackpoker.runtime.play.agents import RandomAgent, decide
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.diagnostics import BlackPokerError, Diagnostic
from blackpoker.runtime.rules.model import RuleSet, Visibility

SEEDS = (1, 2)  # games per changed trump
TURNS = 6  # turns played per game
TURN_DECISIONS = 400  # a turn not over after this many decisions never ends (games take ~30 a turn)
SHOWN = 6  # the requests quoted of the loop


def trial_problems(env: Environment, path: Path) -> list[Diagnostic]:
    """The trial of a local extra list or a local rule on the extra format (no problem for
    any other file, or for a list whose trumps are all its base's)."""
    changed = _changed(env, path)
    if changed is None:
        return []
    rules, edited, trumps = changed
    problems = []
    for t_index, trump in trumps:
        failure = _play(rules, f"{trump.suit}{trump.number}")
        if failure is not None:
            where = ("trumps", t_index, "abilities" if trump.abilities else "actions")
            problems.append(edited.doc.at(where, f"trial: {failure}", key=True))
    return problems


def _changed(env: Environment, path: Path) -> tuple[RuleSet, ExtraSource, list[tuple[int, Trump]]] | None:
    """The extra format the file makes, its list and the trumps it changes (with their index)."""
    try:
        source, problems = env.read(path)
        if problems:
            return None
        if isinstance(source, ExtraSource):
            base = {e.id: e for e in env.extras(source.edition_id)}.get(source.id)
            rules = env.compile(source.edition_id, EXTRA_FORMAT.id, extra=str(path))
            edited = source
        elif isinstance(source, OverlaySource):
            found = env.house_extra(path)
            if found is None:
                return None
            base, edited = env.house_extra_base(path), found
            rules = env.compile(source.edition_id, source.format.id, rules=path)
        else:
            return None
    except BlackPokerError:  # reported by the checks
        return None
    changed = [
        (i, tr)
        for i, tr in enumerate(edited.trumps)
        if base is None or base.trump_at(tr.suit, tr.number) != tr
    ]
    return rules, edited, changed


def _play(rules: RuleSet, label: str) -> str | None:
    for seed in SEEDS:
        game = Game.new(rules, seed, events=[])
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        while not game.over and any(r.origin is Origin.SETUP for r in game.state.resolving):
            game.apply(decide(game, agents))
        _lay_face_up(game, rules, Card.parse(label))
        turn, since = game.state.turn, game.decisions
        while not game.over and game.state.turn < turn + TURNS:
            try:
                game.apply(decide(game, agents))
            except EngineError as error:
                return f"with {label} face up (seed {seed}): {type(error).__name__}: {error}"
            if game.state.turn != turn:
                turn, since = game.state.turn, game.decisions
            elif game.decisions - since > TURN_DECISIONS:
                requests = _last_requests(game.events or ())
                return (
                    f"with {label} face up (seed {seed}): turn {turn} does not end after "
                    f"{TURN_DECISIONS} decisions; the last requests: {requests}"
                )
    return None


def _lay_face_up(game: Game, rules: RuleSet, wanted: Card) -> None:
    """The trump's card of each player, wherever it lies loose, face up in their trump zone."""
    zone = next(z.id for z in rules.edition.core.zones if z.visibility is Visibility.FACES)
    state = game.state
    for index, side in enumerate(state.players):
        cid = next((c for c in deck_ids(index) if card(c) == wanted and t.is_loose(state, c)), None)
        if cid is None:
            continue
        if cid not in side.zones[zone]:
            t.move_card(state, cid, zone)
        side.face_up[cid] = state.new_uid()


def _last_requests(events: Iterable[object]) -> str:
    """The action ids of the last requests, oldest first: the chain that loops."""
    names = [e.action for e in events if isinstance(e, Requested)]
    return " -> ".join(names[-SHOWN:]) or "none"
