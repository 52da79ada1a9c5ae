"""The Short Campaign's scoreboard beside the map, and the final table when the game is over.

Why a part: the scores are what everyone reads between questions (points, territories, the
Base's towers, who acts, the attack order, the questions asked so far); the final table is
the same players' standings when the game ends. Both only read the view.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shell import plural
from ui import Node, h

from conquest.games.campaign.engine import rules

if TYPE_CHECKING:
    from . import CampaignPage


class Scores:
    """The scoreboard's and the final table's renderers (no state of their own)."""

    def __init__(self, page: CampaignPage) -> None:
        self.page = page
        self.shell = page.shell

    def render_final(self, view: Mapping[str, Any]) -> Node:
        players = sorted(view["players"], key=lambda p: (p["seat"] != view["winner"], -p["points"], p["seat"]))
        rows = [
            h("tr", h("td", str(i + 1)),
              h("td", h("span", cls="swatch", style=f"background:{self.page.seat_colour(p['seat'])}", aria_hidden="true"),
                f" {p['name']}"),
              h("td", f"{p['points']:,}"), h("td", str(p["territories"])),
              h("td", "winner" if p["seat"] == view["winner"] else ("out" if not p["alive"] else "")))
            for i, p in enumerate(players)
        ]
        reason = view["outcome"]["reason"] if view.get("outcome") else ""
        return h(
            "section",
            h("h2", f"{self.page.name(view['winner'])} wins with {view['players'][view['winner']]['points']:,} points"),
            h("p", reason, cls="muted"),
            h("table", h("thead", h("tr", *[h("th", x) for x in ("#", "Player", "Points", "Territories", "")])),
              h("tbody", *rows), cls="data"),
            cls="cp-final", id="cp-final",
        )

    def render(self, view: Mapping[str, Any]) -> Node:
        """The scoreboard: points, territories, the Base's towers, who acts; the phase."""
        s = self.shell.session
        assert s is not None
        acting = set(view["answering"]) if view["phase"] == "answer" else {view["to_move"]}
        rows = []
        for p in view["players"]:
            seat = p["seat"]
            who = s.seats()[seat].who if seat < len(s.seats()) else ""
            towers = p["towers"]
            if p["base"] is None or p["base"] < 0:
                castle = "—"
            elif not p["alive"]:
                castle = "out"
            else:
                castle = "♜" * towers + "·" * (rules().towers - towers)
            rows.append(h(
                "tr",
                h("td", h("span", cls="swatch", style=f"background:{self.page.seat_colour(seat)}", aria_hidden="true"),
                  cls="sw"),
                h("td", p["name"],
                  h("span", " ◀", aria_label=" acts now") if seat in acting and view["outcome"] is None else None,
                  h("span", f"computer, {who}", cls="cp-bot") if self.page.is_bot(seat) else None),
                h("td", f"{p['points']:,}", cls="num"),
                h("td", str(p["territories"]), cls="num"),
                h("td", castle, aria_label=f"{towers} of {rules().towers} towers standing" if p["alive"] else "out"),
                cls=" ".join(c for c in ("is-acting" if seat in acting else "", "is-out" if not p["alive"] else "") if c)
                or None,
                data_seat=str(seat),
            ))
        if view["phase"] == "over":
            phase = "The game is over"
        elif view["battle_round"]:
            phase = f"Battle round {view['battle_round']} of {view['battle_rounds']}"
        elif view["expansion_round"]:
            phase = f"Expansion round {view['expansion_round']}"
        else:
            phase = "The Bases are drawn"
        order = None
        if view["order"] and view["phase"] not in ("over",):
            items = [h("li", self.page.name(x), cls="is-now" if view["turn"] == k else None) for k, x in enumerate(view["order"])]
            order = h("div", h("p", "Attack order:", cls="cp-order-head"), h("ol", *items, cls="cp-order"))
        qs = view["questions"]
        return h(
            "div",
            h("table",
              h("caption", phase, id="cp-phase"),
              h("thead", h("tr", h("th", h("span", "Colour", cls="visually-hidden"), cls="sw"), h("th", "Player"),
                           h("th", "Points", cls="num"), h("th", "Land", cls="num", title="territories"),
                           h("th", "Base", title="towers standing"))),
              h("tbody", *rows),
              cls="data cp-score", id="cp-score"),
            order,
            h("p", f"{plural(qs['asked'], 'question')} asked so far; the game draws from "
                   f"{qs['multiple_choice']:,} multiple-choice and {qs['guess']:,} guess questions, none twice.",
              cls="muted cp-qcount"),
            h("p", "This game was played with questions from an earlier edition of the question bank "
                   f"({qs['earlier_edition']:,} of the {plural(qs['asked'], 'question')} asked): they are shown "
                   "as they were asked. New questions come from the current bank.",
              cls="cp-edition", id="cp-edition") if qs.get("earlier_edition") else None,
            id="cp-side-inner",
        )
