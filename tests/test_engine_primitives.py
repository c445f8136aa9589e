"""The primitives later formats added, on hand-built positions, and the core-flow order of an
action against the triggers its cost caused. Each position is a ruling scenario (its own
outcome is checked with the suite); these tests look at what a scenario cannot show: which
characters stay the same, a request's target reference, a player's view, a copied game."""

from __future__ import annotations

from pathlib import Path

import pytest
from blackpoker.compiler import CompileError
from blackpoker.runtime.engine import primitives
from blackpoker.runtime.engine.options import Choice, RequestOption
from blackpoker.runtime.engine.refs import RequestRef
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.engine.zones import SORT_SPAN, label
from blackpoker.runtime.play.notation import RequestCommand, parse_command, written_body
from blackpoker.runtime.play.resolve import resolve, resolve_command
from blackpoker.runtime.rules.enums import Answer
from blackpoker.runtime.rules.model import Limit
from blackpoker.runtime.scenario.build import build
from blackpoker.runtime.scenario.expect import compare
from blackpoker.runtime.scenario.scenario import Scenario
from engine_support import (
    SCENARIOS,
    commands,
    compiled,
    environment,
    format_ids,
    ops,
    play,
    reference_edition,
    scenario,
    shipped_scenario,
)


def requested(loaded: Scenario) -> list[str]:
    """The primitives of every action the scenario's commands request."""
    names = {s.command.name for s in commands(loaded) if isinstance(s.command, RequestCommand)}
    return sorted({op for a in loaded.rules.actions if a.name in names for op in ops(a)})


def test_become_keeps_a_whole_character_and_splits_one_its_kind_cannot_take() -> None:
    loaded = scenario("become-keeps-a-one-card-character-and-splits-a-multi-card-one")
    assert "become" in requested(loaded)
    game = build(loaded)
    single, split = (
        next(u for u in game.state.players[1].field if (len(u.cards) == 1) == one) for one in (True, False)
    )
    before = {u.uid for p in game.state.players for u in p.field}
    single.size_mod = 4  # an effect it received until the end of the turn
    play(game, *commands(loaded))
    after = {u.uid: u for u in game.state.players[1].field}
    assert single.uid in after and after[single.uid].size_mod == 0  # one card: the same character, renewed
    assert split.uid not in after  # split: new characters …
    parts = [u for uid, u in after.items() if uid not in before]
    assert len(parts) == len(split.cards)
    assert {u.entered for u in parts} == {game.state.turn}  # … still entered this turn (準備)
    assert compare(loaded.doc.data["expect"], game) == []


def test_retarget_can_turn_a_request_onto_the_one_being_resolved() -> None:
    loaded = scenario("retarget-onto-the-resolving-request")
    assert "retarget" in requested(loaded)
    game = build(loaded)
    play(game, *commands(loaded))
    aimed = [r for r in game.state.stage if isinstance(r.target, RequestRef)]
    assert aimed and all(game.state.stage_request(r.target.uid) is None for r in aimed)  # type: ignore[union-attr]


def test_a_retarget_choice_names_a_hidden_bulwark_by_reference_in_the_view() -> None:
    loaded = scenario("retarget-onto-a-hidden-character")
    game = build(loaded)
    play(game, *commands(loaded))
    mine = next(u for u in game.state.players[0].field if not u.face_up)
    engine = [str(o) for o in game.legal_options()]
    hidden = [text.replace(f"p1:{label(mine.cards[0])}", f"face-down#{mine.uid}") for text in engine]
    assert hidden != engine  # the engine's option names the card …
    assert [str(o) for o in view(game, 1).options] == hidden  # … the opponent's view does not


def test_payments_print_in_card_order_like_commands() -> None:
    loaded = scenario("payments-print-in-card-order")
    game = build(loaded)
    (step, *_) = commands(loaded)
    option = resolve_command(game, step.command, step.text)
    assert isinstance(option, RequestOption) and isinstance(step.command, RequestCommand)
    offered = [o for o in game.legal_options() if isinstance(o, RequestOption) and o.action == option.action]
    assert offered == [option]
    assert written_body(step.text) != str(option)  # written in another order, printed in card order
    printed = parse_command(f"p1: {option}")
    assert isinstance(printed, RequestCommand)
    assert list(printed.payment) == sorted(step.command.payment, key=lambda p: (p[0], p[1]))


def _overlay(path: Path, loaded: Scenario, body: str) -> Scenario:
    """The scenario with its rule set replaced by a local rule of its format (YAML `body`)."""
    data = loaded.doc.data
    path.write_text(
        f"kind: overlay\nname: local\nedition: {data['edition']}\nbase: {data['format']}\n{body}",
        encoding="utf-8",
    )
    return Scenario(loaded.doc, environment().compile(data["edition"], "local", rules=path), loaded.commands)


def test_an_action_resolves_after_the_triggers_its_cost_caused_unless_its_note_says_otherwise(
    tmp_path: Path,
) -> None:
    """002 [6] before [7]: the trigger a cost caused resolves first, unless the action's
    limits put it first; the noted action here looks at the life the trigger takes from."""

    def noted(loaded: Scenario) -> bool:
        first = next((s.command for s in commands(loaded) if isinstance(s.command, RequestCommand)), None)
        return first is not None and any(
            a.name == first.name and Limit.RESOLVES_BEFORE_COST_TRIGGERS in a.limits
            for a in loaded.rules.actions
        )

    loaded = next(s for s in map(shipped_scenario, sorted(SCENARIOS.glob("*/*.yaml"))) if noted(s))
    (request, *_) = commands(loaded)
    assert isinstance(request.command, RequestCommand)
    action = next(a for a in loaded.rules.actions if a.name == request.command.name)
    others = sorted(str(x) for x in action.limits - {Limit.RESOLVES_BEFORE_COST_TRIGGERS})
    plain = _overlay(
        tmp_path / "rules.yaml", loaded, f"actions:\n  change:\n    {action.id}: {{limits: {others}}}\n"
    )
    games = {}
    for which, rules in (("noted", loaded), ("plain", plain)):
        game = build(rules)
        top = game.state.players[0].life[0]
        hand = set(game.state.players[0].hand)
        play(game, request)
        assert game.state.resolving, which  # the action waits on its choice
        games[which] = (game, top, hand)
    game, top, hand = games["noted"]
    assert top == game.state.players[0].life[0] and f"pick {label(top)}" in map(str, game.legal_options())
    game, top, hand = games["plain"]
    assert set(game.state.players[0].hand) - hand == {top}  # the trigger took the top card first
    assert f"pick {label(top)}" not in map(str, game.legal_options())


def test_a_copy_taken_inside_a_loop_changes_only_its_own_characters(tmp_path: Path) -> None:
    loaded = scenario("field-of-every-player-by-type-and-size")
    first = next(u for u in build(loaded).state.players[0].field if u.face_up and u.charged)
    like = next(a for a in loaded.rules.actions if a.speed == "immediate")
    rules = _overlay(
        tmp_path / "rules.yaml",
        loaded,
        f"""\
actions:
  add:
    - id: drill
      name: 教練
      type: {like.type}
      section: {like.section}
      timing: main
      speed: immediate
      effect: 自分のキャラクターそれぞれについて、ドライブ状態にしてもよい。
      program:
        - for_each:
            in: {{field: you, type: {first.kind.type}}}
            as: unit
            steps:
              - may: {{player: you, steps: [set_state: {{of: unit, state: driven}}]}}
""",
    )
    game = build(rules)
    game.apply(resolve(game, 0, "p1: 教練"))
    twin = game.copy()
    twin.apply(Choice(0, "yes"))
    index = next(i for i, u in enumerate(game.state.players[0].field) if u.uid == first.uid)
    assert not twin.state.players[0].field[index].charged
    assert game.state.players[0].field[index].charged


EDITION = reference_edition()
LARGEST = format_ids(EDITION)[-1]
_LIKE = next(a for a in compiled(EDITION, LARGEST).actions if a.speed == "normal")


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
        f"kind: overlay\nname: bad\nedition: {EDITION}\nbase: {LARGEST}\nactions:\n  add:\n    - id: bad\n"
        f"      name: 不正\n      type: {_LIKE.type}\n      section: {_LIKE.section}\n      timing: main\n"
        f"      speed: normal\n      effect: x\n      program:\n        {step}\n",
        encoding="utf-8",
    )
    with pytest.raises(CompileError) as caught:
        environment().compile(EDITION, "bad", rules=path)
    ((problem,),) = [caught.value.diagnostics]
    assert problem.render().startswith(f"{path}:15:")
    assert problem.message.startswith(message)


@pytest.mark.parametrize(
    ("table", "word"),
    [
        (primitives.PICK_ANSWERS, Answer.PICK),
        (primitives.PLACE_ANSWERS, Answer.PLACE),
        (primitives.DISCARD_ANSWERS, Answer.DISCARD),
        (primitives.ATTACKER_ANSWERS, Answer.ATTACKER),
    ],
)
def test_the_answers_made_once_are_each_players_answer_for_each_card(
    table: tuple[tuple[Choice, ...], ...], word: Answer
) -> None:
    """A prompt looks its card answers up by player and card id, nobody (-1) included: each
    must be the answer that player would give naming that card, for every card and virtual card."""
    for who in (0, 1, -1):
        assert list(table[who]) == [Choice(who, word, cid) for cid in range(SORT_SPAN)]
        assert primitives.DONE_ANSWERS[who] == Choice(who, Answer.DONE)
