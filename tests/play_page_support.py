"""The static play page of `blackpoker build --play`, built once and served by a static file
server on 127.0.0.1 (the page's fetches of its own files need http: Chromium refuses fetch
from file://). Importing this module skips the importing test module when the npm package
`pyodide` is absent (.ci/setup installs it), naming it."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from blackpoker.runtime.serve.bundle import PyodideMissing, pyodide_folder

try:
    PYODIDE = pyodide_folder(None)
except PyodideMissing as missing:
    pytest.skip(str(missing), allow_module_level=True)


class _Quiet(SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
    }

    def log_message(self, format: str, *args: Any) -> None:
        """No line per file."""


@contextmanager
def static_server(folder: Path) -> Iterator[str]:
    """A plain static file server of `folder` on 127.0.0.1; yields its origin."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
