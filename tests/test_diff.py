"""`blackpoker diff`: entries added, removed and changed, field by field, between real files.

The edition compared is the one the example local rule is written for; the entries edited
are picked from its data, so nothing here names an edition's actions.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import yaml
from blackpoker.cli.main import main
from blackpoker.compiler import CompileError
from blackpoker.compiler.documents.diff import EVERY_FORMAT, as_text, diff_rulesets
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.pipeline import builtin_path, load_sides
from click.testing import CliRunner
from site_support import text_content

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "my-std.yaml"
OVERLAY = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
EDITION = OVERLAY["edition"]  # the built-in edition the example is written for


def edition_data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(builtin_path(EDITION).read_text(encoding="utf-8"))
    return data


def write_edition(folder: Path, data: dict[str, Any]) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / f"{data['id']}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture
def edited(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A copy of the edition with one effect, one name and one ability changed, one action
    removed and one added (a copy of another under a new id); returns the file and the facts."""
    data = edition_data()
    actions, characters = data["actions"], data["characters"]
    changed, renamed, removed = actions[0], actions[1], actions[2]
    added = {**actions[3], "id": "copiedAction", "name": "コピー"}
    facts = {
        "changed": changed["id"],
        "old_effect": changed["effect"],
        "renamed": renamed["id"],
        "old_name": renamed["name"],
        "removed": removed["id"],
        "character": characters[0]["id"],
        "old_ability": characters[0].get("ability", ""),
    }
    changed["effect"] = f"{changed['effect']}\n追加の行。"
    renamed["name"] = "<b>新しい名前</b>"
    characters[0]["ability"] = "能力が変わった。"
    actions.remove(removed)
    actions.append(added)
    return write_edition(tmp_path / "new", data), facts


def test_an_edition_against_itself_has_no_changes() -> None:
    old, new = load_sides(Environment(), EDITION, EDITION, None)
    result = diff_rulesets(old, new)
    assert result.empty and not result.edition
    assert old.format == EVERY_FORMAT and len(old.actions) == len(edition_data()["actions"])


def test_added_removed_and_changed_entries_field_by_field(edited: tuple[Path, dict[str, Any]]) -> None:
    path, facts = edited
    result = diff_rulesets(*load_sides(Environment(), EDITION, str(path), None))
    parts = {part.list: part for part in result.lists}
    actions, characters = parts["actions"], parts["characters"]
    assert [e.id for e in actions.added] == ["copiedAction"]
    assert [e.id for e in actions.removed] == [facts["removed"]]
    changes = {c.entry.id: {f.field: (f.old, f.new) for f in c.changes} for c in actions.changed}
    assert changes == {
        facts["changed"]: {"effect": (facts["old_effect"], f"{facts['old_effect']}\n追加の行。")},
        facts["renamed"]: {"name": (facts["old_name"], "<b>新しい名前</b>")},
    }
    assert [(c.entry.id, [(f.field, f.new) for f in c.changes]) for c in characters.changed] == [
        (facts["character"], [("ability", "能力が変わった。")])
    ]
    assert parts["formats"].empty and not result.edition


def test_edition_fields_and_format_membership(tmp_path: Path) -> None:
    data = edition_data()
    first = data["formats"][0]["id"]
    data["title"] = "改訂版"
    moved = next(a for a in data["actions"] if first not in _formats(a, data))
    moved["format"] = first
    result = diff_rulesets(*load_sides(Environment(), EDITION, str(write_edition(tmp_path, data)), None))
    assert [(c.field, c.new) for c in result.edition] == [("title", "改訂版")]
    (entry,) = next(p for p in result.lists if p.list == "actions").changed
    assert entry.entry.id == moved["id"] and [(c.field, c.new) for c in entry.changes] == [("format", first)]


def test_core_rules_and_labels_change_one_line_each(tmp_path: Path) -> None:
    """A record is compared field by field, a list of records with ids id by id."""
    data = edition_data()
    data["core"] = {**data["core"], "hand_limit": data["core"]["hand_limit"] + 1, "target_required": False}
    data["labels"] = [*data.get("labels", ()), {"id": "scout", "name": "斥候"}]
    result = diff_rulesets(*load_sides(Environment(), EDITION, str(write_edition(tmp_path, data)), None))
    assert [(c.field, c.old, c.new) for c in result.edition] == [
        ("core.hand_limit", str(data["core"]["hand_limit"] - 1), str(data["core"]["hand_limit"])),
        ("core.target_required", "true", "false"),
        ("labels.scout", "", '{"name": "斥候"}'),
    ]
    first = str(write_edition(tmp_path / "a", data))
    data["labels"][-1] = {"id": "scout", "name": "改名"}
    renamed = diff_rulesets(*load_sides(Environment(), first, str(write_edition(tmp_path / "b", data)), None))
    assert [(c.field, c.old, c.new) for c in renamed.edition] == [("labels.scout.name", "斥候", "改名")]


def _formats(action: dict[str, Any], data: dict[str, Any]) -> list[str]:
    """The formats an action of the data belongs to: its first format and those after it."""
    ids = [f["id"] for f in data["formats"]]
    return ids[ids.index(action["format"]) :]


def test_within_one_format_membership_is_not_a_change(tmp_path: Path) -> None:
    data = edition_data()
    first, last = data["formats"][0]["id"], data["formats"][-1]["id"]
    moved = next(a for a in data["actions"] if first not in _formats(a, data))
    moved["format"] = first
    old, new = load_sides(Environment(), EDITION, str(write_edition(tmp_path, data)), last)
    assert (old.format.id, new.format.id) == (last, last)
    assert diff_rulesets(old, new).empty
    first_old, first_new = load_sides(Environment(), EDITION, str(tmp_path / f"{data['id']}.yaml"), first)
    added = next(p for p in diff_rulesets(first_old, first_new).lists if p.list == "actions").added
    assert [e.id for e in added] == [moved["id"]]


def test_a_local_rule_is_compared_with_its_base_format() -> None:
    old, new = load_sides(Environment(), EDITION, str(EXAMPLE), None)
    assert (old.format.id, new.format.id) == (OVERLAY["base"], OVERLAY["name"])
    actions = next(p for p in diff_rulesets(old, new).lists if p.list == "actions")
    assert [e.id for e in actions.added] == [a["id"] for a in OVERLAY["actions"]["add"]]
    assert [e.id for e in actions.removed] == OVERLAY["actions"]["remove"]
    assert {c.entry.id: {f.field for f in c.changes} for c in actions.changed} == {
        entry: set(fields) for entry, fields in OVERLAY["actions"]["change"].items()
    }


def test_values_print_as_the_data_spells_them() -> None:
    old, _ = load_sides(Environment(), EDITION, EDITION, None)
    costly = next(a for a in old.actions if a.cost.units and a.key is not None)
    raw = next(a for a in edition_data()["actions"] if a["id"] == costly.id)
    assert as_text(costly.cost) == str(raw["cost"]).replace("$", "")
    assert as_text(costly.timing) == raw["timing"]
    assert as_text(()) == "" and as_text(True) == "true"
    assert as_text(({"move": {"cards": "key"}},)) == '[{"move": {"cards": "key"}}]'


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, ["diff", *args])


def test_cli_prints_changes_and_writes_an_escaped_page(
    tmp_path: Path, edited: tuple[Path, dict[str, Any]]
) -> None:
    path, facts = edited
    page = tmp_path / "changes.html"
    result = invoke(EDITION, str(path), "--html", str(page))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "  + copiedAction コピー" in out and f"  - {facts['removed']} " in out
    assert f"      name: {facts['old_name']} → <b>新しい名前</b>" in out
    # A text of several lines: unchanged lines as they are, the added one marked +.
    unchanged = "".join(f"          {line}\n" for line in facts["old_effect"].splitlines())
    assert f"      effect:\n{unchanged}        + 追加の行。\n" in out, out
    html = page.read_text(encoding="utf-8")
    assert "<b>新しい名前</b>" not in html and "&lt;b&gt;新しい名前&lt;/b&gt;" in html
    text = text_content(html)
    assert "変更履歴" in text and "コピー" in text and "能力が変わった。" in text


def test_cli_no_changes() -> None:
    result = invoke(EDITION, EDITION, "--format", OVERLAY["base"])
    assert result.exit_code == 0
    assert result.output.splitlines()[1:] == [
        f"{name}: no changes" for name in ("formats", "actions", "characters", "fogs")
    ]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("nosuch", EDITION), r"^OLD: unknown edition 'nosuch'"),
        ((EDITION, "missing.yaml"), r"^missing\.yaml:1:1: cannot read file"),
        ((EDITION, EDITION, "--format", "nosuch"), r"^--format: .*no format 'nosuch'"),
        ((EDITION, str(EXAMPLE), "--format", "nosuch"), r"my-std\.yaml:\d+:\d+: --format nosuch"),
    ],
)
def test_bad_inputs_are_located_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], expected: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(*args)
    assert result.exit_code == 1
    assert re.search(expected, result.output, re.M), result.output
    assert "Traceback" not in result.output


def test_a_broken_file_is_reported_at_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = edition_data()
    data["actions"][0]["timing"] = "sometimes"
    write_edition(tmp_path, data)
    monkeypatch.chdir(tmp_path)
    result = invoke(EDITION, f"{data['id']}.yaml")
    assert result.exit_code == 1
    assert re.search(rf"^{re.escape(data['id'])}\.yaml:\d+:\d+: .*timing", result.output, re.M), result.output


def test_html_into_a_missing_folder_is_refused_before_comparing(tmp_path: Path) -> None:
    target = tmp_path / "no" / "page.html"
    result = invoke(EDITION, "nosuch", "--html", str(target))
    assert result.exit_code == 1
    assert "--html:" in result.output and "no such folder" in result.output
    assert "unknown edition" not in result.output  # nothing was compared
    assert not target.parent.exists()


def test_both_sides_report_their_problems_at_once() -> None:
    with pytest.raises(CompileError) as error:
        load_sides(Environment(), "nosuch", "other", None)
    assert [str(d.location) for d in error.value.diagnostics] == ["NEW", "OLD"]


def test_the_html_page_prints_structured_values_as_yaml_lines(tmp_path: Path) -> None:
    """Programs, core rules and the legend in `diff --html` read as the data writes them, not JSON.
    The pair compared is the newest two consecutive built-in editions that change a program."""
    editions = Environment().builtin_editions()
    for newer, older in pairwise(editions):
        old, new = load_sides(Environment(), older, newer, None)
        program = next(
            (
                change
                for part in diff_rulesets(old, new).lists
                for entry in part.changed
                for change in entry.changes
                if change.field == "program" and change.old and change.new
            ),
            None,
        )
        if program is not None:
            break
    else:
        pytest.fail("no two consecutive built-in editions differ in a program")
    page = tmp_path / "changes.html"
    assert invoke(older, newer, "--html", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    blocks = [text_content(b) for b in re.findall(r'<td class="(?:old|new) block">(.*?)</td>', html, re.S)]
    assert blocks and not [block for block in blocks if re.search(r'"\w+":', block)]  # no JSON keys
    assert yaml.safe_load(program.new_block) == yaml.safe_load(program.new)  # the same data, as lines
    assert text_content(program.new_block) in text_content(html)


# --- the page never replaces an input ------------------------------------------------------


def local_rules(folder: Path) -> tuple[Path, Path]:
    """The example local rule and one based on it (its `base:`, changing nothing), copied into folder."""
    mine, based = folder / "mine.yaml", folder / "based.yaml"
    mine.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    header = {key: OVERLAY[key] for key in ("kind", "title", "edition")}
    data = {**header, "name": f"{OVERLAY['name']}-plus", "base": mine.name}
    based.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return mine, based


@pytest.mark.parametrize("spelling", ["same", "absolute", "symlink", "hard link", "the base of NEW"])
def test_html_onto_an_input_is_refused_and_the_input_kept(
    spelling: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    mine, based = local_rules(tmp_path)
    new, page = {
        "same": (mine, Path("mine.yaml")),
        "absolute": (Path("mine.yaml"), mine.resolve()),
        "symlink": (mine, Path("alias.yaml")),
        "hard link": (mine, Path("twin.yaml")),
        "the base of NEW": (based, Path("mine.yaml")),
    }[spelling]
    Path("alias.yaml").symlink_to("mine.yaml")
    Path("twin.yaml").hardlink_to("mine.yaml")
    before = {p.name: (p.read_bytes(), p.lstat().st_mtime_ns) for p in tmp_path.iterdir()}
    result = invoke(EDITION, str(new), "--html", str(page))
    assert result.exit_code == 1, result.output
    assert re.search(r"^\S+:1:1: --html: is \S+, an input of this command", result.output, re.M), (
        result.output
    )
    assert {p.name: (p.read_bytes(), p.lstat().st_mtime_ns) for p in tmp_path.iterdir()} == before
