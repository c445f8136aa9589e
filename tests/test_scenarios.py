"""The ruling scenarios pass, and the runner reports failures and broken files plainly."""

from __future__ import annotations

from pathlib import Path

import yaml
from blackpoker.cli.main import main
from blackpoker.compiler.documents.extra import EXTRA_FORMAT
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.pipeline import edition_source
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
ENV = Environment()


LIFE_LISTS = ("p1: {life: [", "p2: {life: [")  # a player's position on one line, life listed first


def _won(path: Path) -> bool:
    """A scenario that ends in a win, with a one-line life list and a first command that aims."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    lines = path.read_text(encoding="utf-8").splitlines()
    first = data["commands"][0]
    return (
        data["expect"].get("winner") in ("p1", "p2")
        and isinstance(first, str)
        and " → " in first
        and any(line.lstrip().startswith(LIFE_LISTS) for line in lines)
    )


# a shipped scenario won by one player: the runner's reports are checked on copies of it
GOOD = next(path for path in sorted(SCENARIOS.glob("*/*.yaml")) if _won(path))


def test_all_shipped_scenarios_pass() -> None:
    files = list(SCENARIOS.glob("*/*.yaml"))
    written = (yaml.safe_load(f.read_text(encoding="utf-8")) for f in files)
    # a scenario of a local rule (`rules:`) belongs to no edition's suite
    suites = {(data["edition"], data["format"]) for data in written if "rules" not in data}
    formats = {e: {(e, f.id) for f in edition_source(e).edition.formats} for e, _ in suites}
    # an edition with extra lists also plays the extra format
    extras = {(e, EXTRA_FORMAT.id) for e, _ in suites if ENV.extras(e)}
    assert suites <= set().union(*formats.values(), extras)  # each names a format of its edition
    assert any(wanted <= suites for wanted in formats.values())  # some edition has a suite per format
    result = CliRunner().invoke(main, ["scenario", "run", str(SCENARIOS)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == f"{len(files)} passed, 0 failed"


def test_each_action_of_every_format_has_a_scenario_in_its_suite() -> None:
    """Every action a format adds to the one before it is named in a scenario of that format,
    for each edition written in full that the scenarios are written for (formats and their
    order are its data); a based edition's suite names every action its file adds or changes
    (the others are its base's, played by its base's suite)."""
    suites: dict[tuple[str, str], str] = {}
    for path in SCENARIOS.glob("**/*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "rules" in data:
            continue
        key = (data["edition"], data["format"])
        suites[key] = suites.get(key, "") + path.read_text(encoding="utf-8")
    editions = {edition for edition, _ in suites}
    assert editions
    for edition in editions:
        source = edition_source(edition)
        written = yaml.safe_load(ENV.builtin_path(edition).read_text(encoding="utf-8"))
        if "base" in written:
            edits = written.get("actions", {})
            own = {*edits.get("change", {}), *(a["id"] for a in edits.get("add", ()))}
            suite = "".join(text for (e, _), text in suites.items() if e == edition)
            missing = [a.name for a in source.actions if a.id in own and f": {a.name}" not in suite]
            assert not missing, (edition, missing)
            continue
        for fmt in source.edition.formats[1:]:
            debut = [a.name for a in source.actions if a.formats[:1] == (fmt.id,)]
            missing = [name for name in debut if f": {name} " not in suites.get((edition, fmt.id), "")]
            assert debut and not missing, (edition, fmt.id, missing)


def _copy(folder: Path, text: str) -> Path:
    """The scenario text, written under the shipped file's name."""
    path = folder / GOOD.name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_wrong_expectation_fails_with_a_diff(tmp_path: Path) -> None:
    text = GOOD.read_text(encoding="utf-8")
    winner = yaml.safe_load(text)["expect"]["winner"]
    loser = {"p1": "p2", "p2": "p1"}[winner]
    _copy(tmp_path, text.replace(f"winner: {winner}", f"winner: {loser}"))
    result = CliRunner().invoke(main, ["scenario", "run", str(tmp_path)])
    assert result.exit_code == 1
    assert f"winner: expected {loser}, got {winner}" in result.output
    assert result.output.splitlines()[-1] == "0 passed, 1 failed"


def test_broken_files_report_every_problem_located(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Two problems at once: a command that does not parse and a card placed twice."""
    monkeypatch.chdir(tmp_path)
    lines = GOOD.read_text(encoding="utf-8").splitlines()
    command = yaml.safe_load("\n".join(lines))["commands"][0]
    at = next(i for i, line in enumerate(lines) if command in line)
    lines[at] = lines[at].replace(command, f"{command} ??")
    placed = next(
        i for i, line in enumerate(lines) if line.lstrip().startswith(("p1: {life: [", "p2: {life: ["))
    )
    player, card = (
        lines[placed].split(":")[0].strip(),
        lines[placed].split("[")[1].split(",")[0].split("]")[0],
    )
    twice = lines[placed].index("[") + 1 + len(card) + 2
    lines[placed] = lines[placed].replace(f"[{card}", f"[{card}, {card}", 1)
    _copy(tmp_path, "\n".join(lines) + "\n")
    result = CliRunner().invoke(main, ["scenario", "run", GOOD.name])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    column = lines[at].index("??") + 1
    assert f"{GOOD.name}:{at + 1}:{column}: command '{command} ??': unexpected '?'" in result.stderr
    assert "    ^" in result.stderr
    assert f"{GOOD.name}:{placed + 1}:{twice + 1}: {player} has no {card} left to place" in result.stderr


def test_each_playable_extra_action_has_a_scenario_in_the_extra_suite() -> None:
    """Every action of an extra list's rule set that its base format lacks (the trump
    operations and each trump action with a program) is named in a scenario playing the list,
    for each built-in list the scenarios play; of a list that borrows programs
    (`programs_from`), the actions with a program of its own: the lent ones are the lender's;
    of a list a based edition inherits and edits, the actions its edits change."""
    suites: dict[tuple[str, str], str] = {}
    for path in SCENARIOS.glob("**/*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if data.get("format") != EXTRA_FORMAT.id:
            continue
        lists = [e.id for e in ENV.extras(data["edition"])]
        extra = data.get("extra") or lists[0]
        if extra in lists:  # a list of the scenario's own is not checked here
            played = (data["edition"], extra)
            suites[played] = suites.get(played, "") + path.read_text(encoding="utf-8")
    assert suites
    checked = 0
    for (edition, extra), text in suites.items():
        rules = ENV.compile(edition, EXTRA_FORMAT.id, extra=extra)
        base = {a.id for a in ENV.compile(edition, rules.edition.formats[-1].id).actions}
        own = _own_actions(edition, extra)
        added = [a.name for a in rules.actions if a.id not in base and a.id in own]
        # requested by a command, or by an effect or a trigger (an event names it)
        missing = [name for name in added if f": {name}" not in text and f"ed {name} by" not in text]
        assert (added or not own) and not missing, (edition, extra, missing)
        checked += len(added)
    assert checked


def _own_actions(edition: str, extra: str) -> set[str]:
    """The ids of the actions a list's scenarios must name: a registered list's own (those
    with a program, of a list that borrows), an inherited list's none, and an edited one's
    that its edits change."""
    source = next(e for e in ENV.extras(edition) if e.id == extra)
    if extra in {path.stem for path in ENV.builtin_extras(edition)}:
        return {a.id for _, a in source.actions() if a.program or source.programs_from is None}
    based = ENV.edition(edition)
    if based.base is None or extra != edition:  # inherited as it is
        return set()
    before = {a.id: a for _, a in ENV.extras_of(based.base)[0].actions()}
    return {a.id for _, a in source.actions() if before.get(a.id) != a}
