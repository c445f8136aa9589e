"""The actions frames and options add (a regulations file's `actions`): checked against the
edition, added to the rule set only under the regulation that names them, and played: their
起動条件 (`requires`), a choice from a zone the regulation adds, and what each player sees.

Every regulation, zone and action is found in the data by what it is, never by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from bad_input_support import invoke, refused
from blackpoker.compiler import CompileError, compile
from blackpoker.compiler.documents.regulation import (
    Regulation,
    Regulations,
    additions,
    builtin_regulations,
    parse_regulation,
)
from blackpoker.compiler.pipeline import edition_source
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import RequestOption
from blackpoker.runtime.engine.request_checks import first_refusal
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.play.notation import parse_command
from blackpoker.runtime.play.regulation import Setup
from blackpoker.runtime.rules.model import Visibility
from blackpoker.runtime.rules.program import notation
from regulation_support import file_data, game_under, write

PLAYED = [r for r in builtin_regulations() if r.editions]


def _with_pack(regs: Regulations) -> Regulation:
    """A regulation of these regulations that leaves cards out into a zone and adds an action,
    under a frame that deals (so it needs no deck files)."""
    leaving = [o for o in regs.options if o.left_out and o.actions]
    for fmt in regs.formats:
        for frame in regs.frames:
            for option in leaving:
                if frame.build == "built":
                    continue
                try:
                    return parse_regulation(f"{fmt.id}+{frame.id}+{option.id}", regs)
                except CompileError:  # a combination the tables refuse
                    continue
    raise AssertionError("no regulation leaves cards out with an action")


@pytest.fixture(scope="module")
def regulation() -> Regulation:
    regs = next(r for r in PLAYED if any(o.left_out and o.actions for o in r.options))
    return _with_pack(regs)


def _added_options(game: Game, setup: Setup, player: int) -> list[RequestOption]:
    ids = {a.id for a in setup.additions.actions}
    return [
        o
        for o in game.legal_options()
        if isinstance(o, RequestOption) and o.player == player and o.action in ids
    ]


@pytest.mark.parametrize("regs", PLAYED, ids=lambda r: r.id)
def test_every_built_in_regulations_actions_check_against_their_editions(regs: Regulations) -> None:
    for edition in regs.editions:
        source = edition_source(edition)
        for fmt in regs.formats:
            for frame in regs.frames:
                try:
                    chosen = parse_regulation(f"{fmt.id}+{frame.id}", regs)
                except CompileError:  # a combination the tables refuse
                    continue
                added, problems = additions(chosen, source)
                assert problems == []
                assert [a.id for a in added.actions] == list(chosen.added)


def test_the_added_actions_are_in_the_rule_set_only_under_the_regulation(regulation: Regulation) -> None:
    edition = regulation.regulations.editions[0]
    plain = compile(edition, regulation.format.id)
    added, _ = additions(regulation, edition_source(edition))
    widened = added.widen(plain)
    ids = set(regulation.added)
    assert ids and not ids & {a.id for a in plain.actions}
    assert ids <= {a.id for a in widened.actions}
    assert {z.id for z in regulation.regulations.zones} <= {z.id for z in widened.edition.core.zones}
    assert all(a.formats == (plain.format.id,) for a in widened.actions if a.id in ids)
    bare = parse_regulation(f"{regulation.format.id}+{regulation.frame.id}", regulation.regulations)
    assert additions(bare, edition_source(edition))[0].widen(plain) == plain


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_pack_is_opened_once_and_then_shown(regulation: Regulation, seed: int) -> None:
    game, setup = game_under(regulation, seed)
    (zone,) = [o.left_out for o in regulation.options if o.left_out]
    me = game.state.turn_player
    pack = list(game.state.players[me].zones[zone])
    assert pack
    for who in (me, 1 - me):  # face down: nobody sees it, both see the count
        (shown,) = [z for z in view(game, who).players[me].zones if z.id == zone]
        assert shown.cards is None and shown.count == len(pack)
    (opening,) = _added_options(game, setup, me)
    hand = len(game.state.players[me].hand)
    game.apply(opening)
    while game.to_move == me and game.state.resolving:  # the pick from the pack
        game.apply(game.legal_options()[0])
    mine = game.state.players[me]
    assert len(mine.hand) == hand + 1 and mine.hand[-1] in pack
    assert mine.zones[zone] == []
    (opened,) = [z for z in mine.zones if z != zone and mine.zones[z]]
    assert sorted(mine.zones[opened]) == sorted(c for c in pack if c != mine.hand[-1])
    (rule,) = [z for z in game.rules.edition.core.zones if z.id == opened]
    assert rule.visibility is Visibility.PUBLIC  # turned face up: the opponent sees it
    (shown,) = [z for z in view(game, 1 - me).players[me].zones if z.id == opened]
    assert shown.cards == tuple(mine.zones[opened])
    assert _added_options(game, setup, me) == []  # opened: its 起動条件 no longer holds
    again = first_refusal(game, parse_command(f"p{me + 1}: {opening}"))
    assert again is not None and again.rule == "requirement"
    action = game.rules.ruleset.action(opening.action)
    assert action.requires is not None
    # the printed 起動条件, or the condition that does not hold
    unmet = f" {notation(action.requires.cond)} holds"
    assert again.message.startswith(f"{action.name} can be requested only when")
    assert (
        again.message.endswith(f": {action.activation_condition}")
        if action.activation_condition
        else unmet in again.message
    )


def test_a_regulations_files_actions_are_checked_at_their_place(tmp_path: Path) -> None:
    """`validate` reads a regulations file's actions against its editions: a zone no one
    declares, an unknown action a frame adds, an edition that does not exist."""
    regs = next(r for r in PLAYED if r.actions and r.frames)
    data = file_data(regs)
    action = next(a for a in data["actions"] if any("move" in step for step in a["program"]))
    step = next(step for step in action["program"] if "move" in step)
    step["move"]["to"] = "nowhere"
    data["editions"].append("v0")
    path = write(tmp_path / "regs.yaml", data)
    result = refused(invoke("validate", path))
    assert "move.to: unknown zone 'nowhere'" in result.stderr
    assert "editions: no edition 'v0' to play them with" in result.stderr
    assert result.stderr.endswith("2 problems found\n") and "Traceback" not in result.output
    owner = next(part for part in ("frames", "options") for entry in data.get(part, ()) if "actions" in entry)
    next(e for e in data[owner] if "actions" in e)["actions"].append("nothing")
    write(path, data)
    result = refused(invoke("validate", path))
    assert f"{path}:" in result.stderr and "actions: no action 'nothing' in actions" in result.stderr


def test_a_requires_that_reads_a_name_is_refused(tmp_path: Path) -> None:
    regs = next(r for r in PLAYED if any(a.requires for a in r.actions))
    data = file_data(regs)
    action = next(a for a in data["actions"] if "requires" in a)
    # `key` is read per key-card way; a target is chosen only with the request
    action["requires"] = {"gt": [{"count": "target"}, 0]}
    path = write(tmp_path / "regs.yaml", data)
    result = refused(invoke("validate", path))
    assert "requires: 'target' names cards of a request, which does not exist yet" in result.stderr
