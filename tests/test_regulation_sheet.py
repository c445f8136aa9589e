"""Each edition with regulations gets a page of them: every frame, option and compatibility
table cell, read from the regulation data, and a link from the index."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from blackpoker.compiler.regulation import Regulations, builtin_regulations
from blackpoker.compiler.upstream.vocabulary import vocabulary
from blackpoker.site.build import BuildOptions, build_site
from editions_support import newest_upstream, read_upstream
from pypdf import PdfReader
from site_support import pdf_text, sentences, squash, text_content

REGULATIONS = [(edition, r) for r in builtin_regulations() for edition in r.editions]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("regulations") / "site"
    build_site(BuildOptions(out, tuple(dict.fromkeys(e for e, _ in REGULATIONS)), html_only=True))
    return out


@pytest.mark.parametrize(("edition", "regulations"), REGULATIONS, ids=[e for e, _ in REGULATIONS])
def test_the_page_shows_every_frame_option_and_table_cell(
    site: Path, edition: str, regulations: Regulations
) -> None:
    html = (site / edition / "regulations.html").read_text(encoding="utf-8")
    text = squash(text_content(html))
    for entry in (*regulations.frames, *regulations.options):
        assert f"{entry.name}[{entry.id}]" in text
    for frame in regulations.frames:
        assert all(squash(step) in text for step in frame.start)
    kinds = {"formats": regulations.formats, "frames": regulations.frames, "options": regulations.options}
    for table in regulations.matrices():
        body = html.split(f">{table.name} <", 1)[1].split("</table>", 1)[0]
        rows = re.findall(r"<tr><th scope=\"row\">(.*?)</th>(.*?)</tr>", body)
        assert [name for name, _ in rows] == [row.name for row in kinds[table.rows]]
        for (_, cells), row in zip(rows, kinds[table.rows], strict=True):
            marks = re.findall(r"<td>(.)</td>", cells)
            expected = ["○" if c.id in table.allowed.get(row.id, ()) else "×" for c in kinds[table.columns]]
            assert marks == expected, (table.name, row.id)


def test_the_index_links_each_regulations_page(site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{edition}/regulations.html"' in index for edition, _ in REGULATIONS)


def test_a_build_of_just_the_regulations_links_them_from_the_index(tmp_path: Path) -> None:
    build_site(BuildOptions(tmp_path / "site", formats=("regulations",), html_only=True))
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{edition}/regulations.html"' in index for edition, _ in REGULATIONS)


@pytest.mark.parametrize(("edition", "regulations"), REGULATIONS, ids=[e for e, _ in REGULATIONS])
def test_frames_that_name_their_formats_get_a_frame_by_format_matrix(
    edition: str, regulations: Regulations
) -> None:
    derived = regulations.matrices()[len(regulations.tables) :]
    named = [frame for frame in regulations.frames if frame.formats is not None]
    assert len(derived) == (1 if named else 0), edition
    for table in derived:
        assert (table.rows, table.columns) == ("frames", "formats")
        assert all(table.allowed[frame.id] == set(frame.formats or ()) for frame in named)


def test_the_page_is_printed_as_pdf_a4_and_two_up(tmp_path: Path) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (apt-get install poppler-utils)")
    edition, regulations = REGULATIONS[0]
    out = tmp_path / "site"
    result = build_site(BuildOptions(out, (edition,), ("regulations",), workers=1))
    (page,) = result.regulations
    a4, two_up = (out / page.path.replace(".html", suffix) for suffix in (".pdf", "-2up.pdf"))
    assert a4.is_file() and two_up.is_file()
    printed = squash(pdf_text(a4))
    assert all(squash(frame.name) in printed for frame in regulations.frames)
    assert all(squash(table.name) in printed for table in regulations.matrices())
    assert len(PdfReader(two_up).pages) == (len(PdfReader(a4).pages) + 1) // 2
    index = (out / "index.html").read_text(encoding="utf-8")
    html = (out / page.path).read_text(encoding="utf-8")
    for pdf in (a4, two_up):
        assert f'href="{pdf.relative_to(out).as_posix()}"' in index and f'href="{pdf.name}"' in html


def test_every_frame_action_of_the_upstream_frame_list_is_on_its_regulations_page(tmp_path: Path) -> None:
    """The actions the newest upstream frame list adds to its frames (its actList groups but the
    trumps' and the trump operations: those are on the extra sheet) appear with every sentence
    of their texts on the regulations page of the edition that plays them, HTML and PDF."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (apt-get install poppler-utils)")
    (name,) = newest_upstream("trumpList") or pytest.skip(
        "the shared upstream data is not beside this checkout"
    )
    upstream = read_upstream(name)
    trumps = {g["type"] for g in upstream["trumpList"]} | {vocabulary().trump_operations}
    acts = [a for g in upstream["actList"] if g["type"] not in trumps for a in g["acts"]]
    cited = f"{upstream['data']['id']}.yaml"
    (edition,) = [e for e, r in REGULATIONS if r.notation.startswith(cited)]
    out = tmp_path / "site"
    build_site(BuildOptions(out, (edition,), ("regulations",), workers=1))
    page = out / edition / "regulations.html"
    html = squash(text_content(page.read_text(encoding="utf-8")))
    pdf = squash(pdf_text(page.with_suffix(".pdf")))
    texts = ("actNote", "actTarget", "actEffect", "actActCond")
    expected = [
        squash(t)
        for a in acts
        for t in (a["actName"], *(s for k in texts for s in sentences(a.get(k) or "")))
    ]
    assert (
        acts and [t for t in expected if t not in html] == [] and [t for t in expected if t not in pdf] == []
    )
