"""Runs an effect program step by step; it can stop at a decision and resume with the answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from blackpoker.runtime.engine.expressions import replacement, shielded
from blackpoker.runtime.engine.graveyard import settle
from blackpoker.runtime.engine.primitives import PRIMITIVES, Signal
from blackpoker.runtime.engine.state import Frame, Origin, Resolution

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table


def run(g: Table, res: Resolution) -> Signal | None:
    """Run until the program ends (None), waits for a decision, or starts a nested request.

    A step that waits is run again with the answer, so the program counter only moves on
    once a step is done; branches and loops push frames that run before the rest.
    """
    if not res.begun:
        _begin(g, res)
    frames = res.frames
    while frames:
        frame = frames[-1]
        if frame.pc >= len(frame.steps):
            frames.pop()
            continue
        step = frame.steps[frame.pc]
        if frame.bind is not None:
            res.vars[frame.bind[0]] = frame.bind[1]
        signal = PRIMITIVES[type(step)](g, res, step)
        if signal is Signal.WAIT:
            return signal
        frame.pc += 1
        if signal is Signal.STOP:
            frames.clear()
            return None
        if signal is Signal.NESTED:
            return signal
        state = g.state
        if (state.arrived or state.left) and settle(g):
            return Signal.WAIT  # the graveyard's top card is chosen before the next step
    return None


def _begin(g: Table, res: Resolution) -> None:
    """As an effect starts (効果を発揮する直前): a `replace_effect` on gives it another program,
    a `prevent_damage` on shields its owner."""
    res.begun = True
    if not g.rules.has_abilities or res.origin is Origin.SETUP:
        return
    found = replacement(g, res.request)
    if found is not None:
        res.frames[:] = [Frame(found.steps)]
    res.shielded = shielded(g, res.request)
