"""The tails and quantiles of the standard normal and Student's t distributions, in plain
Python: the report's tests need only these, not a numerical library."""

from __future__ import annotations

import math

SQRT2 = math.sqrt(2)
EPSILON = 1e-15  # relative precision of the continued fraction and of the quantile search


def normal_two_sided(z: float) -> float:
    """P(|Z| ≥ |z|) for a standard normal Z (erfc keeps its precision far in the tail)."""
    return math.erfc(abs(z) / SQRT2)


def t_two_sided(t: float, df: float) -> float:
    """P(|T| ≥ |t|) for Student's T with `df` degrees of freedom (any real df > 0):
    the regularized incomplete beta I_x(df/2, 1/2) at x = df / (df + t²)."""
    return _incomplete_beta(df / 2, 0.5, df / (df + t * t))


def t_quantile(alpha: float, df: float) -> float:
    """The t > 0 with P(|T| ≥ t) = alpha: the half-width factor of a 1 − alpha interval."""
    low, high = 0.0, 1.0
    while t_two_sided(high, df) > alpha:
        low, high = high, high * 2
    while high - low > EPSILON * high:  # the tail falls as t grows: bisect
        middle = (low + high) / 2
        low, high = (middle, high) if t_two_sided(middle, df) > alpha else (low, middle)
    return (low + high) / 2


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction on the
    side of x where it converges fast (Numerical Recipes, betai)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b), evaluated by the modified Lentz method."""
    tiny = 1e-300  # keeps a denominator off zero

    def step(value: float, numerator: float) -> float:
        value = 1 + numerator * value
        return value if abs(value) > tiny else tiny

    c, d = 1.0, 1 / step(1.0, -(a + b) * x / (a + 1))
    fraction = d
    for m in range(1, 1000):
        even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        d = 1 / step(d, even)
        c = step(1 / c, even)
        fraction *= d * c
        odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1 / step(d, odd)
        c = step(1 / c, odd)
        fraction *= d * c
        if abs(d * c - 1) < EPSILON:
            break
    return fraction
