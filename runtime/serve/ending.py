"""A finished game at the browser table: why it ended, in words, and its command log.

The reason is read from what the table showed everyone: the resolution the win check followed
(the action's name from the rule set, and who requested it) and whose life ran out.

A command log holds the game's seed, which deals every card of both players, so it is given
to a seat only when it tells that seat nothing new: the game is over and the seat gave its
seed (the lobby's seed field, or `serve --seed`). A game whose seed the server drew, and a
game started from a scenario (a log cannot start from one), has no download
(docs/decisions.md, "A seat's command log").
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from blackpoker.runtime.engine.events import GameOver, Resolved
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import player_name
from blackpoker.runtime.play.log_writer import log_text
from blackpoker.runtime.play.source import RulesSource
from blackpoker.runtime.serve.cards import Json

if TYPE_CHECKING:  # the static page ships no regulations
    from blackpoker.runtime.play.regulation import Dealt

LOG_NAME = "game.jsonl"  # the download's name: the files a log names are found from its folder


def ending_json(game: Game) -> Json | None:
    """Who won and why, once the game is over: `{winner, reason}` (winner None: a draw)."""
    result = game.result
    if result is None:
        return None
    out = [player_name(n) for n, p in enumerate(game.state.players) if not p.life]
    reason = "・".join(f"{who}のライフが0枚になった" for who in out) or "勝敗が決まった"
    cause = _last_resolution(game)
    if cause is not None:
        action = game.rules.action(cause.action)
        reason = f"{player_name(cause.player)}の「{action.name}」の解決で{reason}"
    winner = result.winner
    return {"winner": None if winner is None else player_name(winner), "reason": reason}


def _last_resolution(game: Game) -> Resolved | None:
    """The resolution after which the win check ended the game."""
    events = game.events or []
    over = next((n for n in range(len(events) - 1, -1, -1) if isinstance(events[n], GameOver)), None)
    if over is None:
        return None
    return next((e for e in reversed(events[:over]) if isinstance(e, Resolved)), None)


def seat_log(
    game: Game, source: RulesSource, agents: list[str], seed_known: bool, dealt: Dealt | None = None
) -> str | None:
    """The command log a seat may download, or None when it may have none (see above); a
    match's game records its regulation's decks (`dealt`), as the terminal's log does."""
    if not game.over or not seed_known or game.events is None or game.seed is None:
        return None
    return log_text(Path.cwd() / LOG_NAME, game, agents, source.named(), dealt)


def log_refusal(game: Game, seed_known: bool) -> str:
    if not game.over:
        return "コマンドログはゲームが終わってから保存できます"
    return (
        "このゲームのコマンドログは保存できません: ログにはシード（両者の全てのカードを決めるもの）が"
        "入るので、シードを指定して始めたゲームだけが保存できます"
    )
