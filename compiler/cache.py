"""Compiled rule sets kept on disk between commands, so a command that plays a rule set it
played before skips the pipeline (docs/engine.md, "The rule-set cache").

An entry is found by what was asked (edition, format, local-rule file, extra list, as absolute
paths) with a stamp of the compiler's code, and holds every file the compilation read with
its SHA-256, and the SHA-256 of the installed package's metadata (which names its version):
it is used only while each file still has that content, so it is never stale, and an entry
of another version of the package is a miss. A hit reads the version that way, by a digest,
because importing importlib.metadata to ask for it would cost a one-game command more than
the rest of the cache. A missing, unreadable or corrupt entry is a miss, an entry is
written to a temporary file and renamed into place, and a write that fails is skipped: the
folder is safe to delete at any time.

The registry's defaults (the edition and formats a command takes when not told) are kept the
same way, keyed by the registry file's SHA-256. A hit loads no compiler stage and none of the
parser packages: the environment, and with it the pipeline, is imported on a miss only.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import stat
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from blackpoker.compiler.paths import INDEX, is_path
from blackpoker.runtime.rules.model import RuleSet

if TYPE_CHECKING:
    from blackpoker.compiler.environment import Environment

CACHE_DIR = "BLACKPOKER_CACHE_DIR"  # overrides the user cache folder (the tests use their own)
_FORMAT = 2  # of an entry: (files and digests, the package's metadata and digest, rule set)
Default = Literal["edition", "format", "play_format"]
DEFAULTS: tuple[Default, ...] = ("edition", "format", "play_format")


def cache_folder() -> Path:
    """$BLACKPOKER_CACHE_DIR, else the user cache folder (platformdirs' when it is installed,
    else $XDG_CACHE_HOME or ~/.cache), `blackpoker/rulesets` in it."""
    if os.environ.get(CACHE_DIR):
        return Path(os.environ[CACHE_DIR])
    try:
        from platformdirs import user_cache_dir
    except ImportError:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "blackpoker"
    else:
        base = Path(user_cache_dir("blackpoker"))
    return base / "rulesets"


def compile_cached(
    env: Environment | Callable[[], Environment] | None,
    edition: str,
    format: str,
    rules: Path | None = None,
    extra: str | None = None,
    folder: Path | None = None,
) -> tuple[RuleSet, tuple[Path, ...]]:
    """`env.compile(...)`, from the cache in `folder` when an entry's files are unchanged
    (None: no cache), and the files it was compiled from (a command's inputs, which its
    outputs may not replace). Bad input is reported by the compilation, which a miss runs
    (in `env`, see `_environment`)."""
    if folder is None:
        made = _environment(env)
        return made.compile(edition, format, rules, extra), made.files_read()
    asked = [_absolute(edition), format, None if rules is None else os.path.abspath(rules)]
    asked.append(None if extra is None else _absolute(extra))
    key = hashlib.sha256(json.dumps([_FORMAT, _code_stamp(), asked]).encode()).hexdigest()
    entry = folder / f"{key}.pickle"
    found = _load(entry)
    if found is not None:
        return found
    made = _environment(env)
    ruleset = made.compile(edition, format, rules, extra)
    files = {str(path.resolve()): _digest(path) for path in (*made.files_read(), _index())}
    package = {str(path): _digest(path) for path in _package_metadata()}
    if None not in [*files.values(), *package.values()]:  # else nothing to check against
        _store(entry, pickle.dumps((files, package, ruleset), protocol=pickle.HIGHEST_PROTOCOL))
    return ruleset, made.files_read()


def registry_default(
    what: Default, folder: Path | None, env: Environment | Callable[[], Environment] | None = None
) -> str:
    """`env.default(what)`, from the cache in `folder` while the registry file is unchanged
    (None: no cache). A faulty registry is reported by the environment (see `_environment`),
    which a miss reads."""
    digest = None if folder is None else _digest(_index())
    entry = None if folder is None or digest is None else folder / f"defaults-{digest}.json"
    found = None if entry is None else _read(entry)
    try:
        defaults = json.loads(found) if found is not None else None
    except ValueError:  # a corrupt entry is a miss
        defaults = None
    if isinstance(defaults, dict) and all(isinstance(defaults.get(w), str) for w in DEFAULTS):
        return str(defaults[what])
    made = _environment(env)
    defaults = {w: made.default(w) for w in DEFAULTS}
    if entry is not None:
        _store(entry, json.dumps(defaults).encode())
    return str(defaults[what])


def _environment(env: Environment | Callable[[], Environment] | None) -> Environment:
    """The environment a miss runs in: `env`, or what it makes (a command's own, made on the
    first call, so that a hit never makes it), or a new one when None."""
    if env is None:
        from blackpoker.compiler.environment import Environment  # the pipeline: on a miss only

        return Environment()
    return env() if callable(env) else env


def _index() -> Path:
    return Path(str(resources.files("blackpoker.actionlists").joinpath(INDEX)))


def _absolute(name: str) -> str:
    return os.path.abspath(name) if is_path(name) else name


def _load(entry: Path) -> tuple[RuleSet, tuple[Path, ...]] | None:
    """The entry's rule set and files if every file it names still has its content; else None."""
    data = _read(entry)
    if data is None:
        return None
    try:
        files, package, ruleset = pickle.loads(data)
        fresh = all(_digest(Path(p)) == d for p, d in (*files.items(), *package.items()))
    except Exception:  # any fault of a cache entry (truncated, foreign, of an old format) is a miss
        return None
    return (ruleset, tuple(map(Path, files))) if fresh and isinstance(ruleset, RuleSet) else None


def _read(entry: Path) -> bytes | None:
    """An entry's bytes: only a regular file of this user's that no one else may write is read."""
    try:
        info = entry.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
            return None
        return entry.read_bytes()
    except OSError:
        return None


def _store(entry: Path, data: bytes) -> None:
    try:
        entry.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, name = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-")  # mode 0600
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(name, entry)  # readers see the old entry or the whole new one
    except OSError:
        Path(name).unlink(missing_ok=True)


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _package_metadata() -> list[Path]:
    """The installed package's METADATA file, which holds its version (none when the package
    is not installed, as when run from a source tree)."""
    from importlib import metadata  # on a miss only

    try:
        found = metadata.distribution("blackpoker").files or []
    except metadata.PackageNotFoundError:
        return []
    named = [f for f in found if f.name == "METADATA" and f.parent.name.endswith(".dist-info")]
    return [Path(str(f.locate())).resolve() for f in named]


# What decides a compilation besides the files it reads: the compiler's and runtime's sources,
# the notation grammars the parse stage reads, and the schemas that accept or refuse a file.
_CODE = (("compiler", "*.py"), ("compiler", "*.lark"), ("runtime", "*.py"), ("schema", "*.json"))


def _code_stamp() -> list[tuple[str, int, int]]:
    """The path, size and modification time of each file of `_CODE`: a changed compiler, rule
    model, grammar or schema (an editable install between releases) never reads an older one's
    entries."""
    root = Path(__file__).parents[1]
    files = [p for part, pattern in _CODE for p in (root / part).rglob(pattern)]
    return sorted((str(p.relative_to(root)), s.st_size, s.st_mtime_ns) for p in files if (s := p.stat()))
