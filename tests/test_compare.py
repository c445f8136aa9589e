"""`simulate --compare A B`: the statistics of every difference (Newcombe and Welch intervals,
their p-values, Holm's correction), and the reports (terminal, JSON, HTML) that show them with
the rule change compared."""

from __future__ import annotations

import json
import math
import re
import statistics
from pathlib import Path
from typing import Any

import pytest
import yaml
from blackpoker.cli.diff import text_lines
from blackpoker.cli.main import main
from blackpoker.compiler.documents.diff import diff_rulesets
from blackpoker.runtime.play.compare import ALPHA, Comparison, holm
from blackpoker.runtime.play.distributions import normal_two_sided, t_quantile, t_two_sided
from blackpoker.runtime.play.simulation import Plan, RulesSource, run_all
from blackpoker.runtime.play.stats import (
    Z95,
    Difference,
    Mean,
    Rate,
    Summary,
    newcombe,
    newcombe_p,
    summarize,
)
from blackpoker.site.report_tables import ENGLISH, JAPANESE, compared_sections, p_text
from click.testing import CliRunner

EXAMPLE = Path(__file__).parents[1] / "examples" / "my-std.yaml"
OVERLAY: dict[str, Any] = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
EDITION: str = OVERLAY["edition"]
BASE: str = OVERLAY["base"]
GAMES, SEED = 150, 4


# --- the distributions, against closed forms and printed tables -------------------------------


def test_the_normal_tail_at_the_95_percent_quantile_is_5_percent() -> None:
    assert normal_two_sided(Z95) == pytest.approx(0.05, abs=1e-12)
    assert normal_two_sided(-Z95) == pytest.approx(0.05, abs=1e-12)
    assert normal_two_sided(0) == 1.0
    assert normal_two_sided(1.0) == pytest.approx(2 * (1 - statistics.NormalDist().cdf(1.0)), abs=1e-12)


@pytest.mark.parametrize("t", [0.0, 0.3, 1.0, 2.5, 12.0, 300.0])
def test_t_tails_match_the_closed_forms_of_one_and_two_degrees_of_freedom(t: float) -> None:
    # df 1 is the Cauchy distribution; df 2 has P(|T| ≥ t) = 1 − t / √(2 + t²).
    assert t_two_sided(t, 1) == pytest.approx(1 - 2 / math.pi * math.atan(t), rel=1e-9, abs=1e-14)
    assert t_two_sided(t, 2) == pytest.approx(1 - t / math.sqrt(2 + t * t), rel=1e-9, abs=1e-14)


@pytest.mark.parametrize(
    ("df", "quantile"),  # Student's t table, 97.5% (two-sided 95%)
    [(1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423), (1e7, 1.9600)],
)
def test_t_quantiles_match_the_printed_table(df: float, quantile: float) -> None:
    found = t_quantile(0.05, df)
    assert round(found, 4) == quantile
    assert t_two_sided(found, df) == pytest.approx(0.05, rel=1e-9)


# --- differences of rates: Newcombe's interval and the p-value it inverts ---------------------


def test_newcombe_interval_matches_newcombes_paper() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873, table II (a): 56/70 − 48/80, method 10.
    d = Difference.of(Rate(48, 80), Rate(56, 70))
    assert d.value == pytest.approx(0.2)
    assert (round(d.low, 4), round(d.high, 4)) == (0.0524, 0.3339)
    assert d.clear and d.p < 0.05


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (Rate(48, 80), Rate(56, 70)),
        (Rate(30, 100), Rate(42, 100)),
        (Rate(0, 40), Rate(6, 40)),
        (Rate(9, 9), Rate(3, 7)),
    ],
)
def test_the_p_value_is_the_level_at_which_newcombes_interval_reaches_zero(a: Rate, b: Rate) -> None:
    p = newcombe_p(a, b)
    z = statistics.NormalDist().inv_cdf(1 - p / 2)
    low, high = newcombe(a, b, z)
    nearer = low if b.rate > a.rate else high
    assert nearer == pytest.approx(0.0, abs=1e-9)
    assert (p < 0.05) == Difference.of(a, b).clear  # the 95% interval and the test agree


def test_equal_rates_have_p_one_and_the_sides_are_symmetric() -> None:
    assert newcombe_p(Rate(50, 100), Rate(50, 100)) == 1.0
    assert newcombe_p(Rate(30, 100), Rate(42, 100)) == pytest.approx(newcombe_p(Rate(42, 100), Rate(30, 100)))
    assert newcombe_p(Rate(0, 5000), Rate(5000, 5000)) == 0.0  # below what a float holds


# --- differences of means: Welch -------------------------------------------------------------


def _mean(values: list[int]) -> Mean:
    return Mean(len(values), sum(values), sum(v * v for v in values))


def test_mean_and_variance_from_the_sums_match_the_values() -> None:
    values = [1, 4, 4, 2, 9, 3]
    mean = _mean(values)
    assert mean.mean == pytest.approx(statistics.mean(values))
    assert mean.variance == pytest.approx(statistics.variance(values))
    assert _mean([7]).variance == 0.0


def test_welch_interval_and_p_value_match_a_reference_computation() -> None:
    # By hand: means 2 and 5, variances 1 and 20/3; se² = 1/3 + 5/3 = 2, df = 4 / (1/18 + 25/27)
    # = 4.0755; the p-value and interval are scipy.stats.ttest_ind(equal_var=False)'s.
    d = Difference.of_means(_mean([1, 2, 3]), _mean([2, 4, 6, 8]))
    assert d.value == 3.0
    assert d.p == pytest.approx(0.0999128643, rel=1e-7)
    assert (d.low, d.high) == pytest.approx((-0.8979754511, 6.8979754511), rel=1e-7)
    se, df = math.sqrt(2), 4 / (1 / 18 + 25 / 27)
    assert d.high - d.value == pytest.approx(t_quantile(0.05, df) * se)
    assert not d.clear


def test_welch_without_any_spread_is_exact() -> None:
    same = Difference.of_means(_mean([2, 2, 2]), _mean([2, 2]))
    assert (same.value, same.low, same.high, same.p) == (0.0, 0.0, 0.0, 1.0)
    apart = Difference.of_means(_mean([1, 1]), _mean([3, 3, 3]))
    assert (apart.low, apart.high, apart.p) == (2.0, 2.0, 0.0) and apart.clear


# --- Holm -------------------------------------------------------------------------------------


def test_holm_on_a_hand_worked_example() -> None:
    # Sorted: 0.005 × 4 = 0.02, 0.01 × 3 = 0.03, 0.03 × 2 = 0.06, 0.04 × 1 → kept at 0.06.
    adjusted = holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert [p <= ALPHA for p in adjusted] == [True, False, False, True]
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])  # capped at 1
    assert holm([]) == []


# --- two runs compared -------------------------------------------------------------------------


def _summary(source: RulesSource) -> Summary:
    rules = source.compile()
    plan = Plan(source, ("random", "random"), SEED, GAMES)
    return summarize(run_all(plan, rules=rules), rules, plan.agents, SEED, 0.0)


@pytest.fixture(scope="module")
def comparison() -> Comparison:
    """The example local rule against its base format."""
    return Comparison.of(
        _summary(RulesSource(EDITION, BASE)), _summary(RulesSource(EDITION, OVERLAY["name"], EXAMPLE))
    )


def test_every_rate_and_every_shared_action_measure_is_tested_and_corrected(comparison: Comparison) -> None:
    a, b = comparison.a, comparison.b
    assert [name for name, _ in comparison.rates] == [name for name, _ in a.rates()]
    only_in_one = {x.id for x in a.actions} ^ {y.id for y in b.actions}
    assert set(OVERLAY["actions"]["remove"]) | {x["id"] for x in OVERLAY["actions"]["add"]} <= only_in_one
    assert [c.b.id for c in comparison.actions] == [y.id for y in b.actions if y.id not in only_in_one]
    tests = list(comparison.tests())
    assert comparison.count == len(tests) == len(comparison.rates) + 3 * len(comparison.actions)
    adjusted = holm([t.difference.p for t in tests])
    assert [t.p_holm for t in tests] == adjusted
    assert all(t.significant == (t.p_holm <= ALPHA) for t in tests)
    # The example's free 防壁設置 shows clearly; most figures do not move: both kinds are here.
    assert {t.significant for t in tests} == {True, False}
    for c in comparison.actions:
        assert c.share is not None and c.user_wins is not None
        assert c.share.difference.value == pytest.approx(c.b.games / b.completed - c.a.games / a.completed)
        if c.uses_per_game is not None:
            assert c.uses_per_game.difference.value == pytest.approx(
                c.b.uses / c.b.games - c.a.uses / c.a.games
            )


def test_the_tables_mark_the_holm_significant_differences(comparison: Comparison) -> None:
    sections = compared_sections(comparison, ENGLISH)
    results, _, share, per_game, user_wins = sections
    by_measure = [
        (results, [t for _, t in comparison.rates]),
        (share, [c.share for c in comparison.actions]),
        (per_game, [c.uses_per_game for c in comparison.actions]),
        (user_wins, [c.user_wins for c in comparison.actions]),
    ]
    marked = 0
    for section, tests in by_measure:
        assert section.columns[-2:] == (ENGLISH.difference, ENGLISH.p_holm)
        compared_rows = [row for row in section.rows if row[-1]]  # rows of an action of one side have none
        assert len(compared_rows) == len([t for t in tests if t is not None])
        for row, t in zip(compared_rows, [t for t in tests if t is not None], strict=True):
            assert row[-2].endswith(" *") == t.significant
            assert row[-1] == p_text(t.p_holm)
            marked += t.significant
    assert marked == sum(t.significant for t in comparison.tests()) > 0


def _invoke(*args: str) -> Any:
    result = CliRunner().invoke(main, ["simulate", "--edition", EDITION, *args])
    assert result.exit_code == 0, result.output
    return result


def test_the_json_carries_every_difference_with_its_test(comparison: Comparison) -> None:
    args = ("--compare", BASE, str(EXAMPLE), "-n", str(GAMES), "--seed", str(SEED), "--json")
    data = json.loads(_invoke(*args).stdout)
    expected = json.loads(json.dumps(comparison.json(), ensure_ascii=False))
    for side in (*data["compare"], *expected["compare"]):
        side.pop("seconds")
    assert data == expected
    differences = data["differences"]
    assert set(differences["rates"]) == {"p1", "p2", "first", "second", "draw"}
    shown = [d for d in differences["rates"].values() if d is not None]
    for measures in differences["actions"].values():
        assert set(measures) == {"share", "uses_per_game", "user_wins"}
        shown += [d for d in measures.values() if d is not None]
    assert data["holm"] == {"alpha": ALPHA, "comparisons": len(shown)}
    for d in shown:
        assert set(d) == {"difference", "ci95", "clear", "p", "p_holm", "significant"}
        assert d["ci95"][0] <= d["difference"] <= d["ci95"][1]
        assert d["p"] <= d["p_holm"] <= 1
        assert d["significant"] == (d["p_holm"] <= ALPHA)


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_the_terminal_report_starts_with_the_rule_change() -> None:
    out = _invoke("--compare", BASE, str(EXAMPLE), "-n", "20").stdout
    a, b = RulesSource(EDITION, BASE).compile(), RulesSource(EDITION, OVERLAY["name"], EXAMPLE).compile()
    lines = text_lines(diff_rulesets(a, b))
    first = out.index(lines[0])
    assert first < out.index("A: ") < out.index(ENGLISH.results)  # at the top
    assert out[first:].startswith("\n".join(lines))
    for action_id in (*OVERLAY["actions"]["change"], *OVERLAY["actions"]["remove"]):
        assert f" {action_id} " in out
    for added in OVERLAY["actions"]["add"]:
        assert f"+ {added['id']} {added['name']}" in out
    count = re.search(r"Holm–Bonferroni over the (\d+) differences", _words(out))
    assert count is not None and int(count.group(1)) > 5
    assert ENGLISH.difference in out and ENGLISH.p_holm in out


def test_two_official_formats_print_the_actions_between_them() -> None:
    base = RulesSource(EDITION, BASE).compile()
    other = next(f.id for f in base.edition.formats if f.id != BASE)
    others = RulesSource(EDITION, other).compile()
    out = _invoke("--compare", other, BASE, "-n", "5").stdout
    head = out[: out.index("A: ")]
    added = [x for x in base.actions if x.id not in {y.id for y in others.actions}]
    removed = [y for y in others.actions if y.id not in {x.id for x in base.actions}]
    assert added or removed  # the two formats differ
    for action in added:
        assert f"+ {action.id} {action.name}" in head
    for action in removed:
        assert f"- {action.id} {action.name}" in head


def test_the_html_report_is_in_japanese_with_the_rule_change_and_the_holm_note(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    _invoke("--compare", BASE, str(EXAMPLE), "-n", "30", "--html", str(out))
    html = out.read_text(encoding="utf-8")
    change = html.index(JAPANESE.changes)
    assert change < html.index(JAPANESE.results)
    for added in OVERLAY["actions"]["add"]:
        assert added["name"] in html[change : html.index("<h2>グラフ</h2>")]
    for label in (
        JAPANESE.difference,
        JAPANESE.p_holm,
        JAPANESE.share_title,
        JAPANESE.user_wins_title,
        "勝率",
    ):
        assert label in html
    count = re.search(r"(\d+) 件の差に Holm", html)
    assert count is not None and int(count.group(1)) > 5
    for english in (ENGLISH.difference, ENGLISH.first, ENGLISH.results, "Charts", "Tables", "games, seed"):
        assert english not in html


def test_the_documented_example_shows_the_real_rule_change() -> None:
    doc = (Path(__file__).parents[1] / "docs" / "simulate.md").read_text(encoding="utf-8")
    example = re.search(r"```console\n\$ blackpoker simulate --compare (\S+) (\S+) .*?\n(.*?)```", doc, re.S)
    assert example is not None
    base, rules = example.group(1), Path(__file__).parents[1] / example.group(2)
    overlay = yaml.safe_load(rules.read_text(encoding="utf-8"))
    a = RulesSource(overlay["edition"], base).compile()
    b = RulesSource(overlay["edition"], overlay["name"], rules).compile()
    assert example.group(3).startswith(
        "\n".join([f"{ENGLISH.changes} (A → B)", *text_lines(diff_rulesets(a, b))])
    )
