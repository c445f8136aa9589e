"""The newest edition imported from an official upstream list, format by format: `blackpoker
compile --edition E --format F` gives the list's action count for F, and each of those actions'
names is printed on F's built sheet, in the HTML and in the PDF's text. Counts and names are
read from the upstream file, the edition from the registry and the files' titles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from blackpoker.cli.main import main
from blackpoker.site.build import BuildOptions, build_site
from click.testing import CliRunner
from editions_support import formats, read_upstream, upstream_entries, upstream_lists
from site_support import pdf_text, squash, text_content


def _newest() -> tuple[str, str]:
    lists = upstream_lists()  # newest edition first
    if not lists:
        pytest.skip("the shared upstream data (../shared/reference/upstream) is not beside this checkout")
    return next(iter(lists.items()))


def _names(data: dict[str, Any], format_id: str) -> list[str]:
    """The names of the upstream list's actions that belong to the format."""
    return [
        entry["actName"]
        for kind, entry in upstream_entries(data)
        if kind == "act" and format_id in [f.strip() for f in entry["format"].split(",")]
    ]


@pytest.fixture(scope="module")
def sheets(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any], Path]:
    edition, name = _newest()
    out = tmp_path_factory.mktemp("upstream-formats")
    build_site(BuildOptions(out, editions=(edition,), formats=tuple(formats(edition))))
    return edition, read_upstream(name), out


def test_compile_gives_the_upstream_action_count_of_every_format(
    sheets: tuple[str, dict[str, Any], Path],
) -> None:
    edition, data, _ = sheets
    for format_id in formats(edition):
        result = CliRunner().invoke(main, ["compile", "--edition", edition, "--format", format_id])
        assert result.exit_code == 0, result.output
        compiled = json.loads(result.stdout)
        wanted = _names(data, format_id)
        assert wanted, format_id
        assert len(compiled["actions"]) == len(wanted), format_id
        assert sorted(a["name"] for a in compiled["actions"]) == sorted(wanted), format_id


def test_every_action_name_is_on_the_html_and_the_pdf_of_its_format(
    sheets: tuple[str, dict[str, Any], Path],
) -> None:
    edition, data, out = sheets
    for format_id in formats(edition):
        html = squash(text_content((out / edition / f"{format_id}.html").read_text(encoding="utf-8")))
        pdf = squash(pdf_text(out / edition / f"{format_id}.pdf"))
        for name in _names(data, format_id):
            assert squash(name) in html, (format_id, name)
            assert squash(name) in pdf, (format_id, name)
