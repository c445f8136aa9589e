"""The page of `blackpoker watch` (cli/watch.py): what the last save of the watched file gave —
its problems, its sheets, and a seeded comparison of its games with its base's — rendered from
one immutable snapshot. The page follows the snapshots by itself (server-sent events)."""

from __future__ import annotations

from dataclasses import dataclass

from blackpoker.compiler.documents.diff import RuleSetDiff
from blackpoker.runtime.play.compare import Comparison
from blackpoker.site.render import environment
from blackpoker.site.report_tables import JAPANESE, Section, compared_sections, holm_note

SIGNIFICANT = " *"  # how the report's tables end a difference that is significant after Holm


@dataclass(frozen=True, slots=True)
class Compared:
    """The comparison of a save with its base: both played on the same seeds, B against A."""

    comparison: Comparison
    changes: RuleSetDiff | None  # the rule change between the two rule sets


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything the page shows. `version` counts the snapshots, `sheet` the builds of the
    pages (the page reloads its sheet only when that moves)."""

    file: str  # as the user named it
    status: str  # one line: what the watch is doing or found
    version: int = 0
    sheet: int = 0
    checked: str = ""  # the time of the save it shows
    problems: tuple[str, ...] = ()  # each `path:line:col: message`, with its line and caret
    notes: tuple[str, ...] = ()  # warnings: read, but better written otherwise
    pages: tuple[str, ...] = ()  # the built pages, relative to the site folder
    stale: bool = False  # the pages and comparison are those of an earlier, good save
    base: str | None = None  # what the file is compared with
    games: int = 0  # of each side of the comparison (0: none is played)
    compared: Compared | None = None


def render_watch(shown: Snapshot, page: str | None) -> str:
    """The page, with `page` (one of the built pages; else the first) in its sheet frame."""
    chosen = page if page in shown.pages else (shown.pages[0] if shown.pages else None)
    sections: tuple[Section, ...] = ()
    note: str | None = None
    moved: tuple[tuple[str, tuple[str, ...]], ...] = ()
    if shown.compared is not None:
        sections = compared_sections(shown.compared.comparison, JAPANESE)
        note = holm_note(shown.compared.comparison, JAPANESE)
        moved = tuple(
            (section.title, row)
            for section in sections
            for row in section.rows
            if any(cell.endswith(SIGNIFICANT) for cell in row)
        )
    return (
        environment()
        .get_template("watch.html")
        .render(shown=shown, chosen=chosen, sections=sections, note=note, moved=moved)
    )
