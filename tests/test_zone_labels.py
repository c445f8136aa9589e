"""A card in a zone the rule set declares (the extra format's trumps, the fog) is named by the
zone's printed name wherever a person reads it: the browser's options, choices, questions and
help, its log and its board (a fog card's note, a request's target), the terminal's board and
a typed command's refusal. The names come from the compiled rule set (`core.zones`); the
extra edition is found in the data by what it has, never by name."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from blackpoker.cli.play_terminal import Table
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import RequestOption
from blackpoker.runtime.engine.refs import ZoneCard
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.choosing import command_option
from blackpoker.runtime.play.chronicle import Chronicle
from blackpoker.runtime.play.labels import labels, labels_for
from blackpoker.runtime.rules.model import RuleSet
from editions_support import environment
from rich.console import Console
from serve_support import EXTRA, Running

# The state's fields a page never prints: ids, the notation it sends back, the board's marks.
NOT_PRINTED = {"id", "kind", "chosen", "value", "marks", "hidden", "ref", "done", "suit", "auto"}
SEEDS = range(3)
SEATS = ("p1", "p2")


def printed(data: Any, key: str = "") -> Iterator[str]:
    """Every text of a seat's answer that the page shows."""
    if isinstance(data, dict):
        for k, value in data.items():
            if k not in NOT_PRINTED:
                yield from printed(value, k)
    elif isinstance(data, list):
        for value in data:
            yield from printed(value, key)
    elif isinstance(data, str):
        yield data


def zone_ids(rules: RuleSet) -> dict[str, re.Pattern[str]]:
    """The declared zones that have a printed name other than their id: id → its pattern as a word."""
    return {
        z.id: re.compile(rf"(?<![A-Za-z_]){re.escape(z.id)}(?![A-Za-z_])")
        for z in rules.edition.core.zones
        if z.name != z.id
    }


def test_a_zone_cards_target_says_the_zones_printed_name() -> None:
    rules = _extra()
    zone = next(z for z in rules.edition.core.zones if z.name != z.id)
    words = labels_for(rules)
    assert words.target(f"→ p2:{zone.id}:♢4") == f"→ p2の{zone.name}の♢4"
    assert words.target(f"p1:{zone.id}#2") == f"p1の{zone.name}#2"
    # without the rule set there is no name to print: the id stays (what a table must not show)
    assert labels().target(f"p2:{zone.id}:♢4") == f"p2の{zone.id}の♢4"


def _extra() -> RuleSet:
    return environment().compile(EXTRA, EXTRA_FORMAT.id)


@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_extra_games_print_no_zone_id(server: Running, seed: int) -> None:
    """A game at each seat played by random clicks: at every step, the answer's printed texts
    (options, choices, question, help, log lines, board) and the terminal's board of the same
    view name no declared zone by its id; and some step named a zone's card by its name."""
    found: dict[str, str] = {}
    named = 0
    for seat in SEATS:
        token = server.new_game(edition=EXTRA, format=EXTRA_FORMAT.id, seed=seed, seat=seat)[seat]
        game = server.session(token).game
        ids = zone_ids(game.rules.ruleset)
        names = [z.name for z in game.rules.ruleset.edition.core.zones if z.id in ids]
        table = Table(Console(file=io.StringIO(), width=100), game, Chronicle())
        rng = random.Random(seed)
        state = server.call("GET", f"/api/seat/{token}").data
        for step in range(3000):
            texts = [*printed(state), *table.board(view(game, SEATS.index(seat)))]
            for text in texts:
                for zone, pattern in ids.items():
                    if pattern.search(text):
                        found.setdefault(text, f"{seat}, seed {seed}, step {step}: {zone}")
            named += any(f"の{n}の" in t or f"の{n}#" in t for t in texts for n in names)
            if state["menu"] is None:
                break
            state = server.choose_at_random(token, state, rng).data
        assert game.over
    assert found == {}, found
    assert named, "no step named a zone's card: the check saw nothing"


def test_a_typed_command_naming_no_card_of_a_zone_is_refused_by_the_zones_name() -> None:
    """A request typed with a target in a zone that holds no such card (the option's own
    command with another card): the refusal names the zone as the rule set prints it."""
    rules = Rules(_extra())
    game = Game.new(rules, 1)
    rng = random.Random(1)
    while not game.over:
        seen = view(game, game.to_move)
        aimed = [o for o in seen.options if isinstance(o, RequestOption) and isinstance(o.target, ZoneCard)]
        if aimed:
            break
        game.apply(rng.choice(game.legal_options()))
    else:
        raise AssertionError("no option aimed at a zone's card")
    option = aimed[0]
    assert isinstance(option.target, ZoneCard)
    zone = next(z for z in rules.ruleset.edition.core.zones if z.id == option.target.zone)
    lying = {label(c) for p in game.state.players for c in p.zones[zone.id]}
    other = next(f for f in ("♠A", "♡A", "♢A", "♣A", "Joker") if f not in lying)
    text = str(option).rsplit(":", 1)[0] + f":{other}"
    refused = command_option(rules, seen, text)
    assert isinstance(refused, str), text
    assert f"の{zone.name}に{other}はありません" in refused and zone.id not in refused.split("（")[0], refused
