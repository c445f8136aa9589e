"""Helpers shared by the engine tests: editions and actions found by what their data says,
scenario files played step by step, and a position's hidden cards scrambled."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path

from blackpoker.compiler.environment import Environment
from blackpoker.compiler.parse import EditionSource
from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.state import GameState
from blackpoker.runtime.play.agents import decide
from blackpoker.runtime.play.loop import play as play_agents
from blackpoker.runtime.play.resolve import resolve_command
from blackpoker.runtime.play.selfplay import random_agents
from blackpoker.runtime.rules.model import Action, RuleSet
from blackpoker.runtime.rules.program import Step, walk_steps, word
from blackpoker.runtime.scenario.build import build
from blackpoker.runtime.scenario.load import load
from blackpoker.runtime.scenario.scenario import Scenario, ScenarioCommand

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


@cache
def environment() -> Environment:
    return Environment()


def reference_edition(wanted: Callable[[EditionSource], bool] = lambda _: True) -> str:
    """The newest built-in edition whose data has what a test needs."""
    env = environment()
    found = next((e for e in env.builtin_editions() if wanted(env.edition(e))), None)
    assert found is not None, "no built-in edition has what this test needs"
    return found


def format_ids(edition: str) -> list[str]:
    """The edition's formats, smallest first."""
    return [f.id for f in environment().edition(edition).edition.formats]


def compiled(edition: str, format_id: str) -> RuleSet:
    return environment().compile(edition, format_id)


def ops(action: Action) -> set[str]:
    """The primitives an action's program uses, at any depth."""
    return {word(node) for _, node in walk_steps(action.steps) if isinstance(node, Step)}


def actions_using(actions: Iterable[Action], *primitives: str) -> list[Action]:
    return [a for a in actions if set(primitives) <= ops(a)]


def shipped_scenario(path: Path) -> Scenario:
    loaded, problems = load(path, environment())
    assert loaded is not None, [p.render() for p in problems]
    return loaded


def scenario(stem: str) -> Scenario:
    """A shipped scenario, by its file name in whichever suite holds it."""
    (path,) = SCENARIOS.glob(f"*/{stem}.yaml")
    return shipped_scenario(path)


def commands(loaded: Scenario) -> list[ScenarioCommand]:
    """The commands the scenario expects accepted, in order (its expected refusals left out)."""
    return [step for step in loaded.commands if step.refused is None]


def play(game: Game, *steps: ScenarioCommand) -> None:
    """Apply each command, which must name a legal option (else the resolver raises why)."""
    for step in steps:
        game.apply(resolve_command(game, step.command, step.text))


def position(stem: str) -> tuple[Game, list[ScenarioCommand]]:
    """A shipped scenario's position, built, and its commands still to play."""
    loaded = scenario(stem)
    return build(loaded), commands(loaded)


def random_positions(rules: RuleSet, seeds: int, cap: int) -> Iterator[Game]:
    """The positions of random games (seeds 0 … seeds-1), each before its decision, up to
    `cap` decisions a game; the game moves on once the caller is done with it."""
    for seed in range(seeds):
        game = Game.new(rules, seed)
        agents = random_agents(seed)
        while not game.over and game.decisions < cap:
            yield game
            game.apply(decide(game, agents))


def play_random(rules: RuleSet, seed: int, *, check: bool = True) -> Game:
    """One game between two seeded random agents; the game and agents derive from `seed`."""
    game = Game.new(rules, seed, check=check)
    play_agents(game, random_agents(seed))
    return game


def scramble(state: GameState, me: int, rng: random.Random) -> GameState:
    """A twin that differs only in what `me` may not see: the opponent's hand, life, face-down
    cards and graveyard below the top are permuted among themselves, and `me`'s life too."""
    twin = state.copy()
    them = twin.players[1 - me]
    downs = [u for u in them.field if not u.face_up]
    slots = [*them.hand, *them.life, *them.graveyard[:-1], *(u.cards[0] for u in downs)]
    rng.shuffle(slots)
    cut = [len(them.hand), len(them.life), max(len(them.graveyard) - 1, 0)]
    them.hand, rest = slots[: cut[0]], slots[cut[0] :]
    them.life, rest = rest[: cut[1]], rest[cut[1] :]
    them.graveyard[: cut[2]], rest = rest[: cut[2]], rest[cut[2] :]
    for unit, cid in zip(downs, rest, strict=True):
        unit.cards = [cid]
    rng.shuffle(twin.players[me].life)
    return twin
