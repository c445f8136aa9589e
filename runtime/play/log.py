"""Command logs (JSON Lines) and their replay.

A log is a header line (rule-set hash, edition, format, seed, agents), then the game's own
events in order, each as event_text.py records it — one line per decision (with the option's
index and text) and per resolution event — and a closing `end` line with the decision count,
the result and the state hash. A game is a function of the rule set, the seed and the
decisions, so replay plays the logged decisions again and checks every event and the final
state hash.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from blackpoker.compiler.documents.deck import read_deck
from blackpoker.compiler.documents.regulation import Regulations, additions, parse_regulation
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.load import read_regular_file
from blackpoker.compiler.parse import EditionSource
from blackpoker.compiler.paths import is_path
from blackpoker.runtime.engine.events import Damaged, Died, Event
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Option
from blackpoker.runtime.engine.refs import player_name, result_name
from blackpoker.runtime.engine.state import PLAYERS
from blackpoker.runtime.play.event_text import record
from blackpoker.runtime.play.regulation import Dealt, Setup
from blackpoker.runtime.play.roster import recorded_problem
from blackpoker.runtime.play.source import (
    DECK_FILE,
    EDITION_FILE,
    EXTRA,
    EXTRA_FILE,
    RULES_EXTRA_FILE,
    RULES_FILE,
    RulesSource,
    ServedFiles,
    file_record,
    sha256,
)
from blackpoker.runtime.rules.diagnostics import (
    BlackPokerError,
    CompileError,
    Diagnostic,
    Location,
    did_you_mean,
)
from blackpoker.runtime.rules.model import RuleSet

LOG_KIND = "blackpoker-command-log"
REGULATION = "regulation"  # the header key of a game played under a regulation
LOG_VERSION = 3  # 2: shuffled and lost_target events; 3: damage and died
# The versions a replay reads, with the events each does not record (a fight's damage and
# deaths came in version 3: an older log replays with them left out of the comparison).
UNRECORDED: dict[int, tuple[type, ...]] = {2: (Damaged, Died), 3: ()}
# A game stops at its decision cap, so a real log is a few hundred KiB at most.
MAX_LOG_BYTES = 64 * 1024 * 1024
HEADER_FIELDS: dict[str, type | tuple[type, ...]] = {
    "ruleset": str,
    "edition": str,
    "format": str,
    "seed": int,
    "agents": list,
}
# every key a header may have: what `log_lines` writes
HEADER_KEYS = (
    "log",
    "version",
    *HEADER_FIELDS,
    EDITION_FILE,
    RULES_FILE,
    RULES_EXTRA_FILE,
    EXTRA_FILE,
    EXTRA,
    REGULATION,
)
END_FIELDS: dict[str, type | tuple[type, ...]] = {
    "decisions": int,
    "result": (str, type(None)),
    "state": str,
}


def log_lines(
    game: Game,
    agents: Sequence[str],
    source: RulesSource | None = None,
    folder: Path = Path(),
    dealt: Dealt | None = None,
    env: Environment | None = None,
) -> list[dict[str, Any]]:
    """The whole log of a game played with `events=[]` (finished or not). With `source`, the
    header names the edition file and local-rule file played, by path from `folder` (the
    log's) and hash, so that a replay finds them again; with `dealt`, the regulation, the
    match's seed, the decks played and the deck files, alike; the extra format's list by its
    built-in id or as a file. The source's files are looked up in `env` (a command's; None: a
    new one when needed)."""
    assert game.events is not None and game.seed is not None, "a log needs Game.new(..., events=[])"
    header: dict[str, Any] = {
        "log": LOG_KIND,
        "version": LOG_VERSION,
        "ruleset": game.rules.ruleset.digest,
        "edition": game.rules.edition.id,
        "format": game.rules.format.id,
        "seed": game.seed,
        "agents": list(agents),
    }
    for key, file in (source.files(env) if source is not None else {}).items():
        header[key] = file_record(file, folder)
    listed = source.builtin_extra(env) if source is not None else None
    if listed is not None:
        header[EXTRA] = listed
    if dealt is not None:
        header[REGULATION] = dealt.record(folder)
    result = None if game.result is None else result_name(game.result)
    end = {"event": "end", "decisions": game.decisions, "result": result, "state": game.state_hash()}
    return [header, *map(record, game.events), end]


def log_text(
    path: Path,
    game: Game,
    agents: Sequence[str],
    source: RulesSource | None = None,
    dealt: Dealt | None = None,
    env: Environment | None = None,
) -> str:
    """The command log of `game` as file `path` holds it (it names the rule files from its folder)."""
    lines = log_lines(game, agents, source, path.parent, dealt, env)
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


@dataclass(frozen=True, slots=True)
class Replayed:
    decisions: int
    result: str | None  # printed, as the log's end line has it
    state: str


class ReplayError(BlackPokerError):
    """A log that is malformed or that the replay does not reproduce, located in the file
    (a header's problems all at once: `diagnostic` is the first)."""

    def __init__(self, diagnostic: Diagnostic, *more: Diagnostic) -> None:
        super().__init__([diagnostic, *more])
        self.diagnostic = diagnostic


@dataclass(frozen=True, slots=True)
class _Line:
    path: str
    number: int
    text: str
    data: dict[str, Any]

    def error(self, message: str, key: str | None = None, again: bool = False) -> ReplayError:
        """Located at `key`'s name in the line when given (its second place: `again`; columns
        count characters)."""
        quoted = json.dumps(key, ensure_ascii=False)
        found = self.text.find(quoted) if key is not None else -1
        if again and found >= 0:
            found = self.text.find(quoted, found + 1)
        return ReplayError(
            Diagnostic(Location(self.path, self.number, found + 1 if found >= 0 else 1), message)
        )


def replay(
    path: Path,
    shown: str | None = None,
    edition: str | None = None,
    env: Environment | None = None,
    watch: Callable[[Game, Option | None], None] | None = None,
    served: ServedFiles | None = None,
) -> Replayed:
    """Replay a log with the current compiled rules; raise ReplayError at the first difference.

    `edition` (a built-in id or an edition file) replaces the edition the header names, for
    logs played with an edition file; the rules are compiled in `env` (several logs share one).
    `watch` sees the game after its set-up (no option) and after each decision (its option).
    A log uploaded to the server (`served`) is played with the server's own files only: a file
    its header records is the one served under the same key with the same hash, or refused."""
    lines = _read(path, shown or str(path))
    header, body, end = lines[0], lines[1:-1], lines[-1]
    rules, dealt = _rules(header, edition, env or Environment(), path.parent, served)
    produced: list[Event] = []
    start = None if dealt is None else dealt.start()
    game = Game.new(rules, header.data["seed"], start=start, check=True, events=produced)
    recorded = _Recorded(produced, UNRECORDED[header.data["version"]])
    checked = _match(recorded.events(), body, end, 0)
    if watch is not None:
        watch(game, None)
    for position, line in enumerate(body):
        if line.data["event"] != "decision":
            continue
        if checked < position:
            raise body[checked].error("the replay does not produce this event")
        if game.over:
            raise line.error("the game is already over: this decision is one too many")
        options = game.legal_options()
        index = line.data.get("index")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(options):
            raise line.error(
                f"decision index {index!r} is out of range: there are {len(options)} options here", "index"
            )
        try:
            game.apply(options[index])
        except Exception as error:  # an engine failure is reported at the decision that caused it
            raise line.error(f"the engine failed on this decision: {type(error).__name__}: {error}") from None
        checked = _match(recorded.events(), body, end, checked)
        if watch is not None:
            watch(game, options[index])
    if checked < len(body):
        raise body[checked].error("the replay does not produce this event")
    result = None if game.result is None else result_name(game.result)
    replayed = Replayed(game.decisions, result, game.state_hash())
    for key in END_FIELDS:
        logged, got = end.data[key], getattr(replayed, key)
        if logged != got:
            raise end.error(f"the log records {key} {logged!r}, the replay gives {got!r}", key)
    return replayed


def _read(path: Path, shown: str) -> list[_Line]:
    def fail(number: int, col: int, message: str) -> ReplayError:
        return ReplayError(Diagnostic(Location(shown, number, col), message))

    raw_bytes, problems = read_regular_file(path, shown, MAX_LOG_BYTES)
    if raw_bytes is None:
        raise ReplayError(problems[0])
    try:
        text = raw_bytes.decode("utf-8")
    except UnicodeDecodeError as error:
        raise fail(1, 1, f"not UTF-8 text (byte {error.start})") from None
    lines = []
    repeated: list[str] = []  # the keys the line being read gives twice
    header_repeated: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for key, value in items:
            if key in found:
                repeated.append(key)
            found.setdefault(key, value)  # the first, as the header's problems name it
        return found

    for number, raw in enumerate(text.splitlines(), 1):
        repeated.clear()
        try:
            data = json.loads(raw, object_pairs_hook=pairs)
        except json.JSONDecodeError as error:
            raise fail(number, error.colno, f"not a JSON value: {error.msg}") from None
        except RecursionError:
            raise fail(number, 1, "not a command log line: JSON nested too deeply") from None
        except ValueError as error:  # e.g. an integer of more digits than Python converts
            raise fail(number, 1, f"not a JSON value: {error}") from None
        if not isinstance(data, dict):
            raise fail(number, 1, "expected a JSON object on every line")
        line = _Line(shown, number, raw, data)
        if repeated and number > 1:
            raise line.error(f"'{repeated[0]}' is given twice", repeated[0], again=True)
        header_repeated += repeated if number == 1 else []
        if number > 1 and not isinstance(data.get("event"), str):
            raise line.error("expected an object with an 'event' name")
        lines.append(line)
    if not lines or lines[0].data.get("log") != LOG_KIND:
        raise fail(1, 1, f"not a command log: the first line must be its header (log: {LOG_KIND})")
    header = lines[0]
    version = header.data.get("version")
    if isinstance(version, bool) or version not in UNRECORDED:
        read = " or ".join(map(str, UNRECORDED))
        raise header.error(f"log version {version!r} is not one this build reads ({read})", "version")
    problems = _header_problems(header, header_repeated)
    if problems:
        raise ReplayError(*problems)
    if len(lines) < 2 or lines[-1].data.get("event") != "end":
        raise lines[-1].error("the log has no closing 'end' line: it was cut short")
    _fields(lines[-1], END_FIELDS)
    return lines


def _header_problems(header: _Line, repeated: Sequence[str]) -> list[Diagnostic]:
    """Every problem of a header, as of any file: keys given twice or unknown, fields missing
    or of the wrong type, agents a log does not record."""
    problems = [header.error(f"'{key}' is given twice", key, again=True).diagnostic for key in repeated]
    for key in header.data:
        if key not in HEADER_KEYS:
            known = f"{did_you_mean(key, HEADER_KEYS)} (a header has: {', '.join(HEADER_KEYS)})"
            problems.append(header.error(f"unknown key '{key}'{known}", key).diagnostic)
    try:
        _fields(header, HEADER_FIELDS)
    except ReplayError as error:
        return [*problems, error.diagnostic]
    agents = header.data["agents"]
    if len(agents) != len(PLAYERS):
        problems.append(
            header.error(f"'agents' names {len(agents)} players, not {len(PLAYERS)}", "agents").diagnostic
        )
    for agent in agents:
        why = recorded_problem(agent) if isinstance(agent, str) else f"agent {agent!r} is not a name"
        if why is not None:
            problems.append(header.error(why, agent if isinstance(agent, str) else "agents").diagnostic)
    return problems


def _fields(line: _Line, fields: dict[str, type | tuple[type, ...]]) -> None:
    for key, kind in fields.items():
        value = line.data.get(key)
        if key not in line.data:
            raise line.error(f"missing '{key}'")
        if not isinstance(value, kind) or isinstance(value, bool):
            raise line.error(f"'{key}' has the wrong type ({type(value).__name__})", key)


def _rules(
    header: _Line, edition: str | None, env: Environment, folder: Path, served: ServedFiles | None
) -> tuple[RuleSet, Dealt | None]:
    """The rules the header names, compiled now (with what its regulation adds), and the
    regulation's start: the files it records are looked up from the log's folder (or among the
    `served` ones); a missing one, or rules that hash otherwise, say which file changed."""
    data = header.data
    for key in ("edition", EXTRA):  # names, never files: a file is recorded with its hash
        if served is not None and isinstance(data.get(key), str) and is_path(data[key]):
            raise header.error(f"'{key}' must be a built-in one's id", key)
    keys = (EDITION_FILE, RULES_FILE, RULES_EXTRA_FILE, EXTRA_FILE)
    files = {key: _recorded(header, data, key, folder, served) for key in keys if key in data}
    if edition is None and EDITION_FILE in files:
        edition = str(files[EDITION_FILE])
    if not isinstance(data.get(EXTRA, ""), str):
        raise header.error(f"'{EXTRA}' must be a built-in extra list's id", EXTRA)
    extra = str(files[EXTRA_FILE]) if EXTRA_FILE in files else data.get(EXTRA)
    try:
        rules = env.compile(edition or data["edition"], data["format"], files.get(RULES_FILE), extra)
    except CompileError as error:
        first = error.diagnostics[0]
        key = EXTRA if first.location.path == "--extra" else "format"
        raise header.error(
            f"edition {data['edition']}, format {data['format']}: {first.message}", key
        ) from None
    if rules.edition.id != data["edition"]:
        raise header.error(
            f"the log was played with edition {data['edition']}, not {rules.edition.id}", "edition"
        )
    dealt = None
    if REGULATION in data:
        dealt = _dealt(header, rules, folder, served, lambda: env.regulations(edition or data["edition"]))
        rules = dealt.setup.additions.widen(rules)
    current = rules.digest
    if current != data["ruleset"]:
        changed = [
            key if served else str(path) for key, path in files.items() if sha256(path) != data[key]["sha256"]
        ]
        which = f" ({', '.join(changed)} changed since)" if changed else ""
        raise header.error(
            f"the log was played by rule set {data['ruleset'][:12]}…, but the current {data['edition']} "
            f"{data['format']} rules hash to {current[:12]}…{which}: the rules changed since, so it "
            "cannot be replayed faithfully",
            "ruleset",
        )
    return rules, dealt


def _dealt(
    header: _Line,
    rules: RuleSet,
    folder: Path,
    served: ServedFiles | None,
    regulations: Callable[[], Regulations],
) -> Dealt:
    """The header's `regulation`: the regulation of the log's edition, its deck files (found
    from the log's folder, and unchanged since) and the match's start."""
    record = header.data[REGULATION]
    shape = (
        isinstance(record, dict)
        and isinstance(record.get("id"), str)
        and _integer(record.get("match_seed"))
        and isinstance(record.get("decks"), list)
        and len(record["decks"]) == len(PLAYERS)
        and all(_integer(d) and d >= 0 for d in record["decks"])
        and isinstance(record.get("deck_files", {}), dict)
    )
    if not shape:
        expected = (
            '{"id": …, "match_seed": N, "decks": [N, N], "deck_files": {"p1": [{"path": …, "sha256": …}]}}'
        )
        raise header.error(f"'{REGULATION}' must be {expected}", REGULATION)
    try:
        regulation = parse_regulation(record["id"], regulations())
    except CompileError as error:
        raise header.error(
            f"{REGULATION} {record['id']}: {error.diagnostics[0].message}", REGULATION
        ) from None
    files = record.get("deck_files", {})
    decks = []
    for who in map(player_name, PLAYERS):
        count = _count(header, files, who)
        mine = [_recorded(header, files, who, folder, served, at) for at in range(count)]
        changed = [
            files[who][at]["path"] for at, path in enumerate(mine) if sha256(path) != files[who][at]["sha256"]
        ]
        if changed:
            message = f"{REGULATION}: deck file {changed[0]} changed since the log was written"
            raise header.error(f"{message}: the game cannot be replayed faithfully", REGULATION)
        read = [read_deck(path, str(path)) for path in mine]
        broken = next((problems for deck, problems in read if deck is None or problems), None)
        if broken is not None:
            raise header.error(f"{REGULATION}: a deck file has problems: {broken[0].render()}", REGULATION)
        decks.append([deck for deck, _ in read if deck is not None])
    source = EditionSource(
        regulation.regulations.doc, rules.edition, rules.actions, rules.characters, rules.fogs
    )
    added, problems = additions(regulation, source)
    if problems:
        raise header.error(f"{REGULATION} {record['id']}: {problems[0].message}", REGULATION)
    setup = Setup.of(regulation, decks, added)
    chosen = tuple(record["decks"])
    if any(chosen[p] >= (len(setup.given[p]) or setup.decks) for p in PLAYERS):
        raise header.error(f"{REGULATION}: decks {list(chosen)} are not decks of the players", REGULATION)
    return Dealt(setup, record["match_seed"], (chosen[0], chosen[1]))


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(header: _Line, files: dict[str, Any], who: str) -> int:
    mine = files.get(who, [])
    if not isinstance(mine, list):
        raise header.error(f"{REGULATION}: deck_files of {who} must be a list of files", REGULATION)
    return len(mine)


def _recorded(
    header: _Line,
    records: dict[str, Any],
    key: str,
    folder: Path,
    served: ServedFiles | None,
    at: int | None = None,
) -> Path:
    """A file the header records ({path, sha256}), found from the log's folder, or the one
    served under its key with its hash; `at`: the file at that place of a list of them."""
    record = records[key] if at is None else records[key][at]
    named = key if at is None else f"{REGULATION} deck file {at + 1} of {key}"
    where = key if at is None else REGULATION
    if not isinstance(record, dict) or not all(isinstance(record.get(k), str) for k in ("path", "sha256")):
        raise header.error(f'\'{named}\' must be {{"path": …, "sha256": …}}', where)
    if served is not None:  # the recorded path is never looked at
        found = served.recorded(key if at is None else DECK_FILE, record["sha256"])
        if found is None:
            message = f"{named}: このサーバーが開くファイルは、起動時に指定されたもの（--edition, --rules）"
            message += "だけです"
            raise header.error(message, where)
        return found
    path = folder / str(record["path"])
    if not path.is_file():
        raise header.error(f"{named} {record['path']} (from the log's folder) is missing", where)
    return path


class _Recorded:
    """The events a replay produced that its log's version records, kept as the game goes."""

    def __init__(self, produced: list[Event], unrecorded: tuple[type, ...]) -> None:
        self.produced = produced
        self.unrecorded = unrecorded
        self.kept: list[Event] = []
        self.seen = 0

    def events(self) -> list[Event]:
        new = self.produced[self.seen :]
        self.kept.extend(e for e in new if not isinstance(e, self.unrecorded))
        self.seen = len(self.produced)
        return self.kept


def _match(produced: list[Event], body: list[_Line], end: _Line, start: int) -> int:
    """Compare the events the replay produced from `start` on with the logged ones."""
    for position in range(start, len(produced)):
        event = record(produced[position])
        if position >= len(body):
            raise end.error(
                f"the replay goes on with {json.dumps(event, ensure_ascii=False)} but the log ends"
            )
        logged = body[position].data
        if event != logged:
            key = next(
                (k for k in (*event, *logged) if event.get(k) != logged.get(k)),
                "event",
            )
            raise body[position].error(
                f"the log records {key} {logged.get(key)!r}, the replay gives {event.get(key)!r}", key
            )
    return len(produced)
