"""To Reign Supreme's set-up step: the two strategy cards a person lays on the strength tracker.

Why a part: the pick is a secret draft (R10) of its own (``picks``, the cards chosen so far)
with its own panel and handlers; it is handed to the shell as the seat's secret part and
dropped at once, so nothing else on the page ever sees it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ui import Node, h

from conquest.games.reign.actions import Pick

from .symbols import strategy_card

if TYPE_CHECKING:
    from . import ReignPage


class TrackerPick:
    """The set-up draft: the two cards for the tracker, its panel and its confirmation."""

    def __init__(self, page: ReignPage) -> None:
        self.page = page
        self.picks: list[str] = []

    def clear(self) -> None:
        self.picks = []

    def toggle(self, seat: int, code: str) -> None:
        self.page.check_draft(seat)
        if code in self.picks:
            self.picks.remove(code)
        elif len(self.picks) < 2:
            self.picks.append(code)
        else:
            self.picks = [self.picks[1], code]

    def confirm(self, seat: int) -> None:
        page = self.page
        page.check_draft(seat)
        if len(self.picks) != 2:
            page.shell.say("Choose two cards for your strength tracker.", "error")
            return
        codes = page.codec.card_codes
        if page.shell.give_secret(seat, Pick("".join(sorted(self.picks, key=codes.index)))):
            page.reset()

    def render(self, seat: int) -> Node:
        page = self.page
        page.check_draft(seat)
        r = page.rules
        buttons = [strategy_card(i, c, c.code in self.picks, lambda ev, k=c.code: self.toggle(seat, k))
                   for i, c in enumerate(r.cards)]
        hand = [c.name for c in r.cards if c.code not in self.picks]
        return h(
            "section",
            h("h2", f"{page.name(seat)}: set up your strength tracker"),
            h("p", "Lay two of your five Military Strategy cards on the tracker; you battle with the other "
                   "three. The other player chooses at the same time and cannot see your choice.", cls="muted"),
            h("div", *buttons, cls="rg-sc-row", id="rg-pick-cards", role="group", aria_label="Cards for the tracker"),
            h("p", f"In your hand: {', '.join(hand)}" if len(self.picks) == 2 else
              f"Chosen {len(self.picks)} of 2.", id="rg-pick-summary", aria_live="polite"),
            h("button", "Lay these two on the tracker", type="button", id="rg-pick-go",
              disabled=len(self.picks) != 2, on_click=lambda ev: self.confirm(seat)),
            cls="rg-panel", id="rg-pick", aria_label="Tracker cards",
        )
