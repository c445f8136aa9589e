"""The site of every built-in edition: the index in registry order, the 変更履歴 pages, and
the fields of the newer data (ルビ, 起動条件 / 誘発条件, labels, サイズ, versions, ●, fogs)
on each edition's `all` sheet. Facts are read from the compiled data, never named here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from blackpoker.cli.main import main
from blackpoker.compiler.diff import diff_rulesets, whole_edition
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.pipeline import builtin_editions
from blackpoker.site.pages import all_ruleset
from click.testing import CliRunner
from site_support import built_html, sentences, squash, text_content

EDITIONS = builtin_editions()


@pytest.fixture(scope="module")
def env() -> Environment:
    return Environment()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_html(tmp_path_factory)


def page(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def articles(html: str) -> dict[str, str]:
    """Each entry's HTML by its element id (action-…, character-…, fog-…)."""
    found = re.finditer(r'<article class="entry \w+" id="([^"]+)".*?</article>', html, re.S)
    return {match.group(1): match.group(0) for match in found}


def test_index_lists_the_editions_newest_first(site: Path) -> None:
    index = page(site, "index.html")
    assert re.findall(r'<section class="edition" aria-labelledby="edition-([^"]+)"', index) == list(EDITIONS)


def test_each_edition_with_an_older_one_has_a_linked_changes_page(site: Path) -> None:
    index = page(site, "index.html")
    links = set(re.findall(r'href="([^"]+/changes\.html)"', index))
    assert links == {f"{edition}/changes.html" for edition in EDITIONS[:-1]}
    assert not (site / EDITIONS[-1] / "changes.html").exists()


@pytest.mark.parametrize(("older", "newer"), list(zip(EDITIONS[1:], EDITIONS[:-1], strict=True)))
def test_changes_page_shows_the_diff_against_the_older_edition(
    site: Path, env: Environment, older: str, newer: str
) -> None:
    diff = diff_rulesets(whole_edition(env.edition(older)), whole_edition(env.edition(newer)))
    text = squash(text_content(page(site, f"{newer}/changes.html")))
    assert squash(f"[{older}]") in text and squash(f"[{newer}]") in text
    for part in diff.lists:
        if part.empty:
            continue
        assert (
            squash(f"追加 {len(part.added)} ・ 削除 {len(part.removed)} ・ 変更 {len(part.changed)}") in text
        )
        for entry in (*part.added, *part.removed, *(c.entry for c in part.changed)):
            assert squash(entry.name) + entry.id in text
        for change in part.changed:
            for field in change.changes:
                assert squash(field.field + field.old + field.new) in text


def _all_entries(env: Environment, edition: str) -> list[tuple[str, Any]]:
    ruleset = all_ruleset(env, edition)
    return [
        *((f"action-{a.id}", a) for a in ruleset.actions),
        *((f"character-{c.id}", c) for c in ruleset.characters),
        *((f"fog-{f.id}", f) for f in ruleset.fogs),
    ]


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_field_an_entry_has_is_printed_and_none_it_lacks(
    site: Path, env: Environment, edition: str
) -> None:
    found = articles(page(site, f"{edition}/all.html"))
    labels = {label.id: label.name for label in all_ruleset(env, edition).edition.labels}
    for element, entry in _all_entries(env, edition):
        html = found[element]
        text = squash(text_content(html))
        headings = {
            "起動条件": getattr(entry, "activation_condition", ""),
            "誘発条件": getattr(entry, "trigger_condition", ""),
            "サイズ": getattr(entry, "size_text", ""),
            "対象": getattr(entry, "target", ""),
        }
        for heading, value in headings.items():
            assert (f"<dt>({heading})</dt>" in html) == bool(value), (element, heading)
            assert all(squash(s) in text for s in sentences(value)), (element, heading)
        assert (f"<rt>{entry.ruby}</rt>" in html) if entry.ruby else "<rt>" not in html
        assert ('class="changed"' in html) == entry.changed, element
        for label in getattr(entry, "labels", ()):
            assert squash(f"<{labels[label]}>") in text, element
        if entry.since:
            assert squash(f"導入 {entry.since}") in text, element
        if entry.updates:
            assert squash(f"更新 {', '.join(entry.updates)}") in text, element


def test_the_newer_fields_occur_in_some_edition(env: Environment) -> None:
    """The test above is not vacuous: the built-in data has each field somewhere."""
    entries = [entry for edition in EDITIONS for _, entry in _all_entries(env, edition)]
    for field in (
        "ruby",
        "activation_condition",
        "trigger_condition",
        "labels",
        "size_text",
        "changed",
        "updates",
    ):
        assert any(getattr(entry, field, None) for entry in entries), field


@pytest.mark.parametrize("edition", EDITIONS)
def test_fogs_have_their_own_list_linking_their_action(site: Path, env: Environment, edition: str) -> None:
    ruleset = all_ruleset(env, edition)
    html = page(site, f"{edition}/all.html")
    assert ('id="fog-list"' in html) == bool(ruleset.fogs)
    if not ruleset.fogs:
        return
    fog_list = html[html.index('id="fog-list"') :]
    for fog in ruleset.fogs:
        article = articles(fog_list)[f"fog-{fog.id}"]
        assert all(squash(s) in squash(text_content(article)) for s in sentences(fog.ability))
        assert f'href="#action-{fog.action}"' in article


def test_an_edition_file_gets_its_pages_and_changes_against_its_base(
    tmp_path: Path, env: Environment
) -> None:
    """A based edition given by path: a folder of its own, and a 変更履歴 page against its base."""
    base = EDITIONS[0]
    action = env.edition(base).actions[0]
    (tmp_path / "next.yaml").write_text(
        f"kind: edition\nid: next\nbase: {base}\ntitle: 次の版\n"
        f"actions:\n  change:\n    {action.id}: {{effect: 新しい効果。}}\n",
        encoding="utf-8",
    )
    out = tmp_path / "site"
    result = CliRunner().invoke(
        main, ["build", "--out", str(out), "--html-only", "--edition", str(tmp_path / "next.yaml")]
    )
    assert result.exit_code == 0, result.output
    formats = [f.id for f in env.edition(base).edition.formats]
    assert sorted(p.name for p in (out / "next").iterdir()) == sorted(
        [f"{f}.html" for f in (*formats, "all", "changes")]
    )
    changes = squash(text_content(page(out, "next/changes.html")))
    assert squash(f"[{base}]→次の版[next]") in changes
    assert squash(f"{action.name}{action.id}") in changes and "新しい効果。" in changes
    assert "次の版" in page(out, "index.html") and 'href="next/changes.html"' in page(out, "index.html")
