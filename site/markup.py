"""Rule-text markup of the action lists → a block tree the templates print as real lists.

The data marks list items at the start of a line, as the official sheets print them (and a
line of dashes, `---`, as a rule between two parts):
`１．`/`1.` numbered, `・` bulleted, one `-` per nesting level (`-１．`), and lettered items
(`--A.`) only when nested, so a sentence that starts with a capital is never a list item.
Only the marker is dropped; the item's text is kept exactly as written.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from enum import StrEnum

from markupsafe import Markup, escape


class ListStyle(StrEnum):
    NUMBERED = "numbered"
    BULLETED = "bulleted"
    LETTERED = "lettered"


@dataclass(slots=True)
class Item:
    text: str
    lists: list[ListBlock] = field(default_factory=list)  # lists nested under this item


@dataclass(slots=True)
class ListBlock:
    style: ListStyle
    items: list[Item] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Paragraph:
    text: str


@dataclass(frozen=True, slots=True)
class Separator:
    """A line of three or more dashes: the sheets print a rule between two parts of a text."""


Block = Paragraph | ListBlock | Separator

_SEPARATOR = re.compile(r"-{3,}")

_NUMBERED = re.compile(r"[0-9０-９]+[.．]\s*")
_LETTERED = re.compile(r"[A-Za-zＡ-Ｚａ-ｚ][.．]\s*")
_BULLETED = re.compile(r"・\s*")


def _list_line(line: str) -> tuple[int, ListStyle, str] | None:
    """(depth, style, text) of a list item line, or None for running text."""
    body = line.lstrip("-")
    depth = len(line) - len(body)
    patterns = [(ListStyle.NUMBERED, _NUMBERED), (ListStyle.BULLETED, _BULLETED)]
    if depth:
        patterns.append((ListStyle.LETTERED, _LETTERED))
    for style, pattern in patterns:
        marker = pattern.match(body)
        if marker:
            return depth, style, body[marker.end() :]
    return None


def _closed_by(open_list: tuple[int, ListBlock], depth: int, style: ListStyle) -> bool:
    """An item ends the lists nested deeper than it, and a list of another style at its depth."""
    open_depth, block = open_list
    return open_depth > depth or (open_depth == depth and block.style != style)


def blocks(text: str) -> list[Block]:
    """Split rule text into paragraphs and (nested) lists, one line per paragraph or item."""
    result: list[Block] = []
    open_lists: list[tuple[int, ListBlock]] = []  # (depth, list), innermost last
    for line in text.splitlines():
        if not line.strip():
            continue
        if _SEPARATOR.fullmatch(line.strip()):
            open_lists.clear()
            result.append(Separator())
            continue
        parsed = _list_line(line)
        if parsed is None:
            open_lists.clear()
            result.append(Paragraph(line))
            continue
        depth, style, item_text = parsed
        while open_lists and _closed_by(open_lists[-1], depth, style):
            open_lists.pop()
        if not open_lists or open_lists[-1][0] < depth:
            new_list = ListBlock(style)
            if open_lists and open_lists[-1][1].items:
                open_lists[-1][1].items[-1].lists.append(new_list)
            else:
                result.append(new_list)
            open_lists.append((depth, new_list))
        open_lists[-1][1].items.append(Item(item_text))
    return result


_RED_SUITS = frozenset("♡♢♥♦")
_BLACK_SUITS = frozenset("♠♣♤♧")
_SUIT_RUN = re.compile("([♡♢♥♦♠♣♤♧])")


def suits(text: str) -> Markup:
    """Escape text and wrap each suit symbol in a span that colours it (♡♢ red, ♠♣ black)."""
    # Joined once: a sheet calls this some 1,500 times, and adding to a Markup escapes again.
    html = []
    for part in _SUIT_RUN.split(text):
        if part in _RED_SUITS:
            html.append(f'<span class="suit red">{part}</span>')  # a suit symbol needs no escaping
        elif part in _BLACK_SUITS:
            html.append(f'<span class="suit black">{part}</span>')
        else:
            html.append(escape(part))
    return Markup("".join(html))


RUBY_SIZE = 0.5  # a ルビ's font size, in its name's em (sheet.css: rt)
_OVERHANG = 2.0  # how far, in its own em, a ルビ's box may reach past its name's on each side (sheet.css)


def _width(text: str) -> float:
    """Roughly how wide text sets, in em: full-width characters 1, the others (Latin) about half."""
    return sum(1.0 if unicodedata.east_asian_width(char) in "WFA" else 0.55 for char in text)


def ruby_spread(name: str, ruby: str) -> float:
    """The letter spacing, in em, that sets a name as wide as its ルビ, so that the reading
    never reaches past the name it reads; 0 when the reading is the narrower."""
    extra = _width(ruby) * RUBY_SIZE - _width(name)
    return round(extra / (len(name) - 1), 3) if extra > 0 and len(name) > 1 else 0.0


def ruby_overhang(spread: float) -> float:
    """The right edge of a spread name's ルビ box, in the ルビ's em: the spacing after the
    name's last character is not part of the name, so the reading is centred without it."""
    return round(spread / RUBY_SIZE - _OVERHANG, 3)
