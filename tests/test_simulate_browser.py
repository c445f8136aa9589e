"""The HTML report of `simulate --html` in headless Chromium (Debian's, via playwright): it
renders its charts without a script, console errors or a horizontal scroll bar, on a phone
and on a desktop screen, with the difference column of every table in reach."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from blackpoker.cli.main import main
from blackpoker.site.report_tables import JAPANESE
from browser_support import sync_api
from click.testing import CliRunner
from simulate_support import EDITION, SMALLEST, local_rule
from site_support import Watched


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    out = folder / "report.html"
    args = [
        "simulate",
        "--edition",
        EDITION,
        "--compare",
        SMALLEST,
        str(local_rule(folder)),
        "-n",
        "60",
        "--html",
        str(out),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return out


def test_the_report_renders_its_charts_without_errors(
    browser: sync_api.BrowserContext,
    report: Path,
    tmp_path: Path,
) -> None:
    page = Watched(browser, report)
    shot = tmp_path / "report.png"
    page.page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 50_000
    charts = page.page.locator("svg")
    assert charts.count() == 4
    for index in range(4):
        box = charts.nth(index).bounding_box()
        assert box is not None and box["width"] > 600 and box["height"] > 100
    bars = page.page.locator("svg rect")
    assert bars.count() > 50
    assert page.page.locator("script").count() == 0
    assert page.problems == []
    page.close()


PHONE, DESKTOP = 375, 1280

# Where each difference cell is: inside the page's width and its table's box, or in a box that
# scrolls sideways on its own (so the page does not).
DIFFERENCE_CELLS = """label => {
  const cells = [];
  for (const table of document.querySelectorAll("table")) {
    const heads = [...table.querySelectorAll("thead th")].map(th => th.textContent.trim());
    const column = heads.indexOf(label);
    if (column < 0) continue;
    const wrap = table.parentElement;
    const box = wrap.getBoundingClientRect();
    const scrolls = wrap.scrollWidth > wrap.clientWidth
      && ["auto", "scroll"].includes(getComputedStyle(wrap).overflowX);
    for (const row of table.querySelectorAll("tbody tr")) {
      const cell = row.children[column].getBoundingClientRect();
      const inside = cell.left >= Math.max(box.left, 0) - 0.5
        && cell.right <= Math.min(box.right, window.innerWidth) + 0.5;
      cells.push({inside, scrolls});
    }
  }
  return cells;
}"""


@pytest.fixture(params=[PHONE, DESKTOP])
def width(request: pytest.FixtureRequest) -> int:
    width: int = request.param
    return width


@pytest.fixture
def sized(browser: sync_api.BrowserContext, report: Path, width: int) -> Iterator[Watched]:
    """The report at a phone's or a desktop's width."""
    page = Watched(browser, report)
    page.page.set_viewport_size({"width": width, "height": 800})
    yield page
    page.close()


def test_the_report_has_no_horizontal_scroll(sized: Watched) -> None:
    overflow = sized.page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0


def test_every_difference_cell_is_in_view_or_in_its_own_scrolling_box(sized: Watched, width: int) -> None:
    page = sized
    cells = page.page.evaluate(DIFFERENCE_CELLS, JAPANESE.difference)
    tables = page.page.locator("table", has=page.page.locator("th", has_text=JAPANESE.difference))
    assert tables.count() == 4  # results, and the three measures of each action
    assert len(cells) > 20
    assert all(c["inside"] or c["scrolls"] for c in cells)
    if width == DESKTOP:  # nothing to scroll to: every difference is on the screen
        assert all(c["inside"] for c in cells)
