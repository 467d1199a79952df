"""Small, exact statistics helpers for the arena: means with confidence intervals, percentiles.

They are written out here (standard library only) rather than taken from
SciPy because the arena needs just these few, and a 100 MB dependency for a
t-quantile would dwarf the package.  Everything is a pure function of its
input, so the tests check them against values worked out by hand.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Interval:
    """A mean with the half-width of its confidence interval (None with fewer than 2 values)."""

    mean: float
    half_width: float | None
    n: int
    level: float = 0.95

    @property
    def low(self) -> float | None:
        return None if self.half_width is None else self.mean - self.half_width

    @property
    def high(self) -> float | None:
        return None if self.half_width is None else self.mean + self.half_width

    def text(self, digits: int = 2) -> str:
        """``"1.23 ± 0.45"``, or just the mean when there is no interval."""
        if self.half_width is None:
            return f"{self.mean:.{digits}f}"
        return f"{self.mean:.{digits}f} ± {self.half_width:.{digits}f}"

    def json(self) -> dict[str, float | int | None]:
        return {
            "mean": self.mean,
            "half_width": self.half_width,
            "low": self.low,
            "high": self.high,
            "n": self.n,
            "level": self.level,
        }


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean; an empty sequence is a ValueError (there is nothing to average).

    >>> mean([1, 2, 6])
    3.0
    """
    if not values:
        raise ValueError("mean of no values")
    return math.fsum(values) / len(values)


def sample_sd(values: Sequence[float]) -> float:
    """Sample standard deviation (divisor n − 1), the one a standard error needs.

    >>> sample_sd([2, 4, 4, 4, 5, 5, 7, 9])  # doctest: +ELLIPSIS
    2.138...
    """
    n = len(values)
    if n < 2:
        raise ValueError("a standard deviation needs at least 2 values")
    m = mean(values)
    return math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T ≤ t) for Student's t with ``df`` degrees of freedom.

    >>> round(t_cdf(0.0, 5), 12), round(t_cdf(12.7062047, 1), 6)
    (0.5, 0.975)
    """
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t (bisection on ``t_cdf``; exact to ~1e-10).

    Small samples need the t rather than the normal 1.96: with 5 deal sets the
    95% interval is 2.78 standard errors wide on each side, not 1.96.

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 10), 3)
    (12.706, 2.228)
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must lie strictly between 0 and 1, not {p}")
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


def mean_ci(values: Sequence[float], level: float = 0.95) -> Interval:
    """Mean and two-sided t confidence interval: mean ± t(level, n−1) · sd / √n.

    The values must be independent draws; the arena passes one value per deal
    set (the mean over its rotations), never the individual games, because the
    four games of a deal set share their cards and are not independent.

    >>> interval = mean_ci([1.0, 2.0, 3.0, 4.0])
    >>> interval.mean, round(interval.half_width or 0, 4)
    (2.5, 2.0543)
    """
    n = len(values)
    m = mean(values)
    if n < 2:
        return Interval(m, None, n, level)
    se = sample_sd(values) / math.sqrt(n)
    return Interval(m, t_quantile(0.5 + level / 2.0, n - 1) * se, n, level)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100), linear between closest ranks (NumPy's default).

    >>> percentile([1, 2, 3, 4], 50), percentile([1, 2, 3, 4], 100), percentile([10, 20], 25)
    (2.5, 4.0, 12.5)
    """
    if not values:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError(f"q must lie in 0..100, not {q}")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    fraction = position - below
    return float(ordered[below] + (ordered[above] - ordered[below]) * fraction)
