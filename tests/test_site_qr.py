"""The printed QR code really decodes to the page's URL under --base-url."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from blackpoker.compiler.environment import Environment
from blackpoker.site.build import BuildOptions, build_site

BASE = "https://example.org/blackpoker"
ROOT = Path(__file__).resolve().parents[1]
ACTIONLISTS, EXAMPLES = ROOT / "actionlists", ROOT / "examples"


def test_pdf_qr_code_decodes_to_the_page_url(tmp_path: Path) -> None:
    for tool, package in (("zbarimg", "zbar-tools"), ("pdftoppm", "poppler-utils")):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (apt-get install {package})")
    out = tmp_path / "site"
    build_site(BuildOptions(out, editions=("v7",), formats=("std",), base_url=BASE, html_only=False))
    first_page = ["-png", "-r", "200", "-f", "1", "-l", "1"]
    subprocess.run(["pdftoppm", *first_page, out / "v7" / "std.pdf", tmp_path / "page"], check=True)
    page = next(tmp_path.glob("page*.png"))
    decoded = subprocess.run(["zbarimg", "--raw", "-q", page], capture_output=True, text=True, check=False)
    assert decoded.stdout.split() == [f"{BASE}/v7/std.html"]


def _figcaptions(html: str) -> list[str]:
    return re.findall(r'<figure class="qr-code">.*?<figcaption>(.*?)</figcaption>', html, re.S)


def test_without_base_url_official_sheets_point_to_the_official_site(tmp_path: Path) -> None:
    env = Environment()
    edition = env.builtin_editions()[0]
    registry = yaml.safe_load((ACTIONLISTS / "editions.yaml").read_text(encoding="utf-8"))
    sheets = next(e["sheets"] for e in registry["editions"] if e["id"] == edition)
    out = tmp_path / "site"
    built = build_site(BuildOptions(out, editions=(edition,), html_only=True))
    for page in built.pages:
        html = (out / page.path).read_text(encoding="utf-8")
        official = sheets.get(page.slug)
        # a page the official site lacks (`all`, a format it has not) prints no code at all
        assert _figcaptions(html) == ([official] if official else []), page.path
        assert ('class="qr-code"' in html) == (official is not None)


def test_a_house_sheet_has_a_qr_code_only_with_a_base_url(tmp_path: Path) -> None:
    rules = EXAMPLES / "my-std.yaml"
    name = yaml.safe_load(rules.read_text(encoding="utf-8"))["name"]
    for base_url, expected in (("", []), (BASE, [f"{BASE}/%s/{name}.html"])):
        out = tmp_path / f"site{len(base_url)}"
        built = build_site(BuildOptions(out, formats=(name,), rules=rules, base_url=base_url, html_only=True))
        (page,) = [p for p in built.pages if p.slug == name]
        html = (out / page.path).read_text(encoding="utf-8")
        assert _figcaptions(html) == [e % page.edition for e in expected]
