"""Which pages a build makes: one sheet per (edition, format), an `all` sheet, local rules,
and per edition a 変更履歴 page (its changes against its predecessor).

Everything is compiled here, before a single file is written, so that bad input leaves
no partial site behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from blackpoker.compiler import CompileError, Diagnostic, RuleSet, compile
from blackpoker.compiler.diff import EVERY_FORMAT, RuleSetDiff, diff_rulesets, whole_edition
from blackpoker.compiler.parse import OverlaySource
from blackpoker.compiler.pipeline import builtin_editions, compile_edition, edition_source, read_source

ALL = EVERY_FORMAT.id  # the page listing every action of an edition, whatever its formats
CHANGES = "changes"  # the page name of an edition's 変更履歴


@dataclass(frozen=True, slots=True)
class Page:
    ruleset: RuleSet

    @property
    def edition(self) -> str:
        return self.ruleset.edition.id

    @property
    def slug(self) -> str:
        return self.ruleset.format.id

    @property
    def path(self) -> str:
        """Where the page lives, relative to the site root (and to --base-url)."""
        return f"{self.edition}/{self.slug}.html"


@dataclass(frozen=True, slots=True)
class ChangesPage:
    """An edition's 変更履歴: what it adds, removes and changes against its predecessor."""

    diff: RuleSetDiff

    @property
    def edition(self) -> str:
        return self.diff.new.edition.id

    @property
    def path(self) -> str:
        return f"{self.edition}/{CHANGES}.html"


def all_ruleset(edition: str) -> RuleSet:
    """Every action and character of the edition; each still carries its formats and marks."""
    return whole_edition(edition_source(edition))


def plan(editions: Sequence[str], formats: Sequence[str], rules: Path | None) -> list[Page]:
    """Compile every requested page; raise one CompileError holding every problem found.

    No formats means all of them plus the `all` page; `all` can also be asked for by name.
    A format named like the local-rule file's format selects that file's page.
    """
    pages: list[Page] = []
    problems: list[Diagnostic] = []
    overlay_name = ""
    if rules is not None:
        try:
            overlay = _overlay_ruleset(rules)
        except CompileError as error:
            problems += error.diagnostics
        else:
            overlay_name = overlay.format.id
            pages.append(Page(overlay))
    official = [f for f in formats if f != overlay_name]
    if formats and not official:
        return _checked(pages, problems)
    order = list(editions or builtin_editions())
    for edition in order:
        try:
            pages += _edition_pages(edition, official)
        except CompileError as error:
            problems += error.diagnostics
    return _checked(sorted(pages, key=lambda page: _order(page, order)), problems)


def changes(editions: Sequence[str]) -> list[ChangesPage]:
    """The 変更履歴 page of each edition that has a predecessor: the next older built-in edition."""
    registry = builtin_editions()  # newest first
    pages = []
    for edition in editions or registry:
        older = registry[registry.index(edition) + 1 :] if edition in registry else ()
        if older:
            new = whole_edition(edition_source(edition))
            pages.append(ChangesPage(diff_rulesets(whole_edition(edition_source(older[0])), new)))
    return pages


def _checked(pages: list[Page], problems: list[Diagnostic]) -> list[Page]:
    if problems:
        raise CompileError(problems)
    return pages


def _edition_pages(edition: str, formats: Sequence[str]) -> list[Page]:
    if not formats:
        return [Page(r) for r in compile_edition(edition).values()] + [Page(all_ruleset(edition))]
    return [Page(all_ruleset(edition) if f == ALL else compile(edition, f)) for f in dict.fromkeys(formats)]


def _overlay_ruleset(rules: Path) -> RuleSet:
    source, problems = read_source(rules)
    if problems:
        raise CompileError(problems)
    if not isinstance(source, OverlaySource):
        # compile() reports a file that is not a local rule with its own located message.
        return compile(format="", rules=rules)
    return compile(source.edition_id, source.format.id, rules)


def _order(page: Page, editions: Sequence[str]) -> tuple[int, int]:
    """Editions in the order asked for (the registry's: newest first), each in its format
    order, then local rules, then `all`; a local rule's edition not asked for comes last."""
    rank = editions.index(page.edition) if page.edition in editions else len(editions)
    ids = [f.id for f in page.ruleset.edition.formats]
    if page.slug in ids:
        return rank, ids.index(page.slug)
    return rank, len(ids) + (page.slug == ALL)
