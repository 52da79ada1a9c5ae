"""The choices being made before they are a step: the slice assignment and the territories
picked for a sacrifice or a block, with the slices' form.

Why a part: both are half-made choices the person edits over several taps, that a reload or a
closed tab must not lose (saved under ``DRAFT_KEY`` for the slot at this very step, read back
as untrusted data by ``parse_draft``), and that every step wipes, except on a defender's own
device while the attacker assigns (M9). The map paints the picks and the actions panel's
buttons play them; the form plays the slices.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from shell import plural
from ui import Node, h

from conquest.games.metagame import canonical_allocs, slice_report
from conquest.games.metagame.actions import Slices

#: the slice assignment or sacrifice being edited, so a reload or a closed tab resumes it
DRAFT_KEY = "conquest:metagame:draft"


def parse_draft(raw: str | None, slot: str | None, steps: int, games: int, size: int) -> tuple[dict[int, int], set[int]]:
    """The draft saved for this slot at this very step; anything else is ignored."""
    draft: dict[int, int] = {}
    picked: set[int] = set()
    try:
        obj = json.loads(raw) if raw else None
    except ValueError:
        return draft, picked
    if not isinstance(obj, dict) or obj.get("slot") != slot or obj.get("n") != steps:
        return draft, picked
    d, p = obj.get("draft"), obj.get("picked")
    if isinstance(d, dict):
        for g, n in d.items():
            if isinstance(g, str) and g.isdigit() and int(g) < games and isinstance(n, int) and 0 < n < 1000:
                draft[int(g)] = n
    if isinstance(p, list):
        picked.update(t for t in p if isinstance(t, int) and not isinstance(t, bool) and 0 <= t < size)
    return draft, picked


class Draft:
    """The slices being assigned and the territories picked, kept across reloads."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.shell = page.shell
        self.slices: dict[int, int] = {}  # the slice assignment being edited
        self.picked: set[int] = set()  # territories picked for a sacrifice or block

    def reset(self) -> None:
        """A step, an undo or a jump: the half-made choices go (but see ``goes_on``)."""
        if not self.goes_on():
            self.slices.clear()
        self.picked.clear()

    def toggle(self, t: int) -> None:
        """A territory picked or unpicked for a sacrifice or a block."""
        self.picked.symmetric_difference_update({t})
        self.save()

    def goes_on(self) -> bool:
        """On a defender's own device the slices being set go on across the attacker's step
        (M9: both sides choose at once at a live table), so that step must not wipe them."""
        s = self.shell.session
        if s is None or s.mode != "guest" or s.only_seat is None:
            return False
        state = s.match.state
        return state.phase in ("slices_a", "slices_d") and state.inv is not None and state.inv.defender == s.only_seat

    def side(self) -> str | None:
        """"d" on the defender's own device while the attacker assigns (``Game.ahead``, M9):
        the slices edited are the defender's; None: the side the phase asks."""
        s = self.shell.session
        choosing = getattr(s, "choosing_ahead", None)
        return "d" if choosing is not None and choosing() else None

    def load(self) -> None:
        """A campaign was opened: its draft comes back."""
        s = self.shell.session
        assert s is not None
        if s.mode == "host" and s.viewing is None:
            st = s.match.state
            self.slices, self.picked = parse_draft(
                self.shell.host.load_pref(DRAFT_KEY), s.slot_id, len(s.match.log), len(st.games), len(st.owner)
            )

    def save(self) -> None:
        s = self.shell.session
        if s is None or s.slot_id is None or s.locked():
            return
        obj = {
            "slot": s.slot_id,
            "n": len(s.match.log),
            "draft": {str(g): n for g, n in self.slices.items()},
            "picked": sorted(self.picked),
        }
        self.shell.host.save_pref(DRAFT_KEY, json.dumps(obj))  # only a convenience: may fail

    def set_count(self, game: int, n: int) -> None:
        n = max(0, min(n, 999))
        if n:
            self.slices[game] = n
        else:
            self.slices.pop(game, None)
        self.save()

    def typed_count(self, game: int, raw: str) -> None:
        raw = raw.strip()
        try:
            n = int(raw) if raw else 0
        except ValueError:
            return
        self.set_count(game, n)

    def assign(self) -> None:
        self.page.controls.act(Slices(tuple(sorted((g, n) for g, n in self.slices.items() if n > 0))))

    def fill(self) -> None:
        s = self.shell.session
        assert s is not None
        rep = slice_report(s.match.state, self.slices, self.side())
        offers = canonical_allocs(rep["z"], rep["cap"], len(s.match.state.games))
        if offers:
            self.slices = dict(offers[-1])
            self.page.flow.want_focus = "mg-assign"  # the next control this step needs
        self.save()

    def render(self, state: Any, view: Mapping[str, Any]) -> Node:
        rep = slice_report(state, self.slices, self.side())
        side = rep["side"]
        inv = view["invasion"]
        who = view["players"][inv["attacker" if side == "a" else "defender"]]["name"]
        rows = []
        for g in view["games"]:
            i = g["index"]
            name = g.get("title") or g["name"]
            n = self.slices.get(i, 0)
            rows.append(
                h(
                    "tr",
                    h("td", name, cls="name"),
                    # − and + are for the pointer; the keyboard types or uses ↑ ↓ in the field
                    h("td", h("button", "−", type="button", cls="small", aria_label=f"One slice less for {name}",
                              tabindex="-1",
                              on_click=lambda ev, i=i: self.set_count(i, self.slices.get(i, 0) - 1))),
                    h("td", h("input", type="number", min="0", max=str(rep["cap"]), value=str(n),
                              aria_label=f"Slices for {name}", data_game=str(i), id=f"mg-count-{i}",
                              on_input=lambda ev, i=i: self.typed_count(i, ev.value)), cls="n"),
                    h("td", h("button", "+", type="button", cls="small", aria_label=f"One slice more for {name}",
                              tabindex="-1",
                              on_click=lambda ev, i=i: self.set_count(i, self.slices.get(i, 0) + 1))),
                )
            )
        # a form: Enter in a count assigns; "Fill for me" is one Shift+Tab before the first count
        return h(
            "form",
            h("div",
              h("h4", f"{who}'s slices: exactly {plural(rep['z'], 'slice')}, at most {rep['cap']} per game"),
              h("button", "Fill for me", type="button", cls="secondary small", id="mg-fill",
                on_click=lambda ev: self.fill()),
              cls="mg-slice-head"),
            h("table", h("tbody", *rows), cls="mg-slices"),
            h("div", *[h("p", msg, cls="mg-msg " + ("ok" if rep["ok"] else "bad")) for msg in rep["messages"]],
              cls="mg-slice-msgs", aria_live="polite"),
            h("div",
              h("button", "Assign these slices", type="submit", id="mg-assign", disabled=not rep["ok"]),
              cls="mg-actions"),
            cls="mg-slice-editor", id="mg-slice-form", on_submit=lambda ev: self.assign(),
        )
