"""Large edition files made from a built-in edition: its actions copied under new ids and
names until the list holds the asked number more, one action a line (flow style, no alias),
as a full edition or as a based edition that adds them to its base."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml
from blackpoker.compiler.environment import Environment

# Printed texts are not what the compile time is about: each copy keeps its program, cost,
# timing and triggers but gets a short effect text, so 10,000 actions fit in a file's limit.
_DROPPED = ("story", "note", "flavor", "speaker", "updates", "ruby", "activation_condition")


def copied_actions(actions: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """`count` actions copied from `actions`, in turn, each under a new id and name."""
    made = []
    for i in range(count):
        action = {k: v for k, v in copy.deepcopy(actions[i % len(actions)]).items() if k not in _DROPPED}
        made.append({**action, "id": f"copy{i}", "name": f"写し{i}", "effect": f"効果{i}", "since": "v1"})
    return made


def full_edition(edition: str, folder: Path, count: int) -> Path:
    """`big-N.yaml`: the edition written out whole (its bases' entries included), `count` more actions."""
    data = dict(Environment().edition(edition).doc.data)
    actions = data.pop("actions")
    head = {**data, "id": f"big-{count}"}
    lines = ["actions:", *(f"  - {_flow(a)}" for a in [*actions, *copied_actions(actions, count)])]
    return _write(folder / f"big-{count}.yaml", head, lines)


def based_edition(edition: str, folder: Path, count: int) -> Path:
    """`based-N.yaml`: a based edition that adds `count` actions to the edition."""
    actions = Environment().edition(edition).doc.data["actions"]
    head = {"kind": "edition", "id": f"based-{count}", "base": edition, "title": f"based {count}"}
    added = [f"    - {_flow(a)}" for a in copied_actions(actions, count)]
    lines = ["actions:", *(["  add:", *added] if added else ["  add: []"])]
    return _write(folder / f"based-{count}.yaml", head, lines)


def _flow(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, sort_keys=False, width=1 << 30)
    return text.removesuffix("\n...\n").strip()


def _write(path: Path, head: dict[str, Any], lines: list[str]) -> Path:
    text = [f"{key}: {_flow(value)}" for key, value in head.items()]
    path.write_text("\n".join([*text, *lines]) + "\n", encoding="utf-8")
    return path
