"""Options: the immutable answers an agent can give at a decision point.

Every option prints in the scenario command notation (without the `pN: ` prefix), and
names cards only, so its text is complete without the game: a character by its first
card, a stage request by its position from the bottom (stage:1), a trump by its owner, zone
and card (p2:trump:♠4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from blackpoker.runtime.engine.refs import (
    CharacterByCard,
    HiddenCharacter,
    HiddenZoneCard,
    OptionTarget,
    ResolvingDepth,
    StagePosition,
    WrittenCharacter,
    WrittenZoneCard,
    ZoneCard,
    player_name,
)
from blackpoker.runtime.engine.zones import CARD_SORT_KEY, SORT_SPAN, label, order, owner
from blackpoker.runtime.rules.enums import Answer

Payment = tuple[str, int | None]  # (unit, card id): D the discarded card, B/S a card of the character


@dataclass(frozen=True, slots=True)
class Pass:
    player: int

    def __str__(self) -> str:
        return "pass"


PASSES: Final = (Pass(0), Pass(1))  # made once: every chance decision offers one


@dataclass(frozen=True, slots=True)
class RequestOption:
    player: int
    action: str
    name: str
    keys: tuple[int, ...] = ()
    payment: tuple[Payment, ...] = ()
    # a character by card, a stage request by position or a player; a Choice may also name the
    # request being resolved by depth; in a player's view, a hidden character by its id
    target: OptionTarget | None = None
    source: int | None = None  # a caused action's causing character, by its first card

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(
        self,
        player: int,
        action: str,
        name: str,
        keys: tuple[int, ...] = (),
        payment: tuple[Payment, ...] = (),
        target: OptionTarget | None = None,
        source: int | None = None,
    ) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "keys", keys)
        object.__setattr__(self, "payment", payment)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "source", source)

    @property
    def head(self) -> str:
        """The action's name, and the character that causes it: `スラッシュ by ♠5`."""
        return self.name if self.source is None else f"{self.name} by {label(self.source)}"

    @property
    def key_text(self) -> str:
        """`★♡5♢4`, or '' without key cards."""
        return "★" + "".join(label(c) for c in self.keys) if self.keys else ""

    @property
    def payment_text(self) -> str:
        """`$BD(♠7)` canonically, like a command: by unit, then card order (B/S come in field
        order); '' without a payment."""
        if not self.payment:
            return ""
        ordered = sorted(self.payment, key=lambda p: (p[0], -1 if p[1] is None else order(p[1])))
        return "$" + "".join(unit + (f"({label(c)})" if c is not None else "") for unit, c in ordered)

    def __str__(self) -> str:
        text = self.head
        if self.keys:
            text += " " + self.key_text
        if self.payment:
            text += " " + self.payment_text
        if self.target is not None:
            text += " → " + target_text(self.target)
        return text


@dataclass(frozen=True, slots=True)
class Choice:
    """An answer inside an effect: `word` alone, or with one or two cards (`block ♣9 with ♡3`),
    or with a target named as a request option names it (`retarget → p2:♣9`). The word is the
    engine's (`Answer`) or a choose_one's label, the rule set's."""

    player: int
    word: Answer | str
    a: int | None = None
    b: int | None = None
    target: OptionTarget | None = None

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(
        self,
        player: int,
        word: Answer | str,
        a: int | None = None,
        b: int | None = None,
        target: OptionTarget | None = None,
    ) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "word", word)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "target", target)

    @property
    def rest_text(self) -> str:
        """What follows the word: `♣9 with ♡3`, `→ p2:♣9`, or ''."""
        parts = []
        if self.a is not None:
            parts.append(label(self.a))
        if self.b is not None:
            parts.append("with " + label(self.b))
        if self.target is not None:
            parts.append("→ " + target_text(self.target))
        return " ".join(parts)

    def __str__(self) -> str:
        rest = self.rest_text
        return f"{self.word} {rest}" if rest else str(self.word)


Option = Pass | RequestOption | Choice


@dataclass(frozen=True, slots=True)
class Prompt:
    """A decision an effect waits on: who decides, and the complete list of answers."""

    player: int
    options: tuple[Choice, ...]

    # written out: mypyc compiles this one, not the Python one a dataclass generates (docs/engine.md)
    def __init__(self, player: int, options: tuple[Choice, ...]) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "options", options)


def target_text(target: OptionTarget | WrittenCharacter | WrittenZoneCard) -> str:
    """How options and commands print a target: the one printer of the notation's targets."""
    if isinstance(target, CharacterByCard):
        return f"{player_name(owner(target.card))}:{label(target.card)}"
    if isinstance(target, StagePosition):
        return f"stage:{target.position}"
    if isinstance(target, ResolvingDepth):
        return f"resolving:{target.depth}"
    if isinstance(target, HiddenCharacter):
        return hidden_ref(target.uid)
    if isinstance(target, WrittenCharacter):
        return f"{player_name(target.player)}:{target.card}"
    if isinstance(target, ZoneCard):
        return f"{player_name(owner(target.card))}:{target.zone}:{label(target.card)}"
    if isinstance(target, HiddenZoneCard):
        return f"{player_name(target.player)}:{target.zone}#{target.position}"
    if isinstance(target, WrittenZoneCard):
        return f"{player_name(target.player)}:{target.zone}:{target.card}"
    return player_name(target.index)


def hidden_ref(uid: int) -> str:
    """How a player's view names a character whose cards it hides: by its id, not a card."""
    return f"face-down#{uid}"


def sort_cards(cards: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Canonical order for printed card lists: by card value (Joker first), then identity."""
    # the ids' sort keys sorted as ints and turned back into ids: no key function called per card
    keys = sorted([CARD_SORT_KEY[c] for c in cards])
    return tuple([k % SORT_SPAN for k in keys])


def distinct_values(cards: list[int] | tuple[int, ...]) -> list[int]:
    """One card per value in canonical order (of two Jokers the lower id)."""
    return first_per_value(sort_cards(cards))


def first_per_value(ordered: Sequence[int]) -> list[int]:
    """The first card of each value of cards in canonical order (`sort_cards`), where equal
    values lie side by side."""
    firsts = []
    last = -1  # no card's value
    for cid in ordered:  # each card's value read once
        value = order(cid)
        if value != last:
            firsts.append(cid)
            last = value
    return firsts
