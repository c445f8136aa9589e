"""One sheet (site_support.EDITION in format SHEET), as HTML and as PDF, prints every word of the
compiled rule set, and the edition's header, legend and footer."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from blackpoker.compiler import compile
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.rules.model import Action, Character
from site_support import (
    EDITION,
    SHEET,
    SPEEDS,
    TIMINGS,
    TRIGGERS,
    built_sheet,
    entry_texts,
    expected_strings,
    nested_lists,
    pdf_text,
    sentences,
    squash,
    text_content,
)

RULESET = compile(EDITION, SHEET)
EDITION_DATA = RULESET.edition
EXPECTED = expected_strings(RULESET)
RED, BLACK = "♡♢", "♠♣"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_sheet(tmp_path_factory)


@pytest.fixture(scope="module")
def sheet_html(site: Path) -> str:
    return (site / EDITION / f"{SHEET}.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sheet_pdf_text(site: Path) -> str:
    return pdf_text(site / EDITION / f"{SHEET}.pdf")


def test_expected_strings_cover_the_whole_list() -> None:
    entries = (*RULESET.actions, *RULESET.characters)
    assert all(squash(entry.name) in EXPECTED for entry in entries)
    assert len(EXPECTED) > 4 * len(entries)
    assert all(squash(f"★{e.key}") in EXPECTED for e in entries if e.key is not None)
    costs = [a.cost for a in RULESET.actions if a.cost.units]
    assert costs and all(any(s.endswith(f"|${cost}") for s in EXPECTED) for cost in costs)


@pytest.mark.parametrize("expected", EXPECTED)
def test_html_prints_every_name_cost_key_and_sentence(sheet_html: str, expected: str) -> None:
    assert expected in squash(text_content(sheet_html))


@pytest.mark.parametrize("expected", EXPECTED)
def test_pdf_prints_every_name_cost_key_and_sentence(sheet_pdf_text: str, expected: str) -> None:
    assert expected in squash(sheet_pdf_text)


def test_pdf_embeds_a_japanese_font_and_has_no_missing_glyphs(site: Path, sheet_pdf_text: str) -> None:
    fonts = subprocess.run(
        ["pdffonts", str(site / EDITION / f"{SHEET}.pdf")], capture_output=True, text=True, check=True
    )
    rows = fonts.stdout.splitlines()[2:]
    assert rows, "no fonts in the PDF"
    assert any(re.search(r"IPAexGothic|IPAexG|NotoSansCJK|NotoSansJP", row) for row in rows), fonts.stdout
    # Columns: name type encoding emb sub uni … — every font must be embedded.
    assert all(row.split()[-5] == "yes" for row in rows), fonts.stdout
    assert "\ufffd" not in sheet_pdf_text
    assert "アクションリスト" in sheet_pdf_text and "♡" in sheet_pdf_text and "〜" in sheet_pdf_text


SHEET_PARTS = [
    squash(part)
    for part in (
        "BlackPoker",
        EDITION_DATA.title,
        EDITION_DATA.format(SHEET).name,
        EDITION_DATA.published,
        *(text for box in EDITION_DATA.legend for text in (box.title, *sentences("\n".join(box.lines)))),
        "コストの意味",
        *(unit.text for unit in EDITION_DATA.cost_units),
        f"誌名:{EDITION_DATA.magazine}",
        f"発行:{EDITION_DATA.published}",
        EDITION_DATA.copyright,
    )
]


@pytest.mark.parametrize("part", SHEET_PARTS)
def test_sheet_header_legend_and_footer(sheet_html: str, sheet_pdf_text: str, part: str) -> None:
    assert part in squash(text_content(sheet_html))
    assert part in squash(sheet_pdf_text)


def article(html: str, name: str) -> str:
    """The HTML of the entry called name."""
    entries = re.findall(r"<article .*?</article>", html, re.S)
    return next(entry for entry in entries if f'<h4 class="name">{name}</h4>' in entry)


def heading(entry: Action | Character, keyed: bool = False) -> str:
    debut = RULESET.debut(entry)
    key = f"★{entry.key}" if keyed else ""
    return squash(f"{debut.mark}{entry.name}({entry.type})[{debut.id}]{key}")


def test_marks_and_tags_come_from_the_first_format(sheet_html: str) -> None:
    flat = squash(text_content(sheet_html))
    entries = (*RULESET.actions, *RULESET.characters)
    debuts = {RULESET.debut(e).id for e in entries}
    assert len(debuts) > 1  # the sheet shows entries of more than one format
    for format_id in debuts:
        action = next(a for a in RULESET.actions if RULESET.debut(a).id == format_id)
        assert heading(action) in flat
    for kind in (RULESET.actions, RULESET.characters):
        keyed = next(e for e in kind if e.key is not None and RULESET.debut(e).id == SHEET)
        assert heading(keyed, keyed=True) in flat


def test_numbered_bulleted_and_lettered_lines_are_real_lists(sheet_html: str) -> None:
    numbered = [
        t
        for e in (*RULESET.actions, *RULESET.characters)
        for t in entry_texts(e)
        if re.search(r"^-?[0-9０-９]+[.．]", t, re.M)
    ]
    assert sheet_html.count('<ol class="numbered">') >= len(numbered) > 0
    assert '<ul class="bulleted">' in sheet_html
    entry, (bullet, number, letter) = next(
        (e, found)
        for e in (*RULESET.actions, *RULESET.characters)
        for t in entry_texts(e)
        if (found := nested_lists(t))
    )
    assert re.search(
        rf'<ul class="bulleted">.*?<li>{re.escape(bullet[:5])}.*?'
        rf'<ol class="numbered">\s*<li>{re.escape(number[:5])}.*?'
        rf'<ol class="lettered">\s*<li>{re.escape(letter)}</li>',
        article(sheet_html, entry.name),
        re.S,
    )
    assert "１．" not in text_content(sheet_html) and "--A." not in sheet_html


def coloured(text: str) -> str:
    return "".join(
        f'<span class="suit {"red" if c in RED else "black"}">{c}</span>' if c in RED + BLACK else c
        for c in text
    )


def test_suits_are_coloured_in_keys_and_text(sheet_html: str) -> None:
    red_key = next(a for a in RULESET.actions if a.key is not None and set(str(a.key)) & set(RED))
    assert f'<span class="key">★ {coloured(str(red_key.key))}</span>' in article(sheet_html, red_key.name)
    suit, action = next((c, a) for a in RULESET.actions for c in BLACK if c in a.effect)
    assert coloured(suit) in article(sheet_html, action.name)


def usage(action: Action) -> str:
    words = {
        "trigger": TRIGGERS[action.trigger],
        "speed": SPEEDS[action.speed],
        "timing": TIMINGS[action.timing],
    }
    return "@" + EDITION_DATA.usage_separator.join(words[part] for part in EDITION_DATA.usage_line)


def test_costs_are_badges_and_no_cost_prints_no_dollar(sheet_html: str) -> None:
    paid = next(a for a in RULESET.actions if a.cost.units)
    unit = next(u for u in EDITION_DATA.cost_units if u.unit == paid.cost.units[0])
    assert (
        f'{usage(paid)} | <span class="cost">$<abbr class="cost-unit" title="{unit.text}">{unit.unit}</abbr>'
        in article(sheet_html, paid.name)
    )
    free = next(a for a in RULESET.actions if not a.cost.units)
    assert f'<p class="usage">{usage(free)}</p>' in article(sheet_html, free.name)


def test_stories_are_behind_a_toggle_on_screen_and_not_printed(sheet_html: str, sheet_pdf_text: str) -> None:
    flavor = next(a.flavor for a in RULESET.actions if a.flavor)
    details = re.search(r'<details class="lore">.*?</details>', sheet_html, re.S)
    assert details and "<summary>" in details.group(0)
    assert flavor in sheet_html
    assert squash(flavor) not in squash(sheet_pdf_text)


def test_two_up_puts_two_a4_pages_on_one_landscape_a4(site: Path) -> None:
    def info(pdf: Path) -> dict[str, str]:
        out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
        return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)

    a4, two_up = info(site / EDITION / f"{SHEET}.pdf"), info(site / EDITION / f"{SHEET}-2up.pdf")
    pages = int(a4["Pages"])
    assert "595.276 x 841.89" in a4["Page size"]
    assert "841.89 x 595.276" in two_up["Page size"]
    assert int(two_up["Pages"]) == (pages + 1) // 2
    two_up_text = squash(pdf_text(site / EDITION / f"{SHEET}-2up.pdf"))
    assert [e for e in EXPECTED if e not in two_up_text] == []


def test_qr_code_points_to_the_official_page(sheet_html: str) -> None:
    official = Environment().official_sheet(EDITION, SHEET)
    assert official is not None
    svg = rf'<svg viewBox="0 0 (\d+) \1" class="qr"><title>{re.escape(official)}</title>'
    assert re.search(svg, sheet_html)
