"""The built pages in a real headless Chromium (Debian's), opened from disk via file://.

Driven with the Python `playwright` package against /usr/bin/chromium (never
`playwright install`). Skips only when chromium or playwright is missing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from blackpoker.cli.main import main
from blackpoker.compiler import compile
from browser_support import sync_api
from click.testing import CliRunner
from editions_support import formats
from site_support import (
    EDITION,
    HOSTILE,
    OVERLAY_NAME,
    SHEET,
    Watched,
    built_html,
    text_content,
    write_overlay,
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_html(tmp_path_factory)


@pytest.fixture
def sheet(browser: sync_api.BrowserContext, site: Path) -> Iterator[Watched]:
    watched = Watched(browser, site / EDITION / f"{SHEET}.html")
    yield watched
    watched.close()


def test_sheet_page_loads_without_errors_and_renders(sheet: Watched, tmp_path: Path) -> None:
    shot = tmp_path / "sheet.png"
    sheet.page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
    assert sheet.page.locator("html").get_attribute("class") == ""  # the script ran: no-js removed
    assert sheet.page.locator(".tools").is_visible()
    ruleset = compile(EDITION, SHEET)
    assert len(sheet.visible_names()) == len(ruleset.actions) + len(ruleset.characters)
    assert sheet.problems == []


def normalize(text: str) -> str:
    """As the page's search compares text: NFKC, lower case, every tilde 〜, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"[~～〜]", "〜", unicodedata.normalize("NFKC", text).lower()))


def matching(html: str, query: str) -> set[str]:
    """The names of the page's entries whose text holds every word of the query."""
    words = normalize(query).split()
    found = set()
    for article in re.findall(r"<article .*?</article>", html, re.S):
        name = re.search(r'<h4 class="name">(.*?)</h4>', article)
        if name and all(word in normalize(text_content(article)) for word in words):
            found.add(text_content(name[1]))
    return found


def test_search_filters_entries(sheet: Watched, site: Path) -> None:
    html = (site / EDITION / f"{SHEET}.html").read_text(encoding="utf-8")
    ruleset = compile(EDITION, SHEET)
    alone = next(a.name for a in ruleset.actions if matching(html, a.name) == {a.name})
    digits = next(text for a in ruleset.actions if (text := re.search(r"[0-9]\D{1,4}[0-9]\D", a.note)))[0]
    wide = digits.translate({ord(d): ord(d) + 0xFEE0 for d in "0123456789"})
    keyed = next(str(a.key) for a in ruleset.actions if a.key is not None and "〜" in str(a.key))
    tilde = next(word for word in re.sub(r"[♠♣♡♢]", " ", keyed).split() if "〜" in word).replace("〜", "~")
    search = sheet.page.locator("#search")
    search.fill(alone)
    url = sheet.page.url
    search.press("Enter")  # the form never submits: the page and the filter stay
    assert sheet.page.url == url
    assert sheet.visible_names() == [alone]
    search.fill(wide)  # full-width digits match the ASCII ones of the data
    assert wide != digits and set(sheet.visible_names()) == matching(html, digits) != set()
    search.fill(tilde)  # an ASCII tilde matches 〜
    assert set(sheet.visible_names()) == matching(html, tilde.replace("~", "〜")) != set()
    search.fill("該当しない言葉")
    assert sheet.visible_names() == []
    assert sheet.page.locator("#no-results").is_visible()
    assert not sheet.page.locator("#section-1").is_visible()  # empty groups hide their heading
    search.fill("")
    assert len(sheet.visible_names()) == sheet.page.locator(".entry").count()
    assert sheet.problems == []


def test_story_toggle_opens_every_story(sheet: Watched) -> None:
    flavor = next(a.flavor for a in compile(EDITION, SHEET).actions if a.flavor)
    assert not sheet.page.get_by_text(flavor).is_visible()
    sheet.page.locator("#toggle-lore").click()
    assert sheet.page.get_by_text(flavor).is_visible()
    assert sheet.page.locator("details.lore:not([open])").count() == 0


def test_format_filter_on_the_all_page_hides_entries_of_other_formats(
    browser: sync_api.BrowserContext, site: Path
) -> None:
    page = Watched(browser, site / EDITION / "all.html")
    everything = page.page.locator(".entry").count()
    page.page.locator("#format-filter").select_option(SHEET)
    sheet = compile(EDITION, SHEET)
    assert sorted(page.visible_names()) == sorted(e.name for e in (*sheet.actions, *sheet.characters))
    assert everything > len(page.visible_names())
    shown = page.page.locator(".entry:visible").evaluate_all("els => els.map(e => e.dataset.formats)")
    assert all(SHEET in f.split() for f in shown)
    assert page.page.locator("#result-count").inner_text().startswith(f"{len(shown)} / {everything}")
    assert page.problems == []
    page.close()


def test_format_in_the_address_opens_the_page_filtered(browser: sync_api.BrowserContext, site: Path) -> None:
    smallest = formats(EDITION)[0]
    page = Watched(browser, site / EDITION / "all.html", query=f"?format={smallest}")
    ruleset = compile(EDITION, smallest)
    assert page.page.locator("#format-filter").input_value() == smallest
    assert len(page.visible_names()) == len(ruleset.actions) + len(ruleset.characters)
    page.close()


def test_phone_width_has_no_horizontal_scroll(browser: sync_api.BrowserContext, site: Path) -> None:
    page = Watched(browser, site / EDITION / f"{SHEET}.html")
    page.page.set_viewport_size({"width": 360, "height": 740})
    overflow = page.page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    page.close()


def test_hostile_overlay_text_stays_text(browser: sync_api.BrowserContext, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main,
        [
            "build",
            "--out",
            str(out),
            "--rules",
            str(write_overlay(tmp_path)),
            "--format",
            OVERLAY_NAME,
            "--html-only",
        ],
    )
    assert result.exit_code == 0, result.output
    page = Watched(browser, out / EDITION / f"{OVERLAY_NAME}.html")
    assert HOSTILE in page.visible_names()
    assert page.page.locator("script:not([src])").count() == 0
    assert page.problems == []  # no alert() dialog, no errors
    page.close()
