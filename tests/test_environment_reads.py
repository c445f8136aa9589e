"""An environment reads a file once while it is unchanged on disk, however many editions need
it (the built-in regulations every edition looks up, an edition others are based on), and
reads it anew once it changed. Edition ids are read from the registry."""

from __future__ import annotations

from pathlib import Path

import yaml
from blackpoker.compiler.documents.regulation import FOLDER, builtin_files
from blackpoker.compiler.environment import Environment

REGISTRY = Environment()
OLDEST = REGISTRY.builtin_editions()[-1]  # the registry lists the newest first


def _touched(path: Path) -> None:
    """The same data, written again: another size on disk."""
    path.write_text(path.read_text("utf-8") + "# edited\n", "utf-8")


def test_the_built_in_regulations_are_read_once_for_every_edition() -> None:
    env = Environment()
    shown = {path: f"actionlists/{FOLDER}/{path.name}" for path in builtin_files()}
    first = {path: env.regulations_file(path, name) for path, name in shown.items()}
    named = {edition: r for r in first.values() for edition in r.editions}
    assert named
    for edition in env.builtin_editions():  # each looks up every built-in file
        found = env.edition_regulations(env.edition(edition))
        assert edition not in named or found is named[edition]
    assert all(env.regulations_file(path, name) is first[path] for path, name in shown.items())


def test_a_changed_regulations_file_is_read_anew(tmp_path: Path) -> None:
    path = tmp_path / "regulations.yaml"
    path.write_bytes(builtin_files()[0].read_bytes())
    env = Environment()
    first = env.regulations(str(path))
    assert env.regulations(str(path)) is first
    _touched(path)
    again = env.regulations(str(path))
    assert again is not first and again.id == first.id


def test_a_base_is_read_once_for_the_editions_on_it_and_anew_once_changed(tmp_path: Path) -> None:
    base = tmp_path / f"{OLDEST}.yaml"
    base.write_bytes(REGISTRY.builtin_path(OLDEST).read_bytes())
    based = []
    for name in ("one", "two"):
        path = tmp_path / f"{name}.yaml"
        data = {"kind": "edition", "id": name, "base": OLDEST, "title": name}
        path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
        based.append(str(path))
    env = Environment()
    one, two = (env.edition(path) for path in based)
    assert one.base is not None and one.base is two.base is env.edition(str(base))
    _touched(base)
    again = env.edition(based[0])
    assert again is not one and again.base is not one.base and again.base is env.edition(str(base))
    assert again.base.edition.id == OLDEST
