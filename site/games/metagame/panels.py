"""The side panel's read-outs: the invasion under way, the players' table, the final standings.

Why a part: these show the engine's view (``GAME.view``) and hold no state of their own. The
invasion panel places the others' pieces where a person needs them: the wheel right under
its heading, near Spin (item 8), then the slices' form, then the numbers in words (issue 41).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ui import Node, h

#: why a campaign ended, by the view's ``ended``
REASONS = {
    "last": "one player is left",
    "majority": "a player holds more than 75% of the map",
    "agreement": "the host recorded a mutual agreement",
}


class InvasionPanel:
    """The invasion under way: who invades what, the wheel, the slices, the numbers."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.shell = page.shell

    def render(self, state: Any, view: Mapping[str, Any]) -> Node:
        inv = view["invasion"]
        s = self.shell.session
        assert s is not None
        if inv is None:
            return h("div", id="mg-invasion")
        pl = view["players"]
        a, d = pl[inv["attacker"]]["name"], pl[inv["defender"]]["name"]
        kids: list[Any] = [
            h("h3", f"{a} invades {inv['target_name']} of {d}" + (" (capital!)" if inv["capital"] else "")),
        ]
        # the wheel right under the heading, near Spin: in view when the host spins (item 8)
        if inv["wheel"]:
            kids.extend(self.page.wheel.render(view))
        numbers = h("ul", *[h("li", line) for line in self.explain(inv)], cls="mg-numbers", id="mg-numbers")
        names = [g.get("title") or g["name"] for g in view["games"]]
        for side, who in (("a", a), ("d", d)):
            alloc = inv["slices"][side]
            if alloc:
                kids.append(h("p", f"{who} assigned: " + ", ".join(f"{names[g]} {n}" for g, n in alloc), cls="mg-msg"))
        if view["phase"] in ("slices_a", "slices_d") and not s.locked():
            kids.append(self.page.draft.render(state, view))
        # under the form (issue 41: eight lines of numbers stood between the invasion's heading
        # and the form the person fills in, pushing it off a phone's screen)
        kids.append(numbers)
        held = sorted(getattr(s, "held", ()))
        if held and view["phase"] == "slices_a":
            names_held = " and ".join(pl[i]["name"] for i in held if 0 <= i < len(pl))
            mine = s.mode == "guest" and s.only_seat in held
            kids.append(h("p", ("Your slices are in. " if mine else f"{names_held} assigned their slices ahead, on "
                                "their own device; they are shown once played. ")
                          + f"The wheel is drawn once {a} has assigned too (M9).", cls="mg-msg ok", id="mg-held",
                          role="status"))
        return h("div", *kids, id="mg-invasion")

    @staticmethod
    def explain(inv: Mapping[str, Any]) -> list[str]:
        """The engine's lines of the invasion's numbers, with ``m`` said in words before the
        first formula that uses it (issue 41: the panel showed "ZA = m x nA" and never said
        what m is)."""
        lines = list(inv["explain"])
        m = inv["numbers"]["m"]
        words = (f"m = {m}: the target is {'' if m == 2 else 'not '}the defender's capital "
                 "(m is 2 for a capital, else 1), and the slices and caps are multiplied by it (M6)")
        at = next((i for i, line in enumerate(lines) if " m x " in line or "= m x" in line), len(lines))
        lines.insert(at, words)
        return lines

    @staticmethod
    def drawn_note(view: Mapping[str, Any]) -> str:
        """Before a re-spin choice, which game the wheel drew (the choice depends on it)."""
        inv = view["invasion"]
        if view["phase"] not in ("respin_a", "respin_d") or not inv or not inv["spins"]:
            return ""
        sp = inv["spins"][-1]
        titles = {g["index"]: g.get("title") or g["name"] for g in view["games"]}
        return f"Drawn: {titles.get(sp['game'], sp['name'])}. "


def render_players(view: Mapping[str, Any]) -> Node:
    """The players in turn order: territories, tokens, who is to play, who is out."""
    rows = []
    for p in view["players"]:
        current = p["seat"] == view["to_move"] and view["outcome"] is None
        name = p["name"] + (" ★" if p["capital"] is not None else "") + (" ◀ to play" if current else "")
        cls = " ".join(c for c in ("is-current" if current else "", "is-out" if not p["alive"] else "") if c)
        rows.append(h("tr", h("td", h("span", cls="swatch", style=f"background:{p['colour']}"), cls="sw"),
                      h("td", name), h("td", f"{p['territories']} ({p['share']}%)"),
                      h("td", str(p["block"])), h("td", str(p["respin"])), cls=cls or None))
    pool = view["pool"]
    note = "unlimited" if pool["size"] is None else f"{pool['block_free']} block, {pool['respin_free']} re-spin left"
    return h(
        "table",
        h("caption", f"Players in turn order · {view['majority']} territories end the game · tokens in the pool: {note}"),
        h("thead", h("tr", h("th", h("span", "Colour", cls="visually-hidden"), cls="sw"), h("th", "Player"),
                     h("th", "Territories"), h("th", "Block", title="block tokens"),
                     h("th", "Re-spin", title="re-spin tokens"))),
        h("tbody", *rows),
        cls="data mg-players", id="mg-players",
    )


def render_final(view: Mapping[str, Any]) -> Node | None:
    """The final standings once the campaign is over (ties share a rank)."""
    out = view["outcome"]
    if out is None:
        return None
    winners = set(out["winners"])
    rows, rank, prev = [], 0, None
    for i, row in enumerate(view["standings"]):
        if row["territories"] != prev:
            rank, prev = i + 1, row["territories"]
        note = "winner" if row["seat"] in winners else ("eliminated" if row["territories"] == 0 else "")
        rows.append(h("tr", h("td", str(rank)), h("td", row["name"]), h("td", str(row["territories"])), h("td", note)))
    return h(
        "div",
        h("h3", "Final standings"),
        h("p", f"The campaign ended because {REASONS.get(view['ended'], view['ended'])} (M16)."),
        h("table", h("thead", h("tr", *[h("th", x) for x in ("#", "Player", "Territories", "")])), h("tbody", *rows),
          cls="data"),
        id="mg-final", cls="mg-final",
    )
