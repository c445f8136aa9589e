"""Local-rule authors' defects, each pinned by a regression test (docs/local-rules.md)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from blackpoker.compiler.documents.diff import diff_rulesets
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.pipeline import load_sides
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, RequestOption
from blackpoker.runtime.play.log import ReplayError, replay
from blackpoker.runtime.play.resolve import resolve
from blackpoker.runtime.play.simulation import Plan, RulesSource, run_all
from blackpoker.runtime.play.source import sha256
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.runtime.rules.program import PassTurn, walk_steps
from blackpoker.site.build import BuildOptions, build_site


def _reference() -> tuple[str, RuleSet]:
    """The newest built-in edition and its first (smallest) format."""
    env = Environment()
    edition = env.builtin_editions()[0]
    first = env.edition(edition).edition.formats[0].id
    return edition, env.compile(edition, first)


def test_choose_one_labels_may_be_japanese_and_are_typed_as_printed(tmp_path: Path) -> None:
    _, ruleset = _reference()
    labels = ["一枚引く", "二枚引く"]
    action = {
        **_added_fields(ruleset),
        "id": "pick",
        "name": "選ぶ",
        "speed": "immediate",
        "effect": "カードを1枚か2枚引く。",
        "program": [
            {
                "choose_one": {
                    "player": "you",
                    "options": [
                        {"label": labels[0], "steps": [{"draw": {"player": "you", "count": 1}}]},
                        {"label": labels[1], "steps": [{"draw": {"player": "you", "count": 2}}]},
                    ],
                }
            }
        ],
    }
    assert _house(tmp_path, actions={"add": [action]}) == []
    rules = Environment().compile(ruleset.edition.id, "house", tmp_path / "house.yaml")
    game = Game.new(rules, seed=1)
    for _ in range(200):  # play the first legal option until someone may request the action
        mover = game.to_move
        assert mover is not None
        named = [o for o in game.legal_options() if isinstance(o, RequestOption) and o.name == action["name"]]
        if named:
            game.play(named[0])
            break
        game.play(game.legal_options()[0])
    else:
        raise AssertionError("the added action never became legal")
    choices = [o for o in game.legal_options() if isinstance(o, Choice)]
    assert [c.word for c in choices] == labels
    assert resolve(game, mover, labels[0]) == choices[0]  # what a player types at the prompt


def test_a_bad_label_says_what_a_label_may_be(tmp_path: Path) -> None:
    _, ruleset = _reference()
    options = [{"label": "引く 2枚", "steps": []}, {"label": "pass", "steps": []}]
    program = [{"choose_one": {"player": "you", "options": options}}]
    messages = _house(tmp_path, actions={"change": {ruleset.actions[0].id: {"program": program}}})
    assert len(messages) == 2, messages
    assert all("without spaces" in m and "pattern" not in m for m in messages), messages


def _blackpoker(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("blackpoker")
    if exe is None:
        pytest.skip("the blackpoker console script is not installed (pip install .)")
    return subprocess.run([exe, *args], capture_output=True, text=True, cwd=cwd, check=False)


@pytest.mark.parametrize("name", ["all", "changes", "index"])
def test_an_overlay_may_not_take_the_name_of_a_page_every_site_has(tmp_path: Path, name: str) -> None:
    edition, ruleset = _reference()
    path = tmp_path / "house.yaml"
    data = {"kind": "overlay", "name": name, "edition": edition, "base": ruleset.format.id}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = _blackpoker("build", "--rules", str(path), "--html-only", "--out", "site", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("house.yaml:"), result.stderr
    assert "not all, changes or index" in result.stderr, result.stderr
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("command", ["compile", "build", "simulate"])
def test_a_second_rules_file_is_refused_not_dropped(tmp_path: Path, command: str) -> None:
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    for path in (first, second):
        path.write_text("kind: overlay\n", encoding="utf-8")
    result = _blackpoker(command, "--rules", first.name, "--rules", second.name, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == "--rules: give one local-rule file; got 2: a.yaml, b.yaml"


def _house(tmp_path: Path, **fields: object) -> list[str]:
    edition, ruleset = _reference()
    data = {"kind": "overlay", "name": "house", "edition": edition, "base": ruleset.format.id, **fields}
    path = tmp_path / "house.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    _, problems = Environment().check_paths([path])
    return [d.render() for d in problems]


def test_an_overlay_may_not_reuse_an_official_mark(tmp_path: Path) -> None:
    _, ruleset = _reference()
    official = ruleset.edition.formats[0]
    (message,) = _house(tmp_path, mark=official.mark)
    assert re.search(r"house\.yaml:5:\d+: mark: ", message), message  # at the file's mark: line
    assert f"'{official.mark}' is the mark of the official format {official.id}" in message


def test_an_added_action_may_not_claim_an_official_format(tmp_path: Path) -> None:
    _, ruleset = _reference()
    added = {**_added_fields(ruleset), "format": ruleset.edition.formats[0].id}
    (format_problem,) = _house(tmp_path, actions={"add": [added]})
    assert "belongs to this file's format only" in format_problem
    plural = {**_added_fields(ruleset), "formats": [ruleset.edition.formats[0].id]}
    (plural_problem,) = _house(tmp_path, actions={"add": [plural]})
    assert "unknown key 'formats'" in plural_problem


def _added_fields(ruleset: RuleSet) -> dict[str, object]:
    return {
        "id": "heal",
        "name": "ヒール",
        "type": ruleset.edition.action_types[-1],
        "section": ruleset.edition.sections[-1],
        "timing": "main",
        "speed": "normal",
        "effect": "1点回復する。",
        "program": [],
    }


def test_an_overlay_summons_a_character_it_adds(tmp_path: Path) -> None:
    edition, ruleset = _reference()
    soldier = next(c for c in ruleset.characters if c.type == ruleset.edition.character_types[0])
    character = {"id": "knight", "name": "騎士", "type": soldier.type, "key": str(soldier.key)}
    character |= {"face": "up", "attack": "not_ready", "size": "card_number", "combat": "soldier"}
    summon = {
        **_added_fields(ruleset),
        "id": "summonsKnight",
        "name": "騎士召喚",
        "key": str(soldier.key),
        "effect": "キーカードを騎士として場に出す。",
        "program": [{"put_character": {"cards": "key", "as": "knight"}}],
    }
    assert _house(tmp_path, characters={"add": [character]}, actions={"add": [summon]}) == []
    plan = Plan(
        RulesSource(edition, "house", tmp_path / "house.yaml"), ("random", "random"), seed=1, games=20
    )
    records = run_all(plan)
    assert all(r.failure is None for r in records)
    assert sum(n for action, _, n in (u for r in records for u in r.uses) if action == "summonsKnight") > 0


def _damage(amount: object) -> dict[str, object]:
    return {"program": [{"damage": {"player": "opponent", "amount": amount}}]}


def _plain_action(ruleset: RuleSet) -> str:
    """An action whose program does not pass the turn: replacing it keeps the format playable."""
    return next(
        a.id for a in ruleset.actions if not any(isinstance(n, PassTurn) for _, n in walk_steps(a.steps))
    )


def test_the_documented_count_of_a_field_is_accepted(tmp_path: Path) -> None:
    _, ruleset = _reference()
    amount = {"count": {"field": "you", "type": ruleset.edition.character_types[-1]}}
    assert _house(tmp_path, actions={"change": {_plain_action(ruleset): _damage(amount)}}) == []


def test_a_value_of_no_form_is_one_line_listing_the_forms(tmp_path: Path) -> None:
    _, ruleset = _reference()
    (message,) = _house(tmp_path, actions={"change": {_plain_action(ruleset): _damage("many")}})
    assert "damage.amount: expected one of a whole number, {sum: …}, {count: …}" in message


def test_a_mistake_inside_a_form_is_reported_in_that_form_only(tmp_path: Path) -> None:
    _, ruleset = _reference()
    amount = {"count": {"fieldd": "you"}}
    messages = _house(tmp_path, actions={"change": {_plain_action(ruleset): _damage(amount)}})
    assert any("unknown key 'fieldd'; did you mean 'field'?" in m for m in messages), messages
    assert not any("'sum'" in m or "'size'" in m or "got a mapping" in m for m in messages), messages


def test_a_misspelt_id_is_reported_with_the_schema_problems(tmp_path: Path) -> None:
    _, ruleset = _reference()
    removed = ruleset.actions[-1].id
    messages = _house(tmp_path, colour="red", actions={"remove": [removed + "x"]})
    assert len(messages) == 2, messages
    assert "unknown key 'colour'" in messages[0]
    assert f"no action '{removed}x' in the base format; did you mean '{removed}'?" in messages[1]


def _house_file(tmp_path: Path) -> tuple[Path, str]:
    """A copy of the shipped example overlay, and its format."""
    example = Path(__file__).resolve().parents[1] / "examples" / "my-std.yaml"
    copy = tmp_path / "rules" / example.name
    copy.parent.mkdir()
    copy.write_bytes(example.read_bytes())
    return copy, yaml.safe_load(example.read_text(encoding="utf-8"))["name"]


def test_a_house_game_log_names_its_rules_file_and_replays(tmp_path: Path) -> None:
    rules, name = _house_file(tmp_path)
    edition = yaml.safe_load(rules.read_text(encoding="utf-8"))["edition"]
    logs = tmp_path / "logs"
    logs.mkdir()
    run_all(Plan(RulesSource(edition, name, rules), ("random", "random"), seed=1, games=2, logs=logs))
    log = sorted(logs.glob("*.jsonl"))[0]
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["format"] == name
    assert header["rules_file"] == {"path": "../rules/my-std.yaml", "sha256": sha256(rules)}
    assert replay(log).decisions > 0


def test_a_replay_says_which_rules_file_changed_or_is_missing(tmp_path: Path) -> None:
    rules, name = _house_file(tmp_path)
    edition = yaml.safe_load(rules.read_text(encoding="utf-8"))["edition"]
    run_all(Plan(RulesSource(edition, name, rules), ("random", "random"), seed=1, games=1, logs=tmp_path))
    log = next(tmp_path.glob("*.jsonl"))
    with rules.open("a", encoding="utf-8") as file:
        file.write("# another hash, the same rules\n")
    assert replay(log).decisions > 0
    data = yaml.safe_load(rules.read_text(encoding="utf-8"))
    changed = next(iter(data["actions"]["change"]))
    data["actions"]["remove"] = [*data["actions"].get("remove", ()), changed]
    del data["actions"]["change"][changed]
    rules.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ReplayError, match=r"\(\S*my-std.yaml changed since\)"):
        replay(log)
    rules.unlink()
    with pytest.raises(
        ReplayError, match=r"rules_file rules/my-std.yaml \(from the log's folder\) is missing"
    ):
        replay(log)


def test_play_takes_a_rules_file_and_logs_it(tmp_path: Path) -> None:
    rules, name = _house_file(tmp_path)
    command = ("play", "--rules", str(rules), "--seed", "5", "--log", "game.jsonl")
    exe = shutil.which("blackpoker")
    if exe is None:
        pytest.skip("the blackpoker console script is not installed (pip install .)")
    done = subprocess.run([exe, *command], input="q\n", capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    title = yaml.safe_load(rules.read_text(encoding="utf-8"))["title"]
    assert f" {title} · シード5 · " in done.stdout  # the local rule's format by its own name
    header = json.loads((tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert (header["format"], header["rules_file"]["path"]) == (name, "rules/my-std.yaml")


def test_an_overlay_names_entries_by_their_printed_names(tmp_path: Path) -> None:
    edition, ruleset = _reference()
    changed, removed = ruleset.actions[0], ruleset.actions[-1]
    assert (
        _house(tmp_path, actions={"change": {changed.name: {"note": "注記。"}}, "remove": [removed.name]})
        == []
    )
    house = Environment().compile(edition, "house", tmp_path / "house.yaml")
    assert house.action(changed.id).note == "注記。"
    assert removed.id not in {a.id for a in house.actions}


def test_a_misspelt_name_is_located_with_the_name_meant_and_notation_problems(tmp_path: Path) -> None:
    _, ruleset = _reference()
    removed = ruleset.actions[-1]
    messages = _house(
        tmp_path,
        actions={"remove": [removed.name + "x"], "change": {ruleset.actions[0].id: {"cost": "Q"}}},
    )
    assert len(messages) == 2, messages
    assert any(f"did you mean '{removed.name}'?" in m for m in messages), messages
    assert any("cost 'Q'" in m for m in messages), messages


def test_list_prints_each_entry_with_its_id_name_type_and_formats(tmp_path: Path) -> None:
    edition, ruleset = _reference()
    result = _blackpoker("list", "--edition", edition, "--format", ruleset.format.id, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines()[2:]]
    expected = [
        [a.id, a.name, a.type, *a.formats] for a in (*ruleset.actions, *ruleset.characters, *ruleset.fogs)
    ]
    assert [row[1:] for row in rows] == expected
    rules, name = _house_file(tmp_path)
    house = _blackpoker("list", "--rules", str(rules), cwd=tmp_path)
    assert house.returncode == 0, house.stderr
    added = yaml.safe_load(rules.read_text(encoding="utf-8"))["actions"]["add"][0]
    assert any(line.split()[1:3] == [added["id"], added["name"]] for line in house.stdout.splitlines())
    assert all(line.split()[-1] == name for line in house.stdout.splitlines()[2:])


def test_an_overlay_takes_an_official_action_of_a_bigger_format_with_its_mark(tmp_path: Path) -> None:
    edition, ruleset = _reference()
    every = Environment().compile_edition(edition)
    last = list(every.values())[-1]
    bigger = next(a for a in last.actions if ruleset.format.id not in a.formats)
    assert _house(tmp_path, actions={"take": [bigger.name]}) == []
    house = Environment().compile(edition, "house", tmp_path / "house.yaml")
    taken = house.action(bigger.id)
    assert taken.formats == (*bigger.formats, "house")
    assert house.debut(taken) == last.debut(bigger)  # printed with its official mark
    problems = _house(tmp_path, actions={"take": [ruleset.actions[0].id, bigger.id + "x"]})
    assert "is already in the base format" in problems[0]
    assert f"did you mean '{bigger.id}'?" in problems[1]


def test_an_overlay_adds_a_section_and_an_action_type_of_its_own(tmp_path: Path) -> None:
    edition, ruleset = _reference()
    action = {**_added_fields(ruleset), "type": "回復魔法", "section": "回復系"}
    fields = {"sections": ["回復系"], "action_types": ["回復魔法"], "actions": {"add": [action]}}
    assert _house(tmp_path, **fields) == []
    house = Environment().compile(edition, "house", tmp_path / "house.yaml")
    assert house.edition.sections == (*ruleset.edition.sections, "回復系")
    assert house.edition.action_types == (*ruleset.edition.action_types, "回復魔法")
    out = tmp_path / "site"
    build_site(BuildOptions(out, formats=("house",), rules=tmp_path / "house.yaml", html_only=True))
    sheet = (out / edition / "house.html").read_text(encoding="utf-8")
    assert sheet.index("回復系") < sheet.index(str(action["name"]))  # the new section heads its action
    repeated = _house(tmp_path, sections=[ruleset.edition.sections[0]])
    assert repeated == [m for m in repeated if "is already one of the edition's" in m] and repeated


def test_a_house_sheet_says_it_is_a_local_rule_and_marks_its_own_entries(tmp_path: Path) -> None:
    rules, name = _house_file(tmp_path)
    data = yaml.safe_load(rules.read_text(encoding="utf-8"))
    out = tmp_path / "site"
    options = BuildOptions(out, (data["edition"],), (data["base"], name), rules, html_only=True)
    built = build_site(options)
    (house,) = [p for p in built.pages if p.slug == name]
    (official,) = [p for p in built.pages if p.slug == data["base"]]
    sheet = (out / house.path).read_text(encoding="utf-8")
    base = house.ruleset.edition.format(data["base"])
    assert f"{name} — ローカルルール（{base.name} {house.ruleset.edition.title} を基に）" in sheet
    assert data["description"] in sheet
    articles = {
        m[1]: m[0]
        for m in re.finditer(r'<article class="entry action" id="action-(\w+)".*?</article>', sheet, re.S)
    }
    added = {a["id"] for a in data["actions"].get("add", ())}
    changed = set(data["actions"].get("change", {}))
    assert added and changed
    for action_id, article in articles.items():
        marker = "追加" if action_id in added else "変更" if action_id in changed else None
        found = re.findall(r'<span class="house-change">(\S+)</span>', article)
        assert found == ([marker] if marker else []), action_id
    assert "house-change" not in (out / official.path).read_text(encoding="utf-8")
    assert "ローカルルール" not in (out / official.path).read_text(encoding="utf-8")


def test_an_overlay_builds_on_another_local_rule(tmp_path: Path) -> None:
    rules, name = _house_file(tmp_path)
    data = yaml.safe_load(rules.read_text(encoding="utf-8"))
    heal = data["actions"]["add"][0]
    env = Environment()
    under = env.compile(data["edition"], name, rules)
    bigger = next(
        a
        for r in env.compile_edition(data["edition"]).values()
        for a in r.actions
        if a.id not in {b.id for b in under.actions}
    )
    nested = {
        "kind": "overlay",
        "name": "nested",
        "mark": "◆",
        "edition": data["edition"],
        "base": rules.name,
        "actions": {"take": [bigger.id], "change": {heal["name"]: {"cost": "DD"}}},
    }
    path = rules.parent / "nested.yaml"
    path.write_text(yaml.safe_dump(nested, allow_unicode=True), encoding="utf-8")
    assert Environment().check_paths([rules.parent])[1] == []
    house = Environment().compile(data["edition"], "nested", path)
    assert house.format.base == name  # its base is the other local rule
    assert str(house.action(heal["id"]).cost) == "DD" and bigger.id in {a.id for a in house.actions}
    assert {a.id for a in under.actions} < {a.id for a in house.actions}
    assert Environment().compile(data["edition"], name, path) == under  # --format of its base
    assert Environment().official_base(path) == data["base"]
    changes = diff_rulesets(*load_sides(Environment(), str(rules), str(path), None))
    (actions,) = [part for part in changes.lists if part.list == "actions"]
    assert [a.id for a in actions.added] == [bigger.id] and [c.entry.id for c in actions.changed] == [
        heal["id"]
    ]


def test_local_rules_based_on_each_other_or_on_nothing_are_located(tmp_path: Path) -> None:
    edition, _ = _reference()
    for name, base in (("a", "b.yaml"), ("b", "a.yaml"), ("c", "missing.yaml")):
        text = yaml.safe_dump({"kind": "overlay", "name": name, "edition": edition, "base": base})
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    _, problems = Environment().check_paths([tmp_path])
    messages = sorted(d.render() for d in problems)
    assert any(m.startswith(f"{tmp_path / 'a.yaml'}:") and "based on each other" in m for m in messages), (
        messages
    )
    assert any(m.startswith(f"{tmp_path / 'b.yaml'}:") and "based on each other" in m for m in messages), (
        messages
    )
    assert any(
        m.startswith(f"{tmp_path / 'c.yaml'}:") and "no local-rule file missing.yaml" in m for m in messages
    )


def test_a_format_compared_with_a_local_rule_is_of_the_rules_edition(tmp_path: Path) -> None:
    env = Environment()
    edition = env.builtin_editions()[0]  # the newest, which is not the default edition
    first = env.edition(edition).edition.formats[0].id
    path = tmp_path / "house.yaml"
    path.write_text(yaml.safe_dump({"kind": "overlay", "name": "house", "edition": edition, "base": first}))
    result = _blackpoker("simulate", "--compare", first, path.name, "-n", "2", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    sides = json.loads(result.stdout)["compare"]
    assert [(side["edition"], side["format"]) for side in sides] == [(edition, first), (edition, "house")]


def test_a_broken_local_rule_built_by_its_format_name_reports_only_its_own_problems(tmp_path: Path) -> None:
    _, ruleset = _reference()
    summon = {**_added_fields(ruleset), "program": [{"put_character": {"cards": "key", "as": "knight"}}]}
    _house(tmp_path, actions={"add": [summon]})  # knight is no character: one problem
    result = _blackpoker("build", "--rules", "house.yaml", "--format", "house", "--html-only", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and "unknown character 'knight'" in lines[0], lines  # no '--format: … no format'
    assert lines[1] == "1 problem found; nothing written"


def test_a_change_of_only_the_program_of_a_caused_action_may_read_its_source(tmp_path: Path) -> None:
    """A change is checked as the changed action: the `caused_by` it leaves still binds `source`."""
    edition, ruleset = _reference()
    caused = {
        **_added_fields(ruleset),
        "id": "spur",
        "name": "鼓舞",
        "type": "起因魔法",
        "speed": "immediate",
        "caused_by": {"type": ruleset.edition.character_types[0]},
        "program": [{"set_state": {"of": "source", "state": "charged"}}],
    }
    assert _house(tmp_path, action_types=["起因魔法"], actions={"add": [caused]}) == []
    reads_source = {"program": [{"modify_size": {"of": "source", "by": 1}}]}
    nested = {"kind": "overlay", "name": "nested", "mark": "◆", "edition": edition, "base": "house.yaml"}
    path = tmp_path / "nested.yaml"
    for action_id, refused in ((_plain_action(ruleset), True), ("spur", False)):
        data = {**nested, "actions": {"change": {action_id: reads_source}}}
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        messages = [d.render() for d in Environment().check_paths([path])[1]]
        assert any("only an action with caused_by has one" in m for m in messages) == refused, messages
        assert refused or messages == []
    changed = Environment().compile(edition, "nested", path)
    assert changed.action("spur").caused_by is not None
