"""`blackpoker watch FILE`: the designer's loop in one command (docs/designers.md).

Each save of the file (a local rule or an edition file) is validated, its HTML sheets are
built into a temporary folder of the watch's own, and its games are compared with its base's
on the same seeds, as `simulate --compare` plays them (cli/sides.py). A page on 127.0.0.1
shows the problems (located, as the other commands print them), the sheets and the
comparison, and follows each save by itself. The file is looked at by polling: its
modification time, size and identity on disk.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click
from blackpoker.cli.invocation import environment
from blackpoker.cli.options import jobs_option, seed_option
from blackpoker.cli.report import option_error, report
from blackpoker.cli.rule_set import compiled
from blackpoker.cli.sides import compare_sides
from blackpoker.cli.simulate import named_apart, run_summary
from blackpoker.cli.watch_server import Board, WatchServer
from blackpoker.compiler.cache import cache_folder
from blackpoker.compiler.documents.diff import diff_rulesets
from blackpoker.compiler.documents.extra import EXTRA_FORMAT, ExtraSource
from blackpoker.compiler.load import MAX_FILE_BYTES, read_regular_file
from blackpoker.compiler.parse import EditionSource, OverlaySource
from blackpoker.compiler.paths import display, is_path
from blackpoker.runtime.play.compare import Comparison
from blackpoker.runtime.play.selfplay import GameRecord
from blackpoker.runtime.play.simulation import Plan, RulesSource, order, run
from blackpoker.runtime.play.stats import Summary
from blackpoker.runtime.rules.diagnostics import BlackPokerError
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.site.build import BuildOptions, build_site
from blackpoker.site.watch import Compared, Snapshot
from rich.console import Console

T = TypeVar("T")
HOST = "127.0.0.1"
AGENTS = ("random", "random")
Stamp = tuple[int, int, int, int] | str  # a file's mtime, size, inode and mode; or why it cannot be read


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8766, show_default=True, help="0: any free port."
)
@click.option(
    "-n",
    "games",
    default=200,
    show_default=True,
    type=click.IntRange(min=0),
    help="Games of each side in the comparison with the base (0: no comparison).",
)
@seed_option("The comparison's seed.", 1)
@jobs_option()
@click.option(
    "--every",
    default=0.5,
    show_default=True,
    type=click.FloatRange(min=0.05, max=60),
    help="Seconds between looks at the file.",
)
def watch(file: Path, port: int, games: int, seed: int, jobs: int, every: float) -> None:
    """Validate, build and compare a rule file on every save, shown on a live page; Ctrl-C stops it."""
    _, problems = read_regular_file(file, display(file), MAX_FILE_BYTES)
    if problems:
        report(problems)
    site = Path(tempfile.mkdtemp(prefix="blackpoker-watch-"))  # ours: removed at the end
    board = Board(Snapshot(display(file), "最初の検証をしています…", games=games), site / "site")
    try:
        server = WatchServer((HOST, port), board)
    except OSError as error:
        shutil.rmtree(site)
        reason = "the port is in use" if error.errno == errno.EADDRINUSE else error.strerror
        option_error("--port", f"cannot listen on {HOST}:{port}: {reason}; give another (0: any free port)")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    click.echo(f"blackpoker watch: http://{HOST}:{server.server_address[1]}/  (Ctrl-C で終了)", err=True)
    loop = _Loop(file, board, games, seed, jobs)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stopped: the folder is removed all the same
    try:
        loop.follow(every)
    except KeyboardInterrupt:
        click.echo("終了しました", err=True)
    finally:
        board.close()
        server.shutdown()
        server.server_close()
        shutil.rmtree(site, ignore_errors=True)


class _Loop:
    """Each save, in turn: validate, build, compare. A comparison stops early when the file is
    saved again, so the page never waits on an outdated one."""

    def __init__(self, file: Path, board: Board, games: int, seed: int, jobs: int) -> None:
        self.file, self.board, self.games, self.seed, self.jobs = file, board, games, seed, jobs
        self.env = environment()  # the watch's one: unchanged bases are read once
        self.cache = cache_folder()

    def follow(self, every: float) -> None:
        seen: Stamp | None = None
        while True:
            now = _stamp(self.file)
            if now != seen:
                time.sleep(every)  # an editor may write a save in several steps: let it settle
                if _stamp(self.file) == now:
                    seen = now
                    self.check(now)
                    continue
            time.sleep(every)

    def check(self, stamp: Stamp) -> None:
        checked = time.strftime("%H:%M:%S")
        problems, notes = self._problems()
        if problems:
            self.board.publish(
                status=f"問題 {len(problems)} 件", checked=checked, problems=problems, notes=notes, stale=True
            )
            return
        built = self._build()
        if isinstance(built, list):
            self.board.publish(status="シートを作れません", checked=checked, problems=built, stale=True)
            return
        base = self._base()
        status = f"{base} と比較しています ({self.games} 試合ずつ)…" if base and self.games else "最新"
        self.board.publish(
            rebuilt=True,
            status=status,
            checked=checked,
            problems=(),
            notes=notes,
            pages=built,
            stale=False,
            base=base,
            compared=None,
        )
        if base is None or not self.games:
            return
        compared = self._compare(base, stamp)
        if isinstance(compared, Compared):
            self.board.publish(status="最新", compared=compared)
        elif compared:
            self.board.publish(status="比較できません", problems=tuple(compared))

    def _problems(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The file's problems and notes, as `blackpoker validate FILE` reports them (a path
        that is no longer a readable file, as at the start)."""
        _, unreadable = read_regular_file(self.file, display(self.file), MAX_FILE_BYTES)
        if unreadable:
            return tuple(d.render() for d in unreadable), ()
        _, found = self.env.check_paths([self.file])
        return (
            tuple(d.render() for d in found if not d.warning),
            tuple(d.render() for d in found if d.warning),
        )

    def _build(self) -> tuple[str, ...] | list[str]:
        """The file's HTML pages, as `build --rules FILE` or `build --edition FILE` makes them
        (their paths in the site folder); or the problems that stopped the build."""
        source, _ = self.env.read(self.file)
        if isinstance(source, EditionSource):
            options = BuildOptions(self.board.site, editions=(str(self.file),), html_only=True)
        else:
            options = BuildOptions(self.board.site, rules=self.file, html_only=True)
        quiet = Console(file=io.StringIO())
        try:
            result = build_site(options, quiet, self.env)
        except BlackPokerError as error:
            return [d.render() for d in error.diagnostics]
        return tuple(p.path for p in (*result.pages, *result.extras, *result.regulations, *result.changes))

    def _base(self) -> str | None:
        """What the file is compared with, as a side of `simulate --compare`: a local rule's
        base (format, local-rule file, or extra list), an edition file's base edition."""
        source, _ = self.env.read(self.file)
        folder = self.file.parent
        if isinstance(source, OverlaySource):
            base = str(source.format.base)
            if base == EXTRA_FORMAT.id and source.extra is not None:
                base = source.extra  # the extra list it edits
            return str(folder / base) if is_path(base) else base
        if isinstance(source, ExtraSource):
            return EXTRA_FORMAT.id  # beside its edition's newest built-in list
        if isinstance(source, EditionSource):
            own = source.edits if source.edits is not None else source.doc
            base = own.data.get("base")
            if isinstance(base, str):
                sibling = folder / f"{base}.yaml"
                return str(sibling) if sibling.is_file() else base
        return None

    def _compare(self, base: str, stamp: Stamp) -> Compared | list[str] | None:
        """The file's games against its base's, as `simulate --compare BASE FILE -n GAMES`
        plays them; None when the file was saved again meanwhile, else what refused it."""
        sides, refusal = _refused(lambda: compare_sides(self.env, (base, str(self.file)), None))
        if sides is None:
            return refusal
        rulesets, refusal = _refused(lambda: [compiled(s, cache=self.cache) for s, _ in sides])
        if rulesets is None:
            return refusal
        summaries = []
        for (source, _), rules in zip(sides, rulesets, strict=True):
            played = self._play(source, rules, stamp)
            if played is None:
                return None
            summaries.append(played)
        return Compared(Comparison.of(*named_apart(*summaries)), diff_rulesets(*rulesets))

    def _play(self, source: RulesSource, rules: RuleSet, stamp: Stamp) -> Summary | None:
        """One side's games (None when the file was saved again meanwhile)."""
        plan = Plan(source, AGENTS, self.seed, self.games)
        start, records = time.perf_counter(), list[GameRecord]()
        for part in run(plan, self.jobs, rules):
            records += part
            if _stamp(self.file) != stamp:
                return None
        return run_summary(sorted(records, key=order), rules, plan, time.perf_counter() - start)


def _stamp(file: Path) -> Stamp:
    try:
        info = os.stat(file)
    except OSError as error:
        return str(error.strerror)
    return (info.st_mtime_ns, info.st_size, info.st_ino, info.st_mode)


def _refused(step: Callable[[], T]) -> tuple[T | None, list[str]]:
    """What a step of the command line gives; or None, and the lines it printed when it refused
    (exit 1) or the problems it raised: the comparison's sides are found by `simulate
    --compare`'s own code."""
    printed = io.StringIO()
    try:
        with contextlib.redirect_stderr(printed):
            return step(), []
    except BlackPokerError as error:
        return None, [d.render() for d in error.diagnostics]
    except SystemExit:
        return None, printed.getvalue().splitlines() or ["the comparison was refused"]
