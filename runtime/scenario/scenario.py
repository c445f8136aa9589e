"""What a loaded scenario is: its file, its rule set, its commands and checkpoints, its
regulation and the set-up with its unknown cards dealt; and the words a scenario file uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from blackpoker.compiler.load import Document, PathKey
from blackpoker.runtime.play.notation import Command
from blackpoker.runtime.play.regulation import Setup
from blackpoker.runtime.rules.model import RuleSet

PLAYER_KEYS = ("p1", "p2")
NO_CARD = "none"  # `graveyard_top` of an empty graveyard
REFUSED = "refused"  # the `expect` of a set-up that must be refused


@dataclass(frozen=True, slots=True)
class ScenarioCommand:
    """A command of the scenario: where it is, as written (`pN: …`), parsed, and the refusal
    expected (None: it must be accepted)."""

    where: PathKey
    text: str
    command: Command
    refused: str | None


@dataclass
class Scenario:
    doc: Document
    rules: RuleSet
    commands: list[ScenarioCommand]
    # where a checkpoint's `expect` is, and after how many commands it is checked
    checkpoints: list[tuple[int, PathKey]] = field(default_factory=list)
    regulation: Setup | None = None  # a dealt set-up's regulation, with its deck files
    refusals: list[str] = field(default_factory=list)  # why the regulation's set-up is refused
    setup: dict[str, Any] | None = None  # the written set-up with its unknown cards dealt (None: as written)


def setup_labels(zones: dict[str, Any], path: PathKey) -> list[tuple[PathKey, str]]:
    found: list[tuple[PathKey, str]] = []
    for zone in ("life", "hand", "graveyard"):
        if isinstance(zones.get(zone), list):
            found += [((*path, zone, i), text) for i, text in enumerate(zones[zone])]
    for name, cards in zones.get("zones", {}).items():
        found += [((*path, "zones", name, i), text) for i, text in enumerate(cards)]
    for i, unit in enumerate(zones.get("field", ())):
        found += [((*path, "field", i, "cards", j), text) for j, text in enumerate(unit["cards"])]
    return found


def at(data: Any, path: PathKey) -> Any:
    for key in path:
        data = data[key]
    return data
