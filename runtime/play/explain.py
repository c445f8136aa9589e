"""Why a command is not a legal option: the first rule it breaks, in words, with its name.

A request is explained by the engine's legality checks (runtime/engine/request_checks.py), the
same ones the option search applies; a pass or an answer by the few rules they have.
"""

from __future__ import annotations

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.refs import player_name
from blackpoker.runtime.engine.request_checks import DECIDING, NOT_ANSWERING, first_refusal
from blackpoker.runtime.play.notation import Command

ANSWER = "answer"  # the rule of an answer that no effect asks for, or that is not offered


def explain(game: Game, command: Command) -> str:
    """`<why> (rule: <name>)`: the name is one of the legality checks' or `answer`."""
    if command.kind == "request":
        refusal = first_refusal(game, command)
    else:
        refusal = first_refusal(game, command, DECIDING if command.kind == "choice" else NOT_ANSWERING)
    if refusal is not None:
        return f"{refusal.message} (rule: {refusal.rule})"
    if command.kind == "choice":
        state = game.state
        if not (state.asked or (state.resolving and state.resolving[-1].waiting is not None)):
            why = f"no effect is waiting for an answer; {player_name(command.player)} holds chance"
        else:
            shown = ", ".join(str(o) for o in game.legal_options())
            why = f"'{command.body()}' is not one of the answers ({shown})"
        return f"{why} (rule: {ANSWER})"
    return "not a legal option"
