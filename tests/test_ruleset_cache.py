"""The on-disk cache of compiled rule sets: a hit is the same rule set, a changed source file
is never served from an old entry, a corrupt or unreadable entry or folder is a miss (never a
traceback), and `simulate --no-cache` bypasses it. Names are read from the data."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from bad_input_support import invoke
from blackpoker.compiler import cache
from blackpoker.compiler.cache import CACHE_DIR, DEFAULTS, compile_cached, registry_default
from blackpoker.compiler.environment import Environment

ENV = Environment()
EDITION, FORMAT = ENV.default("edition"), ENV.default("play_format")


class Refusing(Environment):
    """An environment that must not compile: a hit never asks it to."""

    def compile(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
        raise AssertionError("compiled although the cache holds the rule set")


def _edition(folder: Path, title: str) -> Path:
    path = folder / "mine.yaml"
    data = {"kind": "edition", "id": "mine", "base": EDITION, "title": title}
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return path


def test_a_second_compilation_is_read_from_the_cache(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    first, files = compile_cached(Environment(), EDITION, FORMAT, folder=folder)
    assert len(list(folder.glob("*.pickle"))) == 1 and files
    again, same = compile_cached(Refusing(), EDITION, FORMAT, folder=folder)
    assert again == first and set(same) >= {p.resolve() for p in files}


def test_a_changed_source_is_compiled_anew(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    path = _edition(tmp_path, "一")
    old, _ = compile_cached(Environment(), str(path), FORMAT, folder=folder)
    _edition(tmp_path, "二")
    new, _ = compile_cached(Environment(), str(path), FORMAT, folder=folder)
    assert (old.edition.title, new.edition.title) == ("一", "二")
    with pytest.raises(AssertionError):  # the entry now holds the new one, which is unchanged
        path.write_text(path.read_text("utf-8").replace("二", "三"), "utf-8")
        compile_cached(Refusing(), str(path), FORMAT, folder=folder)


@pytest.mark.parametrize("data", ["compiler/grammars/key.lark", "schema/defs.schema.json"])
def test_a_changed_grammar_or_schema_is_a_miss(
    data: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """They decide what a compilation gives (a schema: whether it gives one) as the compiler's
    code does; the cache reads its stamp from a copy of them here."""
    package = Path(cache.__file__).parents[1]
    copy = tmp_path / "package"
    for name in (data, "compiler/cache.py"):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes((package / name).read_bytes())
    monkeypatch.setattr(cache, "__file__", str(copy / "compiler" / "cache.py"))
    folder = tmp_path / "cache"
    compile_cached(Environment(), EDITION, FORMAT, folder=folder)
    compile_cached(Refusing(), EDITION, FORMAT, folder=folder)  # a hit while nothing changed
    (copy / data).write_bytes((copy / data).read_bytes() + b"\n")
    with pytest.raises(AssertionError, match="compiled although"):
        compile_cached(Refusing(), EDITION, FORMAT, folder=folder)


def test_an_entry_of_another_version_of_the_package_is_a_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The package's metadata names its version; an entry holds its digest, which a hit
    checks as it checks the sources'."""
    metadata = tmp_path / "METADATA"
    metadata.write_text("Name: blackpoker\nVersion: 1.0\n", "utf-8")
    monkeypatch.setattr(cache, "_package_metadata", lambda: [metadata])
    folder = tmp_path / "cache"
    first, _ = compile_cached(Environment(), EDITION, FORMAT, folder=folder)
    assert compile_cached(Refusing(), EDITION, FORMAT, folder=folder)[0] == first
    metadata.write_text("Name: blackpoker\nVersion: 1.1\n", "utf-8")
    with pytest.raises(AssertionError):
        compile_cached(Refusing(), EDITION, FORMAT, folder=folder)


@pytest.mark.parametrize("fault", [b"", b"not a pickle", b"\x80\x05garbage"])
def test_a_corrupt_entry_is_a_miss_and_is_replaced(tmp_path: Path, fault: bytes) -> None:
    folder = tmp_path / "cache"
    good, _ = compile_cached(Environment(), EDITION, FORMAT, folder=folder)
    (entry,) = folder.glob("*.pickle")
    entry.write_bytes(fault)
    again, _ = compile_cached(Environment(), EDITION, FORMAT, folder=folder)
    assert again == good and entry.read_bytes() != fault


def test_an_entry_others_may_write_is_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    compile_cached(Environment(), EDITION, FORMAT, folder=folder)
    (entry,) = folder.glob("*.pickle")
    entry.chmod(0o666)
    with pytest.raises(AssertionError):
        compile_cached(Refusing(), EDITION, FORMAT, folder=folder)


def test_an_unusable_cache_folder_only_costs_the_compilation(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("", "utf-8")
    ruleset, _ = compile_cached(Environment(), EDITION, FORMAT, folder=blocked / "cache")
    assert ruleset.format.id == FORMAT and blocked.read_text("utf-8") == ""


def test_simulate_uses_the_cache_unless_told_not_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_DIR, str(folder))
    assert invoke("simulate", "-n", "1", "--no-cache").exit_code == 0
    assert not folder.exists()
    assert invoke("simulate", "-n", "1").exit_code == 0
    assert len(list(folder.glob("*.pickle"))) == 1
    for entry in folder.iterdir():  # safe to delete at any time
        entry.unlink()
    folder.rmdir()
    assert invoke("simulate", "-n", "1").exit_code == 0


def test_the_registry_defaults_are_kept_and_a_corrupt_entry_is_a_miss(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    expected = {what: ENV.default(what) for what in DEFAULTS}
    assert {what: registry_default(what, folder) for what in DEFAULTS} == expected
    (entry,) = folder.glob("defaults-*.json")
    for fault in ("", "not json", "[1, 2]", '{"edition": 1}'):
        entry.write_text(fault, "utf-8")
        assert registry_default("play_format", folder) == expected["play_format"]
        assert entry.read_text("utf-8") != fault  # written again
    assert registry_default("edition", None) == expected["edition"]
