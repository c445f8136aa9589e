"""The example local rules: each validates, plays, replays and is pinned by a scenario, and
together they show every overlay feature (docs/local-rules.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.play.log import replay
from blackpoker.runtime.play.simulation import Plan, RulesSource, run_all
from blackpoker.runtime.scenario.load import load
from blackpoker.runtime.scenario.run import run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))


def _data(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def _scenarios() -> dict[Path, list[Path]]:
    """Example file -> the shipped scenarios that play it (their `rules:`)."""
    found: dict[Path, list[Path]] = {}
    for scenario in (ROOT / "scenarios").rglob("*.yaml"):
        rules = _data(scenario).get("rules")
        if isinstance(rules, str):
            found.setdefault((scenario.parent / rules).resolve(), []).append(scenario)
    return found


def test_the_examples_validate_together() -> None:
    count, problems = Environment().check_paths([ROOT / "examples"])  # the decks in it too
    assert (count, problems) == (len(list((ROOT / "examples").rglob("*.yaml"))), [])


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_an_example_plays_replays_and_has_a_passing_scenario(example: Path, tmp_path: Path) -> None:
    data = _data(example)
    source = RulesSource(data["edition"], data["name"], example)
    records = run_all(Plan(source, ("random", "random"), seed=1, games=3, logs=tmp_path))
    assert all(r.failure is None for r in records)
    for log in sorted(tmp_path.glob("*.jsonl")):
        assert replay(log).decisions > 0
    scenarios = _scenarios().get(example.resolve(), [])
    assert scenarios, f"no scenario names {example.name} in its rules:"
    for path in scenarios:
        loaded, problems = load(path)
        assert loaded is not None, problems
        assert run(loaded).passed, path


def test_the_examples_show_every_overlay_feature() -> None:
    examples = [_data(p) for p in EXAMPLES]

    def summoned(data: dict[str, Any]) -> bool:  # a new character, and an action putting it
        added = {c["id"] for c in data.get("characters", {}).get("add", ())}
        programs = str([a.get("program") for a in data.get("actions", {}).get("add", ())])
        return any(f"'as': '{c}'" in programs for c in added)

    assert any(summoned(d) for d in examples)
    assert any(str(d["base"]).endswith((".yaml", ".yml")) for d in examples)  # on another local rule
    assert any(d.get("actions", {}).get("take") for d in examples)  # from a bigger format
    assert any(d.get("sections") for d in examples)  # a section of its own
    assert any(d.get("trumps", {}).get("add") for d in examples)  # a new trump (base: extra)
