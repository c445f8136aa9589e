"""Inputs that would cost far more than their size: what grows with the input is bounded, and
the input is refused with a located message whose size does not grow with it (asserted by
what the command says, not by timing; the compile time of large files is in benchmarks/)."""

from __future__ import annotations

from pathlib import Path

import yaml
from bad_input_support import invoke, located, refused
from blackpoker.compiler.documents.regulation import builtin_regulations
from blackpoker.compiler.load import MAX_EXPANDED_NODES, load_bytes
from blackpoker.runtime.rules.diagnostics import SHOWN_LINE, SHOWN_VALUE, Diagnostic, Location

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
PARTS = 5000


def _with_options() -> tuple[str, str, int]:
    """A built-in regulations file with options: its id, a format and frame, how many options."""
    regulations = next(r for r in builtin_regulations() if r.options)
    return regulations.id, f"{regulations.formats[0].id}+{regulations.frames[0].id}", len(regulations.options)


def test_a_regulation_of_thousands_of_parts_is_refused_at_the_first_part_too_many() -> None:
    regulations, start, options = _with_options()
    text = "+".join([start, *(f"x{i}" for i in range(PARTS))])
    result = refused(invoke("regulation", "check", "--edition", regulations, text))
    most = 2 + options
    column = len("+".join([start, *(f"x{i}" for i in range(options))])) + 2  # after the last allowed part
    message = f"has at most {most} parts"
    located(result, "regulation", 1, column, message)
    # one problem, its line quoted in a window: the output does not grow with the text
    assert result.stderr.count(message) == 1
    assert len(result.stderr) < 2 * SHOWN_LINE + 500, len(result.stderr)


def test_a_huge_part_is_quoted_cut_short() -> None:
    regulations, start, _ = _with_options()
    text = f"{start}+{'y' * 20_000}"
    result = refused(invoke("regulation", "check", "--edition", regulations, text))
    located(result, "regulation", 1, len(start) + 2, f"'{'y' * SHOWN_VALUE}…' (20,000 characters) is not")
    assert len(result.stderr) < 3 * SHOWN_LINE + 1000, len(result.stderr)


def test_a_long_source_line_is_shown_as_a_window_with_the_caret_under_the_fault() -> None:
    line = "a" * 5000 + "BAD" + "b" * 5000
    rendered = Diagnostic(Location("f", 1, 5001), "bad", line, 3).render().splitlines()
    quoted, caret = rendered[1][4:], rendered[2][4:]
    assert len(quoted) <= SHOWN_LINE + 2 and quoted.startswith("…") and quoted.endswith("…")
    assert quoted[caret.index("^") : caret.index("^") + 3] == "BAD" and caret.count("^") == 3


def test_a_scenario_whose_regulation_has_thousands_of_parts_is_refused_at_load(tmp_path: Path) -> None:
    shipped, data = next(
        (path, data)
        for path in sorted(SCENARIOS.rglob("*.yaml"))
        for data in [yaml.safe_load(path.read_text(encoding="utf-8"))]
        if "regulation" in data["setup"] and "refused" not in data["expect"]
    )
    regulation = data["setup"]["regulation"]
    text = shipped.read_text(encoding="utf-8").replace(
        f"regulation: {regulation}", "regulation: " + "+".join([regulation, *(f"z{i}" for i in range(PARTS))])
    )
    (tmp_path / "big.yaml").write_text(text, encoding="utf-8")
    result = invoke("scenario", "run", tmp_path / "big.yaml")
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.startswith(f"{tmp_path / 'big.yaml'}:")]
    assert len(lines) == 1 and ": regulation: a regulation of" in lines[0] and "has at most" in lines[0], (
        lines
    )
    assert len(result.output) < 2000, len(result.output)


def test_a_large_file_without_aliases_is_not_an_alias_bomb() -> None:
    # more values than the alias limit, none of them made by an alias
    rows = MAX_EXPANDED_NODES // 10 + 1000
    text = "rows:\n" + "".join(f"  - [{', '.join(f'v{i}' for i in range(9))}]\n" for _ in range(rows))
    doc, problems = load_bytes(text.encode(), "big.yaml")
    assert problems == [] and doc is not None and len(doc.data["rows"]) == rows


def test_a_large_file_with_a_few_aliases_is_read() -> None:
    rows = MAX_EXPANDED_NODES // 10 + 1000
    text = "shared: &s [a, b, c]\nrows:\n" + "".join(f"  - [{i}, *s]\n" for i in range(rows))
    doc, problems = load_bytes(text.encode(), "big.yaml")
    assert problems == [] and doc is not None and doc.data["rows"][-1] == [rows - 1, ["a", "b", "c"]]


def test_aliases_that_add_more_than_the_limit_are_refused_at_the_anchor_they_copy() -> None:
    # a small file whose aliases add just over the limit of values
    width = 1000
    copies = MAX_EXPANDED_NODES // width + 2
    text = f"row: &r [{', '.join(['x'] * width)}]\ncopies: [{', '.join(['*r'] * copies)}]\n"
    doc, problems = load_bytes(text.encode(), "bomb.yaml")
    assert doc is None
    limit = f"{MAX_EXPANDED_NODES:,}"
    assert [p.render() for p in problems] == [
        f"bomb.yaml:1:6: aliases expand to more than {limit} values; refusing to expand (alias bomb?)"
    ]
