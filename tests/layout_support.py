"""The layout of the built sheets, checked by machine: the PDFs read with pdfplumber (text boxes,
their colours, and the tagged structure that says which <article> each character belongs to),
the HTML pages measured in headless Chromium (element boxes and computed styles).

Every check returns a list of problems, each naming the file and what is wrong, so that a test
reports all of them at once:
- no text outside the page's printable area (PRINTABLE_MARGIN from each paper edge);
- no two text boxes of different entries overlap;
- every ルビ sits above its name and within the name's width;
- every entry of the page is printed exactly once (the PDF's articles are the HTML's, in order;
  the HTML's are the page's data: tests/test_layout.py);
- every suit glyph is in its suit colour, at a contrast of at least MIN_CONTRAST against what
  it is printed on.
"""

from __future__ import annotations

import html
import re
import subprocess
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pdfplumber

MM = 72 / 25.4
PRINTABLE_MARGIN = 4 * MM  # most printers print nothing closer than 3–4.2 mm to the paper's edge
MIN_CONTRAST = 4.5  # WCAG AA for text
TOLERANCE = 0.5  # pt: how far two boxes may cross before it counts (glyph boxes are advance boxes)
RED_SUITS, BLACK_SUITS = frozenset("♡♢♥♦"), frozenset("♠♣♤♧")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_PDF_HEADINGS = tuple(h.upper() for h in _HEADINGS)


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


# --- the entries of a page, as its HTML has them -------------------------------------------------


@dataclass(slots=True)
class Entry:
    """An <article> of a page: its id, the text of its first heading (with its ルビ), and the
    name and reading of the <ruby> in that heading, if any."""

    id: str
    heading: str = ""
    base: str = ""
    ruby: str = ""


class _Entries(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.entries: list[Entry] = []
        self._open: list[tuple[Entry, int]] = []  # open articles, with the depth they opened at
        self._depth = 0
        self._heading: int | None = None  # depth of the heading being read, of the innermost article
        self._in: list[str] = []  # what inside the heading is open: rt, rp, base
        self._read = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._depth += 1
        if tag == "article":
            entry = Entry(dict(attrs).get("id") or "")
            self.entries.append(entry)
            self._open.append((entry, self._depth))
        elif tag in _HEADINGS and self._open and not self._open[-1][0].heading and self._heading is None:
            self._heading = self._depth
        elif self._heading is not None:
            classes = (dict(attrs).get("class") or "").split()
            self._in.append("base" if "base" in classes else tag)

    def handle_endtag(self, tag: str) -> None:
        if self._heading is not None and self._depth == self._heading:
            self._heading = None
        elif self._heading is not None and self._in:
            self._in.pop()
        if tag == "article" and self._open and self._open[-1][1] == self._depth:
            self._open.pop()
        self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._heading is None or "rp" in self._in:
            return
        entry = self._open[-1][0]
        entry.heading += squash(data)
        if "rt" in self._in:
            entry.ruby += squash(data)
        elif "base" in self._in:
            entry.base += squash(data)


_VOID = ("br", "img", "input", "meta", "link", "hr", "col", "source", "wbr", "area", "base", "embed")


def html_entries(html: str) -> list[Entry]:
    """The page's articles in document order (void elements dropped, so depths stay paired)."""
    parser = _Entries()
    parser.feed(re.sub(rf"<(?:{'|'.join(_VOID)})\b[^>]*>", "", html))
    return parser.entries


# --- the PDFs ------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Art:
    """A tagged <article> of the PDF: its characters, and those of its first heading."""

    chars: list[dict[str, Any]] = field(default_factory=list)
    heading: list[dict[str, Any]] = field(default_factory=list)
    nested_in: int | None = None


def _arts(pdf: Any) -> list[_Art]:
    """The Art structure elements in document order, each with its own characters (not its
    nested articles'); an article split over two columns or pages is one."""
    by_mcid: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for page in pdf.pages:
        for char in page.chars:
            if char.get("mcid") is not None:
                by_mcid[(char["page_number"], char["mcid"])].append(char)
    arts: list[_Art] = []

    def chars_of(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
        page = node.get("page_number")
        for mcid in node.get("mcids", ()):
            yield from by_mcid.get((page, mcid), ())
        for child in node.get("children", ()):
            if child.get("type") != "Art":
                yield from chars_of(child)

    def walk(node: dict[str, Any], parent: int | None) -> None:
        if node.get("type") == "Art":
            art = _Art(nested_in=parent)
            art.chars = list(chars_of(node))
            heading = _first_heading(node)
            art.heading = list(chars_of(heading)) if heading else []
            siblings = [i for i, other in enumerate(arts) if other.nested_in == parent]
            if heading is None and siblings:
                index = siblings[-1]  # the rest of an article a column or page break split
                arts[index].chars += art.chars
            else:
                arts.append(art)
                index = len(arts) - 1
            for child in node.get("children", ()):
                walk(child, index)
            return
        for child in node.get("children", ()):
            walk(child, parent)

    for root in pdf.structure_tree:
        walk(root, None)
    return arts


def _first_heading(node: dict[str, Any]) -> dict[str, Any] | None:
    for child in node.get("children", ()):
        if child.get("type") in _PDF_HEADINGS:
            return child
        if child.get("type") != "Art" and (found := _first_heading(child)):
            return found
    return None


def _box(chars: Sequence[dict[str, Any]]) -> tuple[float, float, float, float]:
    return (
        min(c["x0"] for c in chars),
        min(c["top"] for c in chars),
        max(c["x1"] for c in chars),
        max(c["bottom"] for c in chars),
    )


def pdf_problems(path: Path, entries: Sequence[Entry], two_up: Path | None = None) -> list[str]:
    """Every layout problem of an A4 sheet, given the entries its HTML page has; and of its 2-up
    sheet: its text inside the printable area, none across the fold, and all of the A4's."""
    problems: list[str] = []
    with pdfplumber.open(path) as pdf:
        problems += _printable(path, pdf)
        problems += _suit_colours(path, pdf)
        arts = _arts(pdf)
        problems += _overlaps(path, pdf, arts)
        problems += _once(path, arts, entries)
        problems += _rubies(path, arts, entries)
        characters = sum(len(squash(c["text"])) for page in pdf.pages for c in page.chars)
    if two_up is not None:
        problems += _two_up(two_up, characters)
    return problems


def _two_up(path: Path, characters: int) -> list[str]:
    """A 2-up sheet, read with poppler's pdftotext (word boxes; five times faster than pdfminer
    on its form XObjects): its text inside the printable area, none across the fold, and as
    many characters as its A4 pages."""
    command = ["pdftotext", "-bbox", str(path), "-"]
    listing = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    problems, count = [], 0
    for number, (size, words) in enumerate(re.findall(r"<page ([^>]*)>(.*?)</page>", listing, re.S), 1):
        width, height = (float(v) for v in re.findall(r'"([\d.]+)"', size)[:2])
        for box, text in re.findall(r"<word ([^>]*)>(.*?)</word>", words):
            x0, top, x1, bottom = (float(v) for v in re.findall(r'"([\d.]+)"', box))
            count += len(squash(html.unescape(text)))
            if min(x0, top, width - x1, height - bottom) < PRINTABLE_MARGIN - TOLERANCE:
                problems.append(f"{path.name} p{number}: '{html.unescape(text)}' outside the printable area")
            if x0 < width / 2 - TOLERANCE and x1 > width / 2 + TOLERANCE:
                problems.append(f"{path.name} p{number}: '{html.unescape(text)}' lies across the fold")
    if count != characters:
        problems.append(f"{path.name}: {count} characters, its A4 pages have {characters}")
    return problems


def _printable(path: Path, pdf: Any) -> list[str]:
    problems = []
    for page in pdf.pages:
        width, height = float(page.width), float(page.height)
        outside = [
            c
            for c in page.chars
            if c["text"].strip()
            and (
                c["x0"] < PRINTABLE_MARGIN - TOLERANCE
                or c["top"] < PRINTABLE_MARGIN - TOLERANCE
                or c["x1"] > width - PRINTABLE_MARGIN + TOLERANCE
                or c["bottom"] > height - PRINTABLE_MARGIN + TOLERANCE
            )
        ]
        if outside:
            text = "".join(c["text"] for c in outside[:20])
            problems.append(
                f"{path.name} p{page.page_number}: {len(outside)} characters outside the printable area: "
                f"{text}"
            )
    return problems


def _overlaps(path: Path, pdf: Any, arts: Sequence[_Art]) -> list[str]:
    """Characters of two different entries (or of an entry and the page's other text) whose
    boxes cross. Each page's characters go into a grid of cells, compared cell by cell."""
    owner = {id(c): i for i, art in enumerate(arts) for c in art.chars}
    problems: list[str] = []
    cell = 12.0
    for page in pdf.pages:
        grid: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
        for char in page.chars:
            if not char["text"].strip():
                continue
            for x in range(int(char["x0"] // cell), int(char["x1"] // cell) + 1):
                for y in range(int(char["top"] // cell), int(char["bottom"] // cell) + 1):
                    grid[(x, y)].append(char)
        seen: set[tuple[int, int]] = set()
        for chars in grid.values():
            for i, a in enumerate(chars):
                for b in chars[i + 1 :]:
                    if owner.get(id(a), -1) == owner.get(id(b), -1) or (id(a), id(b)) in seen:
                        continue
                    seen.add((id(a), id(b)))
                    wide = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
                    tall = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
                    if wide > TOLERANCE and tall > TOLERANCE:
                        problems.append(
                            f"{path.name} p{page.page_number}: '{a['text']}' and '{b['text']}' of different "
                            f"entries overlap at ({a['x0']:.0f}, {a['top']:.0f})"
                        )
    return problems[:20]


def _text(chars: Sequence[dict[str, Any]]) -> str:
    return "".join(sorted(squash("".join(c["text"] for c in chars))))


def _once(path: Path, arts: Sequence[_Art], entries: Sequence[Entry]) -> list[str]:
    """The PDF's articles are the page's entries, each once and in order (compared by heading)."""
    printed = [_text(art.heading) for art in arts]
    wanted = ["".join(sorted(entry.heading)) for entry in entries]
    if printed == wanted:
        return []
    names = {"".join(sorted(e.heading)): e.heading for e in entries}
    missing = [names[w] for w in wanted if printed.count(w) < wanted.count(w)]
    extra = [names.get(p, p) for p in printed if printed.count(p) > wanted.count(p)]
    return [
        f"{path.name}: the printed entries are not the page's ({len(printed)} printed, {len(wanted)} on the "
        f"page; missing {sorted(set(missing))[:10]}, printed too often {sorted(set(extra))[:10]})"
    ]


def _rubies(path: Path, arts: Sequence[_Art], entries: Sequence[Entry]) -> list[str]:
    problems = []
    for art, entry in zip(arts, entries, strict=False):
        if not entry.ruby:
            continue
        if not art.heading:
            problems.append(f"{path.name}: {entry.id}: its name is not printed")
            continue
        size = max(c["size"] for c in art.heading)
        reading = [c for c in art.heading if c["size"] < 0.8 * size]
        line = sorted(
            (c for c in art.heading if c["size"] >= 0.8 * size), key=lambda c: (round(c["top"]), c["x0"])
        )
        text = "".join(c["text"] for c in line)
        at = text.find(entry.base)
        if at < 0 or squash("".join(c["text"] for c in sorted(reading, key=lambda c: c["x0"]))) != entry.ruby:
            problems.append(
                f"{path.name}: {entry.id}: name {entry.base} or its ルビ {entry.ruby} not found as such"
            )
            continue
        name = _box(line[at : at + len(entry.base)])
        ruby = _box(reading)
        above = ruby[3] <= name[1] + TOLERANCE and ruby[3] >= name[1] - size
        within = ruby[0] >= name[0] - TOLERANCE and ruby[2] <= name[2] + TOLERANCE
        if not (above and within):
            problems.append(
                f"{path.name}: {entry.id}: the ルビ {entry.ruby} is not above and within {entry.base} "
                f"(ルビ {', '.join(f'{v:.1f}' for v in ruby)}; name {', '.join(f'{v:.1f}' for v in name)})"
            )
    return problems


def _luminance(rgb: Sequence[float]) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Sequence[float], b: Sequence[float]) -> float:
    """WCAG contrast ratio of two sRGB colours (channels 0..1)."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _rgb(colour: Any) -> tuple[float, float, float]:
    values = tuple(colour) if isinstance(colour, list | tuple) else (colour if colour is not None else 0,)
    if len(values) == 1:
        return (float(values[0]),) * 3  # type: ignore[return-value]
    if len(values) == 4:  # CMYK
        c, m, y, k = (float(v) for v in values)
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return (float(values[0]), float(values[1]), float(values[2]))


def is_red(rgb: Sequence[float]) -> bool:
    return rgb[0] > 0.5 and rgb[1] < 0.35 and rgb[2] < 0.35


def is_black(rgb: Sequence[float]) -> bool:
    return max(rgb) < 0.3


def _suit_colours(path: Path, pdf: Any) -> list[str]:
    """Each suit glyph in its colour, at a contrast of at least MIN_CONTRAST against what it is
    printed on: the commonest colour of the rim of its box on the rendered page."""
    problems = []
    for page in pdf.pages:
        suits = [c for c in page.chars if c["text"] in RED_SUITS | BLACK_SUITS]
        if not suits:
            continue
        scale = 2.0  # 144 dpi
        image = page.to_image(resolution=72 * scale).original.convert("RGB")
        for char in suits:
            ink = _rgb(char.get("non_stroking_color"))
            paper = _background(image, char, scale)
            right = is_red(ink) if char["text"] in RED_SUITS else is_black(ink)
            ratio = contrast(ink, paper)
            if not right or ratio < MIN_CONTRAST:
                problems.append(
                    f"{path.name} p{page.page_number}: {char['text']} printed in "
                    f"{tuple(round(v, 2) for v in ink)} on {tuple(round(v, 2) for v in paper)} "
                    f"(contrast {ratio:.1f})"
                )
    return problems[:20]


def _background(image: Any, char: dict[str, Any], scale: float) -> tuple[float, float, float]:
    left, top = round(char["x0"] * scale), round(char["top"] * scale)
    right, bottom = round(char["x1"] * scale) - 1, round(char["bottom"] * scale) - 1
    rim = [(x, y) for x in range(left, right + 1) for y in (top, bottom)]
    rim += [(x, y) for y in range(top, bottom + 1) for x in (left, right)]
    colours = Counter(image.getpixel(point) for point in rim)
    red, green, blue = colours.most_common(1)[0][0]
    return (red / 255, green / 255, blue / 255)


# --- the HTML pages in Chromium ------------------------------------------------------------------

# Run in the page; returns a list of problems. Element boxes instead of text boxes: an entry is
# an <article>; a ルビ's box is its <rt>, its name's the <span class="base"> it reads.
BROWSER_CHECK = r"""
(min) => {
  const problems = [];
  const doc = document.documentElement;
  const width = doc.clientWidth;
  if (doc.scrollWidth > width + 1) problems.push(`the page scrolls sideways (${doc.scrollWidth} > ${width})`);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || !node.parentElement.checkVisibility()) continue;
    if (node.parentElement.closest(".visually-hidden, .grid-box")) continue;
    range.selectNodeContents(node);
    for (const box of range.getClientRects()) {
      if (box.width && (box.left < -1 || box.right > width + 1)) {
        problems.push(`text outside the page: ${node.textContent.trim().slice(0, 30)}`);
        break;
      }
    }
    if (/[♡♢♥♦♠♣♤♧]/.test(node.textContent) && !node.parentElement.closest(".suit")) {
      problems.push(`a suit outside a suit span: ${node.textContent.trim().slice(0, 30)}`);
    }
  }
  // an article split over two columns has a box in each (getClientRects)
  const articles = [...document.querySelectorAll("article")].filter((a) => a.checkVisibility());
  const boxes = articles.map((a) => [...a.getClientRects()]);
  for (let i = 0; i < articles.length; i++) {
    for (let j = i + 1; j < articles.length; j++) {
      if (articles[i].contains(articles[j]) || articles[j].contains(articles[i])) continue;
      const crossing = boxes[i].some((a) => boxes[j].some((b) => {
        const wide = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const tall = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        return wide > 1 && tall > 1;
      }));
      if (crossing) problems.push(`entries ${articles[i].id} and ${articles[j].id} overlap`);
    }
  }
  // the boxes of the name's and the reading's glyphs (a positioned <rt> is wider than its text)
  const glyphs = (element) => { range.selectNodeContents(element); return range.getBoundingClientRect(); };
  for (const ruby of document.querySelectorAll("ruby")) {
    const base = ruby.querySelector(".base"), rt = ruby.querySelector("rt");
    if (!base || !rt) { problems.push(`a ruby without its name or reading: ${ruby.textContent}`); continue; }
    const name = glyphs(base), reading = glyphs(rt);
    if (reading.bottom > name.top + 1 || reading.left < name.left - 1 || reading.right > name.right + 1) {
      problems.push(`the ルビ ${rt.textContent} is not above and within ${base.textContent}`);
    }
  }
  const rgba = (text) => (text.match(/[\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const behind = (element) => {
    for (let e = element; e; e = e.parentElement) {
      const colour = rgba(getComputedStyle(e).backgroundColor);
      if (colour.length === 4 ? colour[3] > 0 : colour.length === 3) return colour.slice(0, 3);
    }
    return [255, 255, 255];
  };
  // the suit colours as the stylesheet defines them, resolved to rgb by a probe
  const probe = document.createElement("span");
  document.body.append(probe);
  const colourOf = (name) => {
    probe.style.color = `var(${name})`;
    return rgba(getComputedStyle(probe).color).slice(0, 3);
  };
  const wanted = { red: colourOf("--suit-red"), black: colourOf("--suit-black") };
  probe.remove();
  for (const suit of document.querySelectorAll(".suit")) {
    if (!suit.checkVisibility()) continue;
    const kind = suit.classList.contains("red") ? "red" : "black";
    const ink = rgba(getComputedStyle(suit).color).slice(0, 3);
    const paper = behind(suit);
    const [light, dark] = [luminance(ink), luminance(paper)].sort((x, y) => y - x);
    const ratio = (light + 0.05) / (dark + 0.05);
    if (ink.join() !== wanted[kind].join()) {
      problems.push(`${suit.textContent} in ${ink}, not the ${kind} suit colour ${wanted[kind]}`);
    }
    if (ratio < min) problems.push(`${suit.textContent}: contrast ${ratio.toFixed(2)} (${ink} on ${paper})`);
  }
  // at most five of each kind, so that one kind cannot hide the others
  const kinds = {};
  return [...new Set(problems)].filter((p) => {
    const kind = p.replace(/[^a-z ]/g, "").trim().split(" ").slice(0, 3).join(" ");
    kinds[kind] = (kinds[kind] || 0) + 1;
    return kinds[kind] <= 5;
  });
}
"""


def browser_problems(page: Any, path: Path) -> list[str]:
    """The page (a playwright Page) opened from disk, checked on screen and as printed."""
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    problems = [f"{path.name} (screen): {p}" for p in page.evaluate(BROWSER_CHECK, MIN_CONTRAST)]
    page.emulate_media(media="print")
    problems += [f"{path.name} (print): {p}" for p in page.evaluate(BROWSER_CHECK, MIN_CONTRAST)]
    page.emulate_media(media="screen")
    return problems
