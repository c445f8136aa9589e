"""What `simulate` gives its agents beside their names: a search agent's weights, read from
the file its name gives (`search:32@w.json`) or fitted to the side's rules (`--fit`), and an
outside program's time per decision (roster.Seat)."""

from __future__ import annotations

from pathlib import Path

from blackpoker.cli.report import option_error, report
from blackpoker.runtime.play.features import WEIGHTS
from blackpoker.runtime.play.fitting import Fitted
from blackpoker.runtime.play.roster import BUDGETED, OUTSIDE, WEIGHED, Seat, weights_file
from blackpoker.runtime.rules.diagnostics import Diagnostic
from blackpoker.runtime.rules.model import RuleSet

FIT_GAMES = 60  # --fit's games per side: a quick fit, a few seconds of the smallest formats
FITTED = "fit"  # what a search agent's name shows after `@` when --fit gave it its weights


def fitted_names(agents: tuple[str, str]) -> tuple[str, str]:
    """The agents' names once --fit gives the search agents their weights: `search:32@fit`."""
    if not searches(agents):
        option_error("--fit", "needs a search agent in --agents (search:N): it fits that agent's value")
    if any(weights_file(n) for n in agents):
        option_error("--fit", "not with a weights file (search:N@FILE): --fit fits the weights itself")
    first, second = (f"{n}{WEIGHED}{FITTED}" if searched(n) else n for n in agents)
    return first, second


def seats(
    agents: tuple[str, str], rules: RuleSet, timeout: float, fitted: Fitted | None = None
) -> tuple[Seat, Seat]:
    """Each agent's seat by `rules`: the fitted weights for a search agent under --fit, else
    those of the file its name gives, checked against `rules`. Every fault of the files is
    reported at once (exit 1)."""
    problems: list[Diagnostic] = []
    made = []
    for name in agents:
        weights = None
        if fitted is not None and searched(name):
            weights = fitted.weights if kept(fitted) else WEIGHTS
        elif (path := weights_file(name)) is not None:
            # the loader (yaml), only when a file is named: a warm run loads no parser
            from blackpoker.runtime.play.weights_file import WeightsError, read_weights

            try:
                weights = read_weights(Path(path), rules)
            except WeightsError as error:
                problems += [d for d in error.diagnostics if d not in problems]  # one file, both seats
        made.append(Seat(weights, timeout))
    if problems:
        report(problems, "no game played")
    return made[0], made[1]


def kept(fitted: Fitted) -> bool:
    """Whether --fit plays a fit: only one that foresees the held-out games better (a lower
    log-loss) than the built-in weights; a short fit often does not, and plays worse."""
    return fitted.loss < fitted.default_loss


def fit_lines(labels: list[str], fits: list[tuple[RuleSet, Fitted] | None]) -> list[str]:
    """The report's lines on --fit: each side's fit and how it foresees held-out games."""
    return [
        f"{label}the search agent's value fitted to {fit[0].edition.id} {fit[0].format.id} on "
        f"{fit[1].games} games: held-out log-loss {fit[1].loss:.4f} (built-in weights: "
        f"{fit[1].default_loss:.4f}), winner foreseen {fit[1].accuracy:.1%} ({fit[1].default_accuracy:.1%}); "
        + (
            "played with the fitted weights"
            if kept(fit[1])
            else "the built-in weights foresee better: played with them"
        )
        for label, fit in zip(labels, fits, strict=True)
        if fit is not None
    ]


def fit_json(fits: list[tuple[RuleSet, Fitted] | None]) -> list[dict[str, object] | None]:
    """Each side's fit in the JSON report (None: no search agent played there)."""
    return [
        None
        if fit is None
        else {
            "edition": fit[0].edition.id,
            "format": fit[0].format.id,
            "games": fit[1].games,
            "log_loss": fit[1].loss,
            "accuracy": fit[1].accuracy,
            "default_log_loss": fit[1].default_loss,
            "default_accuracy": fit[1].default_accuracy,
            "weights": list(fit[1].weights),
            "played": kept(fit[1]),  # the fitted weights played, else the built-in ones
        }
        for fit in fits
    ]


def searches(agents: tuple[str, str]) -> bool:
    """Whether a search agent plays in the pairing."""
    return any(searched(n) for n in agents)


def runs_programs(agents: tuple[str, str]) -> bool:
    return any(n.startswith(f"{OUTSIDE}:") for n in agents)


def searched(name: str) -> bool:
    return name.split(":")[0].split(WEIGHED)[0] == BUDGETED
