"""To Reign Supreme's battle choice (R6, R7, R10): a strategy card, purchases, and the live sums.

Why a part: the person choosing in secret builds a draft (``card``, ``counts`` per purchase
kind) that only this part holds; it shows the draft's three sums term by term from the
engine (R7), and hands it to the shell as the seat's secret part, then forgets it. The sums
and their lines are module functions because the reveal (``reveal.py``) spells out both
sides' arithmetic with the same ones.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ui import Node, h

from conquest.games.reign import GAME
from conquest.games.reign.actions import Part
from conquest.games.reign.data import Rules
from conquest.games.reign.state import State

from .symbols import coins, icon, strategy_card

if TYPE_CHECKING:
    from . import ReignPage


def side_sums(r: Rules, st: State, seat: int, card: str | None, counts: Sequence[int]) -> dict[str, Any]:
    """R7's three sums for one side, term by term, from the engine (one place for the arithmetic)."""
    sums: dict[str, Any] = dict(GAME.side_terms(st, seat, r.card_index(card) if card else None, counts))
    sums["cost"] = r.purchase_cost(tuple(counts))
    sums["hired"] = sum(n for kind, n in zip(r.kinds, counts, strict=True) if kind.dies_first)
    return sums


def total(terms: Sequence[tuple[str, int]]) -> int:
    return sum(n for _, n in terms)


def sum_line(kind: str, word: str, terms: Sequence[tuple[str, int]], key: str) -> Node:
    body = " + ".join(f"{n} ({label})" if label[:1].isdigit() else f"{n} {label}" for label, n in terms) or "0"
    return h("p", icon(kind, word), h("strong", f" {word} {total(terms)}", data_total=key),
             h("span", f" = {body}", cls="rg-terms"), cls="rg-sum")


class BattleChoice:
    """The battle draft of the person choosing now, its panel and its hand-over."""

    def __init__(self, page: ReignPage) -> None:
        self.page = page
        #: the battle draft of the person choosing now: a card code and purchases per kind
        self.card: str | None = None
        self.counts: list[int] = [0] * len(page.rules.kinds)

    def clear(self) -> None:
        self.card = None
        self.counts = [0] * len(self.page.rules.kinds)

    def choose_card(self, seat: int, code: str) -> None:
        self.page.check_draft(seat)
        self.card = code

    def buy(self, seat: int, kind: int, delta: int) -> None:
        """One more or one fewer of a purchase kind, within R6 and the seat's Wealth."""
        page = self.page
        page.check_draft(seat)
        counts = list(self.counts)
        counts[kind] += delta
        r = page.rules
        if not 0 <= counts[kind] <= r.max_each or sum(counts) > r.max_total:
            return
        if r.purchase_cost(tuple(counts)) > page.state().players[seat].wealth:
            page.shell.say(f"Not enough Wealth for another {r.kinds[kind].name}.", "error")
            return
        self.counts = counts
        page.shell.clear_message()

    def part(self) -> Part | None:
        if self.card is None:
            return None
        return Part(self.card, self.page.codec.buys(tuple(self.counts)))

    def confirm(self, seat: int) -> None:
        """Hand the draft to the shell as this seat's secret part, then forget it."""
        page = self.page
        page.check_draft(seat)
        part = self.part()
        if part is None:
            page.shell.say("Choose a strategy card first.", "error")
            return
        if page.shell.give_secret(seat, part):
            page.reset()

    def render(self, st: State, seat: int) -> Node:
        page = self.page
        page.check_draft(seat)
        r = page.rules
        name = page.name
        pend = st.battle
        assert pend is not None
        att, dfd = pend.attacker, 1 - pend.attacker
        other = 1 - seat
        p = st.players[seat]
        where = GAME.tname(st, pend.place)
        level = GAME.level(st.players[dfd])
        role = "attack" if seat == att else "defend"
        cards = [strategy_card(i, r.cards[ci], self.card == r.cards[ci].code,
                               lambda ev, k=r.cards[ci].code: self.choose_card(seat, k))
                 for i, ci in enumerate(p.hand)]
        sums = side_sums(r, st, seat, self.card, self.counts)
        cost = sums["cost"]
        o = st.players[other]
        their = ", ".join(r.cards[c].name for c in o.hand)
        return h(
            "section",
            h("h2", f"{name(seat)}: you {role} {where}"),
            h("p", f"{name(att)} attacks, {name(dfd)} defends; ties go to the defender. "
                   "Choose a card and any purchases, then confirm.", cls="muted"),
            h("details",
              h("summary", "How the battle is won, and what the other side could bring"),
              h("p", f"{name(dfd)}'s action level is {level}: winning by more than {level} moves the card "
                     f"{r.steps_big_win} steps, a smaller win {r.steps_win}, a loss that kills "
                     f"{r.casualties_for_step} or more {r.steps_loss}.", cls="muted"),
              h("p", f"What {name(other)} could bring: Military {o.military}, Wealth {o.wealth}, "
                     f"cards {their or 'none'}; bolts of Controlled cards {GAME.bolts(st, other)}.", cls="muted"),
              cls="rg-battle-more"),
            h("h3", "Strategy card"),
            h("div", *cards, cls="rg-sc-row", id="rg-battle-cards", role="group",
              aria_label="Your strategy cards (keys 1 to 3)"),
            h("h3", "Purchases ", h("span", f"(at most {r.max_each} of each, {r.max_total} in all; "
                                          f"the first of a kind costs {r.prices[0]}, the second {r.prices[-1]})",
                                     cls="rg-buys-rule")),
            h("ul", *self.render_buys(seat, p.wealth), cls="rg-buys"),
            h(
                "div",
                h(
                    "div",
                    sum_line("sword", "Attack", sums["attack"], "attack"),
                    sum_line("heart", "Defence", sums["defence"], "defence"),
                    sum_line("bolt", "Damage", sums["damage"], "damage"),
                    h("p", icon("coin", "Cost"), h("strong", f" Cost {coins(cost)}", data_total="cost"),
                      h("span", f" of {p.wealth} Wealth: {p.wealth - cost} left", cls="rg-terms"), cls="rg-sum"),
                    id="rg-totals", cls="rg-totals", aria_live="polite",
                ),
                h("button", "Confirm my choice (secret)", type="button", id="rg-battle-go",
                  disabled=self.card is None, on_click=lambda ev: self.confirm(seat)),
                id="rg-decide", cls="rg-decide",
            ),
            cls="rg-panel rg-battle", id="rg-battle", aria_label="Battle choice",
        )

    def render_buys(self, seat: int, wealth: int) -> list[Node]:
        """A row per purchase kind: its effect, − and + within R6 and the Wealth, the next price."""
        r = self.page.rules
        rows = []
        for k, kind in enumerate(r.kinds):
            n = self.counts[k]
            effect = ", ".join(
                f"+{v} {w}" for v, w in ((kind.attack, "attack"), (kind.defence, "defence"), (kind.damage, "damage")) if v
            )
            nxt = r.prices[n] if n < r.max_each else None
            more = list(self.counts)
            more[k] += 1
            can_add = (
                nxt is not None and sum(self.counts) < r.max_total and r.purchase_cost(tuple(more)) <= wealth
            )
            rows.append(h(
                "li",
                h("span", h("strong", kind.name), h("span", f" {effect}", cls="muted"), cls="rg-buy-name"),
                h("button", "−", type="button", cls="small secondary", data_buy=f"{kind.code}-",
                  aria_label=f"One {kind.name} fewer", disabled=n == 0,
                  on_click=lambda ev, kk=k: self.buy(seat, kk, -1)),
                h("output", str(n), cls="rg-buy-n", data_count=kind.code, aria_label=f"{kind.plural}: {n}"),
                h("button", "+", type="button", cls="small", data_buy=f"{kind.code}+",
                  aria_label=f"One more {kind.name}" + (f" ({coins(nxt)})" if nxt is not None else ""),
                  disabled=not can_add, on_click=lambda ev, kk=k: self.buy(seat, kk, 1)),
                h("span", f"next: {coins(nxt)}" if nxt is not None else f"at most {r.max_each}", cls="rg-buy-next muted"),
                cls="rg-buy",
            ))
        return rows
