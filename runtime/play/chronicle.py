"""The game's events in words, as a person at the table follows them (`blackpoker play`,
`blackpoker serve`): decisions as the person may see them, then the events they caused (a
fight's damage and deaths among them), and draws, in the words of the labels file's `events`
(labels.py); action names come from the rule set."""

from __future__ import annotations

from dataclasses import dataclass, field

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import Choice, Option, Pass
from blackpoker.runtime.engine.refs import CharacterByCard, player_name
from blackpoker.runtime.engine.view import hidden_from, masked, view
from blackpoker.runtime.play.event_text import in_words
from blackpoker.runtime.play.labels import Labels, labels, labels_for


@dataclass(frozen=True, slots=True)
class Glimpse:
    """A decision as one seat saw it being made: the option as shown to that seat (a hidden
    character by reference) and, for another player's decision, the cards the seat saw then
    (None: the seat's own decision, said whole)."""

    seat: int
    mover: int
    shown: Option
    seen: frozenset[int] | None


def glimpse(game: Game, option: Option, seat: int) -> Glimpse:
    """`option` as `seat` sees it, taken before it is played in `game` (it may move the cards)."""
    shown = masked(game.state, option, hidden_from(game.state, seat))
    seen = None if option.player == seat else frozenset(view(game, seat).visible_cards())
    return Glimpse(seat, option.player, shown, seen)


@dataclass
class Chronicle:
    """The game's events in words, newest last; `mark` is where the person last looked."""

    lines: list[str] = field(default_factory=list)
    told: int = 0
    mark: int = 0
    hands: tuple[int, int] = (0, 0)

    def decided(self, game: Game, mover: int, shown: Option, visible: set[int] | None = None) -> None:
        """A decision (masked as the person may see it) and then the events it caused; with
        `visible` (the cards the person sees), one naming other cards is said by its word."""
        words = labels_for(game.rules.ruleset)
        self.lines.append(
            words.say("events", "decided", player=player_name(mover), said=said(words, shown, visible))
        )
        self.follow(game)

    def witnessed(self, game: Game, seen: Glimpse) -> None:
        """A decision as `seen.seat` saw it, said after it was played in `game`: a card that
        seat saw before or after the decision may be named, any other is said by its word."""
        visible = None if seen.seen is None else seen.seen | view(game, seen.seat).visible_cards()
        self.decided(game, seen.mover, seen.shown, None if visible is None else set(visible))

    def follow(self, game: Game) -> None:
        events = game.events or []
        words = labels()["events"]
        for event in events[self.told :]:
            line = in_words(game.rules, event, words)
            if line is not None:
                self.lines.append(line)
        self.told = len(events)
        # A draw is seen as cards going from the life to the hand: said for whoever drew.
        state = game.state
        hands = (len(state.players[0].hand), len(state.players[1].hand))
        for index, (before, now) in enumerate(zip(self.hands, hands, strict=True)):
            if now > before and self.told > 1:
                drew = labels().say("events", "drew", player=player_name(index), count=now - before, hand=now)
                self.lines.append(drew)
        self.hands = hands

    def since_mark(self) -> list[str]:
        news = self.lines[self.mark :] or self.lines[-1:]
        self.mark = len(self.lines)
        return news


def named_cards(option: Option) -> set[int]:
    """The cards an option names: key cards, payments, answer cards, a character target, a
    causing character."""
    if isinstance(option, Pass):
        return set()
    if isinstance(option, Choice):
        named = {option.a, option.b}
    else:
        named = {*option.keys, *(c for _, c in option.payment), option.source}
    if isinstance(option.target, CharacterByCard):
        named.add(option.target.card)
    return {c for c in named if c is not None}


def said(words: Labels, option: Option, visible: set[int] | None = None) -> str:
    """A decision in `words` (labels.py, the rule set's: `labels_for`); with `visible`, one
    that names a card outside it (a face-down bulwark paid with $B, a card placed on a life) is
    said by its action or answer alone."""
    if visible is None or named_cards(option) <= visible:
        return words.option(option)
    assert not isinstance(option, Pass)  # a pass names no card
    word = words.word(option.word) if isinstance(option, Choice) else option.name
    return words.say("menu", "hidden cards", word=word)
