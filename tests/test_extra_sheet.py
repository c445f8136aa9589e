"""Every ability and action of each upstream extra list is printed on its extra sheet, HTML
and PDF: names, ability texts, β marks and every sentence of the actions' texts (whitespace
removed). The shipped list a page shows is matched to its upstream file by version."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.upstream.vocabulary import vocabulary
from blackpoker.site.build import BuildOptions, BuildResult, build_site
from editions_support import UPSTREAM, newest_upstream, read_upstream
from site_support import pdf_text, sentences, squash, text_content

ACTION_TEXTS = ("actNote", "actTarget", "actEffect", "actActCond", "actTriggerCond", "actUnit")
WORDS = vocabulary()


def _upstream_lists(*keys: str) -> list[str]:
    """The upstream extra lists: an abiList, or (with "trumpList") a frame list's trump list too, in its
    newest copy (the one the shipped list is imported from)."""
    lists = [p.name for p in sorted(UPSTREAM.glob("*.yaml")) if "abiList" in read_upstream(p.name)]
    return lists + [name for key in keys for name in newest_upstream(key)]


def _version(upstream: dict[str, Any]) -> str:
    """The shipped list's id: the version, or (a frame list's trump list has none) the ver's 第N版."""
    header = upstream["data"]
    number = re.search("第(.+?)版", header["ver"])
    assert number is not None
    return f"v{header.get('v', number[1])}"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BuildResult]:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (apt-get install poppler-utils)")
    out = tmp_path_factory.mktemp("extra") / "site"
    return out, build_site(BuildOptions(out, (), ("extra",), workers=2))  # with the lists of no edition


def _sheet(built: tuple[Path, BuildResult], name: str) -> Path:
    """The HTML sheet of upstream list `name`: the shipped list of its version, on the page of
    the edition the registry lists it for (a based edition prints the lists it inherits too)."""
    out, result = built
    version = _version(read_upstream(name))
    env = Environment()
    (page,) = [
        p
        for p in result.extras
        if p.extra.id == version and version in {f.stem for f in env.builtin_extras(p.edition)}
    ]
    return out / page.path


def _page(built: tuple[Path, BuildResult], name: str) -> tuple[str, str]:
    """The squashed HTML and PDF text of the sheet of upstream list `name`."""
    sheet = _sheet(built, name)
    return squash(text_content(sheet.read_text(encoding="utf-8"))), squash(
        pdf_text(sheet.with_suffix(".pdf"))
    )


def _expected(upstream: dict[str, Any]) -> list[str]:
    found = []
    for raw in upstream.get("abiList", ()):
        if "name" in raw:
            found += [raw["name"], *sentences(str(raw["ability"]))]
            for act in raw.get("acts") or ():
                found += [act["actName"], *(s for key in ACTION_TEXTS for s in sentences(act.get(key) or ""))]
    # a frame list's trump list: its trumps, whose actions are the actList groups of their type
    trumps = [
        g for g in upstream.get("trumpList", ()) if g["trumps"][0]["trumpType"] != WORDS.face_down_trump
    ]
    for group in trumps:
        found += [group["trumps"][0]["trumpName"], *sentences(group["trumps"][0]["trumpAbility"])]
    mine = {g["type"] for g in trumps} | {WORDS.trump_operations}
    for group in upstream["actList"]:
        if "trumpList" in upstream and group["type"] not in mine:
            continue  # a frame's own action, printed with the regulations
        for act in group["acts"]:
            found += [act["actName"], *(s for key in ACTION_TEXTS for s in sentences(act.get(key) or ""))]
    # a line of dashes is a rule between two parts of a text (site/markup.py), not text
    return [squash(text) for text in found if squash(text) and not set(squash(text)) <= {"-"}]


@pytest.mark.parametrize("name", _upstream_lists("trumpList"))
def test_every_ability_and_action_is_on_the_sheet(built: tuple[Path, BuildResult], name: str) -> None:
    html, pdf = _page(built, name)
    expected = _expected(read_upstream(name))
    assert len(expected) > 50
    assert [text for text in expected if text not in html] == []
    assert [text for text in expected if text not in pdf] == []


@pytest.mark.parametrize("name", _upstream_lists())
def test_a_line_of_dashes_is_printed_as_a_rule(built: tuple[Path, BuildResult], name: str) -> None:
    html = _sheet(built, name).read_text(encoding="utf-8")
    rules = sum(
        line.strip() == "---"
        for raw in read_upstream(name)["abiList"]
        for line in str(raw.get("ability", "")).splitlines()
    )
    assert html.count('<hr class="text-rule">') == rules


@pytest.mark.parametrize("name", _upstream_lists())
def test_beta_abilities_are_marked(built: tuple[Path, BuildResult], name: str) -> None:
    html = _sheet(built, name).read_text(encoding="utf-8")
    betas = [raw["name"] for raw in read_upstream(name)["abiList"] if raw.get("beta") == "●"]
    for ability in betas:  # in the grid and at the ability's heading
        assert html.count(f'{ability}</a><span class="beta"') == 1, ability
    assert html.count('class="beta"') == 2 * len(betas)


def test_the_index_links_each_extra_sheet_and_its_pdfs(built: tuple[Path, BuildResult]) -> None:
    out, result = built
    index = (out / "index.html").read_text(encoding="utf-8")
    assert result.extras and all(f'href="{page.path}"' in index for page in result.extras)
    for page in result.extras:
        pdfs = [page.path.replace(".html", suffix) for suffix in (".pdf", "-2up.pdf")]
        assert all((out / pdf).is_file() and f'href="{pdf}"' in index for pdf in pdfs)


def _article(html: str, id: str) -> str:
    """The article of element `id`, nested articles included."""
    start = html.index(f'id="{id}"')
    depth, at = 0, html.rindex("<article", 0, start)
    for tag in re.finditer(r"<(/?)article\b", html[at:]):
        depth += -1 if tag[1] else 1
        if depth == 0:
            return html[at : at + tag.end()]
    raise AssertionError(id)


def test_the_trump_lists_types_readings_and_notes_are_kept_and_printed(
    built: tuple[Path, BuildResult],
) -> None:
    """A frame list's trump list (act-frame.yaml) gives each trump a type (表切札) and a 開発メモ, and its
    actions and characters a ルビ and a 開発メモ: the shipped list of the same date keeps them and its
    sheet prints them (the type after the name, the ルビ above it, the note behind the story toggle)."""
    out, result = built
    checked = 0
    for name in _upstream_lists("trumpList"):
        upstream = read_upstream(name)
        if "trumpList" not in upstream:
            continue
        pages = [
            p
            for p in result.extras
            if p.extra.id == _version(upstream) and p.extra.published == upstream["data"]["lastupdate"]
        ]
        if not pages:
            continue  # an upstream copy of another date than the shipped list's
        html = (out / pages[0].path).read_text(encoding="utf-8")
        acts = {g["type"]: g["acts"] for g in upstream["actList"]}
        chars = {g["type"]: g["chars"] for g in upstream["charList"]}
        for group in upstream["trumpList"]:
            trump = group["trumps"][0]
            if trump["trumpType"] == WORDS.face_down_trump:
                continue
            article = _article(html, f"trump-{trump['trumpId']}")
            heading = article.split("</h3>", 1)[0]
            assert f"({trump['trumpType']})" in text_content(heading)
            if trump.get("ruby"):
                assert re.search(rf"<rt[^>]*>{trump['ruby']}</rt>", heading)
            lore = squash(
                text_content("".join(re.findall(r'<details class="lore">.*?</details>', article, re.S)))
            )
            notes = [trump.get("devNote"), *(a.get("devNote") for a in acts.get(group["type"], ()))]
            notes += [c.get("devNote") for c in chars.get(group["type"], ())]
            lines = [squash(line) for note in notes if note for line in sentences(note)]
            assert all(line in lore for line in lines), trump["trumpName"]
            for entry in (*acts.get(group["type"], ()), *chars.get(group["type"], ())):
                if entry.get("ruby"):
                    assert re.search(rf"<rt[^>]*>{entry['ruby']}</rt>", article), entry
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("name", _upstream_lists())
def test_keys_print_as_the_list_writes_them(built: tuple[Path, BuildResult], name: str) -> None:
    """同じスート2枚 stays 同じスート2枚 (the action lists write 同じスートを2枚)."""
    html, pdf = _page(built, name)
    upstream = read_upstream(name)
    acts = [a for group in upstream["actList"] for a in group["acts"]]
    acts += [a for raw in upstream.get("abiList", ()) for a in raw.get("acts") or ()]
    keys = [squash(f"★{a['actKey']}") for a in acts if str(a.get("actKey") or "").strip()]
    assert keys
    assert [key for key in keys if key not in html] == []
    assert [key for key in keys if key not in pdf] == []
