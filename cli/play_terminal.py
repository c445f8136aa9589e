"""The table of `blackpoker play`: a board that fits a 24-row terminal, options chosen step by
step (action → key cards → payment → target), help, and refusals that name the rule broken.

Labels are Japanese, as on the sheets; action names and effect texts come from the rule set.
The board shows the person's view (runtime/engine/view.py) and, from the game, only what the
table shows everyone: whether a character entered this turn (準備) and its size change.
"""

from __future__ import annotations

from collections.abc import Sequence

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, Option, target_text
from blackpoker.runtime.engine.refs import player_name
from blackpoker.runtime.engine.view import (
    CharacterView,
    PlayerView,
    RequestView,
    View,
    ZoneView,
    reference_text,
)
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.choosing import (
    Menu,
    advance,
    back,
    command_option,
    entry,
    explain_entry,
    parts,
    question,
)
from blackpoker.runtime.play.chronicle import Chronicle
from blackpoker.runtime.play.labels import labels, labels_for
from rich.cells import cell_len
from rich.console import Console

ROWS = 24  # the board, the menu and the input line fit a terminal this tall
BACK = ("0", "b")


def number(text: str, shown: Sequence[int]) -> int | str:
    """The number of a shown entry that `text` is, or what to type instead. "²" is a digit to
    str.isdigit, not to int(); a number longer than the largest is out of range, unparsed."""
    digits = text.lstrip("0")
    if (
        not (text.isascii() and text.isdigit())
        or len(digits) > len(str(max(shown)))
        or int(digits or "0") not in shown
    ):
        words = labels()
        listed = (
            words.say("terminal", "number range", last=max(shown))
            if list(shown) == list(range(1, len(shown) + 1))
            else words.say("refusals", "list").join(map(str, shown))
        )
        return words.say("terminal", "number hint", listed=listed)
    return int(digits)


def _wrap(items: Sequence[str], width: int, lead: str = "  ", indent: str = "  ") -> list[str]:
    """Items after `lead`, packed into lines no wider than `width` terminal cells (a Japanese
    letter takes two); a continued line starts with `indent`."""
    lines: list[str] = []
    line = lead
    for item in items:
        joined = f"{line}  {item}" if line.strip() else line + item
        if line.strip() and cell_len(joined) > width:
            lines.append(line)
            joined = indent + item
        line = joined
    return [*lines, line]


def _fold(line: str, width: int) -> list[str]:
    """A line cut into rows of at most `width` cells, continued rows indented."""
    rows: list[str] = []
    while cell_len(line) > width:
        cut = 0
        while cell_len(line[: cut + 1]) <= width:
            cut += 1
        rows.append(line[:cut])
        line = "    " + line[cut:]
    return [*rows, line]


class Table:
    """Renders the board and reads the person's answer, one step at a time."""

    def __init__(self, console: Console, game: Game, chronicle: Chronicle) -> None:
        self.console = console
        self.game = game
        self.chronicle = chronicle
        # A chance's entries keep their numbers all game: pass is 1, the format's actions
        # follow in the rule set's order, an entry first seen later (an action caused by a
        # character: `スラッシュ by ♠5`) takes the next number then.
        names = dict.fromkeys(a.name for a in game.rules.actions if a.direct)
        self.numbers = {"pass": 1, **{name: n for n, name in enumerate(names, 2)}}

    def numbered(self, menu: Menu) -> list[tuple[int, str]]:
        """The menu's values with their numbers: a chance's by `numbers`, any other step's 1, 2, …"""
        if menu.step or isinstance(menu.left[0], Choice):
            return list(enumerate(menu.values, 1))
        for value in menu.values:
            self.numbers.setdefault(value, max(self.numbers.values()) + 1)
        return sorted((self.numbers[v], v) for v in menu.values)

    @property
    def width(self) -> int:
        return max(40, self.console.width - 1)

    # -- the board ---------------------------------------------------------------------------

    def board(self, seen: View) -> list[str]:
        words = labels()
        chance = player_name(seen.chance) if seen.chance is not None else words.say("board", "none")
        line = (
            words.say("table", "turn", turn=seen.turn),
            words.say("table", "whose turn", player=player_name(seen.turn_player)),
            words.say("table", "chance", chance=chance),
            words.say("table", "you are", seat=player_name(seen.me)),
        )
        lines = [f"━━ {' · '.join(line)} ━━"]
        for index in (1 - seen.me, seen.me):
            lines += self._player(seen, index)
        for title, requests in (
            (words.say("table", "stage"), seen.stage),
            (words.say("table", "resolving"), seen.resolving),
        ):
            if requests:
                shown = [self._request(n, r) for n, r in enumerate(requests, 1)]
                lines += _wrap(shown, self.width, f"{title}:", "  ")
        return lines

    def _player(self, seen: View, index: int) -> list[str]:
        p: PlayerView = seen.players[index]
        mine = index == seen.me
        words = labels()
        none = words.say("board", "none")
        shown = words.say("table", "count", count=p.hand_count)
        hand = (" ".join(label(c) for c in p.hand) or none) if p.hand is not None else shown
        grave = " ".join(label(c) for c in p.graveyard[-8:]) or none
        if mine and len(p.graveyard) > 8:
            grave = words.say("terminal", "graveyard more", count=len(p.graveyard), cards=grave)
        who = words.say("table", "you" if mine else "opponent")
        life = words.say("table", "life count", count=p.life)
        head = f"{player_name(index)}（{who}） {life} · {words.say('table', 'hand')} {hand}"
        pile = words.say("table", "graveyard" if mine else "graveyard top")
        lines = [head, f"  {pile}: {grave}"]
        for zone in p.zones:
            lines.append(f"  {zone.name}: {_zone_text(zone) or none}")
        units = self.game.state.players[index].field  # the view keeps the field's order
        characters = [self._character(u, units[n].entered, units[n].size_mod) for n, u in enumerate(p.field)]
        field = f"  {words.say('table', 'field')}:"
        return lines + (_wrap(characters, self.width, field, "    ") if characters else [f"{field} {none}"])

    def _character(self, unit: CharacterView, entered: int, size_mod: int) -> str:
        words = labels_for(self.game.rules.ruleset)
        cards = "+".join(label(c) for c in unit.cards) if unit.cards else words.target(target_text(unit.ref))
        states = [words["board"]["charged" if unit.charged else "driven"]]
        if entered >= self.game.state.turn:
            states.append(words["board"]["new"])
        if not unit.face_up:
            states.append(words["board"]["face down"])
        if unit.size is not None:
            states.append(
                words.say("board", "size", size=unit.size) + (f"({size_mod:+d})" if size_mod else "")
            )
        if unit.attacking:
            states.append(words["board"]["attacking"])
        if unit.blocking is not None:
            states.append(words.say("board", "blocking", target=words.target(target_text(unit.blocking))))
        return f"[{unit.name} {cards} {'·'.join(states)}]"

    def _request(self, position: int, r: RequestView) -> str:
        keys = " ★" + "".join(label(c) for c in r.key_cards) if r.key_cards else ""
        words = labels_for(self.game.rules.ruleset)
        target = f" → {words.target(reference_text(r.target))}" if r.target is not None else ""
        direct = self.game.rules.action(r.action).direct
        who = (
            words.say("table", "by player", player=player_name(r.player))
            if direct
            else words.say("table", "by effect")
        )
        return f"{position}. {r.name}{keys}{target}{who}"

    # -- choosing ----------------------------------------------------------------------------

    def choose(self, seen: View, options: Sequence[Option]) -> Option | None:
        """The option the person settles on, or None when they quit."""
        chosen: list[str] = []
        auto: list[bool] = []  # a step with one value is taken without asking
        drawn = False
        while True:
            menu = advance(options, chosen, auto)
            assert menu is not None, "a path chosen from the menu leads to an option"
            if not isinstance(menu, Menu):
                return menu
            shown = self.numbered(menu)
            asked = question(self.game.rules, seen, menu)
            lines = _wrap([f"{n}) {entry(self.game.rules, menu, v)}" for n, v in shown], self.width)
            if not drawn:  # news is taken only when shown: a forced move shows nothing
                self._show(self.board(seen), self.chronicle.since_mark(), [asked, *lines])
                drawn = True
            else:
                for line in self._fit([asked, *lines]):
                    self.console.print(line)
            while True:
                text = read_line(self.console)
                if text is None:
                    return None
                if not text:
                    continue
                reply = self._answer(text, seen, menu, options, dict(shown))
                if isinstance(reply, tuple):
                    chosen, auto = reply
                    break  # the step changed: ask again
                if not isinstance(reply, str):
                    return reply
                self.console.print(reply)

    def _answer(
        self, text: str, seen: View, menu: Menu, options: Sequence[Option], numbered: dict[int, str]
    ) -> Option | str | tuple[list[str], list[bool]]:
        """An option, a reply to print, or the path after moving (a number or back)."""
        if text in ("help", "h"):
            # an example of the notation from the options at hand: the rule set's own names
            shown = max(options, key=lambda o: sum(map(bool, parts(o))))
            return labels().say("terminal", "help", example=shown)
        if text.startswith(("?", "？")):
            return self._explain(text[1:].strip(), seen, menu, numbered)
        if text in BACK:
            # nothing the person chose yet (steps taken for them come back alike)
            return back(menu) or labels().say("terminal", "first step")
        if text.isascii() and text.isdigit():
            picked = number(text, list(numbered))
            if isinstance(picked, str):
                return picked
            return [*menu.chosen, numbered[picked]], [*menu.auto, False]
        return command_option(self.game.rules, seen, text, labels().say("terminal", "help hint"))

    def _explain(self, text: str, seen: View, menu: Menu, shown: dict[int, str]) -> str:
        if not text:
            return explain_entry(self.game.rules, seen, menu, None)
        picked = number(text, list(shown))
        if isinstance(picked, str):
            return labels().say("terminal", "explain which", picked=picked)
        return explain_entry(self.game.rules, seen, menu, shown[picked])

    def _fit(self, lines: list[str]) -> list[str]:
        return [row for line in lines for row in _fold(line, self.width)]

    def _show(self, board: list[str], news: list[str], menu: list[str]) -> None:
        """The board, the latest events (as many as fit), the menu and the input line: ≤ ROWS."""
        board, menu = self._fit(board), self._fit(menu)
        news = self._fit(news)
        room = max(1, ROWS - len(board) - len(menu) - 2)
        if len(news) > room:
            news = [
                labels().say("terminal", "more news", count=len(news) - room + 1),
                *news[len(news) - room + 1 :],
            ]
        for line in [*board, labels().say("table", "news"), *news, *menu]:
            self.console.print(line)


def _zone_text(zone: ZoneView) -> str:
    """A declared zone as the viewer sees it: its cards (a face-up trump marked 表) and the
    count of those it may not see, or only its count."""
    words = labels()
    if zone.cards is None:
        return words.say("table", "count", count=zone.count)
    up = f"({words.say('table', 'face up')})"
    shown = " ".join(label(c) + (up if c in zone.face_up else "") for c in zone.cards)
    unseen = zone.count - len(zone.cards)
    return f"{shown} {words.say('terminal', 'hidden count', count=unseen)}".strip() if unseen else shown


def read_line(console: Console) -> str | None:
    """A line the person typed, stripped; None when they quit (`q`) or the input ended."""
    try:
        text = console.input("> ").strip()
    except EOFError:
        return None
    return None if text == "q" else text
