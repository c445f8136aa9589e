"""`validate` catches what play would hit: a local extra list whose continuous ability loops
or stops the turn is refused, from the programs where they show it, else by a short seeded
trial with the trump face up, located at the ability, with the chain that loops."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from bad_input_support import invoke, refused
from blackpoker.compiler.documents.extra import NUMBERS, SUITS
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.needs import turn_passers
from blackpoker.runtime.rules.model import Speed, Trigger

ALWAYS = {"ge": [{"count": {"zone": "hand", "player": "you"}}, 0]}  # a condition that always holds


def _played() -> tuple[str, str, list[Any], str]:
    """An edition with an extra list (the first the registry lists), the list, the extra
    format's actions and a card no trump of the list uses."""
    env = Environment()
    edition = next(e for e in env.builtin_editions() if env.extras(e))
    extra = env.extras(edition)[0]
    rules = env.compile(edition, "extra")
    used = {(t.suit, t.number) for t in extra.trumps}
    suit, number = next((s, n) for s in SUITS for n in NUMBERS if (s, n) not in used)
    return edition, extra.id, list(rules.actions), f"{suit}{number}"


EDITION, EXTRA, ACTIONS, CARD = _played()


def _local(tmp_path: Path, abilities: list[Any], actions: list[Any] | None = None) -> Path:
    """A local rule on the extra format that adds one trump with these abilities and actions."""
    suit, number = CARD[0], CARD[1:]
    trump: dict[str, Any] = {
        "suit": suit,
        "number": number,
        "id": "loopy",
        "name": "試し",
        "ability": "試し。",
    }
    trump |= {"abilities": abilities} if abilities else {}
    trump |= {"actions": actions} if actions else {}
    data = {
        "kind": "overlay",
        "name": "loopy",
        "title": "試し",
        "edition": EDITION,
        "base": "extra",
        "extra": EXTRA,
        "trumps": {"add": [trump]},
    }
    path = tmp_path / "loopy.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _immediate() -> str:
    """An immediate action a player requests."""
    return next(a.id for a in ACTIONS if a.speed is Speed.IMMEDIATE and a.trigger is Trigger.DIRECT)


def _passing() -> list[str]:
    """The actions that pass the turn and those their resolution triggers (a draw would end
    the game when the life runs out, and the turn with it)."""
    found = set(turn_passers(ACTIONS))
    while more := {a.id for a in ACTIONS if a.triggered_by and a.triggered_by.resolved in found} - found:
        found |= more
    return sorted(found)


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_a_replacement_that_requests_what_it_replaces_is_refused_with_the_chain(tmp_path: Path) -> None:
    action = _immediate()
    path = _local(tmp_path, [{"replace_effect": {"action": action, "program": [{"request": action}]}}])
    result = refused(invoke("validate", path))
    line = _line_of(path, "replace_effect")
    assert (
        f"{path}:{line}:" in result.stderr
        and f"while {CARD} lies face up, a request of '{action}' runs this program, which requests it again"
        in result.stderr
        and f"'{action}' -> '{action}'" in result.stderr
    ), result.stderr


def test_a_replacement_that_leaves_no_action_passing_the_turn_is_refused(tmp_path: Path) -> None:
    passers = sorted(turn_passers(ACTIONS))
    path = _local(tmp_path, [{"replace_effect": {"action": a, "program": []}} for a in passers])
    result = refused(invoke("validate", path))
    assert "no action passes the turn" in result.stderr and "a turn would never end" in result.stderr
    # the rule set that would never end a turn is not compiled for play either
    assert refused(invoke("simulate", "--rules", path, "-n", "1")).stderr.count("a turn would never end")


def test_a_trump_action_that_requests_itself_at_once_is_refused(tmp_path: Path) -> None:
    action = {
        "id": "loopy1",
        "name": "試し",
        "type": next(a.type for a in ACTIONS if a.speed is Speed.IMMEDIATE),
        "timing": "main",
        "speed": "immediate",
        "effect": "試し。",
        "program": [{"request": "loopy1"}],
    }
    path = _local(tmp_path, [], [action])
    result = refused(invoke("validate", path))
    assert "'loopy1' -> 'loopy1' is an immediate request cycle" in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("ability", "failure"),
    [
        # the condition is read in play: only the trial finds that it always holds
        (lambda a: {"action": a, "if": ALWAYS, "program": [{"request": a}]}, "NestingLimit"),
        (lambda a: {"action": a, "if": ALWAYS, "program": []}, "does not end after"),
    ],
    ids=["nested-forever", "turn-never-ends"],
)
def test_the_trial_finds_a_loop_through_the_game_state(tmp_path: Path, ability: Any, failure: str) -> None:
    action = _immediate() if failure == "NestingLimit" else sorted(turn_passers(ACTIONS))[0]
    abilities = [{"replace_effect": ability(action)}]
    if failure != "NestingLimit":  # every action that passes the turn, and what it triggers
        abilities = [{"replace_effect": ability(a)} for a in _passing()]
    path = _local(tmp_path, abilities)
    result = refused(invoke("validate", path))
    line = _line_of(path, "abilities:")
    assert f"{path}:{line}:" in result.stderr and f"trial: with {CARD} face up (seed" in result.stderr
    assert failure in result.stderr and f"{action}" in result.stderr, result.stderr


def test_the_shipped_local_extra_list_passes_its_trial() -> None:
    example = Path(__file__).resolve().parents[1] / "examples" / "my-extra.yaml"
    result = invoke("validate", example)
    assert result.exit_code == 0, result.output
