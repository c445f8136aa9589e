"""The open edition model: editions named by id or file, formats declared once, based
editions, and located errors for bad edition files. Every edition fact is read from the
built-in data, so the tests hold for any edition the registry lists."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from blackpoker.cli.main import main
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.compiler.environment import Environment
from click.testing import CliRunner, Result
from editions_support import written_out

ENV = Environment()
EDITIONS = ENV.builtin_editions()
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.yaml"))
NEW_FORMAT = {"id": "plus", "name": "プラス", "mark": "◇"}
NEW_LABEL = {"id": "scout", "name": "斥候"}  # a label no edition declares


def builtin(edition: str) -> dict[str, Any]:
    """The edition's data written out in full (a based edition's changes applied)."""
    return written_out(edition)


def write(path: Path, data: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def middle(data: dict[str, Any]) -> tuple[str, str]:
    """Two neighbouring formats of the edition (the 2nd and 3rd of four): a new format goes between."""
    ids = [f["id"] for f in data["formats"]]
    k = max(0, len(ids) // 2 - 1)
    return ids[k], ids[min(k + 1, len(ids) - 1)]


def with_new_format(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The edition with NEW_FORMAT after the middle format, joined by the actions of the next
    format: one format entry, and each joining action's `format:` names it."""
    full = copy.deepcopy(data)
    before, after = middle(full)
    ids = [f["id"] for f in full["formats"]]
    full["formats"].insert(ids.index(before) + 1, dict(NEW_FORMAT))
    joining = [a["id"] for a in full["actions"] if a["format"] == after and after != before]
    for action in full["actions"]:
        if action["id"] in joining:
            action["format"] = NEW_FORMAT["id"]
    return full, joining


# --- the registry ----------------------------------------------------------------------------


def test_the_registry_lists_each_built_in_edition_by_its_id_and_file() -> None:
    assert EDITIONS
    for edition in EDITIONS:
        path = ENV.builtin_path(edition)
        assert path.name == f"{edition}.yaml"
        assert builtin(edition)["id"] == edition


@pytest.mark.parametrize("edition", EDITIONS)
def test_formats_are_cumulative_from_the_first_format_each_entry_names(edition: str) -> None:
    source = ENV.edition(edition)
    ids = [f.id for f in source.edition.formats]
    data = builtin(edition)
    for written, action in zip(data["actions"], source.actions, strict=True):
        assert action.formats == tuple(ids[ids.index(written["format"]) :])
    for written, character in zip(data["characters"], source.characters, strict=True):
        assert character.formats == tuple(ids[ids.index(written["format"]) :])


# --- --edition PATH --------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_compile_takes_an_edition_file_as_it_takes_the_id(edition: str, tmp_path: Path) -> None:
    copied = tmp_path / f"{edition}.yaml"
    copied.write_bytes(ENV.builtin_path(edition).read_bytes())
    for fmt in builtin(edition)["formats"]:
        by_id, by_path = (
            cli("compile", "--edition", edition, "--format", fmt["id"]),
            cli("compile", "--edition", str(copied), "--format", fmt["id"]),
        )
        assert by_id.exit_code == by_path.exit_code == 0, by_path.output
        assert json.loads(by_id.stdout) == json.loads(by_path.stdout)


def test_an_unknown_edition_id_is_an_option_error() -> None:
    result = cli(
        "compile", "--edition", "nonesuch", "--format", ENV.edition(EDITIONS[0]).edition.formats[0].id
    )
    assert result.exit_code == 1
    assert result.stderr.startswith("--edition: unknown edition 'nonesuch' (built in: ")


# --- the whole pipeline on a changed copy ----------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_copied_edition_with_a_changed_action_and_a_new_format_runs_everywhere(
    edition: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Copy a built-in edition, change one action, add a format between two: validate,
    compile, build, a scenario and simulate work on it with no code change."""
    data, joining = with_new_format(builtin(edition))
    data["id"] = f"{edition}.1"
    own = {f["id"] for f in data["formats"]}  # not the extra format: the copy has no extra list
    scenario = next(
        p
        for p in sorted(SCENARIOS.glob("**/*.yaml"))
        if (found := yaml.safe_load(p.read_text(encoding="utf-8"))).get("edition") == edition
        and found.get("format") in own
    )
    written = yaml.safe_load(scenario.read_text(encoding="utf-8"))
    first = data["formats"][0]["id"]  # an action of every format, which the scenario does not name
    changed = next(
        a for a in data["actions"] if a["format"] == first and a["name"] not in str(written["commands"])
    )
    changed["name"] += "改"
    path = write(tmp_path / "lists" / f"{data['id']}.yaml", data)
    monkeypatch.chdir(tmp_path)

    assert cli("validate", str(path)).exit_code == 0

    compiled = cli("compile", "--edition", str(path), "--format", NEW_FORMAT["id"])
    assert compiled.exit_code == 0, compiled.output
    rules = json.loads(compiled.stdout)
    before, _ = middle(data)
    previous = ENV.compile(edition, before)
    ids = {a["id"] for a in rules["actions"]}
    assert ids == {a.id for a in previous.actions} | set(joining)
    assert changed["name"] in {a["name"] for a in rules["actions"]}

    built = cli("build", "--edition", str(path), "--format", NEW_FORMAT["id"], "--html-only", "--out", "site")
    assert built.exit_code == 0, built.output
    page = tmp_path / "site" / data["id"] / f"{NEW_FORMAT['id']}.html"
    assert changed["name"] in page.read_text(encoding="utf-8")

    written["edition"] = f"lists/{path.name}"  # relative to the scenario file
    written["format"] = (
        NEW_FORMAT["id"] if written["format"] in ids_up_to(data, before) else written["format"]
    )
    scenario_copy = write(tmp_path / "ruling.yaml", written)
    ran = cli("scenario", "run", str(scenario_copy))
    assert ran.exit_code == 0, ran.output
    assert ran.output.splitlines()[-1] == "1 passed, 0 failed"

    simulated = cli(
        "simulate",
        "--edition",
        str(path),
        "--format",
        NEW_FORMAT["id"],
        "-n",
        "3",
        "--json",
        "--logs",
        "logs",
    )
    assert simulated.exit_code == 0, simulated.output
    assert json.loads(simulated.stdout)["games"] == 3

    replayed = cli("replay", "--edition", str(path), "logs")
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.splitlines()[-1] == "3 replayed, 0 failed"
    found = cli("replay", "logs")  # the headers record the edition file, by path from the log
    assert found.exit_code == 0, found.output
    path.rename(path.with_suffix(".moved"))
    lost = cli("replay", "logs")
    assert lost.exit_code == 1
    first = lost.stderr.splitlines()[0]
    assert first.startswith("logs/game-") and ".jsonl:1:" in first  # at the log's header
    assert f"edition_file ../lists/{path.name} (from the log's folder) is missing" in first
    path.with_suffix(".moved").rename(path)

    played = CliRunner().invoke(
        main, ["play", "--edition", str(path), "--format", NEW_FORMAT["id"], "--seed", "1"], input="q\n"
    )
    assert played.exit_code == 0, played.output
    assert f"BlackPoker {path} {NEW_FORMAT['name']}" in played.output  # the format by its printed name


def ids_up_to(data: dict[str, Any], last: str) -> list[str]:
    ids = [f["id"] for f in data["formats"]]
    return ids[: ids.index(last) + 1]


# --- based editions --------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_based_edition_compiles_to_the_edition_written_out_in_full(edition: str, tmp_path: Path) -> None:
    data = builtin(edition)
    full, joining = with_new_format(data)
    full["id"] = based_id = f"{edition}.1"
    full["title"] += " 改訂"
    first, last = full["actions"][0], full["actions"][-1]
    first["effect"] += "（改）"
    named = json.dumps([full["actions"], full["characters"]], ensure_ascii=False)
    removed = next(
        a
        for a in reversed(full["actions"])
        if named.count(f'"{a["id"]}"') == 1 and "pass_turn" not in json.dumps(a)  # nothing needs it
    )
    full["actions"].remove(removed)
    character = full["characters"][0]
    character["ability"] = character.get("ability", "") + "（改）"  # optional (8.2 has labels instead)
    added = {**copy.deepcopy(last), "id": "addedAction", "name": "追加アクション"}
    full["actions"].append(added)
    before, _ = middle(data)
    based = {
        "kind": "edition",
        "id": based_id,
        "base": edition,
        "title": full["title"],
        "formats": {"add": [{**NEW_FORMAT, "after": before}]},
        "actions": {
            "add": [added],
            "change": {
                first["id"]: {"effect": first["effect"]},
                **{a: {"format": NEW_FORMAT["id"]} for a in joining},
            },
            "remove": [removed["id"]],
        },
        "characters": {"change": {character["id"]: {"ability": character["ability"]}}},
    }
    written_out = Environment().compile_edition(str(write(tmp_path / "full" / f"{based_id}.yaml", full)))
    from_base = Environment().compile_edition(str(write(tmp_path / "based" / f"{based_id}.yaml", based)))
    assert from_base == written_out
    assert list(from_base) == [f["id"] for f in full["formats"]]


def test_a_base_beside_the_file_comes_before_a_built_in_one(tmp_path: Path) -> None:
    edition = EDITIONS[0]
    sibling = builtin(edition)
    sibling["title"] = "手元の版"
    write(tmp_path / f"{edition}.yaml", sibling)
    child = write(tmp_path / "child.yaml", {"kind": "edition", "id": "child", "base": edition})
    assert Environment().edition(str(child)).edition.title == "手元の版"


def test_an_environment_reads_a_based_edition_again_when_its_base_changes(tmp_path: Path) -> None:
    edition = EDITIONS[0]
    base = builtin(edition)
    write(tmp_path / f"{edition}.yaml", base)
    child = write(tmp_path / "child.yaml", {"kind": "edition", "id": "child", "base": edition})
    env = Environment()
    assert env.edition(str(child)).edition.title == base["title"]
    assert env.edition(str(child)) is env.edition(str(child))  # kept while nothing changes
    base["title"] += "（改）"
    write(tmp_path / f"{edition}.yaml", base)
    assert env.edition(str(child)).edition.title == base["title"]


def _base(example: Path) -> str:
    return str(yaml.safe_load(example.read_text(encoding="utf-8"))["base"])


# An example on another local rule finds its edition through that file: tested with it. One on
# the extra format names a built-in extra list, which belongs to the built-in edition only.
ON_OFFICIAL = [p for p in EXAMPLES if not _base(p).endswith(".yaml") and _base(p) != EXTRA_FORMAT.id]


@pytest.mark.parametrize("example_file", ON_OFFICIAL, ids=lambda p: p.name)
def test_a_local_rule_finds_the_edition_file_beside_it(example_file: Path, tmp_path: Path) -> None:
    """An overlay's `edition:` names an edition file beside it by id, as `base:` does."""
    example = yaml.safe_load(example_file.read_text(encoding="utf-8"))
    data = builtin(example["edition"])
    data["id"] = example["edition"] = f"{data['id']}.1"
    data["title"] = "手元の版"
    write(tmp_path / f"{data['id']}.yaml", data)
    rules = write(tmp_path / "rules.yaml", example)
    assert cli("validate", str(rules)).exit_code == 0
    compiled = cli("compile", "--rules", str(rules), "--format", example["name"])
    assert compiled.exit_code == 0, compiled.output
    assert json.loads(compiled.stdout)["edition_title"] == "手元の版"
    data["actions"][0]["type"] = "未知"
    edition = write(tmp_path / f"{data['id']}.yaml", data)
    broken = cli("validate", str(rules))
    assert broken.exit_code == 1
    assert broken.stderr.startswith(f"{edition}:{line_of(edition, 'type: 未知')}:")


def test_a_change_in_a_based_edition_is_located_in_its_own_file(tmp_path: Path) -> None:
    edition = EDITIONS[0]
    action = builtin(edition)["actions"][0]["id"]
    based = {
        "kind": "edition",
        "id": "child",
        "base": edition,
        "actions": {"change": {action: {"type": "未知"}}},
    }
    path = write(tmp_path / "child.yaml", based)
    result = cli("validate", str(path))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}:{line_of(path, 'type: 未知')}:")
    assert "type: unknown action type '未知'" in result.stderr


# --- bad edition files -----------------------------------------------------------------------


def bad(tmp_path: Path, name: str, data: dict[str, Any]) -> tuple[Path, Result]:
    path = write(tmp_path / name, data)
    return path, cli("validate", str(path))


def test_an_id_that_disagrees_with_the_file_name_is_located(tmp_path: Path) -> None:
    data = builtin(EDITIONS[0])
    path, result = bad(tmp_path, "other.yaml", data)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        f"{path}:{line_of(path, 'id: ')}:5: id: '{data['id']}' does not match the file name 'other.yaml'"
        f" (expected {data['id']}.yaml)"
    )


def test_an_unknown_base_is_located_at_base(tmp_path: Path) -> None:
    path, result = bad(tmp_path, "child.yaml", {"kind": "edition", "id": "child", "base": "nowhere"})
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}:{line_of(path, 'base:')}:7: base: unknown edition 'nowhere'")


def test_a_cycle_of_bases_is_located_at_base(tmp_path: Path) -> None:
    a = write(tmp_path / "a.yaml", {"kind": "edition", "id": "a", "base": "b"})
    _, result = bad(tmp_path, "b.yaml", {"kind": "edition", "id": "b", "base": "a"})
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        f"{a}:{line_of(a, 'base:')}:7: base: a cycle of bases: b.yaml -> a.yaml -> b.yaml"
    )


def test_an_unknown_format_in_an_entry_is_located(tmp_path: Path) -> None:
    data = builtin(EDITIONS[0])
    named = json.dumps([data["actions"], data["characters"]], ensure_ascii=False)
    # an action nothing else needs: leaving every format breaks nothing but its own line
    action = next(
        a for a in data["actions"] if named.count(f'"{a["id"]}"') == 1 and "pass_turn" not in json.dumps(a)
    )
    action["format"] = "nonesuch"
    path, result = bad(tmp_path, f"{data['id']}.yaml", data)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}:{line_of(path, 'format: nonesuch')}:")
    assert "format: unknown format 'nonesuch' (declared: " in result.stderr


def test_an_unknown_format_after_which_to_add_is_located(tmp_path: Path) -> None:
    data = {
        "kind": "edition",
        "id": "child",
        "base": EDITIONS[0],
        "formats": {"add": [{**NEW_FORMAT, "after": "nonesuch"}]},
    }
    path, result = bad(tmp_path, "child.yaml", data)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}:{line_of(path, 'after: nonesuch')}:")
    assert "formats.add.after: unknown format 'nonesuch'" in result.stderr


def test_a_character_label_must_be_declared(tmp_path: Path) -> None:
    data = builtin(EDITIONS[0])
    data["labels"] = [*data.get("labels", ()), NEW_LABEL]
    data["characters"][0]["labels"] = [NEW_LABEL["id"], "flyer"]
    path, result = bad(tmp_path, f"{data['id']}.yaml", data)
    assert result.exit_code == 1
    declared = ", ".join(x["id"] for x in data["labels"])
    assert result.stderr.splitlines()[0] == (
        f"{path}:{line_of(path, '- flyer')}:5: labels: unknown label 'flyer' (declared: {declared})"
    )


# --- the descriptive fields and the fog list -------------------------------------------------


def described(data: dict[str, Any]) -> dict[str, Any]:
    """The edition with every descriptive field written once: labels, a fog, texts."""
    data = copy.deepcopy(data)
    second = data["formats"][min(1, len(data["formats"]) - 1)]["id"]
    # the labels the edition's programs name stay declared
    data["labels"] = [*data.get("labels", ()), NEW_LABEL]
    data["fog_types"] = ["滞留魔法"]
    data["fogs"] = [
        {
            "id": "lingering",
            "name": "滞留",
            "ruby": "たいりゅう",
            "type": "滞留魔法",
            "format": second,
            "key": "♡A〜5",
            "ability": "能力の文。",
            "action": data["actions"][0]["id"],
            "since": data["actions"][0]["since"],
        }
    ]
    data["actions"][0].update(
        ruby="るび",
        activation_condition="起動の文。",
        trigger_condition="誘発の文。",
        changed=True,
        dev_note="メモ",
    )
    data["characters"][0].update(
        labels=[NEW_LABEL["id"]], size_text="サイズの文。", ruby="るび", changed=True
    )
    return data


@pytest.mark.parametrize("edition", EDITIONS)
def test_descriptive_fields_and_fogs_reach_the_compiled_rule_set(edition: str, tmp_path: Path) -> None:
    data = described(builtin(edition))
    path = write(tmp_path / f"{edition}.yaml", data)
    rulesets = Environment().compile_edition(str(path))
    fog = data["fogs"][0]
    for format_id, rules in rulesets.items():  # a fog belongs to its format and the later ones
        assert [f.id for f in rules.fogs] == (
            [fog["id"]] if format_id in ids_from(data, fog["format"]) else []
        )
    last = rulesets[data["formats"][-1]["id"]]
    action, character = last.action(data["actions"][0]["id"]), last.character(data["characters"][0]["id"])
    assert (
        action.ruby,
        action.activation_condition,
        action.trigger_condition,
        action.changed,
        action.dev_note,
    ) == ("るび", "起動の文。", "誘発の文。", True, "メモ")
    assert (character.labels, character.size_text, character.changed) == (
        (NEW_LABEL["id"],),
        "サイズの文。",
        True,
    )
    assert [label.name for label in last.edition.labels][-1] == NEW_LABEL["name"]
    compiled = cli("compile", "--edition", str(path), "--format", data["formats"][-1]["id"])
    emitted = json.loads(compiled.stdout)
    assert emitted["fogs"][0]["key"] == "♡A〜5" and emitted["fogs"][0]["debut"] == fog["format"]
    assert emitted["characters"][0]["labels"] == [NEW_LABEL["id"]]


def ids_from(data: dict[str, Any], first: str) -> list[str]:
    ids = [f["id"] for f in data["formats"]]
    return ids[ids.index(first) :]


def test_a_fog_names_a_declared_type_and_an_action(tmp_path: Path) -> None:
    data = described(builtin(EDITIONS[0]))
    data["fogs"][0].update(type="未知", action="nonesuch")
    path, result = bad(tmp_path, f"{data['id']}.yaml", data)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert (
        lines[0]
        == f"{path}:{line_of(path, 'type: 未知')}:9: type: unknown fog type '未知' (declared: 滞留魔法)"
    )
    assert lines[1].startswith(
        f"{path}:{line_of(path, 'action: nonesuch')}:11: action: unknown action 'nonesuch'"
    )


def test_the_commands_defaults_are_data_naming_a_built_in_edition_and_its_formats() -> None:
    env = Environment()
    edition = env.default("edition")
    assert edition in env.builtin_editions()
    known = {f.id for f in env.edition(edition).edition.formats}
    assert {env.default("format"), env.default("play_format")} <= known
    compiled = env.compile()  # the Python API takes the same defaults
    assert (compiled.edition.id, compiled.format.id) == (edition, env.default("format"))
