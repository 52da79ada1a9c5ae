"""The placement after a General's move (C4) and the two reserves it takes a fighter from.

Why a part: a General's move that allows a placement is played in two steps on the page (the
move, then a reserve fighter and a square, or "Move without placing"); the half-made move
(``pending``) and the fighter chosen for it (``place_choice``) are state of their own, with
their own controls (the placement box in the status, the reserve chips) and their own
handling of a square chosen while the move waits.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from conquests_editor import COLOURS
from ui import Node, h

from conquest.games.conquests import Action, State
from conquest.games.conquests import rules as R

if TYPE_CHECKING:
    from . import ConquestsPage


class Placement:
    """The General's move waiting for its placement, the fighter chosen, the reserves."""

    def __init__(self, page: ConquestsPage) -> None:
        self.page = page
        self.pending: tuple[int, int] | None = None  # a General move waiting for the placement (C4)
        self.place_choice: int | None = None  # the reserve fighter (kind << 2 | level) chosen for it

    def start(self, frm: int, to: int) -> None:
        """A General's move that allows a placement: it waits for the fighter and the square."""
        self.pending = (frm, to)
        self.place_choice = None

    def clear(self) -> None:
        self.pending = self.place_choice = None

    # -- reading the legal actions --------------------------------------------------------------
    def placements(self, frm: int, to: int) -> dict[int, list[int]]:
        """Reserve fighter code -> squares where it may be placed after the General's move."""
        out: dict[int, list[int]] = {}
        for a in self.page.legal():
            if a.frm == frm and a.to == to and a.place:
                out.setdefault(a.place, []).append(a.place_sq)
        return out

    def plain(self, frm: int, to: int) -> Action | None:
        """The move alone, if legal (a General move without a placement)."""
        return next((a for a in self.page.legal() if a.frm == frm and a.to == to and not a.place), None)

    def squares(self) -> set[int]:
        """The squares marked for the placement: the chosen fighter's, else any fighter's."""
        if self.pending is None:
            return set()
        opts = self.placements(*self.pending)
        if self.place_choice is not None:
            return set(opts.get(self.place_choice, []))
        return {sq for sqs in opts.values() for sq in sqs}

    # -- handlers -------------------------------------------------------------------------------
    def choose(self, sq: int) -> None:
        """A square chosen while the General's move waits: place there, or say what to do."""
        assert self.pending is not None
        shell = self.page.shell
        frm, to = self.pending
        options = self.placements(frm, to)
        if self.place_choice is not None and sq in options.get(self.place_choice, []):
            self.play_placement(frm, to, self.place_choice, sq)
            return
        here = [c for c, sqs in options.items() if sq in sqs]
        if self.place_choice is None and len(here) == 1:  # the one fighter that fits there
            self.play_placement(frm, to, here[0], sq)
            return
        if self.place_choice is None and here:
            self.place_choice = here[0]
            kind, level = here[0] >> 2, here[0] & 3
            shell.say(f"Several reserve fighters fit on {R.square_name(sq)}: the {R.NAMES[kind]} "
                      f"(level {level}) is chosen; {self.page.verb().lower()} the square again to place it, "
                      "or choose another.")
            return
        shell.say("Choose a fighter from your reserve, then a green square; or move without placing.")

    def play_placement(self, frm: int, to: int, code: int, sq: int) -> None:
        action = next((a for a in self.page.legal() if (a.frm, a.to, a.place, a.place_sq) == (frm, to, code, sq)),
                      None)
        if action is not None:
            self.page.shell.play(action)

    def skip_placement(self) -> None:
        """"Move without placing": the General's move alone."""
        if self.pending is None:
            return
        action = self.plain(*self.pending)
        if action is None:
            self.page.shell.say("Moving without placing would leave your General in Danger (C5).", "error")
            return
        self.page.shell.play(action)

    def cancel_placement(self) -> None:
        self.clear()
        self.page.board.selected = None

    def click_reserve(self, owner: int, code: int) -> None:
        """A reserve fighter: chosen for the placement after a General move, else explained."""
        page = self.page
        if self.pending is not None and owner == page.state().to_move and code in self.placements(*self.pending):
            self.place_choice = None if self.place_choice == code else code
            return
        if page.live():
            page.shell.say("A reserve fighter comes back only right after a move of its General, "
                           "next to it (C4): move your General first.")

    # -- renderers -----------------------------------------------------------------------------
    def render_placement(self) -> Node:
        """The status box while the move waits: what is asked, "Move without placing", "Cancel"."""
        assert self.pending is not None
        frm, to = self.pending
        plain_ok = self.plain(frm, to) is not None
        text = (f"Your General moves {R.square_name(frm)}–{R.square_name(to)}. You may place one reserve fighter "
                "beside or behind it (C4)")
        if self.place_choice is None:
            text += ": choose a fighter, then a green square."
        else:
            kind, level = self.place_choice >> 2, self.place_choice & 3
            text += f": {self.page.verb().lower()} a green square for the {R.NAMES[kind]} (level {level})."
        if not plain_ok:
            text += " Moving without placing would leave your General in Danger (C5)."
        return h(
            "div",
            h("p", text, id="cq-place-text"),
            h("div",
              h("button", "Move without placing", type="button", id="cq-place-skip", cls="small",
                disabled=not plain_ok, on_click=lambda ev: self.skip_placement()),
              h("button", "Cancel the move", type="button", id="cq-place-cancel", cls="small secondary",
                on_click=lambda ev: self.cancel_placement()),
              cls="cq-actions", id="cq-place-acts"),
            id="cq-place", cls="cq-place", role="group", aria_label="Placement after the General's move",
        )

    def render_reserves(self, state: State) -> Node:
        pointer = self.page.pointer
        opts = self.placements(*self.pending) if self.pending is not None else {}
        order = (0, 1) if self.page.board.flipped else (1, 0)  # the side at the top of the board first
        kids: list[Node] = []
        for owner in order:
            counts: dict[int, int] = {}
            for rc in state.reserves[owner]:
                counts[rc] = counts.get(rc, 0) + 1
            chips: list[Node] = []
            for rc, n in sorted(counts.items()):
                kind, level = rc >> 2, rc & 3
                key = f"{R.KINDS[kind]}{level}"
                usable = owner == state.to_move and rc in opts
                letter = R.KINDS[kind] if owner == 0 else R.KINDS[kind].lower()
                spec = (owner, kind, level)
                chips.append(h(
                    "button",
                    h("span", letter, cls=f"tok {'white' if owner == 0 else 'black'}"),
                    h("span", f"{R.NAMES[kind]}, level {level}" + (f" ×{n}" if n > 1 else "")),
                    type="button", cls="cq-res", data_key=key, id=f"cq-res-{owner}-{key}",
                    aria_pressed="true" if usable and self.place_choice == rc else "false",
                    aria_disabled=None if usable else "true",
                    aria_label=f"{COLOURS[owner]} {R.NAMES[kind]} level {level}, {n} in reserve"
                    + (", choose to place it" if usable else ""),
                    on_click=lambda ev, o=owner, c=rc: self.click_reserve(o, c),
                    on_pointerover=lambda ev, sp=spec: pointer.hover_reserve(sp),
                    on_pointerout=lambda ev, k=key: pointer.leave_reserve(ev, k),
                    on_focus=lambda ev, sp=spec: pointer.hover_reserve(sp),
                    on_blur=lambda ev: pointer.hover_reserve(None),
                ))
            kids.append(h("h3", f"{COLOURS[owner]}'s reserve", id=f"cq-res-title-{owner}"))
            kids.append(h("div", *(chips or [h("span", "empty", cls="empty")]), id=f"cq-res-{owner}",
                          cls="cq-reserve", aria_labelledby=f"cq-res-title-{owner}"))
        return h("div", *kids, cls="cq-reserves")
