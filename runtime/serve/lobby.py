"""What the lobby of `blackpoker serve` offers, and the rules a new game from it plays.

The lobby offers what the terminal's `blackpoker play` takes: every format of every edition
the server knows, the extra format where the edition has an extra list (each list by its
id), and the edition's regulations, as frames and options (`--regulation`), checked by the
same function as the terminal's (runtime/play/regulation.py). A server started with a
local-rule file offers that file's format only, by the name it gives it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from blackpoker.compiler import CompileError
from blackpoker.compiler.environment import Environment, is_path
from blackpoker.runtime.engine.refs import player_name
from blackpoker.runtime.play.regulation import Setup, checked_setup, upload_name, uploaded_decks
from blackpoker.runtime.play.source import RulesSource, offered_formats
from blackpoker.runtime.rules.diagnostics import Diagnostic
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.runtime.serve.cards import Json

MOST_DECKS = 8  # deck files a player may send: a match form has one or two decks
DECK_NAMES = tuple(
    upload_name(p, k) for p in (0, 1) for k in range(1, MOST_DECKS + 1)
)  # their problems' places


@dataclass(frozen=True, slots=True)
class Choice:
    """A new game's rules as the lobby's form chose them: the source, and the regulation's
    set-up when the form names a frame."""

    source: RulesSource
    setup: Setup | None = None


def editions_json(env: Environment, served: str) -> list[Json]:
    """Each edition the lobby offers (the built-in ones, and the server's own edition file
    first): its formats by id and name, its extra lists, its regulations' frames and options."""
    found = []
    ids = env.builtin_editions()
    for edition in ([served] if served not in ids else []) + list(ids):
        try:
            offered = offered_formats(env, edition)
        except CompileError:  # not offered: a game of it is refused with its problems
            continue
        extras = _extras(env, edition)
        found.append(
            {
                "id": edition,
                "name": _edition_name(env, edition),
                "formats": [{"id": f.id, "name": f.name} for f in offered],
                "extras": extras,  # the lists the extra format may play, the default first
                "extra_format": offered[-1].id if extras else None,
                "regulations": _regulations(env, edition),
            }
        )
    return found


def _edition_name(env: Environment, edition: str) -> str:
    """An edition as the lobby names it: its id, and a file's name beside a built-in one's."""
    shown = env.edition(edition).edition.id
    return f"{shown}（{Path(edition).name}）" if is_path(edition) else shown


def _extras(env: Environment, edition: str) -> list[str]:
    """The ids of the edition's built-in extra lists, newest first (the extra format's default)."""
    return [] if is_path(edition) else [path.stem for path in env.builtin_extras(edition)]


def _regulations(env: Environment, edition: str) -> Json | None:
    try:
        regulations = env.regulations(edition)
    except CompileError:  # an edition no regulations name: games without one only
        return None
    return {
        "title": regulations.title,
        "frames": [
            {
                "id": f.id,
                "name": f.name,
                "formats": None if f.formats is None else list(f.formats),
                "extra": f.extra,
                "games": f.match.games,
                "decks": f.match.decks if f.needs_decks else 0,  # deck files each player brings
            }
            for f in regulations.frames
            if f.unplayable is None
        ],
        "options": [{"id": o.id, "name": o.name} for o in regulations.options],
    }


def house_rules_json(rules: RuleSet) -> Json:
    """A local rule's format as the lobby names it: its own id and printed name."""
    return {"edition": rules.edition.id, "format": {"id": rules.format.id, "name": rules.format.name}}


def choice(env: Environment, edition: str, format_id: str, data: dict[str, Any]) -> Choice | list[Diagnostic]:
    """The rules of a game from the form's `extra` (a built-in list's id) and `regulation`
    (a frame and options, `random-half+preset2`): a Choice, or the problems with them."""
    extra, regulation = data.get("extra"), data.get("regulation")
    if extra is not None:
        known = _extras(env, edition)
        if extra not in known or RulesSource(edition, format_id).builtin_extra(env) is None:
            where = f"{', '.join(known)}（エクストラのフォーマットで）" if known else "ありません"
            return [_said("extra", f"この版のエクストラリストは {where}")]
    if regulation is None:
        return Choice(RulesSource(edition, format_id, None, extra))
    if not isinstance(regulation, str) or not regulation.strip() or extra is not None:
        return [_said("regulation", "フレームとオプションを + でつないだ名前（例: random-half+preset2）")]
    texts = data.get("decks", {})
    if not isinstance(texts, dict) or not all(
        isinstance(v, list) and len(v) <= MOST_DECKS and all(isinstance(t, str) for t in v)
        for v in texts.values()
    ):
        message = f'各プレイヤーのデッキファイルの中身を {MOST_DECKS} 個まで: {{"p1": [...], "p2": [...]}}'
        return [_said("decks", message)]
    decks, problems = uploaded_decks([texts.get(player_name(p), []) for p in (0, 1)])
    # a frame with the extra list plays the extra format: the form names the format it is for
    checked = checked_setup(env, edition, regulation, decks, format_id)
    if problems or checked.setup is None:
        return [*problems, *checked.problems]
    return Choice(RulesSource(edition, checked.format), checked.setup)


def _said(key: str, message: str) -> Diagnostic:
    from blackpoker.runtime.rules.diagnostics import Location

    return Diagnostic(Location(key, 0, 0), message)
