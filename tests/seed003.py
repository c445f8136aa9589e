"""Reader for seed 003, the official std action list of edition 7 as extracted text.

The extraction garbled some headings and symbols; the reader tolerates the known
defects so the fidelity test compares wording, not extraction noise. Every
tolerance is listed here and in docs/decisions.md.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

SEED_NAME = "003_f7eb505f0b383544.txt"

# Effect headings as the extraction spelled them: (通常効果) came out as 诵常, 通堂, 涌带.
_EFFECT = re.compile(r"^\((即時|通常|诵常|通堂|涌带)効果\)?$")
# (対象) came out once as (象位).
_TARGET = re.compile(r"^\((対象|象位)\)$")
_ABILITY = re.compile(r"^\(能力\)$")
_ENTRY = re.compile(
    r"^(?:[■○]\s*)?(?P<name>\S+?)\s*\((?P<type>[^)]+)\)\s*\[(?P<tag>lite|std)\]\s*(?:★\s*(?P<key>.*))?$"
)
_TIMING = re.compile(r"^@\s*(?P<timing>メイン|クイック)\s*(?:\|\s*(?:\*\*)?\s*\\?\$\s*(?P<cost>[A-Z ]+))?")
_KEY_LINE = re.compile(r"^★\s*(?P<key>.+)$")
_SECTIONS = {"展開系", "攻撃系", "攻擊系", "魔法系", "誘発系", "兵士", "防壁"}


@dataclass
class SeedEntry:
    name: str
    type: str
    tag: str
    key: str = ""
    timing: str | None = None
    cost: str | None = None
    speed: str | None = None
    note: list[str] = field(default_factory=list)
    target: list[str] = field(default_factory=list)
    effect: list[str] = field(default_factory=list)
    ability: list[str] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)  # text before any heading


def _section(line: str) -> bool:
    return re.sub(r"\s+", "", line) in _SECTIONS


def read(path: Path) -> tuple[list[SeedEntry], list[SeedEntry]]:
    """Return (actions, characters) in seed order."""
    text = path.read_text(encoding="utf-8")
    head, _, chars = text.partition("CharacterList")
    head = head.rpartition("\n")[0]  # drop the garbled キャラクターリスト heading line
    _, _, acts = head.partition("Action List")
    chars_body, _, _ = chars.partition("誌名")
    return _entries(acts), _entries(chars_body)


def _entries(body: str) -> list[SeedEntry]:
    entries: list[SeedEntry] = []
    current: SeedEntry | None = None
    bucket: list[str] = []
    for raw in body.splitlines():
        line = raw.strip()
        if not line or _section(line):
            continue
        match = _ENTRY.match(line)
        if match:
            current = SeedEntry(match["name"], match["type"], match["tag"], (match["key"] or "").strip())
            entries.append(current)
            bucket = current.loose
            continue
        if current is None:
            continue
        if (m := _TIMING.match(line)) and current.timing is None:
            current.timing, current.cost = m["timing"], (m["cost"] or "").replace(" ", "")
        elif m := _KEY_LINE.match(line):
            current.key = m["key"].strip()
        elif line.startswith("※"):
            bucket = current.note
            bucket.append(line)
        elif _TARGET.match(line):
            bucket = current.target
        elif m := _EFFECT.match(line):
            current.speed = "immediate" if m[1] == "即時" else "normal"
            bucket = current.effect
        elif _ABILITY.match(line):
            bucket = current.ability
        elif not line.startswith("@"):
            bucket.append(line)
    return entries


# Symbols the extraction garbled: ◊ and ◇ are ♢.
_SYMBOLS = str.maketrans({"◊": "♢", "◇": "♢", "~": "〜", "～": "〜"})
_MARKERS = re.compile(r"(?:^|(?<=。))(?:\s*(?:(?:\d+|[A-Za-z])\.|\([a-z]\)|・|•|-+))+\s*")


def normalize_text(text: str) -> str:
    """Compare wording only: no spacing, no list markers, one spelling per symbol."""
    text = unicodedata.normalize("NFKC", text).translate(_SYMBOLS)
    lines = [_MARKERS.sub("", line.strip()) for line in text.splitlines()]
    return re.sub(r"\s+", "", "".join(lines))


def normalize_notation(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).translate(_SYMBOLS)).lstrip(".")
