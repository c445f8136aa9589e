"""The layout of every page `blackpoker build` writes, checked by machine (tests/layout_support.py):
the official site (every edition's formats, `all`, extra lists, regulations and 変更履歴), the
sheets of every frame and option that adds actions (`--frame`), and of every example local rule
(`--rules`). Each is built once per session, with its PDFs; a broken copy of the templates proves
that every check can fail.

The PDFs are read with pdfplumber, the HTML pages measured in Debian's Chromium (skipped only
when chromium or playwright is missing: CI installs both)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from blackpoker.compiler.environment import Environment
from blackpoker.site.build import BuildResult
from blackpoker.site.pages import ExtraPage, Page, RegulationsPage
from layout_support import browser_problems, html_entries, pdf_problems
from site_support import BUILDS, built

pytest.importorskip("pdfplumber", reason="pdfplumber is not installed (pip install 'blackpoker[test]')")
if shutil.which("pdftotext") is None:
    pytest.skip("pdftotext is not installed (apt-get install poppler-utils)", allow_module_level=True)


def expected_ids(page: Page | ExtraPage | RegulationsPage) -> list[str]:
    """The articles a page's data gives it: each action of the edition's sections, character
    and fog of a sheet, and a frame's actions; each trump operation, trump, and trump's action
    and character of an extra list; each match form, frame, option and added action of regulations."""
    if isinstance(page, Page):
        rules = page.ruleset
        added = page.frame.actions if page.frame else ()
        # a trump's actions (an extra-based local rule) are its extra list's, printed there
        listed = [a for a in rules.actions if a.section in rules.edition.sections or a in added]
        return [
            *(f"action-{a.id}" for a in listed),
            *(f"character-{c.id}" for c in rules.characters),
            *(f"fog-{f.id}" for f in rules.fogs),
        ]
    if isinstance(page, ExtraPage):
        ids = [f"action-{a.id}" for a in page.extra.operations]
        for trump in (t for t in page.extra.trumps if t.output):
            ids += [f"trump-{trump.id}", *(f"action-{a.id}" for a in trump.actions)]
            ids += [
                f"character-{c.rule.id if c.rule else f'{trump.id}-{n}'}"
                for n, c in enumerate(trump.characters, 1)
            ]
        return ids
    regulations = page.regulations
    return [
        *(f"match-{m.id}" for m in regulations.matches),
        *(f"frame-{f.id}" for f in regulations.frames),
        *(f"option-{o.id}" for o in regulations.options),
        *(f"action-{a.id}" for a in regulations.actions),  # the actions frames and options add
    ]


def sheets(result: BuildResult) -> list[Page | ExtraPage | RegulationsPage]:
    return [*result.pages, *result.extras, *result.regulations]


@pytest.mark.parametrize("name", list(BUILDS))
def test_every_page_prints_each_entry_of_its_data_once(
    tmp_path_factory: pytest.TempPathFactory, name: str
) -> None:
    out, result = built(tmp_path_factory, name)
    wrong = {}
    for page in sheets(result):
        printed = Counter(entry.id for entry in html_entries((out / page.path).read_text(encoding="utf-8")))
        wanted = Counter(expected_ids(page))
        if printed != wanted:
            wrong[page.path] = (sorted((printed - wanted).elements()), sorted((wanted - printed).elements()))
    assert wrong == {}, "page: (printed too often or not in the data, missing)"


@pytest.mark.parametrize("name", list(BUILDS))
def test_every_pdf_is_laid_out_cleanly(tmp_path_factory: pytest.TempPathFactory, name: str) -> None:
    out, result = built(tmp_path_factory, name)
    checked = set()
    problems = []
    for page in sheets(result):
        a4 = (out / page.path).with_suffix(".pdf")
        two_up = a4.with_name(f"{a4.stem}-2up.pdf")
        problems += pdf_problems(a4, html_entries((out / page.path).read_text(encoding="utf-8")), two_up)
        checked |= {a4.relative_to(out), two_up.relative_to(out)}
    assert {f for f in result.files if f.suffix == ".pdf"} == checked  # every PDF the build wrote
    assert problems == []


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from browser_support import CHROMIUM, FLAGS, sync_api

    profile = tmp_path_factory.mktemp("chromium-layout")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            viewport={"width": 1280, "height": 900},
        )
        page = context.new_page()
        yield page
        context.close()


@pytest.mark.parametrize("name", list(BUILDS))
def test_every_html_page_is_laid_out_cleanly_in_chromium(
    tmp_path_factory: pytest.TempPathFactory, browser: object, name: str
) -> None:
    out, result = built(tmp_path_factory, name)
    pages = [out / f for f in result.files if f.suffix == ".html"]
    assert len(pages) >= len(sheets(result))
    assert [p for page in pages for p in browser_problems(browser, page)] == []


# --- a broken copy of the templates: every check must fail on it ----------------------------------

BROKEN_CSS = """
/* each rule breaks one thing the layout checks look for */
@media print {
  rt { bottom: auto; top: 100%; }                     /* the reading below its name */
  .entry-head.with-ruby + * { margin-top: 0; }
  .entry.action:nth-of-type(2) { display: none; }     /* an entry the page has, not printed */
}
.entry + .entry { margin-top: -4mm; }                 /* entries on top of each other */
h3 .suit { background: none; }                        /* suits on the dark band */
.sheet-header { margin-left: -14mm; }                 /* text past the paper's edge */
"""


def _broken_package(folder: Path) -> Path:
    """A copy of the package whose site templates are broken: every folder of the checkout is
    linked but site/, which is copied and spoilt."""
    import blackpoker.site

    site = Path(blackpoker.site.__file__).parent
    root = folder / "blackpoker"
    root.mkdir(parents=True)
    for entry in site.parent.iterdir():
        if entry.name not in ("site", ".git") and entry.is_dir():
            (root / entry.name).symlink_to(entry)
    shutil.copytree(site, root / "site")
    css = root / "site" / "static" / "sheet.css"
    css.write_text(css.read_text(encoding="utf-8") + BROKEN_CSS, encoding="utf-8")
    sheet = root / "site" / "templates" / "sheet.html"  # the first fog printed twice
    text = sheet.read_text(encoding="utf-8").replace(
        "{% for fog in fogs %}", "{% for fog in fogs + fogs[:1] %}"
    )
    sheet.write_text(text, encoding="utf-8")
    return folder


def _edition_with(env: Environment, wanted: str) -> str:
    """The newest built-in edition with ルビ and fogs, or with an extra list."""
    for edition in env.builtin_editions():
        source = env.edition(edition)
        if wanted == "ruby" and any(a.ruby for a in source.actions) and source.fogs:
            return edition
        if wanted == "extra" and env.builtin_extras(edition):
            return edition
    raise AssertionError(f"no built-in edition has {wanted}")


def test_every_check_fails_on_a_broken_template(tmp_path: Path, browser: object) -> None:
    env = Environment()
    ruby, extra = _edition_with(env, "ruby"), _edition_with(env, "extra")
    big = env.edition(ruby).edition.formats[-1].id
    out = tmp_path / "site"
    command = [
        sys.executable, "-c", "from blackpoker.cli.main import main; main()", "build", "--out", str(out),
        "--edition", ruby, "--edition", extra, "--format", big, "--format", "extra",
    ]  # fmt: skip
    package = _broken_package(tmp_path / "package")
    done = subprocess.run(
        command, env={**os.environ, "PYTHONPATH": str(package)}, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    pages = [out / ruby / f"{big}.html", next((out / extra).glob("extra-*.html"))]
    ids = Counter(entry.id for entry in html_entries(pages[0].read_text(encoding="utf-8")))
    assert [id for id, n in ids.items() if n > 1]  # what the data check finds: an entry twice
    in_pdf = "\n".join(
        problem
        for page in pages
        for problem in pdf_problems(page.with_suffix(".pdf"), html_entries(page.read_text(encoding="utf-8")))
    )
    for kind in (
        "outside the printable area",
        "of different entries overlap",
        "ルビ",
        "printed entries",
        "contrast",
    ):
        assert kind in in_pdf, kind
    in_browser = "\n".join(problem for page in pages for problem in browser_problems(browser, page))
    for kind in ("text outside the page", "overlap", "ルビ", "contrast"):
        assert kind in in_browser, kind
