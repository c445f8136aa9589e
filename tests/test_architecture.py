"""The map of docs/architecture.md stays true: every module's imports (at module level, under
TYPE_CHECKING and inside functions, read with `ast`, and the modules named in strings that
import them by name) go only to the rooms its room may import, with only the third-party
packages listed for it; no modules import each other in a circle; and the engine loads no
compiler module and none of yaml, jsonschema and lark, in a fresh process.

The modules are the packages pyproject.toml ships (`[tool.setuptools] packages`); the rooms,
what each may import and the order of the rooms are read from the map's table.
"""

from __future__ import annotations

import ast
import json
import pickle
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from blackpoker.compiler import compile
from editions_support import EDITIONS, formats

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "docs" / "architecture.md"
# a module named in a string: `"blackpoker.cli.build:build"` (cli/main.py imports it by name)
NAMED = re.compile(r"^(blackpoker(?:\.\w+)+)(?::\w+)?$")


@dataclass(frozen=True)
class Room:
    name: str
    places: tuple[str, ...]  # folders (ending in /) and files, from the checkout's root
    imports: frozenset[str]  # the rooms it may import
    third_party: frozenset[str]


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    line: int
    target: str  # a module of the package, or a third-party package's top level


def rooms() -> list[Room]:
    """The table under `## Rooms` of the map, in its order."""
    text = MAP.read_text(encoding="utf-8")
    section = text.split("## Rooms", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    found = []
    for row in rows:
        name, where, _, imports, third = (cell.strip() for cell in row.strip("|").split("|"))
        found.append(
            Room(
                _ticked(name)[0],
                tuple(_ticked(where)),
                frozenset(_ticked(imports)),
                frozenset(_ticked(third)),
            )
        )
    return found


def _ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def modules() -> dict[str, Path]:
    """Every module the package ships, by dotted name, with its file."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders: dict[str, str] = settings["package-dir"]
    found: dict[str, Path] = {}
    for package in settings["packages"]:
        base = max((p for p in folders if package == p or package.startswith(p + ".")), key=len)
        folder = ROOT / folders[base] / Path(*package[len(base) :].split(".")[1:])
        for file in sorted(folder.glob("*.py")):
            found[package if file.stem == "__init__" else f"{package}.{file.stem}"] = file
    return found


def room_of(file: Path, table: list[Room]) -> Room | None:
    """The most specific entry that names the file: itself, else its own folder."""
    where = file.relative_to(ROOT).as_posix()
    for room in table:
        if where in room.places:
            return room
    folder = where.rsplit("/", 1)[0] + "/"
    return next((room for room in table if folder in room.places), None)


def imports(module: str, file: Path, known: dict[str, Path]) -> Iterator[Import]:
    """Every import of a module, wherever it stands, and every module it names in a string
    (`importlib.import_module`, `importlib.resources.files`). Its own packages are left out:
    Python imports them before the module whatever it names."""
    for found in _imports(module, file, known):
        if not module.startswith(found.target + "."):
            yield found


def _imports(module: str, file: Path, known: dict[str, Path]) -> Iterator[Import]:
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (Import(module, node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module, f"{file}:{node.lineno}: a relative import"
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                yield Import(module, node.lineno, whole if whole in known else node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            named = NAMED.match(node.value)
            if named and named.group(1) in known:
                yield Import(module, node.lineno, named.group(1))


def graph() -> dict[str, set[str]]:
    known = modules()
    found: dict[str, set[str]] = {m: set() for m in known}
    for module, file in known.items():
        found[module] |= {i.target for i in imports(module, file, known) if i.target in known} - {module}
    return found


def test_the_map_names_each_room_once_and_orders_them() -> None:
    table = rooms()
    names = [room.name for room in table]
    assert len(names) == len(set(names)) and len(names) >= 10, names
    for index, room in enumerate(table):
        # what a room may import stands above it: no arrow runs upward, no two rooms import each other
        above = set(names[:index])
        assert room.imports <= above, f"{room.name} may import {sorted(room.imports - above)}, not above it"
        for place in room.places:
            assert (ROOT / place).exists(), f"{room.name}: {place} does not exist"


def test_every_module_is_in_a_room() -> None:
    table = rooms()
    homeless = [str(file.relative_to(ROOT)) for file in modules().values() if room_of(file, table) is None]
    assert not homeless, f"add these to a room of docs/architecture.md: {homeless}"


def test_every_import_is_one_its_room_may_make() -> None:
    table = rooms()
    known = modules()
    wrong = []
    for module, file in known.items():
        room = room_of(file, table)
        assert room is not None
        for found in imports(module, file, known):
            top = found.target.split(".")[0]
            if found.target in known:
                target = room_of(known[found.target], table)
                assert target is not None
                if target.name != room.name and target.name not in room.imports:
                    wrong.append(f"{file.relative_to(ROOT)}:{found.line}: {room.name} imports {target.name}")
            elif top not in (*sys.stdlib_module_names, "__future__", "blackpoker", *room.third_party):
                wrong.append(f"{file.relative_to(ROOT)}:{found.line}: {room.name} imports {top}")
    assert not wrong, "\n".join(wrong)


def test_no_modules_import_each_other_in_a_circle() -> None:
    """Strongly connected components of the import graph (Tarjan's), type-only imports and
    imports inside functions included: each must be one module."""
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(edges[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(edges)))
    for module in sorted(edges):
        if module not in index:
            visit(module)
    assert not circles, "\n".join(" <-> ".join(circle) for circle in circles)


def test_no_test_module_imports_another() -> None:
    """What several test files share lives in a support module (tests/*_support.py) or, for
    fixtures, in tests/conftest.py: importing a test module runs its module-level set-up
    again and ties its tests to another file's."""
    tests = ROOT / "tests"
    modules = {path.stem for path in tests.glob("test_*.py")}
    wrong = []
    for path in sorted(tests.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in modules and node.level == 0:
                wrong.append(f"tests/{path.name}:{node.lineno}: imports {node.module}")
            elif isinstance(node, ast.Import):
                found = [a.name for a in node.names if a.name in modules]
                wrong += [f"tests/{path.name}:{node.lineno}: imports {name}" for name in found]
    assert not wrong, "\n".join(wrong)


def test_the_circle_finder_sees_a_type_only_circle(tmp_path: Path) -> None:
    """The reading above counts an import under TYPE_CHECKING and one inside a function."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from blackpoker.a import X\n"
        "def f() -> None:\n    from blackpoker.b import Y\n"
    )
    file = tmp_path / "m.py"
    file.write_text(source, encoding="utf-8")
    known = {"blackpoker.a": file, "blackpoker.b": file}
    found = {i.target for i in imports("blackpoker.m", file, known)}
    assert found == {"typing", "blackpoker.a", "blackpoker.b"}


@pytest.mark.parametrize("module", ["blackpoker.runtime.engine", "blackpoker.runtime.engine.game"])
def test_the_engine_loads_no_compiler_module_and_no_parser_package(module: str) -> None:
    code = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout)
    assert module in loaded
    assert [m for m in loaded if m.startswith("blackpoker.compiler")] == []
    assert [m for m in loaded if m.split(".")[0] in ("yaml", "jsonschema", "lark")] == []


def test_a_pickled_rule_set_plays_where_the_compiler_cannot_be_imported(tmp_path: Path) -> None:
    """Programs pickle as the typed nodes they are: unpickling needs no parser, so a process that
    cannot import the compiler plays a game by a rule set compiled elsewhere, the same game."""
    from blackpoker.runtime.engine.game import Game
    from blackpoker.runtime.play.agents import RandomAgent, decide

    largest = formats(EDITIONS[0])[-1]
    rules = compile(EDITIONS[0], largest)
    assert rules.digest and any(a.steps for a in rules.actions)
    (tmp_path / "rules.pickle").write_bytes(pickle.dumps(rules))
    game = Game.new(rules, 5)
    agents = (RandomAgent(1), RandomAgent(2))
    while not game.over and game.decisions < 300:
        game.apply(decide(game, agents))
    code = (
        "import pickle, sys\n"
        "sys.modules['blackpoker.compiler'] = None  # any import of the compiler fails\n"
        "from blackpoker.runtime.engine.game import Game\n"
        "from blackpoker.runtime.play.agents import RandomAgent, decide\n"
        f"rules = pickle.loads(open({str(tmp_path / 'rules.pickle')!r}, 'rb').read())\n"
        "game = Game.new(rules, 5)\n"
        "agents = (RandomAgent(1), RandomAgent(2))\n"
        "while not game.over and game.decisions < 300:\n"
        "    game.apply(decide(game, agents))\n"
        "print(rules.digest, game.decisions, game.state_hash())\n"
    )
    played = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert played.returncode == 0, played.stderr
    assert played.stdout.split() == [rules.digest, str(game.decisions), game.state_hash()]
