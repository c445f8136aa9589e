"""The table of `blackpoker play`: a board that fits a 24-row terminal, options chosen step by
step (action → key cards → payment → target), help, and refusals that name the rule broken.

Labels are Japanese, as on the sheets; action names and effect texts come from the rule set.
The board shows the person's view (runtime/engine/view.py) and, from the game, only what the
table shows everyone: whether a character entered this turn (準備) and its size change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from blackpoker.runtime.engine.events import (
    Decided,
    Discarded,
    Event,
    GameOver,
    LostTarget,
    Negated,
    Requested,
    Resolved,
    Revealed,
    SetUp,
    Shuffled,
    Triggered,
    TurnPassed,
)
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, Option, Pass, RequestOption, target_text
from blackpoker.runtime.engine.state import player_name
from blackpoker.runtime.engine.view import CharacterView, PlayerView, RequestView, View, ZoneView
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.play.agents import by_command
from blackpoker.runtime.scenario.explain import explain
from blackpoker.runtime.scenario.notation import NotationError, parse_command
from rich.cells import cell_len
from rich.console import Console

ROWS = 24  # the board, the menu and the input line fit a terminal this tall
BACK = ("0", "b")
REQUEST_STEPS = ("アクション", "キーカード", "支払い", "対象")
CHOICE_STEPS = ("答え", "カード・対象")
# The engine's answer words (runtime/engine/primitives.py); a choose_one label is the rule set's.
ANSWERS = {
    "pick": "カードを選ぶ",
    "place": "次に置くカードを選ぶ（上から順に）",
    "discard": "捨てるカードを選ぶ",
    "attacker": "アタックするキャラクターを選ぶ",
    "block": "ブロックする組（アタッカー with ブロッカー）を選ぶ",
    "retarget": "新しい対象を選ぶ",
    "done": "選び終える",
    "yes": "する",
    "no": "しない",
}
PAYMENTS = {
    "D": "D(カード): 手札のそのカードを捨てる",
    "B": "B(カード): そのチャージ状態の防壁をドライブ状態にする",
    "S": "S(カード): そのキャラクターを墓地に置く（生け贄）",
    "L": "L: 1ダメージを受ける（ライフの一番上を墓地へ）",
}
PASS = "pass: 何もせずにチャンスを相手に渡す。\n両者が続けてパスすると、ステージの一番上が解決する。"
TARGETS = "対象（p2:♣9 そのカードを持つキャラクター、p2 プレイヤー、stage:N ステージの下からN番目）"
HELP = """\
使い方:
  番号        いま表示されている選択肢を選ぶ（アクション → キーカード → 支払い → 対象 の順）
  0 または b  ひとつ前の段階に戻る
  ? 番号      その選択肢の説明（アクションなら効果の文）。? だけなら、いま何を決めるか
  コマンド    記法でそのまま書く: pass / {example}
              正しくないコマンドは、破っているルールの名前とともに断られる
  help        この説明 / q  終了（選択肢が1つだけの決定は自動で選ばれる）
記法: ★ キーカード（手札から出すカード） $ 支払い（D 捨てる・B 防壁をドライブ・S 生け贄・L 1ダメージ）
      → 対象: p2:♣9 そのカードを持つキャラクター / p2 プレイヤー / stage:2 ステージの下から2番目
      face-down#N 裏向きのキャラクター / resolving:1 解決中のアクション
盤面: チャージ / ドライブ 状態、準備 このターンに場に出た（アタックできない）、サイズ 5(+2) は修正込み、
      チャンス はいまアクションを起こせるプレイヤー"""


def parts(option: Option) -> tuple[str, ...]:
    """An option's text split by the steps it is chosen in (empty where it has no such part)."""
    if isinstance(option, Pass):
        return ("pass",)
    if isinstance(option, Choice):
        return (option.word, str(option).removeprefix(option.word).strip())
    text = str(option)
    keys = " ".join(p for p in text.split(" ") if p.startswith("★"))
    paid = " ".join(p for p in text.split(" ") if p.startswith("$"))
    target = "→ " + target_text(option.target) if option.target is not None else ""
    return (option.name, keys, paid, target)


def number(text: str, count: int) -> int | str:
    """The item an ASCII number names (1 to count), or what to type instead. "²" is a digit to
    str.isdigit, not to int(); a number longer than the count is out of range, unparsed."""
    digits = text.lstrip("0")
    if (
        not (text.isascii() and text.isdigit())
        or len(digits) > len(str(count))
        or not 1 <= int(digits or "0") <= count
    ):
        return f"1から{count}までの番号、0で戻る、helpで説明"
    return int(digits)


def _steps(option: Option) -> tuple[str, ...]:
    return CHOICE_STEPS if isinstance(option, Choice) else REQUEST_STEPS


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


@dataclass
class Chronicle:
    """The game's events in words, newest last; `mark` is where the person last looked."""

    lines: list[str] = field(default_factory=list)
    told: int = 0
    mark: int = 0
    hands: tuple[int, int] = (0, 0)

    def decided(self, game: Game, mover: int, shown: Option) -> None:
        """A decision (masked as the person may see it) and then the events it caused."""
        text = "パス" if isinstance(shown, Pass) else str(shown)
        self.lines.append(f"{player_name(mover)}: {text}")
        self.follow(game)

    def follow(self, game: Game) -> None:
        events = game.events or []
        for event in events[self.told :]:
            said = _event(game, event)
            if said:
                self.lines.append(said)
        self.told = len(events)
        # A draw is seen as cards going from the life to the hand: said for whoever drew.
        state = game.state
        hands = (len(state.players[0].hand), len(state.players[1].hand))
        for index, (before, now) in enumerate(zip(self.hands, hands, strict=True)):
            if now > before and self.told > 1:
                self.lines.append(f"  · {player_name(index)}が{now - before}枚引いた（手札{now}枚）")
        self.hands = hands

    def since_mark(self) -> list[str]:
        news = self.lines[self.mark :] or self.lines[-1:]
        self.mark = len(self.lines)
        return news


def _event(game: Game, event: Event) -> str | None:
    def name(action: str) -> str:
        return game.rules.action(action).name

    match event:
        case SetUp(first):
            return f"{player_name(first)}が先攻"
        case TurnPassed(player, turn):
            return f"── ターン{turn}: {player_name(player)}のターン ──"
        case Revealed(cards):
            return f"  · 公開: {' '.join(label(c) for c in cards)}"
        case Shuffled(player):
            return f"  · {player_name(player)}のライフをシャッフル"
        case LostTarget(action):
            return f"  · {name(action)}は対象を失い、効果なし"
        case Requested(player, action, indirect=True):
            return f"  · 効果で{name(action)}が起きた"
        case Triggered(player, action):
            return f"  · {name(action)}が誘発"
        case Resolved(player, action):
            # An effect's request is its controller's, not whoever it acts for (ドロー acts for the
            # turn player): only a request a player made is said to be theirs.
            owner = f"{player_name(player)}の" if game.rules.action(action).direct else ""
            return f"  · {owner}{name(action)}を解決"
        case Discarded(action):
            return f"  · {name(action)}は捨てられた"
        case Negated(action):
            return f"  · {name(action)}は打ち消された"
        case Decided() | GameOver() | Requested():
            return None  # a decision is said as it is made, the result at the end
    return None


class Table:
    """Renders the board and reads the person's answer, one step at a time."""

    def __init__(self, console: Console, game: Game, chronicle: Chronicle) -> None:
        self.console = console
        self.game = game
        self.chronicle = chronicle

    @property
    def width(self) -> int:
        return max(40, self.console.width - 1)

    # -- the board ---------------------------------------------------------------------------

    def board(self, seen: View) -> list[str]:
        chance = player_name(seen.chance) if seen.chance is not None else "なし"
        lines = [
            f"━━ ターン{seen.turn} · {player_name(seen.turn_player)}のターン · チャンス: {chance}"
            f" · あなたは{player_name(seen.me)} ━━"
        ]
        for index in (1 - seen.me, seen.me):
            lines += self._player(seen, index)
        for title, requests in (("ステージ", seen.stage), ("解決中", seen.resolving)):
            if requests:
                shown = [self._request(n, r) for n, r in enumerate(requests, 1)]
                lines += _wrap(shown, self.width, f"{title}:", "  ")
        return lines

    def _player(self, seen: View, index: int) -> list[str]:
        p: PlayerView = seen.players[index]
        mine = index == seen.me
        hand = (" ".join(label(c) for c in p.hand) or "なし") if p.hand is not None else f"{p.hand_count}枚"
        grave = " ".join(label(c) for c in p.graveyard[-8:]) or "なし"
        if mine and len(p.graveyard) > 8:
            grave = f"({len(p.graveyard)}枚) … {grave}"
        head = f"{p.name}（{'あなた' if mine else '相手'}） ライフ{p.life}枚 · 手札 {hand}"
        lines = [head, f"  墓地{'' if mine else 'の一番上'}: {grave}"]
        for zone in p.zones:
            lines.append(f"  {zone.name}: {_zone_text(zone) or 'なし'}")
        units = self.game.state.players[index].field  # the view keeps the field's order
        characters = [self._character(u, units[n].entered, units[n].size_mod) for n, u in enumerate(p.field)]
        return lines + (_wrap(characters, self.width, "  場:", "    ") if characters else ["  場: なし"])

    def _character(self, unit: CharacterView, entered: int, size_mod: int) -> str:
        cards = "+".join(label(c) for c in unit.cards) if unit.cards else unit.ref
        states = ["チャージ" if unit.charged else "ドライブ"]
        if entered >= self.game.state.turn:
            states.append("準備")
        if not unit.face_up:
            states.append("裏向き")
        if unit.size is not None:
            states.append(f"サイズ{unit.size}" + (f"({size_mod:+d})" if size_mod else ""))
        if unit.attacking:
            states.append("アタック中")
        if unit.blocking is not None:
            states.append(f"{unit.blocking}をブロック")
        return f"[{unit.name} {cards} {'·'.join(states)}]"

    def _request(self, position: int, r: RequestView) -> str:
        keys = " ★" + "".join(label(c) for c in r.key_cards) if r.key_cards else ""
        target = f" → {r.target}" if r.target else ""
        who = f"（{r.player}）" if self.game.rules.action(r.action).direct else "（効果）"
        return f"{position}. {r.name}{keys}{target}{who}"

    # -- choosing ----------------------------------------------------------------------------

    def choose(self, seen: View, options: Sequence[Option]) -> Option | None:
        """The option the person settles on, or None when they quit."""
        chosen: list[str] = []
        auto: list[bool] = []  # a step with one value is taken without asking
        drawn = False
        while True:
            left = [o for o in options if parts(o)[: len(chosen)] == tuple(chosen)]
            step = len(chosen)
            if len(left) == 1 or step >= len(parts(left[0])):
                return left[0]  # two options may print alike (two Jokers): either is the same move
            values = list(dict.fromkeys(parts(o)[step] for o in left))
            if len(values) == 1:
                chosen.append(values[0])
                auto.append(True)
                continue
            entries = [self._entry(v, [o for o in left if parts(o)[step] == v], step) for v in values]
            question = self._question(seen, left, step, chosen)
            menu = _wrap([f"{n}) {e}" for n, e in enumerate(entries, 1)], self.width)
            if not drawn:  # news is taken only when shown: a forced move shows nothing
                self._show(self.board(seen), self.chronicle.since_mark(), [question, *menu])
                drawn = True
            else:
                for line in self._fit([question, *menu]):
                    self.console.print(line)
            while True:
                try:
                    text = self.console.input("> ").strip()
                except EOFError:
                    return None
                if text == "q":
                    return None
                if not text:
                    continue
                reply = self._answer(text, seen, left, values, step, chosen, auto, options)
                if isinstance(reply, int):
                    break  # the step changed: ask again
                if not isinstance(reply, str):
                    return reply
                self.console.print(reply)

    def _answer(
        self,
        text: str,
        seen: View,
        left: list[Option],
        values: list[str],
        step: int,
        chosen: list[str],
        auto: list[bool],
        options: Sequence[Option],
    ) -> Option | str | int:
        """An option, a reply to print, or the step number after moving (a number or back)."""
        if text in ("help", "h"):
            # an example of the notation from the options at hand: the rule set's own names
            shown = max(options, key=lambda o: sum(map(bool, parts(o))))
            return HELP.format(example=shown)
        if text.startswith(("?", "？")):
            return self._explain(text[1:].strip(), seen, left, values, chosen)
        if text in BACK:
            if all(auto):  # nothing the person chose (steps taken for them come back alike)
                return "いまが最初の段階です"
            while chosen:  # undo the steps taken without asking, then one the person took
                chosen.pop()
                if not auto.pop():
                    break
            return len(chosen)
        if text.isascii() and text.isdigit():
            picked = number(text, len(values))
            if isinstance(picked, str):
                return picked
            chosen.append(values[picked - 1])
            auto.append(False)
            return len(chosen)
        return self._command(text, seen.me, options)

    def _command(self, text: str, me: int, options: Sequence[Option]) -> Option | str:
        """The option a command in the notation names, or the rule it breaks."""
        found = by_command(text, me, options)
        if not isinstance(found, str):
            return found
        written = text if re.match(r"p[12]\s*:", text) else f"{player_name(me)}: {text}"
        try:
            command = parse_command(written)
        except NotationError as error:
            return f"'{text}' は選択肢でもコマンドでもありません: {error.message}（help で説明）"
        return f"できません: {explain(self.game, command)}"

    def _entry(self, value: str, matching: list[Option], step: int) -> str:
        """A menu entry: a group of options by its value at this step, or the one option whole."""
        first = matching[0]
        if step > 0:
            shown = value or "（なし）"
        elif isinstance(first, Pass):
            shown = "pass（パス）"
        else:
            shown = str(first) if len(matching) == 1 else value
            if isinstance(first, Choice) and shown == value and value in ANSWERS:
                shown += f"（{ANSWERS[value]}）"
        return shown + (f"（{len(matching)}通り）" if len(matching) > 1 else "")

    def _question(self, seen: View, left: list[Option], step: int, chosen: list[str]) -> str:
        """What is being decided now, in words."""
        so_far = " ".join(c for c in chosen if c)
        title = _steps(left[0])[step]
        if isinstance(left[0], Choice) and seen.resolving:
            action = seen.resolving[-1]
            if {parts(o)[0] for o in left} <= {"yes", "no"}:
                return f"「{action.name}」{self._may(action.action)} — しますか？"
            word = chosen[0] if chosen else ""
            doing = f"{word}: {ANSWERS[word]}" if word in ANSWERS else f"{so_far} {title}を選ぶ".strip()
            return f"「{action.name}」の解決: {doing}（? で効果の文）"
        if step == 0 and not isinstance(left[0], Choice):  # an answer outside a resolution: below
            where = "ステージに対応する" if seen.stage else "アクションを起こす"
            return f"あなたのチャンス: {where}か pass（? 番号で説明・help）"
        path = f"{so_far} › " if so_far else ""
        return f"{path}{title}を選ぶ（0で戻る）"

    def _may(self, action: str) -> str:
        """The clause of the effect the player may do (必要であれば…), as the sheet writes it."""
        for line in self.game.rules.action(action).effect.splitlines():
            if "必要であれば" in line:
                clause = line.split("必要であれば", 1)[1].lstrip("、,").rstrip("。")
                return f": {clause}"
        return ""

    def _explain(
        self, text: str, seen: View, left: list[Option], values: list[str], chosen: list[str]
    ) -> str:
        step = len(chosen)
        if not text:
            return "\n".join([self._question(seen, left, step, chosen), *self._effect_of_resolving(seen)])
        if not (text.isascii() and text.isdigit() and 1 <= int(text[:3]) <= len(values)):
            return f"? のあとに 1から{len(values)}までの番号"
        value = values[int(text[:3]) - 1]
        option = next(o for o in left if parts(o)[step] == value)
        if isinstance(option, Pass):
            return PASS
        if isinstance(option, Choice):
            meaning = ANSWERS.get(option.word, "効果が示す選択肢のひとつ")
            return "\n".join([f"{value}: {meaning}", *self._effect_of_resolving(seen)])
        if step == 0:
            return self._action_text(option)
        if value.startswith("★"):
            return f"{value}: キーカード。手札から表向きに出す"
        if value.startswith("$"):
            used = sorted({u for u in re.findall(r"[A-Z]", value) if u in PAYMENTS})
            return "\n".join(f"支払い {PAYMENTS[u]}" for u in used)
        return f"{value}: {TARGETS}"

    def _action_text(self, option: RequestOption) -> str:
        action = self.game.rules.action(option.action)
        head = f"{action.name}（{action.type}）"
        if action.key is not None:
            head += f" キー: {action.key}"
        lines = [head, *action.effect.splitlines()]
        if action.note:
            lines.append(action.note)
        return "\n".join(lines)

    def _effect_of_resolving(self, seen: View) -> list[str]:
        if not seen.resolving:
            return []
        action = self.game.rules.action(seen.resolving[-1].action)
        return [f"{action.name}の効果:", *action.effect.splitlines()]

    def _fit(self, lines: list[str]) -> list[str]:
        return [row for line in lines for row in _fold(line, self.width)]

    def _show(self, board: list[str], news: list[str], menu: list[str]) -> None:
        """The board, the latest events (as many as fit), the menu and the input line: ≤ ROWS."""
        board, menu = self._fit(board), self._fit(menu)
        news = self._fit(news)
        room = max(1, ROWS - len(board) - len(menu) - 2)
        if len(news) > room:
            news = [f"  …（ほか{len(news) - room + 1}件）", *news[len(news) - room + 1 :]]
        for line in [*board, "最近の出来事:", *news, *menu]:
            self.console.print(line)


def _zone_text(zone: ZoneView) -> str:
    """A declared zone as the viewer sees it: its cards (a face-up trump marked 表) and the
    count of those it may not see, or only its count."""
    if zone.cards is None:
        return f"{zone.count}枚"
    shown = " ".join(label(c) + ("(表)" if c in zone.face_up else "") for c in zone.cards)
    unseen = zone.count - len(zone.cards)
    return f"{shown} 裏向き{unseen}枚".strip() if unseen else shown
