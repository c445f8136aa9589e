"""The extra format: an edition's largest official format plus an extra list, compiled into
one rule set whose trump actions are available only while their trump lies face up.

Every expectation is read from the built-in extra lists (the registry's `extras:`)."""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path

import pytest
import yaml
from bad_input_support import invoke, refused
from blackpoker.compiler.documents.extra import EXTRA_FORMAT, TRUMP_ZONE, ExtraSource, caused_by_one_of
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.engine.expressions import requirement_holds
from blackpoker.runtime.engine.game import Game, snapshot
from blackpoker.runtime.engine.options import RequestOption
from blackpoker.runtime.engine.refs import ZoneCard
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.runtime.rules.program import All, FaceUp, walk
from blackpoker.runtime.scenario.build import build
from blackpoker.runtime.scenario.load import load as load_scenario
from click.testing import Result
from editions_support import ops

ENV = Environment()
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
WITH_EXTRAS = [e for e in ENV.builtin_editions() if ENV.builtin_extras(e)]


def _asks(edition: str) -> bool:
    """Whether the edition's newest list has its players place their trumps by yes / no
    (001 §3.11.4: 2枚まで, up to two), as `_placed` answers the set-up."""
    setup = ENV.extra_list(ENV.edition(edition), None).setup
    return setup is not None and "may" in ops(setup.steps)


PLACING = next(e for e in WITH_EXTRAS if _asks(e))  # the newest edition whose set-up asks


def newest(edition: str) -> ExtraSource:
    """The edition's newest extra list as the extra format plays it (with lent programs)."""
    return ENV.extra_list(ENV.edition(edition), None)


@pytest.mark.parametrize("edition", WITH_EXTRAS)
def test_compile_lists_every_trump_with_its_actions(edition: str) -> None:
    result = invoke("compile", "--edition", edition, "--format", EXTRA_FORMAT.id)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    extra = newest(edition)
    assert [t["id"] for t in data["trumps"]] == [t.id for t in extra.trumps]
    ids = {a["id"] for a in data["actions"]}
    for trump, listed in zip(extra.trumps, data["trumps"], strict=True):
        assert listed["card"] == f"{trump.suit}{trump.number}"
        every = {v.id for a in trump.every_action for v in (a, *extra.variants_of(a.id))}
        assert every == {*listed["actions"], *listed["pending"]}
        assert set(listed["actions"]) <= ids
        assert not set(listed["pending"]) & ids
        assert all(not a.program for a in trump.every_action if a.id in listed["pending"])
    assert {o.id for o in extra.operations if o.program} <= ids
    base = ENV.compile(edition, ENV.edition(edition).edition.formats[-1].id)
    assert {a.id for a in base.actions} <= ids
    assert TRUMP_ZONE.id in [z["id"] for z in data["core"]["zones"]]


@pytest.mark.parametrize("edition", WITH_EXTRAS)
def test_each_trump_action_needs_its_trump_face_up(edition: str) -> None:
    ruleset = ENV.compile(edition, EXTRA_FORMAT.id)
    summoned = {t.id: t.summoned for t in newest(edition).trumps}
    for trump in ruleset.trumps:
        for action_id in trump.actions:
            action = ruleset.action(action_id)
            rule = action.triggered_by if action.triggered_by is not None else action.requires
            faces = [n for _, n in walk(rule) if isinstance(n, FaceUp)] if rule is not None else []
            # what a summoned character causes is its own ability: the trump card is part of it
            on = [] if caused_by_one_of(action, summoned[trump.id]) else [(TRUMP_ZONE.id, trump.card)]
            assert [(f.zone, f.card) for f in faces] == on, action_id
    # an operation is never a face-up trump's: its own 起動条件, if any, needs no trump face up
    operations = [ruleset.action(o.id) for o in newest(edition).operations if o.program]
    required = [a.requires.cond for a in operations if a.requires is not None]
    assert not any(isinstance(n, FaceUp) for cond in required for _, n in walk(cond))


def test_an_own_requirement_is_kept_beside_the_face_up_one(tmp_path: Path) -> None:
    """A trump action's own 起動条件 (`requires`) is joined with its trump's face-up one (a
    copy of the newest list whose first requestable trump action gains one)."""
    edition = WITH_EXTRAS[0]
    data = yaml.safe_load(ENV.builtin_extras(edition)[0].read_text(encoding="utf-8"))
    action = next(a for t in data["trumps"] for a in t.get("actions", ()) if "triggered_by" not in a)
    own = {"ge": [{"count": {"zone": "hand", "player": "you"}}, 1]}
    action["requires"] = own
    path = tmp_path / f"{data['id']}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    ruleset = Environment().compile(edition, EXTRA_FORMAT.id, extra=str(path))
    joined = [
        a
        for t in ruleset.trumps
        for a in t.actions
        if isinstance(getattr(ruleset.action(a).requires, "cond", None), All)
    ]
    assert joined == [action["id"]]
    requires = ruleset.action(action["id"]).requires
    assert requires is not None and isinstance(requires.cond, All) and len(requires.cond.items) == 2
    assert any(isinstance(n, FaceUp) for n in requires.cond.items)


def test_an_extra_list_by_id_and_by_file(tmp_path: Path) -> None:
    edition = WITH_EXTRAS[0]
    path = ENV.builtin_extras(edition)[-1]
    by_id = invoke("compile", "--edition", edition, "--format", EXTRA_FORMAT.id, "--extra", path.stem)
    by_file = invoke("compile", "--edition", edition, "--format", EXTRA_FORMAT.id, "--extra", path)
    assert by_id.exit_code == 0, by_id.stderr
    assert json.loads(by_id.stdout) == json.loads(by_file.stdout)


def test_an_unknown_extra_list_is_refused() -> None:
    edition = WITH_EXTRAS[0]
    result = invoke("compile", "--edition", edition, "--format", EXTRA_FORMAT.id, "--extra", "v0.0")
    assert _option_refused(result).startswith("--extra: unknown extra list 'v0.0'")


def test_an_edition_without_extra_lists_is_refused() -> None:
    without = [e for e in ENV.builtin_editions() if not ENV.extras(e)]
    if not without:
        pytest.skip("every built-in edition has an extra list")
    result = invoke("compile", "--edition", without[0], "--format", EXTRA_FORMAT.id)
    assert "has no built-in extra list" in _option_refused(result)


def test_an_extra_list_of_another_edition_is_refused() -> None:
    mine, other = WITH_EXTRAS[0], WITH_EXTRAS[-1]
    if mine == other:
        pytest.skip("one edition only has extra lists")
    path = ENV.builtin_extras(other)[0]
    result = refused(invoke("compile", "--edition", mine, "--format", EXTRA_FORMAT.id, "--extra", path))
    assert f"this list is for {other}" in result.stderr


# Every command with --extra, and what else it needs to start.
EXTRA_COMMANDS = {
    "compile": (),
    "fit": ("-n", "10", "--out", "weights.json"),
    "simulate": ("-n", "1"),
    "play": (),
}
EXTRA_RULES = Path(__file__).resolve().parents[1] / "examples" / "my-extra.yaml"  # base: extra


@pytest.mark.parametrize("command", EXTRA_COMMANDS)
@pytest.mark.parametrize("beside", ["another format", "a --rules file"])
def test_an_extra_list_the_rules_would_not_play_is_refused(
    command: str, beside: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--extra with another format, or beside a local rule (which names its own list), is
    refused, not silently left out; nothing is written."""
    monkeypatch.chdir(tmp_path)
    edition = WITH_EXTRAS[0]
    named = ("--extra", ENV.builtin_extras(edition)[-1].stem)
    if beside == "another format":
        rules: tuple[str | Path, ...] = ("--format", ENV.edition(edition).edition.formats[-1].id)
    else:
        rules = ("--rules", EXTRA_RULES, "--format", EXTRA_FORMAT.id)
    result = invoke(command, "--edition", edition, *rules, *named, *EXTRA_COMMANDS[command], stdin="q\n")
    assert _option_refused(result) == f"--extra: needs --format {EXTRA_FORMAT.id} (and no --rules)"
    assert result.stdout == "" and list(tmp_path.iterdir()) == []


def _option_refused(result: Result) -> str:
    """Exit 1 with a message about an option, no traceback: the message's first line."""
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    return result.stderr.splitlines()[0]


def _placed(ruleset: RuleSet, seed: int, picks: tuple[int, int], prefer: Collection[str] = ()) -> Game:
    """A game of the extra format whose players placed `picks` trumps each (the first card
    offered whose label is in `prefer`, else the first), up to the game's first decision."""
    game = Game.new(ruleset, seed, check=True)
    for wanted in picks:
        for _ in range(wanted):
            game.play(next(o for o in game.legal_options() if str(o) == "yes"))
            offered = game.legal_options()
            game.play(next((o for o in offered if str(o).split()[-1] in prefer), offered[0]))
        if wanted < 2:
            game.play(next(o for o in game.legal_options() if str(o) == "no"))
    return game


def test_each_player_places_trumps_face_down_before_the_hands() -> None:
    ruleset = ENV.compile(PLACING, EXTRA_FORMAT.id)
    game = _placed(ruleset, 3, (2, 1))
    hand_size = ruleset.edition.core.hand_size
    counts = [len(p.zones[TRUMP_ZONE.id]) for p in game.state.players]
    assert counts == [2, 1]
    assert all(not p.face_up for p in game.state.players)
    assert sorted(len(p.hand) for p in game.state.players) == [hand_size, hand_size + 1]
    mine, theirs = view(game, 0).players
    assert mine.zones[0].cards == tuple(game.state.players[0].zones[TRUMP_ZONE.id])
    assert theirs.zones[0].cards == () and theirs.zones[0].count == 1


def test_open_turns_a_trump_face_up_and_enables_its_actions() -> None:
    ruleset = ENV.compile(PLACING, EXTRA_FORMAT.id)
    # the actions a player requests (a triggered one has its trump's condition in its trigger)
    granted = {
        str(t.card): requested
        for t in ruleset.trumps
        if (requested := [a for a in t.actions if ruleset.action(a).requires is not None])
    }
    game = _placed(ruleset, 1, (1, 1), granted)
    me = game.state.chance
    assert me is not None
    placed = game.state.players[me].zones[TRUMP_ZONE.id][0]
    action = ruleset.action(granted[label(placed)][0])
    assert not requirement_holds(game, me, action)
    opening = next(
        o for o in game.legal_options() if isinstance(o, RequestOption) and o.action == "openQuick"
    )
    game.play(opening)
    game.play(game.legal_options()[0])
    assert set(game.state.players[me].face_up) == {placed}
    assert requirement_holds(game, me, action)
    assert not requirement_holds(game, 1 - me, action)
    theirs = view(game, 1 - me).players[me].zones[0]
    assert theirs.cards == (placed,) and theirs.face_up == (placed,)
    assert "face_up" in snapshot(game.state)["players"][me]


def test_a_game_without_trumps_hashes_as_before() -> None:
    edition = next(e for e in WITH_EXTRAS if not ENV.edition(e).edition.core.zones)  # zones of its own
    base = ENV.edition(edition).edition.formats[-1].id
    game = Game.new(ENV.compile(edition, base), 5)
    assert all("face_up" not in p and "zones" not in p for p in snapshot(game.state)["players"])


def _operations(game: Game) -> dict[str, list[RequestOption]]:
    """The request options of the trump operations (the extra list's `operations`, variants
    included) for the player holding chance, by action id."""
    source = newest(game.rules.edition.id)
    ids = {a.id for o in source.operations for a in (o, *source.variants_of(o.id))}
    found: dict[str, list[RequestOption]] = {}
    for option in game.legal_options():
        if isinstance(option, RequestOption) and option.action in ids:
            found.setdefault(option.action, []).append(option)
    return found


def test_open_is_offered_with_no_face_down_trump_and_then_turns_nothing_up() -> None:
    """オープン prints no 起動条件: with no trump of one's own lying face down it is offered all
    the same, and the request resolves turning nothing up (no choice to make)."""
    ruleset = ENV.compile(PLACING, EXTRA_FORMAT.id)
    game = _placed(ruleset, 1, (0, 0))
    me = game.state.chance
    assert me is not None
    offered = _operations(game)
    turning_up = [a for a in ruleset.actions if any(s.get("turn", {}).get("face") == "up" for s in a.program)]
    opening = {a.id for a in turning_up} & set(offered)
    assert opening
    hand = len(game.state.players[me].hand)
    game.play(offered[sorted(opening)[0]][0])
    mine = game.state.players[me]
    assert len(mine.hand) < hand  # its cost is paid
    assert not mine.face_up and not mine.zones[TRUMP_ZONE.id] and game.state.chance == me
    assert not game.state.stage
    assert opening & set(_operations(game))  # and it is offered again


def test_close_and_destroy_target_any_trump_and_resolve_with_no_effect_when_it_does_not_match() -> None:
    """クローズ and 切札破壊 (切札1枚を対象とする) may target every trump, one's own or a face-down
    one: the condition decides at resolution."""
    scenario, problems = load_scenario(SCENARIOS / "extra" / "operations-whose-condition-fails.yaml", ENV)
    assert scenario is not None and not problems
    game = build(scenario)
    me = game.state.chance
    assert me is not None
    trumps = {c for p in game.state.players for c in p.zones[TRUMP_ZONE.id]}
    offered = _operations(game)
    targeting = [o for options in offered.values() for o in options if o.target is not None]
    assert targeting
    for action in {o.action for o in targeting}:  # each keyed way may aim at every trump
        aims = {o.target.card for o in targeting if o.action == action and isinstance(o.target, ZoneCard)}
        assert aims == trumps, action
    mine, theirs = game.state.players[me], game.state.players[1 - me]
    assert any(c not in mine.face_up for c in mine.zones[TRUMP_ZONE.id]) or theirs.zones[TRUMP_ZONE.id]
