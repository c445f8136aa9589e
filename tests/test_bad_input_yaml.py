"""YAML that would crash a recursive loader or a later stage is refused at load, located."""

from __future__ import annotations

from pathlib import Path

import pytest
from bad_input_support import EXAMPLE, EXAMPLE_FORMAT, invoke, located, refused
from blackpoker.compiler.load import MAX_DEPTH

OVERLAY = EXAMPLE.read_text(encoding="utf-8")
HEAD, _, _ = OVERLAY.partition("      program:\n")


def nested_ifs(count: int) -> str:
    """The example overlay, its added action's program `count` if/then levels deep."""
    lines, indent = ["      program:"], " " * 8
    for _ in range(count):
        lines += [f"{indent}- if: {{ge: [1, 1]}}", f"{indent}  then:"]
        indent += " " * 4
    lines.append(f"{indent}- choose: {{player: you, from: graveyard, as: card}}")
    return HEAD + "\n".join(lines) + "\n"


# name -> (file text, line, column, message part): the broken spot of each case.
CASES = {
    "deep-flow": ("kind: overlay\nx: " + "[" * 490 + "]" * 490 + "\n", 2, 3 + MAX_DEPTH, "levels deep"),
    "deep-ifs": (nested_ifs(120), 93, 131, "levels deep"),
    "recursive-alias": ("kind: overlay\na: &a [*a]\n", 2, 8, "contains it"),
    "alias-deepens": (
        # Each alias adds ten levels to the one it refers to.
        "kind: overlay\na0: &a0 x\n"
        + "".join(f"a{i}: &a{i} [[[[[[[[[[*a{i - 1}]]]]]]]]]]\n" for i in range(1, 9)),
        9,
        19,
        "once aliases are expanded",
    ),
    "nul-byte": ('kind: overlay\nname: "a\0b"\n', 2, 9, "U+0000"),
    "lone-surrogate": ('kind: overlay\nname: "\\ud800"\n', 2, 7, "lone surrogate"),
}
# Every command that reads a YAML file, with the file as its input.
COMMANDS = {
    "validate": ["validate"],
    "compile": ["compile", "--format", EXAMPLE_FORMAT, "--rules"],
    "build": ["build", "--html-only", "--rules"],
    "simulate": ["simulate", "-n", "1", "--rules"],
    "scenario": ["scenario", "run"],
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", CASES)
def test_yaml_edge_case_is_refused_on_every_path(
    case: str, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    text, line, col, message = CASES[case]
    Path("bad.yaml").write_text(text, encoding="utf-8")
    extra = ["--out", "site"] if command == "build" else []
    result = invoke(COMMANDS[command][0], *extra, *COMMANDS[command][1:], "bad.yaml")
    located(result, "bad.yaml", line, col, message)
    assert result.stdout.count("{") == 0  # no partial JSON
    assert not Path("site").exists()


def test_nesting_below_the_limit_compiles_and_plays(tmp_path: Path) -> None:
    # Deep but allowed: every stage, the engine included, copes with the depth the loader lets in.
    rules = tmp_path / "deep.yaml"
    rules.write_text(nested_ifs(28), encoding="utf-8")
    assert invoke("validate", rules).exit_code == 0
    compiled = invoke("compile", "--format", EXAMPLE_FORMAT, "--rules", rules)
    assert compiled.exit_code == 0 and compiled.stdout.startswith("{")
    assert invoke("simulate", "-n", "3", "--rules", rules).exit_code == 0


def test_every_bad_character_is_reported_at_once(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"kind: overlay\nname: a\x01b\ntitle: \x7f\n")
    result = refused(invoke("validate", bad))
    assert "bad.yaml:2:8: character U+0001" in result.stderr
    assert "bad.yaml:3:8: character U+007F" in result.stderr
