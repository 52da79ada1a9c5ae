"""The pointer and the keyboard on The Game of Conquests board: pointing, dragging, the focus.

Why a part: what is under the pointer or the keyboard focus (``hover``, ``hover_res`` for a
reserve fighter, ``focus_sq``) and a fighter being dragged (``drag``, with its ghost) is
state of its own, changed many times between moves; it only ever ends in the board's
``choose`` (a click, a drop, Enter) or in the fighter's pattern shown (``info.py``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from conquests_editor import ARROWS, step_square
from ui import Event, Node, h

from conquest.games.conquests import State
from conquest.games.conquests import rules as R

if TYPE_CHECKING:
    from . import ConquestsPage

#: pixels the pointer moves before a press on a fighter becomes a drag
DRAG_PX = 6


class Pointer:
    """The square pointed at or focused, the reserve fighter pointed at, and a drag."""

    def __init__(self, page: ConquestsPage) -> None:
        self.page = page
        self.hover: int | None = None  # the square under the pointer or with the keyboard focus
        self.hover_res: tuple[int, int, int] | None = None  # (owner, kind, level) of a reserve fighter
        self.focus_sq = 0  # the game board's square that takes the Tab focus
        self.drag: dict[str, Any] | None = None

    # Pointer handlers sit on one group around the squares (a handler per square would make
    # every render re-key 36 elements), and read the square under the pointer (``ev.under``);
    # ``pointermove`` is listened to only while a fighter is pressed, so merely moving the
    # mouse costs one event per square entered (``pointerover``), not one per pixel.
    def on_down(self, ev: Event) -> None:
        page = self.page
        sq = page.square_of(ev.under)
        if sq is None or page.shell.session is None:
            return
        ev.prevent()  # no text selection while dragging
        self.hover = sq  # a tap shows the fighter's pattern (touch has no hover)
        self.focus_sq = sq
        state = page.state()
        p = state.board[sq]
        own = bool(p) and page.live() and R.owner_of(p) == state.to_move and page.placement.pending is None
        self.drag = {"from": sq, "own": own, "moved": False, "x": ev.x, "y": ev.y, "fresh": False}
        if own and page.board.selected != sq:
            page.board.choose(sq)
            self.drag["fresh"] = True
        page.soon()

    def on_move(self, ev: Event) -> None:
        """A pressed fighter follows the pointer (the ghost; no re-render while dragging)."""
        d = self.drag
        if d is None or not d["own"]:
            return
        if not d["moved"] and abs(ev.x - d["x"]) + abs(ev.y - d["y"]) < DRAG_PX:
            return
        d["moved"] = True
        host = self.page.shell.host
        host.set_style("cq-ghost", "display", "grid")
        host.set_style("cq-ghost", "left", f"{ev.x:.0f}px")
        host.set_style("cq-ghost", "top", f"{ev.y:.0f}px")
        host.set_style(f"cq-piece-{R.square_name(d['from'])}", "opacity", "0.3")

    def on_up(self, ev: Event) -> None:
        """The release: a drop on another square moves there; a click chooses the square."""
        d, self.drag = self.drag, None
        if d is None:
            return
        under = self.page.square_of(ev.under)
        if d["own"] and under is not None and under != d["from"]:
            self.page.board.choose(under)  # dropped (however few moves the page saw)
        elif not d["moved"] and under == d["from"] and not (d["own"] and d["fresh"]):
            self.page.board.choose(under)  # a click; a fresh press on a fighter already selected it
        self.page.soon()

    def on_cancel(self, ev: Event) -> None:
        self.drag = None
        self.page.soon()

    def on_over(self, ev: Event) -> None:
        """The pointer entered a square: its fighter's pattern is shown."""
        sq = self.page.square_of(ev.under)
        if sq is not None and sq != self.hover and self.drag is None:
            self.hover = sq
            self.page.soon()

    def on_out(self, ev: Event) -> None:
        """The pointer left the board: no fighter is pointed at any more."""
        if self.page.square_of(ev.under) is None and self.hover is not None and self.drag is None:
            self.hover = None
            self.page.soon()

    def on_focus(self, ev: Event) -> None:
        sq = self.page.square_of(ev.data)
        if sq is not None and (sq != self.hover or sq != self.focus_sq):
            self.hover = self.focus_sq = sq
            self.page.soon()

    def on_blur(self, ev: Event) -> None:
        if self.page.square_of(ev.data) == self.hover and self.drag is None:
            self.hover = None
            self.page.soon()

    def on_key(self, ev: Event) -> None:
        """Arrow keys move the focus between squares (roving tabindex), Enter or Space
        chooses, Escape forgets the choice."""
        page = self.page
        sq = page.square_of(ev.data)
        if sq is None:
            return
        if ev.key in ("Enter", " "):
            ev.prevent()
            page.board.choose(sq)
        elif ev.key in ARROWS:
            ev.prevent()
            self.focus_sq = self.hover = step_square(sq, ev.key, page.board.flipped)
            page.shell.host.focus(f"cq-sq-{R.square_name(self.focus_sq)}")
        elif ev.key == "Escape":
            page.placement.clear()
            page.board.selected = None
        else:
            return
        page.soon()

    def hover_reserve(self, spec: tuple[int, int, int] | None) -> None:
        if spec != self.hover_res:
            self.hover_res = spec
            self.page.soon()

    def leave_reserve(self, ev: Event, key: str) -> None:
        if ev.under.get("key") != key:  # not just onto the chip's own text
            self.hover_reserve(None)

    def render_ghost(self, state: State) -> Node:
        """The fighter under the pointer while it is dragged (placed by ``on_move``)."""
        p = state.board[self.drag["from"]] if self.drag is not None and self.drag["own"] else 0
        if not p:
            return h("div", id="cq-ghost", cls="cq-ghost", aria_hidden="true")
        return h("div", h("span", R.KINDS[R.kind_of(p)]), id="cq-ghost",
                 cls=f"cq-ghost {'white' if R.owner_of(p) == 0 else 'black'}", aria_hidden="true")
