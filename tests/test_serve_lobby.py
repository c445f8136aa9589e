"""The lobby's choices over the API (runtime/serve/lobby.py): every edition's formats, the
extra format's lists and the regulations' frames, and the refusals of a wrong choice, each
saying what is wrong and starting no game."""

from __future__ import annotations

from pathlib import Path

import yaml
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.zones import card
from blackpoker.runtime.play.regulation import Dealt
from blackpoker.runtime.play.source import offered_formats
from blackpoker.runtime.serve.replays import ALL, WHO
from blackpoker.runtime.serve.server import Defaults
from editions_support import EDITIONS, environment, formats
from regulation_support import DECKS, built_frame
from serve_support import EXTRA, FOG, Running, game_log, running

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
    regulations = environment().regulations(edition)
    frames = {f["id"]: f for f in shown[edition]["regulations"]["frames"]}
    assert list(frames) == [f.id for f in regulations.frames if f.unplayable is None]
    # a frame whose players bring deck files says how many each brings
    assert built and [f for f in frames if frames[f]["decks"]] == [
        f.id for f in regulations.frames if f.needs_decks and f.id in frames
    ]


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


def test_a_replays_fog_cards_say_what_they_do(server: Running, tmp_path: Path) -> None:
    """A replayed game of the fog's format: the frames name, beside each fog card, what it
    does, as the seat's view (or, in full, its owner's) named it, and the same in every view."""
    edition, played = FOG
    for seed in range(10):
        log = game_log(tmp_path / str(seed), seed, edition, played)
        opened = server.call(
            "POST", "/api/replays", log.read_bytes(), {"Content-Type": "application/x-ndjson"}
        )
        assert opened.status == 201, opened.text
        ident = opened.data["page"].rsplit("/", 1)[1]
        for step in range(opened.data["steps"] + 1):
            frames = {
                who: server.call("GET", f"/api/replay/{ident}?step={step}&who={who}").data for who in WHO
            }
            noted = {
                who: {
                    c["id"]: c.get("note")
                    for p in f["board"]["players"]
                    for z in p["zones"]
                    for c in z["cards"] or ()
                }
                for who, f in frames.items()
            }
            if any(noted[ALL].values()):
                names = {f.name for f in environment().compile(edition, played).fogs}
                assert all(note and note.split(" ")[0] in names for note in noted[ALL].values()), noted
                assert noted["p1"] == noted["p2"] == noted[ALL]  # the fog is public; no face-down target here
                return
    raise AssertionError("no card reached the fog in 10 replayed games")


def test_a_servers_edition_file_is_offered_first_by_its_file_name(tmp_path: Path) -> None:
    edition = EDITIONS[0]
    copy = tmp_path / environment().builtin_path(edition).name
    copy.write_bytes(environment().builtin_path(edition).read_bytes())
    with running(Defaults(str(copy), formats(edition)[0])) as served:
        offered = served.call("GET", "/api/lobby").data["editions"]
        assert [e["id"] for e in offered] == [str(copy), *EDITIONS]
        assert offered[0]["name"] == f"{edition}（{copy.name}）"
        assert [f["id"] for f in offered[0]["formats"]] == formats(edition)
        token = served.new_game(edition=str(copy), format=formats(edition)[-1])["p1"]
        assert served.call("GET", f"/api/seat/{token}").status == 200


def test_a_frame_whose_players_bring_decks_is_played_with_the_uploaded_ones(server: Running) -> None:
    edition, played, frame = built_frame()
    texts = [path.read_text(encoding="utf-8") for path in DECKS[:2]]
    form = {"edition": edition, "format": played, "regulation": frame, "seed": 3}
    token = server.new_game(**form, decks={"p1": [texts[0]], "p2": [texts[1]]})["p1"]
    session = server.session(token)
    match = session.match
    assert match is not None and session.game.seed is not None
    # the game as it was set up, before anyone's move put a card elsewhere
    start = Dealt(match.setup, match.seed, match.chosen).start()
    game = Game.new(session.game.rules, session.game.seed, start=start)
    listed = [yaml.safe_load(text)["cards"] for text in texts]
    for index, player in enumerate(game.state.players):
        held = [*player.hand, *player.life, *player.graveyard, *(c for u in player.field for c in u.cards)]
        assert held and sorted(str(card(c)) for c in held) == sorted(listed[index]), index
    games = len(server.app.seats)
    broken = texts[0].replace("cards: [", "cards: [♠A, ♠A, ", 1)
    for decks, people, said in [
        ({"p1": [texts[0]]}, 1, "--deck: p2"),  # the other player brings none
        ({"p1": [broken], "p2": [texts[1]]}, 1, "p1-deck1.yaml:"),
        ({"p1": "text"}, 1, "decks:"),
        ({"p1": [texts[0]], "p2": [texts[1]]}, 2, "decks:"),  # the sender would know the other's deck
    ]:
        answer = server.post(
            "/api/games", {**form, "decks": decks, "people": people} | ({"seed": None} if people == 2 else {})
        )
        assert answer.status == 400 and said in answer.data["error"], (decks, answer.text)
    assert len(server.app.seats) == games
