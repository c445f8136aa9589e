"""Positions of served games that the browser tests (test_serve_gameflow.py) and the docs'
pictures (serve_pictures.py) reach: a scenario whose payment may take two bulwarks, and a
fight of two people driven over the API until a wanted moment."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from blackpoker.runtime.engine.options import Choice, RequestOption
from blackpoker.runtime.rules.enums import Face
from editions_support import environment
from serve_support import EDITION, SMALLEST, Running

HAND = "[♢3, ♢4, ♡5, ♡7, ♠J, ♣K]"
GRAVEYARD = "[♡2, ♡3, ♡4, ♡6, ♡8, ♡9, ♡10, ♡J]"


def bulwarks() -> str:
    """p1 to act with three charged face-down characters (bulwarks: a payment of two of them is
    legal; their states are several words each) and a long graveyard."""
    down = next(c for c in environment().compile(EDITION, SMALLEST).characters if c.face is Face.DOWN)
    field = ", ".join(f"{{as: {down.id}, cards: [{c}], face: down}}" for c in ("♣3", "♣5", "♠6"))
    return f"""kind: scenario
name: two bulwarks to pay with
edition: {EDITION}
format: {SMALLEST}
setup:
  turn: p1
  p1: {{life: 30, hand: {HAND}, graveyard: {GRAVEYARD}, field: [{field}]}}
  p2: {{life: 40, hand: [♢6, ♢8]}}
commands: []
expect: {{winner: none}}
"""


def scenario_game(page: Any, server: Running, tmp_path: Path) -> str:
    path = tmp_path / "position.yaml"
    path.write_text(bulwarks(), encoding="utf-8")
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=format] option", state="attached")
    page.select_option("select[name=opponent]", "first")
    page.set_input_files("input[name=scenario]", str(path))
    page.click("#new-game button[type=submit]")
    page.wait_for_selector(".entry")
    return page.url.rsplit("/", 1)[1]


def card_at(card: int) -> str:
    return f'#board .card[data-keys="card:{card}"]'


def paid(option: RequestOption) -> list[int]:
    return [c for _, c in option.payment if c is not None]


def fight(rules: Any) -> str:
    """Two people: p1 with two characters able to attack, p2 with a face-down one to block."""
    up = next(c for c in rules.characters if c.face is Face.UP)
    down = next(c for c in rules.characters if c.face is Face.DOWN)
    attackers = ", ".join(f"{{as: {up.id}, cards: [{card}]}}" for card in ("♠9", "♠8"))
    return f"""kind: scenario
name: an attack blocked by a face-down character
edition: {EDITION}
format: {SMALLEST}
setup:
  turn: p1
  p1: {{life: 30, hand: [♢3, ♢4, ♢5, ♢6, ♢7], field: [{attackers}]}}
  p2: {{life: 30, hand: [♡3, ♡4, ♡5, ♡6], field: [{{as: {down.id}, cards: [♣7], face: down}}]}}
commands: []
expect: {{winner: none}}
"""


def hidden_block(game: Any) -> bool:
    """A face-down character blocks."""
    blockers = [game.state.unit(b) for found in game.state.blocks.values() for b in found]
    return any(unit is not None and not unit.face_up for unit in blockers)


def several_picks(game: Any) -> bool:
    """p1 decides, again and again until `done`, with two or more picks open (the attackers)."""
    options = game.legal_options()
    picks = [o for o in options if isinstance(o, Choice) and o.player == 0 and o.word != "done"]
    return any(isinstance(o, Choice) and o.word == "done" for o in options) and len(picks) >= 2


def drive(server: Running, rules: Any, reached: Callable[[Any], bool]) -> tuple[dict[str, str], Any]:
    """A game of two people from fight(), its decisions sent as commands over the API until
    `reached` holds. They are found by random playouts of a copy that pay nothing (the hands
    stay full, so a person still has a choice there and the server stops); those with a single
    legal option, which the server takes by itself, are not sent."""
    seats = server.new_game(scenario=fight(rules), people=2)
    session = server.session(seats["p1"])
    rng = random.Random(0)
    for _ in range(2000):
        again, chosen = session.game.copy(), []
        while not reached(again) and not again.over and len(chosen) < 40:
            options = again.legal_options()
            free = [o for o in options if not (isinstance(o, RequestOption) and o.payment)]
            option = rng.choice(free or options)
            if len(options) > 1:
                chosen.append(option)
            again.apply(option)
        if reached(again):
            break
    else:
        raise AssertionError("no playout reached the position wanted")
    for option in chosen:
        sent = {"decision": session.game.decisions, "text": str(option)}
        answer = server.post(f"/api/seat/{seats[f'p{option.player + 1}']}/command", sent)
        assert answer.status == 200, answer.text
    return seats, session
