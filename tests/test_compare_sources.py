"""`simulate --compare A B` with any two rule sources in any mix: a built-in edition (alone, as
`EDITION:FORMAT`, or a bare format), an edition file (a based edition in a temporary folder),
a local-rule file, a regulation. Each pair of kinds is played; an impossible pair is refused at
the user's file. Every name is read from the built-in data."""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import pytest
import yaml
from bad_input_support import EXAMPLE, invoke, refused
from blackpoker.compiler import CompileError
from blackpoker.compiler.environment import Environment, display
from blackpoker.compiler.parse import OverlaySource

ENV = Environment()
LOCAL = ENV.read(EXAMPLE)[0]
assert isinstance(LOCAL, OverlaySource)
LOCAL_EDITION = LOCAL.edition_id
LOCAL_FORMAT = ENV.official_base(EXAMPLE)
OTHER = next(e for e in ENV.builtin_editions() if e != LOCAL_EDITION)


def _regulation() -> tuple[str, str]:
    """A regulation of the local rule's edition that needs no deck file, and its format."""
    regulations = ENV.regulations(LOCAL_EDITION)
    for frame in regulations.frames:
        text = f"{LOCAL_FORMAT}+{frame.id}"
        try:
            if invoke("regulation", "check", "--edition", LOCAL_EDITION, text).exit_code == 0:
                return text, LOCAL_FORMAT
        except CompileError:
            continue
    raise AssertionError("no regulation of the edition plays without decks")


def _based(folder: Path, name: str = "mine", **data: Any) -> Path:
    path = folder / f"{name}.yaml"
    body = {"kind": "edition", "id": name, "base": LOCAL_EDITION, "title": f"{name} 版", **data}
    path.write_text(yaml.safe_dump(body, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _line(path: Path, needle: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, text in enumerate(lines, 1) if text.startswith(needle))


# Each kind: (what --compare is given, the edition and format its run reports; an edition file
# alone plays the official format the other side plays, else the registry's play format).
Kind = Callable[[Path], tuple[str, str, str | None]]
KINDS: dict[str, Kind] = {
    "built-in": lambda _: (f"{OTHER}:{LOCAL_FORMAT}", OTHER, LOCAL_FORMAT),
    "edition file": lambda folder: (str(_based(folder)), "mine", None),
    "local rule": lambda _: (str(EXAMPLE), LOCAL_EDITION, LOCAL.format.id),
    "regulation": lambda _: (f"{LOCAL_EDITION}:{_regulation()[0]}", LOCAL_EDITION, _regulation()[0]),
}


def _compare(*sides: str) -> dict[str, Any]:
    result = invoke("simulate", "--compare", *sides, "-n", "2", "--seed", "3", "--json")
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize(("a", "b"), list(combinations_with_replacement(KINDS, 2)))
def test_every_pair_of_kinds_is_compared(a: str, b: str, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    given_a, edition_a, format_a = KINDS[a](tmp_path / "a")
    given_b, edition_b, format_b = KINDS[b](tmp_path / "b")
    official = LOCAL_FORMAT if format_a or format_b else ENV.default("play_format")
    format_a, format_b = format_a or official, format_b or official
    runs = _compare(given_a, given_b)["compare"]
    named = [(run["edition"], run["format"]) for run in runs]
    for (edition, format_id), (want_edition, want_format) in zip(
        named, [(edition_a, format_a), (edition_b, format_b)], strict=True
    ):
        assert edition == want_edition
        # one format of two editions is named as --compare names it
        assert format_id in (want_format, f"{want_edition}:{want_format}")
    assert all(run["games"] == 2 for run in runs)


def test_a_bare_format_beside_a_based_edition_plays_in_its_base(tmp_path: Path) -> None:
    path = _based(tmp_path)
    a, b = _compare(LOCAL_FORMAT, str(path))["compare"]
    assert (a["edition"], b["edition"]) == (LOCAL_EDITION, "mine")
    assert a["format"] == f"{LOCAL_EDITION}:{LOCAL_FORMAT}" and b["format"] == f"mine:{LOCAL_FORMAT}"


def test_an_edition_alone_plays_the_format_the_other_side_plays(tmp_path: Path) -> None:
    a, b = _compare(OTHER, str(EXAMPLE))["compare"]
    assert (a["edition"], a["format"]) == (OTHER, LOCAL_FORMAT)
    assert b["format"] == LOCAL.format.id


def test_the_report_names_both_sides_and_their_differences(tmp_path: Path) -> None:
    changed = ENV.compile(LOCAL_EDITION, LOCAL_FORMAT).actions[0]
    path = _based(tmp_path, actions={"change": {changed.id: {"name": "改名した"}}})
    result = invoke("simulate", "--compare", f"{LOCAL_EDITION}:{LOCAL_FORMAT}", str(path), "-n", "2")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert f"A: {LOCAL_EDITION} {LOCAL_EDITION}:{LOCAL_FORMAT}" in "\n".join(lines)
    assert f"B: mine mine:{LOCAL_FORMAT}" in "\n".join(lines)
    assert any(line.strip().startswith("name:") and "改名した" in line for line in lines), result.stdout


def test_a_pair_with_no_common_format_is_refused_at_the_user_s_file(tmp_path: Path) -> None:
    house = EXAMPLE.with_name("my-extra.yaml")  # a house list of trumps: the extra format
    bare = next((e for e in ENV.builtin_editions() if not ENV.extras(e)), None)
    if bare is None:
        pytest.skip("every built-in edition plays an extra list")
    path = tmp_path / "mine.yaml"
    path.write_text(f"kind: edition\nid: mine\nbase: {bare}\n", encoding="utf-8")
    playable = ", ".join(f.id for f in ENV.edition(bare).edition.formats)
    result = refused(invoke("simulate", "--compare", str(path), str(house), "-n", "1"))
    assert result.stderr.startswith(
        f"{path}:1:1: --compare: {path} has no format in common with {house} "
        f"({house} plays extra; {path} has {playable}); name a format of each, e.g. --compare "
        f"{path}:{playable.split(', ')[0]} {house}\n"
    ), result.stderr
    # a built-in edition alone is named as the option's
    result = refused(invoke("simulate", "--compare", bare, str(house), "-n", "1"))
    assert result.stderr.startswith(f"{display(house)}:{_line(house, 'base:')}:"), result.stderr


def test_an_unknown_format_of_a_named_edition_is_refused(tmp_path: Path) -> None:
    result = invoke("simulate", "--compare", f"{OTHER}:nope", str(EXAMPLE), "-n", "1")
    assert result.exit_code == 1 and "Traceback" not in result.output
    known = ", ".join(f.id for f in ENV.edition(OTHER).edition.formats)
    assert result.stderr.startswith(f"--compare: '{OTHER}:nope' is not a format of {OTHER} ({known}")
