"""Unknown cards (`?`): a card no player sees, as an exported position writes the
opponent's hand; each is dealt from the cards that no zone names, by a seed."""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import combinations, islice
from typing import Any

from blackpoker.compiler.load import Document, PathKey
from blackpoker.runtime.engine.zones import card, deck_ids
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.diagnostics import Diagnostic
from blackpoker.runtime.rules.matcher import compile_matcher
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.runtime.scenario.scenario import PLAYER_KEYS, setup_labels

UNKNOWN = "?"  # a card no player sees (an exported position's opponent hand): dealt at random
UNKNOWN_MARKS = (UNKNOWN, "？")  # the full-width mark a Japanese keyboard types counts too
UNKNOWN_SEED = "unknown_seed"  # the set-up's key of the seed the unknown cards are dealt with
MAX_FITS = 100_000  # the ways tried, in all, to deal face-down characters' unknown cards that fit their keys


def is_unknown(text: str) -> bool:
    return text.strip() in UNKNOWN_MARKS


def bare_unknown_marks(doc: Document) -> list[Diagnostic]:
    """YAML reads a bare `?` as the mark of a mapping's key: `[?, ♠5]` holds an empty mapping.
    Each is said where it stands, and read as the unknown card it was meant to be, so the rest
    of the file is checked too."""
    found = []

    def walk(data: Any, path: PathKey) -> None:
        items = enumerate(data) if isinstance(data, list) else data.items() if isinstance(data, dict) else ()
        for key, value in items:
            if isinstance(data, list) and value in ({None: None}, {"None": None}):  # as the loader keys it
                data[key] = UNKNOWN
                message = f"write an unknown card as '{UNKNOWN}', in quotes: a bare ? is YAML's mark of a key"
                found.append(doc.at((*path, key), message))
            else:
                walk(value, (*path, key))

    walk(doc.data, ())
    return found


def deal_unknowns(
    doc: Document, rules: RuleSet, seed: int | None = None
) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """The written set-up with each unknown card (?) dealt from its player's cards that no zone
    names, shuffled by `unknown_seed` (default 0): first a face-down character's, so that its
    cards fit its key, then the life's, hand's, graveyard's and zones' in that order. None when
    there is none; the characters no card left fits are the problems."""
    setup = doc.data["setup"]
    if "seed" in setup or not any(
        is_unknown(text) for who in PLAYER_KEYS for _, text in setup_labels(setup[who], ())
    ):
        return None, []
    rng = random.Random(setup.get(UNKNOWN_SEED, 0) if seed is None else seed)
    tries = MAX_FITS
    dealt = copy.deepcopy(setup)
    problems = []
    for index, who in enumerate(PLAYER_KEYS):
        zones = dealt[who]
        named = Counter(Card.parse(text) for _, text in setup_labels(zones, ()) if not is_unknown(text))
        free = []
        for value in map(card, deck_ids(index)):
            if named[value]:
                named[value] -= 1
            else:
                free.append(value)
        rng.shuffle(free)
        for i, unit in enumerate(zones.get("field", ())):
            holes = [j for j, text in enumerate(unit["cards"]) if is_unknown(text)]
            if not holes:
                continue
            known = [Card.parse(text) for text in unit["cards"] if not is_unknown(text)]
            kind = rules.character(unit["as"])
            matcher = compile_matcher(kind.key)
            way = None
            for way in islice(combinations(range(len(free)), len(holes)), tries):
                tries -= 1
                if matcher.matches([*known, *(free[k] for k in way)]):
                    break
                way = None
            if way is None:
                message = (
                    f"cards: no {len(holes)} of {who}'s {len(free)} cards left make a {kind.id} "
                    f"with the cards named (key {kind.key})"
                )
                problems.append(doc.at(("setup", who, "field", i, "cards"), message))
                continue
            for j, k in zip(holes, way, strict=True):
                unit["cards"][j] = str(free[k])
            for k in sorted(way, reverse=True):
                del free[k]
        piles = [zones.get(zone) for zone in ("life", "hand", "graveyard")]
        for pile in [*piles, *zones.get("zones", {}).values()]:
            for j, text in enumerate(pile if isinstance(pile, list) else ()):
                if is_unknown(text):  # counted against the cards left at load
                    pile[j] = str(free.pop())
    return dealt, problems
