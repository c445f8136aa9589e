"""`blackpoker build`: the printable action-list site (HTML, A4 and 2-up PDFs)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click
from blackpoker.cli.options import EDITION_HELP, rules_option
from blackpoker.cli.outputs import Output
from blackpoker.cli.report import report
from blackpoker.compiler import CompileError
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.serve.bundle import PlayPage, PyodideMissing, play_page
from blackpoker.site.build import BuildOptions, BuildRefused, build_site
from blackpoker.site.fonts import FontMissing
from blackpoker.site.pdf_extra import PdfExtraMissing
from rich.console import Console


@click.command()
@click.option(
    "--edition",
    "editions",
    multiple=True,
    help=f"{EDITION_HELP} Repeatable. Default: every built-in edition.",
)
@click.option(
    "--format",
    "formats",
    multiple=True,
    help="Format id (lite, std, …), 'all', or the --rules file's format; repeatable. "
    "Default: every format and 'all'.",
)
@rules_option("A local-rule file (kind: overlay); its format gets a page too.")
@click.option(
    "--out",
    type=Output("folder"),
    default=Path("build/site"),
    show_default=True,
    help="Output folder; nothing is written outside it (nor through a symbolic link in it to elsewhere).",
)
@click.option(
    "--base-url",
    default="",
    help="URL the site will be served from: each sheet's QR code points to "
    "BASE_URL/<edition>/<format>.html. Default: that relative path alone.",
)
@click.option("--html-only", is_flag=True, help="Skip the PDFs (no WeasyPrint or Japanese font needed).")
@click.option(
    "--frame",
    metavar="ID",
    help="A frame or option of the editions' regulations (pack, …): each format it is played "
    "with gets a sheet with its actions added too (<edition>/<format>-<ID>.html).",
)
@click.option(
    "--beta/--release",
    default=False,
    help="A beta sheet marks in red the entries its version adds or updates (their since / "
    "updates name it); a release sheet (the default) prints them black.",
)
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help="Every built-in edition too (with --rules, which alone builds the file's pages only).",
)
@click.option(
    "--play",
    is_flag=True,
    help="Add play/index.html: a static page that plays the built-in editions against an agent in "
    "the browser, offline (Pyodide, from the npm package `pyodide`; docs/play.md).",
)
@click.option(
    "--pyodide",
    type=click.Path(file_okay=False, path_type=Path),
    help="With --play: the folder of the npm package `pyodide` (default: the one .ci/setup installs, "
    "else node_modules/pyodide here or above).",
)
@click.option(
    "--force", is_flag=True, help="Write into a non-empty --out folder that no build made (other files stay)."
)
def build(
    editions: tuple[str, ...],
    formats: tuple[str, ...],
    rules: Path | None,
    out: Path,
    base_url: str,
    html_only: bool,
    frame: str | None,
    beta: bool,
    everything: bool,
    play: bool,
    pyodide: Path | None,
    force: bool,
) -> None:
    """Build the action-list site: index, one page per edition and format, A4 and 2-up PDFs.

    With --edition or --rules, only the pages of what they name; --all adds every built-in edition."""
    try:
        additions = [_play_page(editions, pyodide)] if play else []
    except CompileError as error:
        report(error.diagnostics, "nothing written")
    except PyodideMissing as error:
        _stop(str(error))
    options = BuildOptions(
        out,
        editions,
        formats,
        rules,
        base_url,
        html_only,
        force=force,
        frame=frame,
        beta=beta,
        everything=everything,
        additions=additions,
    )
    console = Console(stderr=True)
    try:
        result = build_site(options, console)
    except (CompileError, BuildRefused) as error:
        report(error.diagnostics, "nothing written")
    except (FontMissing, PdfExtraMissing) as error:
        _stop(error.message)
    sheets = len(result.pages) + len(result.extras) + len(result.regulations)
    console.print(f"{sheets} page(s), {len(result.files)} files written to {out}/")
    console.print(f"open {out / 'index.html'}")


def _play_page(editions: tuple[str, ...], pyodide: Path | None) -> PlayPage:
    """The play page of the built-in editions the build names (none named: every one), each
    with its formats and, when it has an extra list, the extra format."""
    env = Environment()
    builtin = env.builtin_editions()
    offered = {
        edition: [
            *(f.id for f in env.edition(edition).edition.formats),
            *([EXTRA_FORMAT.id] if env.builtin_extras(edition) else []),
        ]
        for edition in [e for e in editions if e in builtin] or builtin
    }
    return play_page(env, offered, pyodide)


def _stop(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(1)
