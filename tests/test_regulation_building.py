"""Regulations with the building steps of a set-up (デッキ構築, シナリオ構築), named parts
(a hand part beside the cards that fill the hand), a draft, and a recommended first
regulation: checked, printed, played, with an older part name read with a note. Every name
comes from the built-in regulations (the first edition whose regulations have each thing)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml
from bad_input_support import invoke, located
from blackpoker.compiler.documents.regulation import Frame, parse_regulation, regulations_for
from blackpoker.compiler.environment import Environment

ENV = Environment()
BUILT = [(e, r) for e in ENV.builtin_editions() if (r := ENV.edition_regulations(ENV.edition(e)))]
# the newest edition whose regulations name their building steps and recommend a first game
EDITION, PREPARED = next((e, r) for e, r in BUILT if r.preparation and r.recommended)
DRAFT = next(f for f in PREPARED.frames if f.draft is not None)
RENAMED = next(p for p in PREPARED.parts if p.formerly)


def _regulation(frame: Frame) -> str:
    played = frame.formats[0] if frame.formats else PREPARED.formats[-1].id
    return f"{played}+{frame.id}"


def _copy(tmp_path: Path, edit: Any) -> Path:
    """The regulations written out as one file (no edition plays it), changed by `edit`."""
    data = copy.deepcopy(PREPARED.doc.data)
    data["editions"] = []
    edit(data)
    path = tmp_path / "regulations.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _line(path: Path, needle: str, after: int = 0) -> tuple[int, int]:
    lines = path.read_text(encoding="utf-8").splitlines()
    i = next(i for i in range(after, len(lines)) if needle in lines[i])
    return i + 1, lines[i].index(needle) + 1


def test_regulation_check_prints_the_two_building_steps_and_the_parts() -> None:
    assert PREPARED.preparation is not None
    result = invoke("regulation", "check", _regulation(DRAFT), "--edition", EDITION)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    deck, scenario = PREPARED.preparation.deck_building, PREPARED.preparation.scenario_building
    assert any(line.startswith(f"  {deck}: ") for line in lines)
    for part in DRAFT.scenario:
        assert any(line.startswith(f"  {scenario}: {part.part.name} {part.count}枚") for line in lines)
    assert f"  {scenario}: the rest of the hand is {RENAMED.rest}, drawn at the start" in lines
    assert PREPARED.recommended is not None
    first = parse_regulation(PREPARED.recommended.regulation, PREPARED)
    assert any(line.startswith(f"recommended first game: {first.name} ({first.id}): ") for line in lines)


def test_a_draft_s_parts_take_as_many_cards_as_it_drafts() -> None:
    assert DRAFT.draft is not None and sum(p.count for p in DRAFT.scenario) == DRAFT.draft.packs
    assert DRAFT.extra  # its parts lie in the trumps too


def test_an_old_part_name_is_read_with_a_note(tmp_path: Path) -> None:
    old = RENAMED.formerly[0]

    def rename(data: dict[str, Any]) -> None:
        for frame in data["frames"]:
            for part in frame.get("scenario_building", ()):
                if part["part"] == RENAMED.id:
                    part["part"] = old

    path = _copy(tmp_path, rename)
    written = regulations_for(str(path))
    assert [p.part for f in written.frames for p in f.scenario] == [
        p.part for f in PREPARED.frames for p in f.scenario
    ]
    line, col = _line(path, f"part: {old}")
    note = f"{path}:{line}:{col + len('part: ')}: warning: part: '{old}' is the old name of {RENAMED.name}"
    result = invoke("validate", path)
    assert result.exit_code == 0 and note in result.stderr, result.stderr
    checked = invoke("regulation", "check", _regulation(DRAFT), "--edition", path)
    assert checked.exit_code == 0 and note in checked.stderr, checked.stderr


def test_a_draft_whose_parts_do_not_add_up_is_located(tmp_path: Path) -> None:
    def fewer(data: dict[str, Any]) -> None:
        frame = next(f for f in data["frames"] if f["id"] == DRAFT.id)
        frame["draft"]["packs"] -= 1

    path = _copy(tmp_path, fewer)
    start = _line(path, f"id: {DRAFT.id}")[0]
    line, col = _line(path, "packs:", start)
    located(invoke("validate", path), str(path), line, col + len("packs: "), "the parts take")


def test_trumps_are_a_part_only_of_a_frame_with_the_extra_list(tmp_path: Path) -> None:
    def plain(data: dict[str, Any]) -> None:
        next(f for f in data["frames"] if f["id"] == DRAFT.id)["extra"] = False

    path = _copy(tmp_path, plain)
    trumps = next(p for p in DRAFT.scenario if p.part.zone not in ("hand", *(z.id for z in PREPARED.zones)))
    start = _line(path, f"id: {DRAFT.id}")[0]
    line, col = _line(path, f"part: {trumps.part.id}", start)
    located(invoke("validate", path), str(path), line, col + len("part: "), "only a frame with extra")


def test_the_recommended_regulation_is_one_of_the_file_s(tmp_path: Path) -> None:
    def unknown(data: dict[str, Any]) -> None:
        data["recommended"]["regulation"] += "+noSuchOption"

    path = _copy(tmp_path, unknown)
    line, col = _line(path, "regulation: ")
    located(invoke("validate", path), str(path), line, col + len("regulation: "), "recommended: ")


def test_simulate_plays_the_recommended_game_and_the_draft_as_matches() -> None:
    assert PREPARED.recommended is not None
    for text, games in ((PREPARED.recommended.regulation, "30"), (_regulation(DRAFT), "10")):
        result = invoke(
            "simulate", "--edition", EDITION, "--regulation", text, "-n", games, "--match", "--check"
        )
        assert result.exit_code == 0, result.output
        assert f"{games} matches, {games} finished" in result.stdout


def test_a_based_edition_without_regulations_of_its_own_plays_those_it_inherits() -> None:
    for edition in ENV.builtin_editions()[: ENV.builtin_editions().index(EDITION)]:
        assert [f.id for f in ENV.regulations(edition).frames] == [f.id for f in PREPARED.frames]
