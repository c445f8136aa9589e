"""The site of every built-in edition: the index in registry order, the 変更履歴 pages, and
the fields of the newer data (ルビ, 起動条件 / 誘発条件, labels, サイズ, versions, ●, fogs)
on each edition's `all` sheet. Facts are read from the compiled data, never named here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from blackpoker.cli.main import main
from blackpoker.compiler.documents.diff import diff_rulesets, whole_edition
from blackpoker.compiler.environment import Environment
from blackpoker.compiler.pipeline import builtin_editions
from blackpoker.site.build import BuildOptions, build_site
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


def test_index_lists_the_editions_newest_first(site: Path, env: Environment) -> None:
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
                old, new = field.old_block or field.old, field.new_block or field.new
                assert squash(field.field + (old or "(なし)") + (new or "(なし)")) in text


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
        assert re.search(rf"<rt[^>]*>{entry.ruby}</rt>", html) if entry.ruby else "<rt" not in html
        assert ('class="changed"' in html) == entry.changed, element
        for label in getattr(entry, "labels", ()):
            assert squash(f"<{labels[label]}>") in text, element
        if entry.since:
            assert squash(f"導入 {entry.since}") in text, element
        if entry.updates:
            assert squash(f"更新 {', '.join(entry.updates)}") in text, element


NEWER = """\
kind: edition
id: newer
base: {base}
title: 新しい版
labels: [{labels}{{id: first_label, name: 一番ラベル}}, {{id: second_label, name: 二番ラベル}}]
fog_types: [滞留魔法]
actions:
  change:
    {action}:
      ruby: るびのよみ
      activation_condition: "1ターンに1回まで起こすことができる。"
      trigger_condition: "何かが解決した時に誘発する。"
      changed: true
      since: v1.0
      updates: [v8.0, v8.1]
      dev_note: 開発のメモ。
characters:
  change:
    {character}:
      labels: [first_label, second_label]
      size_text: ユニットカードの数字
fogs:
  add:
    - {{id: someFog, name: フォグの名前, type: 滞留魔法, format: {format}, key: ♡A〜10,
       target: 対象の兵士, ability: このターンが終わるまで加算される。, action: {action}, since: v8.0}}
"""


@pytest.fixture(scope="module")
def newer(tmp_path_factory: pytest.TempPathFactory, env: Environment) -> tuple[str, Any]:
    """The `all` page of an edition based on the newest one, with every newer field set, and
    the edition's source."""
    folder = tmp_path_factory.mktemp("newer")
    base = env.edition(EDITIONS[0])
    text = NEWER.format(
        base=EDITIONS[0],
        labels="".join(f"{{id: {label.id}, name: '{label.name}'}}, " for label in base.edition.labels),
        action=base.actions[0].id,
        character=base.characters[0].id,
        format=base.edition.formats[0].id,
    )
    (folder / "newer.yaml").write_text(text, encoding="utf-8")
    out = folder / "site"
    build_site(BuildOptions(out, editions=(str(folder / "newer.yaml"),), formats=("all",), html_only=True))
    return page(out, "newer/all.html"), env.edition(str(folder / "newer.yaml"))


def test_every_newer_field_is_printed(newer: tuple[str, Any]) -> None:
    html, source = newer
    action, character = source.actions[0], source.characters[0]
    fog = next(f for f in source.fogs if f.id == "someFog")
    found = articles(html)
    action_html = found[f"action-{action.id}"]
    assert re.search(
        rf'<ruby><span class="base"[^>]*>{action.name}</span>'
        r"<rp>\(</rp><rt[^>]*>るびのよみ</rt><rp>\)</rp></ruby>",
        action_html,
    )
    assert re.search(
        r"<dt>\(起動条件\)</dt>\s*<dd><p>1ターンに1回まで起こすことができる。</p>\s*</dd>", action_html
    )
    assert re.search(r"<dt>\(誘発条件\)</dt>\s*<dd><p>何かが解決した時に誘発する。</p>\s*</dd>", action_html)
    assert '<span class="changed" title="この版で変更">●</span>' in action_html
    assert '<p class="versions">導入 v1.0 / 更新 v8.0, v8.1</p>' in action_html
    assert "開発のメモ。" in action_html.split('<details class="lore">')[1]  # behind the toggle
    character_html = found[f"character-{character.id}"]
    assert (
        '<span class="label">&lt;一番ラベル&gt;</span> <span class="label">&lt;二番ラベル&gt;</span>'
        in character_html
    )
    assert re.search(r"<dt>\(サイズ\)</dt>\s*<dd><p>ユニットカードの数字</p>\s*</dd>", character_html)
    fog_list = html[html.index('<h2 id="fog-list">') :]
    assert re.search(r'<h3 id="fog-type-1">滞留魔法</h3>', fog_list)
    fog_text = squash(text_content(articles(fog_list)[f"fog-{fog.id}"]))
    # the file's own fog, marked as added against its base (the overlays' mark)
    assert squash(f"フォグの名前(滞留魔法)[{fog.formats[0]}]追加★♡A〜10") in fog_text
    assert (
        squash(f"(対象)対象の兵士(能力)このターンが終わるまで加算される。(アクション){action.name}")
        in fog_text
    )
    assert "導入v8.0" in fog_text


def test_an_entry_without_a_field_prints_nothing_for_it(newer: tuple[str, Any]) -> None:
    html, source = newer
    bare = next(
        a
        for a in source.actions
        if not (a.activation_condition or a.trigger_condition or a.ruby or a.changed)
    )
    plain = articles(html)[f"action-{bare.id}"]
    assert "起動条件" not in plain and "誘発条件" not in plain and "<ruby>" not in plain
    assert 'class="changed"' not in plain


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
    # and the pages of the extra lists and regulations it inherits from its base
    extras = [f"extra-{source.id}" for source in env.extras(base)]
    regulations = ["regulations"] if env.edition_regulations(env.edition(base)) else []
    assert sorted(p.name for p in (out / "next").iterdir()) == sorted(
        [f"{f}.html" for f in (*formats, "all", "changes", *extras, *regulations)]
    )
    changes = squash(text_content(page(out, "next/changes.html")))
    assert squash(f"[{base}]→次の版[next]") in changes
    assert squash(f"{action.name}{action.id}") in changes and "新しい効果。" in changes
    assert "次の版" in page(out, "index.html") and 'href="next/changes.html"' in page(out, "index.html")


def test_each_edition_heading_prints_its_date_once(site: Path) -> None:
    index = page(site, "index.html")
    headings = re.findall(r'<h2 id="edition-[^"]+">(.*?)</h2>', index, re.S)
    assert len(headings) >= len(EDITIONS)
    for heading in headings:
        dates = re.findall(r"\d{4}/\d{1,2}/\d{1,2}", text_content(heading))
        assert len(dates) == 1, heading


def test_changes_pages_print_structured_fields_as_lines_not_json(site: Path) -> None:
    """Core rules, legend and programs read as YAML lines, as the data writes them."""
    cells = [
        text_content(cell)
        for edition in EDITIONS[:-1]
        for cell in re.findall(
            r'<td class="(?:old|new)[^"]*">(.*?)</td>',
            page(site, f"{edition}/changes.html"),
            re.S,
        )
    ]
    assert cells
    assert [cell for cell in cells if re.match(r"\s*[\[{]\s*[\[{\"]", cell)] == []
    assert any("\n- " in cell or cell.startswith("- ") for cell in cells)  # a list as YAML lines


def test_the_index_lists_newer_editions_first_by_their_dates(site: Path, env: Environment) -> None:
    """The registry's order (the index's) is the editions' publication order, newest first."""
    index = page(site, "index.html")
    sections = re.findall(r'<section class="edition" aria-labelledby="edition-([^"]+)"', index)
    listed = [edition for edition in sections if edition in EDITIONS]
    dates = [tuple(int(n) for n in env.edition(e).edition.published.split("/")) for e in listed]
    assert listed == list(EDITIONS) and dates == sorted(dates, reverse=True)
