"""The shell in the page: boots a game page and connects :mod:`shell` to the browser.

Why separate from :mod:`shell`: this is the only part that touches ``js`` (storage, the
address bar, timers, the clipboard, files), so it stays small and everything it calls is
tested in CPython. A game page module ends with ``run(ItsPage)``; the build's bootstrap
calls the module's ``main()``.

The runner is in parts (issue 42), each a concern of the page with its own state:
``browser_host.py`` (the shell's :class:`shell.Host`), ``browser_open.py`` (opening a game
from a link, a slot or a file, in slices), ``browser_render.py`` (rendering and mounting),
``browser_now.py`` (bringing what is new into view), ``browser_log.py`` (the log drawn as
it is scrolled), ``browser_events.py`` (the set-up form, picks, keys, storage),
``browser_files.py`` (files and the clipboard) and ``browser_audience.py`` (the audience
tab); :class:`Runner` composes them, wires the page's events to them and runs the bots.
This module keeps the names other modules import from it.

Contracts with the template ``game.html`` (named once, here and there): the containers
``#shell-setup``, ``#shell-game``, ``#shell-bar``, ``#shell-over``, ``#shell-viewing``, ``#shell-handover``,
``#shell-log-box``, ``#shell-links``, ``#shell-chart``, ``#shell-saved``, ``#shell-toast``;
the set-up form ``#shell-setup-form``; the file input ``#shell-import`` and the download
button ``#shell-download``. A page's own containers are named by the ids its ``render``
returns.
"""
from __future__ import annotations

from typing import Any

import dom
import frame
import js  # type: ignore[import-not-found]
import offline
from browser_audience import AudienceTabs
from browser_events import PageEvents
from browser_files import Files
from browser_host import BrowserHost, read_form, touch_screen
from browser_log import LogScroller
from browser_now import bring_now, dock_toast, scroll_behavior
from browser_open import OPEN_SLICE_MS, SEAT_LOCKS_KEY, Opener
from browser_render import ACTED_MS, Renderer, apply_patch, mark_field_errors
from duel_desk import duel_next
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]
from shell import GamePage, Shell
from ui import Node

from conquest.core import get_game

__all__ = [
    "ACTED_MS",
    "BOT_PAUSE_MS",
    "BOT_SLICE_MS",
    "OPEN_SLICE_MS",
    "SEAT_LOCKS_KEY",
    "BrowserHost",
    "Runner",
    "apply_patch",
    "bring_now",
    "dock_toast",
    "mark_field_errors",
    "read_form",
    "run",
    "scroll_behavior",
    "touch_screen",
]

document = js.document
#: a bot thinks in slices this long, so a click elsewhere is answered at once
BOT_SLICE_MS = 30.0
#: a short pause before a bot's move is shown, so a quick reply does not look like a jump
BOT_PAUSE_MS = 250


class Runner:
    """One game page in the browser: boot, events, render, the bot loop."""

    def __init__(self, page_class: type[GamePage]) -> None:
        self.game = get_game(page_class.game_id)
        self.host = BrowserHost(self)
        self.shell = Shell(self.game, self.host)
        self.shell.next_steps.append(duel_next)  # a campaign's duel ends with its own next step (M12)
        self.page = page_class(self.shell)
        self.shell.page = self.page
        self.bot_scheduled = False
        self.last_bot_seat: int | None = None
        #: whether the page still boots (the game named in the address may open in slices)
        self.booting = True
        #: live play (issue 22): the table or the guest, see live_browser.py
        self.live: Any = None
        # the parts, each with its own state (issue 42)
        self.opener = Opener(self)
        self.renderer = Renderer(self)
        self.log_view = LogScroller(self)
        self.tabs = AudienceTabs(self)
        self.events = PageEvents(self)
        self.files = Files(self)

    # -- errors from handlers go to the message, never to limbo ----------------------------
    def guard(self, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except Exception as exc:
            js.console.error(f"{type(exc).__name__}: {exc}")
            self.shell.refuse(exc)
            self.render()
            return None

    def report(self, exc: BaseException) -> None:
        if not isinstance(exc, Exception):
            raise exc
        js.console.error(f"{type(exc).__name__}: {exc}")
        self.shell.refuse(exc)
        self.render()

    # -- booting ---------------------------------------------------------------------------
    def boot(self) -> None:
        dom.set_reporter(self.report, self.render)
        frame.on(document.getElementById("shell-setup-form"), "submit", self.events.on_start)
        frame.on(document.getElementById("shell-import"), "change", self.files.on_import)
        frame.on(document.getElementById("shell-download"), "click", lambda ev: self.files.download())
        offline.attach(self)  # "Download offline copy" / in a copy, "Save to file"
        frame.on(document, "click", self.files.on_copy)
        frame.on(js.window, "hashchange", lambda ev: self.opener.open_fragment())
        frame.on(document, "game-pick", self.events.on_pick)
        frame.on(document, "keydown", self.events.on_key)
        frame.on(document, "click", self.events.on_seat_move)
        frame.on(document, "click", self.tabs.on_audience_open)
        frame.on(document, "click", self.files.on_export_raw)
        frame.on(js.window, "storage", self.events.on_storage)
        for kind in ("click", "keydown", "change", "submit"):  # before the page's own handlers
            document.addEventListener(kind, create_proxy(self.renderer.on_act), js.Object.fromEntries([["capture", True]]))
        # the log is drawn as it is scrolled (issue 20, item 10): element scrolls do not
        # bubble, so one capturing listener on the document hears the log's box
        document.addEventListener("scroll", create_proxy(self.log_view.on_scroll),
                                  js.Object.fromEntries([["capture", True], ["passive", True]]))
        try:
            self.page.reduced_motion = bool(js.window.matchMedia("(prefers-reduced-motion: reduce)").matches)
        except Exception:
            pass
        try:  # a damaged slot is listed as such; however damaged, it never stops the page
            self.shell.saved.check_slots()
        except Exception as exc:  # noqa: BLE001
            js.console.warn(f"saved games could not be checked: {type(exc).__name__}: {exc}")
        import live_browser

        self.live = live_browser.attach(self)
        if self.live.boot():  # a join link: this page is a guest at a live table
            self.booting = False
            self.render()
            frame.ready()
            return
        params = js.URLSearchParams.new(js.location.search)
        self.opener.as_seat = str(params.get("as") or "") if params.has("as") else ""  # a copy for one player
        if params.has("audience"):
            self.tabs.start_audience(str(params.get("audience") or ""))
        else:
            self.tabs.listen()
            opened = self.opener.open_fragment(render=False)
            if not opened and params.get("slot"):
                # a live table this game had opens again once the game is open (the host's reload)
                self.opener.open_slot(str(params.get("slot")), then=self.live.resume)
        if self.opener.opening is None:
            self.finish_boot()
        else:  # the engine is "ready" once the game is open: people and tests wait for that
            frame.BOOT_OPENING[0] = True
            self.render()

    def finish_boot(self, render: bool = True) -> None:
        if render:
            self.render()
        if self.booting:
            self.booting = False
            frame.BOOT_OPENING[0] = False
            frame.ready()

    # -- what the parts and other modules call the runner for ------------------------------
    def render(self) -> None:
        self.renderer.render()

    def mount(self, cid: str, tree: Node) -> None:
        """Every tree a page shows goes through :meth:`Shell.isolated` (issue 20, item 8)."""
        self.renderer.mount(cid, tree)

    @property
    def channel(self) -> Any:
        """The game's ``BroadcastChannel`` between this browser's tabs, or None."""
        return self.tabs.channel

    def follow(self, raw: Any, viewing: Any) -> None:
        """Follow another tab's game (``AudienceTabs.follow``)."""
        self.tabs.follow(raw, viewing)

    # -- the bot loop: slices with a pause between, never a frozen page -------------------
    def schedule_bot(self) -> None:
        if self.bot_scheduled or self.shell.bots.turn() is None:
            return
        self.bot_scheduled = True
        s = self.shell.session
        turn = s.bot if s else None
        seat = turn.seat if turn is not None else None
        # a pause when a bot starts after someone else, so a quick reply does not look like a
        # jump; none between one bot's many small decisions (placing troops one by one)
        delay = BOT_PAUSE_MS if turn is not None and turn.slices == 0 and seat != self.last_bot_seat else 0
        self.last_bot_seat = seat
        self.host.later(delay, self.bot_slice)

    def bot_slice(self) -> None:
        self.bot_scheduled = False
        played = self.shell.bots.step(BOT_SLICE_MS)
        if played:
            self.render()
        else:
            self.schedule_bot()


def run(page_class: type[GamePage]) -> Runner:
    runner = Runner(page_class)
    runner.boot()
    return runner
