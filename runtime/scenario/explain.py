"""Why a command is not a legal option: the first rule it breaks, in words."""

from __future__ import annotations

from blackpoker.compiler.model import Combat, Limit, Timing
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.legal import cost_waived
from blackpoker.runtime.engine.state import player_name
from blackpoker.runtime.engine.zones import card
from blackpoker.runtime.scenario.notation import Command


def explain(game: Game, command: Command) -> str:
    state = game.state
    who = player_name(command.player)
    if game.over:
        return "the game is over"
    if game.to_move != command.player:
        deciding = player_name(game.to_move) if game.to_move is not None else "nobody"
        return f"{who} cannot act now: {deciding} decides"
    waiting = state.resolving and state.resolving[-1].waiting is not None
    if command.kind != "choice" and waiting:
        return f"an effect waits for {who}'s answer"
    if command.kind == "choice":
        if not waiting:
            return f"no effect is waiting for an answer; {who} holds chance"
        shown = ", ".join(str(o) for o in game.legal_options())
        return f"'{command.body()}' is not one of the answers ({shown})"
    return _request(game, command) if command.kind == "request" else "not a legal option"


def _request(game: Game, command: Command) -> str:
    state = game.state
    p = command.player
    who = player_name(p)
    action = next((a for a in game.rules.actions if a.name == command.name), None)
    if action is None:
        return f"no action named '{command.name}' in format {game.rules.format.id}"
    if not action.direct:
        return f"{action.name} cannot be requested directly"
    if action.timing is Timing.MAIN and p != state.turn_player:
        return f"{action.name} has main timing: only on {who}'s own turn"
    if action.timing is Timing.MAIN and state.stage:
        return f"{action.name} has main timing: the stage must be empty"
    if Limit.ONCE_PER_TURN in action.limits and action.id in state.players[p].used:
        return f"{action.name} can be requested once per turn"
    if Limit.ONLY_WITHOUT_TURN in action.limits and p == state.turn_player:
        return f"{action.name} can be requested only without the turn: {who} holds it"
    hand = [card(c) for c in state.players[p].hand]
    rest = list(hand)
    for key in command.keys:
        if key not in rest:
            return f"key card {key} is not in {who}'s hand"
        rest.remove(key)
    if action.matcher is None and command.keys:
        return f"{action.name} takes no key cards"
    if action.matcher is not None and not action.matcher.matches(command.keys):
        return f"key cards {''.join(map(str, command.keys)) or '(none)'} do not match {action.key}"
    needed = "" if cost_waived(game, p, action) else str(action.cost)
    given = "".join(sorted(unit for unit, _ in command.payment))
    if given != needed:
        return f"the cost is ${needed or ' (none)'}, not ${given or ' (none)'}"
    for unit, paid in command.payment:
        if unit == "D" and paid is not None and paid not in rest:
            if paid in command.keys:
                return f"{paid} is a key card and cannot be used as a D cost"
            return f"{paid} is not in {who}'s hand"
        if unit == "D" and paid is not None:
            rest.remove(paid)
        if unit == "B" and not any(
            u.charged and u.kind.combat is Combat.BULWARK and any(card(c) == paid for c in u.cards)
            for u in state.players[p].field
        ):
            return f"$B needs a charged bulwark of {who}: {paid} is not one"
    spec = game.tables.target_specs.get(action.id)
    if spec is not None and command.target is None:
        return f"{action.name} needs a target"
    if spec is None and command.target is not None:
        return f"{action.name} takes no target"
    if command.target is not None:
        shown = command.body().split(" → ")[1]
        kind, position, _ = command.target
        on_stage = kind == "request" and 0 < position <= len(state.stage)
        targeted = state.stage[position - 1] if on_stage else None
        if spec.get("counterable") and targeted and Limit.UNCOUNTERABLE in targeted.action.limits:
            return f"{shown} is {targeted.action.name}, which counter actions cannot target"
        return f"{shown} is not a valid target of {action.name}"
    return "not a legal option"
