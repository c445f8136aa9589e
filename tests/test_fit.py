"""`blackpoker fit` and the weights file: a fit to one rule set is written with that rule set's
digest and the features' names, played by `--agents search:N@FILE`, and refused for other
rules, other features or a broken file, each fault at its place; `simulate --fit` fits each
side first and says so (docs/simulate.md#fitting-the-value-to-a-rule-set)."""

from __future__ import annotations

import dataclasses
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from blackpoker.cli.main import main
from blackpoker.cli.seats import seats
from blackpoker.runtime.play.features import NAMES, WEIGHTS
from blackpoker.runtime.play.fitting import FEWEST, Fitted, fit_rules
from blackpoker.runtime.play.roster import Seat, make_agent, run_agent_name
from blackpoker.runtime.play.search import SearchAgent
from blackpoker.runtime.play.selfplay import seated_agents
from blackpoker.runtime.play.weights_file import WeightsError, read_weights, weights_text
from blackpoker.runtime.serve.limits import Limits, served_agent
from click.testing import CliRunner, Result
from editions_support import EDITIONS, compiled, formats

EDITION = EDITIONS[0]
SMALLEST, OTHER = formats(EDITION)[:2]
RULES = compiled(EDITION)[SMALLEST]
LOCATED = re.compile(r"^\S+:\d+:\d+: ", re.M)


@cache
def _fitted(format_id: str) -> Fitted:
    """The fit of FEWEST games of a format, as the command makes it (the same for a seed)."""
    return fit_rules(compiled(EDITION)[format_id], FEWEST)


def _invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def weights(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    """A fit of the smallest format, written by the command."""
    out = tmp_path_factory.mktemp("fit") / "w.json"
    result = _invoke("fit", "--edition", EDITION, "--format", SMALLEST, "-n", FEWEST, "--out", out)
    return out, result


def test_fit_writes_the_weights_with_the_rules_digest_and_the_feature_names(
    weights: tuple[Path, Result],
) -> None:
    out, result = weights
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["rules"] == RULES.digest and (data["edition"], data["format"]) == (EDITION, SMALLEST)
    assert list(data["weights"]) == list(NAMES)
    # the same games fitted again give the same weights: the fit is seeded
    again = _fitted(SMALLEST)
    assert read_weights(out, RULES) == tuple(round(w, 4) for w in again.weights)
    assert read_weights(out, RULES) != WEIGHTS
    # the report: held-out log-loss and accuracy beside the built-in weights', on the same positions
    assert f"held-out log-loss {again.loss:.4f} (built-in weights: {again.default_loss:.4f})" in result.output
    assert f"winner foreseen {again.accuracy:.1%} ({again.default_accuracy:.1%})" in result.output
    assert data["held_out"]["positions"] == again.measured_on > 0


def test_fit_refuses_an_existing_out_file_and_plays_no_game(tmp_path: Path) -> None:
    out = tmp_path / "w.json"
    out.write_text("mine", encoding="utf-8")
    result = _invoke("fit", "--edition", EDITION, "--format", SMALLEST, "-n", FEWEST, "--out", out)
    assert result.exit_code == 1
    assert f"{out}:1:1: --out: the file exists" in result.output and "no game played" in result.output
    assert out.read_text(encoding="utf-8") == "mine"
    missing = _invoke("fit", "--edition", EDITION, "--out", tmp_path / "nowhere" / "w.json")
    assert missing.exit_code == 1 and "no such folder" in missing.output


def test_fit_plays_a_fit_only_where_it_foresees_better_than_the_built_in_weights() -> None:
    better, worse = (dataclasses.replace(_fitted(SMALLEST), loss=x, default_loss=0.5) for x in (0.4, 0.6))
    for fitted, weights in ((better, better.weights), (worse, WEIGHTS)):
        chairs = seats(("search:4@fit", "greedy"), RULES, 1.0, fitted)
        assert chairs == (Seat(weights, 1.0), Seat(None, 1.0))


def test_a_search_agent_plays_with_the_weights_of_its_file(weights: tuple[Path, Result]) -> None:
    out, _ = weights
    name = run_agent_name(f"search:4@{out}")
    seat = Seat(read_weights(out, RULES))
    agents = seated_agents((name, "greedy"), RULES, 1, (seat, Seat()))
    assert isinstance(agents[0], SearchAgent) and agents[0].weights == read_weights(out, RULES)
    with pytest.raises(ValueError, match="not read"):  # a name with a file and no weights read
        make_agent(name, RULES, 1)
    result = _invoke(
        "simulate",
        "--edition",
        EDITION,
        "--format",
        SMALLEST,
        "-n",
        "2",
        "--agents",
        f"search:4@{out},greedy",
    )
    assert result.exit_code == 0, result.output
    assert f"p1 search:4@{out} vs p2 greedy; 2 finished" in result.output


def test_a_weights_file_for_other_rules_is_refused(weights: tuple[Path, Result]) -> None:
    out, _ = weights
    result = _invoke(
        "simulate", "--edition", EDITION, "--format", OTHER, "-n", "2", "--agents", f"search:4@{out},greedy"
    )
    assert result.exit_code == 1
    line = next(i + 1 for i, t in enumerate(out.read_text(encoding="utf-8").splitlines()) if '"rules"' in t)
    assert f"{out}:{line}:12: the weights were fitted to other rules ({EDITION} {SMALLEST}" in result.output
    assert f"not to {EDITION} {OTHER}" in result.output and "no game played" in result.output


def _file(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "w.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2), encoding="utf-8")
    return path


def _good() -> dict[str, Any]:
    return json.loads(weights_text(RULES, _fitted(SMALLEST), 1))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["weights"].update(extra=1.0), "unknown feature 'extra'"),
        (lambda d: d["weights"].pop("life"), "no weight for life"),
        (lambda d: d["weights"].update(life="much"), "life: expected a number"),
        (lambda d: d.update(kind="deck"), 'kind: expected "value-weights"'),
        (lambda d: d.update(colour="red"), "unknown field 'colour'"),
        (lambda d: d.update(weights=[1, 2]), "weights: expected an object"),
    ],
)
def test_a_bad_weights_file_is_refused_at_its_place(tmp_path: Path, change: Any, message: str) -> None:
    data = _good()
    change(data)
    path = _file(tmp_path, data)
    with pytest.raises(WeightsError) as error:
        read_weights(path, RULES)
    rendered = str(error.value)
    assert message in rendered and LOCATED.match(rendered), rendered


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "file is empty"),
        ('{"kind": [}', "syntax error"),
        ("\x00", "U+0000"),
        ("[1, 2]", "JSON object"),
    ],
)
def test_a_weights_file_that_is_not_one_is_refused(tmp_path: Path, text: str, message: str) -> None:
    path = _file(tmp_path, text)
    result = _invoke(
        "simulate", "--edition", EDITION, "--format", SMALLEST, "-n", "1", "--agents", f"search@{path},greedy"
    )
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert message in result.output and LOCATED.match(result.output), result.output


def test_a_weight_written_with_an_exponent_is_read(tmp_path: Path) -> None:
    data = _good()
    text = json.dumps(data).replace(f'"life": {data["weights"]["life"]}', '"life": 1e-05')
    assert read_weights(_file(tmp_path, text), RULES)[0] == 1e-05


def test_a_missing_weights_file_is_reported_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "none.json"
    result = _invoke(
        "simulate", "--edition", EDITION, "-n", "1", "--agents", f"search@{path},search:2@{path}"
    )
    assert result.exit_code == 1
    assert result.output.count(f"{path}:1:1: ") == 1  # one file, named by both, reported once


def test_only_the_search_agent_takes_weights_and_the_server_takes_neither_file_nor_program() -> None:
    with pytest.raises(ValueError, match="only the search agent"):
        run_agent_name("greedy@w.json")
    for name in ("search:4@w.json", "cmd:python3 agent.py"):
        with pytest.raises(ValueError):
            served_agent(name, Limits())


def test_simulate_fit_fits_each_side_first_and_says_so() -> None:
    # the smallest formats of two editions: the cheapest pair of rule sets to fit
    sides = [(EDITION, SMALLEST), (EDITIONS[1], formats(EDITIONS[1])[0])]
    compare = [f"{edition}:{format_id}" for edition, format_id in sides]
    args = ("simulate", "--compare", *compare, "-n", "2", "--agents", "search:4,greedy", "--fit")
    data = json.loads(_invoke(*args, "--fit-games", FEWEST, "--json").stdout)
    assert [(f["edition"], f["format"], f["games"]) for f in data["fit"]] == [(*s, FEWEST) for s in sides]
    result = _invoke(*args, "--fit-games", FEWEST)
    assert result.exit_code == 0, result.output
    for label, (edition, format_id), fit in zip("AB", sides, data["fit"], strict=True):
        assert (
            f"{label}: the search agent's value fitted to {edition} {format_id} on {FEWEST} games: "
            f"held-out log-loss {fit['log_loss']:.4f} (built-in weights: {fit['default_log_loss']:.4f})"
            in result.output
        )
        # the fit is played only where it foresees the held-out games better than the built-in weights
        assert fit["played"] == (fit["log_loss"] < fit["default_log_loss"])
        played = "played with the fitted weights" if fit["played"] else "foresee better: played with them"
        line = next(t for t in result.output.splitlines() if t.startswith(f"{label}: the search agent's"))
        assert line.endswith(played)
    assert "p1 search:4@fit vs p2 greedy" in result.output


def test_fit_needs_a_search_agent_and_no_weights_file() -> None:
    plain = _invoke("simulate", "--edition", EDITION, "-n", "1", "--agents", "greedy,greedy", "--fit")
    assert plain.exit_code == 1 and "--fit: needs a search agent" in plain.output
    filed = _invoke("simulate", "--edition", EDITION, "-n", "1", "--agents", "search@w.json,greedy", "--fit")
    assert filed.exit_code == 1 and "--fit: not with a weights file" in filed.output
