"""Check that PDF rendering can run before a build starts: its libraries are an extra."""

from __future__ import annotations

import importlib

from blackpoker.runtime.rules.diagnostics import BlackPokerError, Diagnostic, Location

# The Python packages of the `pdf` extra, and the system libraries and font WeasyPrint needs.
PDF_MODULES = ("weasyprint", "pypdf")
APT_PACKAGES = "libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-ipaexfont-gothic"


class PdfExtraMissing(BlackPokerError):
    """PDF rendering cannot run here: the one-line message says what to install."""

    def __init__(self, message: str) -> None:
        super().__init__([Diagnostic(Location("pdf", 0, 0), message)])
        self.message = message


def require_pdf_extra() -> None:
    for module in PDF_MODULES:
        try:
            importlib.import_module(module)
        except (ImportError, OSError) as error:  # OSError: WeasyPrint finds no Pango library
            raise PdfExtraMissing(
                f"PDF rendering needs {module}, which is not usable here ({error}): install the pdf "
                f"extra (pip install 'blackpoker[pdf]') and, on Debian, apt-get install {APT_PACKAGES}; "
                "or build with --html-only"
            ) from None
