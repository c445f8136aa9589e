"""Which pages a build makes: one sheet per (edition, format), an `all` sheet, local rules,
and per edition a 変更履歴 page (its changes against its predecessor).

Everything is compiled here, before a single file is written, so that bad input leaves
no partial site behind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from blackpoker.compiler import CompileError, Diagnostic, RuleSet
from blackpoker.compiler.documents.diff import (
    EVERY_FORMAT,
    ListDiff,
    RuleSetDiff,
    diff_entries,
    diff_rulesets,
    whole_edition,
)
from blackpoker.compiler.documents.extra import ExtraSource
from blackpoker.compiler.documents.regulation import (
    Frame,
    Option,
    Regulations,
    adders,
    adding,
    parts,
    played_formats,
)
from blackpoker.compiler.environment import Environment, is_path
from blackpoker.compiler.load import load_file
from blackpoker.compiler.parse import OverlaySource
from blackpoker.runtime.rules.diagnostics import Location
from blackpoker.runtime.rules.model import Action, Edition, Format

ALL = EVERY_FORMAT.id  # the page listing every action of an edition, whatever its formats
EXTRA = "extra"  # the extra format's pages: an edition's extra lists (切札, seed 001 §4.2)
REGULATIONS = "regulations"  # the page name of an edition's match regulations
CHANGES = "changes"  # the page name of an edition's 変更履歴


@dataclass(frozen=True, slots=True)
class Edits:
    """What a local rule's sheets mark: the entries (or trumps) it adds and those it changes."""

    added: frozenset[str]  # ids of the entries it adds (or takes from a bigger format)
    changed: frozenset[str]  # ids of the base's entries it changes

    @staticmethod
    def of(parts: Sequence[ListDiff]) -> Edits:
        return Edits(
            frozenset(entry.id for part in parts for entry in part.added),
            frozenset(change.entry.id for part in parts for change in part.changed),
        )


@dataclass(frozen=True, slots=True)
class House:
    """What a local rule's sheet says of itself: its base, its description, what it changed."""

    base: RuleSet  # the official format it starts from
    description: str
    edits: Edits


@dataclass(frozen=True, slots=True)
class FrameActions:
    """What a format's sheet under a frame (or an option) adds, as the official site lists
    frame-dependent actions: each action with the frames and options that add it."""

    part: Frame | Option
    actions: tuple[Action, ...]
    adders: Mapping[str, tuple[Frame | Option, ...]]  # action id → the frames and options adding it


class SitePage:
    """A page of the site: it lives at `<edition>/<slug>.html`, relative to the site root
    (and to --base-url)."""

    __slots__ = ()

    @property
    def edition(self) -> str:
        raise NotImplementedError

    @property
    def slug(self) -> str:
        raise NotImplementedError

    @property
    def path(self) -> str:
        return f"{self.edition}/{self.slug}.html"


@dataclass(frozen=True, slots=True)
class Page(SitePage):
    ruleset: RuleSet
    official_url: str | None = None  # where the official site publishes this sheet, if it does
    house: House | None = None  # set for a local rule's sheet
    frame: FrameActions | None = None  # set for a format's sheet under a frame
    based: Edits | None = None  # set for a based edition file's sheet: what it adds or changes

    @property
    def marks(self) -> Edits | None:
        """What the sheet marks as added (追加) or changed (変更): a local rule's edits, or a
        based edition file's against its base."""
        return self.house.edits if self.house is not None else self.based

    @property
    def edition(self) -> str:
        return self.ruleset.edition.id

    @property
    def slug(self) -> str:
        own = self.ruleset.format.id
        return own if self.frame is None else f"{own}-{self.frame.part.id}"


@dataclass(frozen=True, slots=True)
class ExtraPage(SitePage):
    """An extra list (切札): its trump grid, abilities and actions."""

    extra: ExtraSource
    ruleset: RuleSet  # the list's actions in the edition, for the action list's entry layout
    edits: Edits | None = None  # set for a local rule's list: the trumps it adds and changes

    @property
    def edition(self) -> str:
        return self.extra.edition_id

    @property
    def slug(self) -> str:
        return f"{EXTRA}-{self.extra.id}"


@dataclass(frozen=True, slots=True)
class RegulationsPage(SitePage):
    """An edition's match regulations: formats, frames, options and their tables (001 §5)."""

    about: Edition  # the edition's header, for the page's heading and the index
    regulations: Regulations

    @property
    def edition(self) -> str:
        return self.about.id

    @property
    def slug(self) -> str:
        return REGULATIONS


@dataclass(frozen=True, slots=True)
class ChangesPage(SitePage):
    """An edition's 変更履歴: what it adds, removes and changes against its predecessor."""

    diff: RuleSetDiff

    @property
    def edition(self) -> str:
        return self.diff.new.edition.id

    @property
    def slug(self) -> str:
        return CHANGES


def all_ruleset(env: Environment, edition: str) -> RuleSet:
    """Every entry of the edition; each still carries its formats and marks."""
    return whole_edition(env.edition(edition))


def plan(env: Environment, editions: Sequence[str], formats: Sequence[str], rules: Path | None) -> list[Page]:
    """Compile every requested page; raise one CompileError holding every problem found.

    Editions are built-in ids or edition files; none means every built-in edition. No
    formats means all of them plus the `all` page; `all` can also be asked for by name.
    A format named like the local-rule file's format selects that file's page.
    """
    pages: list[Page] = []
    problems: list[Diagnostic] = []
    overlay: list[Page] = []
    declared: set[str] = set()  # the local rule's format: never looked for among the official ones
    if rules is not None:
        name = rules_format(rules)
        declared = {name} if name is not None else set()
        try:
            overlay.append(_house_page(env, rules))
        except CompileError as error:
            problems += error.diagnostics
    official = [f for f in formats if f not in declared and f not in (EXTRA, REGULATIONS)]
    if not formats or official:
        for edition in editions or env.builtin_editions():
            try:
                pages += _edition_pages(env, edition, official)
            except CompileError as error:
                problems += error.diagnostics
    if problems:
        raise CompileError(problems)
    ranks = {id: rank for rank, id in enumerate(dict.fromkeys(page.edition for page in pages))}
    return sorted(pages + overlay, key=lambda page: _order(page, ranks))


def rules_format(rules: Path) -> str | None:
    """The format a local-rule file declares (`name:`), if it reads as one; its problems are
    reported when it is compiled."""
    doc, _ = load_file(rules)
    name = doc.data.get("name") if doc is not None and isinstance(doc.data, dict) else None
    return name if isinstance(name, str) else None


def extra_pages(
    env: Environment, editions: Sequence[str], formats: Sequence[str], rules: Path | None = None
) -> list[ExtraPage]:
    """The extra lists of the built-in editions asked for (all of them when no format is
    named, or when `extra` is), in the registry's order; a local rule's own extra list
    (`base: extra`) beside its sheet; in a build of every edition, then the lists no edition
    plays, each under its regulations (printed with the newest edition's legend)."""
    house = env.house_extra(rules) if rules is not None else None
    pages = []
    if rules is not None and house is not None and house.edition_id is not None:
        about = env.edition(str(env.find(house.edition_id, rules.parent))).edition
        edits = Edits.of([diff_entries("trumps", env.house_extra_base(rules).trumps, house.trumps)])
        pages.append(ExtraPage(house, _extra_ruleset(about, house), edits))
    if formats and EXTRA not in formats:
        return pages
    for edition in editions or env.builtin_editions():
        about = env.edition(edition).edition
        pages += [ExtraPage(source, _extra_ruleset(about, source)) for source in env.extras(edition)]
    return pages


def _extra_source(env: Environment, path: Path) -> ExtraSource:
    source, problems = env.read(path)
    if problems:
        raise CompileError(problems)
    assert isinstance(source, ExtraSource)
    return source


def regulation_pages(
    env: Environment, editions: Sequence[str], formats: Sequence[str]
) -> list[RegulationsPage]:
    """The regulations of the editions asked for that have some (a based edition: those it
    inherits), in a build of every format (or when `regulations` is asked for)."""
    if formats and REGULATIONS not in formats:
        return []
    by_edition = _regulations(env, editions)
    return [RegulationsPage(env.edition(edition).edition, found) for edition, found in by_edition.items()]


def _regulations(env: Environment, editions: Sequence[str]) -> dict[str, Regulations]:
    """Each edition asked for (all built-in ones when none is) that has regulations: its own."""
    found = {
        edition: env.edition_regulations(env.edition(edition))
        for edition in editions or env.builtin_editions()
    }
    return {edition: regulations for edition, regulations in found.items() if regulations is not None}


def frame_pages(
    env: Environment, editions: Sequence[str], formats: Sequence[str], frame: str | None
) -> list[Page]:
    """`build --frame ID`: for each built-in edition asked for whose regulations have that frame
    or option, a sheet of each format asked for (all when none is) that it is played with,
    with its actions added. An unknown id, or one played with none of the formats, is an
    error of the option."""
    if frame is None:
        return []
    by_edition = _regulations(env, editions)
    asked = list(by_edition)
    found = {e: {p.id: p for p in parts(by_edition[e])} for e in asked}
    if not any(frame in mine for mine in found.values()):
        known = ", ".join(sorted({id for mine in found.values() for id in mine})) or "none"
        raise CompileError(
            [Diagnostic(Location("--frame", 0, 0), f"unknown frame '{frame}' (known: {known})")]
        )
    pages = []
    for edition in (e for e in asked if frame in found[e]):
        regulations, part = by_edition[edition], found[edition][frame]
        played = [f.id for f in played_formats(regulations, part)]
        for format_id in [f for f in formats if f in played] if formats else played:
            base = env.compile(edition, format_id)
            added = adding(regulations, part.actions, format_id, base.edition)
            by = {a.id: adders(regulations, a.id) for a in added.actions}
            pages.append(Page(added.widen(base), frame=FrameActions(part, added.actions, by)))
    if not pages:
        message = f"'{frame}' is played with none of the formats asked for ({', '.join(formats)})"
        raise CompileError([Diagnostic(Location("--frame", 0, 0), message)])
    return pages


def _extra_ruleset(edition: Edition, extra: ExtraSource) -> RuleSet:
    types = tuple(dict.fromkeys((*edition.action_types, *extra.action_types)))
    actions = tuple(action for _, action in extra.actions())
    return RuleSet(replace(edition, action_types=types), Format(EXTRA, "エクストラ", ""), actions, ())


def changes(env: Environment, editions: Sequence[str]) -> list[ChangesPage]:
    """The 変更履歴 page of each edition that has an older one to compare with (see `older`)."""
    pages = []
    for edition in editions or env.builtin_editions():
        previous = older(env, edition)
        if previous is not None:
            new = whole_edition(env.edition(edition))
            pages.append(ChangesPage(diff_rulesets(whole_edition(env.edition(previous)), new)))
    return pages


def older(env: Environment, edition: str) -> str | None:
    """What an edition's 変更履歴 compares it with: for a built-in edition, the next older one
    in the registry; for an edition file, its `base:` (a sibling file, else a built-in id).
    None for the oldest built-in edition and for a file without a base."""
    if not is_path(edition):
        registry = env.builtin_editions()  # newest first
        later = registry[registry.index(edition) + 1 :]
        return later[0] if later else None
    path = Path(edition)
    doc, _ = load_file(path)  # read before by env.edition: a valid edition file
    base = doc.data.get("base") if doc is not None else None
    if not isinstance(base, str):
        return None
    sibling = path.parent / f"{base}.yaml"
    return str(sibling) if sibling.is_file() else base


def _edition_pages(env: Environment, edition: str, formats: Sequence[str]) -> list[Page]:
    if not formats:
        sheets = [_sheet(env, edition, r) for r in env.compile_edition(edition).values()]
        return [*sheets, _sheet(env, edition, all_ruleset(env, edition))]
    return [
        _sheet(env, edition, all_ruleset(env, edition) if f == ALL else env.compile(edition, f))
        for f in dict.fromkeys(formats)
    ]


def _sheet(env: Environment, edition: str, ruleset: RuleSet) -> Page:
    official = env.official_sheet(edition, ruleset.format.id)
    return Page(ruleset, official, based=_based_edits(env, edition, ruleset))


def _based_edits(env: Environment, edition: str, ruleset: RuleSet) -> Edits | None:
    """What a based edition file's sheet adds or changes against the same sheet of its base (the
    base's every entry for a format the base lacks). Built-in editions print as published: unmarked."""
    base = older(env, edition) if is_path(edition) and env.edition(edition).base is not None else None
    if base is None:
        return None
    format_id = ruleset.format.id
    known = {f.id for f in env.edition(base).edition.formats}
    before = env.compile(base, format_id) if format_id in known else all_ruleset(env, base)
    return Edits.of(diff_rulesets(before, ruleset).lists)


def _house_page(env: Environment, rules: Path) -> Page:
    source, problems = env.read(rules)
    if problems:
        raise CompileError(problems)
    if not isinstance(source, OverlaySource):
        # compile() reports a file that is not a local rule with its own located message.
        return Page(env.compile(format="", rules=rules))
    ruleset = env.compile(source.edition_id, source.format.id, rules)
    base = env.compile(source.edition_id, str(ruleset.format.base), rules)  # official, or a local rule
    edits = Edits.of(diff_rulesets(base, ruleset).lists)
    return Page(ruleset, house=House(base, source.description, edits))


def _order(page: Page, ranks: dict[str, int]) -> tuple[int, int]:
    """Editions in the order asked for (the registry's: newest first), each in its format
    order, then local rules, then `all`; a local rule's edition not asked for comes last."""
    ids = [f.id for f in page.ruleset.edition.formats]
    rank = ranks.get(page.edition, len(ranks))
    if page.slug in ids:
        return rank, ids.index(page.slug)
    return rank, len(ids) + (page.slug == ALL)
