"""To Reign Supreme's pictures and small words: the four symbols, a value beside its symbol, trackers.

Why a part: every other part draws numbers with the four symbols of the cards (coins, swords,
hearts, bolts), so the symbols, their words and meanings, a strategy card's values and a
strength tracker row are drawn here, once, as plain functions of their values (no state).
"""
from __future__ import annotations

from typing import Any

from shell import plural
from ui import Node, h, svg

#: words of the four symbols the seed lost (rulings, "R." preamble)
SYMBOLS = {"coin": "coins", "sword": "swords", "heart": "defence (hearts)", "bolt": "damage (bolts)"}
#: what each symbol means, for the tap-to-explain legend (issue 41: a touch screen never shows
#: the hover titles that said it)
MEANINGS = {
    "coin": "Coins, Wealth. A territory's coins count towards your Wealth at the resupply; a strategy "
            "card's coins are earned for each casualty it inflicts; purchases cost coins.",
    "sword": "Swords, Military and attack. A territory's swords count towards your Military at the resupply; "
             "a strategy card's swords add to its attack.",
    "heart": "Hearts, defence. Each one stops a casualty; a card you Control defends itself with its hearts.",
    "bolt": "Bolts, damage. Each one can cause a casualty; the bolts of the cards you Control join every "
            "battle you fight.",
}


def icon(kind: str, label: str | None = None) -> Node:
    """One of the four symbols as SVG, with its words as the text alternative."""
    words = label or SYMBOLS[kind]
    shapes: list[Node]
    if kind == "coin":
        shapes = [svg("circle", cx=8, cy=8, r=6.5, fill="#f2c14e", stroke="#8a6a12", stroke_width=1.3),
                  svg("circle", cx=8, cy=8, r=3.6, fill="none", stroke="#8a6a12", stroke_width=1)]
    elif kind == "sword":
        shapes = [svg("path", d="M13.5 2.5 L6 10 M4.2 8.2 L7.8 11.8 M5.5 10.5 L2.5 13.5",
                      stroke="#39424e", stroke_width=1.8, stroke_linecap="round", fill="none")]
    elif kind == "heart":
        shapes = [svg("path", d="M8 14 C2 9.5 1 6.5 3.3 4.2 C5.2 2.5 7.3 3.3 8 5 C8.7 3.3 10.8 2.5 12.7 4.2 "
                                "C15 6.5 14 9.5 8 14 Z", fill="#c0392b")]
    else:
        shapes = [svg("path", d="M9.5 1 L3 9 H7 L6 15 L13 6.5 H9 Z", fill="#6c4bb4")]
    return svg("svg", svg("title", words), *shapes, viewBox="0 0 16 16", width=16, height=16,
               cls=f"rg-icon rg-{kind}", role="img", aria_label=words)


def val(kind: str, n: int, signed: bool = False) -> Node:
    """A number beside its symbol: ``(coin) 2``."""
    return h("span", icon(kind), h("span", f"{n:+d}" if signed else str(n)), cls="rg-val",
             title=f"{n} {SYMBOLS[kind]}")


def coins(n: int) -> str:
    return plural(n, "coin")


def legend() -> Node:
    """The four symbols' meanings behind one tap (a ``<details>``; its summary is a 44 px target)."""
    return h(
        "details",
        h("summary", "What ", *[icon(k) for k in ("coin", "sword", "heart", "bolt")], " mean", id="rg-legend-open"),
        h("dl", *[x for k in ("coin", "sword", "heart", "bolt")
                  for x in (h("dt", icon(k), f" {SYMBOLS[k].capitalize()}"), h("dd", MEANINGS[k], data_symbol=k))],
          cls="rg-legend-list"),
        id="rg-legend", cls="rg-legend",
    )


def track(label: str, kind: str, n: int, hi: int) -> Node:
    """A strength tracker row: ``Wealth (coin) 5`` and ``hi`` cells, ``n`` of them filled."""
    cells = [svg("rect", x=i * 10 + 1, y=1, width=8, height=12, rx=2,
                 cls="rg-cell is-on" if i < n else "rg-cell") for i in range(hi)]
    return h(
        "div",
        h("span", label, cls="rg-track-label"),
        val(kind, n),
        svg("svg", svg("title", f"{label} {n} of {hi}"), *cells, viewBox=f"0 0 {hi * 10} 14",
            cls="rg-track-cells", role="img", aria_label=f"{label} {n} of {hi}"),
        cls="rg-track",
    )


def card_values(c: Any) -> Node:
    """A strategy card's four values with their symbols (R9)."""
    return h("span", val("sword", c.attack.value), val("heart", c.defence.value), val("bolt", c.damage.value),
             h("span", val("coin", c.coins.value), " per casualty", cls="rg-per"), cls="rg-sc-vals")


def strategy_card(i: int, c: Any, on: bool, choose: Any) -> Node:
    """A strategy card as a toggle button (the set-up's tracker pick and the battle's card):
    its place (the key that chooses it), its name and values; ``choose`` is its click."""
    return h(
        "button",
        h("span", f"{i + 1}. {c.name}", cls="rg-sc-name"),
        card_values(c),
        type="button", cls="rg-sc" + (" is-on" if on else ""), aria_pressed="true" if on else "false",
        data_card=c.code, on_click=choose,
    )
