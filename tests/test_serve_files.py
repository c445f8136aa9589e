"""`blackpoker serve` opens no file a client names, and quotes none.

A canary file with a secret (YAML-ish, so that a reader would get far enough to quote it) is
named through every route that takes a name — the new game's edition, format and agent, an
uploaded scenario's `rules`, `edition`, `extra` and deck files, an uploaded log's edition,
extra list and every file record of its header — by absolute and relative paths. Each is
refused; no answer holds the secret, the server's temporary folders or anything that tells
the canary from a file that is not there; and an audit hook sees the server open no path in
the canary's folder."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from blackpoker.cli.rule_set import declared_edition, declared_format
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.runtime.play.log import REGULATION
from blackpoker.runtime.serve.server import Defaults
from regulation_support import TABLED, tabled_regulation, two_decks
from serve_support import EDITION, SMALLEST, Answer, Running, game_log, running

SECRET = "CANARY-4d1f9e-never-to-be-read"
CANARY = f"kind: edition\nid: canary\nname: {SECRET}\nsecret: [{SECRET}]\n"
OPENED: list[str] = []  # paths under WATCHED the process opened or listed while a test watched
WATCHED: list[str] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if WATCHED and event in ("open", "os.listdir", "os.scandir") and args:
        path = os.fsdecode(args[0]) if isinstance(args[0], str | bytes | os.PathLike) else ""
        if path.startswith(WATCHED[0]):
            OPENED.append(path)


sys.addaudithook(_audit)  # a hook cannot be removed: it does nothing unless a test watches


@pytest.fixture
def canary(tmp_path: Path) -> Iterator[Path]:
    """The canary file, in a folder the audit hook watches for the test's length."""
    folder = tmp_path / "secret"
    folder.mkdir()
    path = folder / "secret.yaml"
    path.write_text(CANARY, encoding="utf-8")
    WATCHED[:] = [str(folder)]
    OPENED.clear()
    yield path
    WATCHED.clear()


def _names(canary: Path) -> list[str]:
    """Ways to name the canary: absolute, relative to the upload's folder, bare, and as a file
    that is not there (whose refusal must read the same)."""
    upload_folder = Path(tempfile.gettempdir()) / "x"  # where the server keeps an upload
    relative = os.path.relpath(canary, upload_folder.parent)
    return [str(canary), relative, "../" * 12 + str(canary).lstrip("/"), canary.name]


def _refused_alike(canary: Path, send: Any) -> None:
    """Each name of the canary is refused (4xx) without a word of it, and exactly as a name of a
    missing file beside it is; the server opened nothing there."""
    missing = canary.with_name("missing.yaml")
    for name in _names(canary):
        other = name.replace(canary.name, missing.name)
        answers: list[Answer] = [send(name), send(other)]
        for answer, sent in zip(answers, (name, other), strict=True):
            assert 400 <= answer.status < 500, (sent, answer.status, answer.text)
            text = answer.text.replace(json.dumps(sent)[1:-1], "NAME").replace(sent, "NAME")
            assert SECRET not in answer.text and tempfile.gettempdir() not in text, (sent, answer.text)
        assert answers[0].text.replace(json.dumps(name)[1:-1], "NAME") == answers[1].text.replace(
            json.dumps(other)[1:-1], "NAME"
        ), (answers[0].text, answers[1].text)
    assert OPENED == [], OPENED


def test_a_new_game_names_no_file(server: Running, canary: Path) -> None:
    for key in ("edition", "format", "opponent"):
        _refused_alike(canary, lambda name, key=key: server.post("/api/games", {key: name}))
        if key == "format":  # the file would be the format itself: asked above
            continue
        _refused_alike(
            canary, lambda name, key=key: server.post("/api/games", {key: name, "format": EXTRA_FORMAT.id})
        )


def _scenario(**names: str) -> str:
    lines = [f"{key}: {value}" for key, value in names.items()]
    return "\n".join(
        [
            "kind: scenario",
            "name: names a file",
            *lines,
            "setup: {turn: p1, p1: {life: 3}, p2: {life: 3}}",
            "commands: []",
            "expect: {winner: none}",
            "",
        ]
    )


def test_an_uploaded_scenario_names_no_file(server: Running, canary: Path) -> None:
    def upload(text: str) -> Answer:
        return server.post("/api/games", {"scenario": text})

    _refused_alike(canary, lambda name: upload(_scenario(rules=name)))
    _refused_alike(canary, lambda name: upload(_scenario(edition=name, format=SMALLEST)))
    extra = {"edition": EDITION, "format": EXTRA_FORMAT.id}
    _refused_alike(canary, lambda name: upload(_scenario(**extra, extra=name)))
    regulation = tabled_regulation(two_decks)
    setup = f"setup: {{seed: 3, regulation: {regulation}, deck_files: {{p1: [NAME]}}}}"
    dealt = _scenario(edition=TABLED.editions[0], format=regulation.split("+")[0]).replace(
        "setup: {turn: p1, p1: {life: 3}, p2: {life: 3}}", setup
    )
    _refused_alike(canary, lambda name: upload(dealt.replace("NAME", json.dumps(name))))
    answer = upload(_scenario(rules=str(canary)))
    assert "このサーバーが開くファイルは" in answer.data["error"] and "upload.yaml:3:" in answer.data["error"]


@pytest.fixture(scope="module")
def header_and_body(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], list[str]]:
    lines = game_log(tmp_path_factory.mktemp("log"), seed=5).read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), lines[1:]


def test_an_uploaded_log_names_no_file(
    server: Running, canary: Path, header_and_body: tuple[dict[str, Any], list[str]]
) -> None:
    header, body = header_and_body
    digest = hashlib.sha256(CANARY.encode()).hexdigest()  # the canary's own, as a real record has it

    def upload(**changes: Any) -> Answer:
        text = "\n".join([json.dumps({**header, **changes}, ensure_ascii=False), *body]) + "\n"
        return server.call("POST", "/api/replays", text)

    _refused_alike(canary, lambda name: upload(edition=name))
    _refused_alike(canary, lambda name: upload(extra=name))
    for key in ("edition_file", "rules_file", "rules_extra_file", "extra_file"):
        _refused_alike(canary, lambda name, key=key: upload(**{key: {"path": name, "sha256": digest}}))
    deck = {"path": "NAME", "sha256": digest}
    record = {"id": tabled_regulation(two_decks), "match_seed": 1, "decks": [0, 0]}
    record["deck_files"] = {"p1": [deck]}
    _refused_alike(
        canary,
        lambda name: upload(
            edition=TABLED.editions[0], **{REGULATION: json.loads(json.dumps(record).replace("NAME", name))}
        ),
    )


def test_a_static_path_names_no_file(server: Running, canary: Path) -> None:
    _refused_alike(canary, lambda name: server.call("GET", "/static/app/" + name))


def test_the_servers_own_files_are_the_only_ones_a_client_names(tmp_path: Path) -> None:
    """A server started with a local-rule file plays it, from the lobby and from an exported
    position that names it; a file beside it is refused all the same."""
    rules = Path(__file__).resolve().parents[1] / "examples" / "my-std.yaml"
    copy = tmp_path / rules.name
    copy.write_text(rules.read_text(encoding="utf-8"), encoding="utf-8")
    beside = tmp_path / "beside.yaml"
    beside.write_text(CANARY, encoding="utf-8")
    declared = declared_format(copy, "--rules")
    with running(Defaults(declared_edition(copy, "--rules"), declared, copy)) as local:
        token = local.new_game(seed=3)["p1"]  # a seed whose first position exports
        exported = local.call("GET", f"/api/seat/{token}/scenario").text
        assert f"rules: {copy.resolve()}" in exported
        assert local.post("/api/games", {"scenario": exported}).status == 201
        refused = local.post("/api/games", {"scenario": exported.replace(str(copy.resolve()), str(beside))})
        assert refused.status == 400 and SECRET not in refused.text, refused.text
