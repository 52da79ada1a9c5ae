"""World Conquest's cards: the person's hand, the next trade's value, and the sets they may
trade now, in the cards box and offered again in the placing panel.

Why a part: the cards (W5) are their own matter beside the map: a hand that is secret to the
others, a value that grows with each trade, and the trade itself, which the person makes
while placing reinforcements; the panel asks this part for its offer.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shell import plural
from ui import Node, h

from conquest.games.world import GAME
from conquest.games.world.actions import Trade
from conquest.games.world.rules import CARD_KINDS, CARD_NAMES

if TYPE_CHECKING:
    from . import WorldPage

SET_WORDS = {"iii": "three infantry", "ccc": "three cavalry", "aaa": "three artillery", "ica": "one of each kind"}
#: a card's picture: a letter big enough to read at 360 px, with the kind's name beside it
CARD_MARK = {"i": "I", "c": "C", "a": "A"}


class Hand:
    """The cards' renderers; a trade is played through the draft's handler."""

    def __init__(self, page: WorldPage) -> None:
        self.page = page
        self.shell = page.shell

    def render(self, view: Mapping[str, Any]) -> Node:
        """The person's hand, the next trade's value and the sets they may trade now."""
        hand = view["hand"]
        value = view["next_trade_value"]
        head = h("p", f"Next trade: {value} troops (trades so far: {view['trades']}). Deck: {view['deck']} cards.",
                 id="wc-next-trade")
        if hand is None:
            return h("div", h("h2", "Cards"), head,
                     h("p", "Hands are secret: each player's count is in the table.", cls="muted"),
                     id="wc-cards-inner")
        cards = []
        for kind, cname in zip(CARD_KINDS, CARD_NAMES, strict=True):
            for _ in range(hand[kind]):
                cards.append(h("li", h("span", CARD_MARK[kind], cls="wc-card-mark", aria_hidden="true"),
                               h("span", cname, cls="wc-card-name"), cls=f"wc-card is-{kind}"))
        s = self.shell.session
        assert s is not None
        can = set()
        if self.page.acting_person() == view["viewer"] and view["phase"] == "reinforce" and s.viewing is None:
            can = {str(a)[1:] for a in GAME.legal_actions(s.match.state) if isinstance(a, Trade)}
        trades = [
            h("button", f"Trade {SET_WORDS[st]} for {value}", type="button", id=f"wc-trade-{st}",
              disabled=st not in can, on_click=lambda ev, x=st: self.page.draft.trade(x))
            for st in view["sets"]
        ]
        note = None
        if view["sets"] and not can:
            note = h("p", "Sets are traded while placing reinforcements, at the start of your turn (W5).", cls="muted")
        return h(
            "div",
            h("h2", f"Your cards ({sum(hand.values())})"),
            h("ul", *cards, cls="wc-hand", id="wc-hand") if cards else h("p", "No cards yet: conquer a territory "
                                                                         "in a turn to draw one.", cls="muted"),
            head,
            h("div", *trades, cls="wc-trades") if trades else None,
            note,
            id="wc-cards-inner",
        )


    def trade_offer(self, view: Mapping[str, Any]) -> Node | None:
        """The sets the person may trade now, offered in the placing panel itself (item 1): the
        cards box further down is not where someone placing troops looks."""
        s = self.shell.session
        assert s is not None
        if s.viewing is not None or self.page.acting_person() != view["viewer"] and view["viewer"] is not None:
            return None
        can = [str(a)[1:] for a in GAME.legal_actions(s.match.state) if isinstance(a, Trade)]
        if not can:
            return None
        value = view["next_trade_value"]
        return h(
            "div",
            h("p", f"You may trade a set of cards for {plural(value, 'more troop')} now (W5):", id="wc-trade-note"),
            h("div", *[h("button", f"Trade {SET_WORDS[st]} for {value}", type="button", id=f"wc-panel-trade-{st}",
                         cls="secondary", on_click=lambda ev, x=st: self.page.draft.trade(x)) for st in can],
              cls="wc-trades"),
            cls="wc-trade-offer",
        )
