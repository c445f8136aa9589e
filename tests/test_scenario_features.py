"""Scenario features that pin rulings down: local rules, a dealt set-up, checkpoints, events
and more outcomes, `life: N`, key cards with a star each, characters named by any of their
cards, and refusals that name their rule. Action and card names come from the shipped
scenario files and the rule data, never from this file."""

from __future__ import annotations

import dataclasses
import random
import re
import typing
from pathlib import Path

import pytest
import yaml
from bad_input_support import EXAMPLE, invoke, located, refused
from blackpoker.runtime.engine import events
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, Pass
from blackpoker.runtime.engine.refs import Result, WrittenCharacter
from blackpoker.runtime.engine.request_checks import CHECKS, first_refusal
from blackpoker.runtime.engine.zones import DECK, card, deck_ids, label
from blackpoker.runtime.play.event_text import SCENARIO, in_words
from blackpoker.runtime.play.explain import ANSWER, explain
from blackpoker.runtime.play.notation import AnswerCommand, RequestCommand, parse_command
from blackpoker.runtime.play.resolve import IllegalCommand, resolve_command
from blackpoker.runtime.rules.cards import Card
from blackpoker.runtime.scenario.build import build
from blackpoker.runtime.scenario.expect import EVENT_WORDS
from blackpoker.runtime.scenario.load import load
from blackpoker.runtime.scenario.run import run
from blackpoker.runtime.scenario.scenario import Scenario
from engine_support import SCENARIOS, environment

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "scenarios.md"


def shipped(stem: str) -> Path:
    (path,) = SCENARIOS.glob(f"*/{stem}.yaml")
    return path


def loaded(path: Path) -> Scenario:
    scenario, problems = load(path, environment())
    assert scenario is not None, [p.render() for p in problems]
    return scenario


def copy(tmp_path: Path, stem: str, edit: typing.Callable[[str], str] | None = None) -> Path:
    """A shipped scenario written into `tmp_path` (as `<stem>.yaml`), changed by `edit`; a
    `rules:` path is kept pointing at the example."""
    text = shipped(stem).read_text(encoding="utf-8")
    text = re.sub(r"^rules: \S+", f"rules: {EXAMPLE}", text, flags=re.MULTILINE)
    if edit is not None:
        edited = edit(text)
        assert edited != text, "the edit changed nothing"
        text = edited
    path = tmp_path / f"{stem}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def line_of(path: Path, fragment: str) -> int:
    """The 1-based line of the first line containing `fragment`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if fragment in line)


def failures(path: Path) -> list[str]:
    return run(loaded(path)).failures


# 1. local rules ----------------------------------------------------------------------------


LOCAL = "my-std-heal"


def test_a_scenario_names_a_local_rule_and_takes_its_edition_and_format() -> None:
    overlay = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    path = shipped(LOCAL)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert (path.parent / data["rules"]).resolve() == EXAMPLE.resolve()
    assert "format" not in data and data.get("edition", overlay["edition"]) == overlay["edition"]
    scenario = loaded(path)
    assert scenario.rules.format.id == overlay["name"]
    added = {a["name"] for a in overlay["actions"]["add"]}
    assert added <= {a.name for a in scenario.rules.actions}
    assert run(scenario).passed


def test_an_edition_and_format_that_agree_with_the_local_rule_are_accepted(tmp_path: Path) -> None:
    overlay = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    head = f"format: {overlay['name']}\nrules:"
    path = copy(tmp_path, LOCAL, lambda t: t.replace("rules:", head, 1))
    assert run(loaded(path)).passed


@pytest.mark.parametrize(
    ("edit", "key", "message"),
    [
        (lambda t: re.sub(r"^rules: .*$", "rules: nowhere/missing.yaml", t, flags=re.M), "rules:", "no file"),
        (
            lambda t: re.sub(r"^edition: \S+", "edition: v0", t, flags=re.M),
            "edition:",
            "the local rules are for",
        ),
        (lambda t: t.replace("rules:", "format: lite-x\nrules:", 1), "format:", "the local rules declare"),
    ],
    ids=["missing", "edition", "format"],
)
def test_a_bad_local_rule_reference_is_located(
    tmp_path: Path, edit: typing.Callable[[str], str], key: str, message: str
) -> None:
    path = copy(tmp_path, LOCAL, edit)
    result = invoke("scenario", "run", path)
    line = line_of(path, key)
    located(result, str(path), line, len(key) + 2, message)


def test_a_rules_file_of_another_kind_or_broken_is_located_in_both_files(tmp_path: Path) -> None:
    overlay = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    edition = environment().builtin_path(overlay["edition"])  # an edition file is no local rule
    path = copy(tmp_path, LOCAL, lambda t: re.sub(r"^rules: .*$", f"rules: {edition}", t, flags=re.M))
    located(invoke("scenario", "run", path), str(path), line_of(path, "rules:"), 8, "kind: edition file")
    broken = tmp_path / "broken.yaml"
    overlay = EXAMPLE.read_text(encoding="utf-8")
    broken.write_text(overlay.replace("base: ", "colour: red\nbase: ", 1), encoding="utf-8")
    path = copy(tmp_path, LOCAL, lambda t: re.sub(r"^rules: .*$", "rules: broken.yaml", t, flags=re.M))
    result = invoke("scenario", "run", path)
    located(result, str(path), line_of(path, "rules:"), 8, "has problems")
    located(result, str(broken), line_of(broken, "colour:"), 1, "colour")


def test_without_rules_the_edition_and_format_are_required(tmp_path: Path) -> None:
    path = copy(tmp_path, "dealt-game-first-turn", lambda t: re.sub(r"^format: .*\n", "", t, flags=re.M))
    located(invoke("scenario", "run", path), str(path), line_of(path, "kind:"), 1, "format: required")


# 2. a dealt set-up -------------------------------------------------------------------------

DEALT = "dealt-game-first-turn"


def test_a_seed_alone_sets_up_the_game_as_a_new_game_of_that_seed(tmp_path: Path) -> None:
    path = copy(tmp_path, DEALT, lambda t: re.sub(r"  decks:.*?\ncommands:", "commands:", t, flags=re.S))
    scenario = loaded(path)
    seed = scenario.doc.data["setup"]["seed"]
    assert build(scenario).state_hash() == Game.new(scenario.rules, seed).state_hash()
    other = Game.new(scenario.rules, seed + 1).state_hash()
    assert build(scenario).state_hash() != other  # the seed decides the deal


def test_stacked_decks_deal_their_cards_first() -> None:
    scenario = loaded(shipped(DEALT))
    setup = scenario.doc.data["setup"]
    game = build(scenario)
    size = scenario.rules.edition.core.hand_size
    revealed = []
    for index, who in enumerate(("p1", "p2")):
        named = [str(Card.parse(t)) for t in setup["decks"][who]]
        player = game.state.players[index]
        assert [label(c) for c in player.hand][:size] == named[:size]
        revealed.append(named[size])
        assert not {label(c) for c in player.life} & set(named)  # stacked cards are not dealt twice
    # the card after the hand is the one revealed for who goes first (its ranks differ here)
    assert [label(p.graveyard[0]) for p in game.state.players] == revealed


@pytest.mark.parametrize(
    ("edit", "fragment", "message"),
    [
        (
            lambda t: t.replace("p1: [♡3, ♠A,", "p1: [♡3, ♡3,", 1),
            "p1: [♡3, ♡3,",
            "p1 has no ♡3 left to place",
        ),
        (lambda t: t.replace("p1: [♡3, ♠A,", "p1: [♡3, ♠Z,", 1), "p1: [♡3, ♠Z,", "♠Z"),
        (lambda t: t.replace("  seed: 11", "  seed: 11\n  turn: p1", 1), "  turn: p1", "unknown key 'turn'"),
    ],
    ids=["twice", "label", "mixed-forms"],
)
def test_a_bad_dealt_set_up_is_located(
    tmp_path: Path, edit: typing.Callable[[str], str], fragment: str, message: str
) -> None:
    path = copy(tmp_path, DEALT, edit)
    result = refused(invoke("scenario", "run", path))
    line = line_of(path, fragment)
    assert any(m.startswith(f"{path}:{line}:") and message in m for m in result.stderr.splitlines()), (
        result.stderr
    )


# 3. checkpoints ----------------------------------------------------------------------------

CHAIN = "counter-chain-step-by-step"


def test_a_checkpoint_failure_is_located_and_the_run_goes_on_to_the_end(tmp_path: Path) -> None:
    assert run(loaded(shipped(CHAIN))).passed
    path = copy(
        tmp_path,
        CHAIN,
        lambda t: t.replace("passed: [p2]", "passed: [p1]  # changed", 1).replace(
            "\n  stage: []\n", "\n  stage: [x]\n", 1
        ),
    )
    found = failures(path)
    lines = path.read_text(encoding="utf-8").splitlines()[: line_of(path, "# changed")]
    checkpoint = max(i for i, line in enumerate(lines, 1) if "- expect:" in line) + 1  # its first key
    assert found[0].startswith(f"{path}:{checkpoint}:") and "passed: expected ['p1'], got ['p2']" in found[0]
    assert found[1].startswith("stage: expected ['x']")  # the final expect was still compared
    assert len(found) == 2


def test_a_checkpoint_that_checks_nothing_fails_where_it_is(tmp_path: Path) -> None:
    path = copy(tmp_path, CHAIN, lambda t: t.replace('  - "p1: pass"', '  - expect: {}\n  - "p1: pass"', 1))
    (found,) = failures(path)
    assert found.startswith(f"{path}:{line_of(path, 'expect: {}')}:") and "checks nothing" in found


def test_checkpoints_see_only_the_events_since_the_one_before(tmp_path: Path) -> None:
    data = yaml.safe_load(shipped(CHAIN).read_text(encoding="utf-8"))
    first = next(i["expect"]["events"][0] for i in data["commands"] if isinstance(i, dict) and "expect" in i)
    path = copy(
        tmp_path, CHAIN, lambda t: t.replace("  events: [resolved", f"  events: [{first}, resolved", 1)
    )
    (found,) = failures(path)
    assert found.startswith("events: expected") and first in found


# 4. events and the new outcomes ------------------------------------------------------------


def one_of_each() -> list[events.Event]:
    sample = {
        "int": 0,
        "str": "",
        "bool": True,
        "tuple[int, ...]": (0, 1),
        "Option": Pass(0),
        "Result": Result.DRAW,
    }
    return [
        cls(**{f.name: sample[str(f.type)] for f in dataclasses.fields(cls)})
        for cls in typing.get_args(events.Event)
    ]


def test_every_event_but_a_decision_has_a_text_whose_first_word_is_its_own() -> None:
    game = build(loaded(shipped(CHAIN)))
    action = game.rules.actions[0].id
    texts = {}
    for event in one_of_each():
        if hasattr(event, "action"):
            event = dataclasses.replace(event, action=action)  # type: ignore[type-var]
        texts[type(event)] = in_words(game.rules, event, SCENARIO)
    assert texts.pop(events.Decided) is None  # the commands are the decisions
    words = [text.split(" ", 1)[0] for text in texts.values() if text is not None]
    assert sorted(words) == sorted(EVENT_WORDS) and len(set(words)) == len(words) == len(texts)
    assert texts[events.Revealed] == f"revealed {label(0)} {label(1)}"


def test_every_event_word_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert all(f"`{word} " in text or f"`{word}`" in text for word in EVENT_WORDS)


@pytest.mark.parametrize(
    ("stem", "old", "new", "failure"),
    [
        (
            "reunion-reveals-the-card",
            "graveyard_top: ♢3",
            "graveyard_top: ♠K",
            "p1.graveyard_top: expected ♠K",
        ),
        ("both-heroes-lost-then-end-events", "turn_number: 4", "turn_number: 5", "turn_number: expected 5"),
        ("both-heroes-lost-then-end-events", "{used: []}", "{used: [{}]}", "p1.used: expected"),
        (CHAIN, "passed: []", "passed: [p2]", "passed: expected ['p2'], got []"),
        ("reunion-reveals-the-card", "events: [revealed ♠K,", "events: [revealed ♢3,", "events: expected"),
    ],
    ids=["graveyard_top", "turn_number", "used", "passed", "events"],
)
def test_each_new_outcome_can_fail(tmp_path: Path, stem: str, old: str, new: str, failure: str) -> None:
    assert run(loaded(shipped(stem))).passed
    if "{}" in new:  # an action of the format, not used at the end
        new = new.replace("{}", loaded(shipped(stem)).rules.actions[0].name)
    path = copy(tmp_path, stem, lambda t: t.replace(old, new, 1))
    assert any(failure in line for line in failures(path)), failures(path)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("{used: []}", "{used: [no-such-action]}", "used: no action named 'no-such-action'"),
        ("events: [requested", "events: [happened", "events: 'happened"),
        ("turn: p2\n", "turn: p2\n  p2: {graveyard_top: ♠Z}\n", "♠Z"),
    ],
    ids=["used", "event-word", "graveyard_top"],
)
def test_bad_new_outcomes_are_located(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = copy(tmp_path, "both-heroes-lost-then-end-events", lambda t: t.replace(old, new, 1))
    result = refused(invoke("scenario", "run", path))
    fragment = new.strip().splitlines()[-1][:12]
    line = line_of(path, fragment)
    assert any(m.startswith(f"{path}:{line}:") and message in m for m in result.stderr.splitlines()), (
        result.stderr
    )


# 5. life: N --------------------------------------------------------------------------------


def test_a_life_count_is_the_first_cards_left_in_deck_order() -> None:
    scenario = loaded(shipped("life-count-is-the-first-cards-left"))
    game = build(scenario)
    for index, who in enumerate(("p1", "p2")):
        zones = scenario.doc.data["setup"][who]
        free = list(deck_ids(index))
        for text in [*zones.get("hand", ()), *zones.get("graveyard", ())]:
            free.remove(next(c for c in free if card(c) == Card.parse(text)))
        assert game.state.players[index].life == free[: zones["life"]]
    assert DOCS.read_text(encoding="utf-8").count(" ".join(str(c) for c in DECK[:2])) >= 1  # the docs' order


# 6. key cards with a star each; a character named by any of its cards ----------------------


def test_key_cards_with_a_star_each_parse_as_one_list() -> None:
    rng = random.Random(6)
    scenario = loaded(shipped("death-lance-written-as-on-the-sheet"))
    first = scenario.commands[0].command
    assert isinstance(first, RequestCommand)
    for _ in range(20):
        keys = sorted(rng.sample(DECK, rng.randrange(1, 4)))  # as options print them
        one = parse_command(f"p1: {first.name} ★{''.join(map(str, keys))}")
        rng.shuffle(keys)
        starred = parse_command(f"p1: {first.name} {''.join(f'★{c}' for c in keys)}")
        assert isinstance(one, RequestCommand) and isinstance(starred, RequestCommand)
        assert list(one.keys) == sorted(keys) and starred.keys == tuple(keys)


def test_a_character_named_by_a_later_card_is_the_option_named_by_its_first() -> None:
    scenario = loaded(shipped("armed-soldier-named-by-its-second-card"))
    game = build(scenario)
    renamed = 0
    for step in scenario.commands:
        option = resolve_command(game, step.command, step.text)
        renamed += parse_command(f"p{option.player + 1}: {option}") != step.command
        game.apply(option)
    assert renamed >= 3  # a target, an attacker and a blocked attacker
    assert run(scenario).passed


def test_a_card_being_placed_is_the_card_not_its_character() -> None:
    """When an effect has a character's cards placed one by one, each answer names a card; none is renamed."""
    scenario = loaded(shipped("death-lance-written-as-on-the-sheet"))
    game = build(scenario)
    placed = 0
    for step in scenario.commands:
        option = resolve_command(game, step.command, step.text)
        if isinstance(option, Choice) and option.a is not None:
            assert isinstance(step.command, AnswerCommand)
            assert step.command.cards[0] == card(option.a)  # the card written, not its character's first
            placed += 1
        game.apply(option)
    assert placed


# 7. refusals name their rule, from the engine's one legality check --------------------------


RULES = [rule for rule, _ in CHECKS] + [ANSWER]


def test_every_explanation_is_the_legality_checks_first_refusal_with_its_rule() -> None:
    scenario = loaded(shipped("refusals-name-their-rule"))
    game = build(scenario)
    seen = 0
    for step in scenario.commands:
        if step.refused is None:
            game.apply(resolve_command(game, step.command, step.text))
            continue
        with pytest.raises(IllegalCommand) as refused_with:
            resolve_command(game, step.command, step.text)
        refusal = refused_with.value.refusal
        assert step.refused in refused_with.value.reason and refusal.rule in RULES
        if isinstance(step.command, RequestCommand):
            assert refusal == first_refusal(game, step.command)
        seen += 1
    assert seen >= 5


def test_a_payment_without_its_card_says_the_payment_is_missing() -> None:
    scenario = loaded(shipped("refusals-name-their-rule"))
    game = build(scenario)
    good = _request(scenario, lambda c: bool(c.payment))
    unit = good.payment[0][0]
    bare = dataclasses.replace(good, payment=((unit, None),))
    refusal = explain(game, bare, "")
    assert refusal.message.startswith("the payment is missing its card") and refusal.rule == "payment"
    assert "not a valid target" not in refusal.message


def test_a_character_the_player_lacks_is_named_as_missing_not_as_an_invalid_target() -> None:
    scenario = loaded(shipped("refusals-name-their-rule"))
    game = build(scenario)
    good = _request(scenario, lambda c: isinstance(c.target, WrittenCharacter))
    assert isinstance(good.target, WrittenCharacter)
    other = 1 - good.target.player
    wrong = dataclasses.replace(good, target=WrittenCharacter(other, good.target.card))
    refusal = explain(game, wrong, "")
    assert (refusal.rule, refusal.message) == (
        "target valid",
        f"p{other + 1} has no {good.target.card} on the field",
    )


def _request(scenario: Scenario, wanted: typing.Callable[[RequestCommand], bool]) -> RequestCommand:
    """The first request the scenario expects accepted that is `wanted`."""
    return next(
        s.command
        for s in scenario.commands
        if s.refused is None and isinstance(s.command, RequestCommand) and wanted(s.command)
    )


def test_the_docs_list_every_rule_a_refusal_names() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Refusals", 1)[1]
    listed = re.findall(r"^\* `([a-z ]+)`", section, flags=re.M)
    assert listed == RULES


def test_an_unparsable_command_still_is_located(tmp_path: Path) -> None:
    good = next(s.text for s in loaded(shipped("refusals-name-their-rule")).commands if s.refused is None)
    broken = f"{good} ★"
    path = copy(tmp_path, "refusals-name-their-rule", lambda t: t.replace(f'"{good}"', f'"{broken}"', 1))
    result = refused(invoke("scenario", "run", path))
    assert f"{path}:{line_of(path, broken)}:" in result.stderr
