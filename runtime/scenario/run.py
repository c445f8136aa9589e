"""Run a loaded scenario: play its commands through the resolver, check each checkpoint and
the final `expect`, and report every failure at its line."""

from __future__ import annotations

from dataclasses import dataclass, field

from blackpoker.compiler.load import PathKey
from blackpoker.runtime.play.resolve import AmbiguousCommand, IllegalCommand, resolve_command
from blackpoker.runtime.scenario.build import build
from blackpoker.runtime.scenario.expect import NOTHING, checks_nothing, compare, event_texts
from blackpoker.runtime.scenario.scenario import REFUSED, Scenario, at


@dataclass
class Outcome:
    name: str
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def run(scenario: Scenario) -> Outcome:
    outcome = Outcome(scenario.doc.data["name"])
    doc = scenario.doc
    # Checked here, not at load: a position loaded to be studied (not run) needs no outcome.
    if checks_nothing(doc.data["expect"]):
        outcome.failures.append(
            f"{doc.locate(('expect',))}: expect: checks nothing; name at least one outcome"
        )
        return outcome
    if REFUSED in doc.data["expect"]:
        _check_refused(scenario, outcome)
        return outcome
    game = build(scenario)
    told = 0  # the events an earlier checkpoint has seen

    def check(where: PathKey) -> None:
        nonlocal told
        expect = at(doc.data, where)
        if checks_nothing(expect):
            outcome.failures.append(f"{doc.locate(where)}: {NOTHING}")
        events = event_texts(game, told)
        told = len(game.events or ())
        failures = compare(expect, game, events)
        if where != ("expect",):  # a checkpoint's failures say where it is
            failures = [f"{doc.locate(where)}: {line}" for line in failures]
        outcome.failures.extend(failures)

    checkpoints = list(scenario.checkpoints)
    for done, step in enumerate(scenario.commands):
        while checkpoints and checkpoints[0][0] == done:
            check(checkpoints.pop(0)[1])
        where, text, refused = str(doc.locate(step.where)), step.text, step.refused
        try:
            option = resolve_command(game, step.command, text)
        except IllegalCommand as error:
            if refused is None:
                outcome.failures.append(f"{where}: '{text}' was refused: {error.reason}")
                return outcome
            if refused not in error.reason:
                outcome.failures.append(
                    f"{where}: '{text}' was refused with '{error.reason}', expected '{refused}'"
                )
            continue
        except AmbiguousCommand as error:
            outcome.failures.append(f"{where}: {error.diagnostics[0].message}")
            return outcome
        if refused is not None:
            outcome.failures.append(f"{where}: '{text}' was accepted, expected a refusal ('{refused}')")
            return outcome
        try:
            game.apply(option)
        except Exception as error:  # an engine failure is this scenario's failure, at its command
            outcome.failures.append(
                f"{where}: the engine failed on '{text}': {type(error).__name__}: {error}"
            )
            return outcome
    for _, rest in checkpoints:
        check(rest)
    check(("expect",))
    return outcome


def _check_refused(scenario: Scenario, outcome: Outcome) -> None:
    wanted = scenario.doc.data["expect"][REFUSED]
    where = scenario.doc.locate(("expect", REFUSED))
    if not scenario.refusals:
        outcome.failures.append(f"{where}: the set-up was accepted, expected a refusal ('{wanted}')")
    elif not any(wanted in reason for reason in scenario.refusals):
        reasons = "; ".join(scenario.refusals)
        outcome.failures.append(f"{where}: the set-up was refused with '{reasons}', expected '{wanted}'")
