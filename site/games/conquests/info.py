"""The fighter's move pattern beside The Game of Conquests board: a 7x7 diagram and its words.

Why a part: the box explains whichever fighter is pointed at, focused, chosen or waiting in
a reserve, and the General's move while it waits for its placement (C4); its pictures and
words come from the data file's move tables (C2), which nothing else on the page reads.
It keeps no state of its own: it reads the pointer, the board and the placement.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from conquests_editor import COLOURS, fighter_words
from ui import Node, h, svg

from conquest.games.conquests import State
from conquest.games.conquests import rules as R

if TYPE_CHECKING:
    from . import ConquestsPage

DIRECTIONS = {
    (0, 1): "forward", (0, -1): "back", (-1, 0): "left", (1, 0): "right",
    (-1, 1): "diagonally forward-left", (1, 1): "diagonally forward-right",
    (-1, -1): "diagonally back-left", (1, -1): "diagonally back-right",
}
DIAGRAM_CELL = 22  # the info box's 7x7 diagram (viewBox 154)
INFO_IDLE = "Point at a fighter, or focus its square, to see how it moves at its level."
#: the same on a touch screen (issue 41: no pointing on a phone)
INFO_IDLE_TOUCH = "Tap a fighter to see how it moves at its level."


def pattern_words(letter: str, level: int) -> str:
    """The level's move table (C2, from the data file) in words."""
    parts = []
    for move in R.DATA["fighters"][letter]["levels"][str(level)]:
        vectors = {(v[0], v[1]) for v in move["vectors"]}
        names = ", ".join(DIRECTIONS.get((v[0], v[1]), str(v)) for v in move["vectors"])
        if vectors == set(DIRECTIONS):
            names = "in all eight directions"
        elif vectors == {(0, 1), (0, -1), (-1, 0), (1, 0)}:
            names = "straight: forward, back, left or right"
        elif vectors == {(-1, 1), (1, 1), (-1, -1), (1, -1)}:
            names = "diagonally, all four ways"
        if move["kind"] == "step":
            parts.append(f"steps one square {names}")
        else:
            limit = "any distance" if move["range"] is None else f"up to {move['range']} squares"
            parts.append(f"slides {limit} {names}")
    return "; ".join(parts)


def pattern_diagram(letter: str, level: int, owner: int, flip: bool) -> list[Node]:
    """A 7x7 diagram of the level's moves as seen on the board now: a dot for a step, an
    arrow for a slide (the same pictures as the rules page, turned for Black or a flip)."""
    c = DIAGRAM_CELL
    out = [
        svg("rect", x=col * c, y=row * c, width=c, height=c, cls="g me" if (row, col) == (3, 3) else "g")
        for row in range(7)
        for col in range(7)
    ]
    k = (1 if owner == 0 else -1) * (-1 if flip else 1)  # +1: forward is up on the screen
    mid = 3 * c + c / 2
    for move in R.DATA["fighters"][letter]["levels"][str(level)]:
        for vx, vy in move["vectors"]:
            dx, dy = k * vx, -k * vy
            if move["kind"] == "step":
                out.append(svg("circle", cx=mid + dx * c, cy=mid + dy * c, r=5, cls="dot"))
                continue
            n = 3 if move["range"] is None else min(3, int(move["range"]))
            x2, y2 = mid + dx * (n - 0.35) * c, mid + dy * (n - 0.35) * c
            out.append(svg("line", x1=mid + dx * 0.45 * c, y1=mid + dy * 0.45 * c, x2=x2, y2=y2, cls="arrow"))
            ln = (dx * dx + dy * dy) ** 0.5  # the arrowhead: a small triangle along (dx, dy)
            ux, uy = dx / ln, dy / ln
            tip, left, right = (x2 + ux * 7, y2 + uy * 7), (x2 - uy * 5, y2 + ux * 5), (x2 + uy * 5, y2 - ux * 5)
            out.append(svg("polygon", points=" ".join(f"{a:.1f},{b:.1f}" for a, b in (tip, left, right)), cls="head"))
    out.append(svg("text", letter if owner == 0 else letter.lower(), x=mid, y=mid + 4, cls="fwd"))
    return out


def info_box(diagram: list[Node], words: str) -> Node:
    return h(
        "div",
        svg("svg", *diagram, id="cq-info-diagram", cls="cq-info-diagram", viewBox="0 0 154 154",
            aria_hidden="true"),
        h("p", words, id="cq-info-text"),
        id="cq-info", cls="cq-info" + ("" if diagram else " is-empty"), aria_live="polite",
    )


class FighterInfo:
    """The info box's renderer: the fighter pointed at (or chosen), or the waiting move."""

    def __init__(self, page: ConquestsPage) -> None:
        self.page = page

    def render_pending(self, state: State) -> Node:
        """While a General's move waits for the optional placement (C4), the side panel is
        about that move (issue 21, item 6: it went on describing the fighter being taken)."""
        pending = self.page.placement.pending
        assert pending is not None
        frm, to = pending
        p = state.board[frm]
        owner = R.owner_of(p)
        taken = state.board[to]
        fate = ""
        if taken:
            kind, level = R.kind_of(taken), R.level_of(taken)
            fate = (f" (it comes back at level {level + 1}, C3)" if level < R.MAX_LEVEL[kind]
                    else " (it retires from the game, C3)")
        words = (f"{COLOURS[owner]} General moving from {R.square_name(frm)} to {R.square_name(to)}"
                 + (f", taking the {fighter_words(taken)}{fate}" if taken else "")
                 + ". Place a fighter from your reserve next to it, or move without placing (C4).")
        return info_box(pattern_diagram(R.KINDS[R.GENERAL], R.level_of(p), owner, self.page.board.flipped), words)

    def render(self, state: State) -> Node:
        """The move pattern of the fighter pointed at (or chosen): a diagram and words."""
        page = self.page
        flipped = page.board.flipped
        hover_res = page.pointer.hover_res
        if hover_res is not None:
            owner, kind, level = hover_res
            letter = R.KINDS[kind]
            up = (owner == 0) != flipped
            words = (f"{COLOURS[owner]} {R.NAMES[kind]} in the reserve, level {level} of {R.MAX_LEVEL[kind]}: "
                     f"{pattern_words(letter, level)} (forward is {'up' if up else 'down'} on the board). "
                     "It comes back next to its General after a General move (C4).")
            return info_box(pattern_diagram(letter, level, owner, flipped), words)
        sq = page.board.info_subject(state)
        pending = page.placement.pending
        if pending is not None and (sq is None or sq in pending):
            return self.render_pending(state)
        if sq is None:
            return info_box([], INFO_IDLE_TOUCH if getattr(page.shell.host, "touch", False) else INFO_IDLE)
        p = state.board[sq]
        owner, kind, level = R.owner_of(p), R.kind_of(p), R.level_of(p)
        letter = R.KINDS[kind]
        reach = [R.square_name(t) for t in R.reach(state.board, sq)]
        up = (owner == 0) != flipped
        words = (f"{COLOURS[owner]} {R.NAMES[kind]} on {R.square_name(sq)}, level {level} of {R.MAX_LEVEL[kind]}: "
                 f"{pattern_words(letter, level)} (forward is {'up' if up else 'down'} on the board). ")
        words += f"It can reach {', '.join(reach)} now." if reach else "It cannot move now."
        if sq == page.board.selected and page.live():
            words = (f"{page.verb()} a marked square to move it there, or the fighter again to let it go. "
                     if page.targets(sq) else "It has no legal move now: choose another fighter. ") + words
        if kind != R.GENERAL and level < R.MAX_LEVEL[kind]:
            words += f" If captured it comes back at level {level + 1} (C3)."
        elif kind != R.GENERAL:
            words += " If captured it retires from the game (C3)."
        return info_box(pattern_diagram(letter, level, owner, flipped), words)
