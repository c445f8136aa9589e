"""Planned, checked writes: the one way a command writes files (docs/bad-input.md).

A command names every file it will write before it writes the first byte. One `WritePlan`
holds the command's inputs and its output places: a folder with the names that go into it,
a new or empty folder the command fills, or one file. Every target is resolved (symbolic
links, `..`, absolute names) and refused when it lands outside its place, on one of the
command's inputs, on a folder, or on a link that leads nowhere or in a loop. `problems`
lists every refusal, located `path:1:1: --option: message` like a file that cannot be read;
a command with any refusal writes nothing and makes no folder.

Then the command writes only through the plan. A file is written whole, beside its place,
and renamed over it: a symbolic link of its name is replaced, never written through, and an
interrupted write leaves the old file. The plan makes each missing folder and, when the
command fails, removes again those still empty; it removes nothing else.

As root, permission bits do not stop a write, so writability is tested by writing: a probe
file is created (and removed) in the folder that will receive the output, or in the nearest
existing folder above it when it has still to be made.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePath

from blackpoker.compiler.paths import display
from blackpoker.runtime.rules.diagnostics import Diagnostic, Location


@dataclass(frozen=True, slots=True)
class _Place:
    given: Path  # as the command line names it
    real: Path  # with every symbolic link resolved
    option: str
    folder: bool  # a folder (False: one file)


class WritePlan:
    """The files one command writes, each checked before any is written."""

    def __init__(self, inputs: Iterable[Path] = ()) -> None:
        self.problems: list[Diagnostic] = []
        self._inputs: dict[tuple[int, int], Path] = {}  # by file identity: hard links and links too
        self._places: dict[Path, _Place | None] = {}  # None: refused
        self._targets: dict[Path, tuple[Path, str]] = {}  # a planned file as named -> where it lands, option
        self._lands: dict[Path, Path] = {}  # where a planned file lands -> its name
        self._made: list[Path] = []
        self.reads(inputs)

    # --- planning ----------------------------------------------------------------------------

    def reads(self, inputs: Iterable[Path]) -> None:
        """Files the command reads (names of no file are left out): no planned file may be one of
        them, whether planned before or after."""
        for path in inputs:
            info, _ = _follow(path)
            if info is None or not stat.S_ISREG(info.st_mode):
                continue
            identity = (info.st_dev, info.st_ino)
            self._inputs.setdefault(identity, path)
            for given, (lands, option) in list(self._targets.items()):  # planned before it was known
                if _identity(lands) == identity:
                    del self._targets[given], self._lands[lands]
                    self._refuse(given, option, _an_input(path))

    def folder(
        self,
        path: Path,
        option: str,
        names: Iterable[str | PurePath] = (),
        *,
        empty: bool = False,
        replace: bool = True,
    ) -> None:
        """Folder `path` (made if missing) receives the files `names`, relative to it; a file of
        one of those names there is replaced only with `replace`. `empty`: the folder must be new
        or empty; it is then the command's own, and what it writes there is not named here.
        Called again for the same folder, it adds names."""
        if path not in self._places:
            self._places[path] = self._folder_place(path, option, empty)
        place = self._places[path]
        if place is not None:
            for name in names:
                self._target(place, PurePath(name), replace)

    def file(self, path: Path, option: str, *, replace: bool = False) -> None:
        """The file `path`, in an existing folder; an existing file is replaced only with `replace`."""
        info, why = _follow(path)
        parent, _ = _follow(path.parent)
        if why is None and info is not None and stat.S_ISDIR(info.st_mode):
            why = "is a folder; expected a file name"
        elif why is None and (parent is None or not stat.S_ISDIR(parent.st_mode)):
            why = f"{display(path.parent)}: no such folder"
        why = why or _probe(path.parent)
        real = Path(os.path.realpath(path))
        why = why or self._overlap(real, option, folder=False)
        if why is not None:
            self._refuse(path, option, why)
            return
        place = _Place(path, real, option, folder=False)
        self._places[path] = place
        self._target(place, PurePath(path.name), replace)

    def _folder_place(self, path: Path, option: str, empty: bool) -> _Place | None:
        info, why = _follow(path)
        if why is None and info is not None and not stat.S_ISDIR(info.st_mode):
            why = "not a folder"
        elif why is None and info is None:
            why = _unmakeable(path)
        elif why is None and empty and any(path.iterdir()):
            why = "the folder is not empty; give a new or empty folder"
        real = Path(os.path.realpath(path))
        why = why or _probe(path) or self._overlap(real, option, folder=True)
        if why is not None:
            self._refuse(path, option, why)
            return None
        return _Place(path, real, option, folder=True)

    def _overlap(self, real: Path, option: str, folder: bool) -> str | None:
        """Why a place may not share its ground with another place of the command."""
        for other in filter(None, self._places.values()):
            if other.folder and real.is_relative_to(other.real):
                return f"inside the {other.option} folder {display(other.given)}; give a place outside it"
            if folder and other.real.is_relative_to(real):
                return f"{other.option} {display(other.given)} is inside it; give another place"
        return None

    def _target(self, place: _Place, name: PurePath, replace: bool) -> None:
        """Check where `name` lands in `place`: inside it, on no input, never through a link
        that leads out of it or nowhere."""
        given = place.given / name if place.folder else place.given
        if name.is_absolute() or not name.parts or ".." in name.parts:
            self._refuse(place.given, place.option, f"'{name}' names a place outside it")
            return
        root = place.real if place.folder else Path(os.path.realpath(place.given.parent))
        here = root
        for depth, part in enumerate(name.parts, 1):
            here, last = here / part, depth == len(name.parts)
            step = place.given / PurePath(*name.parts[:depth]) if place.folder else given
            if not os.path.lexists(here):  # made by the plan from here on, inside the place
                here = here.joinpath(*name.parts[depth:])
                break
            why = self._step_problem(here, root, place, last, replace)
            if why is not None:
                self._refuse(step, place.option, why)
                return
            if not last:  # a link of the file's own name is replaced, never followed
                here = Path(os.path.realpath(here))
        if here in self._lands:
            self._refuse(given, place.option, f"is written twice (also as {display(self._lands[here])})")
            return
        self._targets[given] = here, place.option
        self._lands[here] = given

    def _step_problem(self, here: Path, root: Path, place: _Place, last: bool, replace: bool) -> str | None:
        """Why the existing step `here` (the file itself when `last`) may not be taken."""
        info, why = _follow(here)
        if why is not None or info is None:
            return why or "cannot be followed"
        real = Path(os.path.realpath(here))
        if not real.is_relative_to(root):
            where = f"the {place.option} folder {display(place.given)}" if place.folder else display(root)
            return f"a symbolic link to {display(real)}, outside {where}: nothing is written through it"
        if stat.S_ISDIR(info.st_mode) == last:
            return f"is {'a folder' if last else 'a file'}, in the way of a file to write"
        if last and (info.st_dev, info.st_ino) in self._inputs:
            return _an_input(self._inputs[(info.st_dev, info.st_ino)])
        if last and not replace:
            return "the file exists; use --force to replace it"
        return None

    def _refuse(self, path: Path, option: str, message: str) -> None:
        self.problems.append(Diagnostic(Location(display(path), 1, 1), f"{option}: {message}"))

    # --- writing -----------------------------------------------------------------------------

    def write(self, path: Path, data: str | bytes) -> None:
        """A planned file, written whole (its missing folders made first)."""
        self._make(self._planned(path).parent)
        write_whole(path, data)

    def move(self, source: Path, path: Path) -> None:
        """A file made elsewhere on the same file system renamed into its planned place."""
        self._make(self._planned(path).parent)
        os.replace(source, path)

    def make(self, folder: Path) -> None:
        """A planned folder, made with the missing folders above it."""
        if self.problems or self._places.get(folder) is None:
            raise RuntimeError(f"{folder}: not a checked output folder")
        self._make(folder)

    def undo(self) -> None:
        """Remove the folders this plan made that are still empty: the command failed."""
        for folder in reversed(self._made):
            with contextlib.suppress(OSError):  # something was written into it, or it went already
                folder.rmdir()
        self._made.clear()

    def _planned(self, path: Path) -> Path:
        if self.problems or path not in self._targets:
            raise RuntimeError(f"{path}: not a checked output file")
        return path

    def _make(self, folder: Path) -> None:
        missing = []
        while not os.path.lexists(folder) and folder != folder.parent:
            missing.append(folder)
            folder = folder.parent
        for made in reversed(missing):
            made.mkdir()
            self._made.append(made)


def write_whole(path: Path, data: str | bytes) -> None:
    """`data` in file `path`, whole or not at all: written beside it, then renamed over it."""
    temporary = path.with_name(f".{path.name}.{os.urandom(8).hex()}.tmp")  # secrets.token_hex(8)
    # a new name (O_EXCL: not even a link of it is followed), with the mode open() would give
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _an_input(path: Path) -> str:
    return f"is {display(path)}, an input of this command; give another name"


def _identity(path: Path) -> tuple[int, int] | None:
    info, _ = _follow(path)
    return None if info is None else (info.st_dev, info.st_ino)


def _follow(path: Path) -> tuple[os.stat_result | None, str | None]:
    """What `path` is once its links are followed (None: nothing there), or why it cannot be followed."""
    try:
        return path.stat(), None
    except (FileNotFoundError, NotADirectoryError):
        if os.path.islink(path):
            return None, f"a symbolic link to {os.readlink(path)}, which does not exist"
        return None, None
    except OSError as error:
        if error.errno == errno.ELOOP:
            return None, "a loop of symbolic links"
        return None, f"cannot be used: {error.strerror}"


def _unmakeable(path: Path) -> str | None:
    """Why the missing folder `path` cannot be made: what is at the nearest existing place above it."""
    above = path.parent
    while not os.path.lexists(above) and above != above.parent:
        above = above.parent
    info, why = _follow(above)
    if why is not None:
        return f"{display(above)}: {why}"
    if info is not None and not stat.S_ISDIR(info.st_mode):
        return f"{display(above)} is a file, not a folder"
    return None


def _probe(folder: Path) -> str | None:
    existing = folder
    while not os.path.lexists(existing) and existing != existing.parent:
        existing = existing.parent
    try:
        with tempfile.TemporaryFile(dir=existing, prefix=".write-probe-"):
            pass
    except OSError as error:
        return f"cannot write in {display(existing)}: {error.strerror}"
    return None
