"""Local rules on the extra format: an overlay with `base: extra` starts from an extra list
(its `extra:`, by default the edition's newest) and adds, changes or removes its trumps
(`trumps: {add, change, remove}`).

The edits are applied to the list's document, every value keeping the place where it is
written (the list's file, or the overlay), so the edited list is validated, parsed and
checked exactly like a list written out in full, each problem located in the text that
causes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from blackpoker.compiler.documents.based import change_in_place, edit_list, replace_fields
from blackpoker.compiler.documents.extra import NUMBERS, SUITS, ExtraSource, check_extra, parse_extra
from blackpoker.compiler.documents.overlay import unknown_entries
from blackpoker.compiler.documents.overlay_names import aliased
from blackpoker.compiler.load import Document, PathKey
from blackpoker.compiler.needs import references
from blackpoker.compiler.parse import EditionSource, OverlaySource
from blackpoker.compiler.validate import schema_problems
from blackpoker.runtime.rules.diagnostics import Diagnostic

TRUMPS = "trumps"  # the overlay's edits of the list's trumps, and the list's own field


def edit_trumps(
    edition: EditionSource,
    base: ExtraSource,
    overlay: OverlaySource,
    lend: Callable[[ExtraSource], ExtraSource | list[Diagnostic]],
) -> tuple[ExtraSource | None, list[Diagnostic]]:
    """The overlay's extra list: `base` with its trumps' edits, named after the overlay's
    format, with what the list's `programs_from` lends it (`lend`); or the problems, each at
    the line that makes it."""
    doc, problems = _by_id(overlay.doc, base)
    if problems:
        return None, problems
    overlay = replace(overlay, doc=doc)
    merged, problems = edit_list(base.doc, doc, TRUMPS, f"the extra list {base.id}", _card_order)
    problems = problems or schema_problems(merged, "extra")
    if problems:
        return None, problems
    parsed, problems = parse_extra(merged)
    if parsed is None:
        return None, problems
    named = replace(parsed, id=overlay.format.id, title=overlay.format.name, description=overlay.description)
    # the edited document is parsed anew, so a borrowing list borrows again: an edited trump
    # keeps the lender's programs only while it still prints alike
    source = lend(named)
    if isinstance(source, list):
        return None, source
    problems = _removal_problems(base, source, overlay.doc) or check_extra(source, edition)
    return (None if problems else source), problems


def edit_inherited(
    edition: EditionSource,
    base: ExtraSource,
    edits: Document,
    lend: Callable[[ExtraSource], ExtraSource | list[Diagnostic]],
) -> tuple[ExtraSource | None, list[Diagnostic]]:
    """A based edition's extra list: the newest list of its base with the edition's `extra:`
    edits (`edits`, read as a file of its own): its title, published and description, its
    trumps added, changed or removed as a local rule's, and `actions.change` (the fields of
    any action of the list, by id: an operation, an ability's, a character's). It takes the
    edition's id, with what the list's `programs_from` lends it (`lend`); or the problems."""
    of = f"the extra list {base.id}"
    doc, problems = _by_id(edits, base)
    if problems:
        return None, problems
    merged, problems = edit_list(base.doc, doc, TRUMPS, of, _card_order)
    replace_fields(merged, doc, ("title", "published", "description"))
    parsed, problems = _checked(merged, problems)
    if parsed is not None and "actions" in doc.data:  # each action's place, once the trumps are edited
        places = {a.id: path for path, a in parsed.actions()}
        parsed, problems = _checked(merged, change_in_place(merged, doc, "actions", places, of))
    if parsed is None:
        return None, problems
    source = lend(replace(parsed, id=edition.edition.id, edition_id=edition.edition.id))
    if isinstance(source, list):
        return None, source
    problems = _removal_problems(base, source, doc) or check_extra(source, edition)
    return (None if problems else source), problems


def _checked(merged: Document, problems: list[Diagnostic]) -> tuple[ExtraSource | None, list[Diagnostic]]:
    """An edited list's document parsed, once it has no problems and passes the schema."""
    problems = problems or schema_problems(merged, "extra")
    return (None, problems) if problems else parse_extra(merged)


def _by_id(doc: Document, base: ExtraSource) -> tuple[Document, list[Diagnostic]]:
    """The overlay's document with each trump that `trumps.change` / `remove` names by its
    card (♣10) or printed name as its id, every location under a name kept for the id too;
    or the references the list lacks, each with the one probably meant."""
    edits = doc.data.get(TRUMPS)
    if not isinstance(edits, dict):
        return doc, []
    refs = {ref: t.id for t in base.trumps for ref in (t.name, f"{t.suit}{t.number}")}
    refs |= {t.id: t.id for t in base.trumps}
    change, remove = edits.get("change", {}), edits.get("remove", [])
    problems = unknown_entries(doc, TRUMPS, remove, change, set(refs), f"the extra list {base.id}")
    if problems:
        return doc, problems
    named = {
        **edits,
        "change": {refs[k]: fields for k, fields in change.items()},
        "remove": [refs[r] for r in remove],
    }
    moves: dict[PathKey, PathKey] = {
        (TRUMPS, "change", k): (TRUMPS, "change", refs[k]) for k in change if refs[k] != k
    }
    return aliased(replace(doc, data={**doc.data, TRUMPS: named}), moves), []


def _card_order(trump: dict[str, Any]) -> tuple[int, int]:
    """A trump's place on the sheet: by suit, then number (the schema has checked both)."""
    return SUITS.index(trump["suit"]), NUMBERS.index(str(trump["number"]))


def _removal_problems(base: ExtraSource, source: ExtraSource, edits: Document) -> list[Diagnostic]:
    """Actions the edited list still names whose trump the edits remove: at the naming line
    when the edits write it, else at the removal (the list's own text needs it)."""
    removed: list[str] = edits.data.get(TRUMPS, {}).get("remove", [])
    located = source.actions()
    kept = {action.id for _, action in located}
    gone = {
        each.id: trump.id
        for trump in base.trumps
        if trump.id in removed
        for action in trump.actions
        for each in (action, *base.variants_of(action.id))
        if each.id not in kept
    }
    where = {action.id: path for path, action in located}
    problems: list[Diagnostic] = []
    needed_by: dict[str, list[str]] = {}
    for ref in references([action for _, action in located], ()):
        if ref.wanted not in gone:
            continue
        at = (*where[ref.referrer], *ref.at)
        if source.doc.locate(at).path == edits.path:
            trump = gone[ref.wanted]
            message = f"{ref.field}: '{ref.wanted}' is an action of trump '{trump}', which this file removes"
            problems.append(source.doc.at(at, message))
        else:
            needed_by.setdefault(gone[ref.wanted], []).append(f"{ref.referrer} ({ref.field} '{ref.wanted}')")
    problems += [
        edits.at(
            (TRUMPS, "remove", i),
            f"{TRUMPS}.remove: cannot remove '{trump_id}': named by {', '.join(needers)}",
        )
        for i, trump_id in enumerate(removed)
        if (needers := needed_by.get(trump_id))
    ]
    return problems
