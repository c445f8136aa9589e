"""Stage 5 (runtime side) — emit: a rule set as plain JSON data, and the rule-set hash of it.

The key names here are a public interface (scripts outside the project read them):
keep them stable. They are hashed too: a key added for later editions' data appears only
where a rule set has it, so that the hash of every other rule set, which command logs
name their rules by, stays what it was.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields, replace
from enum import Enum
from typing import Any

from blackpoker.runtime.rules.cards import Card, Rank
from blackpoker.runtime.rules.cost import Cost
from blackpoker.runtime.rules.model import Action, Character, Fog, GraveyardTop, RuleSet, TrumpRule, ZoneRule
from blackpoker.runtime.rules.program import Ability, Node, Step, word


def hashed(ruleset: RuleSet) -> RuleSet:
    """The rule set with its hash (`RuleSet.digest`): the last step of every rule set the
    compiler gives out."""
    return replace(ruleset, digest=ruleset_hash(ruleset))


def ruleset_hash(ruleset: RuleSet) -> str:
    """The SHA-256 of the rule set's JSON, keys sorted: command logs name their rules by it."""
    text = json.dumps(ruleset_json(ruleset), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def ruleset_json(ruleset: RuleSet) -> dict[str, Any]:
    fmt = ruleset.format
    core = ruleset.edition.core
    return {
        "edition": ruleset.edition.id,
        "edition_title": ruleset.edition.title,
        "format": fmt.id,
        "format_name": fmt.name,
        "base": fmt.base,
        "core": {
            "auto_pass_after_normal_request": ruleset.edition.core.auto_pass_after_normal_request,
            "hand_size": ruleset.edition.core.hand_size,
            "hand_limit": ruleset.edition.core.hand_limit,
            # the keys of later editions' data appear only where it has them, so that the
            # rule-set hash of an edition without them stays what it was
            **({"zones": [_zone(z) for z in core.zones]} if core.zones else {}),
            # written when an edition drops the rule, so that the rule sets that keep it hash as before
            **({"target_required": False} if not core.target_required else {}),
            **({"no_self_target": False} if not core.no_self_target else {}),
            **(
                {"graveyard_top": core.graveyard_top.value}
                if core.graveyard_top is not GraveyardTop.LAST_IN
                else {}
            ),
        },
        "actions": [_action(ruleset, a) for a in ruleset.actions],
        "characters": [_character(ruleset, c) for c in ruleset.characters],
        "fogs": [_fog(ruleset, f) for f in ruleset.fogs],
        **({"abilities": _abilities(ruleset.edition.abilities)} if ruleset.edition.abilities else {}),
        **({"trumps": [_trump(t) for t in ruleset.trumps]} if ruleset.trumps else {}),
        **({"setup": _action(ruleset, ruleset.setup)} if ruleset.setup else {}),
    }


def _trump(trump: TrumpRule) -> dict[str, Any]:
    return {
        "card": str(trump.card),
        "id": trump.id,
        "name": trump.name,
        "actions": list(trump.actions),
        "pending": list(trump.pending),
        **({"abilities": _abilities(trump.abilities)} if trump.abilities else {}),
    }


def _abilities(abilities: tuple[Ability, ...]) -> list[dict[str, Any]]:
    """Each continuous ability under its word, as `_node` writes a node."""
    return [{word(a): _node(a)} for a in abilities]


def _action(ruleset: RuleSet, action: Action) -> dict[str, Any]:
    return {
        "id": action.id,
        "name": action.name,
        "type": action.type,
        "section": action.section,
        "debut": ruleset.debut(action).id,
        "formats": list(action.formats),
        "timing": action.timing.value,
        "speed": action.speed.value,
        "trigger": action.trigger.value,
        "direct": action.direct,
        "limits": sorted(limit.value for limit in action.limits),
        "cost": str(action.cost),
        "key": str(action.key) if action.key else "",
        "key_cards": action.key.card_count() if action.key else 0,
        # only where the data names other zones, so that the rule-set hash stays what it was
        **({"key_from": list(action.key_from)} if action.key_from != ("hand",) else {}),
        "note": action.note,
        "target": action.target,
        **({"unit": action.unit} if action.unit else {}),  # only where printed: the hash stays
        "effect": action.effect,
        "program": list(action.program),
        "story": action.story,
        "flavor": action.flavor,
        "speaker": action.speaker,
        "since": action.since,
        "updates": list(action.updates),
        "ruby": action.ruby,
        "activation_condition": action.activation_condition,
        "trigger_condition": action.trigger_condition,
        "changed": action.changed,
        "dev_note": action.dev_note,
        **({"triggered_by": _node(action.triggered_by)} if action.triggered_by else {}),
        **({"requires": _node(action.requires)} if action.requires else {}),
        **({"caused_by": _node(action.caused_by)} if action.caused_by else {}),
    }


def _character(ruleset: RuleSet, character: Character) -> dict[str, Any]:
    return {
        "id": character.id,
        "name": character.name,
        "type": character.type,
        "debut": ruleset.debut(character).id,
        "formats": list(character.formats),
        "key": str(character.key),
        "face": character.face.value,
        "attack": character.attack.value,
        "size": character.size.value,
        "combat": character.combat.value,
        "triggers": [
            {
                "when": t.when.value,
                "request": t.request,
                "for_each_card": list(map(str, t.for_each_card)),
                **({"action": t.action} if t.action else {}),
                **({"targets_card": True} if t.targets_card else {}),
            }
            for t in character.triggers
        ],
        "waives_cost_of": list(character.waives_cost_of),
        **({"waives_units": list(character.waives_units)} if character.waives_units else {}),
        **({"waives_timing": character.waives_timing.value} if character.waives_timing else {}),
        **({"number": character.number} if character.number is not None else {}),
        **({"untargetable": True} if character.untargetable else {}),
        **({"untargetable_by": list(character.untargetable_by)} if character.untargetable_by else {}),
        **({"must_attack": True} if character.must_attack else {}),
        **({"bulwark_proof": True} if character.bulwark_proof else {}),
        **({"suits": [suit.value for suit in character.suits]} if character.suits else {}),
        "note": character.note,
        "ability": character.ability,
        "story": character.story,
        "flavor": character.flavor,
        "speaker": character.speaker,
        "since": character.since,
        "updates": list(character.updates),
        "ruby": character.ruby,
        "labels": list(character.labels),
        "size_text": character.size_text,
        "changed": character.changed,
        "dev_note": character.dev_note,
        **({"abilities": _abilities(character.abilities)} if character.abilities else {}),
    }


def _fog(ruleset: RuleSet, fog: Fog) -> dict[str, Any]:
    return {
        "id": fog.id,
        "name": fog.name,
        "ruby": fog.ruby,
        "type": fog.type,
        "debut": ruleset.debut(fog).id,
        "formats": list(fog.formats),
        "key": str(fog.key) if fog.key else "",
        "target": fog.target,
        "ability": fog.ability,
        "action": fog.action,
        "story": fog.story,
        "flavor": fog.flavor,
        "speaker": fog.speaker,
        "since": fog.since,
        "updates": list(fog.updates),
        "changed": fog.changed,
        "dev_note": fog.dev_note,
    }


def _zone(zone: ZoneRule) -> dict[str, str]:
    return {"id": zone.id, "name": zone.name, "visibility": zone.visibility.value}


def _node(value: Any) -> Any:
    """A typed program node as plain data: its fields by name, enums by value."""
    if isinstance(value, Node):
        found = {
            f.name: _node(getattr(value, f.name))
            for f in fields(value)
            if getattr(value, f.name) is not None or not f.metadata.get("later")
        }
        return {word(value): found} if isinstance(value, Step) else found  # a step under its word
    if isinstance(value, tuple):
        return [_node(item) for item in value]
    if isinstance(value, Cost | Card | Rank):  # as the data writes them
        return str(value)
    return value.value if isinstance(value, Enum) else value
