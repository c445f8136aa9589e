"""`build --out` writes only the site's own files and keeps everything else in the folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from bad_input_support import invoke, tree
from blackpoker.site.build import MANIFEST, STAGING_MARK, STAGING_PREFIX
from editions_support import EDITIONS, formats

# The edition folder the tests look into, its smallest format and a larger one.
EDITION = EDITIONS[0]
SMALL, LARGE = formats(EDITION)[0], formats(EDITION)[-1]


def build(out: Path, *args: str) -> tuple[int, str]:
    result = invoke("build", "--html-only", "--out", out, *args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result.exit_code, result.stderr


def snapshot(root: Path) -> dict[Path, bytes]:
    return {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def user_project(root: Path) -> dict[Path, bytes]:
    """A folder of someone's own files whose names a site build also uses."""
    for name, text in {
        "static/app.js": "console.log('mine')\n",
        f"{EDITION}/notes.txt": "my notes\n",
        ".staging-mine/draft.txt": "a draft\n",
        "README.md": "# my project\n",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return snapshot(root)


def test_non_empty_folder_no_build_made_is_refused(tmp_path: Path) -> None:
    before = user_project(tmp_path)
    code, stderr = build(tmp_path)
    assert code == 1
    assert "--out: the folder is not empty" in stderr and "nothing written" in stderr
    assert snapshot(tmp_path) == before


def test_forced_build_keeps_every_file_it_does_not_write(tmp_path: Path) -> None:
    before = user_project(tmp_path)
    code, stderr = build(tmp_path, "--force")
    assert code == 0, stderr
    after = snapshot(tmp_path)
    assert {p: after[p] for p in before} == before
    assert Path(f"{EDITION}/{SMALL}.html") in after and Path("static/sheet.css") in after


def test_out_dot_keeps_the_projects_static_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = user_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert build(Path("."))[0] == 1
    assert build(Path("."), "--force")[0] == 0
    assert (tmp_path / "static" / "app.js").read_bytes() == before[Path("static/app.js")]


def test_partial_build_keeps_the_pages_of_an_earlier_build(tmp_path: Path) -> None:
    assert build(tmp_path)[0] == 0
    pages = sorted(p.name for p in (tmp_path / EDITION).iterdir())
    code, stderr = build(tmp_path, "--format", LARGE)
    assert code == 0, stderr  # a folder the build made is not refused
    assert sorted(p.name for p in (tmp_path / EDITION).iterdir()) == pages
    manifest = json.loads((tmp_path / MANIFEST).read_text(encoding="utf-8"))
    assert f"{EDITION}/{SMALL}.html" in manifest and f"{EDITION}/{LARGE}.html" in manifest


def test_a_name_in_the_way_is_refused_before_anything_moves(tmp_path: Path) -> None:
    (tmp_path / EDITION).write_text("a file where the edition folder goes\n", encoding="utf-8")
    before = snapshot(tmp_path)
    code, stderr = build(tmp_path, "--force")
    assert code == 1 and "in the way" in stderr
    assert snapshot(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [EDITION]


def test_only_the_builds_own_staging_leftovers_are_removed(tmp_path: Path) -> None:
    assert build(tmp_path)[0] == 0
    killed = tmp_path / f"{STAGING_PREFIX}killed"
    killed.mkdir()
    (killed / STAGING_MARK).touch()
    (killed / f"{LARGE}.html").write_text("half written", encoding="utf-8")
    mine = tmp_path / f"{STAGING_PREFIX}mine"
    mine.mkdir()
    (mine / "keep.txt").write_text("not the build's\n", encoding="utf-8")
    assert build(tmp_path, "--format", LARGE)[0] == 0
    assert not killed.exists() and (mine / "keep.txt").exists()


# --- links inside the output folder --------------------------------------------------------


@pytest.mark.parametrize(
    ("link", "target", "message"),
    [
        (EDITION, "../elsewhere", "a symbolic link to elsewhere, outside the --out folder site"),
        (EDITION, "../elsewhere/missing", "a symbolic link to ../elsewhere/missing, which does not exist"),
        (EDITION, EDITION, "a loop of symbolic links"),
        ("static", "../elsewhere", "a symbolic link to elsewhere, outside the --out folder site"),
        ("index.html", "../elsewhere/index.html", "a symbolic link to elsewhere/index.html, outside"),
    ],
    ids=["folder-elsewhere", "dangling", "loop", "static-elsewhere", "page-elsewhere"],
)
def test_a_link_in_the_site_to_elsewhere_is_refused(
    link: str, target: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    site, elsewhere = Path("site"), Path("elsewhere")
    assert build(site, "--format", SMALL)[0] == 0
    elsewhere.mkdir()
    (elsewhere / "index.html").write_text("someone's page\n", encoding="utf-8")
    if (site / link).is_dir():
        shutil.rmtree(site / link)
    else:
        (site / link).unlink()
    (site / link).symlink_to(target)
    before = tree(tmp_path)
    code, stderr = build(site, "--format", SMALL)
    assert code == 1 and "Traceback" not in stderr
    assert f"site/{link}:1:1: --out: {message}" in stderr and "nothing written" in stderr
    assert tree(tmp_path) == before


def test_a_link_in_the_site_to_a_folder_inside_it_is_followed(tmp_path: Path) -> None:
    assert build(tmp_path, "--format", SMALL)[0] == 0
    (tmp_path / EDITION).rename(tmp_path / "pages")
    (tmp_path / EDITION).symlink_to("pages")
    code, stderr = build(tmp_path, "--format", LARGE)
    assert code == 0, stderr
    assert (tmp_path / EDITION).is_symlink() and (tmp_path / "pages" / f"{LARGE}.html").is_file()
