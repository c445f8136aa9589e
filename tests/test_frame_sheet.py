"""`build --frame ID`: the sheet of each format a frame (or option) is played with, its actions
added as the official site shows frame-dependent actions (each with the frames adding it); every
added action's name and text on the page, HTML and PDF; bad ids refused at the option.

Frames, options and actions are found in the regulation data by what they add, never by name."""

from __future__ import annotations

import dataclasses
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from bad_input_support import invoke
from blackpoker.compiler.documents.regulation import (
    Frame,
    Option,
    Regulations,
    adders,
    builtin_regulations,
    played_formats,
)
from blackpoker.runtime.rules.model import Action
from blackpoker.site.build import BuildOptions, build_site
from blackpoker.site.pages import Page
from click.testing import Result
from editions_support import EDITIONS, environment
from site_support import expected_strings, pdf_text, sentences, squash, text_content

PdfReader = pytest.importorskip(
    "pypdf", reason="the sheets' PDFs are read with pypdf, of the PDF extra: pip install -e '.[pdf]'"
).PdfReader

ADDING = [
    (regs, part)
    for regs in builtin_regulations()
    if regs.editions
    for part in (*regs.frames, *regs.options)
    if part.actions
]


def _expected(regs: Regulations, page: Page) -> list[str]:
    """What the page must print of the actions the frame adds: what any sheet prints of an
    action, its 起動条件, and the frames and options that add it."""
    assert page.frame is not None
    added = page.frame.actions
    strings = expected_strings(dataclasses.replace(page.ruleset, actions=added, characters=()))
    for action in added:
        strings += [squash(s) for s in sentences(action.activation_condition)]
        strings.append(squash("(フレーム)" + "".join(f"・{p.name}" for p in adders(regs, action.id))))
    return strings


def _build(out: Path, regs: Regulations, part: Frame | Option, html_only: bool = True) -> Page:
    fmt = played_formats(regs, part)[0]
    result = build_site(
        BuildOptions(out, (regs.editions[0],), (fmt.id,), html_only=html_only, frame=part.id, workers=1)
    )
    (page,) = [p for p in result.pages if p.frame is not None]
    return page


@pytest.mark.parametrize(("regs", "part"), ADDING, ids=[f"{r.id}-{p.id}" for r, p in ADDING])
def test_every_added_action_is_on_the_frames_sheet(
    tmp_path: Path, regs: Regulations, part: Frame | Option
) -> None:
    page = _build(tmp_path / "site", regs, part)
    assert page.frame is not None and [a.id for a in page.frame.actions] == list(part.actions)
    text = squash(text_content((tmp_path / "site" / page.path).read_text(encoding="utf-8")))
    assert [s for s in _expected(regs, page) if s not in text] == []
    plain = (tmp_path / "site" / page.edition / f"{page.ruleset.format.id}.html").read_text(encoding="utf-8")
    assert all(f'id="action-{a.id}"' not in plain for a in page.frame.actions)  # the format's own sheet
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert f'href="{page.path}"' in index and f"+ {part.name}" in index


def test_a_frame_is_built_only_for_the_formats_it_is_played_with(tmp_path: Path) -> None:
    regs, part = next((r, p) for r, p in ADDING if len(played_formats(r, p)) < len(r.formats))
    played = {f.id for f in played_formats(regs, part)}
    result = build_site(BuildOptions(tmp_path / "site", (regs.editions[0],), html_only=True, frame=part.id))
    built = {p.ruleset.format.id for p in result.pages if p.frame is not None}
    assert built == played


def test_the_frames_sheet_is_printed_as_pdf_a4_and_two_up(tmp_path: Path) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (apt-get install poppler-utils)")
    regs, part = ADDING[0]
    out = tmp_path / "site"
    page = _build(out, regs, part, html_only=False)
    a4, two_up = (out / page.path.replace(".html", suffix) for suffix in (".pdf", "-2up.pdf"))
    printed = squash(pdf_text(a4))
    assert [s for s in _expected(regs, page) if s not in printed] == []
    assert len(PdfReader(two_up).pages) == (len(PdfReader(a4).pages) + 1) // 2
    index = (out / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{pdf.relative_to(out).as_posix()}"' in index for pdf in (a4, two_up))


def refused(result: Result) -> Result:
    """Exit 1 by the reporter (an option's problem, `--frame: …`), no traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    return result


def test_an_unknown_frame_is_refused_naming_the_known_ones(tmp_path: Path) -> None:
    result = refused(invoke("build", "--frame", "no-such-frame", "--out", tmp_path / "site", "--html-only"))
    env = environment()  # the regulations every edition plays (a based edition's edited ones too)
    played = [r for e in EDITIONS if (r := env.edition_regulations(env.edition(e))) is not None]
    known = sorted({p.id for r in played for p in (*r.frames, *r.options)})
    assert f"--frame: unknown frame 'no-such-frame' (known: {', '.join(known)})" in result.stderr
    assert not (tmp_path / "site").exists()


def test_a_frame_played_with_none_of_the_formats_asked_for_is_refused(tmp_path: Path) -> None:
    regs, part = next((r, p) for r, p in ADDING if len(played_formats(r, p)) < len(r.formats))
    other = next(f for f in regs.formats if f not in played_formats(regs, part))
    args = ("build", "--edition", regs.editions[0], "--format", other.id, "--frame", part.id)
    result = refused(invoke(*args, "--out", tmp_path / "site", "--html-only"))
    assert f"--frame: '{part.id}' is played with none of the formats asked for ({other.id})" in result.stderr


@pytest.mark.parametrize(("regs", "part"), ADDING, ids=[f"{r.id}-{p.id}" for r, p in ADDING])
def test_a_frames_sheet_prints_each_group_and_action_once(
    tmp_path: Path, regs: Regulations, part: Frame | Option
) -> None:
    """A frame adding two actions of one type apart (レアカード操作 on both sides of 召喚) prints
    that type's group once, holding both."""
    page = _build(tmp_path / "site", regs, part)
    html = (tmp_path / "site" / page.path).read_text(encoding="utf-8")
    frame_list = html[html.index('id="frame-list"') :]
    groups = re.findall(r'<h3 id="frame-type-\d+">(.*?)</h3>', frame_list)
    assert len(groups) == len(set(groups)) == len({a.type for a in part_actions(page)})
    ids = re.findall(r'<article class="entry[^"]*" id="([^"]+)"', html)
    assert [id for id, n in Counter(ids).items() if n > 1] == []


def part_actions(page: Page) -> tuple[Action, ...]:
    assert page.frame is not None
    return page.frame.actions
