"""The rule set a scenario names (an edition's format, a local-rule file, the extra list)
and the regulation of its set-up, with its deck files and the match so far."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from blackpoker.compiler.documents.deck import Deck, read_deck
from blackpoker.compiler.documents.regulation import (
    additions,
    deck_problems,
    parse_regulation,
)
from blackpoker.compiler.environment import Environment, display
from blackpoker.compiler.load import Document, PathKey
from blackpoker.compiler.parse import EditionSource, OverlaySource
from blackpoker.compiler.paths import is_path
from blackpoker.runtime.engine.refs import result_named
from blackpoker.runtime.play.regulation import Match, Setup, start_problems
from blackpoker.runtime.play.source import DECK_FILE, EDITION_FILE, EXTRA_FILE, RULES_FILE, ServedFiles
from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.runtime.scenario.scenario import PLAYER_KEYS


def scenario_rules(
    doc: Document, path: Path, env: Environment, served: ServedFiles | None
) -> tuple[RuleSet | None, list[Diagnostic]]:
    """The rule set the scenario names: an edition's format, or a local-rule file's format."""
    data = doc.data
    if served is not None:  # an upload: no file but the server's own is looked at
        keys = {"rules": RULES_FILE, "edition": EDITION_FILE, "extra": EXTRA_FILE}
        files = [key for key in keys if key in data and (key == "rules" or is_path(data[key]))]
        refused = [
            _not_served(doc, (key,), key)
            for key in files
            if not served.named(keys[key], path.parent / data[key])
        ]
        if refused:
            return None, refused
    if "rules" in data:
        return _local_rules(doc, path, env)
    missing = [key for key in ("edition", "format") if key not in data]
    if missing:
        wanted = " and ".join(missing)
        return None, [doc.at((), f"{wanted}: required (or rules: a local-rule file, which names both)")]
    # An edition or extra file is named relative to the scenario file.
    edition = str(path.parent / data["edition"]) if is_path(data["edition"]) else data["edition"]
    extra = data.get("extra")
    try:
        return env.compile(edition, data["format"], extra=_relative(path, extra)), []
    except CompileError as error:
        where = doc.locate(("format",))
        return None, [
            Diagnostic(where, f"edition {data['edition']}, format {data['format']}: {d.message}")
            for d in error.diagnostics
        ]


def _not_served(doc: Document, where: PathKey, key: str) -> Diagnostic:
    """A file an upload names that the server does not serve: said without the name (the
    sender wrote it) and without a word of whether it is there."""
    message = (
        f"{key}: このサーバーが開くファイルは、起動時に指定されたもの（--edition, --rules）"
        "だけです。組み込みの版と切札リストは名前で指定してください"
    )
    return doc.at(where, message)


def _relative(path: Path, name: str | None) -> str | None:
    """A file named relative to the scenario file (a built-in name stays as it is)."""
    return str(path.parent / name) if name is not None and is_path(name) else name


def _local_rules(doc: Document, path: Path, env: Environment) -> tuple[RuleSet | None, list[Diagnostic]]:
    """`rules:` a local-rule file (kind: overlay) relative to the scenario file; `edition` and
    `format`, when given, must be the ones it declares."""
    data = doc.data
    named = path.parent / data["rules"]
    if not named.is_file():
        return None, [doc.at(("rules",), f"rules: no file {data['rules']} (relative to this scenario file)")]
    source, problems = env.read(named)
    if problems or source is None:
        below = env.all_problems(named)
        return None, [doc.at(("rules",), f"rules: {data['rules']} has problems (below)"), *below]
    if not isinstance(source, OverlaySource):
        kind = source.doc.data["kind"]
        message = f"rules: {data['rules']} is a kind: {kind} file; rules names a local rule (kind: overlay)"
        return None, [doc.at(("rules",), message)]
    found = []
    if data.get("edition", source.edition_id) != source.edition_id:
        found.append(doc.at(("edition",), f"edition: the local rules are for edition {source.edition_id}"))
    if data.get("format", source.format.id) != source.format.id:
        found.append(doc.at(("format",), f"format: the local rules declare format {source.format.id}"))
    if found:
        return None, found
    try:
        return env.compile(source.edition_id, source.format.id, rules=named), []
    except CompileError as error:
        return None, [
            doc.at(("rules",), f"rules: {data['rules']} does not compile (below)"),
            *error.diagnostics,
        ]


def regulation_of(
    doc: Document, path: Path, rules: RuleSet, env: Environment, served: ServedFiles | None = None
) -> tuple[Setup | None, list[Diagnostic], list[Diagnostic]]:
    """`setup: {regulation, deck_files}`: the regulation of the rule set's edition, for its
    format, and each player's deck files (relative to the scenario file) checked against it
    (a written position has no decks: it takes only the zones and actions the regulation adds).
    Returns the set-up, why the regulation or the decks are refused (as `simulate` refuses
    them), and the problems of the file itself (a deck file that is not there)."""
    setup = doc.data["setup"]
    edition = doc.data.get("edition", rules.edition.id)  # a file is named from the scenario's folder
    try:
        chosen = parse_regulation(setup["regulation"], env.regulations(_relative(path, edition) or edition))
    except CompileError as error:
        where = ("setup", "regulation")
        return None, [doc.at(where, f"regulation: {d.message}") for d in error.diagnostics], []
    if chosen.played_format != rules.format.id:
        played = f" (its frame plays format {chosen.played_format})" if chosen.frame.extra else ""
        message = f"regulation: its format is {chosen.format}{played}; the scenario's is {rules.format.id}"
        return None, [], [doc.at(("setup", "regulation"), message)]
    problems = start_problems(chosen, rules.edition)
    missing: list[Diagnostic] = []
    source = EditionSource(doc, rules.edition, rules.actions, rules.characters, rules.fogs)
    added, wrong = additions(chosen, source)
    problems += wrong
    decks: list[list[Deck]] = []
    for who in PLAYER_KEYS:
        mine: list[Deck] = []
        for index, name in enumerate(setup.get("deck_files", {}).get(who, ())):
            file = path.parent / name
            if served is not None and not served.named(DECK_FILE, file):
                missing.append(_not_served(doc, ("setup", "deck_files", who, index), "deck_files"))
                continue
            if not file.is_file():
                missing.append(
                    doc.at(
                        ("setup", "deck_files", who, index),
                        f"deck_files: no file {name} (relative to this scenario file)",
                    )
                )
                continue
            deck, found = read_deck(file, display(file))
            problems += found
            mine += [deck] if deck is not None else []
        # a dealt set-up plays decks: the files, or the frame's (others deal, or play the set)
        if "seed" in setup and not problems + missing and (mine or chosen.frame.needs_decks):
            for problem in deck_problems(chosen, who, mine):
                located = problem.location.path != "--deck"
                problems.append(problem if located else doc.at(("setup",), f"deck_files: {problem.message}"))
        decks.append(mine)
    if problems or missing:
        return None, problems, missing
    made = Setup.of(chosen, decks, added)
    faulty = match_so_far(made, setup)[1] if "match" in setup else None
    if faulty is None:
        return made, [], []
    diagnostic = [doc.at(faulty[0], faulty[1])]
    return (None, diagnostic, []) if faulty[2] else (None, [], diagnostic)


def match_so_far(regulation: Setup, setup: dict[str, Any]) -> tuple[Match, tuple[PathKey, str, bool] | None]:
    """`setup.match`: the match so far from the scenario's seed, each game checked against
    the match form as it is recorded. Returns the match with the earlier games recorded, and
    the first problem: where, what, and whether it is a refused set-up (a retired deck, a
    match already over) rather than a fault of the file (a deck the player does not have)."""
    match = Match(regulation, random.Random(setup["seed"]))
    for index, game in enumerate(setup["match"]):
        where = ("setup", "match", index)
        decks = (game["p1"] - 1, game["p2"] - 1)
        for p, who in enumerate(PLAYER_KEYS):
            if decks[p] >= len(match.decks[p]):
                return match, (
                    (*where, who),
                    f"match: {who} has {len(match.decks[p])} deck(s), not {decks[p] + 1}",
                    False,
                )
        refused = match.refusal(decks)
        if refused is not None:
            return match, (where, f"game {index + 1}: {refused}", True)
        if "result" in game:
            match.record(decks, result_named(game["result"]))
        elif index < len(setup["match"]) - 1:
            return match, (where, "match: only the last game may leave out its result", False)
    return match, None
