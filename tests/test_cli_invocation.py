"""How a command gets its rules: one compiler environment per invocation, shared by every option
and step that reads a file (cli/invocation.py), and bad input raised anywhere in a command
reported by the one handler of the `blackpoker` group (cli/main.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from blackpoker.cli.main import main
from blackpoker.compiler.cache import CACHE_DIR
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.play.source import RULES_FILE
from click.testing import CliRunner, Result
from editions_support import EDITIONS, environment, formats

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "my-std.yaml"  # a local rule on a built-in edition's format
EDITION = EDITIONS[0]


def _regulation() -> str:
    """A regulation of the newest edition that needs no deck: its first format and a frame that deals."""
    regulations = environment().regulations(EDITION)
    frame = next(f for f in regulations.frames if not f.needs_decks)
    played = frame.formats[0] if frame.formats else regulations.formats[0].id
    return f"{played}+{frame.id}"


def _scenario() -> Path:
    return next(iter(sorted((ROOT / "scenarios").rglob("*.yaml"))))


COMMANDS: dict[str, tuple[list[str], str | None]] = {
    "compile a local rule": (["compile", "--rules", str(EXAMPLE)], None),
    "compile the default": (["compile"], None),
    "list a local rule": (["list", "--rules", str(EXAMPLE)], None),
    "validate": (["validate", str(EXAMPLE)], None),
    "diff": (["diff", EDITION, str(EXAMPLE)], None),
    "play a local rule": (["play", "--rules", str(EXAMPLE), "--seed", "1", "--log", "<log>"], "q\n"),
    "play a regulation": (["play", "--regulation", "<regulation>", "--seed", "1"], "q\n"),
    "simulate --compare": (["simulate", "-n", "1", "--compare", str(EXAMPLE), "<format>"], None),
    "simulate a local rule": (["simulate", "-n", "1", "--rules", str(EXAMPLE)], None),
    # the files the logs name are looked up once per run, not in each game's log
    "simulate a local rule's logs": (
        ["simulate", "-n", "5", "--rules", str(EXAMPLE), "--logs", "<logs>"],
        None,
    ),
    "regulation check": (["regulation", "check", "<regulation>"], None),
    "scenario run": (["scenario", "run", "<scenario>"], None),
}


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Environment]:
    """Every environment made while the test runs (a fresh rule-set cache: every rule set is
    compiled)."""
    monkeypatch.setenv(CACHE_DIR, str(tmp_path / "cache"))
    environments: list[Environment] = []
    init = Environment.__init__

    def counted(self: Environment) -> None:
        environments.append(self)
        init(self)

    monkeypatch.setattr(Environment, "__init__", counted)
    return environments


def _invoke(args: list[str], stdin: str | None, folder: Path = Path()) -> Result:
    words = {
        "<regulation>": _regulation,
        "<format>": lambda: formats(EDITION)[0],
        "<scenario>": lambda: str(_scenario()),
        "<log>": lambda: str(folder / "game.jsonl"),
        "<logs>": lambda: str(folder / "logs"),
    }
    return CliRunner().invoke(main, [words[a]() if a in words else a for a in args], input=stdin)


@pytest.mark.parametrize("case", COMMANDS)
def test_a_command_makes_one_environment(case: str, made: list[Environment], tmp_path: Path) -> None:
    args, stdin = COMMANDS[case]
    result = _invoke(args, stdin, tmp_path)
    assert result.exit_code == 0, result.output
    assert len(made) == 1, f"{case}: {len(made)} environments made"
    if "<logs>" in args:  # every game's log still names the local-rule file it was played with
        headers = [
            json.loads(log.read_text().splitlines()[0]) for log in sorted((tmp_path / "logs").iterdir())
        ]
        assert len(headers) == 5 and all(RULES_FILE in header for header in headers), headers


def test_a_warm_command_makes_none(made: list[Environment]) -> None:
    """What the on-disk cache holds is not compiled again: no environment is made at all."""
    args = ["simulate", "-n", "1", "--rules", str(EXAMPLE)]
    assert _invoke(args, None).exit_code == 0
    made.clear()
    assert _invoke(["simulate", "-n", "1"], None).exit_code == 0  # the registry's defaults: cached too
    made.clear()
    again = _invoke(["simulate", "-n", "1"], None)
    assert again.exit_code == 0, again.output
    assert made == []


@pytest.mark.parametrize(
    ("args", "outcome"),
    [
        (["compile", "--format", "no-such-format"], "1 problem found\n"),
        (
            ["build", "--html-only", "--edition", "no-such-edition", "--out", "<out>"],
            "1 problem found; nothing written\n",
        ),
    ],
)
def test_bad_input_is_reported_once_by_the_group(args: list[str], outcome: str, tmp_path: Path) -> None:
    """A problem raised inside a command is reported by the group's handler: located, counted,
    with what the command left undone, exit 1."""
    result = CliRunner().invoke(main, [str(tmp_path / "out") if a == "<out>" else a for a in args])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    assert result.stderr.endswith(outcome), result.stderr
    assert not (tmp_path / "out").exists()
