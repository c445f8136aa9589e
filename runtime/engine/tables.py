"""What the engine derives once per rule set, and the caches that live as long as it."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from blackpoker.compiler.emit_json import ruleset_json
from blackpoker.compiler.matcher import KeyMatcher, compile_matcher
from blackpoker.compiler.model import RuleSet
from blackpoker.compiler.program import Target
from blackpoker.runtime.engine.legal import KeyWays, Timed, requestables
from blackpoker.runtime.engine.zones import DECK


@dataclass
class Tables:
    requestables: Timed  # the direct actions each timing situation allows
    target_specs: dict[str, Any]  # action id → the spec of its `target` step
    ruleset_hash: str  # of the compiled rule set as JSON: command logs name the rules they were played by
    relevant: dict[str, tuple[bool, ...]]  # keyed action id → which deck cards can be its key cards
    waivers: bool  # some character waives costs (魔力増加): only then is the field searched for one
    character_matchers: dict[str, KeyMatcher]  # which cards make which character (兵士として, 防壁にする)
    # hand (sorted ids) → action id → its key-card ways; and by the action's relevant cards only
    ways: dict[tuple[int, ...], dict[str, KeyWays]] = field(default_factory=dict)
    relevant_ways: dict[tuple[str, tuple[int, ...]], KeyWays] = field(default_factory=dict)


_TABLES: dict[int, tuple[RuleSet, Tables]] = {}


def tables(rules: RuleSet) -> Tables:
    known = _TABLES.get(id(rules))
    if known is None or known[0] is not rules:
        specs = {a.id: s for a in rules.actions for s in a.steps[:1] if isinstance(s, Target)}
        digest = hashlib.sha256(
            json.dumps(ruleset_json(rules), sort_keys=True, ensure_ascii=False).encode()
        ).hexdigest()
        relevant = {
            a.id: tuple(not a.key.rare and any(p.matches(c) for p in a.key.patterns) for c in DECK)
            for a in rules.actions
            if a.key is not None
        }
        direct = requestables(tuple(a for a in rules.actions if a.direct), specs)
        waivers = any(c.waives_cost_of for c in rules.characters)
        matchers = {c.id: compile_matcher(c.key) for c in rules.characters}
        known = (rules, Tables(direct, specs, digest, relevant, waivers, matchers))
        _TABLES[id(rules)] = known
    return known[1]
