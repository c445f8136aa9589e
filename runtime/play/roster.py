"""The agents by name, as `simulate --agents` and `play --opponent` take them: `random`,
`first`, `greedy`, `search` or `search:N` (N iterations per decision)."""

from __future__ import annotations

from blackpoker.runtime.play.agents import Agent, FirstLegalAgent, RandomAgent
from blackpoker.runtime.play.greedy import GreedyAgent
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
RECORDED |= {"greedy": ("seed",), BUDGETED: ("budget", "seed")}


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


def make_agent(name: str, rules: RuleSet | None, seed: int, seconds: float | None = None) -> Agent:
    """A named agent; the greedy and search ones read the (public) rule set, so they need
    `rules`. `seconds` caps the time a search takes over a decision."""
    kind, _, budget = agent_name(name).partition(":")
    if kind == "random":
        return RandomAgent(seed)
    if kind == "first":
        return FirstLegalAgent()
    if rules is None:
        raise ValueError(f"the {kind} agent needs the rule set")
    if kind == "greedy":
        return GreedyAgent(rules, seed)
    return SearchAgent(rules, seed, int(budget), seconds=seconds)


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
