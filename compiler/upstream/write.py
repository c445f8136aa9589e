"""Write an edition's data as YAML in the style of the built-in lists: keys in a fixed order,
short mappings and lists of words on one line, multi-line texts as literal blocks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import yaml

# The order keys are written in (the order of the built-in lists); others follow.
ACTION_ORDER = (
    "id", "name", "ruby", "type", "section", "format", "timing", "speed", "trigger", "triggered_by",
    "limits", "cost", "key", "activation_condition", "trigger_condition", "note", "target", "unit", "effect",
    "story", "flavor", "speaker", "program", "variants", "since", "updates", "changed", "dev_note",
)  # fmt: skip
CHARACTER_ORDER = (
    "id", "name", "ruby", "type", "format", "key", "labels", "size_text", "face", "attack", "size",
    "combat", "triggers", "waives_cost_of", "waives_units", "waives_timing", "abilities", "note", "ability",
    "story", "flavor", "speaker", "since", "updates", "changed", "dev_note",
)  # fmt: skip
FOG_ORDER = (
    "id", "name", "ruby", "type", "format", "key", "target", "ability", "action", "story", "flavor",
    "speaker", "since", "updates", "dev_note",
)  # fmt: skip
HEADER_ORDER = (
    "kind", "id", "title", "published", "magazine", "copyright", "formats", "sections", "action_types",
    "character_types", "fog_types", "labels", "cost_units", "core", "legend", "actions", "characters",
    "fogs",
)  # fmt: skip

_SHORT = 100  # a collection of plain values this long or shorter (as repr) is written on one line


EXTRA_ORDER = (
    "kind", "id", "edition", "programs_from", "title", "published",
    "description", "action_types", "cost_units", "setup", "operations", "trumps",
)  # fmt: skip
TRUMP_ORDER = (
    "suit", "number", "id", "name", "beta", "output", "ability", "abilities", "actions", "characters",
)  # fmt: skip


def edition_yaml(data: Mapping[str, Any], comment: Sequence[str] = ()) -> str:
    """The file's text: `comment` lines first, a blank line between top-level keys and entries."""
    ordered = _ordered(data, HEADER_ORDER)
    for name, order in (("actions", ACTION_ORDER), ("characters", CHARACTER_ORDER), ("fogs", FOG_ORDER)):
        if name in ordered:
            ordered[name] = [_ordered(entry, order) for entry in ordered[name]]
    return _text(ordered, comment)


def extra_yaml(data: Mapping[str, Any], comment: Sequence[str] = ()) -> str:
    """An extra list's text, in the same style."""
    ordered = _ordered(data, EXTRA_ORDER)
    ordered["operations"] = [_ordered(entry, ACTION_ORDER) for entry in ordered["operations"]]
    ordered["trumps"] = [{**_ordered(trump, TRUMP_ORDER), **_actions(trump)} for trump in ordered["trumps"]]
    return _text(ordered, comment)


def _actions(trump: Mapping[str, Any]) -> dict[str, Any]:
    return {"actions": [_ordered(a, ACTION_ORDER) for a in trump["actions"]]} if "actions" in trump else {}


def _text(ordered: Mapping[str, Any], comment: Sequence[str]) -> str:
    text = yaml.dump(ordered, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=1_000_000)
    lines: list[str] = [f"# {line}".rstrip() for line in comment]
    for line in text.splitlines():
        block = line != "" and not line.startswith(
            (" ", "-")
        )  # "": a blank line of a text and (line.endswith(":") or lines[-1:] != [""])
        after_block = lines and lines[-1].startswith(" ")
        entry = line.startswith(("  - id: ", "  - suit: ")) and not lines[-1].endswith(":")
        if lines and ((block and (line.endswith(":") or after_block)) or entry):
            lines.append("")
        lines.append(line)
    return "\n".join(lines) + "\n"


def _ordered(entry: Mapping[str, Any], order: Sequence[str]) -> dict[str, Any]:
    """The entry with its keys in writing order (keys not in `order` last, as they came)."""
    return {
        key: entry[key] for key in sorted(entry, key=lambda k: order.index(k) if k in order else len(order))
    }


class _Dumper(yaml.SafeDumper):
    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)  # list items indented under their key


def _plain(value: Any) -> bool:
    return not isinstance(value, (dict, list)) and not (isinstance(value, str) and "\n" in value)


def _represent_text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


def _represent_list(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.SequenceNode:
    flow = all(map(_plain, value)) or (_inline(value) and len(repr(value)) <= _SHORT)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


def _represent_mapping(dumper: yaml.SafeDumper, value: dict[str, Any]) -> yaml.MappingNode:
    # A one-key mapping (a step such as `request: charge`) stays a block unless it sits inside
    # a one-line mapping; {id: lite, name: ライト, mark: ■} goes on one line.
    flow = _inline(value) and len(repr(value)) <= _SHORT and len(value) != 1
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(), flow_style=flow)


def _inline(value: Any) -> bool:
    if isinstance(value, dict):
        return all(map(_inline, value.values()))
    if isinstance(value, list):
        return all(map(_inline, value))
    return _plain(value)


_Dumper.add_representer(str, _represent_text)
_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(dict, _represent_mapping)
