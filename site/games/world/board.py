"""World Conquest's map: the build-time SVG recoloured, the layer of troop badges, outlines and
odds over it (``#wc-marks``), and the same choices as a list under it.

Why a part: the map turns the view and the draft (:mod:`.draft`) into paints and marks, and
sends the build-time map only the paints that changed since the last render (its own
state). The map's shapes are read once, through the shared :class:`map_outline.MapShapes`
(the Short Campaign outlines its map the same way).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from map_outline import MapShapes
from shell import plural
from ui import Node, h, svg

from conquest.games.world import odds as world_odds
from conquest.games.world.rules import RULES

from .panel import pct

if TYPE_CHECKING:
    from . import WorldPage

#: the map drawn by the template (build time)
MAP_ID = "world42"


def ink_on(colour: str) -> str:
    """Black or white text, whichever reads better on ``colour`` (a #rrggbb)."""
    try:
        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return "#111"
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


#: a map odds label's half width and half height (10 px text, "87.7%"), and a badge's radius
ODDS_HALF = (15.0, 6.0)
BADGE_R = 9.0
#: where an odds label may go around its territory's badge: below, right, left, further below, above
ODDS_SPOTS = ((0.0, 16.0), (26.0, 0.0), (-26.0, 0.0), (0.0, 28.0), (0.0, -16.0))


def odds_spot(x: float, y: float, badges: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """A spot for an odds label beside the badge at (``x``, ``y``) that covers no troop badge
    (issue 41: "87.7%" was drawn over a neighbour's badge); below it if none is free."""
    hw, hh = ODDS_HALF
    for dx, dy in ODDS_SPOTS:
        cx, cy = x + dx, y + dy
        if all(abs(bx - cx) > hw + BADGE_R or abs(by - cy) > hh + BADGE_R for bx, by in badges):
            return cx, cy
    return x, y + ODDS_SPOTS[0][1]




class MapLayer:
    """The map's paints and marks, and the Choose list of its choices."""

    def __init__(self, page: WorldPage) -> None:
        self.page = page
        self.shell = page.shell
        self.shapes = MapShapes(MAP_ID, "wc")
        #: the patches last sent to the build-time map, by element id
        self._painted: dict[str, dict[str, Any]] = {}

    def paint(self, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Owners' colours, the choices lit (the others fade), the source and the target."""
        s = self.shell.session
        assert s is not None
        state = s.shown_state()
        choices = set(self.page.draft.choices(state))
        battle = view["battle"]
        out: dict[str, dict[str, Any]] = {"wc-map": {"class": {"has-choices": bool(choices)}}}
        full = self._paint_all(out, state, choices, battle)
        # only what changed since the last paint goes to the DOM: the build-time map keeps
        # what was set, and 42 territories x several browser calls on every render add up
        changed = {k: v for k, v in full.items() if self._painted.get(k) != v}
        self._painted.update(changed)
        return changed

    def _paint_all(self, out: dict[str, dict[str, Any]], state: Any, choices: set[int],
                   battle: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
        for t in range(RULES.size):
            owner = state.owner[t]
            who = "empty" if owner < 0 else f"{self.page.name(owner)}, {plural(state.troops[t], 'troop')}"
            out[f"wc-t{t}"] = {
                "style": {"--owner-fill": self.page.colour(owner) if owner >= 0 else None},
                "class": {
                    "is-eligible": t in choices,
                    "is-source": t == self.page.draft.src or (battle is not None and battle["src"] == t),
                    "is-target": t == self.page.draft.dst or (battle is not None and battle["dst"] == t),
                },
                "attrs": {"aria-label": f"{RULES.names[t]}: {who}" + (", a choice now" if t in choices else "")},
            }
        return out

    def render_marks(self, view: Mapping[str, Any], state: Any) -> Node:
        """Each territory's troops in a badge of the owner's colour; the choices' outlines;
        while a source is picked, the chance of taking each neighbour beside it."""
        labels = self.shapes.labels
        draft = self.page.draft
        # three groups, in drawing order: the outlines come and go with each step's choices,
        # the badges stay in place, so a redraw changes only the badges that changed
        # (dom.py compares the trees place by place; issue 22's speed at a live table)
        lines: list[Node] = []
        for t in sorted(draft.choices(state)):
            lines += self.shapes.outline(t, "choice")
        if draft.src is not None:
            lines += self.shapes.outline(draft.src, "source")
        if draft.dst is not None:
            lines += self.shapes.outline(draft.dst, "target")
        kids: list[Node] = []
        odds: list[Node] = []
        for t in range(RULES.size):
            at = labels.get(t)
            owner = state.owner[t]
            if at is None or owner < 0:
                continue
            x, y = at[0], at[1] + 12
            colour = self.page.colour(owner)
            k = state.troops[t]
            r = 9.0 if k < 100 else 11.0
            kids.append(svg("g",
                            svg("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r=str(r), fill=colour, cls="wc-badge"),
                            svg("text", str(k), x=f"{x:.1f}", y=f"{y:.1f}", fill=ink_on(colour), cls="wc-troops"),
                            data_t=str(t)))
        if draft.src is not None and self.page.acting_person() is not None and state.phase == "attack":
            a = state.troops[draft.src]
            badges = [(lx, ly + 12) for t, (lx, ly) in labels.items() if state.owner[t] >= 0]
            for d in draft.enemy_targets(state, draft.src):
                at = labels.get(d)
                if at is None:
                    continue
                p = world_odds.battle_odds(a, state.troops[d], 1).win
                ox, oy = odds_spot(at[0], at[1] + 12, badges)
                odds.append(svg("text", pct(p), x=f"{ox:.1f}", y=f"{oy:.1f}", cls="wc-map-odds",
                                data_odds=str(d)))
        return svg("g", svg("g", *lines), svg("g", *kids), svg("g", *odds), id="wc-marks-inner")

    def render_choose(self, state: Any) -> Node:
        """The map's choices as a list too: for the keyboard, screen readers and small screens."""
        choices = self.page.draft.choices(state)
        if not choices:
            return h("form", id="wc-choose-form", cls="wc-choose", hidden=True)
        opts = []
        for t in choices:
            owner = state.owner[t]
            who = "empty" if owner < 0 else ("yours" if owner == state.current else self.page.name(owner))
            opts.append((RULES.names[t], t, f"{RULES.names[t]} ({who}, {state.troops[t]})"))
        opts.sort()
        # the list follows the current choice (issue 41: it kept "Afghanistan" from an earlier
        # step while the map was on Alaska): the target picked, else the list's first; a
        # territory zoomed in on or focused on the map is set by mapboard.js (data-map)
        now = self.page.draft.dst if self.page.draft.dst in choices else opts[0][1]
        return h(
            "form",
            h("label", "Choose", for_="wc-choose-t"),
            h("select", *[h("option", label, value=str(t)) for _, t, label in opts], id="wc-choose-t", name="t",
              value=str(now), data_map="wc-map"),
            h("button", "OK", type="submit", cls="small", id="wc-choose-go"),
            id="wc-choose-form", cls="wc-choose",
            on_submit=lambda ev: self.page.draft.chose(ev.fields.get("t", "")),
        )
