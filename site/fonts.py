"""Check that fontconfig can find a Japanese font before any PDF is rendered.

Without one, WeasyPrint silently draws every kana and kanji as a missing-glyph box.
"""

from __future__ import annotations

import shutil
import subprocess

from blackpoker.runtime.rules.diagnostics import BlackPokerError, Diagnostic, Location

FONT_PACKAGE = "fonts-ipaexfont-gothic"  # Debian's IPAexGothic; fonts-noto-cjk works too


class FontMissing(BlackPokerError):
    """No Japanese font is installed: the message tells which package to install."""

    def __init__(self, message: str) -> None:
        super().__init__([Diagnostic(Location("fonts", 0, 0), message)])
        self.message = message


def japanese_fonts() -> list[str]:
    """Family names of the installed fonts that cover Japanese, as fontconfig lists them."""
    if shutil.which("fc-list") is None:
        return []
    listing = subprocess.run(["fc-list", ":lang=ja", "family"], capture_output=True, text=True, check=False)
    return sorted({line.split(",")[0].strip() for line in listing.stdout.splitlines() if line.strip()})


def require_japanese_font() -> list[str]:
    fonts = japanese_fonts()
    if not fonts:
        raise FontMissing(
            "no Japanese font found (fontconfig: fc-list :lang=ja lists none); the PDFs would print boxes.\n"
            f"Install one, e.g.: apt-get install {FONT_PACKAGE}  (or fonts-noto-cjk),\n"
            "or build with --html-only."
        )
    return fonts
