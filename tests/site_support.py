"""Shared helpers of the tests/test_site_*.py files: one build per session, text extraction."""

from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from blackpoker.compiler.documents.regulation import builtin_regulations, played_formats
from blackpoker.runtime.rules.model import Action, Character, RuleSet, Speed, Timing, Trigger
from blackpoker.site.build import BuildOptions, BuildResult, build_site
from editions_support import compiled, formats, reference_edition

# The list markers of the data's rule text (see site/markup.py): the sheet prints them as list numbering.
_MARKER = re.compile(r"^-*(?:[0-9０-９]+[.．]|[A-Za-zＡ-Ｚ][.．]|・)")
BULLET, NUMBER, LETTER = (
    re.compile(p) for p in (r"^・(.+)", r"^-[0-9０-９]+[.．](.+)", r"^--[A-Za-zＡ-Ｚ][.．](.+)")
)


def nested_lists(text: str) -> tuple[str, str, str] | None:
    """(bullet, number, letter): the texts of a bulleted line, the first numbered line below it
    and the first lettered line below that, when the text nests all three kinds of list."""
    lines = text.splitlines()
    for n, line in enumerate(lines):
        number = NUMBER.match(line)
        bullet = BULLET.match(lines[n - 1]) if n else None
        letter = next((m for m in map(LETTER.match, lines[n + 1 :]) if m), None)
        if number and bullet and letter:
            return bullet[1], number[1], letter[1]
    return None


def entry_texts(entry: Action | Character) -> tuple[str, ...]:
    return (
        (entry.note, entry.effect, entry.target) if isinstance(entry, Action) else (entry.note, entry.ability)
    )


# The edition of the sheet tests: the newest whose sheet shows every kind of list; and its
# sheet: the smallest format that also prints entries of a smaller one, so that the marks and
# tags of two formats show.
EDITION = reference_edition(
    lambda rulesets: any(
        nested_lists(text)
        for entry in (*list(rulesets.values())[1].actions, *list(rulesets.values())[1].characters)
        for text in entry_texts(entry)
    )
)
SHEET = formats(EDITION)[1]

HOSTILE = "<script>alert(1)</script>"
# The words of the usage line, 直接・通常・メイン, as the sheets print them.
TRIGGERS = {Trigger.DIRECT: "直接", Trigger.EFFECT: "効果", Trigger.TRIGGERED: "誘発"}
SPEEDS = {Speed.IMMEDIATE: "即時", Speed.NORMAL: "通常"}
TIMINGS = {Timing.MAIN: "メイン", Timing.QUICK: "クイック"}

# A local rule with markup in its title, a new action's name and effect, and a changed note; it
# changes the first action of its base format and removes the last.
OVERLAY_NAME = "my-rules"
OVERLAY = """\
kind: overlay
name: my-rules
title: "{hostile}"
edition: {edition}
base: {base}
actions:
  add:
    - id: hostileSpell
      name: "{hostile}"
      type: {type}
      section: {section}
      timing: quick
      speed: normal
      effect: "効果 {hostile} と <img src=x onerror=alert(2)>"
  change:
    {changed}:
      note: "※{hostile}"
  remove: [{removed}]
"""


def overlay_facts() -> dict[str, str]:
    """What the overlay names: its edition, base format, and the actions it changes and removes."""
    base = compiled(EDITION)[SHEET]
    return {
        "edition": EDITION,
        "base": SHEET,
        "type": base.edition.action_types[0],
        "section": base.edition.sections[0],
        "changed": base.actions[0].id,
        "removed": removed(base).id,
    }


def removed(base: RuleSet) -> Action:
    """The action the overlay removes: the last whose name no other entry's text mentions, so
    that the page without it shows its name nowhere."""
    texts = [text for entry in (*base.actions, *base.characters) for text in entry_texts(entry)]
    return next(a for a in reversed(base.actions) if not any(a.name in text for text in texts if text))


def write_overlay(folder: Path, text: str = OVERLAY) -> Path:
    path = folder / f"{OVERLAY_NAME}.yaml"
    path.write_text(text.format(hostile=HOSTILE.replace('"', '\\"'), **overlay_facts()), encoding="utf-8")
    return path


def built_sheet(factory: pytest.TempPathFactory) -> Path:
    """The sheet of `EDITION` in format `SHEET` with its PDFs, built once per test session."""
    return _built(
        factory.getbasetemp() / "sheet-site", formats=(SHEET,), html_only=False, editions=(EDITION,)
    )


def built_html(factory: pytest.TempPathFactory) -> Path:
    """Every page of every built-in edition (HTML only), built once per test session."""
    return _built(factory.getbasetemp() / "html-site", editions=(), formats=(), html_only=True)


@cache  # keyed by the session's temporary folder: one build per session and kind
def _built(out: Path, formats: tuple[str, ...], html_only: bool, editions: tuple[str, ...]) -> Path:
    build_site(BuildOptions(out, editions=editions, formats=formats, html_only=html_only))
    return out


def _builds() -> dict[str, dict[str, Any]]:
    """Every kind of build the layout tests check, by name → its BuildOptions: the official
    site; each frame or option that adds actions (`--frame`), with the editions that have it
    and the biggest format it is played with; each example local rule (`--rules`), its own page."""
    builds: dict[str, dict[str, Any]] = {"official": {}}
    frames: dict[str, tuple[dict[str, None], dict[str, None]]] = {}
    for regulations in builtin_regulations():
        for part in (*regulations.frames, *regulations.options):
            if part.actions and regulations.editions:
                editions, played = frames.setdefault(part.id, ({}, {}))
                editions.update(dict.fromkeys(regulations.editions))
                played.update(dict.fromkeys(f.id for f in played_formats(regulations, part)))
    for id, (editions, played) in frames.items():
        # the biggest format it is played with: its sheets hold the most, and the build stays small
        builds[f"frame-{id}"] = {"frame": id, "editions": tuple(editions), "formats": tuple(played)[-1:]}
    for example in sorted(EXAMPLES.glob("*.yaml")):
        name = yaml.safe_load(example.read_text(encoding="utf-8")).get("name")
        builds[f"rules-{example.stem}"] = {"rules": example, "formats": (name,)}
    return builds


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BUILDS = _builds()


def built(factory: pytest.TempPathFactory, name: str) -> tuple[Path, BuildResult]:
    """The build `name` of BUILDS with its PDFs, made once per test session."""
    return _built_once(factory.getbasetemp() / f"layout-{name}", name)


@cache
def _built_once(out: Path, name: str) -> tuple[Path, BuildResult]:
    return out, build_site(BuildOptions(out, **BUILDS[name]))


def run_cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`blackpoker …` in a fresh process, so the environment (TMPDIR, fontconfig) is its own."""
    command = [sys.executable, "-c", "from blackpoker.cli.main import main; main()", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)


# Not part of the line a reader sees: scripts, styles, the page title, and ruby (read above the line).
_UNSEEN = ("script", "style", "title", "rt", "rp")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in _UNSEEN

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in _UNSEEN

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def text_content(html: str) -> str:
    """What a reader sees: the page's text with tags dropped and entities decoded."""
    parser = _Text()
    parser.feed(html)
    return "".join(parser.parts)


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def pdf_text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def sentences(text: str) -> list[str]:
    """Rule text split into lines without list markers, and lines into sentences ending in 。."""
    return [
        sentence
        for line in text.splitlines()
        for sentence in re.findall(r"[^。]+。?", _MARKER.sub("", line))
        if sentence.strip()
    ]


def expected_strings(ruleset: RuleSet) -> list[str]:
    """Everything of the rule set that a sheet must print, whitespace removed."""
    expected: list[str] = []
    for entry in (*ruleset.actions, *ruleset.characters):
        expected += [entry.name, *sentences(entry.note)]
        if entry.key is not None:
            expected.append(f"★{entry.key}")
        if isinstance(entry, Action):
            expected += sentences(entry.target) + sentences(entry.effect)
            words = {
                "trigger": TRIGGERS[entry.trigger],
                "speed": SPEEDS[entry.speed],
                "timing": TIMINGS[entry.timing],
            }
            usage = "@" + ruleset.edition.usage_separator.join(
                words[part] for part in ruleset.edition.usage_line
            )
            expected.append(f"{usage}|${entry.cost}" if entry.cost.units else usage)
        if isinstance(entry, Character):
            expected += sentences(entry.ability)
    return [squash(s) for s in expected]


class Watched:
    """A page that records console errors, uncaught exceptions and dialogs (alert)."""

    def __init__(self, context: Any, path: Path, query: str = "") -> None:
        self.problems: list[str] = []
        self.page = context.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"exception: {e}"))
        self.page.on("dialog", lambda d: (self.problems.append(f"dialog: {d.message}"), d.dismiss()))
        self.page.goto(path.as_uri() + query)
        self.page.wait_for_load_state("load")

    def visible_names(self) -> list[str]:
        return self.page.locator(".entry:visible h4.name").all_inner_texts()

    def close(self) -> None:
        self.page.close()
