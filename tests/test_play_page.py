"""`blackpoker build --play`: the static play page. A whole game against an agent played in
headless Chromium from a plain static file server, with every request the page makes recorded
(none may leave the page's own files); the bundle's Python run alone, with nothing but the
standard library and the bundle on its path (as in Pyodide: no compiler, YAML or jsonschema);
the page's back end answering as the server does, refusals included, and giving the seat no
card outside its view; and a build without the npm package stopped in one line."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from blackpoker.runtime.engine.determinize import named_cards
from blackpoker.runtime.engine.view import view
from blackpoker.runtime.play.roster import PERSON
from blackpoker.runtime.serve.bundle import APP_FILES, BUNDLE, PYODIDE_FILES
from blackpoker.runtime.serve.offline import Table
from editions_support import EDITIONS, environment, formats
from labels_support import english_words
from play_page_support import static_server
from serve_support import card_ids, frame_cards, positions
from site_support import run_cli

EDITION = EDITIONS[0]
SMALLEST = formats(EDITION)[0]
SEED = 5


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    done = run_cli("build", "--html-only", "--edition", EDITION, "--play", "--out", str(out), cwd=out.parent)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def unpacked(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bundle")
    with zipfile.ZipFile(site / "play" / BUNDLE) as bundle:
        bundle.extractall(folder)
    return folder


def test_the_build_writes_the_page_the_app_the_runtime_and_the_bundle(site: Path) -> None:
    play = site / "play"
    assert {p.name for p in (play / "pyodide").iterdir()} == set(PYODIDE_FILES)
    assert {p.name for p in (play / "app").iterdir()} == set(APP_FILES)
    page = (play / "index.html").read_text(encoding="utf-8")
    # relative addresses only: the page works wherever the site is put
    assert 'src="pyodide/pyodide.js"' in page and 'src="app/app.js"' in page and "/static/" not in page
    manifest = json.loads((site / ".blackpoker-site.json").read_text(encoding="utf-8"))
    assert "play/game.zip" in manifest and "play/pyodide/pyodide.asm.wasm" in manifest


def test_the_bundle_runs_with_nothing_but_itself_and_the_standard_library(
    unpacked: Path, tmp_path: Path
) -> None:
    """A game played to its end by the bundle alone (`-I`: no site-packages, no PYTHONPATH),
    and the modules it loaded: none of the compiler's stages, YAML or jsonschema."""
    script = """
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from blackpoker.runtime.serve.offline import Table
table = Table(Path(sys.argv[1]))
lobby = json.loads(table.answer("GET", "/api/lobby", None)[1])
edition = lobby["defaults"]["edition"]
first = next(e for e in lobby["editions"] if e["id"] == edition)["formats"][0]["id"]
form = {"edition": edition, "format": first, "opponent": "search", "seed": 1}
status, made = table.answer("POST", "/api/games", json.dumps(form))
token = json.loads(made)["seats"]["p1"].rsplit("/", 1)[1]
state = json.loads(table.answer("GET", "/api/seat/" + token, None)[1])
while state["menu"]:
    menu = state["menu"]
    path = {"decision": state["decision"], "chosen": menu["chosen"] + [menu["entries"][0]["value"]],
            "auto": menu["auto"] + [False]}
    state = json.loads(table.answer("POST", "/api/seat/" + token + "/choose", json.dumps(path))[1])
log = json.loads(table.answer("GET", "/api/seat/" + token + "/log", None)[1])
remade = json.loads(table.answer("POST", "/api/seat/" + token + "/rematch", "{}")[1])
again = json.loads(table.answer("POST", "/api/seat/" + token + "/rematch", "{}")[1])
fresh = json.loads(table.answer("GET", "/api/seat/" + remade["page"].rsplit("/", 1)[1], None)[1])
fresh = [fresh["board"]["result"], bool(fresh["menu"])]
files = {m: getattr(sys.modules[m], "__file__", None) for m in ("lark", "blackpoker.runtime.engine.game")}
print(json.dumps({"result": state["board"]["result"], "modules": sorted(sys.modules), "files": files,
                  "log": log, "rematch": [remade, again], "fresh": fresh}))
"""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    run = subprocess.run(
        [sys.executable, "-I", "-c", script, str(unpacked)],
        cwd=unpacked,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["result"] is not None
    roots = {m.split(".")[0] for m in found["modules"]}
    assert not roots & {"yaml", "jsonschema", "referencing", "jinja2", "click"}
    compiler = [m for m in found["modules"] if m.startswith("blackpoker.compiler.")]
    assert compiler == ["blackpoker.compiler.paths"]
    assert not [m for m in found["modules"] if m.startswith("blackpoker.runtime.scenario")]
    assert all(Path(file).is_relative_to(unpacked) for file in found["files"].values()), found["files"]
    # the game's end: its command log (the bundle writes it, with no compiler), which
    # `blackpoker replay` plays again to the same end, and a rematch by the next seed, made once
    (tmp_path / "game.jsonl").write_text(found["log"], encoding="utf-8")
    header = json.loads(found["log"].splitlines()[0])
    assert header["seed"] == 1 and header["agents"][0] == PERSON
    replayed = run_cli("replay", "game.jsonl", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    remade, again = found["rematch"]
    assert remade == again and remade["page"].startswith("#play/") and "シード2" in remade["title"]
    assert found["fresh"] == [None, True]  # a new game, waiting for the person


def test_the_page_back_end_answers_as_the_server_does(unpacked: Path) -> None:
    table = Table(unpacked, random.Random(1))

    def answer(method: str, path: str, data: Any = None) -> tuple[int, Any]:
        status, text = table.answer(method, path, None if data is None else json.dumps(data))
        return status, json.loads(text)

    status, lobby = answer("GET", "/api/lobby")
    offered = {e["id"]: [f["id"] for f in e["formats"]] for e in lobby["editions"]}
    assert status == 200 and offered[EDITION][0] == SMALLEST
    assert lobby["agents"] == ["random", "greedy", "search"]
    form = {"edition": EDITION, "format": SMALLEST, "opponent": "greedy"}
    for bad, field in (
        ({"format": "nonesuch"}, "edition, format"),
        ({"opponent": "first"}, "opponent"),
        ({"opponent": "search:5000"}, "opponent"),
        ({"people": 2}, "people"),
        ({"seat": "p3"}, "seat"),
        ({"seed": -1}, "seed"),
    ):
        status, refused = answer("POST", "/api/games", form | bad)
        assert status == 400 and refused["error"].startswith(field), refused
    status, made = answer("POST", "/api/games", form | {"seat": "p2", "seed": 3})
    assert status == 200 and list(made["seats"]) == ["p2"]
    token = made["seats"]["p2"].rsplit("/", 1)[1]
    status, state = answer("GET", f"/api/seat/{token}")
    assert status == 200 and state["seat"] == "p2" and state["board"]["players"][0]["hand"] is None
    # the trump table, asked once by the page (none outside the extra format), never in a state
    assert answer("GET", f"/api/seat/{token}/trumps") == (200, {"trumps": []})
    assert "trumps" not in state["board"]
    assert answer("GET", f"/api/seat/{token}/scenario")[0] == 409  # no YAML writer in the page
    assert answer("POST", f"/api/seat/{token}/command", {"decision": state["decision"]})[0] == 400
    assert answer("POST", f"/api/seat/{token}/choose", "not a path")[0] == 400
    assert answer("GET", "/api/seat/unknown-token")[0] == 404
    assert answer("POST", "/api/replays", {})[0] == 404
    assert answer("POST", f"/api/seat/{token}/rematch", {})[0] == 409  # not over yet
    assert answer("GET", f"/api/seat/{token}/log")[0] == 409


def test_the_page_back_end_gives_the_seat_no_card_outside_its_view(unpacked: Path) -> None:
    """The static page's answers (its state, each step's, the trump table) as the server's
    secrecy test checks them: every card they carry, a playback board's at its own position,
    is one the seat sees there or its options name."""
    table = Table(unpacked, random.Random(2))

    def answer(method: str, path: str, data: Any = None) -> Any:
        status, text = table.answer(method, path, None if data is None else json.dumps(data))
        assert status == 200, text
        return json.loads(text)

    made = answer("POST", "/api/games", {"edition": EDITION, "format": formats(EDITION)[-1]})
    token = made["seats"]["p1"].rsplit("/", 1)[1]
    game = table.seats[token].game
    assert not card_ids(answer("GET", f"/api/seat/{token}/trumps"))
    rng = random.Random(3)
    kept = []
    for _ in range(200):
        state = answer("GET", f"/api/seat/{token}")
        kept.append(state)
        menu = state["menu"]
        if menu is None:
            break
        chosen = [*menu["chosen"], rng.choice(menu["entries"])["value"]]
        path = {"decision": state["decision"], "chosen": chosen, "auto": [*menu["auto"], False]}
        kept.append(answer("POST", f"/api/seat/{token}/choose", path))
    at = positions(game)  # the game's positions, replayed from its seed and decisions

    def outside(cards: set[int], decision: int, seat: int = 0) -> set[int]:
        seen = view(at[decision], seat)
        return cards - seen.visible_cards() - named_cards(seen.options)

    own = frames = 0
    for state in kept:
        assert not outside(card_ids(state), state["decision"]), state["decision"]
        for decision, cards in frame_cards(state):
            assert not outside(cards, decision), decision
            frames += 1
        own += bool(outside(card_ids(state), state["decision"], seat=1))
    assert frames  # the agent's decisions were played back
    assert own  # the check can fail: the seat's answers carry cards the other seat does not see


def test_a_build_without_the_npm_package_stops_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "site"
    asked = ("build", "--html-only", "--play", "--pyodide", str(tmp_path), "--out", str(out))
    done = run_cli(*asked, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "npm install pyodide@" in done.stderr
    assert "Traceback" not in done.stderr and not out.exists()


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_a_whole_game_is_played_on_the_static_page_with_no_request_outside_it(
    site: Path, chromium: Any, viewport: dict[str, int]
) -> None:
    context = chromium.new_context(viewport=viewport)
    page = context.new_page()
    requests: list[str] = []
    problems: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"exception: {e}"))
    try:
        with static_server(site) as origin:
            page.goto(f"{origin}/index.html")  # the site's index leads to the page
            page.click("a[href='play/index.html']")
            page.wait_for_selector("select[name=format] option", state="attached", timeout=120_000)
            page.select_option("select[name=edition]", EDITION)
            page.select_option("select[name=format]", SMALLEST)
            page.select_option("select[name=opponent]", "random")
            page.fill("input[name=seed]", str(SEED))
            page.click("#new-game button[type=submit]")
            page.wait_for_selector(".entry")
            assert page.locator("main.lobby").is_hidden()
            rng = random.Random(SEED)
            for _ in range(3000):
                if page.locator(".result").count():
                    break
                entries = page.locator(".entry")
                chosen = entries.nth(rng.randrange(entries.count()))
                shown = chosen.element_handle()
                chosen.click()
                page.wait_for_function("(entry) => !entry.isConnected", arg=shown)  # the menu drawn anew
            assert page.locator(".result").count() == 1
            assert page.locator("#log li").count() > 20
            title = page.locator("#title").inner_text()  # the format by its printed name, not its id
            name = environment().compile(EDITION, SMALLEST).format.name
            assert f"{EDITION} {name}" in title and english_words(title) == [], title
            # the end's tools: the log saved as a download (no replay viewer on the page), and
            # a rematch by the next seed in the same page
            assert page.locator("button.watch-log").count() == 0
            with page.expect_download() as saved:
                page.click("button.save-log")
            header = json.loads(Path(saved.value.path()).read_text(encoding="utf-8").splitlines()[0])
            assert header["seed"] == SEED and header["format"] == SMALLEST
            page.click("button.rematch")
            next_seed = f"シード{SEED + 1}"
            page.wait_for_function(
                "(seed) => document.querySelector('#title').textContent.includes(seed)", arg=next_seed
            )
            page.wait_for_selector(".entry")
            assert page.locator(".result").count() == 0
    finally:
        context.close()
    assert problems == []
    own = f"{origin}/play/"
    assert requests and [r for r in requests if not r.startswith(f"{origin}/")] == []
    manifest = json.loads((site / ".blackpoker-site.json").read_text(encoding="utf-8"))
    assert {r.removeprefix(f"{origin}/") for r in requests} <= set(manifest)  # the site's files only
    assert {r.removeprefix(own) for r in requests if r.startswith(own)} <= {
        "index.html",
        BUNDLE,
        *(f"app/{name}" for name in APP_FILES),
        *(f"pyodide/{name}" for name in PYODIDE_FILES),
    }
