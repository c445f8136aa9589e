"""The environment: owns the pipeline (load → validate → parse → check → link) and its caches.

One `Environment` serves one command (or one program using the compiler): it knows the
built-in editions from the data index `actionlists/editions.yaml`, reads edition files
named by id or by path (resolving `base:` chains), and keeps each file it parsed while the
file and its bases are unchanged on disk, and each edition's checks (compiler/checks.py),
run once however many of its formats it links.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Literal, TypeVar

from blackpoker.compiler.checks import check_edition
from blackpoker.compiler.documents.based import apply_changes, edit_document, part_of
from blackpoker.compiler.documents.extra import (
    EXTRA_FORMAT,
    ExtraSource,
    check_extra,
    link_extra,
    parse_extra,
    with_programs_of,
)
from blackpoker.compiler.documents.extra_overlay import TRUMPS, edit_inherited, edit_trumps
from blackpoker.compiler.documents.overlay import check_overlay, early_overlay_problems, link_overlay
from blackpoker.compiler.documents.regulation import (
    REGULATION_LISTS,
    Regulations,
    action_problems,
    builtin_regulations,
    data_file_problems,
    read_regulations,
    regulations_for,
    regulations_from,
)
from blackpoker.compiler.link import link
from blackpoker.compiler.load import Document, load_bytes, load_file
from blackpoker.compiler.parse import EditionSource, OverlaySource, Source, notation_problems, parse
from blackpoker.compiler.paths import INDEX, display, is_path
from blackpoker.compiler.validate import schema_problems, validate, without_broken
from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic, Location
from blackpoker.runtime.rules.model import RuleSet

_SUFFIXES = (".yaml", ".yml")

__all__ = ["Environment", "Read", "display", "find_files", "is_path"]

Read = tuple[Source | ExtraSource | None, list[Diagnostic]]
RegulationsRead = tuple[Regulations | None, list[Diagnostic]]
K = TypeVar("K", EditionSource, ExtraSource, OverlaySource)  # a kind of document an option reads


class Environment:
    def __init__(self) -> None:
        self._builtin: dict[str, Path] | None = None
        self._sheets: dict[str, dict[str, str]] = {}  # built-in edition -> format -> official page
        self._extras: dict[str, tuple[Path, ...]] = {}  # built-in edition -> its extra lists' files
        self._defaults: dict[str, str] = {}  # edition / format / play_format -> the registry's default
        # file -> (the identity on disk of it and of each base it was read with, what it gave)
        self._read: dict[Path, tuple[tuple[_Stamp, ...], Read]] = {}
        # id of an edition read -> it and its checks' problems: run once, however many of its
        # formats are linked (only for the editions the read cache holds)
        self._checks: dict[int, tuple[EditionSource, list[Diagnostic]]] = {}
        self._checking: set[Path] = set()  # files whose every problem is being gathered
        self._unwritten: dict[Path, bytes] = {}  # files checked before they are written (check_text)
        # regulations file and how it is shown -> its identity on disk, what reading it gave
        self._regulation_files: dict[tuple[Path, str], tuple[tuple[int, int], RegulationsRead]] = {}

    # --- built-in editions ------------------------------------------------------------------

    def builtin_editions(self) -> tuple[str, ...]:
        """The built-in edition ids, newest first, as the data index lists them."""
        return tuple(self._index())

    def builtin_path(self, edition: str) -> Path:
        return self._index()[edition]

    def builtin_extras(self, edition: str) -> tuple[Path, ...]:
        """The files of a built-in edition's extra lists (the registry's `extras:`), newest first."""
        self._index()
        return self._extras.get(edition, ())

    def default(self, what: Literal["edition", "format", "play_format"]) -> str:
        """What the commands take when not told: the edition (the registry's first, the newest,
        unless its `defaults:` name one), the format of compile and list, or the format of play
        and simulate (its `defaults:`)."""
        editions = self._index()
        if what == "edition" and what not in self._defaults:
            return next(iter(editions))
        return self._defaults[what]

    def official_sheet(self, edition: str, format_id: str) -> str | None:
        """The official site's address of a built-in edition's sheet (the registry's `sheets:`);
        None for an edition file, a format the official site lacks, and `all`."""
        self._index()
        return None if is_path(edition) else self._sheets.get(edition, {}).get(format_id)

    def _index(self) -> dict[str, Path]:
        if self._builtin is None:
            folder = resources.files("blackpoker.actionlists")
            where = f"actionlists/{INDEX}"
            doc, problems = load_bytes(folder.joinpath(INDEX).read_bytes(), where)
            entries = doc.data.get("editions") if doc is not None and isinstance(doc.data, dict) else None
            defaults = doc.data.get("defaults") if doc is not None and isinstance(doc.data, dict) else None
            if problems or not isinstance(entries, list) or not entries or not isinstance(defaults, dict):
                shape = "expected editions: [...] and defaults: {format, play_format}"
                raise CompileError(problems or [Diagnostic(Location(where, 1, 1), shape)])
            self._defaults = {k: str(v) for k, v in defaults.items()}
            self._builtin = {e["id"]: Path(str(folder.joinpath(e["file"]))) for e in entries}
            self._sheets = {e["id"]: dict(e.get("sheets") or {}) for e in entries}
            self._extras = {
                e["id"]: tuple(Path(str(folder.joinpath(f))) for f in e.get("extras") or ()) for e in entries
            }
        return self._builtin

    # --- reading files ----------------------------------------------------------------------

    def edition_path(self, edition: str, relative_to: Path | None = None) -> Path:
        """The file of an edition given as a built-in id or a path (relative to a folder)."""
        if is_path(edition):
            path = Path(edition)
            return path if relative_to is None or path.is_absolute() else relative_to / path
        if edition not in self._index():
            known = ", ".join(self.builtin_editions())
            message = f"unknown edition '{edition}' (built in: {known}; or give the path of an edition file)"
            raise CompileError([Diagnostic(Location("--edition", 0, 0), message)])
        return self.builtin_path(edition)

    def read(self, path: Path) -> Read:
        """A file loaded, validated and parsed (an edition with its bases), with its problems."""
        key = Path(os.path.abspath(path))  # no resolve(): a symlink loop is the reader's to report
        cached = self._fresh(key)
        if cached is not None:
            return cached[1]
        files: list[Path] = []
        read = self._read_uncached(path, (), files)
        self._keep(key, files, read)
        return read

    def _fresh(self, key: Path) -> tuple[tuple[_Stamp, ...], Read] | None:
        """The read kept under `key` with the files it came from, while all are unchanged on disk."""
        cached = self._read.get(key)
        if cached is not None and all(_stamp(p) == stamp for p, stamp in cached[0]):
            return cached
        return None

    def _keep(self, key: Path, files: list[Path], read: Read) -> None:
        self._read[key] = (tuple((p, _stamp(p)) for p in files), read)

    def all_problems(self, path: Path) -> list[Diagnostic]:
        """Every problem of a file, as `validate` finds them: what reading it found, and what
        the checks find in the rest of it (a broken field is left out), so that a command
        refusing the file reports them all at once."""
        key = Path(os.path.abspath(path))
        source, problems = self.read(path)
        if source is None or key in self._checking:  # nothing to check; local rules based on each other
            return problems
        self._checking.add(key)
        try:
            return self.check_paths([path])[1]
        finally:
            self._checking.discard(key)

    def files_read(self) -> tuple[Path, ...]:
        """Every file this environment has read, with the bases each named: a command's inputs,
        which none of its outputs may replace."""
        return tuple(dict.fromkeys(path for stamps, _ in self._read.values() for path, _ in stamps))

    def _read_uncached(self, path: Path, below: tuple[Path, ...], files: list[Path]) -> Read:
        files.append(path)
        unwritten = self._unwritten.get(Path(os.path.abspath(path)))
        doc, loaded = (
            load_file(path, display(path)) if unwritten is None else load_bytes(unwritten, display(path))
        )
        if doc is None:
            return None, loaded
        problems = loaded + validate(doc)
        usable = without_broken(doc) if problems else doc  # a refused field is left out
        if usable is None:
            doc = self._with_cost_units(doc, path)
            return None, problems + notation_problems(doc) + self._early_problems(doc, path)
        doc = self._with_cost_units(usable, path)
        if doc.data["kind"] not in ("edition", "overlay", "extra"):  # deck, regulations
            kind = f"kind: a {doc.data['kind']} file is not an edition, local rules or extra list"
            return None, problems or [doc.at(("kind",), kind)]
        if doc.data["kind"] == "extra":
            extra, found = parse_extra(doc)
            return extra, problems + _name_problems(doc, path) + found
        written, base = doc, None
        if doc.data["kind"] == "edition":
            problems += _name_problems(doc, path)
            if "base" in doc.data:
                merged, problems, base = self._with_base(doc, path, below, problems, files)
                if merged is None:
                    return None, problems
                doc = merged
        source, found = parse(self._with_cost_units(doc, path))
        if isinstance(source, EditionSource) and base is not None:
            source = replace(source, base=base, edits=written)
        return source, problems + found

    def _with_cost_units(self, doc: Document, path: Path) -> Document:
        """The document knowing the cost units of its edition, which a notation message offers:
        an edition's own; an extra list's with its edition's; a local rule's edition's (on the
        extra format, unknown until the list it edits is read)."""
        data = doc.data if isinstance(doc.data, dict) else {}
        listed = data.get("cost_units")
        own = tuple(
            str(u["unit"])
            for u in (listed if isinstance(listed, list) else ())
            if isinstance(u, dict) and "unit" in u
        )
        edition_id = data.get("edition")
        if (
            data.get("kind") == "edition"
            or not isinstance(edition_id, str)
            or data.get("base") == EXTRA_FORMAT.id
        ):
            return replace(doc, cost_units=own or None)
        named = self.find(edition_id, path.parent, path)
        try:
            edition = self.edition(str(named)).edition if named else None
        except CompileError:  # the edition's own problems are reported when it is read
            return doc
        return (
            doc if edition is None else replace(doc, cost_units=(*(u.unit for u in edition.cost_units), *own))
        )

    def _early_problems(self, doc: Document, path: Path) -> list[Diagnostic]:
        """For an overlay that will not reach the link stage (schema or notation problems), the
        ids it names that its edition lacks."""
        data = doc.data if isinstance(doc.data, dict) else {}
        edition_id = data.get("edition")
        if (
            data.get("kind") != "overlay"
            or not isinstance(edition_id, str)
            or data.get("base") == EXTRA_FORMAT.id
        ):
            return []  # an extra-based overlay's entries are checked once its extra list is read
        named = self.find(edition_id, path.parent)
        try:
            return early_overlay_problems(self.edition(str(named)), doc) if named else []
        except CompileError:  # the edition's own problems are reported when it is read
            return []

    def find(self, edition_id: str, folder: Path, asking: Path | None = None) -> Path | None:
        """The file of an edition a file names by id: `<id>.yaml` in its folder (not the file
        `asking`: an extra list named after its edition), else built in."""
        sibling = folder / f"{edition_id}.yaml"
        if sibling.is_file() and (asking is None or not sibling.samefile(asking)):
            return sibling
        return self.builtin_path(edition_id) if edition_id in self._index() else None

    def _with_base(
        self,
        doc: Document,
        path: Path,
        below: tuple[Path, ...],
        problems: list[Diagnostic],
        files: list[Path],
    ) -> tuple[Document | None, list[Diagnostic], EditionSource | None]:
        """The based edition written out in full and its base, or why not."""
        base_id = doc.data["base"]
        base_path = self.find(base_id, path.parent)
        if base_path is None:
            known = ", ".join(self.builtin_editions())
            message = (
                f"base: unknown edition '{base_id}' (no {base_id}.yaml beside this file; built in: {known})"
            )
            return None, [*problems, doc.at(("base",), message)], None
        chain = (*below, path.resolve())
        if base_path.resolve() in chain:
            names = " -> ".join(p.name for p in (*chain[chain.index(base_path.resolve()) :], base_path))
            return None, [*problems, doc.at(("base",), f"base: a cycle of bases: {names}")], None
        base, found = self._read_base(base_path, chain, files)
        if found:
            return None, problems + found, None
        if not isinstance(base, EditionSource):
            message = f"base: {display(base_path)} is not an edition file"
            return None, [*problems, doc.at(("base",), message)], None
        merged, found = apply_changes(base.doc, doc)
        if found:
            return None, problems + found, None
        return merged, problems + schema_problems(merged, "edition"), base

    def _read_base(self, path: Path, below: tuple[Path, ...], files: list[Path]) -> Read:
        """A base edition, with the files it was read from added to `files`: from the read
        cache while those are unchanged and it had no problem (then none came from `below`:
        a cycle through it is a problem), else read anew, and kept when it has none (each
        edition of a chain of bases is read once however many editions build on it)."""
        key = Path(os.path.abspath(path))
        cached = self._fresh(key)
        if cached is not None and not cached[1][1]:
            files += [p for p, _ in cached[0]]
            return cached[1]
        own: list[Path] = []
        read = self._read_uncached(path, below, own)
        files += own
        if not read[1]:
            self._keep(key, own, read)
        return read

    def edition(self, edition: str) -> EditionSource:
        """An edition (built-in id or file path), parsed; CompileError if it has problems."""
        return self._read_as(
            self.edition_path(edition), EditionSource, "--edition expects an edition file (kind: edition)"
        )

    def edition_problems(self, source: EditionSource) -> list[Diagnostic]:
        """The problems of an edition on its own (compiler/checks.py), found once per edition read."""
        found = self._checks.get(id(source))
        if found is None or found[0] is not source:
            found = (source, check_edition(source))
            live = {id(read[0]) for _, read in self._read.values()}
            self._checks = {k: v for k, v in self._checks.items() if k in live}  # files read anew since
            self._checks[id(source)] = found
        return found[1]

    def checked(self, source: EditionSource) -> EditionSource:
        """The edition, once its checks passed (else CompileError): what the link stage takes."""
        problems = self.edition_problems(source)
        if problems:
            raise CompileError(problems)
        return source

    # --- compiling --------------------------------------------------------------------------

    def compile(
        self,
        edition: str | None = None,
        format: str | None = None,
        rules: Path | str | None = None,
        extra: str | None = None,
    ) -> RuleSet:
        """Compile one format of an edition, or the local-rule format declared in `rules`
        (or the format that file starts from: an official one, or another local rule's); the
        registry's defaults stand in for an edition or format not given. The extra format
        takes the edition's newest extra list, or `extra` (a file or a built-in list's id)."""
        edition = self.default("edition") if edition is None else edition
        format = self.default("format") if format is None else format
        if rules is None and format == EXTRA_FORMAT.id:
            source = self.checked(self.edition(edition))
            return link_extra(source, self.extra_list(source, extra))
        if rules is None:
            return link(self.checked(self.edition(edition)), format)
        path = Path(rules)
        overlay = self._overlay(path)
        base = str(overlay.format.base)
        base_id = self._overlay(path.parent / base).format.id if is_path(base) else base
        on_extra = format == EXTRA_FORMAT.id == self.official_base(path)  # the list it starts from
        if format not in (overlay.format.id, base_id) and not on_extra:
            where = overlay.doc.locate(("name",))
            raise CompileError(
                [Diagnostic(where, f"--format {format}: this file declares format '{overlay.format.id}'")]
            )
        if format == overlay.format.id:
            return self._house(path, edition, ())
        if is_path(base):
            if format == base_id:
                return self._house(path.parent / base, edition, ())
            return self.compile(edition, format, path.parent / base)
        source = self.checked(self._overlay_edition(overlay, path, edition))
        if format == EXTRA_FORMAT.id:
            return link_extra(source, self._extra_base(overlay, path, source, ()))
        return link(source, format)

    def extra_list(
        self, source: EditionSource, extra: str | None, where: Location | None = None
    ) -> ExtraSource:
        """An extra list of an edition: a file, one of the edition's lists by id, or its
        newest. `where` names the text that asked for it (default the command's options)."""
        own = {e.id: e for e in self.extras_of(source)}
        if extra is None and not own:
            hint = "--extra FILE" if where is None else "extra: FILE"
            message = f"edition {source.edition.id} has no built-in extra list (give one with {hint})"
            raise CompileError([Diagnostic(where or Location("--format", 0, 0), message)])
        if extra is not None and not is_path(extra) and extra not in own:
            known = ", ".join(own) or "none"
            message = (
                f"unknown extra list '{extra}' of {source.edition.id} (built in: {known}; or give a file)"
            )
            raise CompileError([Diagnostic(where or Location("--extra", 0, 0), message)])
        found = next(iter(own.values())) if extra is None else own.get(extra) or self._extra_file(Path(extra))
        if found.edition_id not in _lineage(source):
            message = f"edition: this list is for {found.edition_id}, not {source.edition.id}"
            raise CompileError([found.doc.at(("edition",), message)])
        lent = self._with_lent_programs(replace(found, edition_id=source.edition.id))
        if isinstance(lent, list):
            raise CompileError(lent)
        return lent

    def extras(self, edition: str) -> tuple[ExtraSource, ...]:
        """The extra lists an edition (a built-in id or an edition file) plays, newest first."""
        return self.extras_of(self.edition(edition))

    def extras_of(self, source: EditionSource) -> tuple[ExtraSource, ...]:
        """The registry's lists of the edition; for a based edition that the registry gives
        none, its base's lists, played by this edition, the newest with its `extra:` edits
        (then named after the edition)."""
        paths = self.builtin_extras(source.edition.id)
        if paths or source.base is None:
            return tuple(self._extra_file(path) for path in paths)
        inherited = [replace(e, edition_id=source.edition.id) for e in self.extras_of(source.base)]
        edits = source.edits
        if edits is not None and "extra" in edits.data:
            if not inherited:
                message = f"extra: {source.base.edition.id} has no extra list to edit"
                raise CompileError([edits.at(("extra",), message, key=True)])
            edited, problems = edit_inherited(
                source, inherited[0], part_of(edits, "extra"), self._with_lent_programs
            )
            if edited is None:
                raise CompileError(problems)
            inherited[0] = edited
        return tuple(inherited)

    def _extra_file(self, path: Path) -> ExtraSource:
        return self._read_as(path, ExtraSource, "--extra expects an extra list (kind: extra)")

    def _with_lent_programs(
        self, extra: ExtraSource, below: tuple[str, ...] = ()
    ) -> ExtraSource | list[Diagnostic]:
        """The list with the programs its `programs_from` (a built-in list's id) lends it, the
        lender's own lent ones included, or the problem of a name that is no built-in list or
        that lends back to a list below it (`below`: the borrowers on the way here)."""
        if extra.programs_from is None:
            return extra
        if extra.programs_from in (*below, extra.id):
            message = f"programs_from: '{extra.programs_from}' borrows from this list in turn"
            return [extra.doc.at(("programs_from",), message)]
        every = [p for e in self.builtin_editions() for p in self.builtin_extras(e)]
        found = next((p for p in every if p.stem == extra.programs_from), None)
        lender, problems = self.read(found) if found is not None else (None, [])
        if problems or not isinstance(lender, ExtraSource):
            known = ", ".join(p.stem for p in every)
            message = f"programs_from: no built-in extra list '{extra.programs_from}' (built in: {known})"
            return problems or [extra.doc.at(("programs_from",), message)]
        lent = self._with_lent_programs(lender, (*below, extra.id))
        return lent if isinstance(lent, list) else with_programs_of(extra, lent)

    def regulations(self, edition: str) -> Regulations:
        """The regulations of an edition (a built-in id or an edition file), a built-in
        regulations file by its id, or a regulations file (a path)."""
        if is_path(edition) and _kind(Path(edition)) != "edition":
            return regulations_for(edition, self.regulations_file)
        if not is_path(edition) and edition not in self._index():
            return regulations_for(edition, self.regulations_file)
        return self.regulations_of(self.edition(edition))

    def regulations_of(self, source: EditionSource) -> Regulations:
        """The built-in regulations that name the edition; for a based edition none names,
        its base's, played by this edition, with its `regulations:` edits."""
        found = self.edition_regulations(source)
        if found is None:  # none: its message
            return regulations_for(source.edition.id, self.regulations_file)
        return found

    def edition_regulations(self, source: EditionSource) -> Regulations | None:
        """`regulations_of`, or None for an edition that has none."""
        named = [r for r in builtin_regulations(self.regulations_file) if source.edition.id in r.editions]
        if named or source.base is None:
            return named[0] if named else None
        base = self.edition_regulations(source.base)
        edits = source.edits
        if edits is None or "regulations" not in edits.data:
            return None if base is None else replace(base, editions=(source.edition.id,))
        if base is None:
            message = f"regulations: {source.base.edition.id} has no regulations to edit"
            raise CompileError([edits.at(("regulations",), message, key=True)])
        changes = part_of(edits, "regulations")
        merged, problems = edit_document(base.doc, changes, REGULATION_LISTS, f"the regulations {base.id}")
        merged.data["editions"] = [source.edition.id]
        found, more = regulations_from(merged)
        if problems or found is None:
            raise CompileError(problems + more)
        return found

    def regulations_file(self, path: Path, shown: str) -> Regulations:
        """A regulations file read and checked (CompileError with its problems), read again
        only when it changed on disk: every edition of a build asks for the built-in ones."""
        key = (Path(os.path.abspath(path)), shown)
        stamp = _stamp(key[0])
        cached = self._regulation_files.get(key)
        if cached is None or cached[0] != stamp or stamp == (-1, -1):
            cached = (stamp, read_regulations(path, shown))
            self._regulation_files[key] = cached
        regulations, problems = cached[1]
        if regulations is None:
            raise CompileError(list(problems))
        return regulations

    def official_base(self, path: Path) -> str:
        """The official format a local-rule file starts from, through the local rules it is
        based on."""
        return self._root(path, ())

    def _root(self, path: Path, below: tuple[Path, ...]) -> str:
        overlay = self._overlay(path)
        found = self._based_on(overlay, path, below)
        return str(overlay.format.base) if found is None else self._root(*found)

    def _house(
        self, path: Path, edition: str, below: tuple[Path, ...], extra: ExtraSource | None = None
    ) -> RuleSet:
        """A local-rule file's format, on its official base or on the local rule it names;
        `extra`: the extra list a local rule built on this one edits, played instead of its own."""
        overlay = self._overlay(path)
        source = self.checked(self._overlay_edition(overlay, path, edition))
        return link_overlay(source, overlay, self._under(overlay, path, edition, below, extra))

    def _overlay_edition(self, overlay: OverlaySource, path: Path, edition: str) -> EditionSource:
        """The edition a local rule names: `<id>.yaml` beside it, else `edition`."""
        named = self.find(overlay.edition_id, path.parent)
        return self.edition(edition if named is None else str(named))

    def _under(
        self,
        overlay: OverlaySource,
        path: Path,
        edition: str,
        below: tuple[Path, ...],
        extra: ExtraSource | None = None,
    ) -> RuleSet | None:
        """The format an overlay's `base:` names when it is not an official one: the local
        rule of that file, or the extra format with the overlay's extra list (or `extra`, a
        list edited by a local rule built on this one); None otherwise."""
        if overlay.format.base == EXTRA_FORMAT.id:
            source = self.checked(self._overlay_edition(overlay, path, edition))
            return link_extra(source, extra or self._edited_extra(overlay, path, source, below))
        found = self._based_on(overlay, path, below)
        refused: tuple[str, str] | None = None  # a field, and why this overlay may not have it
        if "extra" in overlay.doc.data:
            refused = ("extra", f"only a local rule with base: {EXTRA_FORMAT.id} names an extra list")
        elif TRUMPS in overlay.doc.data and (found is None or self._root(*found) != EXTRA_FORMAT.id):
            refused = (TRUMPS, f"only a local rule on the {EXTRA_FORMAT.id} format has trumps to edit")
        if refused is not None:
            raise CompileError([overlay.doc.at((refused[0],), f"{refused[0]}: {refused[1]}", key=True)])
        if found is None:
            return None
        if extra is None and TRUMPS in overlay.doc.data:
            source = self._overlay_edition(overlay, path, edition)
            extra = self._edited_extra(overlay, path, source, below)
        return self._house(found[0], edition, found[1], extra)

    def house_extra(self, path: Path) -> ExtraSource | None:
        """The extra list of a local rule on the extra format (None for another local rule):
        the list it starts from with its trumps' edits."""
        return self._house_extra(path, ())

    def house_extra_base(self, path: Path) -> ExtraSource:
        """The extra list a local rule on the extra format edits, before its own trumps' edits."""
        overlay = self._overlay(path)
        return self._extra_base(overlay, path, self._overlay_edition(overlay, path, overlay.edition_id), ())

    def _house_extra(self, path: Path, below: tuple[Path, ...]) -> ExtraSource | None:
        if self._root(path, below) != EXTRA_FORMAT.id:
            return None
        overlay = self._overlay(path)
        source = self._overlay_edition(overlay, path, overlay.edition_id)
        return self._edited_extra(overlay, path, source, below)

    def extra_file(self, path: Path, below: tuple[Path, ...] = ()) -> Path | None:
        """The extra list file a local rule edits, when its `extra:` (or that of the local rule
        it is based on) names a file rather than a built-in list."""
        overlay = self._overlay(path)
        found = self._based_on(overlay, path, below)
        if found is not None:
            return self.extra_file(*found)
        named = overlay.extra if overlay.format.base == EXTRA_FORMAT.id else None
        return path.parent / named if named is not None and is_path(named) else None

    def _extra_base(
        self, overlay: OverlaySource, path: Path, source: EditionSource, below: tuple[Path, ...]
    ) -> ExtraSource:
        """The extra list a local rule on the extra format edits: its `extra:` (a built-in
        list's id, or a file from its folder), or the edition's newest; on another local rule,
        that one's list."""
        found = self._based_on(overlay, path, below)
        under = None if found is None else self._house_extra(*found)
        if under is not None:
            return under
        named = overlay.extra
        where = overlay.doc.locate(("extra",) if named is not None else ("base",))
        return self.extra_list(source, str(path.parent / named) if named and is_path(named) else named, where)

    def _edited_extra(
        self, overlay: OverlaySource, path: Path, source: EditionSource, below: tuple[Path, ...]
    ) -> ExtraSource:
        base = self._extra_base(overlay, path, source, below)
        edited, problems = edit_trumps(source, base, overlay, self._with_lent_programs)
        if edited is None:
            raise CompileError(problems)
        return edited

    def _based_on(
        self, overlay: OverlaySource, path: Path, below: tuple[Path, ...]
    ) -> tuple[Path, tuple[Path, ...]] | None:
        """The local-rule file an overlay's `base:` names, and the chain of files that leads to
        it; None for an official base. A missing file or a cycle is an error at `base:`."""
        base = str(overlay.format.base)
        if not is_path(base):
            return None
        target, chain = path.parent / base, (*below, path.resolve())
        if target.resolve() in chain:
            names = " → ".join(p.name for p in (*chain, target.resolve()))
            raise CompileError([overlay.doc.at(("base",), f"base: local rules based on each other: {names}")])
        if not target.is_file():
            message = f"base: no local-rule file {base} (from this file's folder)"
            raise CompileError([overlay.doc.at(("base",), message)])
        return target, chain

    def compile_edition(self, edition: str | None = None) -> dict[str, RuleSet]:
        source = self.checked(self.edition(self.default("edition") if edition is None else edition))
        return {f.id: link(source, f.id) for f in source.edition.formats}

    def _overlay(self, path: Path) -> OverlaySource:
        return self._read_as(path, OverlaySource, "--rules expects a local-rule file (kind: overlay)")

    def _read_as(self, path: Path, kind: type[K], expected: str) -> K:
        """The file read as the kind of document an option expects; CompileError with all its
        problems, or with what the option expects when it is another kind."""
        found, problems = self.read(path)
        if problems:
            raise CompileError(self.all_problems(path))
        if not isinstance(found, kind):
            assert found is not None
            raise CompileError([found.doc.at(("kind",), f"kind: {expected}")])
        return found

    # --- validating -------------------------------------------------------------------------

    def check_text(self, path: Path, text: str) -> list[Diagnostic]:
        """Every problem `validate` would find in `text` written at `path` (its siblings read
        from beside it), before anything is written there."""
        key = Path(os.path.abspath(path))
        self._unwritten[key] = text.encode("utf-8")
        self._read.pop(key, None)
        try:
            return [d for d in self.check_paths([path])[1] if not d.warning]
        finally:
            del self._unwritten[key]
            self._read.pop(key, None)

    def check_paths(self, paths: Iterable[Path]) -> tuple[int, list[Diagnostic]]:
        """Validate files and folders (recursively, *.yaml / *.yml); return (files read, problems)."""
        files, problems = find_files(paths, _SUFFIXES)
        sources: list[Source | ExtraSource] = []
        for file in files:
            data = data_file_problems(file, display(file), self.edition)
            if data is not None:
                problems += data
                continue
            source, found = self.read(file)
            problems += found
            if source is not None:
                sources.append(source)
        editions = {s.edition.id: s for s in sources if isinstance(s, EditionSource)}
        for source in sources:
            if isinstance(source, EditionSource):
                problems += self.edition_problems(source) + self._inherited_problems(source)
            elif isinstance(source, ExtraSource):
                problems += self._check_extra(source, editions)
            else:
                problems += self._check_overlay(source, editions)
        return len(files), sorted(dict.fromkeys(problems), key=lambda d: d.location)

    def _inherited_problems(self, source: EditionSource) -> list[Diagnostic]:
        """A based edition's extra lists and regulations, as it inherits and edits them: the
        problems of its edits, and the names the regulations' actions use that it lacks."""
        if source.base is None:
            return []
        problems: list[Diagnostic] = []
        try:
            self.extras_of(source)
        except CompileError as error:
            problems += error.diagnostics
        try:
            regulations = self.edition_regulations(source)
        except CompileError as error:
            return [*problems, *error.diagnostics]
        if regulations is not None:
            problems += action_problems(regulations, source, regulations.actions)
        return problems

    def _named_edition(
        self, source: OverlaySource | ExtraSource, editions: dict[str, EditionSource]
    ) -> EditionSource | list[Diagnostic]:
        """The edition a local rule or an extra list names (one of `editions`, a sibling file or
        a built-in one), or the problems that stop its check."""
        base = editions.get(source.edition_id)
        if base is not None:
            return base
        named = self.find(source.edition_id, Path(source.doc.path).parent, Path(source.doc.path))
        if named is None:
            known = ", ".join(sorted({*editions, *self.builtin_editions()}))
            return [
                source.doc.at(
                    ("edition",), f"edition: unknown edition '{source.edition_id}' (known: {known})"
                )
            ]
        try:
            base = self.edition(str(named))
        except CompileError as error:  # the edition's own problems
            return list(error.diagnostics)
        return self.edition_problems(base) or base

    def _check_extra(self, extra: ExtraSource, editions: dict[str, EditionSource]) -> list[Diagnostic]:
        edition = self._named_edition(extra, editions)
        lent = self._with_lent_programs(extra)
        if isinstance(edition, list) or isinstance(lent, list):
            return [
                *(edition if isinstance(edition, list) else ()),
                *(lent if isinstance(lent, list) else ()),
            ]
        return check_extra(lent, edition)

    def _check_overlay(self, overlay: OverlaySource, editions: dict[str, EditionSource]) -> list[Diagnostic]:
        base = self._named_edition(overlay, editions)
        if isinstance(base, list):
            return base
        try:
            under = self._under(overlay, Path(overlay.doc.path), base.edition.id, ())
        except CompileError as error:  # the problems of the local rule it builds on
            return list(error.diagnostics)
        return check_overlay(base, overlay, under)


_Stamp = tuple[Path, tuple[int, int]]  # a file, its modification time (ns) and size


def _kind(path: Path) -> object:
    """The `kind:` a file declares (None when it cannot be read as a mapping)."""
    doc, _ = load_file(path, display(path))
    return doc.data.get("kind") if doc is not None and isinstance(doc.data, dict) else None


def _lineage(source: EditionSource) -> tuple[str, ...]:
    """The edition's id and its bases': a based edition plays its bases' extra lists too."""
    return (source.edition.id, *(() if source.base is None else _lineage(source.base)))


def _stamp(path: Path) -> tuple[int, int]:  # -1, -1 for a file that cannot be read
    try:
        info = path.stat()
    except OSError:
        return -1, -1
    return info.st_mtime_ns, info.st_size


def _name_problems(doc: Document, path: Path) -> list[Diagnostic]:
    """An edition file is named after its id: <id>.yaml."""
    edition_id = doc.data["id"]
    if path.stem == edition_id:
        return []
    return [
        doc.at(
            ("id",),
            f"id: '{edition_id}' does not match the file name '{path.name}' (expected {edition_id}.yaml)",
        )
    ]


def find_files(paths: Iterable[Path], suffixes: tuple[str, ...]) -> tuple[list[Path], list[Diagnostic]]:
    """The files named, and the regular files with one of `suffixes` under the folders named.

    Anything but a folder is kept, for the reader to refuse if it is no regular file (it
    checks before opening: a FIFO would hang it). A folder with nothing to read is a
    problem, not a quiet success.
    """
    files: set[Path] = set()
    problems: list[Diagnostic] = []
    for path in paths:
        if not path.is_dir():
            files.add(path)
            continue
        found = {p for p in path.rglob("*") if p.suffix in suffixes and not p.is_dir()}
        if not found:
            wanted = " or ".join(f"*{s}" for s in suffixes)
            problems.append(Diagnostic(Location(display(path), 0, 0), f"no {wanted} files in this folder"))
        files |= found
    return sorted(files), problems
