"""The editions upstream publishes only as change logs are based editions written from them
(tests/data/a/decisions.yaml, `change_logs`): each quotes the log, each entry it adds or
changes carries a quote of its log line, and what the log states is in the data."""

from __future__ import annotations

import re
import unicodedata

import pytest
import yaml
from editions_support import UPSTREAM, change_logs, environment

QUOTE = re.compile(r"「(.+?)」")


def _log(name: str) -> str:
    path = UPSTREAM / name
    if not path.is_file():
        pytest.skip("the shared upstream data (../shared/reference/upstream) is not beside this checkout")
    return path.read_text(encoding="utf-8")


def _plain(text: str) -> str:
    """A text as compared: the log's markup (``…``) and spaces left out, widths folded."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text.replace("``", "")))


@pytest.mark.parametrize(("edition", "log"), sorted(change_logs().items()))
def test_every_quote_is_text_of_the_change_log(edition: str, log: str) -> None:
    text = environment().builtin_path(edition).read_text(encoding="utf-8")
    quotes = [q for line in text.splitlines() if line.lstrip().startswith("#") for q in QUOTE.findall(line)]
    assert quotes, f"{edition} quotes nothing of {log}"
    whole = _plain(_log(log))
    for quote in quotes:
        assert _plain(quote) in whole, quote


@pytest.mark.parametrize(("edition", "log"), sorted(change_logs().items()))
def test_every_entry_the_edition_changes_carries_its_quote(edition: str, log: str) -> None:
    """The comment lines right above each entry the file adds or changes quote the log, and so
    does its core, when it states one."""
    _log(log)
    path = environment().builtin_path(edition)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    written = yaml.safe_load(text)
    ids = [
        entry_id
        for name in ("actions", "characters", "fogs")
        for entry_id in [
            *written.get(name, {}).get("change", {}),
            *(e["id"] for e in written.get(name, {}).get("add", ())),
        ]
    ]
    assert ids or "core" in written, f"{edition} changes nothing"
    for entry_id in ids:
        i = next(k for k, line in enumerate(lines) if line in (f"    {entry_id}:", f"    - id: {entry_id}"))
        above = []
        while i > 0 and lines[i - 1].lstrip().startswith("#"):
            i -= 1
            above.append(lines[i])
        assert any(QUOTE.search(line) for line in above), (edition, entry_id)
    if "core" in written:
        start = lines.index("core:")
        block = lines[
            start + 1 : next((k for k in range(start + 1, len(lines)) if lines[k][:1].isalpha()), None)
        ]
        assert any(QUOTE.search(line) for line in block), (edition, "core")
