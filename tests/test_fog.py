"""The engine features edition 8 needs, on an edition made from a built-in one plus those changes as data:
a declared zone (the fog), actions triggered by another action's resolution, no automatic
pass, attack and block by labels, a waiver of some cost units. Nothing here names an
edition of the project; the edition under test is written by `fog_edition`."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.link import link
from blackpoker.compiler.parse import EditionSource
from blackpoker.compiler.pipeline import builtin_editions, read_source
from blackpoker.runtime.engine import flow
from blackpoker.runtime.engine.events import Discarded, GameOver, Resolved, Triggered
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, RequestOption
from blackpoker.runtime.engine.state import Frame, Origin, Request, Resolution
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.agents import RandomAgent, decide
from blackpoker.runtime.play.resolve import resolve
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.rules.diagnostics import CompileError
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.runtime.scenario.build import build
from blackpoker.runtime.scenario.load import load
from blackpoker.runtime.scenario.run import run
from editions_support import written_out

FOG = {"id": "fog", "name": "フォグ"}
# a character's labels from its v7-style attack rule (a bulwark never attacks, an ace has haste)
LABELS = {
    "never": ["blocker"],
    "not_ready": ["attacker", "blocker"],
    "haste": ["attacker", "blocker", "haste"],
    "haste_with_ace": ["attacker", "blocker", "haste_with_ace"],
}


def _edit(entries: list[dict[str, Any]], entry_id: str, **fields: Any) -> dict[str, Any]:
    entry = next(e for e in entries if e["id"] == entry_id)
    entry.update(fields)
    return entry


def indirect_requests(actions: list[dict[str, Any]]) -> dict[str, str]:
    """Each action another one requests inside its effect → that requester."""
    chain: dict[str, str] = {}
    for action in actions:
        for step in action.get("program", ()):
            for item in [step, *step.get("then", ())]:
                if "request" in item:
                    chain[item["request"]] = action["id"]
    return chain


def fog_data(base: dict[str, Any]) -> dict[str, Any]:
    """An edition with the core flow of edition 8, from one with indirect requests: the turn
    actions trigger each other on resolution, lingering magic leaves its key cards in the
    fog, エンド clears its controller's fog, attack and block read labels."""
    data = copy.deepcopy(base)
    data["core"] |= {"auto_pass_after_normal_request": False, "zones": [FOG]}
    data["labels"] = [
        {"id": label, "name": label} for label in sorted({x for v in LABELS.values() for x in v})
    ]
    actions = data["actions"]
    chain = indirect_requests(actions)
    end = next(a for a in actions if any("pass_turn" in s for s in a.get("program", ())))
    end["program"] = [
        *(s for s in end["program"] if "request" not in s and "pass_turn" not in s),
        {"move": {"cards": {"zone": "fog", "player": "you"}, "to": "graveyard"}},
        {"pass_turn": {}},
    ]
    for action in actions:
        steps = action.get("program", ())
        action["program"] = [
            {**s, "then": [t for t in s["then"] if "request" not in t]} if "then" in s else s
            for s in steps
            if "request" not in s
        ]
        action["program"] = [s for s in action["program"] if s.get("then", True)]
        if action["id"] in chain:
            action["trigger"] = "triggered"
            action["triggered_by"] = {"resolved": chain[action["id"]], "player": "turn_player"}
    for action in actions:
        for step in action["program"]:
            if "declare_attackers" in step:
                haste = [{"label": "haste"}, {"label": "haste_with_ace", "ranks": ["A"]}]
                step["declare_attackers"] |= {"label": "attacker", "haste": haste}
                requested = next(k for k, v in chain.items() if v == action["id"])
                _edit(actions, requested)["triggered_by"]["if"] = {"ge": [{"count": "attackers"}, 1]}
            if "declare_blockers" in step:
                step["declare_blockers"] |= {"label": "blocker"}
            if "modify_size" in step and step["modify_size"]["of"] == "target":
                lingering = {"move": {"cards": "key", "to": "fog"}}
                action["program"].append(lingering)
                break
    for character in data["characters"]:
        character["labels"] = LABELS[character["attack"]]
        if character.get("waives_cost_of"):
            character["waives_units"] = ["D"]
    return data


def linked(source: EditionSource, format_id: str) -> RuleSet:
    """A format of the edition, linked as the environment links it: once its checks passed."""
    return link(Environment().checked(source), format_id)


def write_edition(folder: Path, data: dict[str, Any]) -> EditionSource:
    path = folder / f"{data['id']}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    source, problems = read_source(path)
    assert not problems and isinstance(source, EditionSource), problems
    return source


def base_data() -> dict[str, Any]:
    """A built-in edition whose turn actions request each other inside their effects."""
    for edition in builtin_editions():
        loaded = written_out(edition)
        steps = [s for a in loaded["actions"] for s in a.get("program", ())]
        if not loaded["core"].get("zones") and any("request" in s for s in steps):
            return loaded  # type: ignore[no-any-return]
    raise AssertionError("no built-in edition makes indirect requests")


@pytest.fixture
def fog(tmp_path: Path) -> EditionSource:
    return write_edition(tmp_path, fog_data(base_data()))


def test_the_edition_compiles_and_declares_its_zone(fog: EditionSource) -> None:
    ruleset = linked(fog, fog.edition.formats[-1].id)
    assert [z.id for z in ruleset.edition.core.zones] == ["fog"]
    triggered = [a for a in ruleset.actions if a.triggered_by is not None]
    # each action the base requests indirectly is now triggered by its requester's resolution
    assert {a.id: a.triggered_by.resolved for a in triggered if a.triggered_by} == indirect_requests(
        base_data()["actions"]
    )
    assert all(not a.direct for a in triggered)


def _write(folder: Path, data: dict[str, Any]) -> Path:
    path = folder / f"{data['id']}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _link_problems(path: Path, format_id: str) -> list[str]:
    source, problems = read_source(path)
    assert not problems and isinstance(source, EditionSource), problems
    with pytest.raises(CompileError) as error:
        linked(source, format_id)
    return [d.render() for d in error.value.diagnostics]


def _first(data: dict[str, Any]) -> dict[str, Any]:
    return data["actions"][0]  # type: ignore[no-any-return]


BAD = [
    (lambda d: _first(d)["program"].append({"move": {"cards": "key", "to": "mist"}}), "unknown zone 'mist'"),
    (
        lambda d: _first(d)["program"].append(
            {"move": {"cards": {"zone": "mist", "player": "you"}, "to": "hand"}}
        ),
        "unknown zone 'mist'",
    ),
    (
        lambda d: _first(d).update(trigger="triggered", triggered_by={"resolved": "nothing"}),
        "unknown action 'nothing'",
    ),
    (
        lambda d: _first(d).update(triggered_by={"resolved": d["actions"][1]["id"]}),
        "an action with a trigger condition is triggered",
    ),
    (
        lambda d: _first(d).update(
            trigger="triggered",
            triggered_by={"resolved": d["actions"][1]["id"], "if": {"ge": [{"count": "found"}, 1]}},
        ),
        "'found' is not a name it can read",
    ),
    (
        lambda d: d["characters"][0].update(waives_cost_of=[d["action_types"][0]], waives_units=["C"]),
        "unknown cost unit 'C'",
    ),
    (
        lambda d: _first(d)["program"].append({"declare_blockers": {"player": "you", "label": "flyer"}}),
        "unknown label 'flyer'",
    ),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_bad_engine_data_is_located(tmp_path: Path, change: Any, message: str) -> None:
    data = fog_data(base_data())
    change(data)
    path = _write(tmp_path, data)
    found = _link_problems(path, data["formats"][0]["id"])
    assert any(message in d and d.startswith(f"{path}:") for d in found), found


def test_a_trigger_naming_an_action_outside_its_format_is_refused(tmp_path: Path) -> None:
    data = fog_data(base_data())
    first = data["formats"][0]["id"]
    late = next(a for a in data["actions"] if a["format"] != first)
    triggered = next(a for a in data["actions"] if a.get("triggered_by"))
    triggered["triggered_by"] = {"resolved": late["id"]}
    found = _link_problems(_write(tmp_path, data), first)
    assert any(f"'{late['id']}' is not an action of format {first}" in d for d in found), found


def _games(ruleset: RuleSet, count: int) -> list[Game]:
    """Random games with invariants checked after every decision, their events kept."""
    games = []
    for seed in range(count):
        game = Game.new(ruleset, seed, check=True, events=[])
        agents = (RandomAgent(seed), RandomAgent(seed + 1000))
        while not game.over and game.decisions < 3000:
            game.apply(decide(game, agents))
        games.append(game)
    return games


@pytest.fixture
def played(fog: EditionSource) -> list[Game]:
    return _games(linked(fog, fog.edition.formats[-1].id), 6)


def test_each_resolution_triggers_what_names_it(played: list[Game]) -> None:
    """A resolution that meets an action's 誘発条件 puts that action through the buffer next:
    the turn player's request, taken out before anything else happens."""
    seen = 0
    for game in played:
        rules = game.rules
        events = game.events or []
        for i, event in enumerate(events):
            if not isinstance(event, Resolved):
                continue
            triggered = rules.triggered.get(event.action, ())
            wanted = [a.id for a in triggered if a.triggered_by and not a.triggered_by.cond]
            after = events[i + 1 : i + 2]
            if not wanted or not after or isinstance(after[0], GameOver):
                continue
            follow = []
            for later in events[i + 1 :]:
                if not isinstance(later, Triggered | Resolved):
                    break
                follow.append(later.action)
            assert isinstance(after[0], Triggered) and wanted[0] in follow, (event, events[i + 1 : i + 4])
            seen += 1
    assert seen > 10


def test_a_normal_request_keeps_chance_with_its_requester(played: list[Game]) -> None:
    checked = 0
    for seed in range(3):
        game = Game.new(played[0].rules, seed, check=True)
        agents = (RandomAgent(seed), RandomAgent(seed + 7))
        while not game.over and game.decisions < 1500:
            option = decide(game, agents)
            player = game.to_move
            stage = len(game.state.stage)
            game.apply(option)
            if (
                isinstance(option, RequestOption)
                and len(game.state.stage) == stage + 1
                and not game.state.resolving
            ):
                assert game.state.chance == player
                checked += 1
    assert checked > 10


def test_lingering_key_cards_wait_in_the_fog_until_their_owner_ends_a_turn(fog: EditionSource) -> None:
    """Key cards that a program moves to the fog stay there, in their owner's fog, until that
    player's エンド resolves; the view shows every fog card to both players."""
    ruleset = linked(fog, fog.edition.formats[-1].id)
    fogged = 0
    for seed in range(6):
        game = Game.new(ruleset, seed, check=True, events=[])
        agents = (RandomAgent(seed), RandomAgent(seed + 3))
        while not game.over and game.decisions < 3000:
            before = game.state.turn_player
            game.apply(decide(game, agents))
            fogs = [p.zones["fog"] for p in game.state.players]
            fogged += sum(map(len, fogs))
            if game.state.turn_player != before:
                assert fogs[before] == []  # the one who ended the turn cleared their fog
            for me in (0, 1):
                shown = view(game, me).players
                assert [z.cards for p in shown for z in p.zones] == [tuple(f) for f in fogs]
    assert fogged > 0


BLACKJACK = [{"ranks": ["A"], "as": 11, "else": 1}, {"ranks": ["J", "Q", "K"], "as": 10}]


def _points(name: str) -> dict[str, Any]:
    return {"points": name, "counts": BLACKJACK, "limit": 21}


# B・J of edition 8.2: turn cards over one by one while the points stay at 21 or less
HIT_OR_STAND = [
    {"top": {"player": "you", "count": 1, "as": "shown"}},
    {"reveal": "shown"},
    {
        "repeat": {
            "player": "you",
            "while": {
                "all": [
                    {"le": [_points("shown"), 21]},
                    {"lt": [{"count": "shown"}, {"count": {"zone": "life", "player": "you"}}]},
                ]
            },
            "steps": [
                {"top": {"player": "you", "count": {"plus": [{"count": "shown"}, 1]}, "as": "shown"}},
                {"reveal": "shown"},
            ],
        }
    },
    {
        "if": {"ge": [_points("shown"), 22]},
        "then": [{"move": {"cards": "shown", "to": "graveyard"}}],
        "else": [{"move": {"cards": "shown", "to": "hand"}}],
    },
]


@pytest.mark.parametrize(
    ("life", "answers", "hand", "graveyard"),
    [
        (["♠9", "♡A", "♣5"], ["yes", "no"], ["♠9", "♡A"], []),  # 9 + 11 = 20: stand
        (["♠9", "♡A", "♣5", "♣K"], ["yes", "yes"], [], ["♠9", "♡A", "♣5"]),  # 20, then 25: the A stays 11
        (["♣K", "♡Q", "♠A"], ["yes", "yes", "no"], ["♣K", "♡Q", "♠A"], []),  # 10+10, then A counts 1: 21
        (["♣K", "♡Q", "♠2"], ["yes", "yes"], [], ["♣K", "♡Q", "♠2"]),  # 22: bust
    ],
)
def test_hit_or_stand_with_points(
    tmp_path: Path, life: list[str], answers: list[str], hand: list[str], graveyard: list[str]
) -> None:
    """`repeat` asks whether to go on while its condition holds; `points` adds up in order,
    an A counting 1 when 11 would pass the limit."""

    data = fog_data(base_data())
    first = _first(data)
    first["program"] = HIT_OR_STAND
    for key in ("cost", "key", "limits"):
        first.pop(key, None)
    ruleset = linked(write_edition(tmp_path, data), data["formats"][-1]["id"])
    action = ruleset.action(first["id"])
    game = Game.new(ruleset, 1, check=True)
    me = game.state.players[0]
    cards = {label(c): c for c in me.life + me.hand + me.graveyard}
    wanted = [cards[str(Card.parse(text))] for text in life]
    me.life = wanted + [c for c in me.life if c not in wanted]
    me.hand = [c for c in me.hand if c not in wanted]
    me.graveyard = [c for c in me.graveyard if c not in wanted]
    before_hand, before_grave = list(me.hand), list(me.graveyard)
    request = Request(game.state.new_uid(), action, 0, (), [])
    game.state.resolving.append(Resolution(request, Origin.EFFECT, [Frame(action.steps)]))
    flow.advance(game)
    for word in answers:
        if not game.state.resolving:
            break
        flow.answer(game, Choice(0, word))
    assert not game.state.resolving
    assert sorted(label(c) for c in me.hand if c not in before_hand) == sorted(
        str(Card.parse(t)) for t in hand
    )
    assert sorted(label(c) for c in me.graveyard if c not in before_grave) == sorted(
        str(Card.parse(t)) for t in graveyard
    )


def _probe_edition(folder: Path) -> RuleSet:
    """The fog edition plus a direct action `probe` with no key, whose resolution triggers
    one action of each speed × timing, for the turn player, its controller or their opponent."""
    data = fog_data(base_data())
    section, kind = data["sections"][0], data["action_types"][0]
    first = data["formats"][0]["id"]

    def action(action_id: str, timing: str, speed: str, **more: Any) -> dict[str, Any]:
        return {
            "id": action_id,
            "name": action_id,
            "type": kind,
            "section": section,
            "format": first,
            "timing": timing,
            "speed": speed,
            "effect": "-",
            "program": [],
            "since": "v8.0",
            **more,
        }

    def triggered(action_id: str, timing: str, speed: str, player: str) -> dict[str, Any]:
        rule = {"resolved": "probe", "player": player}
        return action(action_id, timing, speed, trigger="triggered", triggered_by=rule)

    data["actions"] += [
        action("probe", "quick", "normal"),
        triggered("immediateMainTurn", "main", "immediate", "turn_player"),
        triggered("immediateQuickOpponent", "quick", "immediate", "opponent"),
        triggered("normalQuickYou", "quick", "normal", "you"),
        triggered("normalMainTurn", "main", "normal", "turn_player"),
        triggered("immediateQuickTurn", "quick", "immediate", "turn_player"),
    ]
    return linked(write_edition(folder, data), first)


def _trigger_events(game: Game) -> list[tuple[str, str, int]]:
    return [
        (type(e).__name__, e.action, getattr(e, "player", -1))
        for e in game.events or []
        if isinstance(e, Triggered | Resolved | Discarded) and e.action != "probe"
    ]


def test_the_buffer_takes_immediate_first_turn_player_first_main_before_quick(tmp_path: Path) -> None:
    """002 [6-1]–[6-12]: immediate requests before normal ones, the turn player's before the
    opponent's, main timing before quick; normal ones go on the stage in that order."""
    game = Game.new(_probe_edition(tmp_path), 1, check=True, events=[])
    me = game.state.turn_player
    for command in ("probe", "pass"):
        game.apply(resolve(game, me, command))
    game.apply(resolve(game, 1 - me, "pass"))
    assert _trigger_events(game) == [
        ("Triggered", "immediateMainTurn", me),
        ("Resolved", "immediateMainTurn", me),
        ("Triggered", "immediateQuickTurn", me),
        ("Resolved", "immediateQuickTurn", me),
        ("Triggered", "immediateQuickOpponent", 1 - me),
        ("Resolved", "immediateQuickOpponent", 1 - me),
        ("Triggered", "normalMainTurn", me),
        ("Triggered", "normalQuickYou", me),
    ]
    assert [r.action.id for r in game.state.stage] == ["normalMainTurn", "normalQuickYou"]
    assert game.state.chance == me


def test_a_main_timing_trigger_is_discarded_while_the_stage_is_not_empty(tmp_path: Path) -> None:
    """002 [6-10-6]: the opponent's probe resolves above the turn player's, so the turn
    player's main-timing normal trigger finds the stage occupied and is discarded."""
    game = Game.new(_probe_edition(tmp_path), 1, check=True, events=[])
    me = game.state.turn_player
    game.apply(resolve(game, me, "probe"))
    game.apply(resolve(game, me, "pass"))
    game.apply(resolve(game, 1 - me, "probe"))
    game.apply(resolve(game, 1 - me, "pass"))
    game.apply(resolve(game, me, "pass"))
    found = _trigger_events(game)
    assert ("Discarded", "normalMainTurn", -1) in found
    assert [r.action.id for r in game.state.stage] == ["probe", "normalQuickYou"]
    assert game.state.stage[-1].controller == 1 - me


def test_immediate_actions_triggering_each_other_forever_are_refused(tmp_path: Path) -> None:
    data = fog_data(base_data())
    first = data["formats"][0]["id"]
    charge = next(a for a in data["actions"] if a.get("triggered_by") and a["speed"] == "immediate")
    echo = {**copy.deepcopy(charge), "id": "echo", "name": "echo", "triggered_by": {"resolved": charge["id"]}}
    charge["triggered_by"] = {"resolved": "echo"}
    data["actions"].append(echo)
    found = _link_problems(_write(tmp_path, data), first)
    ring = f"'{charge['id']}' -> 'echo' -> '{charge['id']}'"
    assert any(ring in d and "trigger each other" in d for d in found), found


def test_a_waiver_of_some_units_leaves_the_rest_of_the_cost(tmp_path: Path) -> None:
    """A character waiving D of a type whose action costs B and D: the request pays B only,
    and the option search and the legality checks agree on it."""
    data = fog_data(base_data())
    action = next(a for a in data["actions"] if {"B", "D"} <= set(a.get("cost", "")) and a.get("key"))
    waiver = next(c for c in data["characters"] if c.get("waives_cost_of"))
    waiver["waives_cost_of"], waiver["waives_units"] = [action["type"]], ["D"]
    bulwark = next(c for c in data["characters"] if c["combat"] == "bulwark")
    source = write_edition(tmp_path, data)
    ruleset = linked(source, data["formats"][-1]["id"])
    assert action["key"] == "Joker"  # the position below is written for a Joker key
    (tmp_path / "s.yaml").write_text(
        f"""\
kind: scenario
name: part of a cost waived
edition: {source.edition.id}.yaml
format: {ruleset.format.id}
setup:
  turn: p1
  p1:
    life: 10
    hand: [Joker, ♠7]
    field:
      - {{as: {waiver["id"]}, cards: [Joker]}}
      - {{as: {bulwark["id"]}, cards: [♢8]}}
  p2: {{life: 10}}
commands:
  - {{p1: "{action["name"]} ★Joker $B(♢8)D(♠7)", refused: "the cost is $B"}}
  - "p1: {action["name"]} ★Joker $B(♢8)"
expect:
  p1: {{hand: [♠7]}}
""",
        encoding="utf-8",
    )
    loaded, problems = load(tmp_path / "s.yaml")
    assert loaded is not None, [p.render() for p in problems]
    assert run(loaded).failures == []
    game = build(loaded)
    options = [o for o in game.legal_options() if isinstance(o, RequestOption) and o.action == action["id"]]
    assert options and all([unit for unit, _ in o.payment] == ["B"] for o in options)


def test_only_characters_with_the_blocker_label_block(tmp_path: Path) -> None:
    data = fog_data(base_data())
    soldier = next(c for c in data["characters"] if c["attack"] == "not_ready" and c["size"] == "card_number")
    soldier["labels"] = ["attacker"]
    bulwark = next(c for c in data["characters"] if c["combat"] == "bulwark")
    attack = next(a for a in data["actions"] if any("declare_attackers" in s for s in a["program"]))
    source = write_edition(tmp_path, data)
    (tmp_path / "s.yaml").write_text(
        f"""\
kind: scenario
name: blockers by label
edition: {source.edition.id}.yaml
format: {data["formats"][0]["id"]}
setup:
  turn: p1
  p1:
    life: 10
    field:
      - {{as: {soldier["id"]}, cards: [♣9]}}
  p2:
    life: 10
    field:
      - {{as: {soldier["id"]}, cards: [♡4]}}
      - {{as: {bulwark["id"]}, cards: [♢8]}}
commands:
  - "p1: {attack["name"]}"
  - "p1: pass"
  - "p2: pass"
  - "p1: attacker ♣9"
  - "p1: pass"
  - "p2: pass"
expect:
  waiting: [block ♣9 with ♢8, done]
""",
        encoding="utf-8",
    )
    loaded, problems = load(tmp_path / "s.yaml")
    assert loaded is not None, [p.render() for p in problems]
    assert run(loaded).failures == []
