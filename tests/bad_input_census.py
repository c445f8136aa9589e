"""A census of bad input: every command × every kind of bad input, tried and counted.

Run `python tests/bad_input_census.py [--quick] [--all]`: it prints the counts per command,
one row per unclean case (every case with --all) and the totals, and exits 1 if any case is
not clean. `tests/test_bad_input_census.py` runs the quick subset. A case is clean when the
command exits 1 with a located message (or 0 when the input is in fact fine: "accepted"),
prints no traceback, writes nothing when it refuses, writes only inside its output place when
it accepts, and changes or removes no file that was there before.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from blackpoker.cli.main import main
from blackpoker.compiler.pipeline import builtin_editions, builtin_path
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "my-std.yaml"
SCENARIOS = ROOT / "scenarios"
CORPUS = ROOT / "tests" / "errors"
LOCATED = re.compile(r"^\S[^\n]*:\d+:\d+: \S", re.MULTILINE)
HANG_SECONDS = 30.0

CLEAN, ACCEPTED = "clean", "accepted"
HUGE_LINE = "huge line (2 MiB comment)"  # fine YAML: the one YAML kind a command may accept


@dataclass(frozen=True)
class Case:
    command: str  # the row label, e.g. "compile --rules"
    kind: str  # what is wrong with the input
    args: tuple[str, ...]
    prepare: Callable[[], None] = lambda: None
    stdin: str | None = None
    outputs: tuple[str, ...] = ()  # where an accepted run may write (relative to the case folder)
    subprocess: bool = False  # FIFOs: a hang must be caught by a timeout
    quick: bool = True
    bad: bool = True  # the input is wrong: exit 0 is "not clean" (False: exit 0 counts as accepted)


@dataclass(frozen=True)
class Outcome:
    case: Case
    verdict: str  # CLEAN, ACCEPTED or "not clean: why"

    @property
    def clean(self) -> bool:
        return self.verdict in (CLEAN, ACCEPTED)


@dataclass
class Run:
    exit_code: int | None  # None: hung
    stdout: str
    stderr: str
    exception: BaseException | None = None
    new: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- inputs made from shipped files


def write(name: str, data: str | bytes) -> None:
    path = Path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)


def overlay_name(text: str) -> str:
    """The format an overlay file defines (its `name:`), read from the file, not from code."""
    loaded = yaml.safe_load(text)
    return str(loaded["name"]) if isinstance(loaded, dict) and "name" in loaded else "x"


def characters(edition: str, format_id: str) -> dict[str, dict[str, object]]:
    result = CliRunner().invoke(main, ["compile", "--edition", edition, "--format", format_id])
    assert result.exit_code == 0, result.output
    return {c["id"]: c for c in json.loads(result.stdout)["characters"]}


FIELD_ENTRY = re.compile(r"\{as: (\w+), cards: \[([^\],]+)\]\}")


def scenario_positions() -> dict[str, str]:
    """Impossible positions, each made by one change to a shipped scenario.

    Which character is always face down or always face up is read from the compiled rule set.
    """
    made: dict[str, str] = {}
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        header = yaml.safe_load(text)
        chars = characters(str(header["edition"]), str(header["format"]))
        for match in FIELD_ENTRY.finditer(text):
            char, card = match.group(1), match.group(2)
            face = chars.get(char, {}).get("face")
            if face == "down" and "two-card face-down character" not in made:
                second = "Joker" if card != "Joker" else "♣2"
                made["two-card face-down character"] = text.replace(
                    match.group(0), f"{{as: {char}, cards: [{card}, {second}]}}", 1
                )
            if face == "up" and "face-up character put face down" not in made:
                made["face-up character put face down"] = text.replace(
                    match.group(0), f"{{as: {char}, cards: [{card}], face: down}}", 1
                )
        life = re.search(r"life: \d+", text)
        if life and "more life cards than the deck holds" not in made:
            made["more life cards than the deck holds"] = text.replace(life.group(0), "life: 999", 1)
        if len(made) == 3:
            return made
    raise AssertionError(f"no shipped scenario gives every impossible position: {sorted(made)}")


def first_top_level_line(text: str, key: str) -> str:
    match = re.search(rf"^{key}:.*$", text, re.MULTILINE)
    assert match, key
    return match.group(0)


def alias_bomb() -> str:
    lines = ["bomb0: &b0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"bomb{i}: &b{i} [" + ", ".join([f"*b{i - 1}"] * 10) + "]" for i in range(1, 7)]
    return "\n".join(lines) + "\n"


def yaml_kinds(base: str) -> dict[str, bytes | None]:
    """Every YAML-level kind of bad input, as a change to a valid file (None: a sparse huge file)."""
    kind_line = first_top_level_line(base, "kind")
    name_line = first_top_level_line(base, "name")
    indented = re.search(r"^  (\S.*)$", base, re.MULTILINE)
    assert indented
    utf8 = base.encode("utf-8")
    return {
        "YAML syntax error": (base + "\nbroken: [1, 2\n").encode(),
        "tab indentation": base.replace(indented.group(0), "\t" + indented.group(1), 1).encode(),
        "duplicate key": base.replace(kind_line, kind_line + "\n" + kind_line, 1).encode(),
        "unknown key": base.replace(kind_line, kind_line + "\nzzz-unknown: 1", 1).encode(),
        "wrong type": base.replace(name_line, "name: {a: 1}", 1).encode(),
        "empty file": b"",
        "comments only": b"# nothing here\n",
        "invalid UTF-8": utf8.replace(b"\n", b"\n# \xff\xfe\n", 1),
        "NUL byte": utf8.replace(b"\n", b"\n# \x00\n", 1),
        "lone surrogate": base.replace(name_line, 'name: "\\uD800x"', 1).encode(),
        "alias bomb": (base + alias_bomb()).encode(),
        "recursive alias": (base + "loop: &l [*l]\n").encode(),
        "very deep nesting": (base + "deep: " + "[" * 500 + "]" * 500 + "\n").encode(),
        "huge file (sparse, > 4 MiB)": None,
        HUGE_LINE: (base + "# " + "x" * 2**21 + "\n").encode(),
        "several documents": (base + "---\n" + kind_line + "\n").encode(),
        "not a mapping": b"- a\n- b\n",
    }


def put(name: str, data: bytes | None) -> Callable[[], None]:
    def prepare() -> None:
        if data is None:
            with Path(name).open("wb") as file:
                file.truncate(5 * 2**20)
        else:
            write(name, data)

    return prepare


def file_kinds(name: str) -> dict[str, Callable[[], None]]:
    """Paths that are not a readable regular file. All are made under the name `name`."""

    def folder() -> None:
        Path(name).mkdir()

    def fifo() -> None:
        os.mkfifo(name)

    def dangling() -> None:
        Path(name).symlink_to("missing-target")

    def loop() -> None:
        Path(name).symlink_to(name)

    return {
        "missing file": lambda: None,
        "folder": folder,
        "FIFO": fifo,
        "symlink to a missing file": dangling,
        "symlink loop": loop,
    }


def under_a_file(name: str) -> Callable[[], None]:
    return lambda: write(name.split("/")[0], "a regular file\n")


# ---------------------------------------------------------------- the matrix


def yaml_commands(path: str, format_id: str) -> dict[str, tuple[tuple[str, ...], tuple[str, ...], bool]]:
    """command label -> (args, outputs, quick) for a YAML file at `path` defining `format_id`."""
    return {
        "validate": (("validate", path), (), True),
        "compile --rules": (("compile", "--rules", path, "--format", format_id), (), True),
        "build --rules": (
            ("build", "--rules", path, "--format", format_id, "--html-only", "--out", "site"),
            ("site",),
            False,
        ),
        "simulate --rules": (("simulate", "--rules", path, "--format", format_id, "-n", "2"), (), False),
    }


def edition_kinds() -> tuple[str, dict[str, dict[str, bytes]]]:
    """Bad edition files, each a change to the first built-in edition or a based edition
    (file name -> bytes; the first file is the one the command reads), and a format id."""
    texts = ((e, builtin_path(e).read_text(encoding="utf-8")) for e in builtin_editions())
    edition, text = next((e, t) for e, t in texts if "base" not in yaml.safe_load(t))  # the newest in full
    first = yaml.safe_load(text)["formats"][0]["id"]
    entry_format = re.search(r"^    format: \S+$", text, re.MULTILINE)
    assert entry_format

    def based(edition_id: str, base: str, rest: str = "") -> bytes:
        return f"kind: edition\nid: {edition_id}\nbase: {base}\n{rest}".encode()

    return first, {
        "edition id disagrees with the file name": {"other.yaml": text.encode()},
        "unknown base": {"child.yaml": based("child", "nowhere")},
        "cycle of bases": {"a.yaml": based("a", "b"), "b.yaml": based("b", "a")},
        "unknown format in format:": {
            f"{edition}.yaml": text.replace(entry_format.group(0), "    format: zzz", 1).encode()
        },
        "unknown format in after:": {
            "child.yaml": based(
                "child", edition, "formats:\n  add: [{id: plus, name: P, mark: ◇, after: zzz}]\n"
            )
        },
    }


def put_all(files: dict[str, bytes]) -> Callable[[], None]:
    def prepare() -> None:
        for name, data in files.items():
            write(name, data)

    return prepare


def edition_commands(path: str, format_id: str) -> dict[str, tuple[tuple[str, ...], tuple[str, ...], bool]]:
    """command label -> (args, outputs, quick) for an edition file at `path`."""
    return {
        "validate": (("validate", path), (), True),
        "compile --edition": (("compile", "--edition", path, "--format", format_id), (), True),
        "build --edition": (
            ("build", "--edition", path, "--format", format_id, "--html-only", "--out", "site"),
            ("site",),
            False,
        ),
        "simulate --edition": (("simulate", "--edition", path, "--format", format_id, "-n", "2"), (), False),
    }


def log_kinds(log: str) -> dict[str, bytes | None]:
    lines = log.splitlines(keepends=True)
    decision = next(i for i, line in enumerate(lines) if '"decision"' in line)
    changed = re.sub(r'"index": \d+', '"index": 99999', lines[decision], count=1)
    return {
        "not JSON": (log + "not json\n").encode(),
        "truncated (end missing)": "".join(lines[: len(lines) // 2]).encode(),
        "header missing": "".join(lines[1:]).encode(),
        "header field of the wrong type": re.sub(
            r'"version": (\d+)', r'"version": "\1"', log, count=1
        ).encode(),
        "decision differs from the replay": "".join(
            [*lines[:decision], changed, *lines[decision + 1 :]]
        ).encode(),
        "empty file": b"",
        "invalid UTF-8": log.encode() + b"\xff\xfe\n",
        "NUL byte": log.encode() + b"\x00\n",
        "very deep nesting": (log + "[" * 100_000 + "]" * 100_000 + "\n").encode(),
        "number too long to convert": re.sub(r'"seed": \d+', '"seed": ' + "9" * 5000, log, count=1).encode(),
        "huge file (sparse, > 64 MiB)": None,
    }


def sparse_log(name: str) -> Callable[[], None]:
    def prepare() -> None:
        with Path(name).open("wb") as file:
            file.truncate(65 * 2**20)

    return prepare


def fresh_log() -> str:
    with tempfile.TemporaryDirectory() as folder:
        result = CliRunner().invoke(main, ["simulate", "-n", "1", "--logs", str(Path(folder, "logs"))])
        assert result.exit_code == 0, result.output
        (log,) = Path(folder, "logs").glob("*.jsonl")
        return log.read_text(encoding="utf-8")


def cases() -> list[Case]:
    example = EXAMPLE.read_text(encoding="utf-8")
    scenario_path = sorted(SCENARIOS.rglob("*.yaml"))[0]
    scenario = scenario_path.read_text(encoding="utf-8")
    fmt = overlay_name(example)
    made: list[Case] = []

    # YAML kinds: every YAML-reading command, on the local-rule example and on a scenario.
    for kind, data in yaml_kinds(example).items():
        for label, (args, outputs, quick) in yaml_commands("rules.yaml", fmt).items():
            made.append(
                Case(
                    label,
                    kind,
                    args,
                    put("rules.yaml", data),
                    outputs=outputs,
                    quick=quick,
                    bad=kind != HUGE_LINE,
                )
            )
    for kind, data in yaml_kinds(scenario).items():
        made.append(
            Case(
                "scenario run",
                kind,
                ("scenario", "run", "s.yaml"),
                put("s.yaml", data),
                bad=kind != HUGE_LINE,
            )
        )

    # Meaning: corpus files whose YAML is fine but whose rules are not.
    for stem in ("negative-count", "remove-requested-action", "request-cycle", "remove-turn-passer"):
        text = (CORPUS / f"{stem}.yaml").read_text(encoding="utf-8")
        for label, (args, outputs, quick) in yaml_commands("rules.yaml", overlay_name(text)).items():
            made.append(
                Case(label, stem, args, put("rules.yaml", text.encode()), outputs=outputs, quick=quick)
            )
    # Edition files: an id that disagrees with the file name, bad bases, unknown formats.
    first_format, editions = edition_kinds()
    for kind, files in editions.items():
        for label, (args, outputs, quick) in edition_commands(next(iter(files)), first_format).items():
            made.append(Case(label, kind, args, put_all(files), outputs=outputs, quick=quick))
    made.append(Case("simulate", "--cap 0", ("simulate", "-n", "2", "--cap", "0")))
    made.append(Case("simulate", "--cap -1", ("simulate", "-n", "2", "--cap", "-1")))
    made.append(
        Case(
            "compile --rules",
            "unknown --format",
            ("compile", "--rules", "r.yaml", "--format", "zzz"),
            put("r.yaml", example.encode()),
        )
    )
    for kind, text in scenario_positions().items():
        made.append(Case("scenario run", kind, ("scenario", "run", "s.yaml"), put("s.yaml", text.encode())))

    # Command logs.
    log = fresh_log()
    for kind, data in log_kinds(log).items():
        prepare = sparse_log("g.jsonl") if data is None else put("g.jsonl", data)
        made.append(Case("replay", kind, ("replay", "g.jsonl"), prepare))
    made.append(Case("replay", "folder with no log", ("replay", "logs"), lambda: Path("logs").mkdir()))
    made.append(
        Case("scenario run", "folder with no scenario", ("scenario", "run", "d"), lambda: Path("d").mkdir())
    )
    made.append(Case("validate", "folder with no rules", ("validate", "d"), lambda: Path("d").mkdir()))

    # Files: every input path of every command.
    inputs = {
        "validate": ("validate",),
        "compile --rules": ("compile", "--format", fmt, "--rules"),
        "build --rules": ("build", "--html-only", "--out", "site", "--format", fmt, "--rules"),
        "simulate --rules": ("simulate", "-n", "2", "--format", fmt, "--rules"),
        "scenario run": ("scenario", "run"),
        "replay": ("replay",),
        "import": ("import", "--out", "out"),
    }
    for label, args in inputs.items():
        for kind, prepare in file_kinds("in.yaml").items():
            made.append(
                Case(
                    label,
                    kind,
                    (*args, "in.yaml"),
                    prepare,
                    subprocess=kind == "FIFO",
                    quick=not label.startswith(("build", "simulate")),
                )
            )
        made.append(
            Case(
                label,
                "path under a regular file (unreadable)",
                (*args, "plain/in.yaml"),
                under_a_file("plain/in.yaml"),
            )
        )
        made.append(Case(label, "unreadable (/proc/self/mem: read fails)", (*args, "/proc/self/mem")))
        made.append(
            Case(label, "FIFO inside a folder", (*args, "d"), fifo_in_folder, subprocess=True, quick=False)
        )
    # a weights file (`blackpoker fit`'s) read by `--agents search@FILE`: refused before any game
    weights = ("simulate", "-n", "1", "--agents", "search:2@w.json,greedy")
    for kind, prepare in file_kinds("w.json").items():
        made.append(Case("simulate --agents search@", kind, weights, prepare, subprocess=kind == "FIFO"))

    # Outputs: places nobody can write, folders and files that hold someone's data.
    unwritable = {"under a regular file": "plain/out", "under /proc": "/proc/census-out/x"}
    for kind, place in unwritable.items():
        prepare = under_a_file(place) if not place.startswith("/") else (lambda: None)
        made += [
            Case(
                "build --out",
                kind,
                ("build", "--html-only", "--format", fmt, "--rules", "r.yaml", "--out", place),
                both(prepare, put("r.yaml", example.encode())),
            ),
            Case("simulate --logs", kind, ("simulate", "-n", "2", "--logs", place), prepare),
            Case("simulate --html", kind, ("simulate", "-n", "2", "--html", place + ".html"), prepare),
            Case(
                "play --log", kind, ("play", "--seed", "1", "--log", place + ".jsonl"), prepare, stdin="q\n"
            ),
            Case("import --out", kind, ("import", "up.yaml", "--out", place), prepare),
            Case("fit --out", kind, ("fit", "-n", "10", "--out", place + ".json"), prepare),
        ]
    made += [
        Case(
            "build --out",
            "non-empty folder it did not make",
            ("build", "--html-only", "--format", fmt, "--rules", "r.yaml", "--out", "site"),
            both(put("site/mine.txt", b"keep me\n"), put("r.yaml", example.encode())),
        ),
        Case(
            "simulate --logs",
            "non-empty folder",
            ("simulate", "-n", "2", "--logs", "logs"),
            put("logs/game-0000.jsonl", b"an older log\n"),
        ),
        Case(
            "play --log",
            "existing log file",
            ("play", "--seed", "1", "--log", "old.jsonl"),
            put("old.jsonl", b"an older log\n"),
            stdin="q\n",
        ),
        Case("fit --out", "existing file", ("fit", "-n", "10", "--out", "w.json"), put("w.json", b"{}\n")),
        Case("fit --out", "missing folder", ("fit", "-n", "10", "--out", "nowhere/w.json")),
        Case(
            "play --log", "missing folder", ("play", "--seed", "1", "--log", "nowhere/g.jsonl"), stdin="q\n"
        ),
    ]

    # Play answers: each bad answer, then quit; and stdin ending without `q`.
    answers = {
        "answer not a number (²)": "²\nq\n",
        "answer out of range": "99999\nq\n",
        "negative answer": "-1\nq\n",
        "empty answers": "\n\n\nq\n",
        "NUL in an answer": "\x00\nq\n",
        "huge answer line": "9" * 100_000 + "\nq\n",
        "unknown command": "frobnicate ♠Z\nq\n",
        "stdin ends without q": "",
    }
    for kind, stdin in answers.items():
        made.append(Case("play", kind, ("play", "--seed", "1"), stdin=stdin, bad=False))
    return made


def fifo_in_folder() -> None:
    Path("d").mkdir()
    os.mkfifo("d/in.yaml")
    os.mkfifo("d/in.jsonl")


def both(*steps: Callable[[], None]) -> Callable[[], None]:
    def prepare() -> None:
        for step in steps:
            step()

    return prepare


# ---------------------------------------------------------------- running and judging


def snapshot(top: Path, case: Path) -> dict[str, tuple[int, int, int]]:
    """Every entry under `top` (the census folder, so writes next to the case show too), named
    relative to the case folder."""
    found: dict[str, tuple[int, int, int]] = {}
    for folder, dirs, files in os.walk(top):
        for name in dirs + files:
            path = Path(folder, name)
            info = path.lstat()
            # A folder changes size and time whenever an entry is added: its entries tell that.
            kept = (
                (info.st_mode, 0, 0)
                if stat.S_ISDIR(info.st_mode)
                else (info.st_mode, info.st_size, info.st_mtime_ns)
            )
            found[os.path.relpath(path, case)] = kept
    return found


@contextmanager
def inside(folder: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def execute(case: Case) -> Run:
    if case.subprocess:
        command = [sys.executable, "-c", "from blackpoker.cli.main import main; main()", *case.args]
        try:
            done = subprocess.run(
                command,
                input=case.stdin or "",
                capture_output=True,
                text=True,
                timeout=HANG_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return Run(None, "", "")
        return Run(done.returncode, done.stdout, done.stderr)
    result = CliRunner().invoke(main, list(case.args), input=case.stdin)
    exception = None if isinstance(result.exception, SystemExit) else result.exception
    return Run(result.exit_code, result.stdout, result.stderr, exception)


def run_case(case: Case, folder: Path) -> Outcome:
    folder.mkdir()
    with inside(folder):
        case.prepare()
        before = snapshot(folder.parent, folder)
        run = execute(case)
        after = snapshot(folder.parent, folder)
    run.new = sorted(set(after) - set(before))
    run.changed = sorted(p for p in before if after.get(p) != before[p])
    return Outcome(case, judge(case, run))


def judge(case: Case, run: Run) -> str:
    if run.exit_code is None:
        return f"not clean: hung (> {HANG_SECONDS:.0f} s)"
    if run.exception is not None:
        return f"not clean: {type(run.exception).__name__}: {run.exception}"[:200]
    if "Traceback" in run.stdout + run.stderr:
        return "not clean: traceback printed"
    if run.changed:
        return f"not clean: changed or removed {', '.join(run.changed[:3])}"
    if run.exit_code == 0 and case.bad:
        return "not clean: exit 0 on bad input"
    if run.exit_code == 0:
        outside = [p for p in run.new if not any(p == o or p.startswith(o + "/") for o in case.outputs)]
        return f"not clean: wrote {', '.join(outside[:3])} outside its output" if outside else ACCEPTED
    if run.exit_code != 1:
        return f"not clean: exit {run.exit_code}: {last_line(run.stderr)}"
    if run.new:
        return f"not clean: refused but wrote {', '.join(run.new[:3])}"
    if case.command == "compile --rules" and run.stdout:
        return "not clean: partial output on stdout"
    if LOCATED.search(run.stderr) or names_an_argument(case, run.stderr):
        return CLEAN
    return f"not clean: no located message: {last_line(run.stderr)}"


def names_an_argument(case: Case, stderr: str) -> bool:
    """`name: message` for an option or a path given on the command line (docs/bad-input.md)."""
    names = set(case.args)
    return any(line.split(": ", 1)[0] in names for line in stderr.splitlines() if ": " in line)


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return (lines[-1] if lines else "(nothing on stderr)")[:120]


def census(quick: bool) -> list[Outcome]:
    chosen = [c for c in cases() if c.quick or not quick]
    with tempfile.TemporaryDirectory(prefix="census-") as top:
        return [run_case(case, Path(top, f"{i:03d}")) for i, case in enumerate(chosen)]


def totals(outcomes: list[Outcome]) -> str:
    clean = sum(o.clean for o in outcomes)
    accepted = sum(o.verdict == ACCEPTED for o in outcomes)
    return (
        f"{len(outcomes)} bad inputs tried, {clean} clean, {len(outcomes) - clean} not clean"
        f" ({accepted} of the clean ones accepted as fine)"
    )


def table(outcomes: list[Outcome]) -> str:
    rows = [("command", "input", "result")] + [(o.case.command, o.case.kind, o.verdict) for o in outcomes]
    widths = [max(len(r[i]) for r in rows) for i in range(2)]
    return "\n".join(f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]}" for r in rows)


def by_command(outcomes: list[Outcome]) -> str:
    """One row per command: cases tried, refused cleanly, accepted as fine, not clean."""
    rows: list[tuple[str, ...]] = [("command", "tried", "refused", "accepted", "not clean")]
    for command in dict.fromkeys(o.case.command for o in outcomes):
        mine = [o for o in outcomes if o.case.command == command]
        counts = [sum(o.verdict == v for o in mine) for v in (CLEAN, ACCEPTED)]
        rows.append((command, str(len(mine)), *map(str, counts), str(sum(not o.clean for o in mine))))
    width = max(len(r[0]) for r in rows)
    return "\n".join(f"{r[0]:<{width}}" + "".join(f"{c:>11}" for c in r[1:]) for r in rows)


def main_census(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="the subset CI runs (under a minute)")
    parser.add_argument("--all", action="store_true", help="list clean cases too, not only the unclean")
    options = parser.parse_args(argv)
    outcomes = census(options.quick)
    print(by_command(outcomes), end="\n\n")
    shown = outcomes if options.all else [o for o in outcomes if not o.clean]
    if shown:
        print(table(shown), end="\n\n")
    print(totals(outcomes))
    return 0 if all(o.clean for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main_census())
