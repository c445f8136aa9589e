"""Actions an event triggers (`triggered_by.event`): a trump turning face up, a player
discarding hand cards, an attacker no one blocked; and those a request triggers
(`triggered_by.requested`, a character's `when: requested`). Each goes to the trigger check's
buffer like an action a resolution triggers (runtime/engine/flow.py), for the player its rule
names: `you` is the player the event is about, or the request's controller."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from blackpoker.runtime.engine.expressions import condition
from blackpoker.runtime.engine.state import Origin, Request, Resolution
from blackpoker.runtime.engine.transitions import trigger_for
from blackpoker.runtime.engine.zones import card
from blackpoker.runtime.rules.model import When
from blackpoker.runtime.rules.program import Event, PlayerName

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table

# whose request a trigger makes: (turn player, the player of the event or of the resolved
# request) → player
TRIGGERED_FOR: Final = {
    PlayerName.TURN_PLAYER: lambda turn, about: turn,
    PlayerName.YOU: lambda turn, about: about,
    PlayerName.OPPONENT: lambda turn, about: 1 - about,
}


def happened(g: Table, event: Event, about: int, cards: list[int]) -> None:
    """The event happened to player `about`, with these cards (the turned trump, the discarded
    cards, the unblocked attacker's): each action it triggers whose condition holds (read with
    `you` as `about`) joins the buffer, its `cause` those cards."""
    if not g.rules.events:  # no action waits for an event
        return
    state = g.state
    for action in g.rules.events.get(event, ()):
        rule = action.triggered_by
        assert rule is not None
        if rule.card is not None and not any(card(c) == rule.card for c in cards):
            continue
        probe = Resolution(Request(-1, action, about, (), [], cause=tuple(cards)), Origin.TRIGGER, [])
        if rule.cond is None or condition(g, probe, rule.cond):
            who = TRIGGERED_FOR[rule.player](state.turn_player, about)
            state.buffer.append(Request(state.new_uid(), action, who, (), [], cause=tuple(cards)))


def requested(g: Table, req: Request) -> None:
    """A request was made (起こした場合, 002 §6.2.1.5: 起こす is to request): the actions whose
    `triggered_by.requested` names its action, if their condition holds (read with the request
    as the resolution would read it), and its controller's characters waiting for it (`when:
    requested`, 魔王 at its エンド) put their requests into the buffer, which the trigger check
    [6] that follows the request [5] empties before the request resolves [8] or goes on the
    stage [10]."""
    rules = g.rules
    action_id = req.action.id
    state = g.state
    found = rules.requested.get(action_id, ())
    if found:
        probe = Resolution(req, Origin.TRIGGER, [])
        for action in found:
            rule = action.triggered_by
            assert rule is not None
            if rule.cond is None or condition(g, probe, rule.cond):
                who = TRIGGERED_FOR[rule.player](state.turn_player, req.controller)
                state.buffer.append(Request(state.new_uid(), action, who, (), []))
    if action_id in rules.watched:  # else no character's trigger can meet it
        for unit in list(state.players[req.controller].field):
            for trigger in unit.kind.triggers:
                if trigger.when is When.REQUESTED and trigger.action == action_id:
                    trigger_for(g, unit, trigger)
