"""The agents by name, as `simulate --agents` and `play --opponent` take them: `random`,
`first`, `greedy`, `search` or `search:N` (N iterations per decision). A run of `simulate`
also seats a search agent with fitted weights (`search:N@FILE`) and an outside program
(`cmd:PROGRAM`, outside.py); the server and `play` take only the roster's names, so no
request from a browser starts a program."""

from __future__ import annotations

from dataclasses import dataclass

from blackpoker.runtime.play.agents import Agent, FirstLegalAgent, RandomAgent
from blackpoker.runtime.play.features import WEIGHTS
from blackpoker.runtime.play.greedy import GreedyAgent
from blackpoker.runtime.play.outside import DEFAULT_TIMEOUT, CommandAgent, program_words
from blackpoker.runtime.play.search import DEFAULT_BUDGET, SearchAgent
from blackpoker.runtime.rules.diagnostics import did_you_mean
from blackpoker.runtime.rules.model import RuleSet

AGENTS = ("random", "first", "greedy", "search")  # `search` may carry a budget: search:400
BUDGETED = "search"
AGENT_CHOICES = f"{', '.join(AGENTS)}, {BUDGETED}:N"  # as help and errors list them
PERSON = "human"  # the name a person plays under (`play`)
# The names a command log records for its players, with the numbers each carries after ':':
# a seeded agent its seed, the search its budget and seed.
RECORDED = {PERSON: (), FirstLegalAgent.name: (), "random": ("seed",)}
OUTSIDE = CommandAgent.name  # cmd:PROGRAM, an outside program (a log records it as `cmd`)
RECORDED |= {"greedy": ("seed",), BUDGETED: ("budget", "seed"), OUTSIDE: ()}
WEIGHED = "@"  # search:N@FILE, a search agent with the weights of a file `blackpoker fit` wrote
RUN_CHOICES = f"{AGENT_CHOICES}, {BUDGETED}:N@WEIGHTS.json, {OUTSIDE}:PROGRAM"


@dataclass(frozen=True, slots=True)
class Seat:
    """What a run's agent name does not carry itself, for the agent it seats."""

    weights: tuple[float, ...] | None = None  # a search agent's fitted value (None: the built-in)
    timeout: float = DEFAULT_TIMEOUT  # seconds an outside program may take per decision


def agent_name(text: str) -> str:
    """The name an agent is reported by: `search` gets its default budget, so reports show it.
    ValueError says what is wrong with `text`."""
    kind, colon, budget = text.strip().partition(":")
    if kind not in AGENTS:
        raise ValueError(f"unknown agent '{text.strip()}' (known: {AGENT_CHOICES})")
    if kind != BUDGETED:
        if colon:
            raise ValueError(f"the {kind} agent takes no budget: '{text.strip()}'")
        return kind
    if not colon:
        return f"{kind}:{DEFAULT_BUDGET}"
    if not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"the budget of '{text.strip()}' is not a whole number of iterations ≥ 1")
    return f"{kind}:{int(budget)}"


def run_agent_name(text: str) -> str:
    """The name of an agent a run of `simulate` seats, as reports show it: a roster name, a
    search agent with a weights file (`search:32@w.json`) or an outside program
    (`cmd:python3 bot.py`). ValueError says what is wrong with `text`."""
    text = text.strip()
    kind, colon, words = text.partition(":")
    if kind == OUTSIDE and colon:
        program_words(words)
        return f"{OUTSIDE}:{words.strip()}"
    agent, at, weights = text.partition(WEIGHED)
    name = agent_name(agent)
    if not at:
        return name
    if not name.startswith(BUDGETED):
        raise ValueError(f"only the search agent takes a weights file: '{text}'")
    if not weights.strip():
        raise ValueError(f"'{text}' names no weights file after '{WEIGHED}'")
    return f"{name}{WEIGHED}{weights.strip()}"


def weights_file(name: str) -> str | None:
    """The weights file a run's agent name gives a search agent (None: none)."""
    if name.startswith(f"{OUTSIDE}:"):
        return None
    return name.partition(WEIGHED)[2] or None


def make_agent(
    name: str, rules: RuleSet | None, seed: int, seconds: float | None = None, seat: Seat | None = None
) -> Agent:
    """A named agent; the greedy and search ones read the (public) rule set, so they need
    `rules`. `seconds` caps the time a search takes over a decision; `seat` carries a search
    agent's fitted weights (its name says `@`) and an outside program's time per decision."""
    seat = seat or Seat()
    if name.startswith(f"{OUTSIDE}:"):
        return CommandAgent(program_words(name.partition(":")[2]), seat.timeout)
    roster_name, weighed, _ = name.partition(WEIGHED)
    if weighed and seat.weights is None:
        raise ValueError(f"{name}: the weights were not read")
    kind, _, budget = agent_name(roster_name).partition(":")
    if kind == "random":
        return RandomAgent(seed)
    if kind == "first":
        return FirstLegalAgent()
    if rules is None:
        raise ValueError(f"the {kind} agent needs the rule set")
    if kind == "greedy":
        return GreedyAgent(rules, seed)
    return SearchAgent(rules, seed, int(budget), weights=seat.weights or WEIGHTS, seconds=seconds)


def recorded_problem(text: str) -> str | None:
    """Why `text` is not a player's name as a command log records it (None when it is one)."""
    kind, *numbers = text.split(":")
    if kind not in RECORDED:
        known = ", ".join(f"{k}{''.join(f':{n.upper()}' for n in v)}" for k, v in RECORDED.items())
        return f"unknown agent '{text}'{did_you_mean(kind, RECORDED)} (a log records: {known})"
    wanted = RECORDED[kind]
    if len(numbers) != len(wanted) or not all(n.isdigit() for n in numbers):
        form = "".join(f":{n.upper()}" for n in wanted)
        return f"agent '{text}': the {kind} agent is recorded as {kind}{form} (whole numbers)"
    return None
