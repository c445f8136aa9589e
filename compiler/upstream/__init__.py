"""Import the official upstream action lists (BlackPoker tools/actionlist/original/*.yaml)
into the project's edition model: read with positions → convert → complete → write."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from blackpoker.compiler.load import load_file
from blackpoker.compiler.upstream.complete import Completion, complete, complete_extra
from blackpoker.compiler.upstream.convert import Conversion, Data, Reference, convert
from blackpoker.compiler.upstream.extra import convert_extra, convert_trump_list
from blackpoker.compiler.upstream.read import read_upstream
from blackpoker.compiler.upstream.vocabulary import vocabulary
from blackpoker.compiler.upstream.write import edition_yaml, extra_yaml
from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic

TRUMP_LIST = "trumpList"  # the key of a frame list's trump list (act-frame.yaml)


@dataclass(frozen=True, slots=True)
class Imported:
    conversion: Conversion
    completion: Completion | None  # None without a source of programs
    notes: tuple[Diagnostic, ...]  # upstream defects tolerated or repaired

    @property
    def data(self) -> Data:
        return self.completion.data if self.completion else self.conversion.data


def import_list(
    path: Path,
    shown: str,
    editions: Callable[[str], Reference],
    like: str,
    programs_from: str | None = None,
    edition_id: str | None = None,
) -> Imported:
    """The edition in upstream file `path`, with `editions` giving the reference editions
    `like` and `programs_from` by name; raises CompileError with every problem found."""
    doc, problems, tolerated = read_upstream(path, shown)
    if doc is None or problems:
        raise CompileError(problems)
    words = vocabulary()
    like_edition = editions(like)
    source = editions(programs_from) if programs_from else None
    references: Sequence[Reference] = [source] if source else []
    conversion = convert(doc, words, like_edition, references, edition_id)
    if conversion.problems:
        raise CompileError(conversion.problems)
    completion = complete(conversion.data, source[1], words) if source else None
    return Imported(conversion, completion, (*tolerated, *conversion.notes))


def import_extra(
    path: Path,
    shown: str,
    editions: Callable[[str], Reference],
    list_id: str | None = None,
    engine: Callable[[str], Mapping[str, Any] | None] = lambda _: None,
) -> Conversion:
    """The extra list in upstream file `path`, with the action types its edition (given by
    `editions`) lacks declared as its own, and the engine data no upstream list has (the
    set-up, programs) copied by id from what `engine` gives for the list's id (the built-in
    list of that id);
    raises CompileError with every problem found."""
    doc, problems, _ = read_upstream(path, shown)
    if doc is None or problems:
        raise CompileError(problems)
    trump_list = isinstance(doc.data, dict) and TRUMP_LIST in doc.data
    conversion = (convert_trump_list if trump_list else convert_extra)(doc, vocabulary(), list_id)
    if conversion.problems:
        raise CompileError(conversion.problems)
    data = conversion.data
    # a list no edition plays (a frame list's) declares every action type it uses
    known = editions(data["edition"])[1]["action_types"] if "edition" in data else ()
    actions = [*data["operations"], *(a for t in data["trumps"] for a in t.get("actions", ()))]
    added = [t for t in dict.fromkeys(a["type"] for a in actions) if t not in known]
    if added:
        data["action_types"] = added
    source = engine(data["id"])
    if source is not None:
        complete_extra(data, source, vocabulary())
    return conversion


def is_extra(path: Path) -> bool:
    """Whether an upstream file is an extra list (it has an abiList, or a frame list's trumpList). Read
    with the project's loader, which refuses what is no regular file or too big; its problems
    are the importer's."""
    doc, _ = load_file(path, str(path))
    return doc is not None and isinstance(doc.data, dict) and bool({"abiList", TRUMP_LIST} & set(doc.data))


__all__ = ["Imported", "Reference", "edition_yaml", "extra_yaml", "import_extra", "import_list", "is_extra"]
