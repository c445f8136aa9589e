"""Every broken file in tests/errors gets exactly the located messages in its .expect file, alone
and when its folder is validated at once."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from blackpoker.cli.main import main
from blackpoker.compiler.load import load_bytes
from click.testing import CliRunner

CORPUS = Path(__file__).parent / "errors"
CASES = sorted(CORPUS.glob("*.yaml"))


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_broken_file_reports_expected_messages(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CORPUS)
    result = CliRunner().invoke(main, ["validate", case.name])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stderr == case.with_suffix(".expect").read_text(encoding="utf-8")


def test_all_problems_of_a_folder_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CORPUS)
    result = CliRunner().invoke(main, ["validate", "."])
    lines = result.stderr.splitlines()
    assert result.exit_code == 1
    # Each file's own lines, in file order, and one summary line for the run instead of one per file.
    cases = [c.with_suffix(".expect").read_text(encoding="utf-8").splitlines() for c in CASES]
    assert all(case[-1].endswith(("problem found", "problems found")) for case in cases)
    mine = [line for case in cases for line in case[:-1]]
    assert len(lines[:-1]) == len(mine)
    # an edition file of the folder is known to the others validated with it
    ids = [edition for edition in map(_edition_id, CASES) if edition is not None]
    known = "(known: " + "".join(f"{i}, " for i in sorted(ids))
    for got, wanted in zip(lines[:-1], mine, strict=True):
        assert got in (wanted, wanted.replace("(known: ", known)), got
    assert lines[-1] == f"{sum(1 for line in mine if not line.startswith(' '))} problems found"


def test_alias_bomb_is_refused_without_expanding() -> None:
    # 9**30 values if expanded: finishing at all proves nothing was expanded.
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 30)]
    doc, problems = load_bytes("\n".join(lines).encode(), "bomb.yaml")
    assert doc is None
    assert [p.render() for p in problems] == [
        "bomb.yaml:1:5: aliases expand to more than 100,000 values; refusing to expand (alias bomb?)"
    ]


def _edition_id(case: Path) -> str | None:
    """The id of a corpus file that declares an edition (its comments before `kind:` too)."""
    try:
        data = yaml.safe_load(case.read_bytes())
    except yaml.YAMLError:
        return None
    return str(data["id"]) if isinstance(data, dict) and data.get("kind") == "edition" else None
