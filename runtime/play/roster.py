"""The agents by name, as `simulate --agents` and `play --opponent` take them: `random`,
`first`, `greedy`, `search` or `search:N` (N iterations per decision)."""

from __future__ import annotations

from blackpoker.runtime.play.agents import Agent, FirstLegalAgent, RandomAgent
from blackpoker.runtime.play.greedy import GreedyAgent
from blackpoker.runtime.play.search import DEFAULT_BUDGET, SearchAgent
from blackpoker.runtime.rules.model import RuleSet

AGENTS = ("random", "first", "greedy", "search")  # `search` may carry a budget: search:400
BUDGETED = "search"
AGENT_CHOICES = f"{', '.join(AGENTS)}, {BUDGETED}:N"  # as help and errors list them


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
