"""The upstream words and their meaning in the model, read from vocabulary.yaml (data, not code)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from types import MappingProxyType
from typing import Any

import yaml


@dataclass(frozen=True, slots=True)
class Vocabulary:
    numerals: Mapping[str, int]
    suits: Mapping[str, str]
    timing: Mapping[str, str]
    speed: Mapping[str, str]
    trigger: Mapping[str, str]
    mark: str
    limits: Mapping[str, str]  # known condition / note text → limit id
    not_direct: str
    triggered_types: frozenset[str]
    labels: Mapping[str, str]  # printed label → label id
    ignored_entry_keys: frozenset[str]
    ignored_header_keys: frozenset[str]
    action_engine_fields: tuple[str, ...]
    character_engine_fields: tuple[str, ...]
    extra_character_engine_fields: tuple[str, ...]
    trump_operations: str  # a frame list's trump-list group of the operations
    face_down_trump: str  # its entry of the face-down trump, which names no card
    ignored_trump_keys: frozenset[str]


def vocabulary() -> Vocabulary:
    """The packaged vocabulary (read on each call: the importer runs once per process)."""
    text = (files("blackpoker.compiler.upstream") / "vocabulary.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return Vocabulary(
        numerals=MappingProxyType(dict(data["numerals"])),
        suits=MappingProxyType(dict(data["suits"])),
        timing=MappingProxyType(dict(data["timing"])),
        speed=MappingProxyType(dict(data["speed"])),
        trigger=MappingProxyType(dict(data["trigger"])),
        mark=data["mark"],
        limits=MappingProxyType({entry["text"]: entry["limit"] for entry in data["limits"]}),
        not_direct=data["not_direct"],
        triggered_types=frozenset(data["triggered_types"]),
        labels=MappingProxyType(dict(data["labels"])),
        ignored_entry_keys=frozenset(data["ignored"]["entry"]),
        ignored_header_keys=frozenset(data["ignored"]["header"]),
        action_engine_fields=tuple(data["engine_fields"]["actions"]),
        character_engine_fields=tuple(data["engine_fields"]["characters"]),
        extra_character_engine_fields=tuple(data["engine_fields"]["extra_characters"]),
        trump_operations=data["trump_list"]["operations"],
        face_down_trump=data["trump_list"]["face_down"],
        ignored_trump_keys=frozenset(data["trump_list"]["ignored"]),
    )
