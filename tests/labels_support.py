"""What a person reads is Japanese: the English words a text still holds, once the command
notation, card notation and a short allow-list are set aside (docs/play.md, "The labels")."""

from __future__ import annotations

import re

ALLOWED = frozenset({"BlackPoker", "Joker"})  # the product's name; a card, as the notation writes it
# The terminal's keys a prompt names: help, q (quit), b (back).
KEYS = frozenset({"help", "q", "b"})
# The command notation's own words, quoted where a help text explains how to type a command.
NOTATION = frozenset({"pass", "stage", "resolving", "face-down", "by", "with"})
# Not words: players (p1), edition ids (vN.N.N), a card's or a cost unit's letter (A, J, Q, K,
# D, B, S, L, C), a cost in the notation ($BD(♠4)L).
_NOT_WORDS = re.compile(
    r"(?<![A-Za-z0-9])(p[12]|v\d+(\.\d+)*|[A-Z])(?![A-Za-z0-9])|\$(?:Joker|[A-Z()♠♡♢♣0-9])+"
)
# A page's text as a person reads it, and the explanations its entries show on `?` (which may
# quote the notation, to type a command with): scripts a browser test evaluates in the page.
TEXT = "() => document.body.innerText"
HELP = "() => [...document.querySelectorAll('[title]')].map((node) => node.title).join('\\n')"
_WORD = re.compile(r"[A-Za-z][A-Za-z_\-]*")


def english_words(text: str, allowed: frozenset[str] = ALLOWED) -> list[str]:
    """The English words of `text` outside the card and cost notation and `allowed`, each once."""
    return sorted({w for w in _WORD.findall(_NOT_WORDS.sub(" ", text)) if w not in allowed})
