"""The shell every game page stands on: its logic and its shared renderers, browser-free.

Why one shell: links, save slots, the log, undo, "viewing step N", seats with bots, the bot
runner, pass-the-device screens and the chart work the same in every game, so they are
written once here and a game page (``site/games/<id>.py``) holds only its board, controls
and prompts. Nothing here imports ``js``: the browser side (``shell_browser.py``) gives the
shell a :class:`Host` for storage, time and the clipboard, and turns the trees the
renderers return into DOM. So pytest runs all of this, and every page's logic, in CPython
with a fake host.

The shell is in parts (issue 42), each a part of the page with its own state, renderer and
handlers: ``session.py`` (the match and this device's view of it), ``shell_log.py``,
``shell_draws.py``, ``shell_chart.py``, ``shell_links.py``, ``shell_saved.py``,
``shell_status.py`` (the status bar and the pass screen), ``shell_bots.py`` and
``shell_result.py``; :class:`Shell` composes them and routes the page's events. This module
keeps the names other modules import from it (``from shell import Session`` still works).
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from session import (
    HUMAN,
    BotTurn,
    Opening,
    Seat,
    Session,
    ShellError,
    and_list,
    check_save,
    option_texts,
    parse_setup,
    plural,
    tap_word,
    tap_word_lower,
)
from shell_bots import BotRunner
from shell_chart import MAX_CHART_POINTS, Chart, chart_number, thin_points
from shell_draws import Draws
from shell_links import CHAT_LIMIT, LINKS_AT_ONCE, LinksPanel
from shell_log import HIDDEN_CODE, LOG_MARGIN, LOG_SHOWN, LOG_WINDOW, LogWindow
from shell_result import Results
from shell_saved import SavedGames, shown_names
from shell_status import PassScreen, StatusBar
from ui import Node, h, isolate_text, isolate_tree, names_pattern

from conquest.bots import levels as bot_levels
from conquest.core import ConquestError, Game, GameError
from conquest.rng import Rng
from conquest.session import Match
from conquest.store import Slot, SlotStore, StorageError

__all__ = [
    "CHAT_LIMIT",
    "HIDDEN_CODE",
    "LINKS_AT_ONCE",
    "LOG_MARGIN",
    "LOG_SHOWN",
    "LOG_WINDOW",
    "MAX_CHART_POINTS",
    "NOTICE_MS",
    "HUMAN",
    "Host",
    "Opening",
    "Seat",
    "Session",
    "ShellError",
    "GamePage",
    "BotTurn",
    "Shell",
    "and_list",
    "chart_number",
    "now_scroll",
    "whole_px",
    "parse_setup",
    "check_save",
    "plural",
    "shown_names",
    "tap_word",
    "tap_word_lower",
    "thin_points",
]

#: how long a notice (not an error) stays in the toast, in ms (Shell.say)
NOTICE_MS = 8000.0


Span = tuple[float, float]  # an element's top and bottom, in px, as drawn


def now_scroll(next_box: Span | None, result_box: Span | None, top: float, bottom: float) -> float:
    """How far to scroll (px, down positive) so the next decision and the newest result of the
    last action (``data-now``, issue 41) are inside the room ``top..bottom`` after a tap.

    Why one rule for every page: on a 360x740 phone the result of a tap and the next control
    were often off screen (a battle 1,600 px above, the dice 1,171 px down in the sheet). As
    little scrolling as can be, so the screen does not jump: both when they fit together;
    otherwise the next decision wins (all of it, or its top when it is taller than the room),
    with as much of the result as fits beside it. ``guest-dom.js`` ``bringNow`` is the same."""

    def contain(t: float, b: float) -> float:
        if b - t > bottom - top:
            return t - top  # taller than the room: its top at the top
        return t - top if t < top else b - bottom if b > bottom else 0.0

    boxes = [x for x in (next_box, result_box) if x is not None]
    if not boxes:
        return 0.0
    t, b = min(x[0] for x in boxes), max(x[1] for x in boxes)
    if b - t <= bottom - top or next_box is None:
        return contain(t, b) if next_box is not None else contain(*boxes[0])
    nt, nb = next_box
    if result_box is not None and result_box[0] < nt and nb - nt <= bottom - top:
        return nb - bottom  # the result above: the next at the foot, the result's end over it
    return nt - top


def whole_px(d: float) -> int:
    """A scroll of ``d`` px rounded away from zero to whole pixels, 0 below a tenth of one.
    Boxes are fractional and a sheet's ``clientHeight`` whole: a box that overhung the room by
    0.6 px was left there by a scroll made only from 1 px on (issue 41, seen at 360 px)."""
    if abs(d) < 0.1:
        return 0
    return math.ceil(d) if d > 0 else math.floor(d)


# -- the host: what the browser (or a test) provides ---------------------------------------
class Host(Protocol):
    """Side effects the shell needs; ``shell_browser.BrowserHost`` in the page, a fake in tests."""

    store: SlotStore

    def now(self) -> float: ...  # milliseconds since the epoch (slot dates)

    def clock(self) -> float: ...  # a monotonic millisecond clock (bot slices)

    def page_url(self) -> str: ...  # this page's address without query or fragment

    def go(self, query: str) -> None: ...  # replace the address's query (e.g. "?slot=abc")

    def later(self, ms: float, fn: Callable[[], None]) -> None: ...

    def rerender(self) -> None: ...

    def focus(self, element_id: str) -> None: ...  # move the keyboard focus

    def reveal(self, element_id: str) -> None: ...  # scroll into view when out of sight

    def set_style(self, element_id: str, prop: str, value: str) -> None: ...

    def load_pref(self, key: str) -> str | None: ...  # a page's own small stored setting

    def save_pref(self, key: str, value: str) -> bool: ...  # False when storage refused it

    def confirm(self, question: str) -> bool: ...

    def open_tab(self, url: str) -> bool: ...  # a page in a new tab; False when the browser refused

    def form_fields(self, form_id: str) -> dict[str, str]: ...  # a static form's fields now

    def set_fields(self, values: Mapping[str, str | bool]) -> None: ...  # by element id



# -- the page contract -----------------------------------------------------------------------
class GamePage:
    """What a game page adds to the shell: its options, its board, its controls.

    A page keeps all its own state in its instance (no module globals) and renders through
    methods that return :mod:`ui` trees, so pytest drives it with a fake host.
    """

    game_id: str = ""
    #: its views show every game (the Metagame's wheel): a game opens after they are
    #: imported, a module a slice (``core.importing_games``), not in one block
    needs_all_games: bool = False

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        #: on a device's page drawn by the host's (issue 37): the host's own page, for what
        #: only it holds and a device's page may show of it (the Metagame: the player's own
        #: link to a duel played live); None elsewhere
        self.host_page: GamePage | None = None

    # set-up
    def options(self, seats: list[Seat], fields: Mapping[str, str]) -> dict[str, Any]:
        """``new_game`` options from the seats and the page's own set-up fields."""
        return {"seats": [s.to_json() for s in seats]}

    def render_setup(self) -> dict[str, Node]:
        """Parts of the set-up that need the engine (e.g. saved presets), by container id."""
        return {}

    def open_fragment(self, fragment: str) -> bool:
        """A fragment this page handles itself (e.g. a position link); True if handled."""
        return False

    # play
    def opened(self) -> None:
        """A game was just opened (link, slot, file, new): restore page-local drafts."""

    def make_bot(self, level: str, rng: Rng) -> Any:
        """The bot for a seat of ``level``; None: the game's own ``bot_levels`` factory.

        A page overrides this for its own settings (e.g. a time limit per move)."""
        return None

    def on_key(self, ev: Any) -> bool:
        """A key pressed anywhere on the page outside a text field (``ui.Event`` with
        ``key`` and modifiers); True when the page used it."""
        return False

    def pick(self, index: int) -> None:
        """A pick on the build-time board (the map's click, tap or Enter): ``game-pick``."""

    def after_render(self) -> None:
        """Browser-only finishing touches after a render (animations, focus)."""

    def result_until(self) -> int | None:
        """The last step "What just happened" may show and announce (None: every one): a
        page cuts off a draw that is not to be read yet (a question behind "Get ready")."""
        return None

    #: where the keyboard focus goes when the control a person used is gone after the step
    #: (issue 21, item 2: not to the page's start, from where Tab walks the whole log); the
    #: element gets ``tabindex=-1``, so the next Tab reaches the first control inside it
    focus_home = "shell-bar-inner"

    def reset(self) -> None:
        """Forget half-made choices (after any step, undo or jump)."""

    def render(self, view: Mapping[str, Any]) -> Node:
        """The board and controls for ``view`` (the shell decides whose view)."""
        raise NotImplementedError

    def paint(self, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Changes to build-time elements (a map's territories): ``{element id: patch}``."""
        return {}

    def prompt(self, view: Mapping[str, Any]) -> str:
        """One line: what happens now and who does it."""
        seat = self.shell.session.acting_seat() if self.shell.session else None
        return f"{self.shell.session.seat_name(seat)} to play." if seat is not None else ""

    def log_label(self, before: Any) -> str:
        """A short label before a log line (e.g. "Turn 3"), from the state it was played in."""
        return ""

    def chart_points(self, states: Sequence[Any]) -> list[tuple[int, int]]:
        """Which states the chart shows, as ``(x, state index)``; default every step."""
        return [(i, i) for i in range(len(states))]

    chart_x_label = "steps played"


# -- the shell ---------------------------------------------------------------------------------
class Shell:
    """One game page's shared parts: session, messages, and the shared renderers.

    Each part of the page is an object of its own with its state, renderer and handlers
    (issue 42): ``log`` (the log and the step viewed), ``draws`` (the draws' labels and their
    check), ``chart``, ``links``, ``saved`` (saved games, autosave, two tabs on one game),
    ``bar`` (the status bar and its Undo), ``handover`` (the pass screen), ``bots`` and
    ``result`` (what just happened, a finished game's next steps). The shell holds the session
    and the toast, routes every step through itself (autosave, refusals while a pass screen
    stands). Pages, and a device's page (``remote.py``), mount the parts' own renderers
    (``shell.bar.render``, ``shell.log.render``, ...).
    """

    def __init__(self, game: Game[Any, Any], host: Host) -> None:
        self.game = game
        self.host = host
        self.session: Session | None = None
        self.page: GamePage | None = None
        self.message: tuple[str, str] | None = None  # (kind, text): the toast
        self.field_errors: dict[str, str] = {}
        #: speed in this browser: "replay" (opening), "apply" (last step), "render" (ms)
        self.perf: dict[str, float] = {}
        #: (the options it was made for, the pattern of their names to isolate)
        self._bidi_pattern: tuple[Any, Any] | None = None
        #: a finished game's own next steps, asked in order before the shell's (Play again):
        #: each gives a tree, or None for a game that is not its. The browser side adds a
        #: campaign duel's (``duel_desk.duel_next``): the shell imports neither ``duel_desk``
        #: nor ``live``, which imports the shell (issue 42: an import circle)
        self.next_steps: list[Callable[[Shell], Node | None]] = []
        self.log = LogWindow(self)
        self.draws = Draws(self)
        self.chart = Chart(self)
        self.links = LinksPanel(self)
        self.saved = SavedGames(self)
        self.bar = StatusBar(self)
        self.handover = PassScreen(self)
        self.bots = BotRunner(self)
        self.result = Results(self)

    # -- messages: where the person acts, announced, cleared when no longer true --------
    def say(self, text: str, kind: str = "notice") -> None:
        """Show ``text`` in the toast. A notice goes by itself after NOTICE_MS: on a phone
        the toast sits over the foot of the play sheet, where a long question put the
        Answer button (a notice said after "Play again" covered it in a timed question); an
        error stays until dismissed or the next step, to be read."""
        message = (kind, text)
        self.message = message
        if kind == "notice":
            def fade() -> None:
                if self.message is message:  # not a newer one
                    self.message = None
                    self.host.rerender()

            self.host.later(NOTICE_MS, fade)

    def refuse(self, exc: Exception) -> None:
        if isinstance(exc, ConquestError):
            self.say(exc.message, "error")
        else:
            self.say(f"Something went wrong ({type(exc).__name__}: {exc}). Your game is unchanged.", "error")

    def clear_message(self) -> None:
        self.message = None

    # -- opening games ----------------------------------------------------------------
    def open(self, match: Match, slot: Slot | None, mode: str = "host") -> Session:
        self.session = Session(match, slot.id if slot else None, "view" if mode == "view" else mode)
        self.session.rev = slot.rev if slot is not None else 0
        if slot is not None and slot.mode == "view":
            self.session.mode = "view"
        if self.session.mode == "host" and match.resolve_chance():
            self.saved.autosave()  # a game that starts with a draw (deal, seat order) draws it now
        self.chart.reset()
        self.log.reset()
        if self.page is not None:
            self.page.reset()
            self.page.opened()
        return self.session

    def slot_name(self, save: Mapping[str, Any], mode: str) -> str:
        title = save["options"].get("title")
        base = str(title) if isinstance(title, str) and title.strip() else self.game.title
        return f"{base} (view)" if mode == "view" else base

    def start(self, fields: Mapping[str, str]) -> Session | None:
        """The set-up form was sent: check it, start the game, store it in a new slot."""
        assert self.page is not None
        seats, errors = parse_setup(fields, self.game.facts, list(bot_levels(self.game)))
        self.field_errors = dict(errors)
        if errors:
            self.say(errors[0][1], "error")
            return None
        title = " ".join(str(fields.get("title", "")).split())[:80]
        try:
            options = self.page.options(seats, fields)
            if title and title != self.game.title:
                options["title"] = title
            match = Match(self.game, options, rng=Rng(None))
        except GameError as exc:
            self.say(exc.message, "error")
            return None
        slot = None
        try:
            slot = self.host.store.create(match.save().to_json(), title or self.game.title, self.host.now())
        except StorageError:
            pass  # said by autosave below, which keeps the game in the address bar meanwhile
        self.clear_message()
        session = self.open(match, slot)
        if slot is not None:
            self.host.go(f"?slot={slot.id}")
        else:
            session.unsaved = True
            self.saved.autosave()
        return session

    # -- playing through the shell (autosave, messages) -------------------------------
    def play(self, action: Any, contribution: str | None = None) -> bool:
        """Play and autosave; a refusal becomes the message and changes nothing.

        ``contribution``: see :meth:`Session.play` (a said word for the draw it opens)."""
        s = self.session
        if s is None:
            return False
        t0 = self.host.clock()
        mark = len(s.match.log)
        by_bot = self._bot_acts(s)
        try:
            self.refuse_if_pending()
            if contribution is None:
                s.play(action)
            else:
                s.play(action, contribution)
        except ConquestError as exc:
            self.say(exc.message, "error")
            return False
        self.perf["apply"] = self.host.clock() - t0
        self._note_result(s, mark, by_bot)
        self.after_change()
        return True

    @staticmethod
    def _bot_acts(s: Session) -> bool:
        seat = s.acting_seat()
        seats = s.seats()
        return seat is not None and seat < len(seats) and seats[seat].is_bot

    @staticmethod
    def _note_result(s: Session, mark: int, by_bot: bool) -> None:
        """A person's step starts a new "what just happened"; the computer's replies (and a
        computer's steps before anyone acted) join the one on screen (item 10)."""
        if not by_bot or s.result_from is None:
            s.result_from = mark

    def give_secret(self, seat: int, part: Any) -> bool:
        s = self.session
        if s is None:
            return False
        mark = len(s.match.log)
        by_bot = s.seats()[seat].is_bot if 0 <= seat < len(s.seats()) else False
        try:
            self.refuse_if_pending()
            done = s.give_secret(seat, part)
        except ConquestError as exc:
            self.say(exc.message, "error")
            return False
        if done:
            # the reveal is everyone's result: shown from the secret step on
            self._note_result(s, mark, by_bot and s.result_from is not None and s.result_from < mark)
            self.after_change()
        return True

    # -- the pass screen: while it stands, nothing else reacts ---------------------------
    def pending(self) -> int | None:
        """The seat a pass screen waits for (``Session.needs_handover``), or None."""
        return None if self.session is None else self.session.needs_handover()

    def refuse_if_pending(self) -> None:
        """Every control of the page but Ready refuses while the device is being passed:
        a log View, Earlier/Later, the step box, Undo, a move, a key (issue 19)."""
        seat = self.pending()
        if seat is not None and self.session is not None:
            name = self.session.seat_name(seat)
            raise ShellError(
                "shell.handover",
                f"Pass the device to {name} first: until {name} presses Ready, only the Ready button works.",
            )

    # -- the page's events, routed (refused while a pass screen stands) -----------------
    def key(self, ev: Any) -> bool:
        """A key pressed outside a text field: the page's shortcut, unless a pass screen
        stands (then no shortcut works). True when the page used it."""
        if self.session is None or self.pending() is not None or self.page is None:
            return False
        return bool(self.page.on_key(ev))

    def pick(self, index: int) -> None:
        """A pick on the build-time board (map click, tap, Enter): the page's, unless a pass
        screen stands (then it is refused, and said)."""
        if self.page is None or self.session is None:
            return
        try:
            self.refuse_if_pending()
        except ShellError as exc:
            self.say(exc.message, "error")
            return
        self.page.pick(index)

    def close(self) -> None:
        """Back to the set-up (the game stays in the saved games)."""
        self.session = None
        self.clear_message()
        if self.page is not None:
            self.page.reset()
        self.host.go("?")

    def after_change(self, keep_message: bool = False) -> None:
        if not keep_message:
            self.clear_message()
        if self.page is not None:
            self.page.reset()
        self.saved.autosave()

    def jump(self, step: int | None) -> None:
        if self.session is None:
            return
        try:
            self.refuse_if_pending()
            self.session.jump(step)
        except ConquestError as exc:
            self.say(exc.message, "error")
            return
        if self.page is not None:
            self.page.reset()

    def branch(self) -> Slot | None:
        """"Continue from here": the game up to the step on screen, as a new slot."""
        s = self.session
        if s is None:
            return None
        try:
            self.refuse_if_pending()
        except ShellError as exc:
            self.say(exc.message, "error")
            return None
        save = s.branch_save()
        name = f"{self.slot_name(save, 'host')} (from step {s.step()})"
        try:
            slot = self.host.store.create(save, name, self.host.now())
        except StorageError:
            slot = None
        match = Match(
            self.game, save["options"], save["log"], rng=Rng(None), undone=save.get("undone", ()), draws=save.get("draws")
        )
        session = self.open(match, slot)
        if slot is None:  # storage refused (full, disabled): the new line lives in the address bar
            session.unsaved = True
            self.saved.autosave()
            return None
        self.say(f"Continuing from step {len(save['log'])} as a new saved game, “{name}”; the original is kept.")
        self.host.go(f"?slot={slot.id}")
        return slot

    # -- text direction: every mounted tree passes here (issue 20, item 8) -------------
    def isolated(self, tree: Node) -> Node:
        """``tree`` with every name from the game's options isolated in its texts, and any
        text still holding a loose direction control isolated whole (:func:`ui.isolate_tree`).

        The names are every text in the options with right-to-left letters or controls in it
        (seat and player names, a title, a wheel's games, a custom map's territories): they
        are what a link or a file brings, wherever a page writes them.

        The one place names are isolated (issue 42): seats (``Session.seats``) and the
        engines' words hold them as given, so a name is isolated once, where it is shown,
        never twice nor in a name compared, sent or cut (a dialog's text goes through
        :meth:`isolate_text`, the same pattern).
        """
        return isolate_tree(tree, self._names_pattern())

    def isolate_text(self, text: str) -> str:
        """A text shown outside a tree (a ``confirm`` dialog) as :meth:`isolated` shows a text."""
        return isolate_text(text, self._names_pattern())

    def _names_pattern(self) -> Any:
        s = self.session
        key = None if s is None else id(s.match.options)
        if self._bidi_pattern is None or self._bidi_pattern[0] != key:
            names = option_texts(s.match.options) if s is not None else []
            self._bidi_pattern = (key, names_pattern(names))
        return self._bidi_pattern[1]

    # -- renderers of the shared parts --------------------------------------------------
    def render_message(self) -> Node:
        if self.session is not None and self.session.conflict:
            return self.saved.render_conflict()
        if self.message is None:
            return h("div", id="shell-toast-inner", hidden=True)
        kind, body = self.message
        return h(
            "div",
            h("span", body, cls="shell-toast-text"),
            h("button", "×", type="button", cls="shell-toast-close", aria_label="Dismiss",
              on_click=lambda ev: self.clear_message()),
            id="shell-toast-inner",
            cls=f"shell-toast-box {kind}",
            role="alert" if kind == "error" else "status",
            # a refusal is the newest result of the tap that was refused (issue 41): brought
            # into view with the page's next decision (browser_now.bring_now)
            data_now="result" if kind == "error" else None,
        )

    def render_perf(self) -> Node:
        """How fast the engine and the page are in this very browser (figures for hosts)."""
        s, perf = self.session, self.perf
        parts = []
        if "replay" in perf and s is not None:
            parts.append(f"Game of {plural(int(perf.get('replay_steps', 0)), 'step')} replayed in "
                         f"{perf['replay']:.0f} ms on opening"
                         + (f" ({plural(int(perf['replay_slices']), 'slice')})" if perf.get("replay_slices") else ""))
        if "apply" in perf:
            parts.append(f"last step: engine {perf['apply']:.1f} ms")
        if "render" in perf:
            parts.append(f"page update {perf['render']:.0f} ms")
        return h("p", ("Speed in this browser: " + "; ".join(parts) + ".") if parts else "",
                 id="shell-perf-inner", cls="muted")


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
