"""The Game of Conquests' position editor: a page of its own in all but name (issue 21).

Why a module of its own: the play page (``site/games/conquests/``) and the editor share
only the board's drawing (squares, fighters, coordinates, in this module) and the set-up
form; the editor keeps its own model (:class:`Editor`, possibly an invalid position while
being edited), writes the text with the engine's ``position_to_text`` and checks it with
``position_from_text``, whose message it shows. A position link (``#setup=<text>``) opens
the editor with that text: it is only ever a text and an input's value, never markup.

A helper of one page module, shipped like the shell's modules (``site/py/*.py`` go into
``py/app.zip``); the page module stays the game's one entry (``play_conquests``).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote_to_bytes

from ui import Event, Node, h, svg

from conquest.core import InvalidOptions
from conquest.games.conquests import GAME, State, position_from_text, position_to_text
from conquest.games.conquests import rules as R

__all__ = [
    "ARROWS", "COLOURS", "M", "S", "SETUP_PREFIX", "Editor", "PositionEditor", "coord_nodes", "fighter_words",
    "number_field", "piece_node", "read_setup_link", "setup_link", "square_xy", "step_square", "verdict",
]

S = 80  # square size in the board's SVG units (as in the template's macro)
M = 26  # margin for the coordinates
COLOURS = ("White", "Black")
ARROWS = {"ArrowUp": (0, 1), "ArrowDown": (0, -1), "ArrowLeft": (-1, 0), "ArrowRight": (1, 0)}
SETUP_PREFIX = "#setup="  # a position link: opens the editor with the position text
#: a position text has at most 200 characters; a link's text far longer is refused unread
SETUP_LINK_MAX = 2000
#: what ``encodeURIComponent`` leaves as it is, so links match the ones made before
URI_SAFE = "-_.!~*'()"
_ESCAPES = re.compile(r"%(?![0-9A-Fa-f]{2})")


# -- the board's drawing, shared with the play page ------------------------------------------
def square_xy(sq: int, flip: bool) -> tuple[float, float]:
    """Top-left corner of a square in the board's units (White at the bottom unless flipped)."""
    f, r = sq % R.SIZE, sq // R.SIZE
    col, row = (5 - f, r) if flip else (f, 5 - r)
    return M + col * S, row * S


def step_square(sq: int, key: str, flip: bool) -> int:
    """The square an arrow key moves the keyboard focus to (as seen on the screen)."""
    dx, dy = ARROWS[key]
    if flip:
        dx, dy = -dx, -dy
    f = min(5, max(0, sq % R.SIZE + dx))
    r = min(5, max(0, sq // R.SIZE + dy))
    return r * R.SIZE + f


def fighter_words(p: int) -> str:
    return f"{COLOURS[R.owner_of(p)]} {R.NAMES[R.kind_of(p)]} level {R.level_of(p)}"


def piece_node(prefix: str, sq: int, p: int, flip: bool, at: int | None = None, extra: str = "") -> Node:
    """One fighter: a disc with its letter, its level as chevrons pointing its way (as on
    the cubes); drawn on square ``at`` when given (a General waiting for its placement)."""
    x, y = square_xy(sq if at is None else at, flip)
    owner, level = R.owner_of(p), R.level_of(p)
    up = (owner == 0) != flip
    chevrons = []
    for i in range(level):
        yy = 22 - i * 5
        tip, base = (yy - 5, yy) if up else (yy, yy - 5)
        chevrons.append(svg("polyline", cls="chev", points=f"-8,{base} 0,{tip} 8,{base}"))
    name = R.square_name(sq)
    return svg(
        "g", svg("circle", r=31), svg("text", R.KINDS[R.kind_of(p)], y=-7), *chevrons,
        cls=f"piece {'white' if owner == 0 else 'black'}{extra}",
        transform=f"translate({x + S / 2},{y + S / 2})",
        id=f"{prefix}-piece-{name}", data_sq=name,
    )


def coord_nodes(flip: bool) -> list[Node]:
    out = []
    for i in range(6):
        out.append(svg("text", R.FILES[5 - i] if flip else R.FILES[i], cls="coord", x=M + i * S + S / 2,
                       y=6 * S + M / 2 + 2))
        out.append(svg("text", str(i + 1 if flip else 6 - i), cls="coord", x=M / 2, y=i * S + S / 2))
    return out


# -- position texts and links ----------------------------------------------------------------
def verdict(text: str) -> tuple[State | None, str]:
    """The engine's verdict on a position text: (state, summary) or (None, the parser's message)."""
    try:
        st = position_from_text(text)
    except InvalidOptions as exc:
        return None, exc.message
    out = GAME.outcome(st)
    side = COLOURS[st.to_move]
    if out is not None:
        return st, f"A valid position, but the game is already over there: {out.reason}"
    n = len(GAME.legal_actions(st))
    words = f"A valid position: {side} to move, {n} legal move{'s' if n != 1 else ''}."
    if GAME.in_danger(st):
        words += f" {side}'s General is in Danger (C5)."
    return st, words


def setup_link(base: str, text: str) -> str:
    """``…/play/conquests/#setup=<text>``, escaped as ``encodeURIComponent`` does."""
    return base + SETUP_PREFIX + quote(text, safe=URI_SAFE)


def read_setup_link(fragment: str) -> tuple[str | None, str]:
    """The text of a position link's fragment, or (None, why it cannot be opened)."""
    raw = fragment[len(SETUP_PREFIX):]
    if len(raw) > SETUP_LINK_MAX:
        return None, "That position link is far longer than any position; it was not opened."
    try:
        if _ESCAPES.search(raw):
            raise ValueError("a % without two hex digits")
        return unquote_to_bytes(raw).decode("utf-8"), ""
    except ValueError:  # UnicodeDecodeError too
        return None, "That position link is damaged (bad %-escapes); it was not opened."


# -- the position editor's model ----------------------------------------------------------------
@dataclass
class Editor:
    """The editor's position (possibly invalid while edited), its tool and its text box."""

    board: list[int] = field(default_factory=lambda: [0] * R.NSQ)
    #: reserve codes without the owner bits (kind << 2 | level), per side
    res: list[list[int]] = field(default_factory=lambda: [[], []])
    side: int = 0
    quiet: int = 0
    moveno: int = 1
    #: the text box: written from the model, or as typed
    text: str = ""
    owner: int = 0
    kind: int | None = R.SOLDIER  # None: the eraser
    level: int = 1
    focus: int = 0  # the board square that takes the Tab focus (roving tabindex)

    def load(self, st: State) -> None:
        self.board = list(st.board)
        self.res = [list(st.reserves[0]), list(st.reserves[1])]
        self.side, self.quiet, self.moveno = st.to_move, st.quiet, st.ply // 2 + 1

    def written(self) -> str:
        """The model as C6 text, written by the engine (valid or not)."""
        res = (tuple(sorted(self.res[0])), tuple(sorted(self.res[1])))
        st = State(tuple(self.board), res, self.side, self.quiet, 2 * (self.moveno - 1) + self.side, (0,), None)
        return position_to_text(st)

    def tool(self) -> int | None:
        """The fighter code to place, or None for the eraser."""
        if self.kind is None:
            return None
        return R.code(self.owner, self.kind, min(self.level, R.MAX_LEVEL[self.kind]))

    def put(self, sq: int) -> None:
        """Place the chosen fighter (the same one again empties the square), or erase."""
        c = self.tool()
        self.board[sq] = 0 if c is None or self.board[sq] == c else c

    def swap(self) -> None:
        """Swap the colours: the board turned half round, each fighter changing sides."""
        new = [0] * R.NSQ
        for sq, p in enumerate(self.board):
            if p:
                new[R.NSQ - 1 - sq] = R.code(R.owner_of(p) ^ 1, R.kind_of(p), R.level_of(p))
        self.board, self.res, self.side = new, [self.res[1], self.res[0]], self.side ^ 1


def number_field(raw: str, default: int) -> int:
    """A typed counter: digits only; anything else becomes -1, which the parser refuses."""
    raw = raw.strip()
    if not raw:
        return default
    return int(raw) if raw.isdigit() and len(raw) <= 6 else -1


# -- the editor on the set-up -------------------------------------------------------------------
class PositionEditor:
    """The editor's state and its renderers and handlers, for the play page's set-up.

    ``page`` is the :class:`ConquestsPage` it belongs to: the editor starts games through
    its shell ("Play from here" with the set-up's players) and returns to the game it left.
    """

    def __init__(self, page: Any) -> None:
        self.page = page
        self.shell = page.shell
        self.ed = Editor()
        self.ed.load(position_from_text(R.START_TEXT))
        self.ed.text = self.ed.written()
        self.open = False

    def render_setup(self) -> dict[str, Node]:
        back = None
        if self.page.left_slot is not None:
            back = h("button", "Back to the game", type="button", id="cq-back", cls="secondary",
                     on_click=lambda ev: self.page.back_to_game())
        return {
            "cq-ed-toggle-box": h(
                "p",
                h("button", "Hide the position editor" if self.open else "Set up a position…",
                  type="button", id="cq-edit-open", cls="secondary", aria_controls="cq-editor",
                  aria_expanded="true" if self.open else "false",
                  on_click=lambda ev: self.toggle()),
                " ", back,
                cls="cq-actions", id="cq-ed-toggle",
            ),
            "cq-editor-box": self.render(),
        }

    def toggle(self) -> None:
        self.open = not self.open

    def changed(self) -> None:
        """The model changed (board, reserves, fields): the text box follows it."""
        self.ed.text = self.ed.written()

    def click(self, sq: int) -> None:
        self.ed.focus = sq
        self.ed.put(sq)
        self.changed()

    def key(self, ev: Event) -> None:
        """Editor board keys: arrows and Enter as on the game board; Delete or Backspace empties."""
        sq = self.page.square_of(ev.data)
        if sq is None:
            return
        if ev.key in ("Enter", " "):
            ev.prevent()
            self.click(sq)
        elif ev.key in ("Delete", "Backspace"):
            ev.prevent()
            self.ed.board[sq] = 0
            self.changed()
        elif ev.key in ARROWS:
            ev.prevent()
            self.ed.focus = step_square(sq, ev.key, False)
            self.shell.host.focus(f"cq-ed-sq-{R.square_name(self.ed.focus)}")
        else:
            return
        self.page.soon()

    def set_tool(self, owner: int | None = None, kind: int | None | str = "", level: int | None = None) -> None:
        """A radio of the tool: levels above the chosen kind's last level cannot be chosen."""
        if owner is not None:
            self.ed.owner = owner
        if kind != "":
            self.ed.kind = kind if isinstance(kind, int) else None
        if level is not None:
            self.ed.level = level
        if self.ed.kind is not None:
            self.ed.level = min(self.ed.level, R.MAX_LEVEL[self.ed.kind])

    def res_add(self) -> None:
        c = self.ed.tool()
        if c is None:
            return
        self.ed.res[self.ed.owner].append(c & 31)  # a General here: the parser refuses it (C3)
        self.changed()

    def res_remove(self, owner: int, rc: int) -> None:
        if rc in self.ed.res[owner]:
            self.ed.res[owner].remove(rc)
        self.changed()

    def fields(self, side: int | None = None, quiet: str | None = None, moveno: str | None = None) -> None:
        if side is not None:
            self.ed.side = side
        if quiet is not None:
            self.ed.quiet = number_field(quiet, 0)  # out of range: the parser says so
        if moveno is not None:
            self.ed.moveno = number_field(moveno, 1)
        self.changed()

    def set_text(self, text: str) -> None:
        """Typed (or linked) text: a valid one sets the board; any gets the parser's verdict."""
        self.ed.text = text
        st, _ = verdict(text.strip())
        if st is not None:
            self.ed.load(st)

    def clear(self) -> None:
        self.ed.board, self.ed.res = [0] * R.NSQ, [[], []]
        self.changed()

    def swap(self) -> None:
        self.ed.swap()
        self.changed()

    def play(self) -> None:
        """"Play from here": a new game from the editor's position with the set-up's players."""
        st, words = verdict(self.ed.text.strip())
        if st is None:  # the button is disabled then; Enter in the text box may still get here
            self.shell.say(words, "error")
            return
        self.page.start_position = position_to_text(st)
        try:
            started = self.shell.start(self.shell.host.form_fields("shell-setup-form"))
        finally:
            self.page.start_position = None
        if started is not None:
            self.page.reveal_later("shell-title")

    def enter(self, ev: Event, play: bool = False) -> None:
        """Enter in an editor field must not send the set-up form (the usual start)."""
        if ev.key == "Enter":
            ev.prevent()
            if play:
                self.play()
                self.page.soon()

    def render(self) -> Node:
        ed = self.ed
        st, words = verdict(ed.text.strip())
        valid = position_to_text(st) if st is not None else None
        url = setup_link(self.shell.host.page_url(), valid) if valid else ""

        def radio(name: str, value: str, label: str, checked: bool, on: Callable[[], None],
                  disabled: bool = False) -> Node:
            return h("label", h("input", type="radio", name=name, value=value, checked=checked, disabled=disabled,
                                on_change=lambda ev: on(), on_keydown=self.enter), f" {label}")

        kinds = [(str(R.KINDS[k]), R.NAMES[k], k) for k in range(5)] + [("-", "Eraser", None)]
        top = R.MAX_LEVEL[ed.kind] if ed.kind is not None else 0
        tools = h(
            "fieldset",
            h("legend", "Fighter to place"),
            h("div", *[radio("cq-ed-owner", str(o), COLOURS[o], ed.owner == o,
                             lambda o=o: self.set_tool(owner=o)) for o in (0, 1)],
              cls="cq-radios", role="radiogroup", aria_label="Colour"),
            h("div", *[radio("cq-ed-kind", letter, name, ed.kind == k, lambda k=k: self.set_tool(kind=k))
                       for letter, name, k in kinds],
              cls="cq-radios", role="radiogroup", aria_label="Kind"),
            h("div", *[radio("cq-ed-level", str(n), f"Level {n}", ed.kind is not None and ed.level == n,
                             lambda n=n: self.set_tool(level=n), disabled=n > top) for n in (1, 2, 3)],
              cls="cq-radios", role="radiogroup", aria_label="Level"),
            cls="cq-tools",
        )
        reserves: list[Node] = []
        for owner in (0, 1):
            counts: dict[int, int] = {}
            for rc in ed.res[owner]:
                counts[rc] = counts.get(rc, 0) + 1
            chips = []
            for rc, n in sorted(counts.items()):
                kind, level = rc >> 2, rc & 3
                letter = R.KINDS[kind] if owner == 0 else R.KINDS[kind].lower()
                chips.append(h(
                    "button",
                    h("span", letter, cls=f"tok {'white' if owner == 0 else 'black'}"),
                    h("span", f"{R.NAMES[kind]}, level {level}" + (f" ×{n}" if n > 1 else "")),
                    h("span", "×", cls="x", aria_hidden="true"),
                    type="button", cls="cq-res edit",
                    aria_label=f"Remove one {COLOURS[owner]} {R.NAMES[kind]} level {level} from the reserve",
                    on_click=lambda ev, o=owner, c=rc: self.res_remove(o, c),
                ))
            reserves.append(h("h3", f"{COLOURS[owner]}'s reserve", id=f"cq-ed-res-title-{owner}"))
            reserves.append(h("div", *(chips or [h("span", "empty", cls="empty")]), id=f"cq-ed-res-{owner}",
                              cls="cq-reserve", aria_labelledby=f"cq-ed-res-title-{owner}"))
        reserves.append(h("p", h("button", "Add the chosen fighter to its reserve", type="button",
                                 id="cq-ed-res-add", cls="small secondary", disabled=ed.kind is None,
                                 on_click=lambda ev: self.res_add())))
        fields = h(
            "fieldset",
            h("legend", "Game state"),
            h("div", *[radio("cq-ed-side", "wb"[o], f"{COLOURS[o]} to move", ed.side == o,
                             lambda o=o: self.fields(side=o)) for o in (0, 1)],
              cls="cq-radios", role="radiogroup", aria_label="Side to move"),
            h("div",
              h("label", "Plies without a capture", for_="cq-ed-quiet"),
              h("input", type="number", id="cq-ed-quiet", min="0", max="200", value=str(ed.quiet),
                inputmode="numeric", on_input=lambda ev: self.fields(quiet=ev.value), on_keydown=self.enter),
              h("label", "Move number", for_="cq-ed-moveno"),
              h("input", type="number", id="cq-ed-moveno", min="1", max="99999", value=str(ed.moveno),
                inputmode="numeric", on_input=lambda ev: self.fields(moveno=ev.value), on_keydown=self.enter),
              cls="row"),
            cls="cq-tools",
        )
        panel = h(
            "div",
            tools,
            h("div", *reserves, cls="cq-reserves"),
            fields,
            h("p",
              h("button", "Usual start", type="button", id="cq-ed-start", cls="small secondary",
                on_click=lambda ev: self.set_text(R.START_TEXT)),
              h("button", "Empty board", type="button", id="cq-ed-clear", cls="small secondary",
                on_click=lambda ev: self.clear()),
              h("button", "Swap colours", type="button", id="cq-ed-flipsides", cls="small secondary",
                on_click=lambda ev: self.swap()),
              cls="cq-actions"),
            h("label", "Position text (C6): edit the board above or type here", for_="cq-ed-text"),
            h("input", type="text", id="cq-ed-text", value=ed.text, autocomplete="off", spellcheck="false",
              autocapitalize="off", maxlength="200", on_input=lambda ev: self.set_text(ev.value),
              on_keydown=lambda ev: self.enter(ev, play=True)),
            h("p", words, id="cq-ed-msg", cls="cq-ed-msg " + ("ok" if st is not None else "bad"), role="status",
              aria_live="polite"),
            h("p",
              h("button", "Play from here", type="button", id="cq-ed-play", disabled=st is None,
                on_click=lambda ev: self.play()),
              h("button", "Copy link to this position", type="button", id="cq-ed-copy", cls="secondary",
                disabled=st is None, data_copy=url or None),
              cls="cq-actions"),
            h("p", h("span", url, id="cq-ed-url", cls="url"), cls="cq-links"),
            h("p", "“Play from here” uses the players chosen above. The link opens this editor with the position, "
                   "for anyone to play from it.", cls="muted"),
            cls="cq-side",
        )
        return h(
            "section",
            h("h2", "Position editor", id="cq-ed-title"),
            h("p", "Choose a fighter (colour, kind, level) or the eraser, then click or tap squares; on the keyboard, "
                   "Tab to the board, move with the arrow keys and press Enter (Delete empties a square). Clicking a "
                   "square that already holds the chosen fighter empties it.", cls="muted"),
            h("div", h("div", self.render_board(), cls="cq-boardbox"), panel, cls="cq-grid"),
            id="cq-editor", cls="cq-editor", aria_labelledby="cq-ed-title", hidden=not self.open,
        )

    def render_board(self) -> Node:
        ed = self.ed
        rects, pieces = [], []
        for r in range(R.SIZE):
            for f in range(R.SIZE):
                sq = r * R.SIZE + f
                name = R.square_name(sq)
                x, y = square_xy(sq, False)
                p = ed.board[sq]
                rects.append(svg(
                    "rect", cls="sq " + ("dark" if (f + r) % 2 == 0 else "light"), id=f"cq-ed-sq-{name}",
                    data_sq=name, x=x, y=y, width=S, height=S, tabindex=0 if sq == ed.focus else -1, role="button",
                    aria_label=name + (f", {fighter_words(p)}" if p else ""),
                    on_click=lambda ev, sq=sq: self.click(sq), on_keydown=self.key,
                ))
        for sq, p in enumerate(ed.board):
            if p:
                pieces.append(piece_node("cq-ed", sq, p, False))
        return svg(
            "svg",
            svg("g", *rects, id="cq-ed-squares"),
            svg("g", *coord_nodes(False), aria_hidden="true"),
            svg("g", *pieces, id="cq-ed-pieces", aria_hidden="true"),
            id="cq-ed-board", cls="cq-board", viewBox=f"0 0 {M + 6 * S + 4} {6 * S + M + 4}", role="group",
            aria_label="Position editor board: Tab to reach a square, the arrow keys to move between squares, "
                       "Enter to put the chosen fighter there or remove it",
        )
