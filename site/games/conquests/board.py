"""The Game of Conquests board: its layers (squares, marks, hover marks, pieces) and the fighter chosen.

Why a part: the board is the page's main picture and the one place a move is chosen; it
holds which way up it is drawn (``flipped``) and the fighter chosen to move (``selected``),
turns a square chosen (click, tap, drop, Enter) into a selection or a move, and draws its
layers from them. The pointer and keyboard that choose squares (``pointer.py``) and the
placement a General's move may wait for (``placement.py``) are parts of their own that it
reads.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from conquests_editor import S, fighter_words, piece_node, square_xy
from ui import Node, frag, svg

from conquest.games.conquests import GAME, Action, State
from conquest.games.conquests import rules as R

if TYPE_CHECKING:
    from . import ConquestsPage


def danger_squares(state: State) -> tuple[int, list[int]]:
    """The General of the side to move and the enemy fighters that could take it (C5)."""
    board = state.board
    g = board.index(R.GENERAL_CODE[state.to_move])
    attackers = [
        sq for sq, p in enumerate(board) if p and R.owner_of(p) != state.to_move and g in R.reach(board, sq)
    ]
    return g, attackers


class Board:
    """The board's orientation, the fighter chosen, the choosing of squares and the layers."""

    def __init__(self, page: ConquestsPage) -> None:
        self.page = page
        self.flipped = False
        self.selected: int | None = None  # the square of the fighter chosen to move

    def flip(self) -> None:
        self.flipped = not self.flipped

    # -- choosing a square ------------------------------------------------------------------
    def choose(self, sq: int) -> None:
        """A click, tap, drop or Enter on a square: select, move, or place."""
        page = self.page
        shell = page.shell
        if shell.session is None:
            return
        if not page.live():
            page.say_why_not()
            return
        state = page.state()
        if page.placement.pending is not None:
            page.placement.choose(sq)
            return
        if self.selected is not None:
            options = page.targets(self.selected)
            if sq in options:
                actions = options[sq]
                if len(actions) == 1:
                    shell.play(actions[0])
                else:  # a General move that allows a placement (C4)
                    page.placement.start(self.selected, sq)
                return
            if sq == self.selected:
                self.selected = None
                return
        p = state.board[sq]
        if p and R.owner_of(p) == state.to_move:
            if not page.targets(sq):
                shell.say(f"The {R.NAMES[R.kind_of(p)]} on {R.square_name(sq)} has no legal move now.")
            self.selected = sq
            return
        if self.selected is not None:
            shell.say(f"{R.square_name(self.selected)}–{R.square_name(sq)} is not a legal move.")
        self.selected = None

    # -- the layers ---------------------------------------------------------------------------
    def last_squares(self, state: State) -> set[int]:
        if not state.last:
            return set()
        a = GAME.parse_action(state.last)
        return {a.frm, a.to}

    def marks(self, state: State, view: Mapping[str, Any]) -> tuple[Node, set[int], dict[int, list[Action]]]:
        """Legal squares of the chosen fighter (dots, rings on captures), placement squares,
        and Danger (C5): the attacked General ringed red, its attackers dashed."""
        pending = self.page.placement.pending
        targets = self.page.targets(self.selected) if self.selected is not None and pending is None else {}
        place_sqs = self.page.placement.squares()
        kids: list[Node] = []
        for sq in sorted(targets):
            x, y = square_xy(sq, self.flipped)
            if state.board[sq]:
                kids.append(svg("circle", cls="ring", cx=x + S / 2, cy=y + S / 2, r=S * 0.44))
            else:
                kids.append(svg("circle", cls="dot", cx=x + S / 2, cy=y + S / 2, r=S * 0.14))
        for sq in sorted(place_sqs):
            x, y = square_xy(sq, self.flipped)
            kids.append(svg("rect", cls="place-ring", x=x + 5, y=y + 5, width=S - 10, height=S - 10, rx=8))
        if view["in_danger"]:
            g, attackers = danger_squares(state)
            for sq in [g, *attackers]:
                x, y = square_xy(sq, self.flipped)
                kids.append(svg("circle", cls="danger" if sq == g else "danger-from", cx=x + S / 2, cy=y + S / 2,
                                r=S * 0.46))
        return frag(*kids), place_sqs, targets

    def render_squares(self, state: State, targets: Mapping[int, Any], place_sqs: set[int]) -> Node:
        pointer = self.page.pointer
        pending = self.page.placement.pending
        last = self.last_squares(state)
        chosen = {self.selected} if self.selected is not None else set()
        if pending is not None:
            chosen = set(pending)
        rects = []
        for r in range(R.SIZE):
            for f in range(R.SIZE):
                sq = r * R.SIZE + f
                name = R.square_name(sq)
                x, y = square_xy(sq, self.flipped)
                p = state.board[sq]
                words = name + (f", {fighter_words(p)}" if p else "")
                if pending is not None and sq in pending:  # the move waits for a placement (C4)
                    general = fighter_words(state.board[pending[0]])
                    taken = state.board[pending[1]]
                    words = (f"{name}, {general}, moving to {R.square_name(pending[1])}" if sq == pending[0]
                             else f"{name}, where the {general} moves" + (f", taking the {fighter_words(taken)}"
                                                                           if taken else ""))
                if sq in targets:
                    words += ", a legal move for the chosen fighter"
                if sq in place_sqs:
                    words += ", a placement square"
                cls = "sq " + ("dark" if (f + r) % 2 == 0 else "light")
                cls += "".join(f" {c}" for c, on in (("is-last", sq in last), ("is-selected", sq in chosen),
                                                     ("is-place", sq in place_sqs)) if on)
                rects.append(svg(
                    "rect", cls=cls, id=f"cq-sq-{name}", data_sq=name, x=x, y=y, width=S, height=S,
                    tabindex=0 if sq == pointer.focus_sq else -1, role="button", aria_label=words,
                    on_keydown=pointer.on_key, on_focus=pointer.on_focus, on_blur=pointer.on_blur,
                ))
        dragging = pointer.drag is not None
        choosing = self.page.live() and self.selected is None and pending is None
        return frag(svg(
            "g", *rects, id="cq-board-input", data_now="next" if choosing else None,
            on_pointerdown=pointer.on_down, on_pointerup=pointer.on_up,
            on_pointerover=pointer.on_over, on_pointerout=pointer.on_out,
            on_pointermove=pointer.on_move if dragging else None,
            on_pointercancel=pointer.on_cancel if dragging else None,
        ))

    def render_pieces(self, state: State) -> Node:
        pending = self.page.placement.pending
        kids = []
        for sq, p in enumerate(state.board):
            if not p:
                continue
            if pending is not None and sq == pending[1]:
                continue  # the fighter the General is about to take
            if pending is not None and sq == pending[0]:
                kids.append(piece_node("cq", sq, p, self.flipped, at=pending[1], extra=" is-pending"))
            else:
                kids.append(piece_node("cq", sq, p, self.flipped))
        return frag(*kids)

    def info_subject(self, state: State) -> int | None:
        """The fighter whose pattern is shown: under the pointer or focus, else the chosen one."""
        hover = self.page.pointer.hover
        if hover is not None and state.board[hover]:
            return hover
        if self.selected is not None and state.board[self.selected]:
            return self.selected
        return None

    def render_hover_marks(self, state: State) -> Node:
        """Dashed squares where the fighter pointed at can go now (before the Danger test)."""
        sq = self.info_subject(state)
        if sq is None or sq == self.selected or self.page.pointer.hover_res is not None:
            return frag()  # the chosen fighter's legal squares are already marked
        kids = []
        for t in R.reach(state.board, sq):
            x, y = square_xy(t, self.flipped)
            kids.append(svg("rect", cls="reach", x=x + 4, y=y + 4, width=S - 8, height=S - 8, rx=6))
        x, y = square_xy(sq, self.flipped)
        kids.append(svg("rect", cls="reach-from", x=x + 2, y=y + 2, width=S - 4, height=S - 4, rx=6))
        return frag(*kids)
