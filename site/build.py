"""`blackpoker build`: compile, then write the static site (HTML, A4 and 2-up PDFs) into one folder.

Everything is compiled and checked before the first file is written. The site is built in
a staging folder inside the output folder and moved into place only when complete, so a
failed build leaves the previous site as it was and writes nothing anywhere else.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from blackpoker.site.fonts import require_japanese_font
from blackpoker.site.pages import Page, plan
from blackpoker.site.render import pdf_names, render_index, render_sheet
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


@dataclass(frozen=True, slots=True)
class BuildOptions:
    out: Path
    editions: Sequence[str] = ()  # none: every built-in edition
    formats: Sequence[str] = ()  # none: every format and the `all` page
    rules: Path | None = None  # a local-rule file whose format is built too
    base_url: str = ""  # where the site will be served; QR codes point there
    html_only: bool = False
    workers: int | None = None  # PDF processes; None: one per core


@dataclass(frozen=True, slots=True)
class BuildResult:
    pages: tuple[Page, ...]
    files: tuple[Path, ...]  # relative to the output folder


def build_site(options: BuildOptions, console: Console | None = None) -> BuildResult:
    """Build the site; CompileError and FontMissing are raised before anything is written."""
    pages = plan(options.editions, options.formats, options.rules)
    if not options.html_only:
        require_japanese_font()
    console = console or Console(stderr=True)
    with _staging(options.out) as staging, _progress(console) as progress:
        task = progress.add_task("HTML", total=len(pages) * (1 if options.html_only else 2) + 1)
        files = _write_html(staging, pages, options)
        progress.update(task, advance=len(pages) + 1, refresh=True)
        if not options.html_only:
            progress.update(task, description="PDF", refresh=True)
            files += _write_pdfs(
                staging, pages, options.workers, lambda: progress.update(task, advance=1, refresh=True)
            )
    return BuildResult(tuple(pages), tuple(sorted(files)))


def _write_html(root: Path, pages: Sequence[Page], options: BuildOptions) -> list[Path]:
    static = root / "static"
    static.mkdir()
    files = []
    for source in resources.files("blackpoker.site").joinpath("static").iterdir():
        (static / source.name).write_bytes(source.read_bytes())
        files.append(Path("static", source.name))
    with_pdf = not options.html_only
    for page in pages:
        target = root / page.path
        target.parent.mkdir(exist_ok=True)
        target.write_text(render_sheet(page, options.base_url, with_pdf), encoding="utf-8")
        files.append(Path(page.path))
    (root / "index.html").write_text(render_index(pages, with_pdf), encoding="utf-8")
    return [*files, Path("index.html")]


def _write_pdfs(
    root: Path, pages: Sequence[Page], workers: int | None, advance: Callable[[], None]
) -> list[Path]:
    # WeasyPrint is an optional dependency (extra "pdf"): only PDF builds import it.
    from blackpoker.site.pdf import PdfJob, render_all

    jobs = []
    for page in pages:
        names = pdf_names(page)
        html = root / page.path
        jobs.append(PdfJob(html, html.with_name(names.a4), html.with_name(names.two_up)))
    render_all(jobs, lambda _job: advance(), workers)
    return [path.relative_to(root) for job in jobs for path in (job.a4, job.two_up)]


@contextmanager
def _staging(out: Path) -> Iterator[Path]:
    """A fresh folder inside out; on success its contents replace those of the same name in out."""
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    for leftover in out.glob(".staging-*"):  # left behind by a build that was killed
        _remove(leftover)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=out))
    try:
        yield staging
        for item in sorted(staging.iterdir()):
            _remove(out / item.name)
            item.rename(out / item.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if created and not any(out.iterdir()):
            out.rmdir()


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


def _progress(console: Console) -> Progress:
    # No auto-refresh thread: the PDF pool forks this process, and a fork must not copy a
    # thread that may be holding the console's lock.
    return Progress(
        TextColumn("[bold]{task.description:>4}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        auto_refresh=False,
    )
