"""The std sheet of edition 7, as HTML and as PDF, prints every word of the compiled rule set."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from blackpoker.compiler import compile
from blackpoker.compiler.environment import Environment
from site_support import built_std, expected_strings, pdf_text, squash, text_content


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_std(tmp_path_factory)


@pytest.fixture(scope="module")
def std_html(site: Path) -> str:
    return (site / "v7" / "std.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def std_pdf_text(site: Path) -> str:
    return pdf_text(site / "v7" / "std.pdf")


EXPECTED = expected_strings(compile("v7", "std"))


def test_expected_strings_cover_the_whole_list() -> None:
    ruleset = compile("v7", "std")
    entries = (*ruleset.actions, *ruleset.characters)
    assert all(squash(entry.name) in EXPECTED for entry in entries)
    assert len(EXPECTED) > 4 * len(entries)
    assert "@クイック|$D" in EXPECTED and "★♡A〜K と ♢A〜K".replace(" ", "") in EXPECTED


@pytest.mark.parametrize("expected", EXPECTED)
def test_html_prints_every_name_cost_key_and_sentence(std_html: str, expected: str) -> None:
    assert expected in squash(text_content(std_html))


@pytest.mark.parametrize("expected", EXPECTED)
def test_pdf_prints_every_name_cost_key_and_sentence(std_pdf_text: str, expected: str) -> None:
    assert expected in squash(std_pdf_text)


def test_pdf_embeds_a_japanese_font_and_has_no_missing_glyphs(site: Path, std_pdf_text: str) -> None:
    fonts = subprocess.run(
        ["pdffonts", str(site / "v7" / "std.pdf")], capture_output=True, text=True, check=True
    )
    rows = fonts.stdout.splitlines()[2:]
    assert rows, "no fonts in the PDF"
    assert any(re.search(r"IPAexGothic|IPAexG|NotoSansCJK|NotoSansJP", row) for row in rows), fonts.stdout
    # Columns: name type encoding emb sub uni … — every font must be embedded.
    assert all(row.split()[-5] == "yes" for row in rows), fonts.stdout
    assert "\ufffd" not in std_pdf_text
    assert "アクションリスト" in std_pdf_text and "♡" in std_pdf_text and "〜" in std_pdf_text


SHEET_PARTS = (
    *("BlackPoker", "第七版act7.0", "スタンダード", "2024/4/8"),
    *("記号の意味", "@:タイミング、$:コスト、★:キーカード", "コストの意味", "防壁をドライブする"),
    *("キャラクター1体を墓地に移す", "防壁の置き方", "防壁の左右の入れ替えは行わない。", "誘発する場合"),
    *("誌名:BlackPokerActionList第七版act7.0", "発行:2024/4/8", "©2013BlackPoker"),
)


@pytest.mark.parametrize("part", SHEET_PARTS)
def test_sheet_header_legend_and_footer(std_html: str, std_pdf_text: str, part: str) -> None:
    assert part in squash(text_content(std_html))
    assert part in squash(std_pdf_text)


def article(html: str, name: str) -> str:
    """The HTML of the entry called name."""
    entries = re.findall(r"<article .*?</article>", html, re.S)
    return next(entry for entry in entries if f'<h4 class="name">{name}</h4>' in entry)


def test_marks_and_tags_come_from_the_first_format(std_html: str) -> None:
    flat = squash(text_content(std_html))
    assert "■防壁設置(召喚)[lite]" in flat
    assert "○魔術士召喚(召喚)[std]★Joker" in flat
    assert "○魔術士(兵士)[std]★Joker" in flat


def test_numbered_bulleted_and_lettered_lines_are_real_lists(std_html: str) -> None:
    assert std_html.count('<ol class="numbered">') >= 9
    assert '<ul class="bulleted">' in std_html
    bulwark = article(std_html, "防壁")
    assert re.search(
        r'<ul class="bulleted">.*?<li>【ダメージ判定】.*?<ol class="numbered">\s*<li>防壁を表にし.*?'
        r'<ol class="lettered">\s*<li>防壁がJokerの場合</li>',
        bulwark,
        re.S,
    )
    assert "１．" not in text_content(std_html) and "--A." not in std_html


def test_suits_are_coloured_in_keys_and_text(std_html: str) -> None:
    assert '<span class="key">★ <span class="suit red">♡</span>A〜10</span>' in article(std_html, "アップ")
    assert 'キーカードの<span class="suit black">♠</span>カード' in article(std_html, "投擲")


def test_costs_are_badges_and_no_cost_prints_no_dollar(std_html: str) -> None:
    assert (
        '@メイン | <span class="cost">$<abbr class="cost-unit" title="防壁をドライブする">B</abbr>'
        in std_html
    )
    assert '<p class="usage">@メイン</p>' in article(std_html, "アタック")


def test_stories_are_behind_a_toggle_on_screen_and_not_printed(std_html: str, std_pdf_text: str) -> None:
    flavor = compile("v7", "std").action("setBulwark").flavor
    details = re.search(r'<details class="lore">.*?</details>', std_html, re.S)
    assert details and "<summary>" in details.group(0)
    assert flavor in std_html
    assert squash(flavor) not in squash(std_pdf_text)


def test_two_up_puts_two_a4_pages_on_one_landscape_a4(site: Path) -> None:
    def info(pdf: Path) -> dict[str, str]:
        out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
        return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)

    a4, two_up = info(site / "v7" / "std.pdf"), info(site / "v7" / "std-2up.pdf")
    pages = int(a4["Pages"])
    assert "595.276 x 841.89" in a4["Page size"]
    assert "841.89 x 595.276" in two_up["Page size"]
    assert int(two_up["Pages"]) == (pages + 1) // 2
    two_up_text = squash(pdf_text(site / "v7" / "std-2up.pdf"))
    assert [e for e in EXPECTED if e not in two_up_text] == []


def test_qr_code_points_to_the_official_page(std_html: str) -> None:
    official = Environment().official_sheet("v7", "std")
    assert official is not None
    svg = rf'<svg viewBox="0 0 (\d+) \1" class="qr"><title>{re.escape(official)}</title>'
    assert re.search(svg, std_html)
