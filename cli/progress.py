"""The progress bar of the commands that play games (simulate, fit): on stderr, at a terminal
only, and gone once they are played."""

from __future__ import annotations

from blackpoker.runtime.play.fitting import Fitted, fit_rules
from blackpoker.runtime.rules.model import RuleSet
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


def games_progress() -> Progress:
    """A bar a task: its description, the games played of all and the time left."""
    errors = Console(stderr=True)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeRemainingColumn(),
    )
    return Progress(*columns, console=errors, transient=True, disable=not errors.is_terminal)


def fit_shown(progress: Progress, description: str, rules: RuleSet, games: int, seed: int) -> Fitted:
    """The search agent's value fitted to `rules` on `games` seeded games, shown as a task."""
    task = progress.add_task(description, total=games)
    return fit_rules(rules, games, seed, lambda done: progress.update(task, completed=done))
