"""Triggers on a request (起こした場合: 起こす is to request, seed 002 §6.2.1.5): the actions a
request triggers (`triggered_by.requested`) go through the trigger check that follows the
request ([5] → [6]), before the request resolves ([7]/[8]) or goes on the stage ([10]).

The edition under test is the newest built-in one with actions added as data; its turn passer
(the direct action whose program passes the turn) is the action requested."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.engine.events import Requested, Resolved, Triggered
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import RequestOption
from blackpoker.runtime.rules.diagnostics import CompileError
from editions_support import EDITIONS


def _base() -> dict[str, Any]:
    """The newest built-in edition written in full (not a based one)."""
    env = Environment()
    for edition in EDITIONS:
        data: dict[str, Any] = yaml.safe_load(env.builtin_path(edition).read_text(encoding="utf-8"))
        if "base" not in data:
            return data
    raise AssertionError("no built-in edition is written in full")


def _passer(data: dict[str, Any]) -> str:
    """The edition's direct action whose program passes the turn (エンド)."""
    return next(
        a["id"]
        for a in data["actions"]
        if a.get("trigger", "direct") == "direct" and any("pass_turn" in s for s in a.get("program", ()))
    )


def _triggered(action_id: str, speed: str, requested: str, program: list[Any]) -> dict[str, Any]:
    return {
        "id": action_id,
        "name": action_id,
        "type": "基本",
        "section": "基本",
        "format": "lite",
        "timing": "quick",
        "speed": speed,
        "trigger": "triggered",
        "triggered_by": {"requested": requested, "player": "you"},
        "effect": action_id,
        "program": program,
        "since": "v0.1",
    }


def _edition(tmp_path: Path, *added: dict[str, Any]) -> tuple[Path, str]:
    data = copy.deepcopy(_base())
    passer = _passer(data)
    data["id"] = "requested"
    data["actions"] += [copy.deepcopy(a) for a in added]
    for action in data["actions"]:
        rule = action.get("triggered_by", {})
        if rule.get("requested") == "PASSER":
            rule["requested"] = passer
        for step in action.get("program", ()):
            if step.get("request") == "PASSER":
                step["request"] = passer
    path = tmp_path / "requested.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path, passer


def _requested_game(path: Path, passer: str) -> Game:
    rules = Environment().compile(str(path), "lite")
    game = Game.new(rules, seed=1, events=[])
    request = next(o for o in game.legal_options() if isinstance(o, RequestOption) and o.action == passer)
    game.apply(request)
    return game


def test_a_normal_trigger_stands_under_the_request_that_triggered_it(tmp_path: Path) -> None:
    echo = _triggered("echo", "normal", "PASSER", [{"draw": {"player": "you", "count": 1}}])
    path, passer = _edition(tmp_path, echo)
    game = _requested_game(path, passer)
    assert [r.action.id for r in game.state.stage] == ["echo", passer]
    assert game.events is not None
    shown = [e for e in game.events if isinstance(e, Requested | Triggered)]
    assert [(type(e).__name__, e.action) for e in shown[-2:]] == [
        ("Requested", passer),
        ("Triggered", "echo"),
    ]


def test_an_immediate_trigger_resolves_before_the_request_stands_on_the_stage(tmp_path: Path) -> None:
    flash = _triggered("flash", "immediate", "PASSER", [{"damage": {"player": "you", "amount": 1}}])
    path, passer = _edition(tmp_path, flash)
    before = Game.new(Environment().compile(str(path), "lite"), seed=1)
    game = _requested_game(path, passer)
    assert [r.action.id for r in game.state.stage] == [passer]
    me = game.state.turn_player
    assert len(game.state.players[me].life) == len(before.state.players[me].life) - 1
    assert game.events is not None
    resolved = [e.action for e in game.events if isinstance(e, Resolved)]
    assert resolved[-1] == "flash"


def test_a_condition_reads_the_request(tmp_path: Path) -> None:
    never = _triggered("never", "normal", "PASSER", [{"draw": {"player": "you", "count": 1}}])
    never["triggered_by"]["if"] = {"ge": [{"count": "key"}, 1]}  # the turn passer has no key cards
    path, passer = _edition(tmp_path, never)
    assert [r.action.id for r in _requested_game(path, passer).state.stage] == [passer]


def _problems(path: Path) -> list[str]:
    with pytest.raises(CompileError) as raised:
        Environment().compile_edition(str(path))
    return [str(d) for d in raised.value.diagnostics]


def test_an_immediate_trigger_that_requests_its_trigger_again_is_refused(tmp_path: Path) -> None:
    loop = _triggered("loop", "immediate", "PASSER", [{"request": "PASSER"}])
    path, _ = _edition(tmp_path, loop)
    found = _problems(path)
    assert any(
        "triggered_by.requested: 'loop' resolves at once when triggered and requests what triggers it again"
        in p
        for p in found
    ), found


def test_an_unknown_requested_action_is_refused(tmp_path: Path) -> None:
    stray = _triggered("stray", "normal", "nothing", [{"draw": {"player": "you", "count": 1}}])
    path, _ = _edition(tmp_path, stray)
    assert any("triggered_by.requested: unknown action 'nothing'" in p for p in _problems(path))
