"""The web side of `blackpoker watch`: the standard library's ThreadingHTTPServer on 127.0.0.1,
serving the page (site/watch.py), the built sheets from the watch's own folder, and
`/events`, a server-sent event stream that names each new snapshot (docs/designers.md)."""

from __future__ import annotations

import dataclasses
import json
import mimetypes
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from blackpoker.site.watch import Snapshot, render_watch

KEEPALIVE = 15.0  # seconds between comments on an idle event stream (a dead peer is noticed then)


class Board:
    """The snapshot the page shows, replaced whole by the watch loop; the server's threads
    read it and wait for the next one."""

    def __init__(self, first: Snapshot, site: Path) -> None:
        self.site = site  # the folder the sheets are built into
        self._shown = first
        self._changed = threading.Condition()
        self.closed = False

    @property
    def shown(self) -> Snapshot:
        with self._changed:
            return self._shown

    def publish(self, rebuilt: bool = False, **changes: Any) -> None:
        """The next snapshot: the fields given changed (`rebuilt`: the sheets were built anew)."""
        with self._changed:
            old = self._shown
            sheet = old.sheet + 1 if rebuilt else old.sheet
            self._shown = dataclasses.replace(old, **changes, version=old.version + 1, sheet=sheet)
            self._changed.notify_all()

    def close(self) -> None:
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def next_after(self, version: int, timeout: float) -> Snapshot | None:
        """The first snapshot after `version`, or None when `timeout` passes (or the board closes)."""
        with self._changed:
            self._changed.wait_for(lambda: self._shown.version != version or self.closed, timeout)
            return self._shown if self._shown.version != version else None


class WatchServer(ThreadingHTTPServer):
    daemon_threads = True  # an open event stream never holds the command's exit

    def __init__(self, address: tuple[str, int], board: Board) -> None:
        self.board = board
        super().__init__(address, _Handler)


class _Handler(BaseHTTPRequestHandler):
    server: WatchServer

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the terminal is the watch's, and the page shows what matters."""

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        board = self.server.board
        if url.path == "/":
            page = query.get("page", [None])[0]
            self._send(200, "text/html; charset=utf-8", render_watch(board.shown, page).encode())
        elif url.path == "/events":
            self._events(_number(query.get("after", ["-1"])[0]))
        elif url.path.startswith("/site/"):
            self._file(board.site, unquote(url.path.removeprefix("/site/")))
        else:
            self._send(404, "text/plain; charset=utf-8", b"not found")

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _file(self, root: Path, name: str) -> None:
        """A file the build wrote, never one outside the site folder."""
        path = (root / name).resolve()
        if not path.is_relative_to(root.resolve()) or not path.is_file():
            self._send(404, "text/plain; charset=utf-8", b"not found")
            return
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        text = kind.startswith("text/") or kind in ("application/javascript", "image/svg+xml")
        self._send(200, f"{kind}; charset=utf-8" if text else kind, path.read_bytes())

    def _events(self, seen: int) -> None:
        """One event per new snapshot: its version and its sheets' build, as JSON."""
        board = self.server.board
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        try:
            while not board.closed:
                shown = board.next_after(seen, KEEPALIVE)
                if shown is None:
                    self.wfile.write(b": idle\n\n")
                else:
                    seen = shown.version
                    data = json.dumps({"version": shown.version, "sheet": shown.sheet})
                    self.wfile.write(f"data: {data}\n\n".encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return  # the page was closed or reloaded


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return -1
