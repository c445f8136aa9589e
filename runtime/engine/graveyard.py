"""The graveyard's top card (墓地の一番上のカードの扱い), for an edition whose
`core.graveyard_top` is `owner_chooses`.

The top card of a graveyard is public (001 §3.12.1); the state keeps a graveyard top last.
Under the rule, when several cards reach a player's graveyard at once, its owner chooses
which of them lies on top, and when cards leave it and two or more stay, its owner chooses
which of those lies on top. "At once" is one step of an effect, one request's payment, or
the key cards a finished request lets go. The transitions note what reaches and leaves a
graveyard (`GameState.arrived`, `GameState.left`, None when the edition does not watch);
the core flow and the interpreter settle them here after each such move: the owners who
have a choice are asked, the turn player first, before the game goes on. Equal cards (the
two Jokers) are one answer; one possible answer is no question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from blackpoker.runtime.engine.options import Choice, Prompt, distinct_values
from blackpoker.runtime.engine.transitions import put_on_top
from blackpoker.runtime.rules.enums import Answer

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table

WORD: Final = Answer.TOP  # the answer's word: `top ♠5`


def settle(g: Table) -> bool:
    """Turn what reached and left the graveyards since the last look into questions; True
    when a player must now choose a top card."""
    state = g.state
    arrived, left = state.arrived, state.left
    if not arrived and not left:
        return False
    assert arrived is not None and left is not None
    asked: list[Prompt] = []
    if left or len(arrived) > 1:  # one card that arrived alone lies on top: most settles
        turn = state.turn_player
        for p in (turn, 1 - turn):
            pile = state.players[p].graveyard
            came = [c for c in arrived if c in pile]
            among = came if len(came) > 1 else pile if p in left and not came else []
            values = distinct_values(among) if len(among) > 1 else []
            if len(values) > 1:
                asked.append(Prompt(p, tuple(Choice(p, WORD, c) for c in values)))
    arrived.clear()
    left.clear()
    state.asked = tuple(asked)
    return bool(asked)


def answer(g: Table, choice: Choice) -> None:
    """The first question answered: the chosen card lies on top of its owner's graveyard."""
    state = g.state
    assert choice.a is not None
    put_on_top(state, choice.a)
    state.asked = state.asked[1:]
