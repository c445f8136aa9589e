"""The primitives std, pro and mast added, each on a hand-built position, and the core-flow
order of an action against the triggers its cost caused."""

from __future__ import annotations

from pathlib import Path

import pytest
from blackpoker.compiler import CompileError, compile
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, RequestOption
from blackpoker.runtime.engine.refs import RequestRef
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.scenario.notation import parse_command
from blackpoker.runtime.scenario.scenario import build, character_text, load


def position(tmp_path: Path, setup: str, fmt: str = "mast", rules: str = "") -> Game:
    """A game at a hand-written position (the scenario set-up format, p1 to move)."""
    text = f"kind: scenario\nname: t\nedition: v7\nformat: {fmt}\nsetup:\n{setup}commands: []\nexpect: {{}}\n"
    path = tmp_path / "position.yaml"
    path.write_text(text, encoding="utf-8")
    scenario, problems = load(path)
    assert scenario is not None, problems
    if rules:
        overlay = tmp_path / "rules.yaml"
        overlay.write_text(rules, encoding="utf-8")
        name = next(line.split(": ")[1] for line in rules.splitlines() if line.startswith("name: "))
        scenario.rules = compile("v7", name, rules=overlay)
    return build(scenario)


def play(game: Game, *commands: str) -> None:
    for text in commands:
        command = parse_command(text)
        option = game.find(command.player, command.body())
        assert option is not None, (text, [str(o) for o in game.legal_options()])
        game.apply(option)


def field(game: Game, player: int) -> list[str]:
    return [character_text(u) for u in game.state.players[player].field]


def test_become_keeps_a_whole_character_and_splits_one_its_kind_cannot_take(tmp_path: Path) -> None:
    game = position(
        tmp_path,
        "  turn: p1\n  p1: {life: 5, hand: [♡7, ♠7, ♢7, ♣7]}\n"
        "  p2:\n    life: 5\n    field:\n"
        "      - {as: armedSoldier, cards: [♣5, ♣3], state: driven, new: true}\n"
        "      - {as: soldier, cards: [♡9]}\n",
    )
    armed, single = game.state.players[1].field
    single.size_mod = 4
    play(game, "p1: リバース ★♠7♡7 → p2:♡9", "p2: pass", "p1: keep")
    assert field(game, 1)[1] == "bulwark ♡9 charged size=9 face-down"  # the effect it received is gone
    assert game.state.players[1].field[1].uid == single.uid  # one card: the same character
    play(game, "p1: リバース ★♢7♣7 → p2:♣5", "p2: pass", "p1: keep")
    parts = game.state.players[1].field[:2]
    assert field(game, 1)[:2] == ["bulwark ♣5 driven size=5 face-down", "bulwark ♣3 driven size=3 face-down"]
    assert armed.uid not in {u.uid for u in parts}  # split: new characters
    assert {u.entered for u in parts} == {game.state.turn}  # still entered this turn (準備)


def test_an_ordered_move_lies_in_the_named_order_and_binds_the_cards(tmp_path: Path) -> None:
    game = position(
        tmp_path,
        "  turn: p1\n  p1: {life: 5, hand: [♠2, ♢3]}\n"
        "  p2:\n    life: [♡2]\n    field: [{as: armedSoldier, cards: [♣4, ♣3, ♣5]}]\n",
    )
    play(game, "p1: 死の槍 ★♠2♢3 → p2:♣4", "p2: pass")
    assert [str(o) for o in game.legal_options()] == ["place ♣3", "place ♣4", "place ♣5"]
    play(game, "p2: place ♣5")
    assert [str(o) for o in game.legal_options()] == ["place ♣3", "place ♣4"]
    play(game, "p2: place ♣3")  # the last card needs no decision
    p2 = game.state.players[1]
    assert [label(c) for c in p2.life] == ["♣4", "♡2"]  # ♣5 ♣3 on top, then 2 damage to the owner
    assert [label(c) for c in p2.graveyard] == ["♣5", "♣3"]


def test_top_names_cards_without_moving_them_and_a_card_in_a_character_stays(tmp_path: Path) -> None:
    game = position(
        tmp_path,
        "  turn: p1\n  p1:\n    life: [♠5, ♡9, ♢K, ♣J, ♠A]\n    hand: [♢A, ♢2]\n"
        "    field: [{as: bulwark, cards: [♣8]}, {as: bulwark, cards: [♣9]}]\n  p2: {life: 5}\n",
    )
    play(game, "p1: 徴募 ★♢A♢2 $B(♣8)B(♣9)", "p2: pass")  # 3: none of the four is small enough
    assert [str(o) for o in game.legal_options()] == ["place ♠5", "place ♡9", "place ♣J", "place ♢K"]
    play(game, "p1: place ♢K", "p1: place ♠5", "p1: place ♣J")
    assert [label(c) for c in game.state.players[0].life] == ["♠A", "♢K", "♠5", "♣J", "♡9"]


def test_choose_several_cards_of_another_players_zone(tmp_path: Path) -> None:
    game = position(
        tmp_path,
        "  turn: p1\n  p1: {life: 5, hand: [♢3, ♣4]}\n  p2: {life: 5, hand: [♠K, Joker, Joker]}\n",
    )
    play(game, "p1: ハンデス ★♢3♣4 → p2", "p2: pass")
    assert [(o.player, str(o)) for o in game.legal_options()] == [(0, "pick Joker"), (0, "pick ♠K")]
    play(game, "p1: pick Joker")
    assert sorted(label(c) for c in game.state.players[1].hand) == ["Joker", "♠K"]


def test_retarget_offers_what_the_request_could_name_except_itself_and_its_target(tmp_path: Path) -> None:
    game = position(
        tmp_path,
        "  turn: p1\n  p1: {life: 5, hand: [♡5, ♠7, ♣2, ♣3], field: [{as: soldier, cards: [♣9]}]}\n"
        "  p2: {life: 5, hand: [♣6, ♢2], field: [{as: bulwark, cards: [♠4]}, {as: soldier, cards: [♢9]}]}\n",
    )
    play(game, "p1: アップ ★♡5 $D(♠7) → p1:♣9", "p2: カウンター ★♣6 $D(♢2) → stage:1")
    play(game, "p1: 対象変更 ★♣2♣3 → stage:2", "p2: pass")
    assert [str(o) for o in game.legal_options()] == ["retarget → resolving:1"]
    play(game, "p1: retarget → resolving:1")
    counter = game.state.stage[1]
    assert isinstance(counter.target, RequestRef) and game.state.stage_request(counter.target.uid) is None


def test_a_retarget_choice_names_a_hidden_bulwark_by_reference_in_the_view(tmp_path: Path) -> None:
    game = position(
        tmp_path,
        "  turn: p1\n  p1: {life: 5, hand: [♡J, ♢Q], field: [{as: bulwark, cards: [♠2]}]}\n"
        "  p2: {life: 5, hand: [♣2, ♣3], field: [{as: bulwark, cards: [♠K]}]}\n",
        fmt="pro",
    )
    play(game, "p1: 防壁破壊 ★♡J♢Q → p2:♠K", "p2: 対象変更 ★♣2♣3 → stage:1", "p1: pass")
    shown = [str(o) for o in view(game, 1).options]
    assert shown == [f"retarget → face-down#{game.state.players[0].field[0].uid}"]


def test_field_of_every_player_by_type_and_size_tests(tmp_path: Path) -> None:
    game = position(
        tmp_path,
        "  turn: p1\n  p1:\n    life: 5\n    hand: [♠A, ♠2]\n"
        "    field: [{as: bulwark, cards: [♢8]}, {as: bulwark, cards: [♢A]}, {as: soldier, cards: [♣3]}]\n"
        "  p2: {life: 5, field: [{as: soldier, cards: [♣4]}, {as: bulwark, cards: [♣2]}]}\n",
    )
    play(game, "p1: 剣の雨 ★♠A♠2 $B(♢A)B(♢8)", "p2: pass")
    assert field(game, 0) == ["bulwark ♢8 driven size=8 face-down", "bulwark ♢A driven size=1 face-down"]
    assert field(game, 1) == ["soldier ♣4 charged size=4", "bulwark ♣2 charged size=2 face-down"]


COST_FIRST = """\
kind: overlay
name: bj-no-note
edition: v7
base: mast
actions:
  change:
    bj: {limits: []}
"""

BJ = (
    "  turn: p1\n  p1:\n    life: [♡Q, ♢7, ♠3]\n    hand: [♠A, ♠J]\n"
    "    field: [{as: hero, cards: [♡K]}, {as: soldier, cards: [♣5]}]\n  p2: {life: 5}\n"
)


def test_an_action_resolves_after_the_triggers_its_cost_caused_unless_its_note_says_otherwise(
    tmp_path: Path,
) -> None:
    noted = position(tmp_path, BJ)
    play(noted, "p1: B・J ★♠A♠J $S(♡K)S(♣5)")
    assert [str(o) for o in noted.legal_options()] == ["pick ♠3", "pick ♢7", "pick ♡Q"]  # B・J first
    plain = position(tmp_path, BJ, rules=COST_FIRST)
    play(plain, "p1: B・J ★♠A♠J $S(♡K)S(♣5)")
    # 002 [6] before [7]: 世代交代 has already taken ♡Q when B・J looks at the life
    assert [label(c) for c in plain.state.players[0].hand] == ["♡Q"]
    assert [str(o) for o in plain.legal_options()] == ["pick ♠3", "pick ♢7"]


def test_a_copy_taken_inside_a_loop_changes_only_its_own_characters(tmp_path: Path) -> None:
    rules = """\
kind: overlay
name: drill
edition: v7
base: mast
actions:
  add:
    - id: drill
      name: 教練
      type: 通常魔法
      section: 魔法系
      timing: main
      speed: immediate
      effect: 自分の兵士それぞれについて、ドライブ状態にしてもよい。
      program:
        - for_each:
            in: {field: you, type: 兵士}
            as: unit
            steps:
              - may: {player: you, steps: [set_state: {of: unit, state: driven}]}
"""
    game = position(
        tmp_path,
        "  turn: p1\n  p1: {life: 5, field: [{as: soldier, cards: [♣3]}, {as: soldier, cards: [♣4]}]}\n"
        "  p2: {life: 5}\n",
        rules=rules,
    )
    play(game, "p1: 教練")
    twin = game.copy()
    twin.apply(Choice(0, "yes"))
    assert field(twin, 0)[0] == "soldier ♣3 driven size=3"
    assert field(game, 0)[0] == "soldier ♣3 charged size=3"


def test_payments_print_in_card_order_like_commands(tmp_path: Path) -> None:
    game = position(
        tmp_path,
        "  turn: p1\n  p1:\n    life: 5\n    hand: [♡2, ♡3]\n"
        "    field: [{as: bulwark, cards: [♢9]}, {as: bulwark, cards: [♢8]}]\n  p2: {life: 5}\n",
    )
    force = [o for o in game.legal_options() if isinstance(o, RequestOption) and o.action == "force"]
    assert [str(o) for o in force] == ["フォース ★♡2♡3 $B(♢8)B(♢9)"]


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ("- target: {kind: request, action: fly}", "target.action: unknown action 'fly'"),
        (
            "- modify_size: {of: {field: all, type: 竜}, by: 1}",
            "modify_size.of.type: unknown character type '竜'",
        ),
        ("- if: {is: {of: target, type: 竜}}\n          then: []", "if.is.type: unknown character type '竜'"),
        (
            "- put_character: {cards: key, as: {type: 竜}}",
            "put_character.as.type: unknown character type '竜'",
        ),
    ],
)
def test_names_inside_new_steps_are_checked(tmp_path: Path, step: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "kind: overlay\nname: bad\nedition: v7\nbase: mast\nactions:\n  add:\n    - id: bad\n"
        "      name: 不正\n      type: 通常魔法\n      section: 魔法系\n      timing: main\n"
        f"      speed: normal\n      effect: x\n      program:\n        {step}\n",
        encoding="utf-8",
    )
    with pytest.raises(CompileError) as caught:
        compile("v7", "bad", rules=path)
    ((problem,),) = [caught.value.diagnostics]
    assert problem.render().startswith(f"{path}:15:")
    assert problem.message.startswith(message)
