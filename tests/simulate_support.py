"""The rules the simulate tests play: the first built-in edition's smallest format, and a
local rule on it."""

from __future__ import annotations

from pathlib import Path

from editions_support import EDITIONS, compiled, formats

EDITION = EDITIONS[0]
SMALLEST = formats(EDITION)[0]

# A local rule on the smallest format: its first paid action made free, and an added action
# without a program.
LOCAL = """\
kind: overlay
name: my-rules
title: "{title}"
edition: {edition}
base: {base}
actions:
  change:
    {free}:
      cost: ""
  add:
    - id: shout
      name: "{name}"
      type: {type}
      section: {section}
      timing: quick
      speed: normal
      cost: D
      key: ♡A〜5
      effect: 何も起きない。
"""


def local_rule(folder: Path, title: str = "マイルール", name: str = "シャウト") -> Path:
    """The local rule written in `folder` (my-rules.yaml), under that title, its added
    action under that name."""
    base = compiled(EDITION)[SMALLEST]
    path = folder / "my-rules.yaml"
    text = LOCAL.format(
        title=title.replace('"', '\\"'),
        name=name.replace('"', '\\"'),
        edition=EDITION,
        base=SMALLEST,
        free=next(a.id for a in base.actions if a.cost.units),
        type=base.edition.action_types[0],
        section=base.edition.sections[0],
    )
    path.write_text(text, "utf-8")
    return path
