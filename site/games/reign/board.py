"""To Reign Supreme's board: the six territory cards, their faces, holders and own buttons.

Why a part: the board is the table itself (R1, R2): each card shows who holds it and how,
both its faces, whose side it lies on, and the actions played on it (Attack, Reform,
Develop), or why a card offers no Attack; the turn's other actions follow under it
(``turn.py``). It keeps no state: it draws the view and the legal actions.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ui import Node, h

from conquest.games.reign import GAME
from conquest.games.reign.actions import Battle, Develop, Reform
from conquest.games.reign.state import State, rel

from .symbols import coins, legend, val

if TYPE_CHECKING:
    from . import ReignPage

SETUP_WORDS = {
    "easy": "Easy: you sit at the long sides, every card is on someone's side",
    "challenging": "Challenging: you sit at the short ends, the middle column is nobody's",
}


def face_row(side: Any, label: str, on: bool) -> Node:
    """One face of a territory card (Influenced or Controlled): its values, lit when it is up."""
    vals = [val("coin", side.coins.value), val("sword", side.swords.value)]
    if side.damage.value:
        vals.append(val("bolt", side.damage.value, signed=True))
    if side.heart.value:
        vals.append(val("heart", side.heart.value, signed=True))
    return h("p", h("span", label, cls="rg-face-label"), *vals, cls="rg-face" + (" is-up" if on else ""))


class TerritoryBoard:
    """The six cards in their grid, the legend, the sides, and the turn's actions below."""

    def __init__(self, page: ReignPage) -> None:
        self.page = page

    def render(self, view: Mapping[str, Any], st: State, seat: int | None, legal: list[Any]) -> Node:
        page = self.page
        if not st.layout:
            return h("div", h("p", "The territory cards are being dealt…"), id="rg-board-inner")
        by_place: dict[int, list[Any]] = {}
        codes = {t.code: i for i, t in enumerate(page.rules.territories)}
        for a in legal:
            if isinstance(a, (Battle, Reform, Develop)):
                by_place.setdefault(st.place_of(codes[a.t]), []).append(a)
        cards = [self.render_territory(view["places"][q], st, q, by_place.get(q, []), seat) for q in range(6)]
        sides = SETUP_WORDS[st.setup]
        return h(
            "div",
            legend(),
            h("div", *cards, cls=f"rg-grid is-{st.setup}", role="list", aria_label="The six territories"),
            h("p", f"{sides}. Top row: {self.side_words(st, 0)}; bottom row: {self.side_words(st, 3)}."
              if st.setup == "easy" else
              f"{sides}. Left column: {page.name(0)}'s side; right column: {page.name(1)}'s side.",
              cls="rg-sides muted"),
            page.turn.render_actions(st, seat, legal),
            id="rg-board-inner",
        )

    def side_words(self, st: State, place: int) -> str:
        side = GAME.side_of(st, place)
        return "nobody's side" if side is None else f"{self.page.name(side)}'s side"

    def why_not_attack(self, st: State, q: int, seat: int) -> str:
        """Why a card offers no Attack to the person whose turn it is (issue 21, item 5): a
        card that says nothing looks broken."""
        if st.actions_left <= 0:
            return "No actions left this turn (R4)."
        mine = rel(st.ladder[q], seat)
        if mine == 3:
            return "You Control it: nothing to attack (R2)."
        if mine == 2:
            return "You Influence it: Develop it to Control it (R2)."
        if not GAME.in_reach(st, seat, q):
            return "Out of reach: not on your side nor next to a card you Control (R1)."
        return ""

    def render_territory(self, item: Mapping[str, Any], st: State, q: int, acts: list[Any],
                         seat: int | None = None) -> Node:
        page = self.page
        name = page.name
        r = page.rules
        t = r.territories[st.layout[q]]
        holder = st.holder(q)
        controlled = bool(item["controlled"])
        kind = "Controlled" if controlled else "Influenced"
        buttons = []
        for a in acts:
            if isinstance(a, Battle):
                label, tip = "Attack", "declare a battle"
            elif isinstance(a, Reform):
                label, tip = f"Reform ({coins(GAME.reform_cost(st, st.active))})", "Influence it without battle"
            else:
                label, tip = f"Develop ({coins(r.develop.value)})", "turn your Influence into Control"
            buttons.append(h("button", label, type="button", cls="small", data_action=str(a),
                             aria_label=f"{label}: {t.name}, {tip}", on_click=lambda ev, x=a: page.play(x)))
        why = ""
        if seat is not None and st.phase == "turn" and not any(isinstance(a, Battle) for a in acts):
            why = self.why_not_attack(st, q, seat)
        side = GAME.side_of(st, q)
        fresh = " (new: its values count from the end of the turn)" if q in st.fresh else ""
        last = st.last is not None and st.last.place == q
        return h(
            "div",
            h("h3", t.name),
            h("p", h("span", kind, cls="rg-badge"), f" by {name(holder)}{fresh}", cls="rg-state"),
            face_row(t.influenced, "Influenced", not controlled),
            face_row(t.controlled, "Controlled", controlled),
            h("p", "nobody's side" if side is None else f"{name(side)}'s side", cls="rg-sidetag muted"),
            h("div", *buttons, cls="rg-card-acts") if buttons else None,
            h("p", why, cls="rg-why muted") if why else None,
            role="listitem", cls=f"rg-card is-{kind.lower()}" + (" is-last" if last else ""),
            data_place=str(q), data_rung=str(st.ladder[q]), data_territory=t.code,
            style=f"--holder:{page.colour(holder)}", aria_label=f"{t.name}: {kind} by {name(holder)}",
        )
