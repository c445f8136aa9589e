"""The performance goals (benchmarks/goals.yaml) against the scripts' results (results.py):
each goal met, not met, or not measured and why, as one table.

The goals file is checked as the compiler checks its inputs, every problem at once and located:
its schema (goals.schema.json), unique ids, and each goal's metric declared by its script's
METRICS, which is read from the script's text without running it.
"""

from __future__ import annotations

import ast
import json
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from blackpoker.compiler.load import Document, load_file
from blackpoker.runtime.rules.diagnostics import Diagnostic
from jsonschema import Draft202012Validator

HERE = Path(__file__).resolve().parent
GOALS = HERE / "goals.yaml"
SCHEMA = HERE / "goals.schema.json"
COMPARE: dict[str, Callable[[float, float], bool]] = {">=": operator.ge, "<=": operator.le}
SHOWN = {">=": "≥", "<=": "≤"}


class GoalsError(Exception):
    """The goals file's problems, each located."""

    def __init__(self, problems: Sequence[Diagnostic]) -> None:
        super().__init__("\n".join(p.render() for p in problems))


@dataclass(frozen=True, slots=True)
class Script:
    name: str  # bench_NAME.py
    args: tuple[str, ...]
    quick: tuple[str, ...]
    metrics: Mapping[str, str]  # declared: metric → unit

    @property
    def path(self) -> Path:
        return HERE / f"bench_{self.name}.py"


@dataclass(frozen=True, slots=True)
class Goal:
    id: str
    what: str
    source: str
    compare: str
    threshold: float
    unit: str
    script: str | None  # None: no script measures it (`unmeasured` says why)
    metric: str | None
    unmeasured: str | None

    def text(self) -> str:
        limit = f"{int(self.threshold):,}" if self.threshold.is_integer() else f"{self.threshold:g}"
        return f"{self.what} {SHOWN[self.compare]} {limit} {self.unit}".rstrip()

    def met(self, value: float) -> bool:
        return COMPARE[self.compare](value, self.threshold)


@dataclass(frozen=True, slots=True)
class Goals:
    scripts: Mapping[str, Script]
    goals: tuple[Goal, ...]


@dataclass(frozen=True, slots=True)
class Row:
    goal: Goal
    verdict: str  # met, NOT MET, not measured: why
    median: float | None = None
    rounds: int | None = None
    note: str = ""


def declared_metrics(script: Path) -> dict[str, str]:
    """The script's `METRICS = {metric: unit}` literal, read from its text; {} without one."""
    for node in ast.parse(script.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "METRICS" for t in node.targets
        ):
            found = ast.literal_eval(node.value)
            return {str(metric): str(unit) for metric, unit in found.items()}
    return {}


def script_names() -> list[str]:
    return sorted(path.stem.removeprefix("bench_") for path in HERE.glob("bench_*.py"))


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


def load(path: Path = GOALS) -> Goals:
    """The goals and how to run the scripts; GoalsError with every problem found."""
    doc, problems = load_file(path)
    if doc is None:
        raise GoalsError(problems)
    problems += [
        doc.at(tuple(error.absolute_path), f"{_field(error.absolute_path)}{error.message}")
        for error in _validator().iter_errors(doc.data)
    ]
    if problems:
        raise GoalsError(problems)
    scripts = _scripts(doc, problems)
    goals = tuple(
        _goal(doc, index, entry, scripts, problems) for index, entry in enumerate(doc.data["goals"])
    )
    seen: set[str] = set()
    for index, goal in enumerate(goals):
        if goal.id in seen:
            problems.append(doc.at(("goals", index, "id"), f"id: '{goal.id}' is used twice"))
        seen.add(goal.id)
    if problems:
        raise GoalsError(problems)
    return Goals(scripts, goals)


def _field(path: Sequence[str | int]) -> str:
    return f"{'.'.join(map(str, path))}: " if path else ""


def _scripts(doc: Document, problems: list[Diagnostic]) -> dict[str, Script]:
    found = {}
    for name, entry in doc.data["scripts"].items():
        path = HERE / f"bench_{name}.py"
        if not path.is_file():
            problems.append(doc.at(("scripts", name), f"scripts: no benchmarks/bench_{name}.py", key=True))
            continue
        args, quick = tuple(entry.get("args", ())), tuple(entry["quick"])
        found[name] = Script(name, args, quick, declared_metrics(path))
    for name in sorted(set(script_names()) - set(doc.data["scripts"])):
        problems.append(doc.at(("scripts",), f"scripts: bench_{name}.py has no entry (its quick arguments)"))
    return found


def _goal(
    doc: Document,
    index: int,
    entry: dict[str, Any],
    scripts: Mapping[str, Script],
    problems: list[Diagnostic],
) -> Goal:
    where = ("goals", index)
    script, metric, unmeasured = entry.get("script"), entry.get("metric"), entry.get("unmeasured")
    unit = entry.get("unit", "")
    if unmeasured is not None:
        if script is not None or metric is not None:
            problems.append(doc.at(where, "a goal that is unmeasured names no script or metric"))
    elif script is None or metric is None:
        problems.append(doc.at(where, "a goal needs a script and its metric, or `unmeasured` with why"))
    elif script not in scripts:
        problems.append(doc.at((*where, "script"), f"script: '{script}' is not among scripts:"))
    elif metric not in scripts[script].metrics:
        declared = ", ".join(scripts[script].metrics) or "none"
        problems.append(
            doc.at(
                (*where, "metric"),
                f"metric: bench_{script}.py does not write '{metric}' (its METRICS: {declared})",
            )
        )
    else:
        unit = unit or scripts[script].metrics[metric]
    return Goal(
        entry["id"],
        entry["what"],
        entry["source"],
        entry["compare"],
        float(entry["threshold"]),
        unit,
        script,
        metric,
        unmeasured,
    )


def read_results(path: Path) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """The result lines by metric (a later line of a metric replaces an earlier one), and
    what could not be read."""
    found: dict[str, dict[str, Any]] = {}
    bad = []
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    for number, line in enumerate(text.splitlines(), 1):
        try:
            entry = json.loads(line)
        except ValueError as error:
            bad.append(f"{path.name}:{number}: not a result line ({error})")
            continue
        if _is_result(entry):
            found[entry["metric"]] = entry
        else:
            expected = "a metric with its median and rounds, or why it is missing"
            bad.append(f"{path.name}:{number}: not a result line (expected {expected})")
    return found, bad


def _is_result(entry: Any) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("metric"), str):
        return False
    if "missing" in entry:
        return isinstance(entry["missing"], str)
    median, rounds = entry.get("median"), entry.get("rounds")
    return isinstance(median, int | float) and isinstance(rounds, int) and not isinstance(median, bool)


def rows(
    goals: Sequence[Goal], found: Mapping[str, Mapping[str, Any]], failed: Mapping[str, str]
) -> list[Row]:
    """Each goal against the results found; `failed`: what went wrong with each script that
    failed (or did not run)."""
    return [_row(goal, found, failed) for goal in goals]


def _row(goal: Goal, found: Mapping[str, Mapping[str, Any]], failed: Mapping[str, str]) -> Row:
    if goal.unmeasured is not None or goal.script is None or goal.metric is None:
        return Row(goal, f"not measured: {goal.unmeasured}")
    entry = found.get(goal.metric)
    if entry is None:
        if goal.script in failed:
            return Row(goal, f"not measured: bench_{goal.script}.py {failed[goal.script]}")
        return Row(goal, f"not measured: bench_{goal.script}.py wrote no figure for it")
    if "missing" in entry:
        return Row(goal, f"not measured: {entry['missing']}")
    median, rounds = float(entry["median"]), int(entry["rounds"])
    return Row(goal, "met" if goal.met(median) else "NOT MET", median, rounds, str(entry.get("note", "")))


def figure(value: float) -> str:
    """A figure with about three significant digits, thousands grouped."""
    size = abs(value)
    digits = 0 if size >= 100 else 1 if size >= 10 else 2 if size >= 1 else 3
    return f"{value:,.{digits}f}"


def table(found: Sequence[Row], rerun: Callable[[Goal], str]) -> str:
    """The rows as a Markdown table: the goal, the median and its rounds, met or not, how to rerun."""
    lines = ["| goal | median | rounds | result | rerun |", "| --- | ---: | ---: | --- | --- |"]
    for row in found:
        goal = row.goal
        median = "" if row.median is None else f"{figure(row.median)} {goal.unit}".rstrip()
        if row.note:
            median += f" ({row.note})"
        rounds = "" if row.rounds is None else str(row.rounds)
        command = f"`{rerun(goal)}`" if goal.script else ""
        lines.append(f"| {goal.text()} ({goal.source}) | {median} | {rounds} | {row.verdict} | {command} |")
    return "\n".join(lines)
