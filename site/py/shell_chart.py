"""The chart: per-seat numbers over the game (a line per seat, dashes as well as colours).

Why a part of its own (issue 42): the chart keeps its own caches (each point's stats, the
points the page chose, thinned) and draws a long game's first chart in a task of its own.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from session import Seat
from shell_links import LINKS_AT_ONCE
from ui import Node, h, isolate, svg

if TYPE_CHECKING:
    from shell import Shell

__all__ = ["DASHES", "MAX_CHART_POINTS", "Chart", "chart_number", "line_chart", "thin_points"]

#: line styles of the charts: dashes as well as colours, so lines differ without colour
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "1 2", "12 4", "5 2 1 2")
#: a chart draws at most about this many points a line: a 900-pixel chart shows no more, and a
#: 40,000-step game's 20,000 points took over a second to draw (issue 20, item 10)
MAX_CHART_POINTS = 300


class Chart:
    """The chart of the game open in ``shell`` (``Shell.chart``)."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        #: state index -> (that state, its stats): only the chart's points are computed
        self._stats_cache: dict[int, tuple[Any, dict[str, list[float]]]] = {}
        #: (the states, how many, the last: held, so no other object takes its id; the points)
        self._memo: tuple[Any, int, Any, list[tuple[int, int]]] | None = None
        self._due: Any = None  # the states whose chart waits for a task of its own

    def reset(self) -> None:
        """A game was just opened: no stats of the last one stay cached."""
        self._stats_cache.clear()

    def stats_series(self) -> tuple[list[str], list[tuple[int, dict[str, list[float]]]]]:
        """Named per-seat numbers at the chart's points (cached). Only the points are computed:
        every state's stats took 0.4 s of a 6,000-step World game in CPython, seconds in the
        page (issue 20, item 10), where the chart shows one point a turn."""
        s = self.shell.session
        assert s is not None and self.shell.page is not None
        states = s.match.states
        cache = self._stats_cache
        points = self.points()
        for _x, i in points:
            hit = cache.get(i)
            if hit is None or hit[0] is not states[i]:  # a state undo or a jump replaced
                cache[i] = (states[i], self.shell.game.stats(states[i]))
        pts = [(x, cache[i][1]) for x, i in points]
        names = list(pts[-1][1]) if pts else []
        return names, pts

    def points(self) -> list[tuple[int, int]]:
        """The page's chart points, thinned; worked out again only when the log changed: the
        pages find them by walking every state, 80-130 ms of an 80,000-step game under
        Pyodide, and a render that changed no step (a scroll of the log, a step viewed)
        needs none of that (issue 20, item 10)."""
        s = self.shell.session
        assert s is not None and self.shell.page is not None
        states = s.match.states
        last = states[-1] if states else None
        memo = self._memo
        if memo is None or memo[0] is not states or memo[1] != len(states) or memo[2] is not last:
            memo = self._memo = (states, len(states), last, thin_points(self.shell.page.chart_points(states)))
        return memo[3]

    def render(self, width: int = 640) -> Node:
        s = self.shell.session
        assert s is not None
        memo = self._memo
        if len(s.match.log) > LINKS_AT_ONCE and (memo is None or memo[0] is not s.match.states):
            # a long game just opened: its chart's points (a walk over every state, 70 ms of
            # an 80,000-step game under Pyodide) are found in a task of their own, after the
            # render that shows the game (issue 20, item 10); later steps find them inline
            if self._due is not s.match.states:
                self._due = s.match.states
                self.shell.host.later(0, self.shell.host.rerender)
                return h("div", h("p", "Drawing the chart…", cls="muted"), id="shell-chart-inner")
        names, pts = self.stats_series()
        if not names or not pts:
            return h("div", h("p", "The chart starts with the first steps.", cls="muted"), id="shell-chart-inner")
        assert self.shell.page is not None
        seats = s.seats()
        charts = []
        marker = None
        if s.viewing is not None:
            marker = next((x for x, i in self.points() if i >= s.viewing), None)
        for name in names:
            # a visible title over each chart (item 4: the title was only inside the SVG)
            charts.append(h("figure",
                            h("figcaption", f"{name[:1].upper()}{name[1:]} per player", cls="shell-chart-title"),
                            line_chart(name, [(x, st.get(name, [])) for x, st in pts], seats, width,
                                       self.shell.page.chart_x_label, marker),
                            cls="shell-chart-figure"))
        return h("div", *charts, id="shell-chart-inner")


def thin_points(points: list[tuple[int, int]], most: int = MAX_CHART_POINTS) -> list[tuple[int, int]]:
    """Every ``stride``-th point and the last, the stride a power of two so the points kept
    stay the same as a game grows (their stats stay cached) until the stride doubles."""
    stride = 1
    while len(points) > most * stride:
        stride *= 2
    if stride == 1:
        return points
    out = points[::stride]
    if out[-1] != points[-1]:
        out.append(points[-1])
    return out


def chart_number(v: float) -> str:
    """A value as a chart shows it: whole numbers whole, others to one decimal (item 4: the
    luck chart said "Ann 2.9668")."""
    return f"{v:g}" if float(v).is_integer() else f"{v:.1f}"


def line_chart(
    name: str,
    pts: list[tuple[int, list[float]]],
    seats: Sequence[Seat],
    w: int,
    x_label: str,
    marker: int | None = None,
) -> Node:
    """One SVG line chart: a line per seat, with dashes as well as colours."""
    w = max(320, min(900, w))
    h_, left, right, top, bottom = (220 if w < 500 else 260), 40, 110, 10, 30
    xmax = max(1, pts[-1][0])
    values = [v for _, vs in pts for v in vs]
    ymin = min(0.0, min(values, default=0.0))
    ymax = max(4.0, max(values, default=0.0))
    step = 10 ** max(0, int(math.log10(max(1.0, ymax - ymin))) - 1) * 2
    ymax = math.ceil(ymax / step) * step
    ymin = math.floor(ymin / step) * step if ymin < 0 else 0.0

    def sx(x: float) -> float:
        return left + (w - left - right) * x / xmax

    def sy(y: float) -> float:
        return top + (h_ - top - bottom) * (1 - (y - ymin) / (ymax - ymin or 1))

    kids: list[Node] = []
    for y in sorted({ymin, (ymin + ymax) / 2, ymax}):
        kids.append(svg("line", x1=left, x2=w - right, y1=f"{sy(y):.1f}", y2=f"{sy(y):.1f}", cls="grid"))
        kids.append(svg("text", f"{y:g}", x=left - 4, y=f"{sy(y) + 4:.1f}", text_anchor="end"))
    for x in sorted({0, xmax // 2, xmax}):
        kids.append(svg("text", str(x), x=f"{sx(x):.1f}", y=h_ - bottom + 14, text_anchor="middle"))
    kids.append(svg("text", x_label, x=(left + w - right) / 2, y=h_ - 4, text_anchor="middle"))
    kids.append(svg("line", x1=left, x2=left, y1=top, y2=h_ - bottom, cls="axis"))
    kids.append(svg("line", x1=left, x2=w - right, y1=h_ - bottom, y2=h_ - bottom, cls="axis"))
    if marker is not None:
        mx = max(0, min(marker, xmax))
        kids.append(svg("line", x1=f"{sx(mx):.1f}", x2=f"{sx(mx):.1f}", y1=top, y2=h_ - bottom, cls="marker"))
    ends = []
    for p, seat in enumerate(seats):
        line = [(x, vs[p]) for x, vs in pts if p < len(vs)]
        if not line:
            continue
        dash = DASHES[p % len(DASHES)]
        if len(line) == 1:
            kids.append(svg("circle", cx=f"{sx(line[0][0]):.1f}", cy=f"{sy(line[0][1]):.1f}", r=3, fill=seat.colour))
        else:
            points = " ".join(f"{sx(x):.1f},{sy(v):.1f}" for x, v in line)
            kids.append(svg("polyline", points=points, fill="none", stroke=seat.colour, stroke_width=2.2,
                            stroke_dasharray=dash or None))
        ends.append([sy(line[-1][1]), p, line[-1][1]])
    ends.sort()
    for i in range(1, len(ends)):  # keep the end labels apart
        ends[i][0] = max(ends[i][0], ends[i - 1][0] + 12)
    for y, p, v in ends:
        seat = seats[p]
        kids.append(svg("rect", x=w - right + 6, y=f"{y - 5:.1f}", width=9, height=9, fill=seat.colour))
        short = seat.name[:12]  # a name cut short: no longer the name the pattern finds, so isolated here (item 8)
        kids.append(svg("text", f"{isolate(short)} {chart_number(v)}", x=w - right + 18, y=f"{y + 3:.1f}"))
    return svg(
        "svg", svg("title", f"{name} per player over {xmax} {x_label}"), *kids,
        viewBox=f"0 0 {w} {h_}", role="img", cls="shell-chart", aria_label=f"{name} per player over time",
        data_stat=name,
    )
