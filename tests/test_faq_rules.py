"""The two rules of the FAQ (よくある質問) as core rules (`core.target_required`,
`core.no_self_target`): on the shipped scenarios that pin them down, and on the same positions
under a based edition of the scenarios' edition that sets both false (docs/engine.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from blackpoker.compiler.emit_json import ruleset_json
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.engine.events import LostTarget
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import RequestOption
from blackpoker.runtime.play.notation import AnswerCommand
from blackpoker.runtime.play.resolve import IllegalCommand, resolve_command
from blackpoker.runtime.scenario.build import build
from blackpoker.runtime.scenario.run import run
from blackpoker.runtime.scenario.scenario import Scenario
from engine_support import commands, play, scenario

TARGET = "faq-a-target-is-required"  # the shipped scenarios of the two rules
SELF = "faq-no-self-target"


def _loose(folder: Path, loaded: Scenario) -> Game:
    """The scenario's position under a based edition of its edition without the two rules."""
    rules = loaded.rules
    core = ruleset_json(rules)["core"] | {"target_required": False, "no_self_target": False}
    path = folder / "loose.yaml"
    edition = {"kind": "edition", "id": "loose", "base": rules.edition.id, "title": "loose", "core": core}
    path.write_text(yaml.safe_dump(edition, allow_unicode=True), encoding="utf-8")
    loose = Environment().compile(str(path), rules.format.id)
    assert not loose.edition.core.target_required and not loose.edition.core.no_self_target
    return Game(loose, build(loaded).state, events=[])


def test_the_scenarios_edition_states_both_rules_and_the_scenarios_pass() -> None:
    for stem in (TARGET, SELF):
        loaded = scenario(stem)
        core = loaded.rules.edition.core
        assert core.target_required and core.no_self_target
        assert run(loaded).passed, stem


def test_a_request_without_a_legal_target_is_refused_only_where_the_rule_holds(tmp_path: Path) -> None:
    loaded = scenario(TARGET)
    refused = [step for step in loaded.commands if step.refused is not None]
    assert refused, "the scenario writes a refused request"
    strict = build(loaded)
    for step in refused:
        with pytest.raises(IllegalCommand):
            resolve_command(strict, step.command, step.text)
    loose = _loose(tmp_path, loaded)
    option = resolve_command(loose, refused[0].command, refused[0].text)
    assert isinstance(option, RequestOption) and option.target is None
    loose.apply(option)
    while loose.state.stage:  # both pass until it resolves
        assert loose.to_move is not None
        loose.apply(loose.legal_options()[-1])
    assert loose.events is not None
    assert any(isinstance(e, LostTarget) and e.action == option.action for e in loose.events)


def test_a_request_is_never_its_own_new_target_where_the_rule_holds(tmp_path: Path) -> None:
    loaded = scenario(SELF)
    steps = commands(loaded)
    answer = next(
        i
        for i, s in enumerate(steps)
        if isinstance(s.command, AnswerCommand) and s.command.word == "retarget"
    )
    strict, loose = build(loaded), _loose(tmp_path, loaded)
    play(strict, *steps[:answer])
    play(loose, *steps[:answer])
    offered = {str(o) for o in strict.legal_options()}
    wider = {str(o) for o in loose.legal_options()}
    changed = len(strict.state.stage)  # the request whose target changes is the stage's top
    assert f"retarget → stage:{changed}" in wider - offered
    assert offered < wider
