"""The Game of Conquests play page on the game shell: the page object that composes its parts.

Why this is all that is here: the shell (``shell.py``) gives every game page its set-up
seats, links, saved games, log, undo, "viewing step N", chart, bot runner with its
"thinking" indicator and Stop, and files; every rule comes from
:mod:`conquest.games.conquests` (legal actions, Danger, the outcome, the position text).
This page draws the engine's state and turns clicks, drags, keys and typed text into the
engine's :class:`Action` values, always picked from ``GAME.legal_actions`` or parsed by
``GAME.parse_action``, never spelled by hand.

The board's squares are drawn at build time with the start position (the template's
macro), so it shows before Python runs; here its layers (squares, coordinates, hover
marks, move marks, pieces) are element trees mounted into the board's groups, patched in
place so the keyboard focus stays on its square.

The page is in parts (issue 42), each with its own state, renderer and handlers, which
:class:`ConquestsPage` creates and routes to: the board's drawing and the fighter chosen
(``board.py``), the pointer and keyboard on it (``pointer.py``), the placement after a
General's move with the reserves (``placement.py``), the fighter's move pattern
(``info.py``), the computer's time and figures (``computer.py``), the moves played
(``moves.py``) and the side panel that lays them out (``panel.py``). This module keeps what
they share: reading the game (whose turn, the legal actions), the shell's hooks, and leaving
the game for the set-up. All state is in the page and its parts (one object per page), so
pytest drives it with a fake host.

The position editor on the set-up is a module of its own (``site/py/conquests_editor.py``,
with the board's drawing both share); this page holds it (``self.editor``) and hands it a
position link (``#setup=<text>``) or the position on screen ("Set up this position").
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conquests_editor import COLOURS, SETUP_PREFIX, PositionEditor, coord_nodes, read_setup_link
from shell import GamePage, Seat, Shell, check_save
from ui import Node, frag

from conquest.games.conquests import GAME, Action, State, position_to_text
from conquest.games.conquests import rules as R
from conquest.games.conquests.ai import SearchBot
from conquest.rng import Rng
from conquest.savecode import SaveCodeError
from conquest.store import StorageError

from .board import Board
from .computer import THINK_KEY, Computer, think_choice
from .info import FighterInfo
from .moves import MoveList
from .panel import SidePanel
from .placement import Placement
from .pointer import Pointer

__all__ = ["SIDE_COLOURS", "THINK_KEY", "ConquestsPage", "main", "think_choice"]

#: the seats' colours are the pieces' own, so the shell's swatch shows the side to move
SIDE_COLOURS = ("#fffdf6", "#2d2a26")


class ConquestsPage(GamePage):
    """The page: its parts, what they read of the game, and the shell's hooks."""

    game_id = "conquests"
    focus_home = "cq-side-inner"  # the controls, after a step (issue 21, item 2)
    chart_x_label = "moves played"

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.board = Board(self)
        self.pointer = Pointer(self)
        self.placement = Placement(self)
        self.info = FighterInfo(self)
        self.computer = Computer(self, think_choice(shell.host.load_pref(THINK_KEY)))
        self.moves = MoveList(self)
        self.panel = SidePanel(self)
        # the position editor (on the set-up), a module of its own
        self.editor = PositionEditor(self)
        self.left_slot: str | None = None  # the game left for the editor ("Back to the game")
        self.start_position: str | None = None  # "Play from here": the position of the next start
        self.reduced_motion = False  # set by the browser runner
        self._soon = False

    # -- reading the game -------------------------------------------------------------------
    def verb(self) -> str:
        """"Tap" on a touch screen, "Click" with a mouse (issue 41: words fit the device)."""
        return "Tap" if getattr(self.shell.host, "touch", False) else "Click"

    def state(self) -> State:
        s = self.shell.session
        assert s is not None
        return s.shown_state()  # type: ignore[no-any-return]

    def seat_label(self, side: int) -> str:
        """``White``, or ``Ann (White)`` when the seat has a name of its own."""
        s = self.shell.session
        name = s.seat_name(side) if s is not None else COLOURS[side]
        return COLOURS[side] if name in (COLOURS[side], f"Player {side + 1}") else f"{name} ({COLOURS[side]})"

    def bot_level(self, side: int) -> str | None:
        s = self.shell.session
        seats = s.seats() if s is not None else []
        return seats[side].who if side < len(seats) and seats[side].is_bot else None

    def live(self) -> bool:
        """A person may move now: the present of a playable game, a person's turn."""
        s = self.shell.session
        if s is None or s.locked():
            return False
        st = s.match.state
        return GAME.outcome(st) is None and self.bot_level(st.to_move) is None

    def legal(self) -> list[Action]:
        return GAME.legal_actions(self.state()) if self.live() else []

    def targets(self, sq: int) -> dict[int, list[Action]]:
        """Destination square -> the legal actions of the fighter on ``sq`` (placements folded)."""
        out: dict[int, list[Action]] = {}
        for a in self.legal():
            if a.frm == sq:
                out.setdefault(a.to, []).append(a)
        return out

    def say_why_not(self) -> None:
        """Why nothing can be played now (a click or a typed move while it cannot)."""
        s = self.shell.session
        if s is None:
            return
        if s.mode != "host":
            self.shell.say("This is a read-only copy of the game: nothing can be played here.")
        elif s.viewing is not None:
            self.shell.say("You are looking at an earlier step: press “Back to the present” to play.")
        elif GAME.outcome(s.match.state) is not None:
            self.shell.say("The game is over: no more moves.")
        else:
            self.shell.say("Wait for the computer's move.")

    # -- the shell's hooks ------------------------------------------------------------------
    def options(self, seats: list[Seat], fields: Mapping[str, str]) -> dict[str, Any]:
        """White and Black from the set-up, in the pieces' colours; "Play from here" adds the
        editor's position (C6)."""
        out: dict[str, Any] = {
            "seed": 0,  # no chance in this game: a fixed seed keeps random digits out of links
            "seats": [
                {"name": seat.name, "colour": SIDE_COLOURS[i], **({"bot": seat.who} if seat.is_bot else {})}
                for i, seat in enumerate(seats)
            ]
        }
        if self.start_position:
            out["position"] = self.start_position
        return out

    def opened(self) -> None:
        """A game was opened: the side of the only person at the bottom, the editor closed."""
        s = self.shell.session
        assert s is not None
        self.board.flipped = self.bot_level(0) is not None and self.bot_level(1) is None
        self.editor.open = False
        self.left_slot = None
        self.pointer.hover = None

    def reset(self) -> None:
        """Forget half-made choices (the shell's undo itself goes back to a person's move)."""
        self.board.selected = None
        self.placement.clear()
        self.pointer.hover_res = None
        self.pointer.drag = None

    def make_bot(self, level: str, rng: Rng) -> SearchBot:
        """The computer with this browser's time per move (the computer part's)."""
        return self.computer.make_bot(level, rng)

    def open_fragment(self, fragment: str) -> bool:
        """A position link ``#setup=<text>`` opens the editor with that text."""
        if not fragment.startswith(SETUP_PREFIX):
            return False
        text, why = read_setup_link(fragment)
        if text is None:
            self.shell.say(why, "error")
            return True
        if self.shell.session is not None and not self.leave_game(
            "Open the position editor with the linked position? This game stays in your saved games."
        ):
            return True
        self.editor.open = True
        self.editor.set_text(text)
        return True

    def render(self, view: Mapping[str, Any]) -> dict[str, Node]:
        state = self.state()
        self.moves.sync()
        marks, place_sqs, targets = self.board.marks(state, view)
        flipped = self.board.flipped
        return {
            "cq-squares": self.board.render_squares(state, targets, place_sqs),
            "cq-coords": frag(*coord_nodes(flipped)),
            "cq-hover": self.board.render_hover_marks(state),
            "cq-marks": marks,
            "cq-pieces": self.board.render_pieces(state),
            "cq-side": self.panel.render(state, view),
            "cq-ghost-box": self.pointer.render_ghost(state),
            "cq-position-box": self.panel.render_position(state),
        }

    def after_render(self) -> None:
        self.panel.after_render()

    def render_setup(self) -> dict[str, Node]:
        return self.editor.render_setup()

    def prompt(self, view: Mapping[str, Any]) -> str:
        s = self.shell.session
        assert s is not None
        out = view["outcome"]
        if out is not None:
            winners = out.get("winners") or []
            return f"Game over: {COLOURS[winners[0]]} wins." if len(winners) == 1 else "Game over: a draw."
        side = view["to_move"]
        who = self.seat_label(side)
        if s.locked():
            return f"Move {view['move_number']}: {who} to move."
        level = self.bot_level(side)
        if level is not None:
            return f"{who} (computer, {level}) to move."
        if self.placement.pending is not None:
            return f"{who}: place a reserve fighter next to your General, or move without placing."
        if self.board.selected is not None:
            return f"{who}: choose where the {R.NAMES[R.kind_of(self.state().board[self.board.selected])]} goes."
        danger = " Your General is in Danger!" if view["in_danger"] else ""
        return f"{who} to move: choose a fighter.{danger}"

    # -- leaving the game for the set-up (the editor) ---------------------------------------
    def leave_game(self, question: str) -> bool:
        """Close the game for the set-up, asking first while it is still being played."""
        s = self.shell.session
        if s is None:
            return True
        going = s.mode == "host" and GAME.outcome(s.match.state) is None and bool(s.match.log)
        if going and not self.shell.host.confirm(question):
            return False
        self.left_slot = s.slot_id
        self.shell.close()
        return True

    def edit_here(self) -> None:
        """The position on screen, in the editor (the game stays in the saved games)."""
        text = position_to_text(self.state())
        if self.leave_game("Leave this game for the position editor? It stays in your saved games; "
                           "“Back to the game” returns to it."):
            self.editor.open = True
            self.editor.set_text(text)
            self.reveal_later("cq-ed-title")

    def new_game(self) -> None:
        if self.leave_game("Leave this game to set up another? It stays in your saved games."):
            self.editor.open = False
            self.reveal_later("shell-title")

    def reveal_later(self, element_id: str) -> None:
        """Scroll to ``element_id`` once the re-render after this event has shown it."""
        self.shell.host.later(0, lambda: self.shell.host.reveal(element_id))

    def back_to_game(self) -> None:
        """Reopen the game left for the editor, from its save slot."""
        slot_id, self.left_slot = self.left_slot, None
        if slot_id is None:
            return
        store = self.shell.host.store
        try:
            slot = store.get(slot_id)
            match = check_save(store.open(slot_id))
        except (StorageError, SaveCodeError) as exc:
            self.shell.say(f"{exc.message} Start a new game or resume another below.", "error")
            return
        self.shell.open(match, slot, slot.mode)
        self.shell.host.go(f"?slot={slot.id}")

    # -- what the parts and the editor share ------------------------------------------------
    def soon(self) -> None:
        """Re-render once after the events of this moment (pointer, focus and keys are not
        followed by the runner's own re-render as clicks are)."""
        if self._soon:
            return
        self._soon = True

        def go() -> None:
            self._soon = False
            self.shell.host.rerender()

        self.shell.host.later(0, go)

    @staticmethod
    def square_of(data: Mapping[str, str]) -> int | None:
        try:
            return R.parse_square(data.get("sq", ""))
        except ValueError:
            return None


def main() -> None:
    """In the page: run The Game of Conquests on the shell."""
    from shell_browser import run

    run(ConquestsPage)
