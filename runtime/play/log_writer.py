"""Command logs written (log.py reads and replays them; its docstring describes the format).

Writing a log needs no compiler: the static play page (runtime/serve/offline.py) writes one
in the browser, where only the engine and the play modules it loads run.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import result_name
from blackpoker.runtime.play.event_text import record
from blackpoker.runtime.play.source import EXTRA, Named, file_record

if TYPE_CHECKING:
    from blackpoker.runtime.play.regulation import Dealt

LOG_KIND = "blackpoker-command-log"
REGULATION = "regulation"  # the header key of a game played under a regulation
LOG_VERSION = 3  # 2: shuffled and lost_target events; 3: damage and died


def log_lines(
    game: Game,
    agents: Sequence[str],
    named: Named | None = None,
    folder: Path = Path(),
    dealt: Dealt | None = None,
) -> list[dict[str, Any]]:
    """The whole log of a game played with `events=[]` (finished or not). With `named` (a
    rules source's `named()`), the header names the edition file and local-rule file played, by
    path from `folder` (the log's) and hash, so that a replay finds them again, and the extra
    format's list by its built-in id or as a file; with `dealt`, the regulation, the match's
    seed, the decks played and the deck files, alike."""
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
    for key, file in (named.files if named is not None else {}).items():
        header[key] = file_record(file, folder)
    if named is not None and named.extra is not None:
        header[EXTRA] = named.extra
    if dealt is not None:
        header[REGULATION] = dealt.record(folder)
    result = None if game.result is None else result_name(game.result)
    end = {"event": "end", "decisions": game.decisions, "result": result, "state": game.state_hash()}
    return [header, *map(record, game.events), end]


def log_text(
    path: Path, game: Game, agents: Sequence[str], named: Named | None = None, dealt: Dealt | None = None
) -> str:
    """The command log of `game` as file `path` holds it (it names the rule files from its folder)."""
    lines = log_lines(game, agents, named, path.parent, dealt)
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
