"""Input normalisation for notation strings, keeping a map back to the original text.

Authors type key and cost notation with full-width letters, assorted tildes and
spaces. The grammars see one spelling only; the offset map lets error messages
point at what the author actually wrote.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from itertools import compress
from operator import not_

# Every character str.isspace() accepts lies below U+3001 (U+3000 is the ideographic space).
_WHITESPACE = [code for code in range(0x3001) if chr(code).isspace()]
# The Halfwidth and Fullwidth Forms block, folded by NFKC: ＢＬ → BL, ２ → 2, （） → ().
_FULL_WIDTH = {code: unicodedata.normalize("NFKC", chr(code)) for code in range(0xFF00, 0xFFF0)}

# One table for str.translate: whitespace is dropped, every other entry maps one character to one
# character, so normalize() can rebuild the offset map from the dropped positions alone.
_TABLE: dict[int, str | None] = {
    **{code: text for code, text in _FULL_WIDTH.items() if len(text) == 1 and not text.isspace()},
    **dict.fromkeys(_WHITESPACE),
    ord("~"): "〜",
    ord("～"): "〜",  # NFKC would make it "~"
    ord("♥"): "♡",
    ord("♦"): "♢",
    ord("♤"): "♠",
    ord("♧"): "♣",
    ord("、"): ",",
}


@dataclass(frozen=True, slots=True)
class Normalized:
    """Normalised text plus, for each of its characters, the index of the source character."""

    source: str
    text: str
    origin: tuple[int, ...]

    def original_offset(self, index: int) -> int:
        """Map an index of `text` (len(text) meaning end of input) to an index of `source`."""
        if index == len(self.text):
            return len(self.source)
        return self.origin[index]

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Map a half-open span of `text` to `source`; at least one character long, except at the end."""
        first = self.original_offset(start)
        if start >= len(self.text):
            return first, first
        last = self.origin[max(end, start + 1) - 1]
        return first, last + 1


def normalize(text: str) -> Normalized:
    """Fold full-width forms, unify tildes, suit symbols and 、, and drop all whitespace."""
    folded = text.translate(_TABLE)
    positions = range(len(text))
    if len(folded) == len(text):
        return Normalized(text, folded, tuple(positions))
    # C-level iterators: this runs for every notation string the compiler reads.
    kept = map(not_, map(str.isspace, text))
    return Normalized(text, folded, tuple(compress(positions, kept)))
