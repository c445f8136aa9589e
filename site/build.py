"""`blackpoker build`: compile, then write the static site (HTML, A4 and 2-up PDFs) into one folder.

Everything is compiled and checked before the first file is written: every file of the
site is named in a write plan (compiler/outputs.py), which refuses any that would land
outside the output folder (a symbolic link in it to elsewhere, one that leads nowhere or in
a loop) or on an input. The site is built in a staging folder inside the output folder and
moved into place only when complete, so a failed build leaves the previous site as it was
and writes nothing anywhere else.

The output folder may hold other files: a build replaces only the files it writes, one
rename each (a page is always there, old or new), and lists every file it ever wrote in
a manifest. A non-empty folder without a manifest is refused unless forced.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import astuple, dataclass, replace
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Protocol

from blackpoker.compiler.environment import Environment, display
from blackpoker.compiler.outputs import WritePlan
from blackpoker.runtime.rules.diagnostics import BlackPokerError, Diagnostic, Location
from blackpoker.site.fonts import require_japanese_font
from blackpoker.site.pages import (
    ChangesPage,
    ExtraPage,
    Page,
    RegulationsPage,
    changes,
    extra_pages,
    frame_pages,
    plan,
    regulation_pages,
    rules_format,
)
from blackpoker.site.pdf_extra import require_pdf_extra
from blackpoker.site.render import (
    pdf_names,
    render_diff,
    render_extra,
    render_index,
    render_regulations,
    render_sheet,
)
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
    force: bool = False  # write into a non-empty folder that no build made
    frame: str | None = None  # a frame's or option's id: its formats' sheets with its actions too
    beta: bool = False  # a beta sheet marks in red what its version adds and updates; a release prints black
    everything: bool = False  # with `rules`: every built-in edition too (else the file's pages only)
    additions: Sequence[Addition] = ()  # files made elsewhere that the site holds too (the play page)


class Addition(Protocol):
    """Files the build writes beside the sheets, made before it starts (`build --play`'s page)."""

    def files(self) -> list[Path]:
        """The files, relative to the output folder."""
        ...

    def write(self, root: Path) -> list[Path]:
        """Write them under root; the files written, relative to it."""
        ...

    @property
    def link(self) -> tuple[str, str] | None:
        """The page the index links to, and the link's words (None: no link)."""
        ...


MANIFEST = ".blackpoker-site.json"  # every file the builds wrote into the output folder
STAGING_PREFIX = ".blackpoker-staging-"
STAGING_MARK = ".blackpoker-staging"  # inside a staging folder: a leftover is ours to remove


class BuildRefused(BlackPokerError):
    """The output folder cannot take the site; nothing was written."""


@dataclass(frozen=True, slots=True)
class BuildResult:
    pages: tuple[Page, ...]  # the sheets
    changes: tuple[ChangesPage, ...]  # the editions' 変更履歴 pages
    files: tuple[Path, ...]  # relative to the output folder
    extras: tuple[ExtraPage, ...] = ()  # the editions' extra lists (切札)
    regulations: tuple[RegulationsPage, ...] = ()  # the editions' regulations pages


def build_site(options: BuildOptions, console: Console | None = None) -> BuildResult:
    """Build the site; CompileError, PdfExtraMissing and FontMissing are raised before anything
    is written.

    A build of every format also writes each edition's 変更履歴 page.
    """
    env = Environment()
    options = _asked(env, options)
    pages = plan(env, options.editions, options.formats, options.rules)
    pages += frame_pages(env, options.editions, options.formats, options.frame)
    history = [] if options.formats else changes(env, options.editions)
    extras = extra_pages(env, options.editions, options.formats, options.rules)
    rules_of_play = regulation_pages(env, options.editions, options.formats)
    if not options.html_only:
        require_pdf_extra()
        require_japanese_font()
    # Every file of the site is named and checked before the first is written.
    writes = WritePlan([*env.files_read(), *([options.rules] if options.rules else [])])
    names = _site_files(pages, history, extras, rules_of_play, options.html_only)
    names += [name for addition in options.additions for name in addition.files()]
    writes.folder(options.out, "--out", [*names, MANIFEST])
    owned = _owned(options.out, options.force, writes.problems)
    if writes.problems:
        raise BuildRefused(writes.problems)
    console = console or Console(stderr=True)
    with _staging(writes, options.out) as staging, _progress(console) as progress:
        sheets = len(pages) + len(extras) + len(rules_of_play)
        task = progress.add_task("HTML", total=sheets * (1 if options.html_only else 2) + 1)
        files = _write_html(staging, pages, history, extras, rules_of_play, options, owned)
        files += [name for addition in options.additions for name in addition.write(staging)]
        progress.update(task, advance=sheets + 1, refresh=True)
        if not options.html_only:
            progress.update(task, description="PDF", refresh=True)
            files += _write_pdfs(
                staging,
                [*pages, *extras, *rules_of_play],
                options.workers,
                lambda: progress.update(task, advance=1, refresh=True),
            )
        _move_into_place(writes, staging, options.out, files, owned)
    return BuildResult(
        tuple(pages), tuple(history), tuple(sorted(files)), tuple(extras), tuple(rules_of_play)
    )


def _asked(env: Environment, options: BuildOptions) -> BuildOptions:
    """What a build makes: a local-rule file's pages alone (its sheet, its list of trumps) when
    it names no edition or format; with `everything`, every built-in edition beside the ones
    named (edition files) and the file's."""
    if options.everything:
        editions = [
            *env.builtin_editions(),
            *(e for e in options.editions if e not in env.builtin_editions()),
        ]
        return replace(options, editions=tuple(editions))
    if options.rules is None or options.editions or options.formats:
        return options
    declared = rules_format(options.rules)
    return options if declared is None else replace(options, formats=(declared,))


def _owned(out: Path, force: bool, problems: list[Diagnostic]) -> set[Path]:
    """The files earlier builds wrote into out; a folder no build made must be empty (or forced)."""
    manifest = out / MANIFEST
    if manifest.is_file():
        try:
            listed = json.loads(manifest.read_text(encoding="utf-8"))
            return {Path(name) for name in listed if isinstance(name, str)}
        except (OSError, ValueError, TypeError):
            pass  # unreadable: treated as a folder no build made
    if out.is_dir() and any(not _leftover(p) for p in out.iterdir()) and not force:
        message = (
            "--out: the folder is not empty and holds no site built here; give a new or empty folder, "
            "or --force to write the site's files into it (nothing else is touched)"
        )
        problems.append(Diagnostic(Location(display(out), 1, 1), message))
    return set()


def _site_files(
    pages: Sequence[Page],
    history: Sequence[ChangesPage],
    extras: Sequence[ExtraPage],
    rules_of_play: Sequence[RegulationsPage],
    html_only: bool,
) -> list[Path]:
    """The files a build writes, relative to the output folder (the manifest aside)."""
    sheets: list[Page | ExtraPage | RegulationsPage] = [*pages, *extras, *rules_of_play]
    pdfs = [] if html_only else [Path(s.path).with_name(n) for s in sheets for n in astuple(pdf_names(s))]
    return [
        *(Path("static", source.name) for source in _static_files()),
        *(Path(page.path) for page in [*pages, *history, *extras, *rules_of_play]),
        Path("index.html"),
        *pdfs,
    ]


def _static_files() -> list[Traversable]:
    return [s for s in resources.files("blackpoker.site").joinpath("static").iterdir() if s.is_file()]


def _move_into_place(
    plan: WritePlan, staging: Path, out: Path, files: Sequence[Path], owned: set[Path]
) -> None:
    """Each staged file replaces its namesake by one rename; the index comes last, then the manifest."""
    for rel in sorted(files, key=lambda r: (r == Path("index.html"), r)):
        plan.move(staging / rel, out / rel)
    listed = json.dumps(sorted(str(p) for p in owned | set(files)), indent=1)
    plan.write(out / MANIFEST, listed + "\n")


def _write_html(
    root: Path,
    pages: Sequence[Page],
    history: Sequence[ChangesPage],
    extras: Sequence[ExtraPage],
    rules_of_play: Sequence[RegulationsPage],
    options: BuildOptions,
    owned: set[Path],
) -> list[Path]:
    static = root / "static"
    static.mkdir()
    files = []
    for source in _static_files():
        (static / source.name).write_bytes(source.read_bytes())
        files.append(Path("static", source.name))

    def with_pdf(page: Page | ExtraPage | RegulationsPage) -> bool:
        return not options.html_only or _has_pdfs(options.out, owned, page)

    for page in pages:
        target = root / page.path
        target.parent.mkdir(exist_ok=True)
        html = render_sheet(page, options.base_url, with_pdf(page), options.beta)
        target.write_text(html, encoding="utf-8")
        files.append(Path(page.path))
    for change in history:
        target = root / change.path
        target.parent.mkdir(exist_ok=True)
        target.write_text(render_diff(change.diff, index="../index.html"), encoding="utf-8")
        files.append(Path(change.path))
    for extra in extras:
        target = root / extra.path
        target.parent.mkdir(exist_ok=True)
        target.write_text(render_extra(extra, with_pdf(extra), options.beta), encoding="utf-8")
        files.append(Path(extra.path))
    for regulations in rules_of_play:
        target = root / regulations.path
        target.parent.mkdir(exist_ok=True)
        target.write_text(render_regulations(regulations, with_pdf(regulations)), encoding="utf-8")
        files.append(Path(regulations.path))
    links = [addition.link for addition in options.additions if addition.link is not None]
    index = render_index(pages, history, with_pdf, extras, rules_of_play, links)
    (root / "index.html").write_text(index, encoding="utf-8")
    return [*files, Path("index.html")]


def _has_pdfs(out: Path, owned: set[Path], page: Page | ExtraPage | RegulationsPage) -> bool:
    """Whether an earlier build left the page's PDFs in out: an HTML-only rebuild keeps linking them."""
    names = pdf_names(page)
    pdfs = [Path(page.path).with_name(name) for name in (names.a4, names.two_up)]
    return all(pdf in owned and (out / pdf).is_file() for pdf in pdfs)


def _write_pdfs(
    root: Path,
    pages: Sequence[Page | ExtraPage | RegulationsPage],
    workers: int | None,
    advance: Callable[[], None],
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
def _staging(plan: WritePlan, out: Path) -> Iterator[Path]:
    """A fresh folder inside out (same file system, so moving a file out of it is a rename)."""
    plan.make(out)
    for leftover in filter(_leftover, out.iterdir()):
        shutil.rmtree(leftover, ignore_errors=True)
    staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
    (staging / STAGING_MARK).touch()
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        plan.undo()  # the folders made for the site, when nothing went into them
        raise
    shutil.rmtree(staging, ignore_errors=True)


def _leftover(path: Path) -> bool:
    """A staging folder left behind by a build that was killed."""
    return path.name.startswith(STAGING_PREFIX) and not path.is_symlink() and (path / STAGING_MARK).is_file()


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
