"""To Reign Supreme's turn: the turn's decision, its actions, the defender's answer to an attack.

Why a part: in the turn phase (R4, R5) the person at the device chooses among the actions
the engine lists (Recruit, Disband, Recover, War Council, Reallocate, Restructure, ending
the turn) and sees why the ones not offered are not (issue 21, item 5); when attacked, the
defender may Restructure first (the respond step). These panels share the action buttons
and the Restructure button; the Reallocate draft is a part of its own (``reallocate.py``).
They keep no state: they draw the legal actions and play the one tapped.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shell import plural, tap_word
from ui import Node, h

from conquest.games.reign import GAME
from conquest.games.reign.actions import (
    Disband,
    EndTurn,
    Fight,
    Reallocate,
    Recover,
    Recruit,
    Restructure,
    WarCouncil,
)
from conquest.games.reign.state import State

from .symbols import coins

if TYPE_CHECKING:
    from . import ReignPage


class TurnPanel:
    """The turn's decision on the stage, its actions under the board, and the respond step."""

    def __init__(self, page: ReignPage) -> None:
        self.page = page

    def render_turn(self, st: State, seat: int, legal: list[Any]) -> Node:
        """The turn's decision in words, under the last result: the cards' own buttons follow
        right below; with no action left, ending the turn is right here (issue 41)."""
        page = self.page
        end = next((a for a in legal if isinstance(a, EndTurn)), None)
        if st.actions_left:
            words = f"{tap_word(page.shell.host)} Attack, Reform or Develop on a card below."
        else:
            words = "Or first Restructure (no action), under the cards."
        return h(
            "section",
            h("h2", f"Your turn, {page.name(seat)}: {plural(st.actions_left, 'action')} left"),
            h("p", words, cls="muted"),
            h("button", "End the turn", type="button", id="rg-end-now", cls="secondary",
              on_click=lambda ev, x=end: page.play(x)) if end is not None and not st.actions_left else None,
            cls="rg-panel rg-turn", id="rg-turn", aria_label="Your turn",
        )

    def render_actions(self, st: State, seat: int | None, legal: list[Any]) -> Node | None:
        if seat is None or st.phase != "turn":
            return None
        page = self.page
        r = page.rules
        p = st.players[seat]
        main: list[Node] = []
        more: list[Node] = []
        for a in legal:
            if isinstance(a, Recruit):
                main.append(self.action_button(a, f"Recruit {a.n} ({coins(a.n * r.recruit_rate.value)})"))
            elif isinstance(a, Disband):
                main.append(self.action_button(a, f"Disband {a.n} (+{coins(a.n * r.disband_rate.value)})"))
            elif isinstance(a, Recover):
                main.append(self.action_button(
                    a, f"Recover (+{r.recover_coins.value} Wealth, +{r.recover_military.value} Military)"))
            elif isinstance(a, WarCouncil):
                names = " and ".join(r.cards[r.card_index(c)].name for c in a.cards)
                more.append(self.action_button(a, f"War Council: take back {names}"))
        if any(isinstance(a, Reallocate) for a in legal):  # before the (many) Restructures
            more.append(page.reallocation.render(st, seat))
        more.extend(self.restructure_button(st, a) for a in legal if isinstance(a, Restructure))
        end = next((a for a in legal if isinstance(a, EndTurn)), None)
        if st.actions_left:
            main.extend(self.unavailable(st, seat, legal, ("recruit", "disband")))
        more.extend(self.unavailable(st, seat, legal, ("war-council", "reallocate", "restructure")))
        return h(
            "section",
            h("h2", f"Your turn, {page.name(seat)}: {plural(st.actions_left, 'action')} left"),
            h("p", f"Wealth {p.wealth}, Military {p.military}. Attack, Reform or Develop a card above, or:",
              cls="muted") if st.actions_left else
            h("p", "No actions left: Restructure (no action) or end the turn.", cls="muted"),
            h("div", *main, cls="rg-row") if main else None,
            h("details", h("summary", f"More: War Council, Reallocate, Restructure "
                                      f"({sum(1 for x in more if x.tag == 'button' or x.tag == 'fieldset')} possible)"),
              h("div", *more, cls="rg-row"), cls="rg-more", id="rg-more") if more else None,
            h("p", h("button", "End the turn", type="button", id="rg-end", cls="secondary",
                     on_click=lambda ev, x=end: page.play(x))) if end is not None else None,
            cls="rg-panel rg-actions", id="rg-actions", aria_label="Actions",
        )

    def unavailable(self, st: State, seat: int, legal: list[Any], kinds: Sequence[str]) -> list[Node]:
        """The actions of ``kinds`` the person cannot take now, each saying why (issue 21, item
        5: a Recruit button or a "More" section that vanishes with no reason looks broken)."""
        r = self.page.rules
        p = st.players[seat]
        has = {type(a) for a in legal}
        why: list[tuple[str, str]] = []
        no_action = "no actions left (R4)" if st.actions_left <= 0 else ""
        if "recruit" in kinds and Recruit not in has:
            least = min(r.recruit_amounts.values)  # R5: the smallest amount the game's edition lists
            why.append(("Recruit", no_action or (f"Military is at most {r.max_strength} (R3)"
                        if p.military + least > r.max_strength else
                        f"needs {coins(least * r.recruit_rate.value)}; you have {p.wealth} Wealth (R5)")))
        if "disband" in kinds and Disband not in has:
            why.append(("Disband", no_action or ("no Military to disband (R5)" if p.military <= 0 else
                        f"Wealth is at most {r.max_strength} (R3)")))
        if "war-council" in kinds and WarCouncil not in has:
            why.append(("War Council", no_action or "no discarded strategy cards to take back (R5)"))
        if "reallocate" in kinds and Reallocate not in has:
            infl = len(st.influenced())
            why.append(("Reallocate", no_action or (f"needs {coins(r.reallocate.value)}; you have {p.wealth} Wealth (R5)"
                        if p.wealth < r.reallocate.value else
                        f"needs two Influenced cards to rearrange; there {'is' if infl == 1 else 'are'} {infl} (R5)")))
        if "restructure" in kinds and Restructure not in has:
            why.append(("Restructure", f"needs {coins(r.restructure.value)}; you have {p.wealth} Wealth (R5)"
                        if p.wealth < r.restructure.value else "no strategy cards in hand (R5)"))
        return [h("span", h("button", name, type="button", cls="small secondary", disabled=True,
                            aria_describedby=f"rg-why-{name.lower().replace(' ', '-')}"),
                  h("span", f" {reason}", cls="muted", id=f"rg-why-{name.lower().replace(' ', '-')}"),
                  cls="rg-unavailable", data_unavailable=name)
                for name, reason in why]

    def action_button(self, a: Any, label: str) -> Node:
        return h("button", label, type="button", cls="small", data_action=str(a),
                 on_click=lambda ev, x=a: self.page.play(x))

    def restructure_button(self, st: State, a: Restructure) -> Node:
        r = self.page.rules
        names = " and ".join(r.cards[r.card_index(c)].name for c in a.tracker)
        return h("button", f"Restructure: {names} on the tracker ({coins(r.restructure.value)})", type="button",
                 cls="small secondary", data_action=str(a), on_click=lambda ev, x=a: self.page.play(x))

    def render_respond(self, st: State, seat: int | None, legal: list[Any]) -> Node:
        page = self.page
        pend = st.battle
        assert pend is not None
        where = GAME.tname(st, pend.place)
        head = h("h2", f"{page.name(pend.attacker)} attacks {where}")
        if seat is None:
            return h("section", head, h("p", f"{page.name(1 - pend.attacker)} decides whether to Restructure first…"),
                     cls="rg-panel", id="rg-respond")
        cost = page.rules.restructure.value
        restr = [a for a in legal if isinstance(a, Restructure)]
        return h(
            "section",
            head,
            h("p", f"{page.name(1 - pend.attacker)}: fight as you stand, or first Restructure Military "
                   f"({coins(cost)}): put other cards on your tracker, to keep a card for this battle.", cls="muted"),
            h("button", "Fight as we stand", type="button", id="rg-fight", on_click=lambda ev: page.play(Fight())),
            h("details", h("summary", f"Restructure first ({plural(len(restr), 'way')}, {coins(cost)})"),
              h("div", *[self.restructure_button(st, a) for a in restr], cls="rg-row"),
              cls="rg-more", id="rg-restructure") if restr else None,
            cls="rg-panel", id="rg-respond",
        )
