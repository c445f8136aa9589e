"""Effects are data: programs are validated, linked, and a new action needs only YAML."""

from __future__ import annotations

from pathlib import Path

import pytest
from blackpoker.cli.main import main
from blackpoker.compiler import CompileError, compile
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.primitives import PRIMITIVES
from click.testing import CliRunner

LITE = compile("v7", "lite")

OVERLAY = """\
kind: overlay
name: rally-lite
edition: v7
base: lite
actions:
  add:
    - id: rally
      name: 号令
      type: 通常魔法
      section: 魔法系
      timing: main
      speed: immediate
      effect: 自分の兵士全ての数字は、このターンが終わるまで1加算される。カードを1枚引く。
      program:
        - for_each:
            in: {field: you}
            as: unit
            steps:
              - modify_size: {of: unit, by: 1}
        - draw: {player: you, count: {count: key}}
        - draw: {player: you, count: 1}
"""


@pytest.mark.parametrize(("fmt", "count"), [("lite", 19), ("std", 25), ("pro", 31), ("mast", 37)])
def test_every_action_has_a_program_of_known_primitives(fmt: str, count: int) -> None:
    rules = compile("v7", fmt)
    assert len(rules.actions) == count
    for action in rules.actions:
        assert action.steps, action.id
        stack = list(action.steps)
        while stack:
            step = stack.pop()
            assert step.op in PRIMITIVES, (action.id, step.op)
            stack += [*step.then, *step.otherwise]


def test_an_overlay_action_made_of_existing_primitives_is_played(tmp_path: Path) -> None:
    path = tmp_path / "rally.yaml"
    path.write_text(OVERLAY, encoding="utf-8")
    rules = compile("v7", "rally-lite", rules=path)
    game = Game.new(rules, seed=4)
    me = game.state.turn_player
    hand = len(game.state.players[me].hand)
    rally = game.find(me, "号令")
    assert rally is not None
    game.apply(rally)
    assert len(game.state.players[me].hand) == hand + 1
    assert game.state.chance == me  # immediate: chance stays


def test_a_request_of_an_unknown_action_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(OVERLAY.replace("- draw: {player: you, count: 1}", "- request: fly"), encoding="utf-8")
    with pytest.raises(CompileError) as caught:
        compile("v7", "rally-lite", rules=path)
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
