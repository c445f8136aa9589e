"""`blackpoker import`: the official upstream lists → edition files.

The upstream files are read from ../shared/reference/upstream; every expectation about an
edition is read from the upstream file or from the built-in edition, never written here.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml
from bad_input_support import invoke, located
from blackpoker.compiler.pipeline import compile_edition, edition_source
from click.testing import Result
from conftest import SHARED

UPSTREAM = SHARED / "reference" / "upstream"
DECISIONS = Path(__file__).resolve().parents[1] / "docs" / "decisions.md"

# Where the built-in v7 list departs from the upstream v7-act.yaml, each by a decision recorded
# in docs/decisions.md: (list, id, field) → (decision topic, the repair: upstream text → built-in
# text, or None when the built-in value is chosen outright).
ACCEPTED: dict[tuple[str, str, str], tuple[str, tuple[str, str] | None]] = {
    **{
        ("actions", action, "effect"): ("ライフ vs デッキ", ("デッキ", "ライフ"))
        for action in ("draw", "deathLance", "addBulwark", "recruit", "search", "bj", "nextGeneration")
    },
    ("actions", "block", "effect"): ("A stray space in ブロック", ("。 ", "。")),
    ("actions", "reverse", "format"): ("リバース", None),
    ("header", "", "published"): ("Published date", None),
}


def upstream_file(name: str) -> Path:
    path = UPSTREAM / name
    if not path.is_file():
        pytest.skip("the shared upstream data (../shared/reference/upstream) is not beside this checkout")
    return path


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


def test_importing_v7_agrees_with_the_builtin_v7_apart_from_recorded_decisions(tmp_path: Path) -> None:
    _, imported = run_import(tmp_path, "v7-act.yaml", "--like", "v7")
    used = set()
    for where, ours, theirs in fields_both_have(imported, builtin("v7")):
        if where in ACCEPTED:
            used.add(where)
            _, repair = ACCEPTED[where]
            assert ours != theirs, f"{where}: accepted as different, but equal"
            if repair is not None:
                assert ours.replace(*repair) == theirs, where
        else:
            assert ours == theirs, where
    assert used == ACCEPTED.keys()  # no accepted difference is stale


def test_each_accepted_difference_points_to_a_recorded_decision() -> None:
    rows = [
        line.split("|")[1].strip()
        for line in DECISIONS.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ")
    ]
    for topic, _ in ACCEPTED.values():
        assert any(row.startswith(topic) for row in rows), topic


# --- the shipped imports: counts per format agree with the upstream files -------------------

SHIPPED = [("v6", "v6-act.yaml"), ("v8.2", "act.yaml")]


def upstream_names(name: str, groups: str, items: str, prefix: str) -> dict[str, list[str]]:
    """Per format, the names of the upstream entries that belong to it."""
    data = yaml.safe_load(upstream_file(name).read_text(encoding="utf-8"))
    per_format: dict[str, list[str]] = {}
    for group in data.get(groups) or ():
        for entry in group[items]:
            for format_id in filter(None, (f.strip() for f in entry["format"].split(","))):
                per_format.setdefault(format_id, []).append(entry[f"{prefix}Name"])
    return per_format


def per_format(entries: Any, format_ids: Any) -> dict[str, list[str]]:
    return {f: sorted(e.name for e in entries if f in e.formats) for f in format_ids}


@pytest.mark.parametrize(("edition", "name"), SHIPPED)
def test_entries_per_format_match_the_upstream_file(edition: str, name: str) -> None:
    source = edition_source(str(shipped_file(edition)))
    formats = [f.id for f in source.edition.formats]
    upstream = {
        "actions": upstream_names(name, "actList", "acts", "act"),
        "characters": upstream_names(name, "charList", "chars", "char"),
        "fogs": upstream_names(name, "fogList", "fogs", "fog"),
    }
    assert set(formats) == set(upstream["actions"])
    for list_name, names in upstream.items():
        expected = {f: sorted(names.get(f, [])) for f in formats}
        assert per_format(getattr(source, list_name), formats) == expected, list_name


# The shipped imports whose every action has its program (v8.2 joins when the 8.2 engine's
# programs are written): they compile in every format.
COMPLETE = ["v6"]


@pytest.mark.parametrize("edition", COMPLETE)
def test_a_complete_import_compiles_every_format_with_the_same_entries(edition: str) -> None:
    source = edition_source(edition)
    assert all(action.program for action in source.actions)
    for format_id, ruleset in compile_edition(edition).items():
        for list_name in ("actions", "characters", "fogs"):
            assert [e.name for e in getattr(ruleset, list_name)] == [
                e.name for e in getattr(source, list_name) if format_id in e.formats
            ], (format_id, list_name)


@pytest.mark.parametrize(("edition", "name"), SHIPPED)
def test_the_shipped_edition_holds_what_a_fresh_import_gives(tmp_path: Path, edition: str, name: str) -> None:
    """Hand completion adds programs and engine data; every imported field stays as imported."""
    _, imported = run_import(tmp_path, name, "--like", "v7")
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


def test_programs_and_engine_data_are_copied_by_id_and_changed_texts_listed(tmp_path: Path) -> None:
    result, imported = run_import(tmp_path, "v7-act.yaml", "--like", "v7", "--programs-from", "v7")
    shipped = builtin("v7")
    for name in ("actions", "characters"):
        ours = {entry["id"]: entry for entry in shipped[name]}
        for entry in imported[name]:
            source = ours[entry["id"]]
            for key in ("program", "face", "attack", "size", "combat", "triggers", "waives_cost_of", "since"):
                assert entry.get(key) == source.get(key), (entry["id"], key)
    reworded = sorted(  # a repair of spacing alone is no change of words
        id_
        for (_, id_, key), (_, repair) in ACCEPTED.items()
        if key == "effect" and repair and repair[0].split() != repair[1].split()
    )
    lines = dict(
        line.split(": ", 1) for line in result.stderr.splitlines() if line.startswith(("to ", "characters"))
    )
    review = next(value for key, value in lines.items() if key.startswith("to review"))
    assert sorted(review.split(", ")) == reworded
    assert next(value for key, value in lines.items() if key.startswith("to write")) == "none"


def test_without_a_program_source_every_action_is_left_to_write(tmp_path: Path) -> None:
    result, imported = run_import(tmp_path, "act.yaml", "--like", "v7")
    assert all("program" not in entry for entry in imported["actions"])
    assert "every action needs its program" in result.stderr


# --- upstream defects repaired, each reported where it stands -------------------------------


@pytest.mark.parametrize("name", ["v6-act.yaml", "v7-act.yaml", "act.yaml"])
def test_repairs_are_reported_at_their_place_and_ids_end_unique(tmp_path: Path, name: str) -> None:
    result, imported = run_import(tmp_path, name, "--like", "v7")
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
    tmp_path: Path, replacements: list[tuple[str, str]], name: str = "v7-act.yaml"
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


def test_every_bad_string_is_reported_at_its_line_and_column(tmp_path: Path) -> None:
    path, places = spoil(
        tmp_path,
        [
            ("actCost: BL", "actCost: BX"),
            ("actKey: J〜K", "actKey: J〜Z"),
            ("actTime: クイック", "actTime: 昼"),
            ("format: ',,pro,mast'", "format: ',std,,mast'"),
            ("actNote: ''", "actNoet: ''"),
        ],
    )
    out = tmp_path / "out"
    result = invoke("import", path, "--out", out, "--like", "v7")
    shown = str(path)
    (cost, key, time, format_, unknown) = places
    located(result, shown, cost[0], cost[1] + len("actCost: B"), "actCost 'BX'")
    located(result, shown, key[0], key[1] + len("actKey: J〜"), "actKey 'J〜Z'")
    located(result, shown, time[0], time[1] + len("actTime: "), "not a known word")
    located(result, shown, format_[0], format_[1] + len("format: "), "every later one")
    located(result, shown, unknown[0], unknown[1], "unknown key 'actNoet'")
    assert "5 problems found; nothing written" in result.stderr
    assert not out.exists() or not any(out.iterdir())


def test_a_repeated_id_without_a_reference_entry_is_an_error(tmp_path: Path) -> None:
    data = yaml.safe_load(upstream_file("v7-act.yaml").read_text(encoding="utf-8"))
    ids = [c["charId"] for group in data["charList"] for c in group["chars"]]
    repeated = next(
        c
        for group in data["charList"]
        for c in group["chars"]
        if ids.count(c["charId"]) > 1
        and ids.index(c["charId"]) != [x for g in data["charList"] for x in g["chars"]].index(c)
    )
    path, ((line, col),) = spoil(tmp_path, [(f"charName: {repeated['charName']}", "charName: 名無し")])
    result = invoke("import", path, "--out", tmp_path / "out", "--like", "v7")
    id_line = line + 1  # charId follows charName upstream
    located(result, str(path), id_line, col + len("charId: "), f"id '{repeated['charId']}' is used twice")


def test_a_key_repeated_with_another_value_is_an_error(tmp_path: Path) -> None:
    text = upstream_file("v7-act.yaml").read_text(encoding="utf-8")
    ((line_no, line),) = [
        (n, text_line)
        for n, text_line in enumerate(text.splitlines(), 1)
        if text_line.strip().startswith("charType:") and text.splitlines()[n - 2].strip() == text_line.strip()
    ]
    path, _ = spoil(tmp_path, [(f"{line}\n{line}", f"{line}\n{line}x")])
    result = invoke("import", path, "--out", tmp_path / "out", "--like", "v7")
    located(result, str(path), line_no, line.index("charType") + 1, "duplicate key 'charType'")


def test_an_unknown_ver_needs_an_id(tmp_path: Path) -> None:
    ver = yaml.safe_load(upstream_file("v7-act.yaml").read_text(encoding="utf-8"))["data"]["ver"]
    path, ((line, col),) = spoil(tmp_path, [(f"ver: {ver}", "ver: 特別版")])
    result = invoke("import", path, "--out", tmp_path / "out", "--like", "v7")
    located(result, str(path), line, col + len("ver: "), "give --id")
    result = invoke("import", path, "--out", tmp_path / "out", "--like", "v7", "--id", "special-1")
    assert result.exit_code == 0, result.output
    assert (
        yaml.safe_load((tmp_path / "out" / "special-1.yaml").read_text(encoding="utf-8"))["id"] == "special-1"
    )


# --- the output place -----------------------------------------------------------------------


def test_an_existing_output_is_replaced_only_with_force(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = invoke("import", upstream_file("v7-act.yaml"), "--out", out, "--like", "v7", "--id", "x")
    assert first.exit_code == 0, first.output
    target = out / "x.yaml"
    target.write_text("mine\n", encoding="utf-8")
    again = invoke("import", upstream_file("v7-act.yaml"), "--out", out, "--like", "v7", "--id", "x")
    assert again.exit_code == 1
    assert f"{target}: --out: the file exists; use --force" in again.stderr
    assert target.read_text(encoding="utf-8") == "mine\n"
    forced = invoke(
        "import", upstream_file("v7-act.yaml"), "--out", out, "--like", "v7", "--id", "x", "--force"
    )
    assert forced.exit_code == 0, forced.output
    assert yaml.safe_load(target.read_text(encoding="utf-8"))["id"] == "x"
    assert sorted(p.name for p in out.iterdir()) == ["x.yaml"]  # no temporary file left


def test_an_output_under_a_file_is_refused_before_reading(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    result = invoke("import", upstream_file("v7-act.yaml"), "--out", blocker / "out", "--like", "v7")
    assert result.exit_code == 1
    assert "--out: " in result.stderr and "nothing written" in result.stderr


def test_an_id_that_is_no_file_name_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = invoke("import", upstream_file("v7-act.yaml"), "--out", out, "--like", "v7", "--id", "../escape")
    assert result.exit_code == 1
    assert "--id: '../escape' is not an edition id" in result.stderr
    assert not (tmp_path / "escape.yaml").exists() and not (out.exists() and any(out.iterdir()))


def test_in_a_list_with_actspeed_the_mark_says_changed(tmp_path: Path) -> None:
    data = yaml.safe_load(upstream_file("act.yaml").read_text(encoding="utf-8"))
    first = data["actList"][0]["acts"][0]
    old = f"actSpeed: {first['actSpeed']}"
    path, _ = spoil(tmp_path, [(old, f"{old}\n      actS: ●")], "act.yaml")
    result = invoke("import", path, "--out", tmp_path / "out", "--like", "v7")
    assert result.exit_code == 0, result.output
    (written,) = (tmp_path / "out").glob("*.yaml")
    action = yaml.safe_load(written.read_text(encoding="utf-8"))["actions"][0]
    assert action["id"] == first["actId"] and action["changed"] is True
    assert [
        a for a in yaml.safe_load(written.read_text(encoding="utf-8"))["actions"] if a.get("changed")
    ] == [action]


def test_a_fog_without_an_action_of_its_name_is_an_error(tmp_path: Path) -> None:
    data = yaml.safe_load(upstream_file("act.yaml").read_text(encoding="utf-8"))
    fog = data["fogList"][0]["fogs"][0]
    path, ((line, col),) = spoil(tmp_path, [(f"fogName: {fog['fogName']}", "fogName: 霧")], "act.yaml")
    result = invoke("import", path, "--out", tmp_path / "out", "--like", "v7")
    located(result, str(path), line, col + len("fogName: "), "fogName '霧': no action has this name")
