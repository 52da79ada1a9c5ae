"""World Conquest's table of players: land, troops, cards and the next reinforcements of each,
and the turn order.

Why a part: the table is what everyone reads of the others between turns (W4: a continent
held shows in the reinforcements it brings); it only reads the view.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ui import Node, h

from conquest.games.world.rules import RULES

if TYPE_CHECKING:
    from . import WorldPage

CONTINENT_NAMES = {c.id: c.name for c in RULES.continents}


class PlayersTable:
    """The players' table's renderer (no state of its own)."""

    def __init__(self, page: WorldPage) -> None:
        self.page = page

    def render(self, view: Mapping[str, Any]) -> Node:
        rows = []
        current = view["current"]
        for info in view["seats"]:
            seat = info["seat"]
            cls = " ".join(c for c in ("is-current" if seat == current and view["outcome"] is None else "",
                                       "" if info["alive"] else "is-out") if c) or None
            conts = ", ".join(CONTINENT_NAMES.get(c, c) for c in info["continents"])
            rows.append(h(
                "tr",
                h("td", h("span", cls="swatch", style=f"background:{self.page.colour(seat)}", aria_hidden="true"), cls="sw"),
                h("th", info["name"], scope="row", cls="wc-name"),
                h("td", str(info["territories"]), cls="num"),
                h("td", str(info["troops"]), cls="num"),
                h("td", str(info["cards"]), cls="num"),
                h("td", f"+{info['reinforcement']}", cls="num", title=conts or None),
                cls=cls,
            ))
        order = " → ".join(self.page.name(s) for s in view["order"]) if view["order"] else "not drawn yet"
        return h(
            "div",
            h("table",
              h("thead", h("tr", h("th", "", scope="col"), h("th", "Player", scope="col"),
                           h("th", "Land", scope="col", title="Territories"), h("th", "Troops", scope="col"),
                           h("th", "Cards", scope="col"), h("th", "Next", scope="col",
                                                             title="Reinforcements at the next turn (W4)"))),
              h("tbody", *rows), cls="data wc-players", id="wc-players"),
            h("p", f"Turn order: {order}. Turn {view['turn']}." if view["turn"] else f"Turn order: {order}.",
              cls="muted"),
            id="wc-seats-inner",
        )
