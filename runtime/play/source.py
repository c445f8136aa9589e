"""Where a played rule set comes from: an edition (built-in id or file), a format, and maybe a
local-rule file. Logs record the files by path and hash, so a replay can find them again."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from blackpoker.compiler.environment import Environment, is_path
from blackpoker.compiler.model import RuleSet

# The header keys of the files a rule set was compiled from.
EDITION_FILE, RULES_FILE = "edition_file", "rules_file"


@dataclass(frozen=True, slots=True)
class RulesSource:
    """Compiled once in the process that starts a run (each call reads the files again, so a
    changed file is never played from an old compilation)."""

    edition: str
    format: str
    rules: Path | None = None  # a local-rule file
    extra: str | None = None  # the extra format's list: a built-in one's id or a file (default: the newest)

    def compile(self, env: Environment | None = None) -> RuleSet:
        return (env or Environment()).compile(self.edition, self.format, self.rules, self.extra)

    def files(self) -> dict[str, Path]:
        """The files behind the rule set, by header key: an edition file, a local-rule file."""
        found = {EDITION_FILE: Path(self.edition)} if is_path(self.edition) else {}
        return found | ({RULES_FILE: self.rules} if self.rules is not None else {})


def file_record(path: Path, folder: Path) -> dict[str, str]:
    """A file as a log header names it: its path from the log's folder, and its SHA-256."""
    return {"path": Path(os.path.relpath(path, folder)).as_posix(), "sha256": sha256(path)}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
