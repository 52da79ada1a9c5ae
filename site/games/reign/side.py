"""To Reign Supreme's side panel: each player's strength trackers, action level, hand and discards.

Why a part: the two players' boxes (Wealth and Military on their trackers, R3; the action
level they give, R4; the resupply base; the cards in hand, on the tracker and discarded)
are the table's public record, drawn the same for both seats and read from the view. It
keeps no state.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from shell import plural
from ui import Node, h

from conquest.games.reign import GAME
from conquest.games.reign.state import State

from .symbols import track

if TYPE_CHECKING:
    from . import ReignPage


class StrengthPanel:
    """The two players' strength boxes."""

    def __init__(self, page: ReignPage) -> None:
        self.page = page

    def render(self, view: Mapping[str, Any], st: State) -> Node:
        page = self.page
        r = page.rules
        boxes = []
        for seat in (0, 1):
            p = st.players[seat]
            pv = view["players"][seat]
            total = p.wealth + p.military
            turn = " · to play" if st.phase == "turn" and st.active == seat and not view.get("outcome") else ""
            who = " (computer)" if page.session().seats()[seat].is_bot else ""

            def names(cards: Sequence[int]) -> str:
                return ", ".join(r.cards[c].name for c in cards) or "none"

            boxes.append(h(
                "section",
                h("h2", h("span", cls="swatch", style=f"background:{page.colour(seat)}", aria_hidden="true"),
                  f"{page.name(seat)}{who}{turn}"),
                track("Wealth", "coin", p.wealth, r.max_strength),
                track("Military", "sword", p.military, r.max_strength),
                h("p", f"Wealth + Military {total}: {plural(GAME.level(p), 'action')} a turn (R4)"
                  + (f"; the first player's first turn has {r.first_turn_actions}"
                     if st.phase == "turn" and st.turn == 1 and st.active == seat
                     and GAME.level(p) > r.first_turn_actions else ""),
                  cls="rg-level", data_level=str(GAME.level(p))),
                h("p", f"Resupply to at least {pv['base']['coins']} Wealth and {pv['base']['swords']} Military; "
                       f"Controls {plural(pv['controlled'], 'card')}.", cls="muted"),
                h("p", h("strong", "Hand: "), names(p.hand), cls="rg-hand") if p.tracker else None,
                h("p", h("strong", "Tracker: "), names(p.tracker), " · ", h("strong", "Discarded: "), names(p.discard),
                  cls="muted") if p.tracker else None,
                cls="rg-player", data_seat=str(seat), style=f"--seat:{page.colour(seat)}",
                aria_label=f"{page.name(seat)}'s strength",
            ))
        return h("div", *boxes, id="rg-side-inner")
