"""`blackpoker serve` over real HTTP: play against an agent, two seats, positions as scenario
files, replays of command logs, and every kind of bad input refused with a JSON 4xx and no
change to the game."""

from __future__ import annotations

import json
import random
import socket
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from blackpoker.cli.main import main
from blackpoker.cli.rule_set import declared_edition, declared_format
from blackpoker.runtime.engine.options import RequestOption
from blackpoker.runtime.engine.refs import result_name
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.chronicle import said
from blackpoker.runtime.play.labels import labels
from blackpoker.runtime.play.log import replay
from blackpoker.runtime.rules.model import Limit
from blackpoker.runtime.serve.server import MAX_BODY, Defaults
from click.testing import CliRunner
from serve_support import EDITION, SMALLEST, Running, card_ids, game_log, hidden_cards, positions, running

SEED = 3


def _play_out(server: Running, token: str, rng: random.Random, most: int = 2000) -> dict[str, Any]:
    """Choose random entries (and sometimes go back) until the game is over."""
    state = server.call("GET", f"/api/seat/{token}").data
    for _ in range(most):
        menu = state["menu"]
        if menu is None:
            return state
        path = {"decision": state["decision"], "chosen": menu["chosen"], "auto": menu["auto"]}
        if menu["can_back"] and rng.random() < 0.1:
            answer = server.post(f"/api/seat/{token}/back", path)
        else:
            value = rng.choice(menu["entries"])["value"]
            path = {**path, "chosen": [*menu["chosen"], value], "auto": [*menu["auto"], False]}
            answer = server.post(f"/api/seat/{token}/choose", path)
        assert answer.status == 200, answer.text
        state = answer.data
    raise AssertionError("the game did not end")


def test_a_whole_game_against_an_agent_is_played_through_the_api(server: Running) -> None:
    token = server.new_game(seed=SEED, opponent="random")["p1"]
    state = _play_out(server, token, random.Random(1))
    game = server.session(token).game
    assert game.over and game.result is not None and state["board"]["result"] == result_name(game.result)
    assert state["decision"] == game.decisions and state["log"], state["log"][-3:]
    _refused(server.call("GET", f"/api/seat/{token}/scenario"), 409, "a result")  # a scenario cannot write it


def test_the_page_and_its_assets_are_served_from_the_package(server: Running) -> None:
    page = server.call("GET", "/")
    assert page.status == 200 and page.kind.startswith("text/html"), page.status
    for asset in ("/static/app/app.js", "/static/app/backend_server.js", "/static/app/app.css"):
        assert f'"{asset}"' in page.text, asset
        answer = server.call("GET", asset)
        shipped = resources.files("blackpoker.runtime.serve").joinpath("app", asset.rsplit("/", 1)[1])
        assert answer.status == 200 and answer.text == shipped.read_text(encoding="utf-8"), asset
    assert "http" not in page.text.replace("http-equiv", ""), "no address off this server"
    token = server.new_game(seed=SEED)["p1"]
    assert server.call("GET", f"/play/{token}").status == 200


def _tampered(log: Path) -> str:
    lines = log.read_text(encoding="utf-8").splitlines()
    number = next(n for n, line in enumerate(lines) if '"decision"' in line and n > 2)
    data = json.loads(lines[number])
    data["index"] += 1
    lines[number] = json.dumps(data, ensure_ascii=False)
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return game_log(tmp_path_factory.mktemp("logs"), seed=5)


def test_a_replay_steps_forward_and_back_with_each_view(server: Running, log: Path) -> None:
    opened = server.call("POST", "/api/replays", log.read_bytes())
    assert opened.status == 201, opened.text
    ident, steps = opened.data["page"].rsplit("/", 1)[1], opened.data["steps"]
    decisions = sum('"decision"' in line for line in log.read_text(encoding="utf-8").splitlines())
    assert steps == decisions
    last = server.call("GET", f"/api/replay/{ident}?step={steps}&who=all").data
    end = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert last["board"]["result"] == end["result"]
    first = server.call("GET", f"/api/replay/{ident}?step=0&who=p1").data
    assert len(first["log"]) < len(last["log"])
    full = server.call("GET", f"/api/replay/{ident}?step=1&who=all").data["board"]["players"]
    mine = server.call("GET", f"/api/replay/{ident}?step=1&who=p1").data["board"]["players"]
    assert mine[1]["hand"] is None and full[1]["hand"] is not None and "life_cards" in full[0]
    assert [len(p["life_cards"]) for p in full] == [p["life"] for p in full]  # each as its owner counts
    # every position, kept or played on from a keyframe, is the logged game's
    frames: list[list[list[int]]] = []
    replay(log, watch=lambda game, _: frames.append([p.life + p.hand for p in game.state.players]))
    for step in (0, 1, 15, 16, 17, 40, steps):
        shown = server.call("GET", f"/api/replay/{ident}?step={step}&who=all").data["board"]["players"]
        assert [[c["id"] for c in p["life_cards"] + p["hand"]] for p in shown] == frames[step], step


def _refused(answer: Any, status: int, words: str) -> None:
    assert answer.status == status, (answer.status, answer.text)
    assert answer.kind.startswith("application/json"), answer.kind
    message = answer.data["error"]
    assert words in message and "Traceback" not in answer.text, message


def test_bad_input_gets_a_json_4xx_and_changes_nothing(server: Running, log: Path) -> None:
    token = server.new_game(seed=SEED)["p1"]
    game = server.session(token).game
    before = (game.state_hash(), game.decisions)
    state = server.call("GET", f"/api/seat/{token}").data
    good = {"decision": state["decision"], "chosen": [], "auto": []}
    json_body = {"Content-Type": "application/json"}
    _refused(server.call("POST", f"/api/seat/{token}/choose", "{not json", json_body), 400, "not a JSON body")
    _refused(
        server.call("POST", f"/api/seat/{token}/choose", "[1, 2]", json_body), 400, "expected a JSON object"
    )
    _refused(
        server.post(f"/api/seat/{token}/choose", {**good, "chosen": ["no such action"], "auto": [False]}),
        400,
        "いま選べない選択です",
    )
    _refused(
        server.post(f"/api/seat/{token}/choose", {**good, "chosen": [1], "auto": [False]}), 400, "chosen"
    )
    _refused(
        server.post(f"/api/seat/{token}/choose", {**good, "decision": good["decision"] - 1}),
        409,
        "ゲームが進みました",
    )
    _refused(server.post(f"/api/seat/{token}/back", good), 409, "いまが最初の段階です")
    command = f"/api/seat/{token}/command"
    _refused(server.post(command, {"decision": good["decision"], "text": "p2: pass"}), 400, "できません: p2")
    _refused(
        server.post(command, {"decision": good["decision"], "text": "★★★"}), 400, "コマンドでもありません"
    )
    _refused(
        server.post(command, {"decision": good["decision"] + 1, "text": "pass"}), 409, "ゲームが進みました"
    )
    _refused(server.post(command, {"text": "pass"}), 400, "{decision, text}")
    _refused(server.post("/api/seat/not-a-seat/choose", good), 404, "no such seat")
    _refused(server.call("GET", "/api/seat/not-a-seat"), 404, "no such seat")
    _refused(server.call("GET", "/play/not-a-seat"), 404, "no such seat")
    _refused(server.call("GET", "/no/such/page"), 404, "no such page")
    _refused(server.call("GET", "/static/app/../../render.py"), 404, "no such page")
    _refused(server.post("/api/nothing", {}), 404, "no such API")
    _refused(server.call("DELETE", f"/api/seat/{token}"), 405, "not supported")
    _refused(server.post("/api/games", {"opponent": "nobody"}), 400, "opponent")
    _refused(server.post("/api/games", {"format": "no-such-format"}), 400, "no-such-format")
    _refused(server.post("/api/games", {"seed": -1}), 400, "seed")
    _refused(server.post("/api/games", {"scenario": "kind: scenario\nname: [\n"}), 400, "upload.yaml:")
    _refused(server.call("POST", "/api/replays", _tampered(log)), 400, "upload.jsonl:")
    _refused(server.call("POST", "/api/replays", "garbage\n"), 400, "upload.jsonl:1:")
    _refused(server.call("GET", "/api/replay/nothing?step=0"), 404, "no such replay")
    big = {"Content-Length": str(MAX_BODY + 1), "Content-Type": "application/json"}
    _refused(server.call("POST", "/api/games", b"{}", big), 413, "more than")
    assert (game.state_hash(), game.decisions) == before
    assert server.app.replays == {} or all("upload" not in k for k in server.app.replays)


def test_a_command_in_the_notation_is_played(server: Running) -> None:
    token = server.new_game(seed=SEED)["p1"]
    state = server.call("GET", f"/api/seat/{token}").data
    assert any(e["value"] == "pass" for e in state["menu"]["entries"])
    answer = server.post(f"/api/seat/{token}/command", {"decision": state["decision"], "text": "pass"})
    assert answer.status == 200 and answer.data["decision"] > state["decision"], answer.text
    assert "p1: パス" in answer.data["log"]


@pytest.mark.parametrize(
    ("line", "status"),
    [(b"GARBAGE", 400), (b"GET / HTTP/1.x", 400), (b"GET / HTTP/9.9", 400), (b"BREW / HTTP/1.1", 405)],
)
def test_a_malformed_request_line_gets_json_too(server: Running, line: bytes, status: int) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as connection:
        connection.sendall(line + b"\r\n\r\n")
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
    head, _, body = reply.decode().partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 ") and head.split()[1] == str(status), head
    assert "application/json" in head and json.loads(body)["error"], reply


def test_a_position_exports_as_a_scenario_that_passes_and_starts_a_game(
    server: Running, tmp_path: Path
) -> None:
    token = server.new_game(seed=SEED)["p1"]
    answer = server.call("GET", f"/api/seat/{token}/scenario")
    assert answer.status == 200 and answer.kind.startswith("application/yaml"), answer.text
    game = server.session(token).game
    path = tmp_path / "position.yaml"
    path.write_text(answer.text, encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", str(path)])
    assert result.exit_code == 0 and "1 passed, 0 failed" in result.output, result.output
    again = server.new_game(scenario=answer.text)["p1"]
    # the exporter sees the same board (by label: the unknown cards are dealt anew)
    boards = [server.call("GET", f"/api/seat/{t}").data["board"] for t in (token, again)]
    assert _labels(boards[0]) == _labels(boards[1]) and boards[1]["players"][0]["hand"]
    started = server.session(again).game.state
    for zone in ("hand", "life", "graveyard"):
        assert [len(getattr(p, zone)) for p in started.players] == [
            len(getattr(p, zone)) for p in game.state.players
        ], zone
    assert list(map(label, started.players[0].hand)) == list(map(label, game.state.players[0].hand))
    assert started.players[1].hand != game.state.players[1].hand  # dealt anew: ids of a 54-card deck


def _labels(data: Any) -> Any:
    """A JSON answer with each card object as its label only."""
    if isinstance(data, dict):
        return (
            data["label"]
            if {"id", "label", "suit"} <= data.keys()
            else {k: _labels(v) for k, v in data.items()}
        )
    return [_labels(v) for v in data] if isinstance(data, list) else data


def test_an_exported_position_keeps_the_once_per_turn_record(server: Running, tmp_path: Path) -> None:
    token = server.new_game(seed=SEED)["p1"]
    game = server.session(token).game
    once = [a for a in game.rules.actions if Limit.ONCE_PER_TURN in a.limits]
    assert once, "the format has no once-per-turn action"
    game.state.players[0].used[once[0].id] = 1
    answer = server.call("GET", f"/api/seat/{token}/scenario")
    assert answer.status == 200, answer.text
    path = tmp_path / "position.yaml"
    path.write_text(answer.text, encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", str(path)])  # its expect checks `used`
    assert result.exit_code == 0 and "1 passed, 0 failed" in result.output, result.output
    again = server.new_game(scenario=answer.text)["p1"]
    assert server.session(again).game.state.players[0].used == {once[0].id: 1}


def test_a_game_between_two_people_sends_each_seat_only_its_view(server: Running) -> None:
    two_seeded = server.post("/api/games", {"people": 2, "seed": SEED})
    _refused(two_seeded, 400, "二人対戦ではシードを指定できません")
    seats = server.new_game(people=2)
    game = server.session(seats["p1"]).game
    rng = random.Random(2)
    seen: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
    for _ in range(60):
        states = {i: server.call("GET", f"/api/seat/{seats[p]}").data for i, p in enumerate(("p1", "p2"))}
        for i, state in states.items():
            seen[i].append(state)
        mover = next((i for i, s in states.items() if s["menu"]), None)
        if mover is None:
            break
        menu = states[mover]["menu"]
        value = rng.choice(menu["entries"])["value"]
        path = {
            "decision": states[mover]["decision"],
            "chosen": [*menu["chosen"], value],
            "auto": [*menu["auto"], False],
        }
        answer = server.post(f"/api/seat/{seats[('p1', 'p2')[mover]]}/choose", path)
        seen[mover].append(answer.data)
        other = ("p1", "p2")[1 - mover]
        if answer.data["to_move"] != other:  # a seat may not choose when the other decides
            refused = server.post(
                f"/api/seat/{seats[other]}/choose", {**path, "decision": answer.data["decision"]}
            )
            assert refused.status == 409 and "あなたの決定ではありません" in refused.text, refused.text
    at = positions(game)
    for me in (0, 1):
        for state in seen[me]:
            leaked = card_ids(state) & hidden_cards(at[state["decision"]], 1 - me)
            assert not leaked, (me, state["decision"], leaked)
    # the check can fail: a seat's own answers carry its own hidden cards
    assert any(card_ids(s) & hidden_cards(at[s["decision"]], 0) for s in seen[0])


def test_an_opponents_decision_naming_a_card_not_seen_is_said_by_its_word() -> None:
    paid = RequestOption(1, "action", "アクション", keys=(60,), payment=(("B", 70),))
    words = labels()
    assert said(words, paid, {60, 70}) == str(paid) and "♢" not in said(words, paid, {60})
    assert said(words, paid, {60}) == "アクション（非公開のカード）"
    assert said(words, paid) == str(paid)  # the person's own decision is said whole


def test_serve_refuses_a_port_in_use_and_wrong_rules() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            main, ["serve", "--port", str(port), "--edition", EDITION, "--format", SMALLEST]
        )
    assert result.exit_code == 1 and f"--port: cannot listen on 127.0.0.1:{port}" in result.output, (
        result.output
    )
    result = CliRunner().invoke(main, ["serve", "--format", "no-such-format"])
    assert result.exit_code == 1 and "no-such-format" in result.output, result.output


def test_a_server_started_with_local_rules_plays_them_and_exports_them(tmp_path: Path) -> None:
    rules = Path(__file__).resolve().parents[1] / "examples" / "my-std.yaml"
    declared = declared_format(rules, "--rules")
    with running(Defaults(declared_edition(rules, "--rules"), declared, rules)) as local:
        assert local.call("GET", "/api/lobby").data["rules"] == rules.name
        token = local.new_game(seed=SEED)["p1"]
        assert local.session(token).game.rules.format.id == declared
        exported = local.call("GET", f"/api/seat/{token}/scenario").text
        again = local.new_game(scenario=exported)["p1"]  # the export starts a game, which exports alike
        assert local.session(again).game.rules.format.id == declared
        assert local.call("GET", f"/api/seat/{again}/scenario").text.count(f"rules: {rules}") == 1
    path = tmp_path / "position.yaml"
    path.write_text(exported, encoding="utf-8")
    assert f"rules: {rules}" in exported
    result = CliRunner().invoke(main, ["scenario", "run", str(path)])
    assert result.exit_code == 0 and "1 passed" in result.output, result.output
