"""Command logs of the extra format (`simulate --logs`, `play --log`): the header records the
extra list played — a built-in one by its id, a file by its path from the log's folder and its
SHA-256, as local-rule files are — and `blackpoker replay` plays the games again with it.
Lists are read from the built-in registry, never named here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from bad_input_support import invoke
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.compiler.environment import Environment
from blackpoker.runtime.play.log import ReplayError, replay
from blackpoker.runtime.play.source import EXTRA, EXTRA_FILE, RULES_EXTRA_FILE, sha256
from log_support import refused_header

ENV = Environment()
EDITION = next(e for e in ENV.builtin_editions() if ENV.builtin_extras(e))
LISTS = ENV.builtin_extras(EDITION)
EXTRA_ARGS = ("--edition", EDITION, "--format", EXTRA_FORMAT.id)


def _header(log: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    return data


def _simulate(logs: Path, *args: str | Path) -> list[Path]:
    result = invoke("simulate", *EXTRA_ARGS, *args, "-n", "2", "--seed", "3", "--logs", logs)
    assert result.exit_code == 0, result.output
    return sorted(logs.glob("*.jsonl"))


def _own_list(folder: Path) -> Path:
    """A copy of the oldest built-in list under another id, in `folder`."""
    data = yaml.safe_load(LISTS[-1].read_text(encoding="utf-8"))
    data["id"] = "mine"
    folder.mkdir()
    path = folder / "mine.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("named", [None, LISTS[-1].stem])
def test_a_built_in_list_is_recorded_by_id_and_every_log_replays(tmp_path: Path, named: str | None) -> None:
    logs = _simulate(tmp_path / "logs", *(("--extra", named) if named else ()))
    assert len(logs) == 2
    for log in logs:
        # without --extra, the newest: recorded, so that a newer list does not change the game
        assert _header(log)[EXTRA] == (named or LISTS[0].stem)
        assert replay(log).decisions > 0


def test_a_list_file_is_recorded_by_path_and_hash_and_a_change_is_named(tmp_path: Path) -> None:
    own = _own_list(tmp_path / "lists")
    logs = _simulate(tmp_path / "logs", "--extra", own)
    for log in logs:
        header = _header(log)
        assert (
            header[EXTRA_FILE] == {"path": "../lists/mine.yaml", "sha256": sha256(own)}
            and EXTRA not in header
        )
        assert replay(log).decisions > 0
    data = yaml.safe_load(own.read_text(encoding="utf-8"))
    data["operations"][0]["effect"] += "（変更）"
    own.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(ReplayError, match=r"\(\S*lists/mine.yaml changed since\)"):
        replay(logs[0])
    own.unlink()
    with pytest.raises(
        ReplayError, match=r"extra_file ../lists/mine.yaml \(from the log's folder\) is missing"
    ):
        replay(logs[0])


def test_the_list_file_a_local_rule_names_is_recorded_by_path_and_hash_and_a_change_is_named(
    tmp_path: Path,
) -> None:
    own = _own_list(tmp_path / "lists")
    rules = tmp_path / "house.yaml"
    header = f"kind: overlay\nname: house\nedition: {EDITION}\nbase: {EXTRA_FORMAT.id}\n"
    rules.write_text(f"{header}extra: lists/{own.name}\n", encoding="utf-8")
    result = invoke("simulate", "--rules", rules, "-n", "2", "--seed", "3", "--logs", tmp_path / "logs")
    assert result.exit_code == 0, result.output
    log = sorted((tmp_path / "logs").glob("*.jsonl"))[0]
    assert _header(log)[RULES_EXTRA_FILE] == {"path": "../lists/mine.yaml", "sha256": sha256(own)}
    own.write_text(own.read_text(encoding="utf-8") + "# a comment changes no rule\n", encoding="utf-8")
    assert replay(log).decisions > 0  # as for the local-rule file itself
    data = yaml.safe_load(own.read_text(encoding="utf-8"))
    data["operations"][0]["effect"] += "（変更）"
    own.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(ReplayError, match=r"\(\S*lists/mine.yaml changed since\)") as raised:
        replay(log)
    assert raised.value.diagnostic.location.line == 1
    own.unlink()
    missing = rf"{RULES_EXTRA_FILE} ../lists/mine.yaml \(from the log's folder\) is missing"
    with pytest.raises(ReplayError, match=missing):
        replay(log)


@pytest.mark.parametrize(
    ("value", "message"), [(5, "must be a built-in extra list's id"), ("none", "unknown extra list")]
)
def test_a_broken_extra_record_is_located_in_the_header(tmp_path: Path, value: object, message: str) -> None:
    refused_header(
        _simulate(tmp_path / "logs")[0], lambda header: header.update({EXTRA: value}), EXTRA, message
    )


def test_play_logs_the_extra_list_it_plays(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    named = LISTS[-1].stem
    result = invoke("play", *EXTRA_ARGS, "--extra", named, "--seed", "4", "--log", log, stdin="q\n")
    assert result.exit_code == 0, result.output
    assert _header(log)[EXTRA] == named
    assert replay(log).decisions == 0
