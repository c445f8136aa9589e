"""The HTML report of `simulate --html` in headless Chromium (Debian's, via playwright): it
renders its charts without a script, console errors or a horizontal scroll bar."""

from __future__ import annotations

from pathlib import Path

import pytest
from blackpoker.cli.main import main
from click.testing import CliRunner
from test_simulate import EDITION, SMALLEST, _local
from test_site_browser import Watched, browser, sync_api  # noqa: F401 (browser: the shared fixture)


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
        str(_local(folder)),
        "-n",
        "60",
        "--html",
        str(out),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return out


def test_the_report_renders_its_charts_without_errors(
    browser: sync_api.BrowserContext,  # noqa: F811
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


@pytest.mark.parametrize("width", [1280, 360])
def test_the_report_has_no_horizontal_scroll(
    browser: sync_api.BrowserContext,  # noqa: F811
    report: Path,
    width: int,
) -> None:
    page = Watched(browser, report)
    page.page.set_viewport_size({"width": width, "height": 800})
    overflow = page.page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    page.close()
