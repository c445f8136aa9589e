"""The weights file `blackpoker fit` writes and `--agents search:N@FILE` reads: the search
agent's value weights fitted to one rule set, named by that rule set's digest and by the
features they weigh, so that a file made for other rules or other features is refused instead
of played (docs/simulate.md#the-weights-file).

It is JSON, read with the compiler's loader (compiler/load.py: a JSON file is YAML too), so
every fault of the file is reported at its line and column.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from blackpoker.compiler.load import Document, load_file
from blackpoker.compiler.paths import display
from blackpoker.runtime.play.features import NAMES
from blackpoker.runtime.play.fitting import Fitted
from blackpoker.runtime.rules.diagnostics import BlackPokerError, Diagnostic
from blackpoker.runtime.rules.model import RuleSet

KIND = "value-weights"
DIGITS = 4  # a weight's decimals: enough for the value, and never written with an exponent
FIELDS = {"kind", "edition", "format", "rules", "games", "seed", "held_out", "weights"}
# a JSON number with an exponent, which the YAML loader leaves a string (1e-05)
_EXPONENT = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?[eE][+-]?\d+")


class WeightsError(BlackPokerError):
    """A weights file that cannot be read, or that is not for the rules being played."""


def weights_text(rules: RuleSet, fitted: Fitted, seed: int) -> str:
    """The file's text: what it is for, how it was fitted and measured, and the weights by name."""
    data: dict[str, Any] = {
        "kind": KIND,
        "edition": rules.edition.id,
        "format": rules.format.id,
        "rules": rules.digest,
        "games": fitted.games,
        "seed": seed,
        "held_out": {
            "positions": fitted.measured_on,
            "log_loss": round(fitted.loss, DIGITS),
            "accuracy": round(fitted.accuracy, DIGITS),
            "default_log_loss": round(fitted.default_loss, DIGITS),
            "default_accuracy": round(fitted.default_accuracy, DIGITS),
        },
        "weights": {name: round(w, DIGITS) for name, w in zip(NAMES, fitted.weights, strict=True)},
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def read_weights(path: Path, rules: RuleSet) -> tuple[float, ...]:
    """The weights a file holds for `rules`, by features.NAMES; WeightsError lists every fault
    at its place: the file unreadable or not JSON, a field missing or of the wrong type, a
    feature unknown or missing, or the file made for another rule set."""
    shown = display(path)
    doc, problems = load_file(path, shown)
    if doc is None or problems:
        raise WeightsError(problems)
    data = doc.data
    if not isinstance(data, dict):
        raise WeightsError([doc.at((), 'a weights file is a JSON object ({"kind": "value-weights", …})')])
    found = [
        doc.at((key,), f"unknown field '{key}' (a weights file has: {', '.join(sorted(FIELDS))})", key=True)
        for key in data
        if key not in FIELDS
    ]
    if data.get("kind") != KIND:
        found.append(doc.at(("kind",), f'kind: expected "{KIND}" (a file `blackpoker fit` writes)'))
    weights = _weights(doc, found)
    if not found and data.get("rules") != rules.digest:
        made = f"{data.get('edition')} {data.get('format')}"
        found.append(
            doc.at(
                ("rules",),
                f"the weights were fitted to other rules ({made}, digest {str(data.get('rules'))[:12]}…), "
                f"not to {rules.edition.id} {rules.format.id} (digest {rules.digest[:12]}…): "
                "fit them to these rules with `blackpoker fit`",
            )
        )
    if found:
        raise WeightsError(found)
    return weights


def _weights(doc: Document, found: list[Diagnostic]) -> tuple[float, ...]:
    """The `weights` object read by NAMES; each fault added to `found`."""
    given = doc.data.get("weights")
    if not isinstance(given, dict):
        found.append(doc.at(("weights",), "weights: expected an object of feature names and numbers"))
        return ()
    for name in given:
        if name not in NAMES:
            found.append(
                doc.at(
                    ("weights", name),
                    f"unknown feature '{name}': these weights are for other features than the search "
                    f"agent's ({', '.join(NAMES)}); fit them again with `blackpoker fit`",
                    key=True,
                )
            )
    missing = [n for n in NAMES if n not in given]
    if missing:
        found.append(
            doc.at(("weights",), f"weights: no weight for {', '.join(missing)}; fit them again", key=True)
        )
    values = []
    for name in NAMES:
        value = _number(given.get(name))
        if value is None and name in given:
            found.append(doc.at(("weights", name), f"weights: {name}: expected a number"))
        values.append(value or 0.0)
    return tuple(values)


def _number(value: object) -> float | None:
    """A JSON number as a float (one with an exponent comes as text from the loader)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if float(value) == float(value) and abs(float(value)) != float("inf") else None
    if isinstance(value, str) and _EXPONENT.fullmatch(value):
        return float(value)
    return None
