"""Rule-text markup → lists, and suit colouring with escaping."""

from __future__ import annotations

import re

from blackpoker.site.markup import Item, ListBlock, ListStyle, Paragraph, Separator, blocks, suits
from editions_support import EDITIONS, largest
from site_support import LETTER, NUMBER, entry_texts, nested_lists


def test_running_text_is_one_paragraph_per_line() -> None:
    assert blocks("一行目。\n\n二行目。") == [Paragraph("一行目。"), Paragraph("二行目。")]


def test_full_width_and_ascii_numbers_make_one_numbered_list() -> None:
    assert blocks("次を行う。\n１．引く。\n2. 捨てる。") == [
        Paragraph("次を行う。"),
        ListBlock(ListStyle.NUMBERED, [Item("引く。"), Item("捨てる。")]),
    ]


def test_a_paragraph_ends_a_list_and_the_next_items_start_a_new_one() -> None:
    result = blocks("１．一。\n間の文。\n２．二。")
    assert [type(b) for b in result] == [ListBlock, Paragraph, ListBlock]


def test_a_bullet_after_numbers_starts_a_list_of_its_own() -> None:
    result = blocks("１．一。\n・点。")
    assert [b.style for b in result if isinstance(b, ListBlock)] == [ListStyle.NUMBERED, ListStyle.BULLETED]


def nested_text() -> str:
    """A rule text of a built-in edition whose bulleted item holds numbers holding letters."""
    return next(
        text
        for edition in EDITIONS
        for entry in (*largest(edition).actions, *largest(edition).characters)
        for text in entry_texts(entry)
        if nested_lists(text)
    )


def test_nested_numbers_and_letters_hang_under_the_item_above() -> None:
    text = nested_text()
    found = nested_lists(text)
    assert found is not None
    bullet = found[0]
    lines = text.splitlines()
    below = lines[lines.index(f"・{bullet}") + 1 :]
    below = below[: next((i for i, line in enumerate(below) if line.startswith("・")), len(below))]
    numbers = [i for i, line in enumerate(below) if NUMBER.match(line)]
    letters = below[numbers[0] + 1 : numbers[1] if len(numbers) > 1 else len(below)]

    def unmarked(line: str) -> str:
        return re.sub(r"^-+(?:[0-9０-９]+|[A-Za-zＡ-Ｚ])[.．]", "", line)

    (bullets,) = blocks(text)
    assert isinstance(bullets, ListBlock) and bullets.style is ListStyle.BULLETED
    (item,) = [i for i in bullets.items if i.text == bullet]
    (numbered,) = item.lists
    assert numbered.style is ListStyle.NUMBERED
    assert [i.text for i in numbered.items] == [unmarked(below[n]) for n in numbers]
    (lettered,) = numbered.items[0].lists
    assert lettered.style is ListStyle.LETTERED
    assert [i.text for i in lettered.items] == [unmarked(line) for line in letters]
    assert all(LETTER.match(line) for line in letters)


def test_a_capital_letter_starts_a_list_only_when_nested() -> None:
    assert blocks("A.J.Qのいずれか") == [Paragraph("A.J.Qのいずれか")]


def test_dashes_without_a_marker_are_kept_as_text() -> None:
    assert blocks("-注意") == [Paragraph("-注意")]


def test_item_text_is_kept_exactly() -> None:
    (numbered,) = blocks("１．  対象の兵士（アタッカー）をドライブ状態にする。 ")
    assert numbered.items[0].text == "対象の兵士（アタッカー）をドライブ状態にする。 "


def test_suits_are_wrapped_and_everything_else_is_escaped() -> None:
    html = suits("♡A〜K と ♠<b>&")
    assert html == ('<span class="suit red">♡</span>A〜K と <span class="suit black">♠</span>&lt;b&gt;&amp;')


def test_text_without_suits_is_only_escaped() -> None:
    assert suits("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;"


def test_a_line_of_dashes_is_a_rule_between_two_parts() -> None:
    assert blocks("前半。\n---\n・後半。") == [
        Paragraph("前半。"),
        Separator(),
        blocks("・後半。")[0],
    ]
    assert blocks("-１．入れ子") != [Separator()]  # one dash marks nesting, not a rule
