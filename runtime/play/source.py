"""Where a played rule set comes from: an edition (built-in id or file), a format, and maybe a
local-rule file or an extra list. Logs record the files by path and hash, so a replay can find
them again, and a built-in extra list by its id."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from blackpoker.compiler.paths import is_path
from blackpoker.runtime.rules.model import EXTRA_FORMAT_ID, Format, RuleSet

if TYPE_CHECKING:
    from blackpoker.compiler.environment import Environment

# The header keys of the files a rule set was compiled from (the last: the list file a local
# rule's `extra:` names), and of a built-in extra list.
EDITION_FILE, RULES_FILE, EXTRA_FILE = "edition_file", "rules_file", "extra_file"
RULES_EXTRA_FILE = "rules_extra_file"
EXTRA = "extra"
DECK_FILE = "deck_file"  # a regulation's deck file: `blackpoker serve` is started with none


@dataclass(frozen=True, slots=True)
class RulesSource:
    """Compiled once in the process that starts a run (each call reads the files again, so a
    changed file is never played from an old compilation)."""

    edition: str
    format: str
    rules: Path | None = None  # a local-rule file
    extra: str | None = None  # the extra format's list: a built-in one's id or a file (default: the newest)

    def compile(self, env: Environment | None = None) -> RuleSet:
        return (env or _environment()).compile(self.edition, self.format, self.rules, self.extra)

    def files(self, env: Environment | None = None) -> dict[str, Path]:
        """The files behind the rule set, by header key: an edition file, a local-rule file and
        the list file its `extra:` names, an extra list file."""
        found = {EDITION_FILE: Path(self.edition)} if is_path(self.edition) else {}
        found |= {EXTRA_FILE: Path(self.extra)} if self.extra is not None and is_path(self.extra) else {}
        if self.rules is None:
            return found
        listed = (env or _environment()).extra_file(self.rules)
        return found | {RULES_FILE: self.rules} | ({RULES_EXTRA_FILE: listed} if listed is not None else {})

    def builtin_extra(self, env: Environment | None = None) -> str | None:
        """The id of the built-in extra list the extra format plays (the one named, or the
        edition's newest, which a later release may change); None for a file or another format."""
        if self.format != EXTRA_FORMAT_ID or self.rules is not None:
            return None
        if self.extra is not None:
            return None if is_path(self.extra) else self.extra
        newest = (env or _environment()).builtin_extras(self.edition)
        return newest[0].stem if newest else None

    def named(self, env: Environment | None = None) -> Named:
        """What a log's header names of this source, looked up once (in `env`, or in one new
        environment, made only when a file must be looked up: the static page has none) for all
        the logs of a run."""
        return Named(self.files(env), self.builtin_extra(env))


@dataclass(frozen=True, slots=True)
class Named:
    """The files a log's header names, by header key, and the built-in extra list it plays:
    plain paths and ids, so a run's worker processes get them pickled with their plan."""

    files: Mapping[str, Path]
    extra: str | None


def offered_formats(env: Environment, edition: str) -> tuple[Format, ...]:
    """The formats a game of the edition may be played in (`play --format`, the browser's
    lobby): the edition's own, and the extra format when it has a built-in extra list."""
    from blackpoker.compiler.documents.extra import EXTRA_FORMAT

    own = env.edition(edition).edition.formats
    return (*own, EXTRA_FORMAT) if not is_path(edition) and env.builtin_extras(edition) else own


def _environment() -> Environment:
    """The compiler, imported when a source is compiled or its files are looked up: a run
    handed its compiled rule set (a cache hit, a worker) loads no parser."""
    from blackpoker.compiler.environment import Environment

    return Environment()


def file_record(path: Path, folder: Path) -> dict[str, str]:
    """A file as a log header names it: its path from the log's folder, and its SHA-256."""
    return {"path": Path(os.path.relpath(path, folder)).as_posix(), "sha256": sha256(path)}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass(frozen=True, slots=True)
class ServedFiles:
    """The only files an upload to `blackpoker serve` may name: the ones the server was started
    with (`--edition FILE`, `--rules FILE` and the list file its `extra:` names), each under the
    key a log's header records it by. A scenario names one by its path, a command log by its
    hash; any other name is refused before the file it names is opened or even looked at, so
    no answer can tell what a file on the server holds, or whether it is there."""

    paths: Mapping[str, frozenset[Path]]  # by key: the file's absolute path, as given and resolved
    files: Mapping[str, Path]
    hashes: Mapping[str, str]

    @classmethod
    def of(cls, source: RulesSource, env: Environment | None = None) -> ServedFiles:
        files = {key: Path(os.path.abspath(path)) for key, path in source.files(env).items()}
        return cls(
            {key: frozenset((path, path.resolve())) for key, path in files.items()},
            files,
            {key: sha256(path) for key, path in files.items()},
        )

    def named(self, key: str, path: Path) -> bool:
        """Whether `path` (as an upload names it, relative to its folder) is the file served
        under `key`: compared as text, never looked up on disk."""
        return Path(os.path.abspath(path)) in self.paths.get(key, frozenset())

    def recorded(self, key: str, digest: str) -> Path | None:
        """The file served under `key` when its hash is `digest` (as a log's header records it)."""
        return self.files[key] if key in self.hashes and self.hashes[key] == digest else None
