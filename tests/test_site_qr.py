"""The printed QR code really decodes to the page's URL under --base-url."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from blackpoker.site.build import BuildOptions, build_site

BASE = "https://example.org/blackpoker"


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
