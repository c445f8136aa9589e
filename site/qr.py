"""QR codes that point a printed sheet back to its web page."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(url: str) -> Markup:
    """An inline SVG QR code for url, sized by CSS (viewBox only).

    A full QR symbol, never Micro QR: phone camera apps do not read Micro QR codes.
    The default four-module quiet zone is kept so the code scans on any background.
    """
    code = segno.make(url, error="m", micro=False)
    return Markup(code.svg_inline(omitsize=True, svgclass="qr", title=url, dark="#000", light="#fff"))
