"""The legality checks and the option search agree; the payment registry covers the grammar."""

from __future__ import annotations

import random
import string
from dataclasses import replace

import pytest
from blackpoker.compiler import compile
from blackpoker.compiler.documents.extra import EXTRA_FORMAT, TRUMP_ZONE
from blackpoker.compiler.notation import NotationError, parse_cost
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.option_search import one_of_each
from blackpoker.runtime.engine.options import RequestOption, sort_cards
from blackpoker.runtime.engine.payments import UNITS, discards_by_value
from blackpoker.runtime.engine.refs import PlayerRef, StagePosition, WrittenCharacter
from blackpoker.runtime.engine.request_checks import CHECKS, causes, first_refusal
from blackpoker.runtime.engine.rules import Recent, Rules
from blackpoker.runtime.engine.state import Unit
from blackpoker.runtime.engine.transitions import move_card, place_units
from blackpoker.runtime.engine.zones import DECK, DECK_SIZE, card, owner
from blackpoker.runtime.play.agents import decide
from blackpoker.runtime.play.explain import OPTION
from blackpoker.runtime.play.notation import RequestCommand, parse_command
from blackpoker.runtime.play.resolve import AmbiguousCommand, IllegalCommand, resolve_command
from blackpoker.runtime.play.selfplay import random_agents
from blackpoker.runtime.rules.cards import Card, Suit
from blackpoker.runtime.rules.cost import UNITS as COST_UNITS
from blackpoker.runtime.rules.model import RuleSet
from blackpoker.runtime.rules.program import CausedBy
from editions_support import EDITIONS, compiled, environment, formats, reference_edition

FORMATS = [(edition, format_id) for edition in EDITIONS for format_id in formats(edition)]
EDITION = EDITIONS[0]
ENV = environment()


def positions(rules: Rules, games: int, every: int) -> list[Game]:
    """Copies of self-play positions, every `every`-th decision of `games` random games."""
    found = []
    for seed in range(games):
        game = Game.new(rules, seed, check=False)
        agents = random_agents(seed)
        while not game.over and game.decisions < 400:
            if game.decisions % every == 0:
                found.append(game.copy())
            game.apply(decide(game, agents))
        if game.over:
            found.append(game)
    return found


def command(option: RequestOption) -> RequestCommand:
    written = parse_command(f"p{option.player + 1}: {option}")
    assert isinstance(written, RequestCommand)
    return written


def mutations(game: Game, written: RequestCommand, rng: random.Random) -> list[RequestCommand]:
    """Commands near a legal one: a card, a payment part, the target, the player or the action changed."""
    p = written.player
    cards = [card(c) for c in game.state.players[p].hand] + [rng.choice(DECK) for _ in range(2)]
    cards += [card(u.cards[0]) for pl in game.state.players for u in pl.field]
    names = [a.name for a in game.rules.actions]
    some = rng.choice(cards)
    keys, payment = list(written.keys), list(written.payment)
    found = [
        replace(written, player=1 - p),
        replace(written, name=rng.choice(names)),
        replace(written, name=written.name + "?"),
        replace(written, keys=(*keys, some)),
        replace(written, keys=tuple(keys[1:])),
        replace(written, keys=tuple(rng.choice(cards) if i == 0 else k for i, k in enumerate(keys))),
        replace(written, payment=(*payment, (rng.choice(tuple(UNITS)), rng.choice((some, None))))),
        replace(written, payment=tuple(payment[1:])),
        replace(written, payment=tuple((u, some if c is not None else c) for u, c in payment)),
        replace(written, payment=tuple((u, rng.choice(cards)) for u, c in payment)),
        replace(written, target=None),
        replace(written, target=WrittenCharacter(rng.randrange(2), some)),
        replace(written, target=StagePosition(rng.randrange(1, 4))),
        replace(written, target=PlayerRef(rng.randrange(2))),
        replace(written, source=some),
        replace(written, source=None),
    ]
    return found


@pytest.mark.parametrize(("edition", "format_id"), FORMATS)
def test_legal_options_pass_every_check_and_the_first_refusal_agrees(edition: str, format_id: str) -> None:
    rules = Rules(compile(edition, format_id))
    games = positions(rules, 6, 7)
    assert len(games) >= 100
    rules_seen = agreement(games, random.Random(format_id))
    # an edition's actions may have no 起動条件 as data (regulations' actions do: their tests)
    unused = {"requirement"} if not any(a.requires for a in rules.actions) else set()
    unused |= {"causing character"} if not any(a.caused_by for a in rules.actions) else set()
    assert {rule for rule, _ in CHECKS} - rules_seen <= {"once per turn", "only without turn", *unused}


def caused_trumps(edition: str) -> set[Card]:
    """The cards of the trumps of an edition's extra format whose actions are caused."""
    if not ENV.builtin_extras(edition):
        return set()
    ruleset = ENV.compile(edition, EXTRA_FORMAT.id)
    return {t.card for t in ruleset.trumps if any(ruleset.action(a).caused_by for a in t.actions)}


@pytest.mark.parametrize("edition", [e for e in EDITIONS if caused_trumps(e)])
def test_caused_actions_agree_with_the_causing_character_check(edition: str) -> None:
    """The extra format's positions with every trump of a caused action face up on both sides,
    and a charged character of each kind a caused action names on each field (one card: the
    bottom ones of the life)."""
    caused = caused_trumps(edition)
    rules = Rules(ENV.compile(edition, EXTRA_FORMAT.id))
    kinds = sorted({a.caused_by.kind for a in rules.actions if a.caused_by and a.caused_by.kind})
    games = positions(rules, 4, 5)
    for game in games:
        for cid in (c for p in game.state.players for c in (*p.hand, *p.life, *p.graveyard)):
            if card(cid) in caused:
                move_card(game.state, cid, TRUMP_ZONE.id)
                game.state.players[owner(cid)].face_up[cid] = game.state.new_uid()
        for side in game.state.players:
            for kind, cid in zip(kinds, side.life[::-1], strict=False):
                place_units(game, [cid], kind, None, charged=True)
    offered = [o for g in games for o in g.legal_options() if isinstance(o, RequestOption) and o.source]
    assert {o.action for o in offered} == {
        a.id for a in rules.actions if a.caused_by
    }  # each caused action is offered somewhere
    assert "causing character" in agreement(games, random.Random(edition))


def agreement(games: list[Game], rng: random.Random) -> set[str]:
    """Every legal request passes every check, and near ones are refused exactly when they
    are no option; the rules that refused them."""
    accepted = refused = 0
    rules_seen: set[str] = set()
    recent: list[RequestCommand] = []  # requests legal earlier, written again where none is open
    for game in games:
        requests = [o for o in game.legal_options() if isinstance(o, RequestOption)]
        for option in requests:
            written = command(option)
            assert first_refusal(game, written) is None, f"{option} is a legal option"
            accepted += 1
        samples = [command(o) for o in rng.sample(requests, min(3, len(requests)))]
        if not requests and recent:
            samples = [replace(rng.choice(recent), player=game.to_move or 0)]
        recent = samples or recent
        for written in samples:
            for mutated in mutations(game, written, rng):
                # named options pass every check (above); a command naming none breaks one of them
                try:
                    resolve_command(game, mutated, repr(mutated))
                except AmbiguousCommand:
                    continue  # it names options: legal ones
                except IllegalCommand as error:
                    assert error.refusal.rule != OPTION, (
                        f"{mutated}: no check refuses it, yet it is no option"
                    )
                    refused += 1
                    rules_seen.add(error.refusal.rule)
    assert accepted > 100 and refused > 100
    return rules_seen


def test_the_checks_are_named_once() -> None:
    names = [rule for rule, _ in CHECKS]
    assert len(names) == len(set(names))


def grammar_letters() -> list[str]:
    """Every single letter the cost notation accepts."""
    accepted = []
    for letter in string.ascii_uppercase:
        try:
            parse_cost(letter)
        except NotationError:
            continue
        accepted.append(letter)
    return accepted


def test_the_grammar_spells_exactly_the_units_the_engine_pays() -> None:
    assert set(grammar_letters()) == set(UNITS) == set(COST_UNITS)
    for edition in EDITIONS:
        assert {u.unit for u in compiled(edition)[formats(edition)[0]].edition.cost_units} <= set(UNITS)


def test_games_share_a_context_and_a_bare_rule_set_gets_one() -> None:
    ruleset = compiled(EDITION)[formats(EDITION)[0]]
    rules = Rules(ruleset)
    game = Game.new(rules, 1)
    assert game.rules is rules and game.copy().rules is rules
    alone = Game.new(ruleset, 1)
    assert alone.rules is not rules and alone.rules.ruleset is ruleset
    assert alone.legal_options() == game.legal_options()
    assert alone.rules.ruleset.digest == rules.ruleset.digest


def test_a_recent_cache_keeps_what_is_used_and_forgets_the_rest() -> None:
    cache: Recent[str, int] = Recent(4)  # two generations of two entries
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("c", 3)  # the newer generation was full: "a" and "b" are now the older one
    assert cache.get("a") == 1  # a hit in the older generation moves it to the newer
    assert cache.get_or_make("d", lambda: 4) == 4  # "c" and "a" become the older; "b" is forgotten
    assert cache.get("b") is None and len(cache) == 3
    assert [cache.get(key) for key in "acd"] == [1, 3, 4]
    for number in range(100):
        cache.put(str(number), number)
        assert len(cache) <= 4


def test_a_written_payment_names_each_character_once() -> None:
    """Two $B parts cannot drive the same bulwark."""

    def pays_bb(ruleset: RuleSet) -> bool:
        return any(a.cost.counts().get("B", 0) >= 2 for a in ruleset.actions)

    edition = reference_edition(lambda rulesets: any(pays_bb(r) for r in rulesets.values()))
    ruleset = next(r for r in compiled(edition).values() if pays_bb(r))  # the smallest with a $BB action
    for game in positions(Rules(ruleset), 6, 3):
        option = next(
            (
                o
                for o in game.legal_options()
                if isinstance(o, RequestOption) and [u for u, _ in o.payment].count("B") == 2
            ),
            None,
        )
        if option is None:
            continue
        written = command(option)
        first = next(c for u, c in written.payment if u == "B")
        twice = tuple((u, first if u == "B" else c) for u, c in written.payment)
        refusal = first_refusal(game, replace(written, payment=twice))
        assert refusal is not None and refusal.rule == "payment"
        assert isinstance(first, Card) and f"{first} is not one" in refusal.message
        return
    pytest.fail("no position offers a $BB request")


@pytest.mark.parametrize(("edition", "format_id"), FORMATS)
def test_options_from_warm_caches_equal_a_fresh_search(edition: str, format_id: str) -> None:
    """The plans cached by hand (shared by every game of a context) and each player's last
    plan give the options a new context finds from scratch, in the same order, including when
    only passing is legal; the caches are made small, so entries are forgotten and made again."""
    ruleset = compile(edition, format_id)
    shared = Rules(ruleset)
    for cache in ("hand_plans", "hand_actions", "key_plans", "relevant_ways", "value_ways"):
        setattr(shared, cache, Recent(64))
    only_pass = 0
    for game in positions(shared, 6, 3):
        fresh = Game(Rules(ruleset), game.state.copy(), check=False)
        assert fresh.legal_options() == game.legal_options()
        only_pass += len(game.legal_options()) == 1 and not game.state.resolving
    assert only_pass > 0


@pytest.mark.parametrize(("edition", "format_id"), FORMATS)
def test_plans_kept_by_relevant_cards_are_what_the_matcher_finds(edition: str, format_id: str) -> None:
    """`Rules.key_plans` keeps, per player, action and the hand's cards that can be its key
    cards, the action's plan or False when those cards allow no key-card way (most hands hold
    none of an action's): after self-play, each entry is what the matcher finds from scratch
    for those cards, and both kinds of entry were kept."""
    ruleset = compile(edition, format_id)
    rules = Rules(ruleset)
    positions(rules, 4, 50)
    actions = {a.id: a for a in ruleset.actions}
    entries = {**rules.key_plans.older, **rules.key_plans.newer}
    for (player, action_id, bits), kept in entries.items():
        action = actions[action_id]
        assert bits & ~rules.relevant.get(action_id, 0) == 0
        cards = sort_cards([c for c in range(2 * DECK_SIZE) if bits >> c & 1])
        assert all(owner(c) == player for c in cards)
        if action.matcher is None:  # an action without key cards: its plan, whatever the hand
            assert kept is not False and not bits
            continue
        ways = [tuple(cards[i] for i in way) for way in action.matcher.selections([card(c) for c in cards])]
        if kept is False:
            assert ways == [], (action_id, cards)
        else:
            assert not isinstance(kept, bool) and kept.ways == ways, (action_id, cards)
    assert any(kept is False for kept in entries.values())
    assert any(kept is not False for kept in entries.values())


def test_ways_of_one_card_per_pattern_are_listed_as_the_matcher_lists_them() -> None:
    """A key of one card of each of patterns no card meets two has its ways listed without the
    matcher (`one_of_each`): the same ways in the same order, for hands drawn from the cards
    the key can take (both decks: cards of equal value, Jokers), in every built-in rule set."""
    rng = random.Random(7)
    kinds = set()
    for edition in EDITIONS:
        for ruleset in compiled(edition).values():
            rules = Rules(ruleset)
            for action in ruleset.actions:
                patterns = rules.one_per_pattern.get(action.id)
                if patterns is None or action.matcher is None:
                    continue
                kinds.add(len(patterns))
                takes = [c for c in range(2 * DECK_SIZE) if rules.relevant[action.id] >> c & 1]
                for _ in range(100):
                    cards = rng.sample(takes, rng.randint(0, min(8, len(takes))))
                    ordered = sort_cards(cards)
                    selections = action.matcher.selections([card(c) for c in ordered])
                    expected = [tuple(ordered[i] for i in way) for way in selections]
                    assert one_of_each(ordered, patterns) == expected, (action.id, ordered)
    assert {1, 2} <= kinds  # one pattern, and two


def test_discards_of_one_card_are_the_combinations_by_value() -> None:
    """A D cost of one card lists one card per value without combining (payments._discards):
    the same payments in the same order as every combination kept once per set of values, for
    hands of both decks' cards (equal values, two Jokers) and an empty one."""
    game = Game.new(compile(reference_edition()), 1)
    rng = random.Random(11)
    hands = [(), *(tuple(sorted(rng.sample(range(2 * DECK_SIZE), rng.randint(1, 9)))) for _ in range(500))]
    for rest in hands:
        assert UNITS["D"].ways(game, 0, 1, rest) == discards_by_value(1, rest), rest
    jokers = [c for c in range(2 * DECK_SIZE) if card(c).is_joker]
    assert len(UNITS["D"].ways(game, 0, 1, tuple(jokers))) == 1  # equal cards count once


def test_a_character_is_of_every_suit_one_of_its_cards_has() -> None:
    """A character of two cards of two suits (a summoned one) causes the actions of both."""
    kind = compiled(EDITION)[formats(EDITION)[-1]].characters[0]
    cards = [DECK.index(Card.parse(text)) for text in ("♠J", "♡5")]
    unit = Unit(1, kind, cards, 0, True, True, 1)
    fits = {suit.value: causes(CausedBy(suit=suit), unit) for suit in Suit}
    assert fits == {"♠": True, "♡": True, "♢": False, "♣": False}
    assert causes(CausedBy(type=kind.type, kind=kind.id), unit)
    assert not causes(CausedBy(kind=kind.id + "?"), unit)
