"""What one run of the `blackpoker` command shares, carried in click's context (`ctx.obj`):
one compiler environment, made when a command first asks for it, so that every file is read
and every edition checked once however many options and steps need them; and what a command
says it left undone when bad input stops it.

Nothing of the compiler is imported here: a command that needs no environment (`--help`, a
warm `simulate -n 1`) never loads the pipeline (docs/benchmarks.md, start-up)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from blackpoker.compiler.environment import Environment


class Invocation:
    def __init__(self) -> None:
        self._env: Environment | None = None
        self.outcome = ""  # said after the problems when bad input stops the command ("nothing written")

    def environment(self) -> Environment:
        """The invocation's one environment, made on the first call."""
        if self._env is None:
            from blackpoker.compiler.environment import Environment

            self._env = Environment()
        return self._env


def invocation() -> Invocation:
    """The running command's invocation; outside a command (a library caller), a new one."""
    ctx = click.get_current_context(silent=True)
    return Invocation() if ctx is None else ctx.ensure_object(Invocation)


def environment() -> Environment:
    """The running command's environment (see `invocation`)."""
    return invocation().environment()
