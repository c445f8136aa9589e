"""The one way a command gets its rules: the --edition, --format, --rules, --extra and
--regulation (with --deck) it was given become a rule source and, under a regulation, the
checked set-up its games are played with. What the options leave open is the --rules file's
(its edition and format), else the registry's (actionlists/editions.yaml). `simulate
--compare` reads each of its two sides into these same options (cli/sides.py).

The compiler is imported only where a file or a regulation is read: a command whose rules
come from the on-disk cache (a warm `simulate -n 1`) starts without the parser."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from blackpoker.cli.invocation import environment
from blackpoker.cli.report import option_error, report, warn
from blackpoker.compiler.cache import Default, compile_cached, registry_default
from blackpoker.compiler.paths import display
from blackpoker.runtime.play.source import RulesSource
from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic, Location
from blackpoker.runtime.rules.model import EXTRA_FORMAT_ID

if TYPE_CHECKING:
    from blackpoker.compiler.documents.deck import Deck
    from blackpoker.compiler.documents.regulation import Regulation
    from blackpoker.compiler.parse import OverlaySource
    from blackpoker.runtime.play.regulation import Setup
    from blackpoker.runtime.rules.model import RuleSet

PLAYERS = ("p1", "p2")


def resolve_rules(
    edition: str | None,
    format_id: str | None,
    rules: Path | None = None,
    extra: str | None = None,
    regulation: str | None = None,
    decks: tuple[str, ...] = (),
    *,
    default: Default = "format",
    cache: Path | None = None,
) -> tuple[RulesSource, Setup | None]:
    """The rules the options name. Left open: the edition is the --rules file's, else the
    registry's; the format is the regulation's, else the --rules file's, else the registry's
    `default` (`format` for a command that prints rules, `play_format` for one that plays
    them). `cache`: the on-disk cache folder the registry's defaults may come from. An
    --extra that the rules would not play (another format, or a --rules file, whose list is
    its own `extra:`) is refused rather than ignored."""
    if extra is not None and rules is not None:
        _extra_refused()
    edition = edition_of(edition, rules, cache)
    setup = None
    if regulation is not None:
        setup, format_id = regulation_setup(edition, regulation, decks, format_id)
    if format_id is None:
        format_id = (
            declared_format(rules, "--rules") if rules else registry_default(default, cache, environment)
        )
    if extra is not None and format_id != EXTRA_FORMAT_ID:
        _extra_refused()
    return RulesSource(edition, format_id, rules, extra), setup


def _extra_refused() -> NoReturn:
    option_error("--extra", f"needs --format {EXTRA_FORMAT_ID} (and no --rules)")


def edition_of(edition: str | None, rules: Path | None = None, cache: Path | None = None) -> str:
    """The edition given, else the --rules file's, else the registry's."""
    if edition is not None:
        return edition
    return declared_edition(rules, "--rules") if rules else registry_default("edition", cache, environment)


def compiled(
    source: RulesSource, setup: Setup | None = None, cache: Path | None = None, read: list[Path] | None = None
) -> RuleSet:
    """The source compiled in the invocation's environment (from the on-disk cache in `cache`,
    when given, its files then added to `read`), with the actions a regulation's frame and
    options add."""
    ruleset, files = compile_cached(
        environment, source.edition, source.format, source.rules, source.extra, cache
    )
    if read is not None:
        read += files
    return ruleset if setup is None else setup.additions.widen(ruleset)


def declared_format(path: Path, option: str) -> str:
    """The format a local-rule file declares; anything else is reported where it is wrong."""
    return _overlay(path, option).format.id


def declared_edition(path: Path, option: str) -> str:
    """The edition a local-rule file is for: an edition file beside it, or a built-in id."""
    overlay = _overlay(path, option)
    named = environment().find(overlay.edition_id, path.parent)
    return overlay.edition_id if named is None or not named.is_relative_to(path.parent) else str(named)


def _overlay(path: Path, option: str) -> OverlaySource:
    from blackpoker.compiler.parse import OverlaySource

    env = environment()
    source, problems = env.read(path)
    if problems:
        report(env.all_problems(path))
    if not isinstance(source, OverlaySource):
        assert source is not None
        report([source.doc.at(("kind",), f"kind: {option} expects a local-rule file (kind: overlay)")])
    return source


def regulation_setup(
    edition: str, text: str, deck_files: tuple[str, ...], format_id: str | None = None
) -> tuple[Setup, str]:
    """The regulation and the players' decks, checked as `regulation check` and the browser's
    lobby check them (runtime/play/regulation.py); the format its games play (a frame with the
    extra list plays the extra format). With `format_id` (--format), the text names the frame
    and options only."""
    # the regulations' reader is imported here, so a command that names none starts without it
    from blackpoker.runtime.play.regulation import checked_setup

    problems: list[Diagnostic] = []
    by_player = read_decks(deck_files, problems)
    decks = [by_player.get(player, []) for player in PLAYERS]
    checked = checked_setup(environment(), edition, text, decks, format_id)
    warn(checked.notes)
    if problems or checked.setup is None:
        report([*checked.problems, *problems])
    return checked.setup, checked.format


def read_regulation(
    edition: str, text: str, given: tuple[str, ...]
) -> tuple[Regulation, dict[str, list[Deck]], list[Diagnostic]]:
    """The regulation the text names among the edition's (their notes said), the players' decks
    (PLAYER=FILE), and the decks' problems; when the regulation cannot be read, exit 1 with its
    problems and the decks' at once."""
    from blackpoker.compiler.documents.regulation import parse_regulation

    problems: list[Diagnostic] = []
    by_player = read_decks(given, problems)
    try:
        regulations = environment().regulations(edition)
        chosen = parse_regulation(text, regulations)
    except CompileError as error:
        report([*error.diagnostics, *problems])
    warn(regulations.notes)
    return chosen, by_player, problems


def read_decks(given: tuple[str, ...], problems: list[Diagnostic]) -> dict[str, list[Deck]]:
    """The players' decks (PLAYER=FILE), each problem added to `problems`."""
    from blackpoker.compiler.documents.deck import read_deck

    decks: dict[str, list[Deck]] = {}
    for item in given:
        player, sign, file = item.partition("=")
        if not sign or player not in PLAYERS or not file:
            message = f"expected PLAYER=FILE with PLAYER one of {', '.join(PLAYERS)}; got '{item}'"
            problems.append(Diagnostic(Location("--deck", 0, 0), message))
            continue
        if any(Path(deck.doc.path).resolve() == Path(file).resolve() for deck in decks.get(player, ())):
            problems.append(Diagnostic(Location("--deck", 0, 0), f"{player}: {file} is given twice"))
            continue
        deck, found = read_deck(Path(file), display(Path(file)))
        problems += found
        if deck is not None:
            decks.setdefault(player, []).append(deck)
    return decks
