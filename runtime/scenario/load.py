"""Load a scenario file: its rule set, its commands parsed, its meaning checked, its unknown
cards dealt, and its position checked by the engine's invariants."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from blackpoker.compiler.environment import Environment, display, find_files
from blackpoker.compiler.load import Document, PathKey, load_file
from blackpoker.compiler.validate import schema_problems
from blackpoker.runtime.engine.errors import InvariantError
from blackpoker.runtime.engine.invariants import check_invariants
from blackpoker.runtime.play.notation import InvalidCommand, parse_command
from blackpoker.runtime.play.regulation import Setup
from blackpoker.runtime.play.source import ServedFiles
from blackpoker.runtime.rules.diagnostics import Diagnostic
from blackpoker.runtime.scenario.build import build
from blackpoker.runtime.scenario.checks import meaning_problems
from blackpoker.runtime.scenario.ruleset import regulation_of, scenario_rules
from blackpoker.runtime.scenario.scenario import PLAYER_KEYS, REFUSED, Scenario, ScenarioCommand
from blackpoker.runtime.scenario.unknown import bare_unknown_marks, deal_unknowns


def load(
    path: Path,
    env: Environment | None = None,
    shown: str | None = None,
    served: ServedFiles | None = None,
    unknown_seed: int | None = None,
) -> tuple[Scenario | None, list[Diagnostic]]:
    """A scenario file, with its rule set compiled in `env` (a suite shares one); `shown` is
    how its messages name it. An upload to the server (`served`) may name only the server's
    own files, and its unknown cards are dealt by the server's `unknown_seed`, not the file's
    (which whoever wrote it knows)."""
    doc, loaded = load_file(path, shown or display(path))
    if doc is None:
        return None, loaded
    if not isinstance(doc.data, dict):
        return None, [*loaded, doc.at((), "expected a mapping at the top of the file")]
    bare = bare_unknown_marks(doc)  # read as unknown cards: the checks go on
    problems = loaded + schema_problems(doc, "scenario")
    if problems:
        return None, bare + problems
    env = env or Environment()  # one for the rules and the regulation alike
    rules, problems = scenario_rules(doc, path, env, served)
    if rules is None:
        return None, bare + problems
    problems = bare + problems
    commands: list[ScenarioCommand] = []
    checkpoints: list[tuple[int, PathKey]] = []
    for i, item in enumerate(doc.data["commands"]):
        if isinstance(item, dict) and "expect" in item:
            checkpoints.append((len(commands), ("commands", i, "expect")))
            continue
        found = _command_text(doc, item, i)
        if isinstance(found, Diagnostic):
            problems.append(found)
            continue
        place, text, refused = found
        try:
            commands.append(ScenarioCommand(place, text, parse_command(text), refused))
        except InvalidCommand as error:
            offset = 0 if isinstance(item, str) else len(str(place[-1])) + 2  # "pN: " is not in the value
            start = max(0, error.column - offset)
            problems.append(doc.at_text(place, start, error.width, error.message))
    regulation: Setup | None = None
    refusals: list[Diagnostic] = []
    if "regulation" in doc.data["setup"]:
        regulation, refusals, wrong = regulation_of(doc, path, rules, env, served)
        problems += wrong
    elif "match" in doc.data["setup"]:
        problems.append(doc.at(("setup", "match"), "match: a match is played under a regulation", key=True))
    played = rules if regulation is None else regulation.additions.widen(rules)  # its frame's zones, actions
    problems += meaning_problems(doc, played, checkpoints)
    refusing = REFUSED in doc.data["expect"]
    if problems or (refusals and not refusing):
        return None, problems + refusals
    dealt, problems = deal_unknowns(doc, played, unknown_seed)
    if problems:
        return None, problems
    scenario = Scenario(doc, played, commands, checkpoints, regulation, [d.message for d in refusals], dealt)
    if refusing:  # a refused set-up has no game to check
        return scenario, []
    try:  # the engine's own checks catch any position the checks above let through
        check_invariants(build(scenario))
    except InvariantError as error:
        return None, [doc.at(("setup",), f"setup: not a possible position: {error}")]
    return scenario, []


def _command_text(doc: Document, item: Any, i: int) -> tuple[PathKey, str, str | None] | Diagnostic:
    if isinstance(item, str):
        return ("commands", i), item, None
    players = [k for k in PLAYER_KEYS if k in item]
    if len(players) != 1:
        return doc.at(("commands", i), "a command is one player's: give exactly one of p1, p2")
    who = players[0]
    return ("commands", i, who), f"{who}: {item[who]}", item.get("refused")


def scenario_files(paths: list[Path]) -> tuple[list[Path], list[Diagnostic]]:
    """The scenario files named or found in the folders named, and each folder with none."""
    return find_files(paths, (".yaml", ".yml"))
