"""Why a command is refused, as a message id and its values, not as a sentence.

The engine says each refusal once, by id (`Said`); a reader prints it in its own words. The
English words below are the ones scenarios compare (`refused:`, docs/scenarios.md); the
Japanese words a person at the table reads are data, in the labels file
(runtime/play/labels.json), under the same ids and with the same fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Said:
    """A message by id; a value is text (cards, names, notation: the same in every language),
    another message (a word such as `hand`), or a list of them."""

    key: str
    values: tuple[tuple[str, str | Said | tuple[str | Said, ...]], ...] = ()

    def words(self, templates: Mapping[str, str]) -> str:
        """The message in `templates` (id → text with `{field}`s; the template of the id
        `list` joins a list)."""
        return templates[self.key].format_map({name: _shown(value, templates) for name, value in self.values})


def _shown(value: str | Said | tuple[str | Said, ...], templates: Mapping[str, str]) -> str:
    if isinstance(value, Said):
        return value.words(templates)
    if isinstance(value, tuple):
        return templates["list"].join(_shown(v, templates) for v in value)
    return value


def say(message: str, /, **values: str | Said | tuple[str | Said, ...]) -> Said:
    return Said(message, tuple(values.items()))


@dataclass(frozen=True, slots=True)
class Refusal:
    rule: str  # the check that refused, e.g. "timing"
    said: Said

    @property
    def message(self) -> str:
        """In English, the words scenarios compare."""
        return self.said.words(ENGLISH)


# Every refusal's words in English; the labels file has each id in Japanese.
ENGLISH = {
    "list": ", ",
    "nobody": "nobody",
    "hand": "hand",
    "character": "character",
    "character of": "{suit}{type}{kind}",
    "charged bulwark": "a charged bulwark",
    "a character": "a character",
    "game over": "the game is over",
    "not deciding": "{who} cannot act now: {decider} decides",
    "top first": "{who} chooses a graveyard's top card first",
    "answer waiting": "an effect waits for {who}'s answer",
    "no action": "no action named '{name}' in format {format}",
    "not direct": "{name} cannot be requested directly",
    "main timing turn": "{name} has main timing: only on {who}'s own turn",
    "main timing stage": "{name} has main timing: the stage must be empty",
    "once per turn": "{name} can be requested once per turn",
    "times per turn": "{name} can be requested {count} times per turn",
    "only without turn": "{name} can be requested only without the turn: {who} holds it",
    "not caused": "{name} is not caused by a character: drop 'by {card}'",
    "cause missing": "{name} is caused by a charged {wanted} of {who}'s: name it with 'by CARD'",
    "cause theirs": "{card} is {other}'s: only {who}'s own characters cause {name}",
    "cause absent": "{who} has no {card} on the field",
    "cause unfit": "{card} is not a {wanted}: {name} is caused by one",
    "cause driven": "{card} is driven: {name} is caused by a charged {wanted}",
    "requirement printed": "{name} can be requested only when: {condition}",
    "requirement": "{name} can be requested only when {condition} holds",
    "requirement now": "{name} can be requested only when {condition} holds; now {now}",
    "now": "{value} is {number}",
    "key not there": "key card {card} is not in {who}'s {where}",
    "no keys taken": "{name} takes no key cards",
    "keys unmatched": "key cards {keys} do not match {key}",
    "no cards": "(none)",
    "cost": "the cost is ${needed}, not ${given}",
    "no cost": " (none)",
    "needs target": "{name} needs a target",
    "no legal target": "{name} has no legal target now, and an action with a 対象 needs one",
    "takes no target": "{name} takes no target",
    "no such character": "{who} has no {card} on the field",
    "no such zone card": "{who} has no {card} in {zone}",
    "uncounterable": "{target} is {name}, which counter actions cannot target",
    "invalid target": "{target} is not a valid target of {name}",
    "life names no card": "$L is 1 damage and names no card, not {card}",
    "discard needs card": "the payment is missing its card: $D names the card {who} discards, $D(card)",
    "discard is key": "{card} is a key card and cannot be used as a D cost",
    "discard not in hand": "{card} is not in {who}'s hand",
    "cause names no card": (
        "$C is the drive of the character that causes the request and names no card, not {card}"
    ),
    "unit needs card": (
        "the payment is missing its card: ${letter} names {needs} of {who} by its card, ${letter}(card)"
    ),
    "unit not fit": "${letter} needs {needs} of {who}: {card} is not one",
    "no answer waiting": "no effect is waiting for an answer; {who} holds chance",
    "not an answer": "'{written}' is not one of the answers ({answers})",
    "not an option": "not a legal option",
}
