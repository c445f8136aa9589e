"""The static play page of `blackpoker build --play` (docs/play.md): the app's page, script and
style sheet (app/, the same as `blackpoker serve`'s), the Pyodide runtime from npm's `pyodide`
package, and one zip of what its Python runs — the modules `offline.py` loads (the engine, the
play modules, the game session; lark for the command notation) and the rule sets, compiled
here and pickled as the rule-set cache keeps them (compiler/cache.py).

Everything the page loads is one of these files: it asks the network for nothing else.
"""

from __future__ import annotations

import io
import json
import pickle
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from blackpoker.compiler.environment import Environment
from blackpoker.runtime.play.labels import browser_script
from blackpoker.runtime.play.source import RulesSource
from blackpoker.runtime.serve.cards import Json
from blackpoker.runtime.serve.offline import LOBBY, RULES
from blackpoker.runtime.serve.page import app_pages

FOLDER = Path("play")  # in the site
PYODIDE_VERSION = "0.28.3"  # the one pyodide/package.json pins, and the page was tested with
# The core of the npm package: the loader, the interpreter and its standard library. The page
# loads no Pyodide package (its lark is the build's own, in the bundle).
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
APP_FILES = (
    "app.js",
    "app.css",
    "game.js",
    "match.js",
    "game.css",
    "backend_pyodide.js",
    "lobby.js",
    "zones.js",
    "zones.css",
    "labels.js",
)
BUNDLE = "game.zip"
# What offline.py loads, in a fresh interpreter: those modules' files are the bundle's Python.
_LOADED = (
    "import json, sys, blackpoker.runtime.serve.offline; "
    "print(json.dumps({n: getattr(m, '__file__', None) for n, m in sys.modules.items()}))"
)
SHIPPED = ("blackpoker", "lark")  # the top-level packages whose modules the bundle ships


class PyodideMissing(Exception):
    """The npm package is not where the build looks: the message says what to install."""


@dataclass(frozen=True, slots=True)
class PlayPage:
    """The page's files, made before anything is written (a rule set that does not compile
    stops the build first): each by its path in the site."""

    made: dict[Path, bytes]
    copied: dict[Path, Path]  # the Pyodide runtime, copied from the npm package

    def files(self) -> list[Path]:
        return [*self.made, *self.copied]

    @property
    def link(self) -> tuple[str, str]:
        return (FOLDER / "index.html").as_posix(), "ブラウザでエージェントと対戦する（サーバー不要）"

    def write(self, root: Path) -> list[Path]:
        for rel, data in self.made.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)
        for rel, source in self.copied.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(source.read_bytes())
        return self.files()


def pyodide_folder(given: Path | None) -> Path:
    """The npm package's folder: `given`, else the one `npm ci --prefix runtime/serve/pyodide`
    installs beside this module (.ci/setup), else node_modules/pyodide in the current folder or
    one above it, as node finds a package."""
    here = Path(__file__).resolve().parent / "pyodide" / "node_modules" / "pyodide"
    cwd = Path.cwd().resolve()
    above = [p / "node_modules" / "pyodide" for p in (cwd, *cwd.parents)]
    found = [given] if given is not None else [here, *above]
    for folder in found:
        if all((folder / name).is_file() for name in PYODIDE_FILES):
            return folder
    where = f"in {given}" if given is not None else "beside the package or in node_modules"
    raise PyodideMissing(
        f"build --play: the pyodide npm package is not installed {where}: run "
        f"`npm install pyodide@{PYODIDE_VERSION}` (or give its folder with --pyodide)"
    )


def play_page(env: Environment, offered: dict[str, list[str]], pyodide: Path | None) -> PlayPage:
    """The page offering `offered`: edition -> its formats, each compiled now."""
    folder = pyodide_folder(pyodide)
    files: dict[str, str] = {}
    extras: dict[str, str] = {}  # the extra format's built-in list, for its games' command logs
    rulesets: dict[str, bytes] = {}
    editions: list[Json] = []  # the shape of the server's lobby (runtime/serve/lobby.py)
    for edition, formats in offered.items():
        named = []
        for format_id in formats:
            name = f"{len(rulesets)}.pickle"
            source = RulesSource(edition, format_id)
            ruleset = source.compile(env)
            listed = source.builtin_extra(env)
            if listed is not None:
                extras[f"{edition} {format_id}"] = listed
            rulesets[name] = pickle.dumps(ruleset, protocol=pickle.HIGHEST_PROTOCOL)
            files[f"{edition} {format_id}"] = name
            named.append({"id": format_id, "name": ruleset.format.name})
        # the extra format plays the edition's newest list; no regulation: a frame's set-up
        # needs the compiler, which the page does not ship
        editions.append(
            {
                "id": edition,
                "name": edition,
                "formats": named,
                "extras": [],
                "extra_format": None,
                "regulations": None,
            }
        )
    first = next(iter(offered))
    play_format = env.default("play_format")
    defaults = {
        "edition": first,
        "format": play_format if play_format in offered[first] else offered[first][0],
        "seed": None,
        "opponent": "greedy",
    }
    lobby = {"editions": editions, "files": files, "extras": extras, "defaults": defaults}
    app = resources.files("blackpoker.runtime.serve").joinpath("app")
    made = {FOLDER / "index.html": _page().encode()}
    made |= {FOLDER / "app" / name: app.joinpath(name).read_bytes() for name in APP_FILES}
    made[FOLDER / "app" / "labels.js"] = browser_script(made[FOLDER / "app" / "labels.js"])
    made[FOLDER / BUNDLE] = _bundle(json.dumps(lobby, ensure_ascii=False), rulesets)
    return PlayPage(made, {FOLDER / "pyodide" / name: folder / name for name in PYODIDE_FILES})


def _page() -> str:
    return app_pages().get_template("app.html").render(kind="lobby", key="", offline=True)


def _bundle(lobby: str, rulesets: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as bundle:
        for name, path in sorted(_sources().items()):
            bundle.write(path, name)
        bundle.writestr(LOBBY, lobby)
        for name, data in rulesets.items():
            bundle.writestr(f"{RULES}/{name}", data)
    return buffer.getvalue()


def _sources() -> dict[str, Path]:
    """The Python files the page runs, by their name in the bundle: the modules of SHIPPED that
    offline.py loads (their sources, even where a compiled build loaded a C extension), every
    module of lark (it imports its parsers as a grammar needs them) and the package data
    beside them (the notation's grammar, the labels file)."""
    run = subprocess.run([sys.executable, "-c", _LOADED], capture_output=True, text=True, check=True)
    loaded: dict[str, str | None] = json.loads(run.stdout)
    sources: dict[str, Path] = {}
    for module, file in loaded.items():
        if module.split(".")[0] not in SHIPPED or file is None:
            continue
        path = Path(file)
        package = path.stem.split(".")[0] == "__init__"
        source = path.with_name(("__init__" if package else module.rpartition(".")[2]) + ".py")
        parts = module.split(".")
        name = Path(*parts, "__init__.py") if package else Path(*parts).with_suffix(".py")
        folder = path.parent
        if module == "lark" or (module.startswith("blackpoker.") and package):
            # a package's data (*.lark, the labels' *.json) and, for lark, all of its modules
            pattern, kinds = ("**/*", (".py", ".lark")) if module == "lark" else ("*", (".lark", ".json"))
            root = Path(*module.split("."))
            for extra in folder.glob(pattern):
                if extra.is_file() and extra.suffix in kinds and "__pycache__" not in extra.parts:
                    sources[(root / extra.relative_to(folder)).as_posix()] = extra
        sources[name.as_posix()] = source
    return sources
