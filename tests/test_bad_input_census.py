"""The quick bad-input census: every case clean, every command covered; and the judge can say no."""

from __future__ import annotations

from pathlib import Path

from bad_input_census import ACCEPTED, CLEAN, Case, Run, census, judge, run_case, table


def test_every_quick_census_case_is_clean() -> None:
    outcomes = census(quick=True)
    unclean = [o for o in outcomes if not o.clean]
    assert not unclean, "\n" + table(unclean)
    commands = {o.case.args[0] for o in outcomes}
    assert commands >= {"validate", "compile", "build", "simulate", "scenario", "replay", "play", "import"}
    assert sum(o.verdict == CLEAN for o in outcomes) > sum(o.verdict == ACCEPTED for o in outcomes)


def test_a_run_that_writes_outside_its_output_is_not_clean(tmp_path: Path) -> None:
    args = ("simulate", "-n", "1", "--logs", "logs")
    assert (
        run_case(Case("simulate", "good input", args), tmp_path / "a").verdict
        == "not clean: exit 0 on bad input"
    )
    case = Case("simulate", "writes logs it was not asked for", args, bad=False)
    assert run_case(case, tmp_path / "b").verdict.startswith("not clean: wrote logs")
    allowed = Case("simulate", "writes its logs", args, outputs=("logs",), bad=False)
    assert run_case(allowed, tmp_path / "c").verdict == ACCEPTED


def test_the_judge_refuses_what_the_contract_forbids() -> None:
    case = Case("validate", "a file", ("validate", "in.yaml"))
    assert judge(case, Run(1, "", "in.yaml:3:1: bad\n")) == CLEAN
    assert judge(case, Run(1, "", "in.yaml: is a folder\n")) == CLEAN
    assert judge(case, Run(1, "", "something went wrong\n")).startswith("not clean: no located message")
    assert judge(case, Run(1, "", "Traceback (most recent call last):\n")) == "not clean: traceback printed"
    assert judge(case, Run(2, "", "Error: No such option\n")).startswith("not clean: exit 2")
    assert judge(case, Run(None, "", "")).startswith("not clean: hung")
    assert judge(case, Run(1, "", "in.yaml:1:1: x\n", new=["in.json"])).startswith(
        "not clean: refused but wrote"
    )
    assert judge(case, Run(0, "", "", changed=["in.yaml"])).startswith(
        "not clean: changed or removed in.yaml"
    )
