"""Why a command names no legal option: the first rule it breaks, with that rule's name.

A request is explained by the engine's legality checks (runtime/engine/request_checks.py), the
same ones the option search applies; a pass or an answer by the few rules they have.
"""

from __future__ import annotations

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import player_name
from blackpoker.runtime.engine.refusals import Refusal, say
from blackpoker.runtime.engine.request_checks import DECIDING, NOT_ANSWERING, decision_refusal, first_refusal
from blackpoker.runtime.play.notation import AnswerCommand, Command, PassCommand

ANSWER = "answer"  # the rule of an answer that no effect asks for, or that is not offered
OPTION = "option"  # a command every check lets through that is still no option (never expected)


def explain(game: Game, command: Command, written: str) -> Refusal:
    """The first rule `command` breaks in `game`; `written` is its text after `pN: `, as typed."""
    if isinstance(command, PassCommand):
        refusal = decision_refusal(game, command.player, NOT_ANSWERING)
    elif isinstance(command, AnswerCommand):
        refusal = decision_refusal(game, command.player, DECIDING)
    else:
        refusal = first_refusal(game, command)
    if refusal is not None:
        return refusal
    if isinstance(command, AnswerCommand):
        state = game.state
        if not (state.asked or (state.resolving and state.resolving[-1].waiting is not None)):
            return Refusal(ANSWER, say("no answer waiting", who=player_name(command.player)))
        shown = tuple(str(o) for o in game.legal_options())
        return Refusal(ANSWER, say("not an answer", written=written, answers=shown))
    return Refusal(OPTION, say("not an option"))
