"""Effects are data: programs are validated, linked, and a new action needs only YAML."""

from __future__ import annotations

import json
import pickle
from importlib import resources
from pathlib import Path

import pytest
import yaml
from blackpoker.cli.main import main
from blackpoker.compiler import CompileError, compile
from blackpoker.runtime.engine.expressions import condition
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.primitives import PRIMITIVES
from blackpoker.runtime.engine.refs import UnitRef
from blackpoker.runtime.engine.state import Origin, Request, Resolution
from blackpoker.runtime.play.resolve import resolve
from blackpoker.runtime.rules.program import STEPS, Name, Step, Targetable, walk_steps, word
from click.testing import CliRunner
from editions_support import written_out
from engine_support import compiled, environment, format_ids, position, reference_edition

EDITION = reference_edition()
BASE = format_ids(EDITION)[0]
# an immediate action's type and section: the new action is filed like one the edition has
_LIKE = next(a for a in compiled(EDITION, BASE).actions if a.speed == "immediate")

OVERLAY = f"""\
kind: overlay
name: rally
edition: {EDITION}
base: {BASE}
actions:
  add:
    - id: rally
      name: 号令
      type: {_LIKE.type}
      section: {_LIKE.section}
      timing: main
      speed: immediate
      effect: 自分の兵士全ての数字は、このターンが終わるまで1加算される。カードを1枚引く。
      program:
        - for_each:
            in: {{field: you}}
            as: unit
            steps:
              - modify_size: {{of: unit, by: 1}}
        - draw: {{player: you, count: {{count: key}}}}
        - draw: {{player: you, count: 1}}
"""


@pytest.mark.parametrize("edition", environment().builtin_editions())
def test_every_action_has_a_program_of_known_primitives(edition: str) -> None:
    rules = compiled(edition, format_ids(edition)[-1])  # the largest format has every action
    assert len(rules.actions) == len(environment().edition(edition).actions)
    for action in rules.actions:
        assert action.steps, action.id
        for _, node in walk_steps(action.steps):
            assert not isinstance(node, Step) or type(node) in PRIMITIVES, (action.id, node)


def test_the_schema_the_node_classes_and_the_primitives_name_the_same_steps() -> None:
    schema = json.loads(resources.files("blackpoker.schema").joinpath("defs.schema.json").read_text("utf-8"))
    written = set(schema["$defs"]["step"]["properties"]) - {"then", "else"}
    assert written == set(STEPS)
    assert set(PRIMITIVES) == set(STEPS.values())


@pytest.mark.parametrize("edition", environment().builtin_editions())
def test_program_trees_pickle(edition: str) -> None:
    programs = [a.steps for a in compiled(edition, format_ids(edition)[-1]).actions]
    assert pickle.loads(pickle.dumps(programs)) == programs


def test_an_overlay_action_made_of_existing_primitives_is_played(tmp_path: Path) -> None:
    path = tmp_path / "rally.yaml"
    path.write_text(OVERLAY, encoding="utf-8")
    rules = compile(EDITION, "rally", rules=path)
    game = Game.new(rules, seed=4)
    me = game.state.turn_player
    hand = len(game.state.players[me].hand)
    rally = resolve(game, me, yaml.safe_load(OVERLAY)["actions"]["add"][0]["name"])
    game.apply(rally)
    assert len(game.state.players[me].hand) == hand + 1
    assert game.state.chance == me  # immediate: chance stays


def test_a_request_of_an_unknown_action_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(OVERLAY.replace("- draw: {player: you, count: 1}", "- request: fly"), encoding="utf-8")
    with pytest.raises(CompileError) as caught:
        compile(EDITION, "rally", rules=path)
    assert [d.render() for d in caught.value.diagnostics] == [f"{path}:21:20: request: unknown action 'fly'"]


def test_an_unknown_primitive_is_refused_by_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        OVERLAY.replace("- draw: {player: you, count: 1}", "- teleport: {player: you}"), encoding="utf-8"
    )
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert "unknown key 'teleport'" in result.stderr
    assert "Traceback" not in result.output


def test_an_unbound_name_in_an_edition_file_is_a_located_error(tmp_path: Path) -> None:
    """The binding rule holds for edition files too: the misspelt name is reported where it is read."""
    binds = "- move: {cards: found, to: hand}"  # reads the name a step before it bound
    files = map(environment().builtin_path, environment().builtin_editions())
    edition = next(f for f in files if binds in f.read_text(encoding="utf-8"))
    lines = edition.read_text(encoding="utf-8").splitlines(keepends=True)
    line = next(i for i, text in enumerate(lines) if binds in text)
    lines[line] = lines[line].replace("cards: found", "cards: fonud")
    path = tmp_path / edition.name
    path.write_text("".join(lines), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    column = lines[line].index("fonud") + 1
    assert result.stderr.splitlines()[0] == (
        f"{path}:{line + 1}:{column}: cards: 'fonud' is not bound here (bound before: found)"
    )


@pytest.mark.parametrize(
    ("steps", "problems"),
    [
        # bound in both branches of an if: bound after it
        (
            "- if: {eq: [1, 1]}\n          then: [top: {player: you, count: 1, as: a}]\n"
            "          else: [top: {player: you, count: 2, as: a}]\n        - reveal: a",
            [],
        ),
        # bound in one option of a choose_one only
        (
            "- choose_one: {player: you, options: [{label: x, steps: [top: {player: you, count: 1, as: a}]},"
            " {label: y, steps: []}]}\n        - reveal: a",
            ["reveal: 'a' is not bound here"],
        ),
        # a name is bound only by an earlier step, not by a later one
        ("- reveal: a\n        - top: {player: you, count: 1, as: a}", ["reveal: 'a' is not bound here"]),
        # the built-in names need no binding
        (
            "- reveal: key\n        - move: {cards: target_key, to: hand}\n"
            "        - set_state: {of: attackers, state: charged}",
            [],
        ),
    ],
)
def test_the_binding_rule(tmp_path: Path, steps: str, problems: list[str]) -> None:
    path = tmp_path / "rally.yaml"
    body = OVERLAY.split("      program:\n")[0]
    path.write_text(f"{body}      program:\n        {steps}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    found = [line.split(": ", 1)[1].split(" (")[0] for line in result.stderr.splitlines()[:-1]]
    assert found == problems
    assert result.exit_code == (1 if problems else 0)


@pytest.mark.parametrize("edition", environment().builtin_editions())
def test_the_walker_gives_every_node_its_place_in_the_document(edition: str) -> None:
    """Each path walk_steps yields leads, in the YAML as written, to the data the node was built from."""
    raw = written_out(edition)  # a based edition's nodes are placed in its data written out
    rules = compiled(edition, format_ids(edition)[-1])
    walked = 0
    for i, written in enumerate(raw["actions"]):
        if written["id"] not in {a.id for a in rules.actions}:
            continue
        for path, node in walk_steps(rules.action(written["id"]).steps, ("actions", i, "program")):
            value = raw
            for key in path:
                value = value[key]
            if isinstance(node, Name):
                assert value == node.name, path
            elif isinstance(node, Step):
                assert isinstance(value, dict) and (word(node) in value), path
            walked += 1
    assert walked > 200


def test_targetable_leaves_out_the_key_filters_and_keeps_the_others() -> None:
    """修繕's condition: its target could be the target of the action it names, by that
    action's spec without the key-card filters (the key card is chosen afterwards)."""
    game, _ = position("mend")
    (probe,) = {
        node for a in game.rules.actions for _, node in walk_steps(a.steps) if isinstance(node, Targetable)
    }
    assert game.rules.target_specs[probe.by].suit_of is not None  # a key filter to leave out
    (unit,) = game.state.players[0].field
    action = game.rules.action(probe.by)

    def holds(controller: int) -> bool:
        request = Request(-1, action, controller, (), [], UnitRef(unit.uid))
        return condition(game, Resolution(request, Origin.PLAYER, []), probe)

    assert holds(0)  # no key cards, yet targetable: the suit filter is left out
    assert not holds(1)  # the side filter stays: the character is not the other player's
