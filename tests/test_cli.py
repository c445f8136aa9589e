"""The `blackpoker` console script as a user runs it: real processes, real files."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
import yaml
from blackpoker.cli.main import HELP_WIDTH, LAZY_COMMANDS, main
from blackpoker.compiler import compile
from editions_support import EDITIONS, formats

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "my-std.yaml"
EDITION = EDITIONS[0]
ACTION_KEYS = {"id", "name", "type", "timing", "speed", "direct", "cost", "key", "formats"}


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("blackpoker")
    if exe is None:
        pytest.skip("the blackpoker console script is not installed (pip install .)")
    return subprocess.run([exe, *args], capture_output=True, text=True, cwd=cwd, check=False)


def test_compile_prints_the_rule_set_as_json(tmp_path: Path) -> None:
    format_id = formats(EDITION)[-1]
    result = run("compile", "--edition", EDITION, "--format", format_id, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"edition", "format", "actions", "characters"} <= set(data)
    assert (data["edition"], data["format"]) == (EDITION, format_id)
    ruleset = compile(EDITION, format_id)
    assert [c["id"] for c in data["characters"]] == [c.id for c in ruleset.characters]
    assert all({"id", "name", "type", "key"} <= set(c) for c in data["characters"])
    assert [a["id"] for a in data["actions"]] == [a.id for a in ruleset.actions]
    assert all(set(a) >= ACTION_KEYS for a in data["actions"])
    printed = [(a["timing"], a["speed"], a["direct"], a["cost"], a["key"]) for a in data["actions"]]
    assert printed == [
        (a.timing.value, a.speed.value, a.direct, str(a.cost), str(a.key or "")) for a in ruleset.actions
    ]
    # Both kinds are printed: keyed and paid actions, and actions no player requests directly.
    assert any(a["cost"] and a["key"] for a in data["actions"]) and not all(
        a["direct"] for a in data["actions"]
    )


def test_compile_overlay(tmp_path: Path) -> None:
    example = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    result = run("compile", "--rules", str(EXAMPLE), "--format", example["name"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["format"] == example["name"] and data["base"] == example["base"]
    ids = [a["id"] for a in data["actions"]]
    assert all(added["id"] in ids for added in example["actions"]["add"])
    assert not set(example["actions"]["remove"]) & set(ids)


def test_validate_builtin_lists_from_any_folder(tmp_path: Path) -> None:
    result = run("validate", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "no problems" in result.stderr


def test_validate_reports_and_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        f"kind: overlay\nname: x\nedition: {EDITION}\nbase: {formats(EDITION)[0]}\n"
        "actions:\n  remove: [nosuch, nope]\n"
    )
    result = run("validate", "bad.yaml", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "bad.yaml:6:12: actions.remove: no action 'nosuch' in the base format",
        "bad.yaml:6:20: actions.remove: no action 'nope' in the base format",
        "2 problems found",
    ]


def test_compile_unknown_format_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    result = run("compile", "--edition", EDITION, "--format", "ultra", cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    known = ", ".join(formats(EDITION))
    assert (
        result.stderr.splitlines()[0] == f"--format: edition {EDITION} has no format 'ultra' (known: {known})"
    )
    assert result.stdout == ""


def test_missing_path_is_a_located_problem(tmp_path: Path) -> None:
    result = run("validate", "nowhere.yaml", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == "nowhere.yaml:1:1: cannot read file: No such file or directory"


def test_every_command_is_listed_and_loads_when_asked_for_help(tmp_path: Path) -> None:
    listing = run("--help", cwd=tmp_path)
    assert listing.returncode == 0, listing.stderr
    listed = {line.split()[0] for line in listing.stdout.split("Commands:")[1].splitlines() if line.strip()}
    assert listed == set(LAZY_COMMANDS)
    for name, (_, line) in LAZY_COMMANDS.items():  # each lazy entry names a real command under that name
        result = run(name, "--help", cwd=tmp_path)
        assert result.returncode == 0 and f"Usage: blackpoker {name}" in result.stdout, result.stderr
        command = main.get_command(click.Context(main), name)
        assert command is not None and line == command.get_short_help_str(limit=HELP_WIDTH)


HEAVY = ("yaml", "jsonschema", "lark", "jinja2", "rich", "blackpoker.compiler", "blackpoker.site")


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_version_and_help_import_nothing_heavy(flag: str) -> None:
    code = (
        "import sys; from blackpoker.cli.main import main\n"
        f"try:\n    main([{flag!r}])\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or m.startswith({HEAVY!r})))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.splitlines()[-1] == "[]", result.stdout


def test_an_unknown_command_gets_the_nearest_one(tmp_path: Path) -> None:
    name = next(iter(sorted(LAZY_COMMANDS, key=len, reverse=True)))
    result = run(name[:-1], cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr == f"{name[:-1]}: no such command; did you mean {name}?\n1 problem found\n"
    result = run("zzzzzz", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"zzzzzz: no such command; the commands: {', '.join(sorted(LAZY_COMMANDS))}"
    )
