"""`blackpoker build`: what it writes, where, and what it refuses."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest
from blackpoker.cli.main import main
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.pipeline import builtin_editions, compile_edition
from blackpoker.site.build import MANIFEST, STAGING_MARK, STAGING_PREFIX, BuildOptions, build_site
from click.testing import CliRunner
from editions_support import formats
from site_support import (
    EDITION,
    HOSTILE,
    OVERLAY,
    OVERLAY_NAME,
    SHEET,
    built_html,
    overlay_facts,
    run_cli,
    squash,
    text_content,
    write_overlay,
)


def files_under(root: Path) -> set[Path]:
    return {p.relative_to(root) for p in root.rglob("*")}


@pytest.fixture(scope="module")
def html_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_html(tmp_path_factory)


def test_index_links_every_format_of_every_edition(html_site: Path) -> None:
    index = (html_site / "index.html").read_text(encoding="utf-8")
    links = set(re.findall(r'href="([^"]+\.html)"', index))
    editions = builtin_editions()
    pages = {f"{e}/{f}.html" for e in editions for f in (*compile_edition(e), "all")}
    changes = {f"{e}/changes.html" for e in editions[:-1]}  # the oldest edition has none
    env = Environment()
    # the extra lists and regulations each edition plays (a based edition's inherited ones too)
    extras = {f"{e}/extra-{source.id}.html" for e in editions for source in env.extras(e)}
    regulations = {f"{e}/regulations.html" for e in editions if env.edition_regulations(env.edition(e))}
    assert links == pages | changes | extras | regulations
    assert all((html_site / link).is_file() for link in links)
    assert {"static/sheet.css", "static/sheet.js"} <= {str(p) for p in files_under(html_site)}


def test_html_only_build_makes_no_pdf_and_links_none(html_site: Path) -> None:
    assert not list(html_site.rglob("*.pdf"))
    assert ".pdf" not in (html_site / EDITION / f"{SHEET}.html").read_text(encoding="utf-8")


def test_all_page_lists_every_action_with_its_first_format(html_site: Path) -> None:
    page = squash(text_content((html_site / EDITION / "all.html").read_text(encoding="utf-8")))
    largest = list(compile_edition(EDITION).values())[-1]
    for action in largest.actions:
        debut = largest.debut(action)
        assert f"{debut.mark}{action.name}({action.type})[{debut.id}]" in page
    assert {largest.debut(a).mark for a in largest.actions} == {f.mark for f in largest.edition.formats}


def test_entries_carry_their_formats_for_the_filter(html_site: Path) -> None:
    html = (html_site / EDITION / "all.html").read_text(encoding="utf-8")
    largest = list(compile_edition(EDITION).values())[-1]
    later = next(a for a in largest.actions if largest.debut(a).id == SHEET)
    assert f'id="action-{later.id}" data-formats="{" ".join(later.formats)}"' in html
    for f in largest.edition.formats:
        assert f'<option value="{f.id}">{f.mark} {f.name} [{f.id}]</option>' in html


def test_selected_formats_only(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["build", "--out", str(tmp_path), "--format", SHEET, "--format", "all", "--html-only"]
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / EDITION).iterdir()) == sorted(["all.html", f"{SHEET}.html"])


def test_rebuild_replaces_the_site_and_leaves_no_staging_folder(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["build", "--out", str(tmp_path), "--html-only"]).exit_code == 0
    smallest = formats(EDITION)[0]
    (tmp_path / EDITION / f"{smallest}.html").write_text("stale", encoding="utf-8")
    result = runner.invoke(main, ["build", "--out", str(tmp_path), "--format", smallest, "--html-only"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [MANIFEST, "index.html", "static", *builtin_editions()]
    )
    assert (tmp_path / EDITION / f"{smallest}.html").read_text(encoding="utf-8") != "stale"
    # A partial build keeps the other pages of the earlier one.
    pages = {f"{f}.html" for f in formats(EDITION)} | {"all.html"}
    assert pages <= {p.name for p in (tmp_path / EDITION).iterdir()}


def test_build_clears_the_staging_folder_of_a_killed_build(tmp_path: Path) -> None:
    leftover = tmp_path / f"{STAGING_PREFIX}killed"
    leftover.mkdir()
    (leftover / STAGING_MARK).touch()
    (leftover / f"{SHEET}.html").write_text("half written", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path), "--format", SHEET, "--html-only"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [MANIFEST, "index.html", "static", *builtin_editions()]
    )


def test_full_build_writes_only_inside_out(tmp_path: Path) -> None:
    """A real process with its own TMPDIR, HOME and cache folder: all must stay empty."""
    cwd, tmp, home, cache, out = (tmp_path / name for name in ("cwd", "tmp", "home", "cache", "out"))
    for folder in (cwd, tmp, home, cache):
        folder.mkdir()
    overlay = write_overlay(tmp_path)
    env = {**os.environ, "TMPDIR": str(tmp), "HOME": str(home), "XDG_CACHE_HOME": str(cache)}
    result = run_cli("build", "--out", str(out), "--format", SHEET, "--rules", str(overlay), cwd=cwd, env=env)
    assert result.returncode == 0, result.stderr
    outside = (
        files_under(tmp_path)
        - {Path("out") / p for p in files_under(out)}
        - {Path("out"), Path(overlay.name)}
    )
    assert outside == {Path(name) for name in ("cwd", "tmp", "home", "cache")}
    assert {str(p) for p in files_under(out)} >= {
        "index.html",
        *(
            f"{EDITION}/{page}{suffix}"
            for page in (SHEET, OVERLAY_NAME)
            for suffix in (".html", ".pdf", "-2up.pdf")
        ),
    }
    assert not [p for p in files_under(out) if p.name.startswith(STAGING_PREFIX)]


def test_bad_overlay_exits_1_with_located_message_and_writes_nothing(tmp_path: Path) -> None:
    bad = write_overlay(tmp_path, OVERLAY.replace("timing: quick", "timing: sometimes"))
    out = tmp_path / "out"
    result = run_cli("build", "--out", str(out), "--rules", str(bad), cwd=tmp_path)
    assert result.returncode == 1
    assert re.search(rf"^{re.escape(OVERLAY_NAME)}\.yaml:\d+:\d+: .*timing", result.stderr, re.M), (
        result.stderr
    )
    assert not out.exists()


def test_failed_build_keeps_the_previous_site(tmp_path: Path) -> None:
    runner = CliRunner()
    assert (
        runner.invoke(main, ["build", "--out", str(tmp_path), "--format", SHEET, "--html-only"]).exit_code
        == 0
    )
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    result = runner.invoke(main, ["build", "--out", str(tmp_path), "--format", "nosuch"])
    assert result.exit_code == 1
    assert "nosuch" in result.output
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_overlay_text_is_escaped_not_markup(tmp_path: Path) -> None:
    overlay = write_overlay(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["build", "--out", str(out), "--rules", str(overlay), "--format", OVERLAY_NAME, "--html-only"]
    )
    assert result.exit_code == 0, result.output
    html = (out / EDITION / f"{OVERLAY_NAME}.html").read_text(encoding="utf-8")
    assert HOSTILE not in html and "<img src=x" not in html
    # Title (page title, heading, filter), new action's name and effect, changed note.
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 6
    assert HOSTILE in text_content(html) and "<img src=x onerror=alert(2)>" in text_content(html)
    removed = compile_edition(EDITION)[SHEET].action(overlay_facts()["removed"])
    assert removed.name not in text_content(html)


def test_missing_japanese_font_stops_the_pdf_build(tmp_path: Path) -> None:
    """A fontconfig that knows no font: the build must refuse rather than print boxes."""
    (tmp_path / "fonts.conf").write_text(
        f'<?xml version="1.0"?><fontconfig><dir>{tmp_path / "none"}</dir>'
        f"<cachedir>{tmp_path / 'fc-cache'}</cachedir></fontconfig>",
        encoding="utf-8",
    )
    env = {**os.environ, "FONTCONFIG_FILE": str(tmp_path / "fonts.conf")}
    out = tmp_path / "out"
    result = run_cli("build", "--out", str(out), "--format", SHEET, cwd=tmp_path, env=env)
    assert result.returncode == 1
    assert "apt-get install fonts-ipaexfont-gothic" in result.stderr
    assert not out.exists()
    html_only = run_cli("build", "--out", str(out), "--format", SHEET, "--html-only", cwd=tmp_path, env=env)
    assert html_only.returncode == 0, html_only.stderr


def test_base_url_sets_the_qr_target(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "build",
            "--out",
            str(tmp_path),
            "--format",
            SHEET,
            "--html-only",
            "--base-url",
            "https://example.org/bp/",
        ],
    )
    assert result.exit_code == 0, result.output
    html = (tmp_path / EDITION / f"{SHEET}.html").read_text(encoding="utf-8")
    assert f"<title>https://example.org/bp/{EDITION}/{SHEET}.html</title>" in html


def test_an_html_only_rebuild_keeps_the_links_to_the_pdfs_beside_it(tmp_path: Path) -> None:
    """PDFs an earlier build wrote (listed in the manifest, still there) stay linked from the
    pages and the index; a page whose PDFs are gone links none."""
    smallest = formats(EDITION)[0]
    options = BuildOptions(tmp_path, editions=(EDITION,), formats=(smallest, SHEET), workers=1)
    build_site(options)
    build_site(dataclasses.replace(options, html_only=True))
    page = (tmp_path / EDITION / f"{SHEET}.html").read_text(encoding="utf-8")
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert f'href="{SHEET}.pdf"' in page and f'href="{SHEET}-2up.pdf"' in page
    assert f'href="{EDITION}/{SHEET}.pdf"' in index
    (tmp_path / EDITION / f"{smallest}-2up.pdf").unlink()
    build_site(dataclasses.replace(options, html_only=True))
    assert ".pdf" not in (tmp_path / EDITION / f"{smallest}.html").read_text(encoding="utf-8")
    assert f'href="{EDITION}/{smallest}.pdf"' not in (tmp_path / "index.html").read_text(encoding="utf-8")
    assert f'href="{SHEET}.pdf"' in (tmp_path / EDITION / f"{SHEET}.html").read_text(encoding="utf-8")
