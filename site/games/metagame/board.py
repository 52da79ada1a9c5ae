"""The map: the paint of the build-time SVG's territories and the marks layer over them.

Why a part: the map's territories are in the HTML from the build; the page only recolours
them (``paint``: owner, eligible, target, picked, sacrificed, and each one's spoken label) and
draws the capitals' stars and token counts at the map's label points (``render_marks``),
which it reads once from the map's file.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ui import Node, svg

from conquest.maps import load_map


def star_points(cx: float, cy: float, r: float) -> str:
    """A five-pointed star's points around (``cx``, ``cy``): a capital's mark on the map."""
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append(f"{cx + rad * math.cos(a):.1f},{cy + rad * math.sin(a):.1f}")
    return " ".join(pts)


class Board:
    """The map's paint and marks; its one state is the label points read from the map."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.shell = page.shell
        self.labels: dict[int, tuple[float, float]] = {}

    def paint(self, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        s = self.shell.session
        assert s is not None
        state = s.shown_state()
        colours = [p["colour"] for p in view["players"]]
        elig = set(view["eligible"]["territories"]) if view["eligible"] and not s.locked() else set()
        inv = view["invasion"]
        sac: set[int] = set()
        if inv:
            sac = set(inv["sacrificed"]["territories"]) | set(inv["blocked"]["territories"])
        names = state.board.names
        out: dict[str, dict[str, Any]] = {}
        for t, owner in enumerate(state.owner):
            who = "neutral" if owner < 0 else view["players"][owner]["name"]
            cap = ", capital" if owner >= 0 and state.capital[owner] == t else ""
            out[f"mg-t{t}"] = {
                "style": {"--owner-fill": colours[owner] if owner >= 0 else None},
                "class": {
                    "is-eligible": t in elig,
                    "is-target": bool(inv) and inv["target"] == t,
                    "is-picked": t in self.page.draft.picked,
                    "is-sacrificed": t in sac and owner < 0,
                },
                "attrs": {"aria-label": f"{names[t]}, {who}{cap}{', a choice now' if t in elig else ''}"},
            }
        return out

    def label_at(self, t: int, map_id: str) -> tuple[float, float] | None:
        if not self.labels:
            try:
                m = load_map(map_id)
            except Exception:  # a custom map carries no label points: no marks
                return None
            self.labels = {i: (float(tr.label[0]), float(tr.label[1])) for i, tr in enumerate(m.territories)}
        return self.labels.get(t)

    def render_marks(self, view: Mapping[str, Any]) -> Node:
        kids: list[Node] = []
        for p in view["players"]:
            if p["capital"] is None:
                continue
            at = self.label_at(p["capital"], view["map"])
            if at is None:
                continue
            cx, cy = at
            kids.append(svg("polygon", points=star_points(cx, cy - 12, 8.0), cls="cap-mark"))
            tokens = " ".join(
                part for part in (f"B{p['block']}" if p["block"] else "", f"R{p['respin']}" if p["respin"] else "") if part
            )
            if tokens:
                kids.append(svg("text", tokens, x=cx, y=cy + 10, font_size=7, text_anchor="middle", cls="tok-mark"))
        return svg("g", *kids, id="mg-marks-inner")
