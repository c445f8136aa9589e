"""Command logs of games under a regulation (`simulate --logs`, `play --log`): the header records
the regulation, the match's seed, the decks played and the deck files (path from the log's folder
and SHA-256, as the rules files are recorded), and `blackpoker replay` plays them again.

Regulations are found in the data by their shape (match form, build), never by name."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from blackpoker.cli.main import main
from blackpoker.compiler.documents.regulation import Frame
from blackpoker.runtime.play.log import REGULATION, ReplayError, replay
from click.testing import CliRunner
from log_support import refused_header
from regulation_support import TABLED, tabled_regulation, two_decks

ROOT = Path(__file__).resolve().parents[1]
DECKS = [ROOT / "examples" / "decks" / name for name in ("spades-hearts.yaml", "clubs-diamonds.yaml")]
EDITION = TABLED.editions[0]


def _built_by_files(frame: Frame) -> bool:
    limit = frame.size or frame.together
    return frame.build == "built" and frame.match.decks == 1 and limit is not None and limit.allows(27)


def _run(*args: str | Path, stdin: str | None = None) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    assert result.exit_code == 0, result.output
    return result.output


def _header(log: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    return data


def test_a_whole_matchs_logs_record_the_regulation_and_replay(tmp_path: Path) -> None:
    regulation = tabled_regulation(two_decks)
    logs = tmp_path / "logs"
    _run("simulate", "--edition", EDITION, "--regulation", regulation, "--match", "-n", "3", "--logs", logs)
    files = sorted(logs.iterdir())
    matches = {f.name.split("-game-")[0] for f in files}
    assert matches == {"match-0000", "match-0001", "match-0002"} and len(files) >= 2 * len(matches)
    headers = [_header(f) for f in files]
    assert {h[REGULATION]["id"] for h in headers} == {regulation}
    seeds = {
        (f.name.split("-game-")[0], h[REGULATION]["match_seed"]) for f, h in zip(files, headers, strict=True)
    }
    assert len(seeds) == len(matches)  # the games of a match share its seed, and so its dealt decks
    assert all(len(h[REGULATION]["decks"]) == 2 and "deck_files" not in h[REGULATION] for h in headers)
    assert "replayed, 0 failed" in _run("replay", logs)


def test_deck_files_are_recorded_by_path_and_hash_and_replayed(tmp_path: Path) -> None:
    regulation = tabled_regulation(_built_by_files)
    decks = tmp_path / "decks"
    decks.mkdir()
    mine = [Path(shutil.copy(d, decks / d.name)) for d in DECKS]
    logs = tmp_path / "logs"
    args = ("--deck", f"p1={mine[0]}", "--deck", f"p2={mine[1]}", "-n", "2", "--logs", logs)
    _run("simulate", "--edition", EDITION, "--regulation", regulation, *args)
    log = logs / "game-0000.jsonl"
    recorded = _header(log)[REGULATION]["deck_files"]
    assert [r["path"] for who in ("p1", "p2") for r in recorded[who]] == [f"../decks/{d.name}" for d in DECKS]
    assert replay(log).state == json.loads(log.read_text(encoding="utf-8").splitlines()[-1])["state"]
    mine[1].write_text(mine[1].read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    with pytest.raises(ReplayError) as raised:
        replay(log)
    problem = raised.value.diagnostic
    assert (
        problem.location.line == 1 and f"deck file ../decks/{mine[1].name} changed since" in problem.message
    )


def test_play_writes_a_log_of_a_regulations_game_that_replays(tmp_path: Path) -> None:
    regulation = tabled_regulation(two_decks)
    log = tmp_path / "game.jsonl"
    _run("play", "--edition", EDITION, "--regulation", regulation, "--seed", "4", "--log", log, stdin="q\n")
    header = _header(log)
    assert header[REGULATION]["id"] == regulation and header[REGULATION]["match_seed"] == 4
    assert replay(log).decisions == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"id": "no+such"}, f"{REGULATION} no+such: "),
        ({"decks": [5, 0]}, "decks [5, 0] are not decks of the players"),
        ({"decks": "x"}, f"'{REGULATION}' must be"),
    ],
)
def test_a_broken_regulation_record_is_located_in_the_header(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    logs = tmp_path / "logs"
    _run(
        "simulate",
        "--edition",
        EDITION,
        "--regulation",
        tabled_regulation(two_decks),
        "-n",
        "1",
        "--logs",
        logs,
    )
    refused_header(
        logs / "game-0000.jsonl", lambda header: header[REGULATION].update(change), REGULATION, message
    )
