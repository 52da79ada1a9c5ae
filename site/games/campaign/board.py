"""The Short Campaign's map: the build-time SVG recoloured, the layer of values and castles
over it, the same choices as a list under it, and the picks on either.

Why a part: the map turns the view into paints and marks and a person's pick into the
engine's action (``Pick`` in the expansion, ``Attack`` in a battle); which territories are a
choice now is its to say, and the stage and the prompt ask it. The map's shapes are read
once, through the shared :class:`map_outline.MapShapes` (World Conquest outlines its map
the same way).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from map_outline import MapShapes
from shell import plural
from ui import Node, h, svg

from conquest.games.campaign import GAME
from conquest.games.campaign.actions import Attack, Pick
from conquest.games.campaign.engine import rules

if TYPE_CHECKING:
    from . import CampaignPage

#: the map drawn by the template (build time); another map in a link is played from the list
MAP_ID = "campaign15"


class Board:
    """The map's paints, marks and choices, and the handler of a pick."""

    def __init__(self, page: CampaignPage) -> None:
        self.page = page
        self.shell = page.shell
        self.shapes = MapShapes(MAP_ID, "cp")

    def choices(self, view: Mapping[str, Any]) -> list[int]:
        """Territories a person at this device may pick now (none for bots, none when locked)."""
        s = self.shell.session
        if s is None or s.locked():
            return []
        seat = view["to_move"]
        if seat is None or self.page.is_bot(seat):
            return []
        if view["phase"] == "pick":
            return list(view["pickable"])
        if view["phase"] == "attack":
            return list(view["targets"])
        return []


    def pick(self, index: int) -> None:
        """A territory was picked on the map (click, tap, Enter) or in the list."""
        s = self.shell.session
        if s is None:
            return
        state = s.shown_state()
        view = GAME.view(state, None)
        if not 0 <= index < len(view["territories"]):
            return
        choices = self.choices(view)
        if index not in choices:
            t = view["territories"][index]
            owner = "free" if t["owner"] < 0 else f"held by {self.page.name(t['owner'])}"
            why = " This copy is read-only." if s.locked() else " It is not a choice now."
            self.shell.say(f"{t['name']}: {owner}, worth {t['value']:,}.{why}")
            return
        self.shell.play(Pick(index) if view["phase"] == "pick" else Attack(index))


    def render_choose(self, view: Mapping[str, Any]) -> Node:
        """The choices of the map as a list: for keyboards, screen readers and small screens."""
        choices = self.choices(view)
        if not choices:
            return h("div", id="cp-choose-inner", hidden=True)
        terr = view["territories"]
        buttons = []
        for t in sorted(choices, key=lambda x: terr[x]["name"]):
            info = terr[t]
            if view["phase"] == "pick":
                label = info["name"]
            elif info["base_of"] is not None and not info["demolished"]:
                label = f"{info['name']} ({self.page.name(info['owner'])}'s Base, {plural(info['towers'], 'tower')})"
            else:
                label = f"{info['name']} ({self.page.name(info['owner'])}, {info['value']:,})"
            buttons.append(h("button", label, type="button", cls="small", data_index=str(t),
                             on_click=lambda ev, x=t: self.pick(x)))
        verb = "Take" if view["phase"] == "pick" else "Attack"
        # what to act on next (issue 41): the choices, here or on the map above
        return h("div", h("span", f"{verb}:", cls="cp-choose-verb"), *buttons, id="cp-choose-inner", cls="cp-choose",
                 data_now="next")

    # -- the map: paints of the build-time SVG, and the layer of points and towers ----------------
    def paint(self, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Owners' colours, the choices (the others fade) and the territory under attack."""
        if view["map"] != MAP_ID:
            return {}
        choices = set(self.choices(view))
        attack = view["attack"]
        # the chooser's own land keeps its colour while the others fade (item 4: faded, it
        # looked like free land)
        me = view.get("to_move") if choices else None
        out: dict[str, dict[str, Any]] = {"cp-map": {"class": {"has-choices": bool(choices)}}}
        for info in view["territories"]:
            t, owner = info["index"], info["owner"]
            who = "free" if owner < 0 else self.page.name(owner)
            extra = ""
            if info["base_of"] is not None:
                extra = (f", {self.page.name(info['base_of'])}'s Base, demolished" if info["demolished"]
                         else f", {self.page.name(info['base_of'])}'s Base, {plural(info['towers'], 'tower')} standing")
            out[f"cp-t{t}"] = {
                "style": {"--owner-fill": self.page.seat_colour(owner) if owner >= 0 else None},
                "class": {
                    "is-eligible": t in choices,
                    "is-target": attack is not None and attack["target"] == t,
                    "is-base": info["base_of"] is not None,
                    "is-mine": me is not None and owner == me,
                },
                "attrs": {"aria-label": f"{info['name']}: {who}, worth {info['value']:,}{extra}"
                          + (", a choice now" if t in choices else "")},
            }
        return out


    def render_marks(self, view: Mapping[str, Any]) -> Node:
        """The choices' and the target's outlines; each held territory's value under its name;
        a Base's castle with its towers."""
        kids: list[Node] = []
        if view["map"] == MAP_ID:
            for t in sorted(self.choices(view)):
                kids += self.shapes.outline(t, "choice")
            if view["attack"] is not None:
                kids += self.shapes.outline(view["attack"]["target"], "target")
            for info in view["territories"]:
                at = self.shapes.label_at(info["index"])
                if at is None or (info["owner"] < 0 and info["base_of"] is None):
                    continue
                x, y = at
                kids.append(svg("text", f"{info['value']:,}", x=f"{x:.1f}", y=f"{y + 14:.1f}", cls="cp-value"))
                if info["base_of"] is not None:
                    kids.append(self.castle(x, y - 22, info["towers"] or 0))
        return svg("g", *kids, id="cp-marks-inner")

    @staticmethod
    def castle(x: float, y: float, standing: int) -> Node:
        """Three towers on a wall: standing ones full height, fallen ones as stumps."""
        parts: list[Node] = [svg("rect", x=f"{x - 11:.1f}", y=f"{y + 4:.1f}", width=22, height=6, cls="cp-wall")]
        for k in range(rules().towers):
            tx = x - 11 + k * 8
            if k < standing:
                parts.append(svg("rect", x=f"{tx:.1f}", y=f"{y - 6:.1f}", width=6, height=10, cls="cp-tower"))
            else:
                parts.append(svg("rect", x=f"{tx:.1f}", y=f"{y + 1:.1f}", width=6, height=3, cls="cp-tower is-fallen"))
        return svg("g", *parts, cls="cp-castle" + ("" if standing else " is-demolished"))
