"""Actions an event triggers (`triggered_by.event`): a trump turning face up, a player
discarding hand cards, an attacker no one blocked. Each goes to the trigger check's buffer
like an action a resolution triggers (runtime/engine/flow.py), for the player its rule names:
`you` is the player the event is about."""

from __future__ import annotations

from typing import TYPE_CHECKING

from blackpoker.runtime.engine.expressions import condition
from blackpoker.runtime.engine.state import Origin, Request, Resolution
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.rules.program import Event, PlayerName

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table

# whose request a trigger makes: (turn player, the player of the event or of the resolved
# request) → player
TRIGGERED_FOR = {
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
        if rule.card is not None and not any(label(c) == rule.card for c in cards):
            continue
        probe = Resolution(Request(-1, action, about, (), [], cause=tuple(cards)), Origin.TRIGGER, [])
        if rule.cond is None or condition(g, probe, rule.cond):
            who = TRIGGERED_FOR[rule.player](state.turn_player, about)
            state.buffer.append(Request(state.new_uid(), action, who, (), [], cause=tuple(cards)))
