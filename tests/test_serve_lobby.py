"""The lobby's choices over the API (runtime/serve/lobby.py): every edition's formats, the
extra format's lists and the regulations' frames, and the refusals of a wrong choice, each
saying what is wrong and starting no game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.runtime.play.source import offered_formats
from editions_support import EDITIONS, environment, formats
from serve_support import Running, running

EXTRA = next(e for e in EDITIONS if environment().builtin_extras(e))
LIST = environment().builtin_extras(EXTRA)[0].stem


def _regulated() -> tuple[str, str, list[str]]:
    """An edition with regulations whose frames need deck files and whose options exist:
    edition, the first frame needing decks (or ""), the options' ids."""
    for edition in EDITIONS:
        try:
            regulations = environment().regulations(edition)
        except Exception:  # no regulations name it
            continue
        if regulations.options:
            built = next((f.id for f in regulations.frames if f.needs_decks), "")
            return edition, built, [o.id for o in regulations.options]
    raise AssertionError("no edition's regulations have options")


@pytest.fixture(scope="module")
def server() -> Iterator[Running]:
    with running() as found:
        yield found


def test_the_lobby_lists_what_the_terminal_plays(server: Running) -> None:
    lobby = server.call("GET", "/api/lobby").data
    assert [e["id"] for e in lobby["editions"]] == list(EDITIONS)
    for edition in lobby["editions"]:
        offered = offered_formats(environment(), edition["id"])
        assert [f["id"] for f in edition["formats"]] == [f.id for f in offered]
        assert [f["name"] for f in edition["formats"]] == [f.name for f in offered]
        assert edition["extras"] == [p.stem for p in environment().builtin_extras(edition["id"])]
        assert (edition["extra_format"] == EXTRA_FORMAT.id) == bool(edition["extras"])
    shown = {e["id"]: e for e in lobby["editions"]}
    edition, built, _ = _regulated()
    frames = [f["id"] for f in shown[edition]["regulations"]["frames"]]
    assert frames and built not in frames  # a frame whose players bring deck files is not offered


def test_a_wrong_choice_is_refused_with_what_is_wrong(server: Running) -> None:
    edition, built, options = _regulated()
    smallest = formats(edition)[0]
    games = len(server.app.seats)
    cases = [
        ({"edition": edition, "format": smallest, "regulation": "nonesuch"}, "regulation:1:"),
        ({"edition": edition, "format": smallest, "regulation": 7}, "regulation"),
        ({"edition": edition, "format": smallest, "regulation": "  "}, "regulation"),
        ({"edition": EXTRA, "format": EXTRA_FORMAT.id, "extra": "nonesuch"}, "extra"),
        ({"edition": EXTRA, "format": formats(EXTRA)[0], "extra": LIST}, "extra"),  # not the extra format
        (
            {"edition": edition, "format": smallest, "regulation": f"{options[0]}+{options[0]}"},
            "regulation:1:",
        ),
    ]
    if built:
        cases.append(({"edition": edition, "format": smallest, "regulation": built}, "--deck"))
    for form, said in cases:
        answer = server.post("/api/games", form)
        assert answer.status == 400 and said in answer.data["error"], (form, answer.text)
    assert len(server.app.seats) == games  # no game was started


def test_a_regulations_game_is_played_and_its_position_not_exported(server: Running) -> None:
    lobby = server.call("GET", "/api/lobby").data
    edition = next(e for e in lobby["editions"] if e["regulations"] and e["regulations"]["frames"])
    frame = edition["regulations"]["frames"][0]
    played = (frame["formats"] or [edition["formats"][0]["id"]])[0]
    token = server.new_game(edition=edition["id"], format=played, regulation=frame["id"], seed=3)["p1"]
    state = server.call("GET", f"/api/seat/{token}").data
    assert frame["name"] in state["title"]
    refused = server.call("GET", f"/api/seat/{token}/scenario")
    assert refused.status == 409 and frame["name"] in refused.data["error"]
