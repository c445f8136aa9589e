"""The closed vocabularies of a game that programs and the engine name: faces, zones, the
words of the engine's answers and the names a program reads without binding them. The suits
are `cards.Suit`, beside the cards.

Each is a StrEnum whose values are the words the data writes, so a member equals its word and
the data, the compiled JSON and the rule-set hash read as before.
"""

from __future__ import annotations

from enum import StrEnum


class Face(StrEnum):
    UP = "up"
    DOWN = "down"


class Zone(StrEnum):
    """The card piles of each player's side that a program reads (`{zone: Z, player: P}`,
    `choose.from`); an edition declares more by id (`core.zones`: the fog)."""

    HAND = "hand"
    GRAVEYARD = "graveyard"
    LIFE = "life"


class Destination(StrEnum):
    """Where a `move` step may put cards (an edition's declared zones too, by id)."""

    HAND = "hand"
    GRAVEYARD = "graveyard"
    LIFE_TOP = "life_top"
    LIFE_BOTTOM = "life_bottom"


_ZONES = {z.value: z for z in Zone}
_DESTINATIONS = {d.value: d for d in Destination}


def zone_named(text: str) -> Zone | str:
    """A pile a program or an action's `key_from` names: a built-in one, else the id of a zone
    the edition declares."""
    return _ZONES.get(text, text)


def destination_named(text: str) -> Destination | str:
    """Where a `move` puts cards: a built-in destination, else the id of a declared zone."""
    return _DESTINATIONS.get(text, text)


class Answer(StrEnum):
    """The words of the answers the engine asks for inside an effect (`pick ♠5`, `block ♣9
    with ♡3`, `done`); a `choose_one` is answered by one of its labels instead, the rule set's
    words. The notation reads and prints them (runtime/play/notation.py)."""

    PICK = "pick"  # a card or character of a choose step, a request of choose_request
    PLACE = "place"  # the next card of a move with `order`, from the top down
    DISCARD = "discard"  # a card of discard_down_to
    ATTACKER = "attacker"
    BLOCK = "block"  # an attacker with a blocker
    RETARGET = "retarget"  # the new target of retarget
    TOP = "top"  # the card on top of the graveyard (core.graveyard_top: owner_chooses)
    DONE = "done"  # no more picks, attackers or blockers
    YES = "yes"  # may, repeat
    NO = "no"


_ANSWERS = {a.value: a for a in Answer}


def answer_word(text: str) -> Answer | str:
    """A written answer's word: the engine's answer it names, else a label (choose_one's)."""
    return _ANSWERS.get(text, text)


class BuiltInName(StrEnum):
    """The names a program reads without an earlier step binding them."""

    KEY = "key"  # the request's key cards
    TARGET = "target"  # what the request targets
    TARGET_KEY = "target_key"  # the key cards of the targeted request
    ATTACKERS = "attackers"  # the attacking characters
    CAUSE = "cause"  # the cards of the event that triggered the action
    # the character that caused the request: bound only in an action with `caused_by`
    SOURCE = "source"


# names every program may read (`source` only an action with `caused_by`)
BUILT_IN_NAMES: tuple[BuiltInName, ...] = tuple(n for n in BuiltInName if n is not BuiltInName.SOURCE)
SOURCE = BuiltInName.SOURCE
