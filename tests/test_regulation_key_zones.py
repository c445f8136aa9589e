"""Key cards that come from a zone (an action's `key_from`, the rare card of frame.yaml): the
option search offers them from that zone only, agrees with the legality checks, keeps its
caches correct when only that zone changes, and the file refuses a key from a zone it lacks.
Actions and zones are found in the data by what they do, never by name."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from bad_input_support import invoke, refused
from blackpoker.compiler.documents.regulation import (
    Regulation,
    Regulations,
    builtin_regulations,
    parse_regulation,
)
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import RequestOption
from blackpoker.runtime.engine.request_checks import first_refusal
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.play.agents import decide
from blackpoker.runtime.play.notation import parse_command
from blackpoker.runtime.play.selfplay import random_agents
from blackpoker.runtime.rules.model import Action
from regulation_support import file_data, game_under, rules_under, write

ZONED = [r for r in builtin_regulations() if r.editions and any(a.key_from != ("hand",) for a in r.actions)]


@pytest.fixture(scope="module", params=ZONED, ids=lambda r: r.id)
def regs(request: pytest.FixtureRequest) -> Regulations:
    found: Regulations = request.param
    return found


def _zoned(regs: Regulations) -> tuple[Regulation, tuple[Action, ...]]:
    """A playable regulation whose frame adds actions taking key cards from a zone, and those."""
    frame = next(
        f
        for f in regs.frames
        if not f.unplayable and any(a.id in f.actions and a.key_from != ("hand",) for a in regs.actions)
    )
    fmt = next(f for f in regs.formats if frame.formats is None or f.id in frame.formats)
    zoned = tuple(a for a in regs.actions if a.id in frame.actions and a.key_from != ("hand",))
    return parse_regulation(f"{fmt.id}+{frame.id}", regs), zoned


def _positions(regulation: Regulation, rules: Rules, games: int) -> list[Game]:
    """Copies of every position of random games under the regulation, each also with both
    lives cut to a few cards (an 起動条件 may ask for a short life)."""
    found = []
    for seed in range(games):
        game, _ = game_under(regulation, seed, rules)
        agents = random_agents(seed)
        while not game.over and game.decisions < 300:
            short = game.copy()
            for player in short.state.players:
                player.graveyard += player.life[5:]
                del player.life[5:]
            found += [game.copy(), short]
            game.apply(decide(game, agents))
    return found


def test_key_cards_come_from_the_actions_zones_and_the_checks_agree(regs: Regulations) -> None:
    regulation, zoned = _zoned(regs)
    rules, _ = rules_under(regulation)
    offered = {a.id: 0 for a in zoned}
    for game in _positions(regulation, rules, 8):
        for option in game.legal_options():
            if not isinstance(option, RequestOption):
                continue
            assert first_refusal(game, parse_command(f"p{option.player + 1}: {option}")) is None, option
            action = rules.action(option.action)
            if action.id in offered and option.keys:
                me = game.state.players[option.player]
                assert set(option.keys) <= {c for zone in action.key_from for c in me.pile(zone)}
                offered[action.id] += 1
    assert all(offered.values()), offered  # every such action is offered in some position


def test_a_key_card_of_the_hand_is_refused_with_the_zone_named(regs: Regulations) -> None:
    regulation, zoned = _zoned(regs)
    rules, _ = rules_under(regulation)
    for game in _positions(regulation, rules, 8):
        for option in game.legal_options():
            if isinstance(option, RequestOption) and option.action in {a.id for a in zoned} and option.keys:
                me = game.state.players[option.player]
                if not me.hand:
                    continue
                swapped = replace(option, keys=(me.hand[0],))
                refusal = first_refusal(game, parse_command(f"p{option.player + 1}: {swapped}"))
                assert refusal is not None and refusal.rule == "key cards in hand"
                zones = {z.id: z.name for z in rules.edition.core.zones}
                assert zones[rules.action(option.action).key_from[0]] in refusal.message
                return
    pytest.fail("no position offers an action whose key cards come from a zone")


def test_the_plans_change_with_the_zones_key_cards_come_from(regs: Regulations) -> None:
    """Plans are cached by hand; a zone key cards come from is part of the key, so warm caches
    give the options a fresh context finds, also when only that zone changed."""
    regulation, zoned = _zoned(regs)
    shared, _ = rules_under(regulation)
    changed = 0
    for game in _positions(regulation, shared, 6):
        fresh = Game(Rules(shared.ruleset), game.state.copy(), check=False)
        assert fresh.legal_options() == game.legal_options()
        p = game.state.chance
        zone = zoned[0].key_from[0]
        if p is None or not game.state.players[p].zones[zone] or game.state.resolving:
            continue
        emptied = game.copy()
        emptied.state.players[p].outside += emptied.state.players[p].zones[zone]
        emptied.state.players[p].zones[zone] = []
        after = {o.action for o in emptied.legal_options() if isinstance(o, RequestOption)}
        before = {o.action for o in game.legal_options() if isinstance(o, RequestOption)}
        changed += bool((before - after) & {a.id for a in zoned})
    assert changed > 0


def test_a_key_from_a_zone_the_file_lacks_is_refused(regs: Regulations, tmp_path: Path) -> None:
    data = file_data(regs)
    at, raw = next((i, a) for i, a in enumerate(data["actions"]) if "key_from" in a)
    raw["key_from"] = ["nowhere"]
    path = write(tmp_path / "frames.yaml", data)
    result = refused(invoke("validate", path))
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "nowhere" in text)
    assert f"{path}:{line}:" in result.stderr and "key_from: no zone 'nowhere' in zones" in result.stderr
    raw["key_from"] = ["hand", *regs.actions[at].key_from]
    write(path, data)
    result = refused(invoke("validate", path))
    assert "takes the cards of the zones key_from names, never the hand's" in result.stderr
