"""No command writes outside the place it was asked to write (docs/bad-input.md, "Writes only
inside the output place").

Every option that names a place a command writes has the type `Output`; the cases below are
parametrised over those options as the command line declares them, so a new writing option
without a case fails `test_every_writing_option_has_a_case`. Each case is run on places that
lead elsewhere (a symbolic link to a folder or file outside, a link that leads nowhere, a
link loop) and on an output that is one of the command's inputs. Each must be refused with
exit 1 and a located message about that option, and leave the whole sandbox as it was:
every file's and link's contents and modification time, and no new file or folder. (Folders
are compared by their entries, not their times: the write probe creates and removes a file
in the output's folder, which touches the folder's time and nothing else.)
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
import yaml
from bad_input_support import EXAMPLE, invoke, tree
from blackpoker.cli.main import main
from blackpoker.cli.outputs import Output
from blackpoker.compiler.outputs import WritePlan
from editions_support import UPSTREAM, read_upstream, upstream_with

EDITION: str = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))["edition"]  # the example's edition
Argv = list[str | Path]


def writing_options() -> set[tuple[str, str]]:
    """(command, option) for every option of type Output, subcommands included."""
    found: set[tuple[str, str]] = set()

    def walk(command: click.Command, name: str, parent: click.Context | None) -> None:
        context = click.Context(command, info_name=name, parent=parent)
        if isinstance(command, click.Group):
            for sub in command.list_commands(context):
                found_command = command.get_command(context, sub)
                assert found_command is not None
                walk(found_command, f"{name} {sub}".strip(), context)
        found.update((name, p.opts[0]) for p in command.params if isinstance(p.type, Output))

    walk(main, "", None)
    return found


@dataclass(frozen=True)
class Writer:
    """How a command writes: its command line with the output `out` and the inputs in `inputs`."""

    argv: Callable[[Path, Path], Argv]
    folder: bool  # the option names a folder (else a file)
    inner: str = ""  # a folder's: a name the command writes in it, where the links are put
    inner_folder: bool = False  # that name is a folder the command writes into
    stdin: str | None = None
    input: str = "rules.yaml"  # the input (in inputs/) that an output is made to be
    empty: bool = False  # the folder must be new or empty: anything put in it is refused as such


def upstream_list() -> str:
    return upstream_with(lambda _: True)


WRITERS: dict[tuple[str, str], Writer] = {
    ("build", "--out"): Writer(
        lambda inputs, out: [
            *("build", "--html-only", "--force", "--rules", inputs / "rules.yaml", "--out", out),
            *("--edition", EDITION, "--format", yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))["name"]),
        ],
        folder=True,
        inner=EDITION,
        inner_folder=True,
    ),
    ("import", "--out"): Writer(
        lambda inputs, out: ["import", inputs / "up.yaml", "--out", out, "--id", "x", "--force"],
        folder=True,
        inner="x.yaml",
        input="up.yaml",
    ),
    ("simulate", "--logs"): Writer(
        lambda inputs, out: ["simulate", "-n", "2", "--rules", inputs / "rules.yaml", "--logs", out],
        folder=True,
        inner="game-0000.jsonl",
        empty=True,
    ),
    ("simulate", "--html"): Writer(
        lambda inputs, out: ["simulate", "-n", "2", "--rules", inputs / "rules.yaml", "--html", out],
        folder=False,
    ),
    ("fit", "--out"): Writer(
        lambda inputs, out: ["fit", "-n", "10", "--rules", inputs / "rules.yaml", "--out", out, "--force"],
        folder=False,
    ),
    ("diff", "--html"): Writer(
        lambda inputs, out: ["diff", EDITION, inputs / "rules.yaml", "--html", out], folder=False
    ),
    ("play", "--log"): Writer(
        lambda inputs, out: [
            "play",
            "--seed",
            "1",
            "--rules",
            inputs / "rules.yaml",
            "--log",
            out,
            "--force",
        ],
        folder=False,
        stdin="q\n",
    ),
}
IDS = [f"{command} {option}" for command, option in WRITERS]


def test_every_writing_option_has_a_case() -> None:
    assert writing_options() == set(WRITERS)


# --- the sandbox ---------------------------------------------------------------------------


def sandbox(root: Path) -> tuple[Path, Path, Path]:
    """inputs/ (a local-rule file, an upstream list), place/ (the output's folder, empty) and
    outside/ (someone's files, which no command here may touch)."""
    inputs, place, outside = root / "inputs", root / "place", root / "outside"
    for folder in (inputs, place, outside):
        folder.mkdir()
    shutil.copy(EXAMPLE, inputs / "rules.yaml")
    read_upstream(upstream_list())  # skips when the shared data is not beside the checkout
    shutil.copy(UPSTREAM / upstream_list(), inputs / "up.yaml")
    (outside / "victim.txt").write_text("someone's file\n", encoding="utf-8")
    (outside / "notes").mkdir()
    (outside / "notes" / "keep.txt").write_text("keep\n", encoding="utf-8")
    return inputs, place, outside


def refused_untouched(sandbox_root: Path, writer: Writer, argv: Argv, option: str, why: str) -> None:
    """The command exits 1 by the reporter, with a path:line:col message about `option` saying
    `why`, and the sandbox is as it was."""
    before = tree(sandbox_root)
    result = invoke(*argv, stdin=writer.stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    located = re.findall(rf"^\S[^\n]*:\d+:\d+: {option}: .*$", result.stderr, re.MULTILINE)
    assert any(why in line for line in located), result.stderr
    assert tree(sandbox_root) == before


# --- each writer, on places that lead elsewhere ------------------------------------------


@pytest.mark.parametrize("key", WRITERS, ids=IDS)
def test_a_clean_place_is_written_and_nothing_else(key: tuple[str, str], tmp_path: Path) -> None:
    """The cases' command lines work: into a place that leads nowhere else, they write there only."""
    writer = WRITERS[key]
    inputs, place, _ = sandbox(tmp_path)
    out = place if writer.folder else place / "output"
    before = tree(tmp_path)
    result = invoke(*writer.argv(inputs, out), stdin=writer.stdin)
    assert result.exit_code == 0, result.output
    after = tree(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith("place")} == {
        k: v for k, v in before.items() if not k.startswith("place")
    }
    assert any(k.startswith("place/") for k in after)


LINKS: dict[str, tuple[Callable[[Path, Path, bool], str], str]] = {
    # where the link at a written name points (given its own path, outside/, whether it stands
    # for a folder), and what the refusal says
    "link to elsewhere": (
        lambda link, outside, folder: os.path.relpath(
            outside if folder else outside / "victim.txt", link.parent
        ),
        "outside",
    ),
    "dangling link": (
        lambda link, outside, folder: os.path.relpath(outside / "missing", link.parent),
        "which does not exist",
    ),
    "link loop": (lambda link, outside, folder: link.name, "a loop of symbolic links"),
}


@pytest.mark.parametrize("kind", LINKS)
@pytest.mark.parametrize("key", WRITERS, ids=IDS)
def test_a_link_in_the_place_is_refused_and_nothing_changes(
    key: tuple[str, str], kind: str, tmp_path: Path
) -> None:
    writer = WRITERS[key]
    inputs, place, outside = sandbox(tmp_path)
    link = place / writer.inner if writer.folder else place / "output"
    target, why = LINKS[kind]
    link.symlink_to(target(link, outside, writer.inner_folder))
    argv = writer.argv(inputs, place if writer.folder else link)
    refused_untouched(tmp_path, writer, argv, key[1], "the folder is not empty" if writer.empty else why)


@pytest.mark.parametrize("key", WRITERS, ids=IDS)
def test_a_place_that_is_a_link_to_nowhere_is_refused_and_nothing_made(
    key: tuple[str, str], tmp_path: Path
) -> None:
    writer = WRITERS[key]
    inputs, place, outside = sandbox(tmp_path)
    out = place / "out"
    out.symlink_to(os.path.relpath(outside / "missing" / "deeper", place))
    refused_untouched(tmp_path, writer, writer.argv(inputs, out), key[1], "which does not exist")


@pytest.mark.parametrize("key", WRITERS, ids=IDS)
def test_an_output_that_is_an_input_is_refused_and_nothing_changes(
    key: tuple[str, str], tmp_path: Path
) -> None:
    """The output names an input: the file itself for a file, a folder's name of the file it writes."""
    writer = WRITERS[key]
    inputs, _, _ = sandbox(tmp_path)
    why = "an input of this command"
    if writer.folder and not writer.inner_folder:  # the file it writes in the folder is an input
        os.link(inputs / writer.input, inputs / writer.inner)
        argv = writer.argv(inputs, inputs)
        why = "the folder is not empty" if writer.empty else why
    else:  # the folder or file named is an input
        argv = writer.argv(inputs, inputs / writer.input)
        why = "not a folder" if writer.folder else why
    refused_untouched(tmp_path, writer, argv, key[1], why)


# --- the plan itself: names that would leave their place ---------------------------------


@pytest.mark.parametrize("name", ["../x.yaml", "a/../../x.yaml", "/tmp/x.yaml", "..", ""])
def test_a_name_that_leaves_the_folder_is_refused(name: str, tmp_path: Path) -> None:
    plan = WritePlan()
    plan.folder(tmp_path / "out", "--out", [name])
    assert [d.render() for d in plan.problems] == [
        f"{tmp_path / 'out'}:1:1: --out: '{Path(name)}' names a place outside it"
    ]
    with pytest.raises(RuntimeError):
        plan.write(tmp_path / "out" / name, "no")
    assert not (tmp_path / "out").exists() and not (tmp_path / "x.yaml").exists()


def test_a_link_inside_the_place_to_inside_it_is_followed(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "alias").symlink_to("real")
    plan = WritePlan()
    plan.folder(tmp_path, "--out", ["alias/page.html"])
    assert plan.problems == []
    plan.write(tmp_path / "alias" / "page.html", "page")
    assert (tmp_path / "real" / "page.html").read_text(encoding="utf-8") == "page"


def test_the_same_file_named_twice_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "alias").symlink_to("real")
    plan = WritePlan()
    plan.folder(tmp_path, "--out", ["real/page.html", "alias/page.html"])
    assert [d.message for d in plan.problems] == [
        f"--out: is written twice (also as {tmp_path / 'real' / 'page.html'})"
    ]


def test_a_file_place_inside_a_folder_place_is_refused(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    plan = WritePlan()
    plan.folder(tmp_path / "logs", "--logs", empty=True)
    plan.file(tmp_path / "logs" / "report.html", "--html")
    assert [d.message for d in plan.problems] == [
        f"--html: inside the --logs folder {tmp_path / 'logs'}; give a place outside it"
    ]


def test_an_input_named_after_the_plan_refuses_what_lands_on_it(tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text("kind: overlay\n", encoding="utf-8")
    plan = WritePlan()
    plan.file(base, "--html", replace=True)
    assert plan.problems == []
    plan.reads([tmp_path / "missing.yaml", base])  # e.g. a base file found while compiling
    assert [d.message for d in plan.problems] == [
        f"--html: is {base}, an input of this command; give another name"
    ]


def test_a_failed_command_removes_only_the_folders_it_made(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    plan = WritePlan()
    plan.folder(tmp_path / "mine" / "a" / "b", "--out", ["c/page.html"])
    plan.write(tmp_path / "mine" / "a" / "b" / "c" / "page.html", "page")
    (tmp_path / "mine" / "a" / "b" / "c" / "page.html").unlink()
    plan.undo()
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["mine"]


def test_a_written_file_replaces_a_link_of_its_name_and_keeps_the_usual_mode(tmp_path: Path) -> None:
    (tmp_path / "old.html").write_text("old", encoding="utf-8")
    (tmp_path / "page.html").symlink_to("old.html")
    plan = WritePlan()
    plan.folder(tmp_path, "--out", ["page.html"])
    plan.write(tmp_path / "page.html", "new")
    assert not (tmp_path / "page.html").is_symlink()
    assert (tmp_path / "old.html").read_text(encoding="utf-8") == "old"
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "page.html").stat().st_mode & 0o777 == 0o666 & ~mask
