"""What the benchmarks play, read from the data: the edition `blackpoker simulate` takes when
not told (the registry's default), its formats in the data's order (smallest first), and the
format `compile` takes when not told."""

from __future__ import annotations

from blackpoker.compiler.environment import Environment


def _read() -> tuple[str, tuple[str, ...], str]:
    env = Environment()
    edition = env.default("edition")
    return edition, tuple(f.id for f in env.edition(edition).edition.formats), env.default("format")


EDITION, FORMATS, STANDARD = _read()
