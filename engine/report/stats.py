"""Small statistics with 95% confidence intervals, in the standard library only.

Win rates use the Wilson score interval (sane near 0 and 1 and for small samples); differences of
means use the normal approximation with each group's own variance (Welch), which is what thousands
of simulated games call for.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

Z95 = 1.959963984540054


def wilson(successes: float, n: int) -> tuple[float, float]:
    """95% interval for a proportion; `successes` may be fractional (a shared win counts 1/k)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def two_sided_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def describe(values: Sequence[float]) -> dict[str, float] | None:
    """Mean, standard deviation and the five numbers of a box plot."""
    if not values:
        return None
    ordered = sorted(values)
    q1, median, q3 = statistics.quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else [ordered[0]] * 3
    return {"n": len(ordered), "mean": _r(statistics.fmean(ordered)),
            "sd": _r(statistics.stdev(ordered)) if len(ordered) > 1 else 0.0,
            "min": ordered[0], "q1": _r(q1), "median": _r(median), "q3": _r(q3), "max": ordered[-1]}


def histogram(values: Sequence[int], bins: int = 20) -> dict[str, list[int]]:
    """Equal-width bins over whole numbers: `edges` (bins + 1) and `counts`."""
    if not values:
        return {"edges": [], "counts": []}
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / bins))
    edges = [low + i * width for i in range(math.ceil((high - low + 1) / width) + 1)]
    counts = [0] * (len(edges) - 1)
    for v in values:
        counts[min((v - low) // width, len(counts) - 1)] += 1
    return {"edges": edges, "counts": counts}


def mean_difference(a: Sequence[float], b: Sequence[float]) -> dict[str, Any] | None:
    """mean(a) - mean(b) with its 95% interval, z and two-sided p; None if a group is too small."""
    if len(a) < 2 or len(b) < 2:
        return None
    diff = statistics.fmean(a) - statistics.fmean(b)
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return _difference(diff, se)


def proportion_difference(x1: float, n1: int, x2: float, n2: int) -> dict[str, Any] | None:
    """p1 - p2 with its 95% interval (unpooled standard error), z and two-sided p."""
    if n1 == 0 or n2 == 0:
        return None
    p1, p2 = x1 / n1, x2 / n2
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    return _difference(p1 - p2, se)


def difference_of_differences(d1: dict[str, Any], d2: dict[str, Any]) -> dict[str, Any]:
    """d1 - d2 for two independent estimates given as `_difference` dicts."""
    return _difference(d1["value"] - d2["value"], math.hypot(d1["se"], d2["se"]))


def _difference(diff: float, se: float) -> dict[str, Any]:
    """A zero standard error with a nonzero difference (both groups constant) has no z and p 0."""
    z = diff / se if se > 0 else None if diff else 0.0
    return {"value": _r(diff), "ci": [_r(diff - Z95 * se), _r(diff + Z95 * se)], "se": _r(se),
            "z": None if z is None else _r(z), "p": 0.0 if z is None else two_sided_p(z)}


def _r(x: float) -> float:
    return round(x, 4)
