"""Each edition with regulations gets a page of them: every frame, option and compatibility
table cell, read from the regulation data, and a link from the index."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from blackpoker.compiler.documents.regulation import Regulations, builtin_regulations
from blackpoker.compiler.upstream.vocabulary import vocabulary
from blackpoker.site.build import BuildOptions, build_site
from editions_support import newest_upstream, read_upstream
from site_support import pdf_text, sentences, squash, text_content

PdfReader = pytest.importorskip(
    "pypdf", reason="the sheets' PDFs are read with pypdf, of the PDF extra: pip install -e '.[pdf]'"
).PdfReader

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


def _article(html: str, kind: str, id: str) -> str:
    return html.split(f'<article class="entry {kind}" id="{kind}-{id}">', 1)[1].split("</article>", 1)[0]


@pytest.mark.parametrize(("edition", "regulations"), REGULATIONS, ids=[e for e, _ in REGULATIONS])
def test_added_actions_are_printed_by_name(site: Path, edition: str, regulations: Regulations) -> None:
    html = (site / edition / "regulations.html").read_text(encoding="utf-8")
    names = {action.id: action.name for action in regulations.actions}
    adding = [("frame", p) for p in regulations.frames if p.actions]
    adding += [("option", p) for p in regulations.options if p.actions]
    assert adding
    for kind, part in adding:
        article = squash(text_content(_article(html, kind, part.id)))
        assert squash("(追加アクション)" + "、".join(names[id] for id in part.actions)) in article
        assert all(id not in article for id in part.actions if id not in names[id])


@pytest.mark.parametrize(("edition", "regulations"), REGULATIONS, ids=[e for e, _ in REGULATIONS])
def test_the_frame_table_and_every_match_form_are_printed(
    site: Path, edition: str, regulations: Regulations
) -> None:
    """Table 5.1: each frame with its 構築タイプ (固定 / ランダム / 構築), match form and deck; each
    match form with its rules, what is public, and every line of its procedure, in order."""
    html = (site / edition / "regulations.html").read_text(encoding="utf-8")
    table = html.split('id="frame-table"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', table)
    assert [name for name, _ in rows] == [frame.name for frame in regulations.frames]
    words = {"fixed": "固定", "random": "ランダム", "built": "構築"}
    for (_, cells), frame in zip(rows, regulations.frames, strict=True):
        shown = [squash(text_content(cell)) for cell in re.findall(r"<td>(.*?)</td>", cells)]
        assert shown[:3] == [words[frame.build], squash(frame.match.name), squash(frame.text or "")]
    for match in regulations.matches:
        article = _article(html, "match", match.id)
        steps = [squash(text_content(step)) for step in re.findall(r"<li>(.*?)</li>", article)]
        assert steps == [squash(line) for line in (*match.visibility, *match.procedure)]
        assert squash(f"{match.decks}デッキ、最大{match.games}ゲーム、{match.wins}勝で勝利") in squash(
            text_content(article)
        )


def test_the_two_deck_procedure_is_printed_line_by_line(site: Path) -> None:
    """The match form with the longest procedure (the 2デッキマッチ's 13 lines) as a list of as many items."""
    edition, regulations = max(
        REGULATIONS, key=lambda pair: max((len(m.procedure) for m in pair[1].matches), default=0)
    )
    match = max(regulations.matches, key=lambda m: len(m.procedure))
    assert len(match.procedure) > 10
    article = _article((site / edition / "regulations.html").read_text(encoding="utf-8"), "match", match.id)
    assert article.count("<li>") == len(match.procedure) + len(match.visibility)


def test_lines_the_rules_print_keep_their_punctuation(seeds: Path) -> None:
    """Every set-up and procedure line of the regulations that cite the rules' sections (§…) is
    a line of the rules as printed, its final 。 included (§5.3.3)."""
    text = (seeds / "001_8482d09e3c4697ca.txt").read_text(encoding="utf-8")  # the 2024 rules
    rules = [squash(line.lstrip("- ")) for line in text.splitlines()]
    cited = [r for _, r in REGULATIONS if r.notation.startswith("§")]
    assert cited
    lines = [
        line
        for regulations in cited
        for part in (*regulations.frames, *regulations.options, *regulations.matches)
        if part.rule.startswith("§")
        for field in ("start", "procedure", "visibility")
        for line in getattr(part, field, ())
    ]
    assert len(lines) > 10
    assert [line for line in lines if squash(line) not in rules] == []


@pytest.mark.parametrize(("edition", "regulations"), REGULATIONS, ids=[e for e, _ in REGULATIONS])
def test_every_suit_is_in_its_colour(site: Path, edition: str, regulations: Regulations) -> None:
    """♡ ♢ ♥ ♦ red and ♠ ♣ ink wherever the page prints them: the deck line too."""
    html = (site / edition / "regulations.html").read_text(encoding="utf-8")
    body = re.sub(r'<span class="suit (red|black)">[♡♢♥♦♠♣]</span>', "", html.split("<main", 1)[1])
    wrapped = re.findall(r'<span class="suit (red|black)">([♡♢♥♦♠♣])</span>', html)
    assert all((kind == "red") == (suit in "♡♢♥♦") for kind, suit in wrapped)
    assert {suit for _, suit in wrapped} >= set("♥♦♡♢") or not any(s in html for s in "♥♦")
    assert re.findall(r"[♡♢♥♦♠♣]", text_content(body)) == []


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
