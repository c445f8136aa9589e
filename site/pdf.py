"""A4 PDFs of the sheets (WeasyPrint) and their 2-up versions (pypdf), rendered in parallel.

WeasyPrint lays out one document on one core, so each sheet is rendered in its own
process. On Linux the workers are forked from this process, which has already imported
WeasyPrint, so no worker pays for the import; fork needs no socket file in a temporary
folder (a fork server does), and the caller keeps no other thread running while the pool
forks (its progress bar refreshes by hand).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pypdf import PageObject, PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    IndirectObject,
    NameObject,
    PdfObject,
)
from weasyprint import HTML


@dataclass(frozen=True, slots=True)
class PdfJob:
    html: Path  # the sheet, already written with its stylesheet beside it
    a4: Path
    two_up: Path


# Tagged (its structure: headings, lists, one article per entry): screen readers read the sheet
# in order, and every character says which element it belongs to, which the layout tests read.
# PDF 1.4 has no object streams: pypdf then reads the catalog for the 2-up sheet without parsing
# the thousands of structure elements packed with it (5× faster; the file is about twice as big).
PDF_OPTIONS: dict[str, Any] = {"pdf_tags": True, "pdf_version": "1.4"}


def render(job: PdfJob) -> PdfJob:
    HTML(filename=job.html).write_pdf(job.a4, **PDF_OPTIONS)
    impose_two_up(job.a4, job.two_up)
    return job


def impose_two_up(source: Path, target: Path) -> None:
    """Two pages side by side on one landscape sheet of the same paper, as the official 2up files.

    A4 halves are A5, so each page is scaled by 1/√2 and fills its half exactly. Each page
    is placed as a form XObject, its content stream copied as is: pypdf's merge_page would
    parse and rewrite every stream, five times slower.
    """
    reader = PdfReader(source)
    writer = PdfWriter()
    for first in range(0, len(reader.pages), 2):
        pair = reader.pages[first : first + 2]
        width, height = float(pair[0].mediabox.width), float(pair[0].mediabox.height)
        slot = height / 2
        scale = min(slot / width, width / height)
        forms = DictionaryObject()
        drawing = []
        for index, page in enumerate(pair):
            name = f"/Page{index}"
            forms[NameObject(name)] = _form(writer, page)
            x, y = index * slot + (slot - width * scale) / 2, (width - height * scale) / 2
            drawing.append(f"q {scale:.6f} 0 0 {scale:.6f} {x:.3f} {y:.3f} cm {name} Do Q")
        sheet = writer.add_blank_page(width=height, height=width)
        sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): forms})
        content = DecodedStreamObject()
        content.set_data("\n".join(drawing).encode("ascii"))
        sheet[NameObject("/Contents")] = writer._add_object(content)
    if reader.metadata:
        writer.add_metadata(reader.metadata)
    with target.open("wb") as file:
        writer.write(file)


def _form(writer: PdfWriter, page: PageObject) -> IndirectObject:
    """The page as a form XObject in writer (pypdf has no public call to add a stream object)."""
    form = DecodedStreamObject()
    contents = page.get_contents()
    assert contents is not None  # a rendered page always has content
    form.set_data(contents.get_data())
    form.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject(FloatObject(v) for v in page.mediabox),
            NameObject("/Resources"): _resources(page).clone(writer),
        }
    )
    return writer._add_object(form.flate_encode())


def render_all(jobs: Sequence[PdfJob], done: Callable[[PdfJob], None], workers: int | None = None) -> None:
    """Render every job, calling done(job) as each finishes; the biggest sheets start first."""
    ordered = sorted(jobs, key=lambda job: job.html.stat().st_size, reverse=True)
    workers = min(len(ordered), workers or os.cpu_count() or 1)
    if workers <= 1:
        for job in ordered:
            done(render(job))
        return
    with worker_pool(workers) as pool:
        for future in as_completed([pool.submit(render, job) for job in ordered]):
            done(future.result())


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A pool whose workers end with this process, even when it is killed outright (SIGKILL)."""
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=_context(), initializer=_die_with_parent, initargs=(os.getpid(),)
    )


def _die_with_parent(parent: int) -> None:
    # SIGKILL runs no cleanup in the parent, so the kernel must end the workers: Linux sends
    # the signal set with prctl(PR_SET_PDEATHSIG) when the parent dies. Elsewhere (spawned
    # workers) the pool's own pipes end them when the parent goes.
    if sys.platform != "linux":
        return
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


_PR_SET_PDEATHSIG = 1  # from <sys/prctl.h>


def _context() -> multiprocessing.context.BaseContext:
    # Elsewhere fork is unsafe (macOS) or missing (Windows): spawned workers import WeasyPrint themselves.
    return multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")


def _resources(page: PageObject) -> PdfObject:
    resources = page["/Resources"].get_object()
    assert resources is not None  # WeasyPrint gives every page its resources
    return resources
