"""Runs an effect program step by step; it can stop at a decision and resume with the answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from blackpoker.runtime.engine.expressions import replacement, shielded
from blackpoker.runtime.engine.graveyard import settle
from blackpoker.runtime.engine.primitives import PRIMITIVES, STOP, WAIT, Signal
from blackpoker.runtime.engine.state import Frame, Origin, Resolution

if TYPE_CHECKING:
    from blackpoker.runtime.engine.table import Table

# bound once (an enum member read as `Origin.SETUP` goes through the enum class: engine/targets.py)
SETUP: Final = Origin.SETUP


def run(g: Table, res: Resolution) -> Signal | None:
    """Run until the program ends (None), waits for a decision, or starts a nested request.

    A step that waits is run again with the answer, so the program counter only moves on
    once a step is done; branches and loops push frames that run before the rest.
    """
    if not res.begun:
        _begin(g, res)
    frames = res.frames
    state = g.state
    while frames:
        # the steps of the top frame run in a row until one pushes a frame (or it ends): the
        # frame's fields are read once per run of steps, not once per step
        frame = frames[-1]
        steps, bind, depth = frame.steps, frame.bind, len(frames)
        while frame.pc < len(steps):
            if bind is not None:
                res.vars[bind[0]] = bind[1]
            step = steps[frame.pc]
            signal = PRIMITIVES[type(step)](g, res, step)
            if signal is not None:
                if signal is WAIT:
                    return signal
                frame.pc += 1
                if signal is STOP:
                    frames.clear()
                    return None
                return signal  # NESTED: the nested request's resolution runs first
            frame.pc += 1
            if (state.arrived or state.left) and settle(g):
                return WAIT  # the graveyard's top card is chosen before the next step
            if len(frames) != depth:
                break
        else:
            frames.pop()
    return None


def _begin(g: Table, res: Resolution) -> None:
    """As an effect starts (効果を発揮する直前): a `replace_effect` on gives it another program,
    a `prevent_damage` on shields its owner."""
    res.begun = True
    if not g.rules.has_abilities or res.origin is SETUP:
        return
    found = replacement(g, res.request)
    if found is not None:
        res.frames[:] = [Frame(found.steps)]
    res.shielded = shielded(g, res.request)
