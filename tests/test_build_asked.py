"""`build` makes what was asked: a local-rule file's pages alone, an edition file's pages
alone, and every built-in edition beside them with --all. Every name is read from the data."""

from __future__ import annotations

from pathlib import Path

import yaml
from bad_input_support import EXAMPLE, invoke
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.parse import OverlaySource

ENV = Environment()
HOUSE = ENV.read(EXAMPLE)[0]
assert isinstance(HOUSE, OverlaySource)


def _pages(out: Path) -> set[str]:
    return {p.relative_to(out).as_posix() for p in out.rglob("*.html")}


def test_a_local_rule_file_builds_its_own_pages_only(tmp_path: Path) -> None:
    out = tmp_path / "site"
    result = invoke("build", "--rules", EXAMPLE, "--html-only", "--out", out)
    assert result.exit_code == 0, result.stderr
    assert _pages(out) == {"index.html", f"{HOUSE.edition_id}/{HOUSE.format.id}.html"}
    assert not list(out.rglob("*.pdf"))


def test_all_adds_every_built_in_edition(tmp_path: Path) -> None:
    out = tmp_path / "site"
    smallest = ENV.default("play_format")
    result = invoke("build", "--rules", EXAMPLE, "--all", "--format", smallest, "--html-only", "--out", out)
    assert result.exit_code == 0, result.stderr
    having = [e for e in ENV.builtin_editions() if smallest in {f.id for f in ENV.edition(e).edition.formats}]
    assert {f"{e}/{smallest}.html" for e in having} | {
        f"{HOUSE.edition_id}/{HOUSE.format.id}.html"
    } <= _pages(out)


def test_an_edition_file_builds_its_own_pages_only(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        yaml.safe_dump({"kind": "edition", "id": "mine", "base": HOUSE.edition_id}), encoding="utf-8"
    )
    out = tmp_path / "site"
    result = invoke("build", "--edition", path, "--html-only", "--out", out)
    assert result.exit_code == 0, result.stderr
    pages = _pages(out) - {"index.html"}
    assert pages and all(page.startswith("mine/") for page in pages)
    formats = {f.id for f in ENV.edition(str(path)).edition.formats}
    assert {f"mine/{f}.html" for f in formats} <= pages
