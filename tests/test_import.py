"""`blackpoker import`: the official upstream lists → edition files.

The upstream files are read from ../shared/reference/upstream; every expectation about an
edition is read from the upstream file or from the built-in edition, never written here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml
from bad_input_support import invoke, located, tree
from blackpoker.compiler.pipeline import compile_edition, edition_source
from click.testing import Result
from editions_support import (
    EDITIONS,
    UPSTREAM,
    accepted,
    formats,
    import_like,
    read_upstream,
    upstream_entries,
    upstream_lists,
    upstream_with,
)

DECISIONS = Path(__file__).resolve().parents[1] / "docs" / "decisions.md"
# (edition, upstream list) for every built-in edition made from an upstream list; the ones with
# recorded departures (tests/data/a/decisions.yaml) are written by hand, the others imported.
LISTS = list(upstream_lists().items())
IMPORTED = [(edition, name) for edition, name in LISTS if not accepted(edition)]
WRITTEN = [(edition, name) for edition, name in LISTS if accepted(edition)]


def upstream_file(name: str) -> Path:
    read_upstream(name)  # skips when the shared data is not beside this checkout
    return UPSTREAM / name


def any_list() -> str:
    """An upstream list for a test about the importer, not about an edition."""
    return upstream_with(lambda _: True)


def run_import(tmp_path: Path, name: str, *options: str) -> tuple[Result, dict[str, Any]]:
    out = tmp_path / "out"
    result = invoke("import", upstream_file(name), "--out", out, *options)
    assert result.exit_code == 0, result.output
    (written,) = out.glob("*.yaml")
    return result, yaml.safe_load(written.read_text(encoding="utf-8"))


def shipped_file(edition: str) -> Path:
    """The packaged file of an edition, registered as built-in or not yet."""
    return Path(str(files("blackpoker.actionlists") / f"{edition}.yaml"))


def builtin(edition: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(shipped_file(edition).read_text(encoding="utf-8"))
    return data


def fields_both_have(
    imported: dict[str, Any], shipped: dict[str, Any]
) -> Iterator[tuple[tuple[str, str, str], Any, Any]]:
    for key in imported.keys() & shipped.keys() - {"actions", "characters", "fogs"}:
        yield ("header", "", key), imported[key], shipped[key]
    for name in ("actions", "characters"):
        ours = {entry["id"]: entry for entry in shipped[name]}
        assert [e["id"] for e in imported[name]] == list(ours), name  # same entries, same order
        for entry in imported[name]:
            for key in entry.keys() & ours[entry["id"]].keys():
                yield (name, entry["id"], key), entry[key], ours[entry["id"]][key]


# --- round trip ---------------------------------------------------------------------------


@pytest.mark.parametrize(("edition", "name"), WRITTEN)
def test_importing_agrees_with_the_builtin_edition_apart_from_recorded_decisions(
    tmp_path: Path, edition: str, name: str
) -> None:
    _, imported = run_import(tmp_path, name, "--like", import_like(edition))
    used = set()
    recorded = accepted(edition)
    for where, ours, theirs in fields_both_have(imported, builtin(edition)):
        if where in recorded:
            used.add(where)
            _, repair = recorded[where]
            assert ours != theirs, f"{where}: accepted as different, but equal"
            if repair is not None:
                assert ours.replace(*repair) == theirs, where
        else:
            assert ours == theirs, where
    assert used == recorded.keys()  # no accepted difference is stale


def test_each_accepted_difference_points_to_a_recorded_decision() -> None:
    rows = [
        line.split("|")[1].strip()
        for line in DECISIONS.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ")
    ]
    topics = [topic for edition in EDITIONS for topic, _ in accepted(edition).values()]
    assert topics
    for topic in topics:
        assert any(row.startswith(topic) for row in rows), topic


# --- the built-in editions: entries per format agree with the upstream files ----------------

LIST_NAMES = {"act": "actions", "char": "characters", "fog": "fogs"}


def upstream_names(name: str, decided: set[str]) -> dict[str, dict[str, list[str]]]:
    """Per list and format, the names of the upstream entries that belong to it, save the
    entries whose format the edition decided itself."""
    per_format: dict[str, dict[str, list[str]]] = {list_name: {} for list_name in LIST_NAMES.values()}
    for kind, entry in upstream_entries(read_upstream(name)):
        if entry[f"{kind}Id"] in decided:
            continue
        for format_id in filter(None, (f.strip() for f in entry["format"].split(","))):
            per_format[LIST_NAMES[kind]].setdefault(format_id, []).append(entry[f"{kind}Name"])
    return per_format


def per_format(entries: Any, format_ids: Any, decided: set[str]) -> dict[str, list[str]]:
    return {f: sorted(e.name for e in entries if f in e.formats and e.id not in decided) for f in format_ids}


@pytest.mark.parametrize(("edition", "name"), LISTS)
def test_entries_per_format_match_the_upstream_file(edition: str, name: str) -> None:
    source = edition_source(str(shipped_file(edition)))
    format_ids = [f.id for f in source.edition.formats]
    decided = {id_ for (_, id_, field) in accepted(edition) if field == "format"}
    upstream = upstream_names(name, decided)
    assert set(format_ids) == set(upstream["actions"])
    for list_name, names in upstream.items():
        expected = {f: sorted(names.get(f, [])) for f in format_ids}
        assert per_format(getattr(source, list_name), format_ids, decided) == expected, list_name


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_complete_edition_compiles_every_format_with_the_same_entries(edition: str) -> None:
    source = edition_source(edition)
    assert all(action.program for action in source.actions)
    for format_id, ruleset in compile_edition(edition).items():
        for list_name in ("actions", "characters", "fogs"):
            assert [e.name for e in getattr(ruleset, list_name)] == [
                e.name for e in getattr(source, list_name) if format_id in e.formats
            ], (format_id, list_name)


@pytest.mark.parametrize(("edition", "name"), IMPORTED)
def test_the_shipped_edition_holds_what_a_fresh_import_gives(tmp_path: Path, edition: str, name: str) -> None:
    """Hand completion adds programs and engine data; every imported field stays as imported."""
    _, imported = run_import(tmp_path, name, "--like", import_like(edition))
    shipped = builtin(edition)
    assert imported["id"] == shipped["id"]  # derived from the list's ver
    for key in (
        "title",
        "published",
        "formats",
        "sections",
        "action_types",
        "character_types",
        "labels",
        "fog_types",
    ):
        assert imported.get(key) == shipped.get(key), key
    for list_name in ("actions", "characters", "fogs"):
        ours = {entry["id"]: entry for entry in shipped.get(list_name, ())}
        assert [e["id"] for e in imported.get(list_name, ())] == list(ours), list_name
        for entry in imported.get(list_name, ()):
            for key, value in entry.items():
                assert ours[entry["id"]].get(key) == value, (list_name, entry["id"], key)


# --- programs copied from another edition ---------------------------------------------------


def reworded(edition: str) -> list[str]:
    """The actions whose effect the edition words otherwise than upstream (a repair of spacing
    alone is no change of words)."""
    return sorted(
        id_
        for (_, id_, key), (_, repair) in accepted(edition).items()
        if key == "effect" and repair and repair[0].split() != repair[1].split()
    )


def test_programs_and_engine_data_are_copied_by_id_and_changed_texts_listed(tmp_path: Path) -> None:
    edition, name = next(((e, n) for e, n in LISTS if reworded(e)), (None, None))
    assert edition and name, "no built-in edition rewords an upstream effect"
    result, imported = run_import(tmp_path, name, "--like", import_like(edition), "--programs-from", edition)
    shipped = builtin(edition)
    for name in ("actions", "characters"):
        ours = {entry["id"]: entry for entry in shipped[name]}
        for entry in imported[name]:
            source = ours[entry["id"]]
            for key in ("program", "face", "attack", "size", "combat", "triggers", "waives_cost_of", "since"):
                assert entry.get(key) == source.get(key), (entry["id"], key)
    lines = dict(
        line.split(": ", 1) for line in result.stderr.splitlines() if line.startswith(("to ", "characters"))
    )
    review = next(value for key, value in lines.items() if key.startswith("to review"))
    assert sorted(review.split(", ")) == reworded(edition)
    assert next(value for key, value in lines.items() if key.startswith("to write")) == "none"


def test_without_a_program_source_every_action_is_left_to_write(tmp_path: Path) -> None:
    result, imported = run_import(tmp_path, any_list())
    assert all("program" not in entry for entry in imported["actions"])
    assert "every action needs its program" in result.stderr


# --- upstream defects repaired, each reported where it stands -------------------------------


@pytest.mark.parametrize(("edition", "name"), LISTS)
def test_repairs_are_reported_at_their_place_and_ids_end_unique(
    tmp_path: Path, edition: str, name: str
) -> None:
    result, imported = run_import(tmp_path, name, "--like", import_like(edition))
    repairs = [line for line in result.stderr.splitlines() if line.endswith("(repaired)")]
    assert repairs
    for line in repairs:
        assert line.startswith(f"{upstream_file(name)}:"), line
    for list_name in ("actions", "characters", "fogs"):
        ids = [entry["id"] for entry in imported.get(list_name, ())]
        assert len(ids) == len(set(ids)), list_name
    versions = [
        v
        for entries in ("actions", "characters", "fogs")
        for e in imported.get(entries, ())
        for v in [e.get("since", "v"), *e.get("updates", ())]
    ]
    assert all(v.startswith("v") for v in versions)


# --- bad input: every problem located in the upstream file, nothing written -----------------


def spoil(
    tmp_path: Path, replacements: list[tuple[str, str]], name: str
) -> tuple[Path, list[tuple[int, int]]]:
    """Upstream file `name` with each `old` (its first occurrence) replaced by `new`; where each
    now stands."""
    text = upstream_file(name).read_text(encoding="utf-8")
    places = []
    for old, new in replacements:
        start = text.index(old)
        text = text[:start] + new + text[start + len(old) :]
        line = text.count("\n", 0, start) + 1
        places.append((line, start - text.rfind("\n", 0, start)))
    path = tmp_path / "spoilt.yaml"
    path.write_text(text, encoding="utf-8")
    return path, places


def skipping(format_string: str, format_ids: list[str]) -> str | None:
    """`format_string` (',,c,d': each item the format of its place) made to skip a later
    format: its first named format moves one place earlier and leaves a gap; None when it names
    too few formats for that."""
    items = format_string.split(",")
    start = next((i for i, item in enumerate(items) if item), 0)
    if start == 0 or start + 1 >= len(items) or not items[start + 1]:
        return None
    items[start - 1], items[start] = format_ids[start - 1], ""
    return ",".join(items)


def test_every_bad_string_is_reported_at_its_line_and_column(tmp_path: Path) -> None:
    name = upstream_with(
        lambda data: all("actCost" in a and "actNote" in a for a in data["actList"][0]["acts"])
    )
    edition = next(e for e, n in LISTS if n == name)
    acts = [entry for kind, entry in upstream_entries(read_upstream(name)) if kind == "act"]
    cost = next(a["actCost"] for a in acts if a.get("actCost"))
    format_string = next(a["format"] for a in acts if skipping(a["format"], formats(edition)))
    path, places = spoil(
        tmp_path,
        [
            (f"actCost: {cost}", f"actCost: {cost}X"),  # X is no payment unit
            ("actKey: J〜K", "actKey: J〜Z"),
            ("actTime: クイック", "actTime: 昼"),
            (f"format: '{format_string}'", f"format: '{skipping(format_string, formats(edition))}'"),
            ("actNote: ''", "actNoet: ''"),
        ],
        name,
    )
    out = tmp_path / "out"
    result = invoke("import", path, "--out", out)
    shown = str(path)
    (cost_at, key, time, format_, unknown) = places
    located(result, shown, cost_at[0], cost_at[1] + len(f"actCost: {cost}"), f"actCost '{cost}X'")
    located(result, shown, key[0], key[1] + len("actKey: J〜"), "actKey 'J〜Z'")
    located(result, shown, time[0], time[1] + len("actTime: "), "not a known word")
    located(result, shown, format_[0], format_[1] + len("format: "), "every later one")
    located(result, shown, unknown[0], unknown[1], "unknown key 'actNoet'")
    assert "5 problems found; nothing written" in result.stderr
    assert not out.exists() or not any(out.iterdir())


def repeats_an_id(data: dict[str, Any]) -> bool:
    ids = [c["charId"] for group in data["charList"] for c in group["chars"]]
    return len(ids) != len(set(ids))


def test_a_repeated_id_without_a_reference_entry_is_an_error(tmp_path: Path) -> None:
    name = upstream_with(repeats_an_id)
    data = read_upstream(name)
    ids = [c["charId"] for group in data["charList"] for c in group["chars"]]
    repeated = next(
        c
        for group in data["charList"]
        for c in group["chars"]
        if ids.count(c["charId"]) > 1
        and ids.index(c["charId"]) != [x for g in data["charList"] for x in g["chars"]].index(c)
    )
    path, ((line, col),) = spoil(tmp_path, [(f"charName: {repeated['charName']}", "charName: 名無し")], name)
    result = invoke("import", path, "--out", tmp_path / "out")
    id_line = line + 1  # charId follows charName upstream
    located(result, str(path), id_line, col + len("charId: "), f"id '{repeated['charId']}' is used twice")


def repeated_type_lines(name: str) -> list[tuple[int, str]]:
    """(line number, line) of each charType line that repeats the line above it."""
    lines = upstream_file(name).read_text(encoding="utf-8").splitlines()
    return [
        (n, line)
        for n, line in enumerate(lines, 1)
        if line.strip().startswith("charType:") and lines[n - 2].strip() == line.strip()
    ]


def test_a_key_repeated_with_another_value_is_an_error(tmp_path: Path) -> None:
    name = next((n for n in upstream_lists().values() if repeated_type_lines(n)), None)
    assert name, "no upstream list repeats a key"
    ((line_no, line),) = repeated_type_lines(name)
    path, _ = spoil(tmp_path, [(f"{line}\n{line}", f"{line}\n{line}x")], name)
    result = invoke("import", path, "--out", tmp_path / "out")
    located(result, str(path), line_no, line.index("charType") + 1, "duplicate key 'charType'")


def test_an_unknown_ver_needs_an_id(tmp_path: Path) -> None:
    name = any_list()
    ver = read_upstream(name)["data"]["ver"]
    path, ((line, col),) = spoil(tmp_path, [(f"ver: {ver}", "ver: 特別版")], name)
    result = invoke("import", path, "--out", tmp_path / "out")
    located(result, str(path), line, col + len("ver: "), "give --id")
    result = invoke("import", path, "--out", tmp_path / "out", "--id", "special-1")
    assert result.exit_code == 0, result.output
    assert (
        yaml.safe_load((tmp_path / "out" / "special-1.yaml").read_text(encoding="utf-8"))["id"] == "special-1"
    )


# --- the output place -----------------------------------------------------------------------


def test_an_existing_output_is_replaced_only_with_force(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = invoke("import", upstream_file(any_list()), "--out", out, "--id", "x")
    assert first.exit_code == 0, first.output
    target = out / "x.yaml"
    target.write_text("mine\n", encoding="utf-8")
    again = invoke("import", upstream_file(any_list()), "--out", out, "--id", "x")
    assert again.exit_code == 1
    assert f"{target}:1:1: --out: the file exists; use --force" in again.stderr
    assert target.read_text(encoding="utf-8") == "mine\n"
    forced = invoke("import", upstream_file(any_list()), "--out", out, "--id", "x", "--force")
    assert forced.exit_code == 0, forced.output
    assert yaml.safe_load(target.read_text(encoding="utf-8"))["id"] == "x"
    assert sorted(p.name for p in out.iterdir()) == ["x.yaml"]  # no temporary file left


def test_an_output_under_a_file_is_refused_before_reading(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    result = invoke("import", upstream_file(any_list()), "--out", blocker / "out")
    assert result.exit_code == 1
    assert "--out: " in result.stderr and "nothing written" in result.stderr


def test_an_id_that_is_no_file_name_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = invoke("import", upstream_file(any_list()), "--out", out, "--id", "../escape")
    assert result.exit_code == 1
    assert "--id: '../escape' is not an edition id" in result.stderr
    assert not (tmp_path / "escape.yaml").exists() and not out.exists()


def test_in_a_list_with_actspeed_the_mark_says_changed(tmp_path: Path) -> None:
    name = upstream_with(lambda data: "actSpeed" in data["actList"][0]["acts"][0])
    first = read_upstream(name)["actList"][0]["acts"][0]
    old = f"actSpeed: {first['actSpeed']}"
    path, _ = spoil(tmp_path, [(old, f"{old}\n      actS: ●")], name)
    result = invoke("import", path, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    (written,) = (tmp_path / "out").glob("*.yaml")
    action = yaml.safe_load(written.read_text(encoding="utf-8"))["actions"][0]
    assert action["id"] == first["actId"] and action["changed"] is True
    assert [
        a for a in yaml.safe_load(written.read_text(encoding="utf-8"))["actions"] if a.get("changed")
    ] == [action]


def test_a_fog_without_an_action_of_its_name_is_an_error(tmp_path: Path) -> None:
    name = upstream_with(lambda data: data.get("fogList"))
    fog = read_upstream(name)["fogList"][0]["fogs"][0]
    path, ((line, col),) = spoil(tmp_path, [(f"fogName: {fog['fogName']}", "fogName: 霧")], name)
    result = invoke("import", path, "--out", tmp_path / "out")
    located(result, str(path), line, col + len("fogName: "), "fogName '霧': no action has this name")


# --- names made from upstream data never leave --out ---------------------------------------


def upstream_extra(tmp_path: Path, version: str) -> tuple[Path, int, int]:
    """A copy of an upstream extra list whose data.v is `version`; where data.v's value stands."""
    read_upstream(any_list())  # skips when the shared data is not beside this checkout
    source = next(
        p
        for p in sorted(UPSTREAM.glob("*.yaml"))
        if "abiList" in read_upstream(p.name) and "v" in read_upstream(p.name)["data"]
    )
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    line = next(n for n, text in enumerate(lines) if text.startswith("  v: "))
    lines[line] = f"  v: '{version}'\n"
    path = tmp_path / "up" / source.name
    path.parent.mkdir()
    path.write_text("".join(lines), encoding="utf-8")
    return path, line + 1, len("  v: ") + 1


@pytest.mark.parametrize("version", ["../x", "/tmp/x", "a/b", "7/../../../escaped", "7\\..\\x"])
def test_an_upstream_id_with_path_parts_is_refused_where_it_stands(version: str, tmp_path: Path) -> None:
    upstream, line, col = upstream_extra(tmp_path, version)
    (tmp_path / "out" / "v7").mkdir(parents=True)  # a folder an id of 7/../.. would pass through
    (tmp_path / "escaped.yaml").write_text("someone's file\n", encoding="utf-8")
    before = tree(tmp_path)
    result = invoke("import", upstream, "--out", tmp_path / "out", "--force")
    located(result, str(upstream), line, col, "data.v: the id")
    assert "nothing written" in result.stderr
    assert tree(tmp_path) == before and sorted(p.name for p in (tmp_path / "out").iterdir()) == ["v7"]


def test_a_refused_import_makes_no_folder(tmp_path: Path) -> None:
    upstream, line, col = upstream_extra(tmp_path, "../x")
    out = tmp_path / "new" / "deeper"
    located(invoke("import", upstream, "--out", out), str(upstream), line, col, "data.v")
    bad_id = invoke("import", upstream_file(any_list()), "--out", out, "--id", "../x")
    assert bad_id.exit_code == 1 and "--id: " in bad_id.stderr
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("points_to", ["a file outside", "a missing file outside", "itself"])
def test_forced_import_never_writes_through_a_link(points_to: str, tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    victim = tmp_path / "outside" / "victim.yaml"
    victim.write_text("someone's file\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    target = {"a file outside": victim, "a missing file outside": victim.with_name("new.yaml")}
    (out / "x.yaml").symlink_to(target.get(points_to, out / "x.yaml"))
    before = tree(tmp_path)
    result = invoke("import", upstream_file(any_list()), "--out", out, "--id", "x", "--force")
    assert result.exit_code == 1, result.output
    assert re.search(rf"^{re.escape(str(out / 'x.yaml'))}:1:1: --out: ", result.stderr, re.M), result.stderr
    assert tree(tmp_path) == before


def test_an_import_onto_its_own_upstream_file_is_refused(tmp_path: Path) -> None:
    upstream = tmp_path / "x.yaml"
    upstream.write_bytes(upstream_file(any_list()).read_bytes())
    before = tree(tmp_path)
    result = invoke("import", upstream, "--out", tmp_path, "--id", "x", "--force")
    assert result.exit_code == 1
    assert f"{upstream}:1:1: --out: is {upstream}, an input of this command" in result.stderr
    assert tree(tmp_path) == before


# --- what an import writes passes validate -------------------------------------------------


def test_an_import_whose_file_would_fail_validate_writes_nothing(tmp_path: Path) -> None:
    """An upstream extra list giving one card two abilities: the file it would write fails
    `validate`, so the import reports every problem, located in that file, and writes nothing
    (an existing file is kept, even with --force)."""
    name = next(p.name for p in sorted(UPSTREAM.glob("*.yaml")) if "abiList" in read_upstream(p.name))
    upstream = read_upstream(name)
    first, second = upstream["abiList"][0], upstream["abiList"][1]
    text = upstream_file(name).read_text(encoding="utf-8")
    twice = f"  - suit: {second['suit']}\n    num: {first['num']}\n"
    text = text.replace(f"  - suit: {second['suit']}\n    num: '{second['num']}'\n", twice, 1)
    assert twice in text
    (tmp_path / name).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    result = invoke("import", tmp_path / name, "--out", out)
    assert result.exit_code == 1 and not out.exists(), result.output
    assert re.search(
        rf"^{re.escape(str(out))}/[^:]+\.yaml:\d+:\d+: card \S+ is given an ability twice$",
        result.stderr,
        re.M,
    )
    assert "nothing written" in result.stderr
    out.mkdir()
    (out / "keep.yaml").write_text("kept", encoding="utf-8")
    before = tree(tmp_path)
    assert invoke("import", tmp_path / name, "--out", out, "--id", "keep", "--force").exit_code == 1
    assert tree(tmp_path) == before


def test_unknown_editions_of_the_options_are_reported_together(tmp_path: Path) -> None:
    """An unknown --like beside an unknown --programs-from, a bad --id and a broken upstream
    file: every problem at once, each under its option, nothing written."""
    broken = tmp_path / "broken.yaml"
    broken.write_text("data: {ver: x}\nactList: [\n", encoding="utf-8")
    result = invoke(
        "import",
        broken,
        "--out",
        tmp_path / "out",
        "--like",
        "nope",
        "--programs-from",
        "nada",
        "--id",
        "a b",
    )
    assert result.exit_code == 1 and not (tmp_path / "out").exists()
    lines = result.stderr.splitlines()
    assert any(line.startswith("--like: unknown edition 'nope'") for line in lines), lines
    assert any(line.startswith("--programs-from: unknown edition 'nada'") for line in lines), lines
    assert any(line.startswith("--id: 'a b' is not an edition id") for line in lines), lines
    assert any(line.startswith(f"{broken}:3:1: YAML syntax error") for line in lines), lines
    assert lines[-1] == "4 problems found; nothing written"
