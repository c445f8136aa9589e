"""Every entry of each official upstream list is printed on its edition's `all` sheet, HTML and PDF.

The upstream files are the official data the editions are made from; each is matched to
the built-in edition whose title is the file's `ver` (a list whose edition is not yet
registered in actionlists/editions.yaml is checked once it is). For every action, character and fog
of the file the sheet must show its name, type, usage (trigger・speed・timing | $cost), key
and every sentence of its texts, whitespace removed. The only tolerance is the recorded
terminology decision (docs/decisions.md, "ライフ vs デッキ"); key notation is printed as the
file writes it (２枚 stays ２枚).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from blackpoker.site.build import BuildOptions, build_site
from editions_support import (
    EDITIONS,
    UPSTREAM,
    change_logs,
    environment,
    read_upstream,
    upstream_entries,
    upstream_lists,
)
from site_support import pdf_text, sentences, squash, text_content

# (list, field, text): the texts of each kind of upstream entry, printed under their headings.
TEXTS = {
    "act": ("actNote", "actActCond", "actTriggerCond", "actTarget", "actEffect"),
    "char": ("charNote", "charSize", "charAbility"),
    "fog": ("fogTarget", "fogAbility"),
}
# docs/decisions.md "ライフ vs デッキ": the data says ライフ where older upstream text says デッキ.
TERMS = {"デッキ": "ライフ"}


def _built_in() -> list[tuple[str, str]]:
    """(upstream list, edition id) for each official list whose edition is built in."""
    return [(name, edition) for edition, name in upstream_lists().items()]


def normal(text: str) -> str:
    squashed = squash(text)
    for old, new in TERMS.items():
        squashed = squashed.replace(old, new)
    return squashed


def expected(kind: str, entry: dict[str, Any], separator: str, ruby: bool = False) -> list[str]:
    """What the sheet must print for one upstream entry, whitespace removed: first its name and
    type; with `ruby`, its ルビ (in the PDF, a line of its own above the name; where it sits is
    tests/test_layout.py's; in the HTML an <rt>, which a reader's text leaves out)."""
    name, type_ = entry[f"{kind}Name"], entry[f"{kind}Type"]
    wanted = [f"{name}({type_})"]
    if ruby and entry.get("ruby"):
        wanted.append(entry["ruby"])
    if entry.get(f"{kind}Key"):
        wanted.append(f"★{entry[f'{kind}Key']}")
    if kind == "act":
        mode = separator.join(entry[f] for f in ("actTrigger", "actSpeed", "actTime") if entry.get(f))
        cost = f"|${entry['actCost']}" if entry.get("actCost") else ""
        wanted.append(f"{mode}{cost}")
    if kind == "char" and entry.get("charLabel"):
        wanted += [f"<{label.strip()}>" for label in entry["charLabel"].split(",")]
    for field in TEXTS[kind]:
        wanted += sentences(str(entry.get(field) or ""))
    return [normal(w) for w in wanted]


@pytest.fixture(scope="module", params=_built_in(), ids=lambda pair: pair[0])
def upstream(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, ...]:
    """(upstream data, edition id, all-page HTML, all-page PDF text) of one official list."""
    name, edition = request.param
    data = read_upstream(name)
    out = tmp_path_factory.mktemp(f"upstream-{edition}")
    build_site(BuildOptions(out, editions=(edition,), formats=("all",)))
    html = (out / edition / "all.html").read_text(encoding="utf-8")
    return data, edition, html, pdf_text(out / edition / "all.pdf")


def test_every_built_in_edition_has_its_official_list_or_change_log_beside_the_checkout() -> None:
    if not UPSTREAM.is_dir():
        pytest.skip("the shared upstream data (../shared/reference/upstream) is not beside this checkout")
    # the editions upstream publishes only as change logs are written from those (test_change_logs.py)
    assert sorted([*upstream_lists(), *change_logs()]) == sorted(EDITIONS)


def _separator(edition: str) -> str:
    """What the edition's sheets print between the usage line's parts (・, or another edition's -)."""
    return environment().edition(edition).edition.usage_separator


def _articles(html: str) -> list[str]:
    return [normal(text_content(a)) for a in re.findall(r"<article .*?</article>", html, re.S)]


def test_html_prints_every_upstream_entry_in_one_article(upstream: tuple[Any, ...]) -> None:
    data, edition, html, _ = upstream
    articles = _articles(html)
    raw = re.findall(r"<article .*?</article>", html, re.S)
    missing = []
    for kind, entry in upstream_entries(data):
        wanted = expected(kind, entry, _separator(edition))
        # The entry's own article: the one headed by its name and type.
        index = next((i for i, a in enumerate(articles) if wanted[0] in a), None)
        article = articles[index] if index is not None else ""
        missing += [(entry[f"{kind}Name"], w) for w in wanted if w not in article]
        reading = entry.get("ruby")
        if reading and (index is None or not re.search(rf"<rt[^>]*>{reading}</rt>", raw[index])):
            missing.append((entry[f"{kind}Name"], reading))
    assert missing == [], f"{edition}: {missing[:10]}"


def test_pdf_prints_every_upstream_entry(upstream: tuple[Any, ...]) -> None:
    data, edition, _, pdf = upstream
    page = normal(pdf)
    missing = [
        (entry[f"{kind}Name"], w)
        for kind, entry in upstream_entries(data)
        for w in expected(kind, entry, _separator(edition), ruby=True)
        if w not in page
    ]
    assert missing == [], f"{edition}: {missing[:10]}"


def test_every_upstream_entry_is_counted(upstream: tuple[Any, ...]) -> None:
    data, edition, html, _ = upstream
    counts = {kind: sum(1 for k, _ in upstream_entries(data) if k == kind) for kind in TEXTS}
    on_sheet = {
        kind: len(re.findall(rf'<article class="entry {name}"', html))
        for kind, name in (("act", "action"), ("char", "character"), ("fog", "fog"))
    }
    assert on_sheet == counts, edition
