"""Deal a player's unknown cards anew: a full game consistent with what that player may see
(a view's `public` handle, engine/view.py's PublicGame, deals through here).

A search agent plays its moves forward in such games. The cards `me` may not see (their own
life's order; the opponent's hand, life, graveyard below the top, face-down characters,
hidden zones and cards out of the game) are dealt again from a seeded generator: slot by slot
in a fixed order, each player's unseen cards shuffled into that player's slots. Where a card lies
— and so what a sample holds — depends only on the public shape of the game (how many cards
each pile holds, what resolves) and on the cards `me` sees, never on which hidden card lay
where. Every card sits in its owner's piles (transitions.put_card), so each player's unseen
cards fill exactly that player's slots.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from blackpoker.runtime.engine.options import Choice, Option, Prompt, RequestOption
from blackpoker.runtime.engine.refs import CharacterByCard, ZoneCard
from blackpoker.runtime.engine.state import GameState, Resolution


def named_cards(options: Iterable[Option]) -> set[int]:
    """The cards options name: key cards, payments, answers and targets are shown to the decider."""
    found: set[int] = set()
    for option in options:
        if isinstance(option, RequestOption):
            found.update(option.keys)
            found.update(c for _, c in option.payment if c is not None)
        elif isinstance(option, Choice):
            found.update(c for c in (option.a, option.b) if c is not None)
        target = getattr(option, "target", None)
        if isinstance(target, CharacterByCard | ZoneCard):
            found.add(target.card)
    return found


@dataclass(frozen=True, slots=True)
class Pool:
    """Cards dealt among the same places: the player's unnamed unseen cards, or a pile's named ones."""

    places: tuple[tuple[int, tuple[int, ...]], ...]  # (pile number in `_piles` order, its positions)
    cards: tuple[int, ...]  # sorted: the set of the pool's cards, in no order the game gave it
    unnamed: bool  # its cards take new ids' places (named ones keep their ids: see `deal`)


def layout(state: GameState, seen: set[int], named: set[int]) -> tuple[Pool, ...]:
    """Where the cards of `state` not in `seen` lie, pooled as `deal` deals them: found once per
    decision, it holds for every game dealt for it (a search deals dozens)."""
    # pool (player, pile number, or -1 for a player's unnamed cards) → its places and its cards
    pools: dict[tuple[int, int], tuple[list[tuple[int, tuple[int, ...]]], list[int]]] = {}
    for n, (p, pile) in enumerate(_piles(state)):
        unseen = [i for i, c in enumerate(pile) if c not in seen]
        if not unseen:
            continue
        mine = [i for i in unseen if pile[i] in named] if named else []
        if mine:
            unseen = [i for i in unseen if pile[i] not in named]
            _place(pools, (p, n), n, pile, mine)
        if unseen:
            _place(pools, (p, -1), n, pile, unseen)
    return tuple(
        Pool(tuple(places), tuple(sorted(cards)), key[1] < 0)
        for key, (places, cards) in sorted(pools.items())
    )


def deal(state: GameState, pools: tuple[Pool, ...], rng: random.Random | None) -> None:
    """Deal the cards of `pools` (the `layout` of this state, or of the state it is a copy of)
    anew, in place (see the module's note); without `rng`, each pool's cards go back in their
    sorted order (an arranged deal).

    A card the decider's options name (a pick out of their life) is known, but not where it
    lies in its pile: it is shuffled among the named cards of that pile only, and keeps its id,
    so the options still name it.
    """
    piles = [pile for _, pile in _piles(state)]
    dealt: dict[int, int] = {}
    for pool in pools:
        if rng is None:
            cards = list(pool.cards)
        else:  # a uniform order: sorting by random keys draws as a shuffle does, a few times faster
            draw = rng.random
            cards = sorted(pool.cards, key=lambda _: draw())
        for n, indexes in pool.places:
            pile = piles[n]
            for i in indexes:
                cid, pile[i] = pile[i], cards.pop()
                if pool.unnamed:
                    dealt[cid] = pile[i]
    for resolution in state.resolving:
        _relabel(resolution, dealt)
    state.asked = tuple(_relabelled(q, dealt) for q in state.asked)
    if state.arrived:
        state.arrived[:] = [dealt.get(c, c) for c in state.arrived]


def _place(
    pools: dict[tuple[int, int], tuple[list[tuple[int, tuple[int, ...]]], list[int]]],
    key: tuple[int, int],
    n: int,
    pile: list[int],
    indexes: list[int],
) -> None:
    places, cards = pools.setdefault(key, ([], []))
    places.append((n, tuple(indexes)))
    cards.extend(map(pile.__getitem__, indexes))


def _piles(state: GameState) -> Iterator[tuple[int, list[int]]]:
    """Every list of cards in a fixed order, with the player whose cards it holds: each
    player's piles, zones and characters (a character is made of its controller's cards)."""
    for index, player in enumerate(state.players):
        piles = (player.life, player.hand, player.graveyard, player.outside, *player.zones.values())
        yield from ((index, pile) for pile in (*piles, *(unit.cards for unit in player.field)))


def _relabel(resolution: Resolution, dealt: dict[int, int]) -> None:
    """A resolution's bound cards and waiting answers follow the cards to their new ids."""
    for name, value in resolution.vars.items():
        if isinstance(value, list):
            resolution.vars[name] = [dealt.get(v, v) if isinstance(v, int) else v for v in value]
    for frame in resolution.frames:
        if frame.bind is not None and isinstance(frame.bind[1], int):
            frame.bind = (frame.bind[0], dealt.get(frame.bind[1], frame.bind[1]))
    if resolution.waiting is not None:
        resolution.waiting = _relabelled(resolution.waiting, dealt)


def _relabelled(prompt: Prompt, dealt: dict[int, int]) -> Prompt:
    """A question whose answers name the cards by their new ids."""
    return Prompt(
        prompt.player,
        tuple(
            Choice(
                c.player,
                c.word,
                None if c.a is None else dealt.get(c.a, c.a),
                None if c.b is None else dealt.get(c.b, c.b),
                c.target,
            )
            for c in prompt.options
        ),
    )
