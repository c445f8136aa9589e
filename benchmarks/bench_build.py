"""Time `blackpoker build` of every page of every built-in edition: HTML only, and with all PDFs.

Run: python benchmarks/bench_build.py [--runs N] [--html-only] [--formats lite,std] [--editions v7]
Goals: HTML of every edition (sheets, index, 変更履歴 pages) ≤ 1 s; HTML + A4 + 2-up PDFs
≤ 10 s per edition on 2 cores. Each run builds into a fresh temporary folder, and compiles
the editions anew (a build owns its environment), as a user's command does. Each figure is
also given per sheet (a page with PDFs: formats, `all`, extra lists, regulations).

`--phases` times what a PDF costs, on one core, sheet by sheet: WeasyPrint's layout, writing
the tagged PDF, and the 2-up imposition (the PDF layout share of the build).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import results
from blackpoker.compiler.pipeline import builtin_editions
from blackpoker.site.build import BuildOptions, build_site
from rich.console import Console

GOALS = {"html": 1.0, "pdf": 10.0}  # seconds, median: HTML of all editions; PDF per edition
METRICS = {"build.html": "s", "build.pdf_per_edition": "s"}


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the PDF workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def time_build(html_only: bool, editions: Sequence[str], formats: Sequence[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one build into a fresh temporary folder."""
    with tempfile.TemporaryDirectory() as folder:
        start, start_cpu = time.perf_counter(), cpu_seconds()
        options = BuildOptions(Path(folder), editions=editions, formats=formats, html_only=html_only)
        build_site(options, Console(quiet=True))
        return time.perf_counter() - start, cpu_seconds() - start_cpu


def html_build(folder: Path, editions: Sequence[str], formats: Sequence[str]) -> list[Path]:
    """The HTML of every page that gets PDFs (formats, `all`, extra lists, regulations)."""
    result = build_site(BuildOptions(folder, editions, formats, html_only=True), Console(quiet=True))
    return [folder / page.path for page in (*result.pages, *result.extras, *result.regulations)]


def sheet_count(editions: Sequence[str], formats: Sequence[str]) -> int:
    with tempfile.TemporaryDirectory() as folder:
        return len(html_build(Path(folder), editions, formats))


def time_phases(editions: Sequence[str], formats: Sequence[str]) -> dict[str, float]:
    """Seconds spent, on one core, in each phase of every sheet's PDFs."""
    from blackpoker.site.pdf import PDF_OPTIONS, impose_two_up
    from weasyprint import HTML

    spent = dict.fromkeys(("layout", "write", "2-up"), 0.0)
    with tempfile.TemporaryDirectory() as folder:
        for html in html_build(Path(folder), editions, formats):
            start = time.perf_counter()
            document = HTML(filename=html).render()
            laid_out = time.perf_counter()
            document.write_pdf(html.with_suffix(".pdf"), **PDF_OPTIONS)
            written = time.perf_counter()
            impose_two_up(html.with_suffix(".pdf"), html.with_name(f"{html.stem}-2up.pdf"))
            spent["layout"] += laid_out - start
            spent["write"] += written - laid_out
            spent["2-up"] += time.perf_counter() - written
    return spent


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--html-only", action="store_true", help="time the HTML build only")
    parser.add_argument("--formats", default="", help="comma-separated format ids (default: every one)")
    parser.add_argument("--editions", default="", help="comma-separated edition ids (default: every one)")
    parser.add_argument("--phases", action="store_true", help="time layout, writing and 2-up per sheet")
    results.add_option(parser)
    args = parser.parse_args(argv)
    runs, formats = args.runs, tuple(f for f in args.formats.split(",") if f)
    editions = tuple(e for e in args.editions.split(",") if e) or builtin_editions()
    pages = ", ".join(formats) if formats else "all formats + all page + 変更履歴"
    sheets = sheet_count(editions, formats)
    print(f"editions {', '.join(editions)}: {pages} ({sheets} sheets), {runs} runs, {os.cpu_count()} cores")
    if args.phases:
        phases = [time_phases(editions, formats) for _ in range(runs)]
        total = statistics.median(sum(p.values()) for p in phases)
        for phase in phases[0]:
            median = statistics.median(p[phase] for p in phases)
            share = f"{median / sheets:.3f} s a sheet, {median / total:.0%}"
            print(f"{phase:>6}: median {median:.2f} s ({share})")
        return
    kinds = (("html", True),) if args.html_only else (("html", True), ("pdf", False))
    if args.html_only:
        results.missing(args.results, METRICS, "build.pdf_per_edition", "--html-only")
    for kind, html_only in kinds:
        walls, cpus = zip(*(time_build(html_only, editions, formats) for _ in range(runs)), strict=True)
        median = statistics.median(walls)
        goal = GOALS[kind] * (len(editions) if kind == "pdf" else 1)
        metric, figure = (
            ("build.html", median) if html_only else ("build.pdf_per_edition", median / len(editions))
        )
        results.write(
            args.results, METRICS, metric, figure, runs, f"{len(editions)} editions, {sheets} sheets"
        )
        verdict = "ok" if median <= goal else f"over the {goal:g} s goal"
        cpu = statistics.median(cpus)
        print(
            f"{kind:>4}: median {median:.2f} s wall, {cpu:.2f} s CPU"
            f" ({median / sheets:.3f} s wall, {cpu / sheets:.3f} s CPU a sheet)"
            f"  (wall runs: {' '.join(f'{t:.2f}' for t in walls)})  {verdict}"
        )
    # Other load on the machine stretches wall time; CPU time shows what the build itself costs.


if __name__ == "__main__":
    main()
