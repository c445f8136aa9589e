"""The stepwise choice of an option, shared by the terminal (`blackpoker play`) and the
browser (`blackpoker serve`): a request is chosen action → key cards → payment → target, an
answer word → cards/target, each step offering only what is still legal, with a way back.

A step with one value left is taken without asking (marked `auto`); going back undoes those
and the one step the person chose before them. Labels are Japanese, as on the sheets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from blackpoker.runtime.engine.options import Choice, Option, Pass, RequestOption, target_text
from blackpoker.runtime.engine.rules import Rules
from blackpoker.runtime.engine.view import View
from blackpoker.runtime.play.labels import labels_for
from blackpoker.runtime.play.notation import InvalidCommand
from blackpoker.runtime.play.resolve import AmbiguousCommand, IllegalCommand, resolve_seen
from blackpoker.runtime.rules.enums import Answer

REQUEST_STEPS = ("アクション", "キーカード", "支払い", "対象")
CHOICE_STEPS = ("答え", "カード・対象")


def parts(option: Option) -> tuple[str, ...]:
    """An option's text by the steps it is chosen in (empty where it has no such part), as
    the option prints them."""
    if isinstance(option, Pass):
        return ("pass",)
    if isinstance(option, Choice):
        return (option.word, option.rest_text)
    target = "→ " + target_text(option.target) if option.target is not None else ""
    return (option.head, option.key_text, option.payment_text, target)


def steps(option: Option) -> tuple[str, ...]:
    return CHOICE_STEPS if isinstance(option, Choice) else REQUEST_STEPS


@dataclass(frozen=True, slots=True)
class Menu:
    """One step of a choice: the options still open, the values settled so far (`auto`: taken
    without asking) and the values (two or more) to choose between now."""

    left: tuple[Option, ...]
    chosen: tuple[str, ...]
    auto: tuple[bool, ...]
    values: tuple[str, ...]

    @property
    def step(self) -> int:
        return len(self.chosen)

    def matching(self, value: str) -> list[Option]:
        return [o for o in self.left if parts(o)[self.step] == value]


def advance(options: Sequence[Option], chosen: Sequence[str], auto: Sequence[bool]) -> Menu | Option | None:
    """The option `chosen` settles on, else the next step to ask; None when no option starts
    with `chosen` (a stale or made-up path)."""
    path, taken = list(chosen), list(auto)
    while True:
        left = [o for o in options if parts(o)[: len(path)] == tuple(path)]
        if not left:
            return None
        step = len(path)
        if len(left) == 1 or step >= len(parts(left[0])):
            return left[0]  # two options may print alike (two Jokers): either is the same move
        values = list(dict.fromkeys(parts(o)[step] for o in left))
        if len(values) == 1:
            path.append(values[0])
            taken.append(True)
            continue
        return Menu(tuple(left), tuple(path), tuple(taken), tuple(values))


def back(menu: Menu) -> tuple[list[str], list[bool]] | None:
    """The path one step back (the steps taken without asking, then one the person took), or
    None when the person has chosen nothing yet."""
    if all(menu.auto):
        return None
    path, taken = list(menu.chosen), list(menu.auto)
    while path:
        path.pop()
        if not taken.pop():
            break
    return path, taken


def entry(rules: Rules, menu: Menu, value: str) -> str:
    """A menu entry in words (labels.json): a group of options by its value at this step, or
    the one option whole; the value itself stays the notation's."""
    said = labels_for(rules.ruleset)
    matching = menu.matching(value)
    first = matching[0]
    if isinstance(first, Choice):
        shown = said.choice(first) if menu.step > 0 or len(matching) == 1 else said.word(value)
    elif menu.step == 0 and isinstance(first, RequestOption):
        shown = said.option(first) if len(matching) == 1 else said.head(first)
    elif menu.step == 0:
        shown = said.option(first)
    else:
        shown = said.target(value) or said["menu"]["none"]
    return shown + (said.say("menu", "ways", count=len(matching)) if len(matching) > 1 else "")


def question(rules: Rules, seen: View, menu: Menu, keys: bool = True) -> str:
    """What is being decided now, in words; `keys`: with the terminal's keys (?, help, 0)."""
    left, step, chosen = menu.left, menu.step, menu.chosen

    def hint(text: str) -> str:
        return f"（{text}）" if keys else ""

    said = labels_for(rules.ruleset)
    so_far = " ".join(said.target(said.word(c)) for c in chosen if c)
    title = steps(left[0])[step]
    if isinstance(left[0], Choice) and seen.resolving:
        action = seen.resolving[-1]
        if all(isinstance(o, Choice) and o.word in (Answer.YES, Answer.NO) for o in left):
            clause = rules.action(action.action).may_clause
            return f"「{action.name}」{f': {clause}' if clause else ''} — しますか？"
        word = chosen[0] if chosen else ""
        answers = said["answers"]
        doing = answers[word] if word in answers else f"{so_far} {title}を選ぶ".strip()
        return f"「{action.name}」の解決: {doing}{hint('? で効果の文')}"
    if step == 0 and not isinstance(left[0], Choice):  # an answer outside a resolution: below
        where = "ステージに対応する" if seen.stage else "アクションを起こす"
        return f"あなたのチャンス: {where}かパスする{hint('? 番号で説明・help')}"
    path = f"{so_far} › " if so_far else ""
    return f"{path}{title}を選ぶ{hint('0で戻る')}"


def explain_entry(rules: Rules, seen: View, menu: Menu, value: str | None) -> str:
    """What an entry means (`?` at the terminal, a button's help in the browser): an action's
    type, key and effect text, a key card, a payment's units, a target's notation, an effect's
    answer; without a value, what is being decided and the effect being resolved."""
    if value is None:
        return "\n".join([question(rules, seen, menu), *_effect_of_resolving(rules, seen)])
    option = menu.matching(value)[0]
    said = labels_for(rules.ruleset)
    if isinstance(option, Pass):
        return said["menu"]["pass help"]
    if isinstance(option, Choice):
        meaning = said["answers"].get(option.word, "効果が示す選択肢のひとつ")
        shown = said.option(option) if menu.step else said.word(value)
        return "\n".join([f"{shown}: {meaning}", *_effect_of_resolving(rules, seen)])
    step = REQUEST_STEPS[menu.step]
    if step == "アクション":
        return _action_text(rules, option)
    if step == "キーカード" and option.keys:
        return f"{value}: キーカード。手札から表向きに出す"
    if step == "支払い" and option.payment:
        used = sorted({unit for unit, _ in option.payment if unit in said["payments"]})
        return "\n".join(f"支払い {said['payments'][u]}" for u in used)
    return f"{said.target(value)}: {said['targets']['help']}"


def _action_text(rules: Rules, option: RequestOption) -> str:
    action = rules.action(option.action)
    head = f"{action.name}（{action.type}）"
    if action.key is not None:
        head += f" キー: {action.key}"
    lines = [head, *action.effect.splitlines()]
    if action.note:
        lines.append(action.note)
    return "\n".join(lines)


def _effect_of_resolving(rules: Rules, seen: View) -> list[str]:
    if not seen.resolving:
        return []
    action = rules.action(seen.resolving[-1].action)
    return [f"{action.name}の効果:", *action.effect.splitlines()]


def command_option(rules: Rules, seen: View, text: str, hint: str = "") -> Option | str:
    """The option of the view a command in the notation names (typed instead of chosen in
    steps), or why it is refused, in words: the notation's error, the rule the command breaks
    (explained in a game dealt from the view: a refusal must not tell what a hidden card is),
    or the options it could mean."""
    said = labels_for(rules.ruleset)
    try:
        return resolve_seen(seen, text)
    except InvalidCommand as error:
        refused = said.say("command", "not notation", text=text, column=error.column + 1)
        if error.meant is not None:
            refused += said.say("command", "meant", meant=error.meant)
        return refused + hint
    except IllegalCommand as error:
        return said.refusal(error.refusal)
    except AmbiguousCommand as error:
        shown = said["command"]["options joined"].join(map(said.option, error.candidates))
        return said.say("command", "ambiguous", options=shown)
