"""The benchmarks' machine-readable results, which `python benchmarks` compares with the goals
(benchmarks/goals.yaml): a script given `--results FILE` appends one JSON line per figure,

    {"metric": "startup.version_ratio", "median": 2.48, "rounds": 7, "unit": "x"}

or, for a figure it could not take, `{"metric": ..., "missing": "why"}`. A line may add a
`note` (what was played, an interval). Each script declares the metrics it can write in a
module-level `METRICS = {metric: unit}` literal, which the collector and the tests read
without running the script; writing an undeclared metric is a programming error.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def add_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--results", type=Path, metavar="FILE", help="append the goals' figures to FILE as JSON lines"
    )


def _append(path: Path, declared: Mapping[str, str], line: dict[str, Any]) -> None:
    if line["metric"] not in declared:
        raise ValueError(f"{line['metric']!r} is not among the script's METRICS")
    with path.open("a", encoding="utf-8") as file:
        file.write(json.dumps(line, ensure_ascii=False) + "\n")


def write(
    path: Path | None, declared: Mapping[str, str], metric: str, median: float, rounds: int, note: str = ""
) -> None:
    """Append a measured figure (nothing without `--results`)."""
    if path is not None:
        line = {"metric": metric, "median": median, "rounds": rounds, "unit": declared.get(metric)}
        _append(path, declared, {**line, **({"note": note} if note else {})})


def missing(path: Path | None, declared: Mapping[str, str], metric: str, why: str) -> None:
    """Append why a figure was not taken (nothing without `--results`)."""
    if path is not None:
        _append(path, declared, {"metric": metric, "missing": why})


def variant(build: str) -> str:
    """The metrics' name for an engine build (`engine_build()`): pure or compiled."""
    return "pure" if build == "pure Python" else "compiled"
