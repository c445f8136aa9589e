"""What the entries of a format need from each other, checked at link time and bounded in the engine.

Ids come from the compiled rule sets (found by walking the program trees) or are the
overlay's own additions, so nothing here depends on one edition's data.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest
from blackpoker.cli.main import main
from blackpoker.compiler import CompileError, compile
from blackpoker.compiler.checks import check_edition
from blackpoker.compiler.needs import references, request_cycles, turn_passers
from blackpoker.compiler.parse import EditionSource
from blackpoker.compiler.pipeline import edition_source
from blackpoker.runtime.engine.primitives import MAX_NESTED
from blackpoker.runtime.play.selfplay import play_game
from blackpoker.runtime.rules.model import RuleSet, Speed
from blackpoker.runtime.rules.program import Request, Target
from click.testing import CliRunner
from engine_support import compiled, format_ids, reference_edition


def _requests(rules: RuleSet | EditionSource) -> bool:
    return any(r.field == "request" for r in references(rules.actions, rules.characters))


# an edition whose programs request other actions, and its smallest format where one does
EDITION = reference_edition(_requests)
RULES = next(rules for rules in map(partial(compiled, EDITION), format_ids(EDITION)) if _requests(rules))
MINE = "my-rules"  # the overlay's own format
HEADER = f"kind: overlay\nname: {MINE}\nedition: {EDITION}\nbase: {RULES.format.id}\n"


def action(action_id: str, name: str, speed: str, steps: list[str]) -> str:
    """An added action in the overlay's YAML (a list item under actions.add)."""
    program = "".join(f"        - {step}\n" for step in steps)
    return (
        f"    - id: {action_id}\n      name: {name}\n      type: {RULES.actions[0].type}\n"
        f"      section: {RULES.actions[0].section}\n      timing: main\n      speed: {speed}\n"
        f"      effect: テスト。\n      program:\n{program}"
    )


def problems(tmp_path: Path, body: str) -> list[tuple[int, str]]:
    """(line, message) of each problem compiling the overlay; [] when it compiles."""
    path = tmp_path / "rules.yaml"
    path.write_text(HEADER + body, encoding="utf-8")
    try:
        compile(EDITION, MINE, path)
    except CompileError as error:
        return [(d.location.line, d.message) for d in error.diagnostics]
    return []


def line_of(body: str, text: str, nth: int = 0) -> int:
    """The 1-based line of the nth line of the overlay holding `text`."""
    lines = (HEADER + body).splitlines()
    return [i for i, line in enumerate(lines, 1) if text in line][nth]


def requested_pair(rules: RuleSet) -> tuple[str, str]:
    """Some (requester, requested) pair of the format's programs."""
    ref = next(r for r in references(rules.actions, rules.characters) if r.field == "request")
    return ref.referrer, ref.wanted


# --- 1. immediate request cycles --------------------------------------------------------------


def test_an_immediate_action_requesting_itself_is_a_cycle(tmp_path: Path) -> None:
    body = "actions:\n  add:\n" + action(
        "echo", "エコー", "immediate", ["draw: {player: you, count: 1}", "request: echo"]
    )
    assert problems(tmp_path, body) == [
        (
            line_of(body, "request: echo"),
            "request: 'echo' -> 'echo' is an immediate request cycle"
            " (each resolves inside the last, forever)",
        )
    ]


def test_a_cycle_through_two_actions_is_reported_at_the_step_that_closes_it(tmp_path: Path) -> None:
    body = (
        "actions:\n  add:\n"
        + action("ping", "ピン", "immediate", ["request: pong"])
        + action("pong", "ポン", "immediate", ["{if: {eq: [1, 1]}, then: [{request: ping}]}"])
    )
    [(line, message)] = problems(tmp_path, body)
    assert line == line_of(body, "request: ping")
    assert message.startswith("request: 'ping' -> 'pong' -> 'ping' is an immediate request cycle")


def test_a_cycle_through_a_base_action_the_overlay_changes(tmp_path: Path) -> None:
    requester, requested = requested_pair(RULES)
    body = (
        f"actions:\n  change:\n    {requester}:\n      speed: immediate\n"
        f"    {requested}:\n      speed: immediate\n      program:\n        - request: {requester}\n"
    )
    [(line, message)] = problems(tmp_path, body)
    assert line == line_of(body, f"request: {requester}")
    assert message.startswith(f"request: '{requester}' -> '{requested}' -> '{requester}' is an immediate")


def test_normal_speed_requests_are_no_cycle(tmp_path: Path) -> None:
    body = "actions:\n  add:\n" + action("again", "アゲイン", "normal", ["request: again"])
    assert problems(tmp_path, body) == []


def test_a_trigger_that_requests_again_is_no_static_cycle(tmp_path: Path) -> None:
    # The action sends every character to the graveyard, whose trigger requests it again:
    # only request steps make a static cycle, this one waits on the field's contents.
    character = next(c for c in RULES.characters if c.triggers)
    body = "actions:\n  add:\n" + action(
        "sweep", "スイープ", "immediate", ["move: {cards: {field: all}, to: graveyard}"]
    )
    body += (
        f"characters:\n  change:\n    {character.id}:\n      triggers:\n"
        "        - {when: leaves_field_to_graveyard, request: sweep, for_each_card: [A]}\n"
    )
    assert problems(tmp_path, body) == []


def test_request_cycles_of_the_official_formats_are_none() -> None:
    assert request_cycles(RULES.actions) == []


def test_an_edition_cycle_is_reported_at_its_closing_step() -> None:
    source = edition_source(EDITION)
    requester, requested = requested_pair(RULES)
    changed = tuple(
        replace(a, speed=Speed.IMMEDIATE, steps=(*a.steps, Request(action=requester)))
        if a.id == requested
        else replace(a, speed=Speed.IMMEDIATE)
        if a.id == requester
        else a
        for a in source.actions
    )
    found = check_edition(replace(source, actions=changed))
    index = next(i for i, a in enumerate(source.actions) if a.id == requested)
    [problem] = [p for p in found if "cycle" in p.message]
    assert problem.message.startswith(f"request: '{requester}' -> '{requested}' -> '{requester}'")
    assert problem.location == source.doc.locate(
        ("actions", index, "program")
    )  # the added step: no line of its own


def test_the_engine_bounds_nested_resolutions() -> None:
    # A rule set no linker saw: every action first requests itself at once.
    looping = replace(
        RULES,
        actions=tuple(
            replace(a, speed=Speed.IMMEDIATE, steps=(Request(action=a.id), *a.steps)) for a in RULES.actions
        ),
    )
    record = play_game(looping, ("random", "random"), 1, 0)
    assert record.result is None
    assert record.crash is not None and record.crash.startswith(
        f"NestingLimit: more than {MAX_NESTED} nested"
    )


# --- 2. removing what others need -------------------------------------------------------------


def test_removing_a_requested_action_names_who_requests_it(tmp_path: Path) -> None:
    requester, requested = requested_pair(RULES)
    body = f"actions:\n  remove: [{requested}]\n"
    assert (
        line_of(body, "remove:"),
        f"actions.remove: cannot remove '{requested}': requested by {requester} (program)",
    ) in problems(tmp_path, body)


def test_removing_a_character_a_program_puts_names_the_program(tmp_path: Path) -> None:
    # the character named most often, so that one action naming it twice is listed once
    named_ids = [r.wanted for r in references(RULES.actions, ()) if not r.of_action]
    wanted = max(named_ids, key=named_ids.count)
    users: dict[str, list[str]] = {}  # per field (put_character.as, mount.as, …): the actions
    for ref in references(RULES.actions, ()):
        if not ref.of_action and ref.wanted == wanted:
            users.setdefault(ref.field, []).append(ref.referrer)
    named = ", ".join(f"named by {', '.join(dict.fromkeys(ids))} ({field})" for field, ids in users.items())
    body = f"characters:\n  remove: [{wanted}]\n"
    assert problems(tmp_path, body) == [
        (line_of(body, "remove:"), f"characters.remove: cannot remove '{wanted}': {named}")
    ]


def test_removing_a_triggered_action_names_the_characters(tmp_path: Path) -> None:
    triggered = next(c for c in RULES.characters if c.triggers).triggers[0].request
    characters = [c.id for c in RULES.characters if any(t.request == triggered for t in c.triggers)]
    body = f"actions:\n  remove: [{triggered}]\n"
    messages = [message for _, message in problems(tmp_path, body)]
    assert any(
        f"triggered by character{'s' if len(characters) > 1 else ''} {', '.join(characters)}" in m
        for m in messages
    )


def unneeded(rules: RuleSet) -> list[str]:
    """The actions that no other entry names and that do not pass the turn: free to remove."""
    named = {r.wanted for r in references(rules.actions, rules.characters)}
    return [a.id for a in rules.actions if a.id not in named | turn_passers(rules.actions)]


def test_the_overlays_own_reference_to_a_removed_action_is_reported_where_it_is_written(
    tmp_path: Path,
) -> None:
    victim = unneeded(RULES)[0]
    body = "actions:\n  add:\n" + action(
        "snipe", "スナイプ", "normal", [f"target: {{kind: request, action: {victim}}}"]
    )
    body += f"  remove: [{victim}]\n"
    assert problems(tmp_path, body) == [
        (
            line_of(body, "target:"),
            f"target.action: '{victim}' is not an action of format {MINE} (this file removes it)",
        )
    ]


def test_removing_every_action_that_passes_the_turn_is_refused(tmp_path: Path) -> None:
    passers = sorted(turn_passers(RULES.actions))
    assert passers  # the official format can end a turn
    body = f"actions:\n  remove: [{', '.join(passers)}]\n"
    found = problems(tmp_path, body)
    assert (
        line_of(body, "remove:"),
        f"actions.remove: cannot remove '{passers[0]}': no action of format {MINE} passes the turn"
        " (a pass_turn step, in its program or in one it requests),"
        " so every game would stop at the decision cap",
    ) in found


def test_a_program_change_that_stops_the_last_turn_passer_is_refused(tmp_path: Path) -> None:
    passers = turn_passers(RULES.actions)
    body = "actions:\n  change:\n" + "".join(
        f"    {p}:\n      program:\n        - draw: {{player: you, count: 1}}\n" for p in sorted(passers)
    )
    [(line, message)] = problems(tmp_path, body)
    assert line == line_of(body, "program:")
    assert message.startswith(f"program: no action of format {MINE} passes the turn")


def test_a_new_action_may_take_over_passing_the_turn(tmp_path: Path) -> None:
    named = {r.wanted for r in references(RULES.actions, RULES.characters)}
    passers = sorted(turn_passers(RULES.actions) - named)
    assert passers
    body = "actions:\n  add:\n" + action("rest", "レスト", "normal", ["pass_turn: {}"])
    body += f"  remove: [{', '.join(passers)}]\n"
    assert problems(tmp_path, body) == []


def test_an_edition_program_naming_a_character_of_other_formats_only_is_located() -> None:
    source = edition_source(EDITION)
    ref = next(
        r
        for r in references(source.actions, ())
        if not r.of_action and len(next(a for a in source.actions if a.id == r.referrer).formats) > 1
    )
    index = next(i for i, a in enumerate(source.actions) if a.id == ref.referrer)
    dropped = source.actions[index].formats[0]
    characters = tuple(
        replace(c, formats=tuple(f for f in c.formats if f != dropped)) if c.id == ref.wanted else c
        for c in source.characters
    )
    found = check_edition(replace(source, characters=characters))
    assert [(p.location, p.message) for p in found] == [
        (
            source.doc.locate(("actions", index, *ref.at)),
            f"{ref.field}: '{ref.wanted}' is not a character of format {dropped}",
        )
    ]


def test_an_edition_with_two_actions_of_one_name_in_a_format_is_refused() -> None:
    source = edition_source(EDITION)
    first = source.actions[0]
    second = next(i for i, a in enumerate(source.actions) if i and set(a.formats) & set(first.formats))
    actions = tuple(replace(a, name=first.name) if i == second else a for i, a in enumerate(source.actions))
    found = check_edition(replace(source, actions=actions))
    assert [(p.location, p.message) for p in found] == [
        (
            source.doc.locate(("actions", second, "name")),
            f"name: '{first.name}' is already the name of action '{first.id}' in this format",
        )
    ]


# --- 3. misused keys --------------------------------------------------------------------------


def test_formats_cannot_be_changed(tmp_path: Path) -> None:
    entry = RULES.actions[0].id
    body = f"actions:\n  change:\n    {entry}:\n      format: {RULES.format.id}\n"
    assert problems(tmp_path, body) == [
        (
            line_of(body, "format:"),
            f"actions.change.{entry}.format: an overlay cannot change formats (every kept action belongs"
            " to the new format; to drop it from the format, list it in actions.remove)",
        )
    ]


def test_an_added_entry_names_no_format(tmp_path: Path) -> None:
    body = "actions:\n  add:\n" + action("rest", "レスト", "normal", ["pass_turn: {}"])
    body += f"      format: {RULES.format.id}\n"
    assert problems(tmp_path, body) == [
        (
            line_of(body, "format:"),
            "actions.add: an added action belongs to this file's format only (drop 'format')",
        )
    ]


@pytest.mark.parametrize(
    ("step", "field", "value"),
    [
        ("damage: {player: opponent, amount: -7}", "damage.amount", -7),
        ("top: {player: you, count: -3, as: cards}", "top.count", -3),
        ("draw: {player: you, count: -1}", "draw.count", -1),
        ("choose: {player: you, from: hand, count: -2, as: cards}", "choose.count", -2),
        ("discard_down_to: {player: you, count: -4}", "discard_down_to.count", -4),
    ],
)
def test_negative_counts_are_refused(tmp_path: Path, step: str, field: str, value: int) -> None:
    body = "actions:\n  add:\n" + action("bad", "バッド", "normal", [step])
    assert problems(tmp_path, body) == [
        (
            line_of(body, step),
            f"actions.add[0] (bad).program[0].{field}: {value} is less than the minimum of 0",
        )
    ]


def test_negative_sizes_and_negations_stay_allowed(tmp_path: Path) -> None:
    steps = ["modify_size: {of: {field: you}, by: -2}", "damage: {player: opponent, amount: {neg: {neg: 1}}}"]
    assert problems(tmp_path, "actions:\n  add:\n" + action("ok", "オーケー", "normal", steps)) == []


def test_an_added_action_cannot_take_an_existing_name(tmp_path: Path) -> None:
    taken = RULES.actions[-1]
    body = "actions:\n  add:\n" + action("twin", taken.name, "normal", ["draw: {player: you, count: 1}"])
    assert problems(tmp_path, body) == [
        (
            line_of(body, f"name: {taken.name}"),
            f"name: '{taken.name}' is already the name of action '{taken.id}' in this format",
        )
    ]


def test_a_change_cannot_give_an_action_another_ones_name(tmp_path: Path) -> None:
    first, second = RULES.actions[0], RULES.actions[1]
    body = f"actions:\n  change:\n    {first.id}:\n      name: {second.name}\n"
    assert problems(tmp_path, body) == [
        (
            line_of(body, f"name: {second.name}"),
            f"name: '{second.name}' is already the name of action '{second.id}' in this format",
        )
    ]


@pytest.mark.parametrize("cap", ["0", "-5"])
def test_simulate_refuses_a_cap_below_one(cap: str) -> None:
    result = CliRunner().invoke(main, ["simulate", "-n", "1", "--cap", cap])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == "--cap: must be at least 1"


def _untargeted(rules: RuleSet) -> str:
    """An action of the rule set whose program names no target."""
    return next(a.id for a in rules.actions if a.steps and not any(isinstance(s, Target) for s in a.steps))


UNTARGETED = _untargeted(RULES)


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (
            "choose: {player: you, from: graveyard, match: ♠10〜2, as: cards}",
            "match: descending range 10〜2: write the lower number first",
        ),
        (
            "choose: {player: you, from: graveyard, count: 2, min: 1, as: cards}",
            "choose.min: only with count: any",
        ),
        (
            f"request: {{action: {UNTARGETED}, target: target}}",
            f"request.target: '{UNTARGETED}' names no target",
        ),
        (
            "{if: {targetable: {of: target, by: nowhere}}, then: [pass_turn: {}]}",
            "targetable.by: unknown action 'nowhere'",
        ),
        (
            f"{{if: {{targetable: {{of: target, by: {UNTARGETED}}}}}, then: [pass_turn: {{}}]}}",
            f"targetable.by: '{UNTARGETED}' names no target",
        ),
    ],
)
def test_misused_choose_request_and_targetable_fields_are_located(
    tmp_path: Path, step: str, message: str
) -> None:
    body = "actions:\n  add:\n" + action("bad", "バッド", "normal", [step])
    assert problems(tmp_path, body) == [(line_of(body, step), message)]


# --- caused actions (兵士起因) ----------------------------------------------------------------


def test_a_caused_action_names_known_character_types_and_ids_and_reads_source(tmp_path: Path) -> None:
    kind = RULES.characters[0]
    fine = action("slash", "斬撃", "immediate", ["modify_size: {of: source, by: {size: source}}"])
    known = f"      caused_by: {{type: {kind.type}, kind: {kind.id}, suit: ♠}}\n"
    assert problems(tmp_path, "actions:\n  add:\n" + fine + known) == []
    unknown = "      caused_by: {type: 謎, kind: nobody}\n"
    body = "actions:\n  add:\n" + fine + unknown
    found = problems(tmp_path, body)
    line = line_of(body, "caused_by:")
    assert [(n, m.split(" (declared")[0]) for n, m in found] == [
        (line, "caused_by.type: unknown character type '謎'"),
        (line, "caused_by.kind: unknown character 'nobody'"),
    ]


def test_source_is_read_only_in_a_caused_action(tmp_path: Path) -> None:
    body = "actions:\n  add:\n" + action("slash", "斬撃", "immediate", ["modify_size: {of: source, by: 1}"])
    assert problems(tmp_path, body) == [
        (
            line_of(body, "modify_size"),
            "of: 'source' names the character that caused the request: only an action with caused_by has one",
        )
    ]


def test_a_caused_action_is_requested_directly(tmp_path: Path) -> None:
    added = action("slash", "斬撃", "immediate", ["modify_size: {of: source, by: 1}"])
    body = "actions:\n  add:\n" + added + "      trigger: effect\n      caused_by: {suit: ♠}\n"
    assert problems(tmp_path, body) == [
        (
            line_of(body, "caused_by"),
            "caused_by: a character causes a request its player makes (trigger: direct)",
        )
    ]
