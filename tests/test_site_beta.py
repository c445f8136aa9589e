"""`build --beta`: a beta sheet marks in red the entries its version adds (`since`) or updates
(`updates`), as upstream's generator does; a release sheet (the default) prints them black.

The edition is a file based on the newest built-in edition that names itself in one action's
`updates` and in another's `since`; the actions are the first two of its smallest format."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.rules.model import Action
from blackpoker.site.build import BuildOptions, build_site
from layout_support import is_black, is_red
from site_support import text_content

if shutil.which("pdftotext") is None:
    pytest.skip("pdftotext is not installed (apt-get install poppler-utils)", allow_module_level=True)


Edition = tuple[Path, str, Action, Action]


@pytest.fixture(scope="module")
def edition(tmp_path_factory: pytest.TempPathFactory) -> Edition:
    """(edition file, its smallest format, the action it updates, the action it adds)."""
    env = Environment()
    base = env.builtin_editions()[0]
    smallest = env.edition(base).edition.formats[0].id
    first, second = env.compile(base, smallest).actions[:2]
    folder = tmp_path_factory.mktemp("beta")
    path = folder / f"{base}.9.yaml"
    path.write_text(
        f"kind: edition\nid: {base}.9\nbase: {base}\ntitle: 次の版\npublished: 2030/1/1\n"
        "actions:\n  change:\n"
        f"    {first.id}: {{updates: [v8.0, {base}.9]}}\n    {second.id}: {{since: {base}.9}}\n",
        encoding="utf-8",
    )
    return path, smallest, first, second


def _build(folder: Path, edition: Edition, beta: bool) -> Path:
    path, smallest, _, _ = edition
    build_site(BuildOptions(folder, (str(path),), (smallest,), beta=beta, workers=1))
    return folder / path.stem / f"{smallest}.html"


def _article(html: str, id: str) -> str:
    return html.split(f'id="action-{id}"', 1)[1].split("</article>", 1)[0]


def _name_colours(pdf: Path, name: str) -> list[tuple[float, ...]]:
    """The colours of the characters of the entry heading `name` (its name, then its type)."""
    with pdfplumber.open(pdf) as document:
        for page in document.pages:
            chars = page.chars
            found = re.search(re.escape(name) + r"\s*\(", "".join(c["text"] for c in chars))
            if found:
                return [
                    tuple(c["non_stroking_color"]) for c in chars[found.start() : found.start() + len(name)]
                ]
    raise AssertionError(f"{name} is not printed in {pdf.name}")


def test_a_beta_sheet_marks_what_its_version_adds_and_updates_in_red(
    tmp_path: Path, edition: Edition
) -> None:
    _, _, updated, added = edition
    sheet = _build(tmp_path / "beta", edition, beta=True)
    html = sheet.read_text(encoding="utf-8")
    assert html.count('class="entry action fresh"') == 2
    assert "更新" in text_content(_article(html, updated.id).split("</div>", 1)[0])
    assert "新規" in text_content(_article(html, added.id).split("</div>", 1)[0])
    for action in (updated, added):
        assert all(is_red(colour) for colour in _name_colours(sheet.with_suffix(".pdf"), action.name))


def test_a_release_sheet_prints_them_black(tmp_path: Path, edition: Edition) -> None:
    _, _, updated, added = edition
    sheet = _build(tmp_path / "release", edition, beta=False)
    html = sheet.read_text(encoding="utf-8")
    assert "fresh" not in html and "新規" not in html
    for action in (updated, added):
        assert all(is_black(colour) for colour in _name_colours(sheet.with_suffix(".pdf"), action.name))


def test_the_cli_takes_beta_and_release(tmp_path: Path, edition: Edition) -> None:
    from blackpoker.cli.main import main
    from click.testing import CliRunner

    path, smallest, _, _ = edition
    for flag, fresh in (("--beta", True), ("--release", False)):
        out = tmp_path / flag.strip("-")
        args = ["build", "--edition", str(path), "--format", smallest, "--html-only", "--out", str(out), flag]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        html = (out / path.stem / f"{smallest}.html").read_text(encoding="utf-8")
        assert ('<article class="entry action fresh"' in html) == fresh
