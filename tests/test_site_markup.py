"""Rule-text markup → lists, and suit colouring with escaping."""

from __future__ import annotations

from blackpoker.compiler import compile
from blackpoker.site.markup import Item, ListBlock, ListStyle, Paragraph, blocks, suits


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


def test_nested_numbers_and_letters_hang_under_the_item_above() -> None:
    ability = compile("v7", "std").character("bulwark").ability
    (bullets,) = blocks(ability)
    assert isinstance(bullets, ListBlock) and bullets.style is ListStyle.BULLETED
    damage = bullets.items[-1]
    assert damage.text.startswith("【ダメージ判定】")
    (numbered,) = damage.lists
    assert numbered.style is ListStyle.NUMBERED
    assert [i.text for i in numbered.items] == [
        "防壁を表にし、防壁が以下の条件に当てはまる場合、アタッカーを墓地に移す。",
        "防壁を墓地に移す。",
    ]
    (lettered,) = numbered.items[0].lists
    assert lettered.style is ListStyle.LETTERED
    assert [i.text for i in lettered.items] == [
        "防壁がJokerの場合",
        "防壁のカードに記載されている数字と同じ数字がアタッカーのカードに含まれている場合",
    ]


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
