"""What a person reads is Japanese: the English words a text still holds, once the command
notation, card notation and a short allow-list are set aside (docs/play.md, "The labels")."""

from __future__ import annotations

import re

ALLOWED = {
    "BlackPoker",  # the product's name
    "Joker",  # a card, as the card notation writes it
    # the command notation's own words, which a person may type (scenarios.md)
    "pass",
    "stage",
    "resolving",
    "face-down",
    "by",
    "with",
    # the terminal's keys: help, q (quit), b (back)
    "help",
    "q",
    "b",
}
# Not words: players (p1), edition ids (v9.1.1), a card's or a cost unit's letter (A, J, Q, K,
# D, B, S, L, C), a cost in the notation ($BD(♠4)L).
_NOT_WORDS = re.compile(
    r"(?<![A-Za-z0-9])(p[12]|v\d+(\.\d+)*|[A-Z])(?![A-Za-z0-9])|\$(?:Joker|[A-Z()♠♡♢♣0-9])+"
)
_WORD = re.compile(r"[A-Za-z][A-Za-z_\-]*")


def english_words(text: str) -> list[str]:
    """The English words of `text` outside the notation and ALLOWED, each once."""
    return sorted({w for w in _WORD.findall(_NOT_WORDS.sub(" ", text)) if w not in ALLOWED})
