"""The SVG chart helper, alone: well-formed SVG, one marked point per value in order, the
band around the line, the zero line kept in view, labels escaped."""

import xml.etree.ElementTree as ET

import pytest

from server.arena.stats import summarize
from server.web.pages.charts import HEIGHT, LEFT, Point, line_chart, sparkline
from server.web.pages.matches import cumulative

SVG = "{http://www.w3.org/2000/svg}"


def parse(markup):
    return ET.fromstring(str(markup).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def test_a_line_chart_has_a_point_per_value_in_order_with_its_band_and_zero_line():
    points = [Point(v, str(b), low=v - 5, high=v + 5) for b, v in [(3, 4), (7, -2), (9, 10)]]
    svg = parse(line_chart(points, title="net", zero=True))
    circles = svg.findall(f"{SVG}circle")
    assert [c.get("data-value") for c in circles] == ["4", "-2", "10"]
    assert [c.get("data-x") for c in circles] == ["3", "7", "9"]
    xs = [float(c.get("cx")) for c in circles]
    ys = [float(c.get("cy")) for c in circles]
    assert xs == sorted(xs) and ys[2] < ys[0] < ys[1], "higher values are drawn higher"
    band = [tuple(map(float, p.split(","))) for p in svg.find(f"{SVG}polygon").get("points").split()]
    assert len(band) == 6 and min(y for _, y in band) < min(ys) and max(y for _, y in band) > max(ys)
    zero = svg.find(f"{SVG}line[@class='zero']")
    assert ys[1] > float(zero.get("y1")) > ys[0], "zero lies between -2 and 4"
    assert all(0 <= y <= HEIGHT for _, y in band)


def test_zero_stays_in_view_and_a_single_or_flat_series_draws():
    svg = parse(line_chart([Point(5, "1"), Point(8, "2")], title="up", zero=True))
    axis = [t.text for t in svg.findall(f"{SVG}text") if t.get("x") == str(LEFT - 4)]
    grid = sorted(float(v) for v in axis)
    assert grid == [0, 8]
    assert svg.find(f"{SVG}polygon") is None, "no band given, none drawn"
    one = parse(line_chart([Point(3, "1")], title="one"))
    assert len(one.findall(f"{SVG}circle")) == 1
    flat = parse(line_chart([Point(2, "a"), Point(2, "b")], title="flat"))
    assert len({c.get("cy") for c in flat.findall(f"{SVG}circle")}) == 1
    assert str(line_chart([], title="none")) == "" and str(sparkline([])) == ""


def test_labels_are_escaped():
    markup = str(line_chart([Point(1, "<b>", note="a & b")], title='"quoted" <title>'))
    parse(markup)
    assert "<b>" not in markup and "&lt;b&gt;" in markup and "a &amp; b" in markup


def test_a_sparkline_marks_its_last_value():
    svg = parse(sparkline([1.0, 3.5, 2.0], title="trend"))
    assert svg.get("data-points") == "3" and svg.get("data-last") == "2.0"
    line = [tuple(map(float, p.split(","))) for p in svg.find(f"{SVG}polyline").get("points").split()]
    last = svg.find(f"{SVG}circle")
    assert (float(last.get("cx")), float(last.get("cy"))) == line[-1]
    assert line[1][1] < line[2][1] < line[0][1]


@pytest.mark.parametrize("scores", [[3, -1, 4, 1, -5, 9, 2, 6], [0, 0, 0], [7], [-2, 2] * 20])
def test_the_match_band_is_n_times_the_running_means_interval(scores):
    boards = list(range(10, 10 + len(scores)))
    rows = cumulative(boards, dict(zip(boards, scores)))
    assert [r["total"] for r in rows] == [sum(scores[:n]) for n in range(1, len(scores) + 1)]
    for n, row in enumerate(rows, 1):
        st = summarize(scores[:n])
        if st.ci_low is None:
            assert row["low"] is None and row["high"] is None
        else:
            assert row["low"] == pytest.approx(n * st.ci_low, abs=n * 1e-4)
            assert row["high"] == pytest.approx(n * st.ci_high, abs=n * 1e-4)


def test_a_drawing_is_kept_by_its_version_and_drawn_again_at_another():
    from server.web.pages.drawn import drawn

    calls = []

    def draw(missing):
        calls.append(missing)
        return [f"drawing {i} #{len(calls)}" for i in missing]

    key = ("test-drawn", object())  # a key no other test uses
    assert drawn([(key + ("x",), "v1"), (key + ("y",), "v1")], draw) == ["drawing 0 #1", "drawing 1 #1"]
    assert drawn([(key + ("x",), "v1"), (key + ("y",), "v2")], draw) == ["drawing 0 #1", "drawing 1 #2"]
    assert calls == [[0, 1], [1]], "only the drawing of another version is drawn again"
