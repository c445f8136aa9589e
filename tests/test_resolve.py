"""The one command resolver: a command names the legal option by the cards it names, in any
order of key cards and payments; a command that names none is refused with the engine's rule,
one that names several is refused with them listed, text outside the notation with its column;
a player resolves on their view and names nothing they cannot see."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from blackpoker.runtime.engine.options import Choice, RequestOption, target_text
from blackpoker.runtime.engine.refs import HiddenCharacter
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.notation import CommandError, InvalidCommand
from blackpoker.runtime.play.resolve import (
    AmbiguousCommand,
    IllegalCommand,
    resolve,
    resolve_command,
    resolve_seen,
)
from blackpoker.runtime.scenario.build import build
from blackpoker.runtime.scenario.load import load
from blackpoker.runtime.scenario.run import run
from engine_support import (
    compiled,
    environment,
    format_ids,
    play,
    position,
    random_positions,
    reference_edition,
)

EDITION = reference_edition()


def _shuffled(option: RequestOption, rng: random.Random) -> str:
    """The option written as a person may: key cards one star each and payments, in any order."""
    keys = [label(c) for c in option.keys]
    paid = [unit + (f"({label(c)})" if c is not None else "") for unit, c in option.payment]
    rng.shuffle(keys)
    rng.shuffle(paid)
    text = option.head + "".join(f" ★{k}" for k in keys) + (" $" + "".join(paid) if paid else "")
    return text + (f" → {str(option).split(' → ', 1)[1]}" if option.target is not None else "")


@pytest.mark.parametrize("format_id", format_ids(EDITION)[-1:])
def test_every_legal_option_is_named_by_its_text_and_by_its_parts_in_any_order(format_id: str) -> None:
    rng = random.Random(3)
    rules = compiled(EDITION, format_id)
    named = 0
    for game in random_positions(rules, 4, 300):
        player = game.to_move
        assert player is not None
        for option in game.legal_options():
            # options that print alike are one move to the notation: the first of them
            alike = next(o for o in game.legal_options() if str(o) == str(option))
            assert resolve(game, player, str(option)) == alike
            if isinstance(option, RequestOption) and len(option.keys) + len(option.payment) > 1:
                assert resolve(game, player, _shuffled(option, rng)) == alike
                named += 1
    assert named > 50


def test_the_three_refusals_share_one_root_and_say_what_is_wrong() -> None:
    game, _ = position("request-aimed-at-a-hidden-character")
    with pytest.raises(InvalidCommand) as invalid:
        resolve(game, 0, "防壁破壊 ★♡J♢")
    assert invalid.value.column == len("防壁破壊 ★♡J")  # in the text as typed, without a `p1: `
    with pytest.raises(IllegalCommand) as illegal:
        resolve(game, 0, "p2: pass")
    assert illegal.value.refusal.rule == "decision"
    assert illegal.value.reason == "p2 cannot act now: p1 decides (rule: decision)"
    for error in (invalid.value, illegal.value):
        assert isinstance(error, CommandError) and error.diagnostics[0].location.path == "command"


def test_a_card_two_characters_hold_names_both_and_is_refused_with_them(tmp_path: Path) -> None:
    """Two characters of one card and a Joker each: `p1:joker` names either, and the
    scenario runner says so with both; the first card of either names it alone."""
    (tmp_path / "house.yaml").write_text(
        "kind: overlay\nname: house\nedition: v7\nbase: lite\ncharacters:\n  add:\n"
        '    - {id: jester, name: 道化, type: 兵士, key: "♠A〜K と Joker", face: up, attack: not_ready,\n'
        "       size: card_number, combat: soldier}\n",
        encoding="utf-8",
    )
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "kind: scenario\nrules: house.yaml\nname: two jesters\nsetup:\n  turn: p2\n"
        "  p1: {life: 10, field: [{as: jester, cards: [♠9, Joker]}, {as: jester, cards: [♠8, Joker]}]}\n"
        "  p2: {life: 10, hand: [♠5, ♢2], field: [{as: soldier, cards: [♢8]}]}\n"
        'commands:\n  - "p2: ダウン ★♠5 $D(♢2) → p1:joker"\nexpect:\n  stage: [ダウン by p2]\n',
        encoding="utf-8",
    )
    loaded, problems = load(scenario, environment())
    assert loaded is not None, [p.render() for p in problems]
    (failure,) = run(loaded).failures
    assert failure.endswith(
        "names 2 options: 'ダウン ★♠5 $D(♢2) → p1:♠9', 'ダウン ★♠5 $D(♢2) → p1:♠8'; write the one meant"
    )
    game = build(loaded)
    (step,) = loaded.commands
    with pytest.raises(AmbiguousCommand) as ambiguous:
        resolve_command(game, step.command, step.text)
    assert [str(o) for o in ambiguous.value.candidates] == [
        "ダウン ★♠5 $D(♢2) → p1:♠9",
        "ダウン ★♠5 $D(♢2) → p1:♠8",
    ]
    assert str(resolve(game, 1, "ダウン ★♠5 $D(♢2) → p1:♠8")).endswith("→ p1:♠8")


def test_a_player_names_a_hidden_character_as_the_view_does_never_by_its_card() -> None:
    game, (step, *_) = position("request-aimed-at-a-hidden-character")
    engine = resolve_command(game, step.command, step.text)  # the scenario's author sees ♠K
    assert isinstance(engine, RequestOption)
    seen = view(game, 0)
    hidden = next(c for c in seen.players[1].field if not c.cards)
    head = str(engine).split(" → ")[0]
    with pytest.raises(IllegalCommand):
        resolve_seen(seen, step.text)  # p1 cannot know that the face-down card is ♠K
    shown = resolve_seen(seen, f"{head} → {target_text(hidden.ref)}")
    assert isinstance(shown, RequestOption) and shown.target == hidden.ref
    assert isinstance(hidden.ref, HiddenCharacter)
    assert game.legal_options()[seen.options.index(shown)] == engine


def test_an_answer_labelled_in_the_rule_sets_words_is_named_by_its_label() -> None:
    """The grammar reads a name in small ASCII letters as an answer's word and any other as an
    action's name; a choose_one's label (一番下) is still the answer it names (and an action
    named in small ASCII letters the request: tests/test_fog.py plays `probe`)."""
    game, steps = position("tactician-foresight")
    play(game, *steps[:-1])
    answers = [o for o in game.legal_options() if isinstance(o, Choice)]
    assert len(answers) == len(game.legal_options()) == 2 and not any(o.word.isascii() for o in answers)
    player = answers[0].player
    assert [resolve(game, player, o.word) for o in answers] == answers
    with pytest.raises(IllegalCommand):
        resolve(game, player, "真ん中")
