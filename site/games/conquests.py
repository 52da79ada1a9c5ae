"""The Game of Conquests play page on the game shell: its board and side panel.

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
place so the keyboard focus stays on its square. All state is in :class:`ConquestsPage`
(one object per page), so pytest drives it with a fake host.

The position editor on the set-up is a module of its own (``site/py/conquests_editor.py``,
with the board's drawing both share); this page holds it (``self.editor``) and hands it a
position link (``#setup=<text>``) or the position on screen ("Set up this position").
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conquests_editor import (
    ARROWS,
    COLOURS,
    SETUP_PREFIX,
    PositionEditor,
    S,
    coord_nodes,
    fighter_words,
    piece_node,
    read_setup_link,
    setup_link,
    square_xy,
    step_square,
)
from shell import GamePage, Seat, Shell, check_save
from ui import Event, Node, find_all, frag, h, svg

from conquest.core import InvalidAction
from conquest.games.conquests import GAME, Action, State, position_to_text
from conquest.games.conquests import rules as R
from conquest.games.conquests.ai import SearchBot
from conquest.rng import Rng
from conquest.savecode import SaveCodeError
from conquest.store import StorageError

#: the seats' colours are the pieces' own, so the shell's swatch shows the side to move
SIDE_COLOURS = ("#fffdf6", "#2d2a26")
#: the computer's time per move (seconds), a preference of this browser: hard searches until
#: then (iterative deepening); easy and medium search a fixed depth and are done long before
THINK_KEY = "conquest:conquests:think-seconds"
THINK_CHOICES = (1, 3, 10, 30)
THINK_DEFAULT = 3
#: update the "thinking" bar at most this often (milliseconds)
PROGRESS_EVERY_MS = 100
#: pixels the pointer moves before a press on a fighter becomes a drag
DRAG_PX = 6
DIRECTIONS = {
    (0, 1): "forward", (0, -1): "back", (-1, 0): "left", (1, 0): "right",
    (-1, 1): "diagonally forward-left", (1, 1): "diagonally forward-right",
    (-1, -1): "diagonally back-left", (1, -1): "diagonally back-right",
}
DIAGRAM_CELL = 22  # the info box's 7x7 diagram (viewBox 154)
INFO_IDLE = "Point at a fighter, or focus its square, to see how it moves at its level."
#: the same on a touch screen (issue 41: no pointing on a phone)
INFO_IDLE_TOUCH = "Tap a fighter to see how it moves at its level."


# -- pure helpers: geometry, words, pictures -------------------------------------------------
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


def danger_squares(state: State) -> tuple[int, list[int]]:
    """The General of the side to move and the enemy fighters that could take it (C5)."""
    board = state.board
    g = board.index(R.GENERAL_CODE[state.to_move])
    attackers = [
        sq for sq, p in enumerate(board) if p and R.owner_of(p) != state.to_move and g in R.reach(board, sq)
    ]
    return g, attackers


def first(tree: Node, selector: str) -> Node | None:
    """The first element of ``tree`` that matches, or None."""
    return next(iter(find_all(tree, selector)), None)


def think_choice(raw: str | None) -> int:
    """The stored time per move, if it is one of the choices."""
    try:
        value = int(float(raw or ""))
    except ValueError:
        return THINK_DEFAULT
    return value if value in THINK_CHOICES else THINK_DEFAULT


# -- the page -------------------------------------------------------------------------------------------
class ConquestsPage(GamePage):
    """The page's state (one object) and its renderers and handlers."""

    game_id = "conquests"
    focus_home = "cq-side-inner"  # the controls, after a step (issue 21, item 2)
    chart_x_label = "moves played"

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.flipped = False
        self.selected: int | None = None  # the square of the fighter chosen to move
        self.pending: tuple[int, int] | None = None  # a General move waiting for the placement (C4)
        self.place_choice: int | None = None  # the reserve fighter (kind << 2 | level) chosen for it
        self.hover: int | None = None  # the square under the pointer or with the keyboard focus
        self.hover_res: tuple[int, int, int] | None = None  # (owner, kind, level) of a reserve fighter
        self.focus_sq = 0  # the game board's square that takes the Tab focus
        self.drag: dict[str, Any] | None = None
        self.think_seconds = think_choice(shell.host.load_pref(THINK_KEY))
        # the computer's figures: the last move's words and the totals since the page opened
        self.ai_words = ""
        self.total_nodes = 0
        self.total_busy = 0.0
        self.progress_pct = 0
        self._progress_at = -1e18
        # the position editor (on the set-up), a module of its own
        self.editor = PositionEditor(self)
        self.left_slot: str | None = None  # the game left for the editor ("Back to the game")
        self.start_position: str | None = None  # "Play from here": the position of the next start
        self.reduced_motion = False  # set by the browser runner
        self._words: list[tuple[Any, str]] = []  # describe_action of each logged move (cached)
        self.now_key: Any = None  # what the last render showed as "now" (issue 41)
        self.now_shown: Any = None
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

    def placements(self, frm: int, to: int) -> dict[int, list[int]]:
        """Reserve fighter code -> squares where it may be placed after the General's move."""
        out: dict[int, list[int]] = {}
        for a in self.legal():
            if a.frm == frm and a.to == to and a.place:
                out.setdefault(a.place, []).append(a.place_sq)
        return out

    def plain(self, frm: int, to: int) -> Action | None:
        """The move alone, if legal (a General move without a placement)."""
        return next((a for a in self.legal() if a.frm == frm and a.to == to and not a.place), None)

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
        self.flipped = self.bot_level(0) is not None and self.bot_level(1) is None
        self.editor.open = False
        self.left_slot = None
        self.hover = None

    def reset(self) -> None:
        """Forget half-made choices (the shell's undo itself goes back to a person's move)."""
        self.selected = self.pending = self.place_choice = None
        self.hover_res = None
        self.drag = None

    def make_bot(self, level: str, rng: Rng) -> SearchBot:
        """The computer with this browser's time per move; it reports its progress and figures."""
        self.progress_pct = 0
        return SearchBot(level, rng, seconds=float(self.think_seconds), on_progress=self._bot_progress,
                         on_done=self._bot_done)

    def _bot_progress(self, bot: SearchBot) -> None:
        """Between the computer's steps: move the bar (no re-render: the page keeps answering)."""
        now = self.shell.host.clock()
        if now - self._progress_at < PROGRESS_EVERY_MS or bot.search is None:
            return
        self._progress_at = now
        self.progress_pct = int(100 * bot.progress())
        self.shell.host.set_style("cq-progress-fill", "width", f"{self.progress_pct}%")
        depth = f"depth {bot.search.depth}, " if bot.search.depth else ""
        self.shell.host.set_style("cq-progress-words", "--cq-think", f'"{depth}{bot.search.nodes:,} nodes"')

    def _bot_done(self, bot: SearchBot) -> None:
        """The search's figures: nodes per second over the time spent searching (the slices,
        not the pauses between them), for this move and all the computer's moves so far."""
        search = bot.search
        if search is None:
            return
        self.progress_pct = 0
        self.total_nodes += search.nodes
        self.total_busy += bot.busy
        if search.nodes:
            nps = search.nodes / bot.busy if bot.busy > 0 else 0.0
            depth = f" to depth {search.depth}" if search.depth else ""
            words = (f"Computer ({bot.level}): {search.nodes:,} nodes{depth} in {bot.busy:.2f} s, "
                     f"{nps:,.0f} nodes per second.")
        else:
            what = "a random choice" if bot.level == "random" else "one legal move"
            words = f"Computer ({bot.level}): {what}, no search."
        if self.total_busy > 0 and self.total_nodes:
            words += (f" All its moves so far: {self.total_nodes:,} nodes, "
                      f"{self.total_nodes / self.total_busy:,.0f} nodes per second.")
        self.ai_words = words

    def nps(self) -> int:
        return int(self.total_nodes / self.total_busy) if self.total_busy > 0 else 0

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

    # -- acting on the board ------------------------------------------------------------------
    def choose(self, sq: int) -> None:
        """A click, tap, drop or Enter on a square: select, move, or place."""
        s = self.shell.session
        if s is None:
            return
        if not self.live():
            self.say_why_not()
            return
        state = self.state()
        if self.pending is not None:
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
                self.shell.say(f"Several reserve fighters fit on {R.square_name(sq)}: the {R.NAMES[kind]} "
                               f"(level {level}) is chosen; {self.verb().lower()} the square again to place it, or choose another.")
                return
            self.shell.say("Choose a fighter from your reserve, then a green square; or move without placing.")
            return
        if self.selected is not None:
            options = self.targets(self.selected)
            if sq in options:
                actions = options[sq]
                if len(actions) == 1:
                    self.shell.play(actions[0])
                else:  # a General move that allows a placement (C4)
                    self.pending = (self.selected, sq)
                    self.place_choice = None
                return
            if sq == self.selected:
                self.selected = None
                return
        p = state.board[sq]
        if p and R.owner_of(p) == state.to_move:
            if not self.targets(sq):
                self.shell.say(f"The {R.NAMES[R.kind_of(p)]} on {R.square_name(sq)} has no legal move now.")
            self.selected = sq
            return
        if self.selected is not None:
            self.shell.say(f"{R.square_name(self.selected)}–{R.square_name(sq)} is not a legal move.")
        self.selected = None

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

    def play_placement(self, frm: int, to: int, code: int, sq: int) -> None:
        action = next((a for a in self.legal() if (a.frm, a.to, a.place, a.place_sq) == (frm, to, code, sq)), None)
        if action is not None:
            self.shell.play(action)

    def skip_placement(self) -> None:
        """"Move without placing": the General's move alone."""
        if self.pending is None:
            return
        action = self.plain(*self.pending)
        if action is None:
            self.shell.say("Moving without placing would leave your General in Danger (C5).", "error")
            return
        self.shell.play(action)

    def cancel_placement(self) -> None:
        self.pending = self.place_choice = None
        self.selected = None

    def click_reserve(self, owner: int, code: int) -> None:
        """A reserve fighter: chosen for the placement after a General move, else explained."""
        if self.pending is not None and owner == self.state().to_move and code in self.placements(*self.pending):
            self.place_choice = None if self.place_choice == code else code
            return
        if self.live():
            self.shell.say("A reserve fighter comes back only right after a move of its General, "
                           "next to it (C4): move your General first.")

    def play_typed(self, ev: Event) -> None:
        """A typed move: the engine parses it, so a typo gets the engine's message."""
        text = str(ev.fields.get("move", "")).strip()
        if not text:
            return
        if not self.live():
            self.say_why_not()
            return
        try:
            action = GAME.parse_action(text)
        except InvalidAction as exc:
            self.shell.say(exc.message, "error")
            return
        if self.shell.play(action):
            ev.reset_form()

    def flip(self) -> None:
        self.flipped = not self.flipped

    def set_think(self, value: str) -> None:
        """The computer's time per move: this browser's preference (the next move on)."""
        self.think_seconds = think_choice(value)
        if not self.shell.host.save_pref(THINK_KEY, str(self.think_seconds)):
            self.shell.say("This browser's storage refused the setting; it holds on this page only.")

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

    # -- pointer and keyboard on the game board ---------------------------------------------
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

    # Pointer handlers sit on one group around the squares (a handler per square would make
    # every render re-key 36 elements), and read the square under the pointer (``ev.under``);
    # ``pointermove`` is listened to only while a fighter is pressed, so merely moving the
    # mouse costs one event per square entered (``pointerover``), not one per pixel.
    def on_down(self, ev: Event) -> None:
        sq = self.square_of(ev.under)
        if sq is None or self.shell.session is None:
            return
        ev.prevent()  # no text selection while dragging
        self.hover = sq  # a tap shows the fighter's pattern (touch has no hover)
        self.focus_sq = sq
        state = self.state()
        p = state.board[sq]
        own = bool(p) and self.live() and R.owner_of(p) == state.to_move and self.pending is None
        self.drag = {"from": sq, "own": own, "moved": False, "x": ev.x, "y": ev.y, "fresh": False}
        if own and self.selected != sq:
            self.choose(sq)
            self.drag["fresh"] = True
        self.soon()

    def on_move(self, ev: Event) -> None:
        """A pressed fighter follows the pointer (the ghost; no re-render while dragging)."""
        d = self.drag
        if d is None or not d["own"]:
            return
        if not d["moved"] and abs(ev.x - d["x"]) + abs(ev.y - d["y"]) < DRAG_PX:
            return
        d["moved"] = True
        host = self.shell.host
        host.set_style("cq-ghost", "display", "grid")
        host.set_style("cq-ghost", "left", f"{ev.x:.0f}px")
        host.set_style("cq-ghost", "top", f"{ev.y:.0f}px")
        host.set_style(f"cq-piece-{R.square_name(d['from'])}", "opacity", "0.3")

    def on_up(self, ev: Event) -> None:
        """The release: a drop on another square moves there; a click chooses the square."""
        d, self.drag = self.drag, None
        if d is None:
            return
        under = self.square_of(ev.under)
        if d["own"] and under is not None and under != d["from"]:
            self.choose(under)  # dropped (however few moves the page saw)
        elif not d["moved"] and under == d["from"] and not (d["own"] and d["fresh"]):
            self.choose(under)  # a click; a fresh press on a fighter already selected it
        self.soon()

    def on_cancel(self, ev: Event) -> None:
        self.drag = None
        self.soon()

    def on_over(self, ev: Event) -> None:
        """The pointer entered a square: its fighter's pattern is shown."""
        sq = self.square_of(ev.under)
        if sq is not None and sq != self.hover and self.drag is None:
            self.hover = sq
            self.soon()

    def on_out(self, ev: Event) -> None:
        """The pointer left the board: no fighter is pointed at any more."""
        if self.square_of(ev.under) is None and self.hover is not None and self.drag is None:
            self.hover = None
            self.soon()

    def on_focus(self, ev: Event) -> None:
        sq = self.square_of(ev.data)
        if sq is not None and (sq != self.hover or sq != self.focus_sq):
            self.hover = self.focus_sq = sq
            self.soon()

    def on_blur(self, ev: Event) -> None:
        if self.square_of(ev.data) == self.hover and self.drag is None:
            self.hover = None
            self.soon()

    def on_key(self, ev: Event) -> None:
        """Arrow keys move the focus between squares (roving tabindex), Enter or Space
        chooses, Escape forgets the choice."""
        sq = self.square_of(ev.data)
        if sq is None:
            return
        if ev.key in ("Enter", " "):
            ev.prevent()
            self.choose(sq)
        elif ev.key in ARROWS:
            ev.prevent()
            self.focus_sq = self.hover = step_square(sq, ev.key, self.flipped)
            self.shell.host.focus(f"cq-sq-{R.square_name(self.focus_sq)}")
        elif ev.key == "Escape":
            self.pending = self.place_choice = self.selected = None
        else:
            return
        self.soon()

    def hover_reserve(self, spec: tuple[int, int, int] | None) -> None:
        if spec != self.hover_res:
            self.hover_res = spec
            self.soon()

    def leave_reserve(self, ev: Event, key: str) -> None:
        if ev.under.get("key") != key:  # not just onto the chip's own text
            self.hover_reserve(None)

    # -- rendering the game ---------------------------------------------------------------------
    def render(self, view: Mapping[str, Any]) -> dict[str, Node]:
        state = self.state()
        self.sync_words()
        marks, place_sqs, targets = self.marks(state, view)
        return {
            "cq-squares": self.render_squares(state, targets, place_sqs),
            "cq-coords": frag(*coord_nodes(self.flipped)),
            "cq-hover": self.render_hover_marks(state),
            "cq-marks": marks,
            "cq-pieces": self.render_pieces(state),
            "cq-side": self.render_side(state, view),
            "cq-ghost-box": self.render_ghost(state),
            "cq-position-box": self.render_position(state),
        }

    def last_squares(self, state: State) -> set[int]:
        if not state.last:
            return set()
        a = GAME.parse_action(state.last)
        return {a.frm, a.to}

    def marks(self, state: State, view: Mapping[str, Any]) -> tuple[Node, set[int], dict[int, list[Action]]]:
        """Legal squares of the chosen fighter (dots, rings on captures), placement squares,
        and Danger (C5): the attacked General ringed red, its attackers dashed."""
        targets = self.targets(self.selected) if self.selected is not None and self.pending is None else {}
        place_sqs: set[int] = set()
        if self.pending is not None:
            opts = self.placements(*self.pending)
            if self.place_choice is not None:
                place_sqs = set(opts.get(self.place_choice, []))
            else:
                place_sqs = {sq for sqs in opts.values() for sq in sqs}
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
        last = self.last_squares(state)
        chosen = {self.selected} if self.selected is not None else set()
        if self.pending is not None:
            chosen = set(self.pending)
        rects = []
        for r in range(R.SIZE):
            for f in range(R.SIZE):
                sq = r * R.SIZE + f
                name = R.square_name(sq)
                x, y = square_xy(sq, self.flipped)
                p = state.board[sq]
                words = name + (f", {fighter_words(p)}" if p else "")
                if self.pending is not None and sq in self.pending:  # the move waits for a placement (C4)
                    general = fighter_words(state.board[self.pending[0]])
                    taken = state.board[self.pending[1]]
                    words = (f"{name}, {general}, moving to {R.square_name(self.pending[1])}" if sq == self.pending[0]
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
                    tabindex=0 if sq == self.focus_sq else -1, role="button", aria_label=words,
                    on_keydown=self.on_key, on_focus=self.on_focus, on_blur=self.on_blur,
                ))
        dragging = self.drag is not None
        choosing = self.live() and self.selected is None and self.pending is None
        return frag(svg(
            "g", *rects, id="cq-board-input", data_now="next" if choosing else None, on_pointerdown=self.on_down, on_pointerup=self.on_up,
            on_pointerover=self.on_over, on_pointerout=self.on_out,
            on_pointermove=self.on_move if dragging else None, on_pointercancel=self.on_cancel if dragging else None,
        ))

    def render_pieces(self, state: State) -> Node:
        kids = []
        for sq, p in enumerate(state.board):
            if not p:
                continue
            if self.pending is not None and sq == self.pending[1]:
                continue  # the fighter the General is about to take
            if self.pending is not None and sq == self.pending[0]:
                kids.append(piece_node("cq", sq, p, self.flipped, at=self.pending[1], extra=" is-pending"))
            else:
                kids.append(piece_node("cq", sq, p, self.flipped))
        return frag(*kids)

    def render_ghost(self, state: State) -> Node:
        """The fighter under the pointer while it is dragged (placed by ``on_move``)."""
        p = state.board[self.drag["from"]] if self.drag is not None and self.drag["own"] else 0
        if not p:
            return h("div", id="cq-ghost", cls="cq-ghost", aria_hidden="true")
        return h("div", h("span", R.KINDS[R.kind_of(p)]), id="cq-ghost",
                 cls=f"cq-ghost {'white' if R.owner_of(p) == 0 else 'black'}", aria_hidden="true")

    def info_subject(self, state: State) -> int | None:
        """The fighter whose pattern is shown: under the pointer or focus, else the chosen one."""
        if self.hover is not None and state.board[self.hover]:
            return self.hover
        if self.selected is not None and state.board[self.selected]:
            return self.selected
        return None

    def render_hover_marks(self, state: State) -> Node:
        """Dashed squares where the fighter pointed at can go now (before the Danger test)."""
        sq = self.info_subject(state)
        if sq is None or sq == self.selected or self.hover_res is not None:
            return frag()  # the chosen fighter's legal squares are already marked
        kids = []
        for t in R.reach(state.board, sq):
            x, y = square_xy(t, self.flipped)
            kids.append(svg("rect", cls="reach", x=x + 4, y=y + 4, width=S - 8, height=S - 8, rx=6))
        x, y = square_xy(sq, self.flipped)
        kids.append(svg("rect", cls="reach-from", x=x + 2, y=y + 2, width=S - 4, height=S - 4, rx=6))
        return frag(*kids)

    # -- what just happened and what to do next, right by the board (issue 41) ----------------------
    def render_now(self, state: State, view: Mapping[str, Any]) -> Node:
        """Right under the board on a phone, first beside it on a wide screen: the status box (the last
        move, or the placement after a General's move) and the chosen fighter's help. The
        status box is this page's "what just happened" (the last move, the computer's reply),
        of a fixed size so the controls below never move; the shell's live region announces
        the same steps (issue 21, item 10)."""
        status = self.render_status_box(state, view)
        info = self.render_info(state)
        result: Node | None = None
        nxt: Node | None = None
        if self.pending is not None:
            result, nxt = first(status, "#cq-place-text"), first(status, "#cq-place-acts")
        else:
            result = first(status, "#cq-last")
            if self.live():
                nxt = info if self.selected is not None else None  # else the board's squares (render_squares)
            elif view["outcome"] is None:
                nxt = first(status, "#cq-status")  # the computer's move: its thinking bar
        for node, now in ((result, "result"), (nxt, "next")):
            if node is not None:
                node.attrs["data-now"] = now
        self.now_key = (len(self.shell.session.match.log) if self.shell.session else 0, self.selected, self.pending,
                        self.place_choice)
        return h("div", status, info, id="cq-now-inner", cls="cq-now-inner")

    def after_render(self) -> None:
        """After a tap or a step (not the first render, nor while a fighter is dragged): the
        board with the result and the next decision into view (issue 41)."""
        if self.drag is not None or self.now_key == self.now_shown:
            return
        first, self.now_shown = self.now_shown is None, self.now_key
        if not first:
            self.shell.host.reveal("cq-now-inner")

    # -- the side panel -----------------------------------------------------------------------------
    def render_side(self, state: State, view: Mapping[str, Any]) -> Node:
        s = self.shell.session
        assert s is not None
        show_think = s.mode == "host" and any(seat.is_bot for seat in s.seats())
        return h(
            "div",
            self.render_now(state, view),
            self.render_reserves(state),
            h("div",
              h("button", "Flip the board", type="button", id="cq-flip", cls="secondary",
                aria_pressed="true" if self.flipped else "false", on_click=lambda ev: self.flip()),
              h("button", "Set up this position", type="button", id="cq-edit-here", cls="secondary",
                on_click=lambda ev: self.edit_here()),
              h("button", "New game", type="button", id="cq-new", cls="secondary",
                on_click=lambda ev: self.new_game()),
              cls="cq-actions"),
            h("p",
              h("label", "Computer's time per move", for_="cq-think"),
              h("select", *[h("option", f"{n} second{'s' if n > 1 else ''}", value=str(n)) for n in THINK_CHOICES],
                id="cq-think", value=str(self.think_seconds), on_change=lambda ev: self.set_think(ev.value)),
              id="cq-think-row", cls="cq-think-row", hidden=not show_think),
            h("form",
              h("label", "Type a move (e.g. ", h("code", "b2b3"), ", or after a General move ",
                h("code", "c1c2+S2@b1"), "):", for_="cq-typed-text"),
              h("input", type="text", id="cq-typed-text", name="move", autocomplete="off", spellcheck="false",
                autocapitalize="off"),
              h("button", "Play", type="submit", cls="secondary"),
              id="cq-typed", cls="inline-form", aria_label="Type a move", hidden=s.locked(),
              on_submit=self.play_typed),
            h("h2", "Moves"),
            self.render_moves(),
            h("p", self.ai_words, id="cq-ai-stats", cls="cq-ai-stats muted", hidden=not self.ai_words,
              data_nps=str(self.nps()) if self.ai_words else None),
            id="cq-side-inner",
        )

    def render_status_box(self, state: State, view: Mapping[str, Any]) -> Node:
        """A box of fixed size (the controls below never move): what just happened and what
        is asked now, or the placement choice after a General move (C4)."""
        if self.pending is not None:
            return h("div", self.render_placement(), id="cq-status-box", cls="cq-status-box is-place")
        s = self.shell.session
        assert s is not None
        kids: list[Any] = []
        if state.last:  # what just happened, in words (the status is live for screen readers)
            kids.append(h("span", f"{self.describe_last(state)}. ", cls="cq-last", id="cq-last"))
        out = view["outcome"]
        danger = bool(view["in_danger"]) and out is None
        if out is not None:  # the reason names the winner or the draw, and the ruling
            winners = out.get("winners") or []
            result = f"{COLOURS[winners[0]]} wins." if len(winners) == 1 else "Draw."
            kids += [h("span", "Game over: "), h("strong", result, id="cq-result"), " ",
                     h("span", self.end_reason(out["reason"], winners))]
        else:
            side = state.to_move
            level = self.bot_level(side)
            who = self.seat_label(side) + " to move" + ("" if level is None else f" (computer, {level})")
            kids.append(h("span", f"Move {view['move_number']}: {who}."))
            if danger:
                g, attackers = danger_squares(state)
                by = ", ".join(f"the {R.NAMES[R.kind_of(state.board[a])]} on {R.square_name(a)}" for a in attackers)
                kids += [" ", h("span", "Danger!", cls="cq-danger-word"),
                         h("span", f" {COLOURS[side]}'s General on {R.square_name(g)} is attacked by {by} (C5).")]
            if view["repetitions"] == 2:
                kids.append(h("span", " This position has occurred twice: a third time is a draw."))
            if view["quiet_plies"] >= 180:
                kids.append(h("span", f" {view['quiet_plies']} moves without a capture: 200 is a draw."))
            if s.viewing is None and (s.bot is not None or s.bot_to_act() is not None):
                kids.append(self.render_progress())
        return h(
            "div",
            h("p", *kids, id="cq-status", cls="cq-status" + (" is-danger" if danger else "")
              + (" is-over" if out is not None else ""), role="status", aria_live="polite"),
            id="cq-status-box", cls="cq-status-box",
        )

    def render_progress(self) -> Node:
        """The computer's thinking bar; its width and words are set between slices."""
        return h(
            "span",
            h("span", h("span", id="cq-progress-fill", cls="cq-progress-fill", style=f"width:{self.progress_pct}%"),
              id="cq-progress", cls="cq-progress", role="presentation"),
            h("span", id="cq-progress-words", cls="cq-progress-words", aria_hidden="true"),
            cls="cq-thinking",
        )

    def describe_last(self, state: State) -> str:
        s = self.shell.session
        assert s is not None
        i = s.step() - 1
        return self.words(i) if i >= 0 else str(state.last)

    def sync_words(self) -> None:
        """The engine's words for every logged move, kept while the log keeps its states (one
        check per render; the move list and the status read them)."""
        s = self.shell.session
        assert s is not None
        states, log = s.match.states, s.match.log
        keep = 0
        while keep < min(len(self._words), len(log)) and self._words[keep][0] is states[keep]:
            keep += 1
        del self._words[keep:]
        for j in range(len(self._words), len(log)):
            try:
                words = GAME.describe_action(states[j], GAME.parse_action(log[j]))
            except InvalidAction:
                words = log[j]
            self._words.append((states[j], words))

    def words(self, i: int) -> str:
        return self._words[i][1]

    def render_placement(self) -> Node:
        assert self.pending is not None
        frm, to = self.pending
        plain_ok = self.plain(frm, to) is not None
        text = (f"Your General moves {R.square_name(frm)}–{R.square_name(to)}. You may place one reserve fighter "
                "beside or behind it (C4)")
        if self.place_choice is None:
            text += ": choose a fighter, then a green square."
        else:
            kind, level = self.place_choice >> 2, self.place_choice & 3
            text += f": {self.verb().lower()} a green square for the {R.NAMES[kind]} (level {level})."
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
        opts = self.placements(*self.pending) if self.pending is not None else {}
        order = (0, 1) if self.flipped else (1, 0)  # the side at the top of the board first
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
                    on_pointerover=lambda ev, sp=spec: self.hover_reserve(sp),
                    on_pointerout=lambda ev, k=key: self.leave_reserve(ev, k),
                    on_focus=lambda ev, sp=spec: self.hover_reserve(sp),
                    on_blur=lambda ev: self.hover_reserve(None),
                ))
            kids.append(h("h3", f"{COLOURS[owner]}'s reserve", id=f"cq-res-title-{owner}"))
            kids.append(h("div", *(chips or [h("span", "empty", cls="empty")]), id=f"cq-res-{owner}",
                          cls="cq-reserve", aria_labelledby=f"cq-res-title-{owner}"))
        return h("div", *kids, cls="cq-reserves")

    def render_pending_info(self, state: State) -> Node:
        """While a General's move waits for the optional placement (C4), the side panel is
        about that move (issue 21, item 6: it went on describing the fighter being taken)."""
        assert self.pending is not None
        frm, to = self.pending
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
        return self.info_box(pattern_diagram(R.KINDS[R.GENERAL], R.level_of(p), owner, self.flipped), words)

    def render_info(self, state: State) -> Node:
        """The move pattern of the fighter pointed at (or chosen): a diagram and words."""
        if self.hover_res is not None:
            owner, kind, level = self.hover_res
            letter = R.KINDS[kind]
            up = (owner == 0) != self.flipped
            words = (f"{COLOURS[owner]} {R.NAMES[kind]} in the reserve, level {level} of {R.MAX_LEVEL[kind]}: "
                     f"{pattern_words(letter, level)} (forward is {'up' if up else 'down'} on the board). "
                     "It comes back next to its General after a General move (C4).")
            return self.info_box(pattern_diagram(letter, level, owner, self.flipped), words)
        sq = self.info_subject(state)
        if self.pending is not None and (sq is None or sq in self.pending):
            return self.render_pending_info(state)
        if sq is None:
            return self.info_box([], INFO_IDLE_TOUCH if getattr(self.shell.host, "touch", False) else INFO_IDLE)
        p = state.board[sq]
        owner, kind, level = R.owner_of(p), R.kind_of(p), R.level_of(p)
        letter = R.KINDS[kind]
        reach = [R.square_name(t) for t in R.reach(state.board, sq)]
        up = (owner == 0) != self.flipped
        words = (f"{COLOURS[owner]} {R.NAMES[kind]} on {R.square_name(sq)}, level {level} of {R.MAX_LEVEL[kind]}: "
                 f"{pattern_words(letter, level)} (forward is {'up' if up else 'down'} on the board). ")
        words += f"It can reach {', '.join(reach)} now." if reach else "It cannot move now."
        if sq == self.selected and self.live():
            words = (f"{self.verb()} a marked square to move it there, or the fighter again to let it go. "
                     if self.targets(sq) else "It has no legal move now: choose another fighter. ") + words
        if kind != R.GENERAL and level < R.MAX_LEVEL[kind]:
            words += f" If captured it comes back at level {level + 1} (C3)."
        elif kind != R.GENERAL:
            words += " If captured it retires from the game (C3)."
        return self.info_box(pattern_diagram(letter, level, owner, self.flipped), words)

    @staticmethod
    def info_box(diagram: list[Node], words: str) -> Node:
        return h(
            "div",
            svg("svg", *diagram, id="cq-info-diagram", cls="cq-info-diagram", viewBox="0 0 154 154",
                aria_hidden="true"),
            h("p", words, id="cq-info-text"),
            id="cq-info", cls="cq-info" + ("" if diagram else " is-empty"), aria_live="polite",
        )

    def render_moves(self) -> Node:
        """The moves by number, White's then Black's; each shows the game after it."""
        s = self.shell.session
        assert s is not None
        first_ply = s.match.states[0].ply
        items: list[Node] = []
        item: Node | None = None
        for i, text in enumerate(s.match.log):
            ply = first_ply + i
            if item is None or ply % 2 == 0:
                item = h("li", value=str(ply // 2 + 1))
                items.append(item)
                if ply % 2 == 1:
                    item.children.append(h("span", "…"))
            viewed = s.viewing == i + 1
            item.children.append(h(
                "button", h("code", text), type="button", cls="cq-ply" + (" is-viewed" if viewed else ""),
                title=self.words(i), aria_label=f"View the game after {self.words(i)}",
                on_click=lambda ev, k=i + 1: self.shell.jump(k),
            ))
        return h("div", h("ol", *items, id="cq-moves", cls="cq-moves", aria_label="Moves played"),
                 cls="cq-moves-box")

    def render_position(self, state: State) -> Node:
        """The position's text (C6) and a link that opens the editor on it."""
        text = position_to_text(state)
        url = setup_link(self.shell.host.page_url(), text)
        return h(
            "div",
            h("p", "Position (C6): ", h("span", text, id="cq-position", cls="cq-position")),
            h("p", h("button", "Copy link to this position", type="button", id="cq-copy-setup", cls="small",
                     data_copy=url),
              " ", h("span", f"{len(url):,} characters", id="cq-setup-len", cls="muted"),
              h("span", url, id="cq-setup-url", cls="url")),
            h("p", "The position link opens the position editor with the position as it stands on the board, "
                   "for anyone to play on from it.", cls="muted"),
            id="cq-position-inner", cls="cq-links",
        )

    def end_reason(self, reason: str, winners: list[int]) -> str:
        """The engine's reason without what the status already says: the winner ("Black
        wins" once, not twice) and, unless codes are shown, the rule code in front."""
        if len(winners) == 1:
            tail = f": {COLOURS[winners[0]]} wins"
            reason = reason[: -len(tail)] if reason.endswith(tail) else reason
        code, sep, rest = reason.partition(": ")
        if sep and not self.shell.log.show_codes and code[:1] == "C" and code[1:].isdigit():
            reason = rest
        return reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else ".")

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
        if self.pending is not None:
            return f"{who}: place a reserve fighter next to your General, or move without placing."
        if self.selected is not None:
            return f"{who}: choose where the {R.NAMES[R.kind_of(self.state().board[self.selected])]} goes."
        danger = " Your General is in Danger!" if view["in_danger"] else ""
        return f"{who} to move: choose a fighter.{danger}"



def main() -> None:
    """In the page: run The Game of Conquests on the shell."""
    from shell_browser import run

    run(ConquestsPage)


