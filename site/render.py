"""HTML of the sheets and of the index, from Jinja templates with autoescaping on."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TypeVar

from blackpoker.compiler.documents.diff import RuleSetDiff, side_name
from blackpoker.compiler.documents.extra import NUMBERS, SUITS
from blackpoker.compiler.documents.regulation import adders
from blackpoker.runtime.rules.keyspec import KeySpec
from blackpoker.runtime.rules.model import Action, Edition, Format, RuleSet
from blackpoker.site.markup import Paragraph, Separator, blocks, ruby_overhang, ruby_spread, suits
from blackpoker.site.pages import REGULATIONS, ChangesPage, ExtraPage, Page, RegulationsPage
from blackpoker.site.qr import qr_svg
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

Entry = TypeVar("Entry")


@dataclass(frozen=True, slots=True)
class Downloads:
    """The page's PDFs, as links relative to the page; None in an HTML-only build."""

    a4: str
    two_up: str


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("blackpoker.site", "templates"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["suits"] = suits
    env.globals["blocks"] = blocks
    env.globals["ruby_spread"] = ruby_spread
    env.globals["ruby_overhang"] = ruby_overhang
    env.globals["key_text"] = key_text
    env.globals["fresh"] = fresh
    env.tests["paragraph"] = lambda block: isinstance(block, Paragraph)
    env.tests["separator"] = lambda block: isinstance(block, Separator)
    return env


def key_text(key: KeySpec) -> str:
    """A key as the data writes it (`同じ数字を２枚`), else its canonical notation."""
    return key.written or str(key)


def _version(text: str) -> tuple[str, ...]:
    """A version's numbers, so that v2, v2.0 and 2.0.0 name the same version."""
    parts = text.strip().lstrip("vV").split(".")
    while len(parts) > 1 and parts[-1] == "0":
        parts.pop()
    return tuple(parts)


def fresh(entry: object, version: str) -> str:
    """What a beta sheet of `version` marks an entry as: 新規 when the version adds it (its
    `since`), 更新 when the version updates it (its `updates`), else nothing."""
    if not version:
        return ""
    target = _version(version)
    if _version(getattr(entry, "since", "") or "-") == target:
        return "新規"
    return "更新" if any(_version(v) == target for v in getattr(entry, "updates", ())) else ""


def page_url(base_url: str, page: Page) -> str | None:
    """The address a printed sheet's QR code points to: base_url/path, else the official
    site's page of an official sheet; None (no QR code) for any other sheet."""
    return f"{base_url.rstrip('/')}/{page.path}" if base_url else page.official_url


def pdf_names(page: Page | ExtraPage | RegulationsPage) -> Downloads:
    return Downloads(f"{page.slug}.pdf", f"{page.slug}-2up.pdf")


def render_sheet(page: Page, base_url: str, with_pdf: bool, beta: bool = False) -> str:
    """A format's sheet; a beta sheet (`beta`) marks in red what its edition adds and updates."""
    ruleset = page.ruleset
    url = page_url(base_url, page)
    return (
        environment()
        .get_template("sheet.html")
        .render(
            root="../",
            ruleset=ruleset,
            edition=ruleset.edition,
            format=ruleset.format,
            sections=_grouped(ruleset.actions, ruleset.edition.sections, lambda a: a.section),
            character_groups=_grouped(ruleset.characters, ruleset.edition.character_types, lambda c: c.type),
            fog_groups=_grouped(ruleset.fogs, ruleset.edition.fog_types, lambda f: f.type),
            label_names={label.id: label.name for label in ruleset.edition.labels},
            action_names={action.id: action.name for action in ruleset.actions},
            filter_formats=filter_formats(ruleset),
            cost_units={u.unit: u.text for u in ruleset.edition.cost_units},
            url=url,
            qr=qr_svg(url) if url else None,
            downloads=pdf_names(page) if with_pdf else None,
            house=page.house,
            marks=page.marks,
            frame=page.frame,
            frame_groups=_grouped(frame.actions, list(dict.fromkeys(a.type for a in frame.actions)), _type)
            if (frame := page.frame)
            else [],
            new_in=ruleset.edition.id if beta else "",
        )
    )


def render_extra(page: ExtraPage, with_pdf: bool, beta: bool = False) -> str:
    """An extra list's sheet: the trump grid by suit and number, then each ability with its
    text and actions (laid out as on the action list), after the trump operations."""
    extra, ruleset = page.extra, page.ruleset
    grid = [(suit, [(number, extra.trump_at(suit, number)) for number in NUMBERS]) for suit in SUITS]
    return (
        environment()
        .get_template("extra.html")
        .render(
            root="../",
            extra=extra,
            ruleset=ruleset,
            edition=ruleset.edition,
            numbers=NUMBERS,
            grid=grid,
            cost_units={u.unit: u.text for u in ruleset.edition.cost_units},
            downloads=pdf_names(page) if with_pdf else None,
            edits=page.edits,
            new_in=extra.id if beta else "",
        )
    )


def render_regulations(page: RegulationsPage, with_pdf: bool) -> str:
    """An edition's regulations: the preparation and the recommended regulation, each frame
    (match, deck, the cards chosen before the game, start, added actions, public information),
    each option, the actions frames and options add (laid out as on the action list, each with
    the frames that add it), and each compatibility table as a ○ / × matrix."""
    regulations, about = page.regulations, page.about
    kinds = {"formats": regulations.formats, "frames": regulations.frames, "options": regulations.options}
    tables = [(table, kinds[table.rows], kinds[table.columns]) for table in regulations.matrices()]
    types = tuple(dict.fromkeys((*about.action_types, *regulations.action_types)))
    ruleset = RuleSet(
        replace(about, action_types=types),
        Format(REGULATIONS, "対戦レギュレーション", ""),
        regulations.actions,
        (),
    )
    return (
        environment()
        .get_template("regulations.html")
        .render(
            root="../",
            regulations=regulations,
            ruleset=ruleset,
            action_names={a.id: a.name for a in regulations.actions},
            adders={a.id: adders(regulations, a.id) for a in regulations.actions},
            cost_units={u.unit: u.text for u in about.cost_units},
            edition_title=about.title,
            tables=tables,
            downloads=pdf_names(page) if with_pdf else None,
        )
    )


def render_index(
    pages: Sequence[Page],
    history: Sequence[ChangesPage],
    with_pdf: Callable[[Page | ExtraPage | RegulationsPage], bool],
    extras: Sequence[ExtraPage] = (),
    regulations: Sequence[RegulationsPage] = (),
    links: Sequence[tuple[str, str]] = (),
) -> str:
    """Links to every page (and to `links`, pages beside the sheets: address, words), grouped
    by edition in the pages' order (newest edition first),
    each edition's extra lists after its formats; an edition with only extra lists or
    regulations (a build of just those) is listed after the others. `with_pdf`: whether
    a page has its PDFs beside it."""
    editions: dict[str, tuple[Edition, list[Page]]] = {}
    for page in pages:
        editions.setdefault(page.ruleset.edition.id, (page.ruleset.edition, []))[1].append(page)
    for edition in (*(e.ruleset.edition for e in extras), *(r.about for r in regulations)):
        editions.setdefault(edition.id, (edition, []))
    extra_lists: dict[str, list[ExtraPage]] = {}
    for extra in extras:
        extra_lists.setdefault(extra.edition, []).append(extra)
    return (
        environment()
        .get_template("index.html")
        .render(
            root="",
            editions=list(editions.values()),
            extras=extra_lists,
            changes={page.edition: page for page in history},
            regulations={page.edition: page for page in regulations},
            side_name=side_name,
            downloads=lambda page: pdf_names(page) if with_pdf(page) else None,
            links=links,
        )
    )


def render_diff(diff: RuleSetDiff, index: str | None) -> str:
    """The changes page; `index`: the link back to the site's index, None for a page on its own."""
    return (
        environment()
        .get_template("diff.html")
        .render(
            diff=diff,
            old_name=side_name(diff.old),
            new_name=side_name(diff.new),
            old_title=diff.old.edition.title,
            new_title=diff.new.edition.title,
            index=index,
        )
    )


def filter_formats(ruleset: RuleSet) -> tuple[Format, ...]:
    """The formats entries can be filtered by: the edition's, plus the page's own local rule."""
    official = ruleset.edition.formats
    own = ruleset.format
    return (*official, own) if own.base is not None else official


def _type(action: Action) -> str:
    return action.type


def _grouped(
    entries: Sequence[Entry], order: Sequence[str], key: Callable[[Entry], str]
) -> list[tuple[str, list[Entry]]]:
    """Entries grouped under the edition's headings, in the edition's order; empty groups dropped."""
    return [(name, group) for name in order if (group := [e for e in entries if key(e) == name])]
