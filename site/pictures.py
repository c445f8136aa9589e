"""The pictures of docs/sheets.md: the first page of each kind of sheet, as printed.

    python3 -m blackpoker.site.pictures [--out docs/images] [--rules examples/my-std.yaml]

Builds the newest built-in edition's sheets with their PDFs into a temporary folder (a format
sheet, the `all` sheet, an extra list, a frame's sheet, the regulations and a local rule) and
turns each A4 PDF's first page into a PNG with poppler's pdftoppm; the 変更履歴 page, which has
no PDF, is taken by headless Chromium. Needs what a PDF build needs, plus poppler-utils and
chromium.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import yaml
from blackpoker.compiler.documents.regulation import builtin_regulations, parts, played_formats
from blackpoker.compiler.environment import Environment
from blackpoker.site.build import BuildOptions, build_site
from rich.console import Console

RESOLUTION = 60  # dpi: a whole A4 page in about 500 × 700 pixels


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"), help="where the PNGs go")
    parser.add_argument(
        "--rules", type=Path, default=Path("examples/my-std.yaml"), help="the local rule shown"
    )
    args = parser.parse_args(argv)
    for tool in ("pdftoppm", "chromium"):
        if shutil.which(tool) is None:
            parser.exit(1, f"{tool} is not installed (apt-get install poppler-utils chromium)\n")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        for name, page in _sheets(Path(folder), args.rules).items():
            target = args.out / f"sheet-{name}.png"
            if page.suffix == ".pdf":
                _pdf_picture(page, target)
            else:
                _browser_picture(page, target)
            print(target)


def _sheets(folder: Path, rules: Path) -> dict[str, Path]:
    """Each kind of page by name → its A4 PDF (its HTML for the 変更履歴), built into folder."""
    env = Environment()
    newest = env.builtin_editions()[0]
    formats = [f.id for f in env.edition(newest).edition.formats]
    sheet = formats[1] if len(formats) > 1 else formats[0]  # one that prints two formats' marks
    quiet = Console(quiet=True)
    out = folder / "site"
    result = build_site(BuildOptions(out, (newest,), (), workers=None), quiet, env)
    pictures = {"format": out / newest / f"{sheet}.pdf", "all": out / newest / "all.pdf"}
    for history in result.changes[:1]:
        pictures["changes"] = out / history.path
    for regulations in result.regulations[:1]:
        pictures["regulations"] = (out / regulations.path).with_suffix(".pdf")
    extras = build_site(BuildOptions(folder / "extra", (), ("extra",)), quiet).extras
    edition_extras = [page for page in extras if page.extra.edition_id] or list(extras)
    if edition_extras:
        pictures["extra"] = (folder / "extra" / edition_extras[0].path).with_suffix(".pdf")
    frame = next(
        (
            (regulations.editions[0], part.id, played_formats(regulations, part)[-1].id)
            for regulations in builtin_regulations()
            if regulations.editions
            for part in parts(regulations)
            if part.actions
        ),
        None,
    )
    if frame is not None:
        edition, part, played = frame
        framed = build_site(BuildOptions(folder / "frame", (edition,), (played,), frame=part), quiet)
        (page,) = [p for p in framed.pages if p.frame is not None]
        pictures["frame"] = (folder / "frame" / page.path).with_suffix(".pdf")
    house = build_site(BuildOptions(folder / "rules", formats=(_format_of(rules),), rules=rules), quiet)
    pictures["local-rule"] = (folder / "rules" / house.pages[0].path).with_suffix(".pdf")
    return pictures


def _format_of(rules: Path) -> str:
    name = yaml.safe_load(rules.read_text(encoding="utf-8")).get("name")
    return str(name)


def _pdf_picture(pdf: Path, target: Path) -> None:
    stem = target.with_suffix("")
    command = ["pdftoppm", "-png", "-r", str(RESOLUTION), "-f", "1", "-l", "1", "-singlefile", str(pdf)]
    subprocess.run([*command, str(stem)], check=True)


def _browser_picture(page: Path, target: Path) -> None:
    chromium = shutil.which("chromium") or "chromium"
    with tempfile.TemporaryDirectory() as profile:
        command = [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--user-data-dir={profile}", "--window-size=900,1200", f"--screenshot={target}", page.as_uri(),
        ]  # fmt: skip
        subprocess.run(command, check=True, capture_output=True)


if __name__ == "__main__":
    main()
