"""Charts as inline SVG, drawn by the server: no script, no library, nothing fetched from
anywhere, and a page reads the same with scripts off.

Pure: numbers in, markup out (every label escaped). Points are spaced evenly by their
order, not by time: a rating moves once per rated match and a match score once per
board, so the steps are what a reader compares. Each point is a ``circle.pt`` with its
value in ``data-value`` and its label in ``data-x``, so tests and scripts read numbers,
not pixels. Styles live in ``static/charts.css``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH, HEIGHT = 480, 216  # a chart's viewBox; CSS scales it to its box
LEFT, RIGHT, TOP, BOTTOM = 66, 10, 10, 40  # room for the axis labels and the axes' titles
SPARK_WIDTH, SPARK_HEIGHT, SPARK_PAD = 100, 24, 3


@dataclass(frozen=True)
class Point:
    """One step of a chart: its value, an optional band around it, and what it is
    (``x``: the label under the axis and in ``data-x``; ``note``: the tooltip)."""

    value: float
    x: str
    note: str = ""
    low: float | None = None
    high: float | None = None


def _num(v: float) -> str:
    return f"{v:.1f}"


def _label(v: float) -> str:
    return f"{v:.0f}" if abs(v) >= 100 or float(v).is_integer() else f"{v:.2f}"


def _scale(lo: float, hi: float, top: float, bottom: float):
    """y of a value, top for ``hi``; a flat series sits in the middle."""
    if hi == lo:
        return lambda v: (top + bottom) / 2
    return lambda v: bottom - (v - lo) * (bottom - top) / (hi - lo)


def _xs(n: int, left: float, right: float) -> list[float]:
    if n == 1:
        return [(left + right) / 2]
    return [left + i * (right - left) / (n - 1) for i in range(n)]


def sparkline(values: Sequence[float], title: str = "") -> Markup:
    """A small trend line (a leaderboard cell), its last point marked; empty for no values."""
    if not values:
        return Markup("")
    ys = _scale(min(values), max(values), SPARK_PAD, SPARK_HEIGHT - SPARK_PAD)
    xs = _xs(len(values), SPARK_PAD, SPARK_WIDTH - SPARK_PAD)
    line = " ".join(f"{_num(x)},{_num(ys(v))}" for x, v in zip(xs, values))
    return Markup(
        f'<svg class="sparkline" viewBox="0 0 {SPARK_WIDTH} {SPARK_HEIGHT}" width="{SPARK_WIDTH}" '
        f'height="{SPARK_HEIGHT}" role="img" aria-label="{escape(title)}" data-points="{len(values)}" '
        f'data-last="{values[-1]}"><title>{escape(title)}</title>'
        f'<polyline class="line" points="{line}"/>'
        f'<circle class="last" cx="{_num(xs[-1])}" cy="{_num(ys(values[-1]))}" r="2"/></svg>'
    )


def line_chart(
    points: Sequence[Point], title: str, zero: bool = False, x_title: str = "", y_title: str = "", bars: bool = False
) -> Markup:
    """A line through ``points`` with their band (where given) shaded behind it, the
    lowest and highest values labelled on the left and the first and last ``x`` below;
    ``zero`` adds a zero line (and keeps zero in view). ``x_title`` and ``y_title`` name
    the axes (``text.axis-title``, the y one turned along its axis); ``bars`` also draws each
    point's band as a bar (``line.err``: a band of one point has no width). Empty for no points."""
    if not points:
        return Markup("")
    values = [p.value for p in points]
    values += [b for p in points for b in (p.low, p.high) if b is not None]
    if zero:
        values.append(0.0)
    lo, hi = min(values), max(values)
    ys = _scale(lo, hi, TOP, HEIGHT - BOTTOM)
    xs = _xs(len(points), LEFT, WIDTH - RIGHT)
    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" '
        f'data-points="{len(points)}"><title>{escape(title)}</title>'
    ]
    banded = [(x, p) for x, p in zip(xs, points) if p.low is not None and p.high is not None]
    if len(banded) > 1:
        edge = [f"{_num(x)},{_num(ys(p.high))}" for x, p in banded]
        edge += [f"{_num(x)},{_num(ys(p.low))}" for x, p in reversed(banded)]
        out.append(f'<polygon class="band" points="{" ".join(edge)}"/>')
    for x, p in banded if bars else []:
        out.append(
            f'<line class="err" x1="{_num(x)}" x2="{_num(x)}" y1="{_num(ys(p.high))}" y2="{_num(ys(p.low))}" '
            f'data-low="{p.low}" data-high="{p.high}"/>'
        )
    for v in sorted({lo, hi}):
        out.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_num(ys(v))}" y2="{_num(ys(v))}"/>'
            f'<text class="axis" x="{LEFT - 4}" y="{_num(ys(v) + 4)}" text-anchor="end">{_label(v)}</text>'
        )
    if zero and lo < 0 < hi:
        out.append(
            f'<line class="zero" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_num(ys(0))}" y2="{_num(ys(0))}"/>'
            f'<text class="axis" x="{LEFT - 4}" y="{_num(ys(0) + 4)}" text-anchor="end">0</text>'
        )
    below = HEIGHT - BOTTOM + 16
    out.append(f'<text class="axis" x="{_num(xs[0])}" y="{below}" text-anchor="start">{escape(points[0].x)}</text>')
    if len(points) > 1:
        out.append(f'<text class="axis" x="{_num(xs[-1])}" y="{below}" text-anchor="end">{escape(points[-1].x)}</text>')
    if x_title:
        out.append(
            f'<text class="axis-title x-title" x="{_num((LEFT + WIDTH - RIGHT) / 2)}" y="{HEIGHT - 4}" '
            f'text-anchor="middle">{escape(x_title)}</text>'
        )
    if y_title:
        middle = _num((TOP + HEIGHT - BOTTOM) / 2)
        out.append(
            f'<text class="axis-title y-title" x="14" y="{middle}" text-anchor="middle" '
            f'transform="rotate(-90 14 {middle})">{escape(y_title)}</text>'
        )
    line = " ".join(f"{_num(x)},{_num(ys(p.value))}" for x, p in zip(xs, points))
    out.append(f'<polyline class="line" points="{line}"/>')
    for x, p in zip(xs, points):
        out.append(
            f'<circle class="pt" cx="{_num(x)}" cy="{_num(ys(p.value))}" r="3" data-x="{escape(p.x)}" '
            f'data-value="{p.value}"><title>{escape(p.note or f"{p.x}: {p.value}")}</title></circle>'
        )
    out.append("</svg>")
    return Markup("".join(out))
