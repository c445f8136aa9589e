"""What one player may see (seed 001 §3.12.1 公開・非公開情報): the only thing agents get.

* Life: the contents are hidden from everyone; the owner knows the count (個人公開), the
  opponent sees it below 10 and `AtLeast(10)` (printed "10+") from 10 on (完全公開:
  10枚未満のライフ枚数).
* Hand: the owner sees the cards, the opponent only the count.
* Graveyard: the owner sees the contents (個人公開); its top card is public (完全公開: 墓地の
  一番上のカード), so the opponent sees that one, and `top` names it for both. Which card is on
  top follows the edition's `core.graveyard_top` (`owner_chooses`: its owner chooses it).
* Field: face-up cards are public; a face-down character (a bulwark) is seen by its owner
  only (伏せてあるカード: 個人公開). The opponent sees a face-down character, its state and
  a reference `HiddenCharacter(N)` (printed `face-down#N`) — and options that target it name
  it that way, never by card.
* The stage, the resolving requests, chance, turn and combat are public.
* A zone the edition declares (`core.zones`, the fog) shows as its `visibility` says:
  public — its cards to everyone (the fog holds lingering magic's marks, face up);
  owner — its cards to the owner, the count to the opponent; hidden — the count to both (a
  regulation's unopened pack); faces — each card as it lies: a face-up one to everyone, a
  face-down one to its owner (the trumps: 切札).

References are values, as options hold them (runtime/engine/refs.py): a character is
`CharacterByCard` or `HiddenCharacter`, a request's target any option target, a card off the
field (`CardRef`) or `GONE`, a player a seat. Text is made at the edges: the terminal,
the browser's board (runtime/serve/board.py), through `options.target_text` and
`reference_text` here.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from blackpoker.runtime.engine.abilities import size
from blackpoker.runtime.engine.determinize import Pool, deal, layout, named_cards
from blackpoker.runtime.engine.options import Option, Pass, target_text
from blackpoker.runtime.engine.refs import (
    GONE,
    CardRef,
    CharacterByCard,
    CharacterRef,
    Gone,
    HiddenCharacter,
    HiddenZoneCard,
    Result,
    UnitRef,
    ViewTarget,
    ZoneCard,
)
from blackpoker.runtime.engine.state import GameState, Request, Unit
from blackpoker.runtime.engine.targets import named
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.rules.model import Visibility

if TYPE_CHECKING:
    from blackpoker.runtime.engine.game import Game

LIFE_SHOWN_BELOW = 10  # the opponent's life count is exact below this, else "10+"


@dataclass(frozen=True, slots=True)
class AtLeast:
    """A count the viewer knows only a floor of: the opponent's life of 10 cards or more."""

    count: int

    def __str__(self) -> str:
        return f"{self.count}+"


@dataclass(frozen=True, slots=True)
class CharacterView:
    ref: CharacterRef  # as options and the stage name it: by its first card, by id when its cards are hidden
    kind: str  # character id; a face-down character is a bulwark, which is public
    name: str
    cards: tuple[int, ...]  # () when hidden from the viewer
    face_up: bool
    charged: bool
    size: int | None  # None when hidden
    attacking: bool
    blocking: CharacterRef | None  # the ref of the attacker it blocks


@dataclass(frozen=True, slots=True)
class ZoneView:
    id: str  # the zone's id in the edition's core.zones
    name: str  # its printed name (フォグ)
    cards: tuple[int, ...] | None  # None when hidden from the viewer
    count: int
    face_up: tuple[int, ...] = ()  # the cards lying face up (a zone of visibility `faces`)


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int  # 0 / 1 (printed p1 / p2)
    life: int | AtLeast  # a count, or at least 10 for the opponent's life of 10 cards or more
    hand: tuple[int, ...] | None  # None: the opponent's hand is hidden
    hand_count: int
    graveyard: tuple[int, ...]  # top last; the opponent's shows the top card only
    field: tuple[CharacterView, ...]
    zones: tuple[ZoneView, ...] = ()  # the edition's declared zones, in declaration order
    top: int | None = None  # the graveyard's top card, public to every player; None: empty


@dataclass(frozen=True, slots=True)
class RequestView:
    action: str
    name: str
    player: int  # the requester's seat
    key_cards: tuple[int, ...]  # key cards are played face up
    target: ViewTarget | None  # a character, a request by place, a player, a card; GONE once it left


@dataclass(frozen=True, slots=True)
class View:
    me: int
    players: tuple[PlayerView, PlayerView]
    turn: int
    turn_player: int
    chance: int | None
    stage: tuple[RequestView, ...]  # bottom first
    resolving: tuple[RequestView, ...]  # outermost first; a request waiting for its cost's triggers first
    result: Result | None
    options: tuple[Option, ...]  # the viewer's legal options, hidden cards named by ref
    # games dealt anew from what the viewer may see, for agents that search (engine/determinize.py)
    public: PublicGame | None = dataclasses.field(default=None, compare=False, repr=False)

    def visible_cards(self) -> set[int]:
        """Every card id the view shows: `blackpoker play` prints a card only if it is here."""
        return shown_cards(self.players, self.stage, self.resolving)


def shown_cards(players: tuple[PlayerView, ...], *requests: tuple[RequestView, ...]) -> set[int]:
    """Every card id these parts of a view show: its players' and its requests'."""
    found: set[int] = set()
    for p in players:
        found.update(p.hand or ())
        found.update(p.graveyard)
        for zone in p.zones:
            found.update(zone.cards or ())
        for unit in p.field:
            found.update(unit.cards)
    for part in requests:
        for request in part:
            found.update(request.key_cards)
    return found


class PublicGame:
    """A player's handle on the game being decided: it gives out dealt games, never the real one.

    It is valid while the decision it came with is being made (the game moves on after it).
    """

    __slots__ = ("_arranged", "_game", "_pools", "_shown", "_views", "me")

    def __init__(
        self,
        game: Game,
        me: int,
        shown: tuple[
            tuple[PlayerView, ...], tuple[RequestView, ...], tuple[RequestView, ...], tuple[Option, ...]
        ],
    ) -> None:
        self._game = game
        self._shown = shown  # the view's players, stage, resolving and options it came with
        # found on the first deal (most views are never dealt from), kept for the next ones:
        # where the cards lie that `me` does not see (the view's, and their own cards out of the
        # game, are seen; those the options name are dealt among themselves)
        self._pools: tuple[Pool, ...] | None = None
        # the dealt games' cache of character views, kept by all a view of one shows: begun from
        # the real game's, but not written back into it (a deal's cards are made up)
        self._views: dict[tuple[object, ...], Any] | None = None
        self._arranged: Game | None = None
        self.me = me

    def _layout(self) -> tuple[Pool, ...]:
        if self._pools is None:
            players, stage, resolving, options = self._shown
            outside = self._game.state.players[self.me].outside
            seen = shown_cards(players, stage, resolving) | set(outside)
            self._pools = layout(self._game.state, seen, named_cards(options))
        return self._pools

    def sample(self, rng: random.Random) -> Game:
        """A game like the real one where every card `me` may not see is dealt from `rng`, and
        chance (later shuffles) runs on a generator seeded from `rng` too."""
        return self._dealt(rng, random.Random(rng.getrandbits(64)))

    def arranged(self) -> Game:
        """One game like the real one where the cards `me` may not see lie in a fixed order
        (each player's sorted), for a reader that needs a whole game but no guess at the hidden
        cards (the greedy agent reads the values of programs in it); made once, not to be played."""
        if self._arranged is None:
            self._arranged = self._dealt(None, random.Random(0))
        return self._arranged

    def _dealt(self, rng: random.Random | None, chance: random.Random) -> Game:
        from blackpoker.runtime.engine.game import Game

        state = self._game.state.copy(chance)
        deal(state, self._layout(), rng)
        dealt = Game(self._game.rules, state)
        dealt.decisions = self._game.decisions
        if self._views is None:
            self._views = dict(self._game.views)
        dealt.views = self._views
        return dealt


def view(game: Game, me: int) -> View:
    """What player `me` may see now, with their legal options if they decide."""
    state = game.state
    hidden = hidden_from(state, me)
    players = (_player(game, 0, me, hidden), _player(game, 1, me, hidden))
    options = game.legal_options() if game.to_move == me else ()
    if options and (hidden or state.players[1 - me].zones):  # a face-down trump is in a zone
        options = masked_options(state, options, hidden)
    stage = tuple(_request(state, r, hidden, me) for r in state.stage) if state.stage else ()
    busy = state.resolving or state.pending
    resolving = tuple(_request(state, r, hidden, me) for r in _resolving(state)) if busy else ()
    return View(
        me,
        players,
        state.turn,
        state.turn_player,
        state.chance,
        stage,
        resolving,
        state.result,
        options,
        PublicGame(game, me, (players, stage, resolving, options)),
    )


def _player(game: Game, index: int, me: int, hidden: set[int]) -> PlayerView:
    state = game.state
    p = state.players[index]
    mine = index == me
    if state.attackers:  # combat is short: most views skip this
        attacking = set(state.attackers)
        blocking = {b: a for a, blockers in state.blocks.items() for b in blockers}
        field = tuple(
            _character(
                game,
                u,
                u.uid in hidden,
                u.uid in attacking,
                _ref(a, hidden) if (a := state.unit(blocking.get(u.uid, -1))) else None,
            )
            for u in p.field
        )
    else:
        field = tuple(_character(game, u, u.uid in hidden, False, None) for u in p.field)
    life = len(p.life)
    return PlayerView(
        index,
        life if mine or life < LIFE_SHOWN_BELOW else AtLeast(LIFE_SHOWN_BELOW),
        tuple(p.hand) if mine else None,
        len(p.hand),
        tuple(p.graveyard) if mine else tuple(p.graveyard[-1:]),
        field,
        tuple(
            ZoneView(
                z.id,
                z.name,
                _zone_cards(z.visibility, mine, p.zones[z.id], p.face_up),
                len(p.zones[z.id]),
                tuple(c for c in p.zones[z.id] if c in p.face_up),
            )
            for z in game.rules.edition.core.zones
        ),
        p.graveyard[-1] if p.graveyard else None,
    )


def _ref(unit: Unit, hidden: set[int]) -> CharacterRef:
    return HiddenCharacter(unit.uid) if unit.uid in hidden else CharacterByCard(unit.cards[0])


def reference_text(target: ViewTarget) -> str:
    """How the terminal and the board print a request's target: as an option names it, a
    card by its face, `gone` once it left."""
    if isinstance(target, Gone):
        return "gone"
    if isinstance(target, CardRef):
        return label(target.card)
    return target_text(target)


def _resolving(state: GameState) -> list[Request]:
    pending = [] if state.pending is None else [state.pending]
    return [*pending, *(r.request for r in state.resolving)]


def _request(state: GameState, r: Request, hidden: set[int], me: int) -> RequestView:
    target: ViewTarget | None = None
    if isinstance(r.target, UnitRef):
        unit = state.unit(r.target.uid)
        target = _ref(unit, hidden) if unit is not None else GONE
    elif isinstance(r.target, CardRef):
        shown = named(state, r.target)  # a trump: by its place when it lies face down for `me`
        if isinstance(shown, ZoneCard):
            target = hidden_zone_card(state, me, shown.zone, shown.card) or shown
        else:
            target = r.target  # a summoned character's card, seen as it left the field
    elif r.target is not None:
        shown = named(state, r.target)
        target = shown if shown is not None else GONE
    return RequestView(r.action.id, r.action.name, r.controller, r.key_cards, target)


def _character(
    game: Game, unit: Unit, secret: bool, attacking: bool, blocking: CharacterRef | None
) -> CharacterView:
    """A view is built for every decision and characters rarely change between two, so their
    views are kept in the game's cache by everything they show."""
    known = game.views
    shown = size(game, unit)
    key = (
        unit.uid,
        unit.kind.id,
        *unit.cards,
        secret,
        unit.charged,
        unit.face_up,
        shown,
        attacking,
        blocking,
    )
    found = known.get(key)
    if found is None:
        found = known[key] = CharacterView(
            HiddenCharacter(unit.uid) if secret else CharacterByCard(unit.cards[0]),
            unit.kind.id,
            unit.kind.name,
            () if secret else tuple(unit.cards),
            unit.face_up,
            unit.charged,
            None if secret else shown,
            attacking,
            blocking,
        )
    return found


def hidden_from(state: GameState, me: int) -> set[int]:
    """The characters whose cards `me` may not see: the opponent's face-down ones."""
    return {u.uid for u in state.players[1 - me].field if not u.face_up}


def masked(state: GameState, option: Option, hidden: set[int]) -> Option:
    """A request whose target is a hidden character names it by reference instead of by card."""
    return masked_options(state, (option,), hidden)[0]


def masked_options(state: GameState, options: tuple[Option, ...], hidden: set[int]) -> tuple[Option, ...]:
    """The same tuple when no option names a hidden card, so the caller can tell cheaply: a
    hidden character (its id in `hidden`) by reference, and a card lying face down in the
    opponent's zone (a trump) by its place there."""
    shown: list[Option] | None = None
    behind: dict[int, int] = {}
    for index, option in enumerate(options):
        if isinstance(option, Pass):
            continue
        target = option.target
        hiding: HiddenCharacter | HiddenZoneCard | None = None
        if isinstance(target, CharacterByCard):
            if not behind:
                behind = {
                    c: u.uid for p in state.players for u in p.field if u.uid in hidden for c in u.cards
                }
            uid = behind.get(target.card)
            hiding = None if uid is None else HiddenCharacter(uid)
        elif isinstance(target, ZoneCard):
            hiding = hidden_zone_card(state, option.player, target.zone, target.card)
        if hiding is not None:
            shown = list(options) if shown is None else shown
            shown[index] = dataclasses.replace(option, target=hiding)
    return options if shown is None else tuple(shown)


def hidden_zone_card(state: GameState, me: int, zone: str, cid: int) -> HiddenZoneCard | None:
    """How `me` names a card of a zone whose cards have faces when it is hidden from them: a
    card lying face down in the opponent's zone, by its place there (from 1)."""
    side = state.players[1 - me]
    cards = side.zones.get(zone, ())
    if cid not in cards or cid in side.face_up:
        return None
    return HiddenZoneCard(1 - me, zone, cards.index(cid) + 1)


def _zone_cards(
    visibility: Visibility, mine: bool, cards: list[int], face_up: dict[int, int]
) -> tuple[int, ...] | None:
    """The cards of a declared zone a player sees (None: only their count)."""
    if visibility is Visibility.PUBLIC or (mine and visibility in (Visibility.OWNER, Visibility.FACES)):
        return tuple(cards)
    return tuple(c for c in cards if c in face_up) if visibility is Visibility.FACES else None
