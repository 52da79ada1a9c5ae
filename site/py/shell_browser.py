"""The shell in the page: boots a game page and connects :mod:`shell` to the browser.

Why separate from :mod:`shell`: this is the only part that touches ``js`` (storage, the
address bar, timers, the clipboard, files), so it stays small and everything it calls is
tested in CPython. A game page module ends with ``run(ItsPage)``; the build's bootstrap
calls the module's ``main()``.

Contracts with the template ``game.html`` (named once, here and there): the containers
``#shell-setup``, ``#shell-game``, ``#shell-bar``, ``#shell-over``, ``#shell-viewing``, ``#shell-handover``,
``#shell-log-box``, ``#shell-links``, ``#shell-chart``, ``#shell-saved``, ``#shell-toast``;
the set-up form ``#shell-setup-form``; the file input ``#shell-import`` and the download
button ``#shell-download``. A page's own containers are named by the ids its ``render``
returns.
"""
from __future__ import annotations

import gc
import json
from typing import Any

import dom
import frame
import js  # type: ignore[import-not-found]
import offline
from duel_desk import duel_banner
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]
from shell import GamePage, Opening, Shell, check_save, now_scroll
from ui import Event, Node

from conquest.core import get_game, importing_games
from conquest.savecode import SaveCodeError, load_json, parse_fragment
from conquest.store import SLOT_PREFIX, SlotStore, StorageError, link_name

document = js.document
#: a bot thinks in slices this long, so a click elsewhere is answered at once
BOT_SLICE_MS = 30.0
#: a long game opens in slices this long, each its own task (issue 20, item 10)
OPEN_SLICE_MS = 40.0
#: a short pause before a bot's move is shown, so a quick reply does not look like a jump
BOT_PAUSE_MS = 250
#: slot id -> the seat a copy plays for (a link made for one player)
SEAT_LOCKS_KEY = "conquest:seat-locks"
#: a render this soon after a click, tap or key brings the marked result and next into view
ACTED_MS = 1500.0


class BrowserHost:
    """:class:`shell.Host` in the page."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        #: a touch screen without a mouse: the page says "Tap", not "Click" (issue 41, point 7)
        self.touch = touch_screen()

    @property
    def store(self) -> SlotStore:
        return frame.store()

    def now(self) -> float:
        return frame.now()

    def clock(self) -> float:
        return float(js.performance.now())

    def page_url(self) -> str:
        site = document.documentElement.getAttribute("data-site-url")  # an offline copy's page on the site
        return str(site) if not frame.nullish(site) and site else f"{js.location.origin}{js.location.pathname}"

    def go(self, query: str) -> None:
        js.history.replaceState(js.history.state, "", query)

    def later(self, ms: float, fn: Any) -> None:
        js.setTimeout(create_proxy(lambda: self.runner.guard(fn)), ms)

    def rerender(self) -> None:
        self.runner.render()

    def focus(self, element_id: str) -> None:
        node = document.getElementById(element_id)
        if not frame.nullish(node):
            node.focus(js.Object.fromEntries([["preventScroll", False]]))

    def reveal(self, element_id: str) -> None:
        node = document.getElementById(element_id)
        if frame.nullish(node):
            return
        sheet = node.closest(".play-sheet")
        if not frame.nullish(sheet) and sheet.scrollHeight > sheet.clientHeight + 1:
            # a phone's play screen (issue 21): only the sheet under the map scrolls, the
            # page stays put, so the map stays on screen beside the result
            node.scrollIntoView(js.Object.fromEntries([["block", "nearest"], ["behavior", scroll_behavior()]]))
            return
        r = node.getBoundingClientRect()
        if r.top < 0 or r.bottom > js.window.innerHeight:
            node.scrollIntoView(js.Object.fromEntries([["block", "center"], ["behavior", scroll_behavior()]]))

    def pref_key(self, key: str) -> str:
        """An offline copy keeps its preferences under its storage prefix too (offline.py)."""
        return str(getattr(self.store.backend, "prefix", "")) + key

    def load_pref(self, key: str) -> str | None:
        try:
            value = js.window.localStorage.getItem(self.pref_key(key))
        except Exception:  # storage disabled: no preferences
            return None
        return None if frame.nullish(value) else str(value)

    def save_pref(self, key: str, value: str) -> bool:
        try:
            js.window.localStorage.setItem(self.pref_key(key), value)
            return True
        except Exception:
            return False

    def open_tab(self, url: str) -> bool:
        """A page in a new tab (during a click, so the browser allows it); False if refused."""
        try:
            opened = js.window.open(url, "_blank", "noopener")
        except Exception:  # noqa: BLE001 - refused: the page shows its link instead
            return False
        # with "noopener" the browser returns null even when it opened the tab
        return True if frame.nullish(opened) else bool(opened)

    def confirm(self, question: str) -> bool:
        return bool(js.window.confirm(question))

    def form_fields(self, form_id: str) -> dict[str, str]:
        form = document.getElementById(form_id)
        return {} if frame.nullish(form) else read_form(form)

    def set_fields(self, values: Any) -> None:
        for eid, value in values.items():
            node = document.getElementById(eid)
            if frame.nullish(node):
                continue
            if isinstance(value, bool):
                node.checked = value
            else:
                node.value = str(value)

    def set_style(self, element_id: str, prop: str, value: str) -> None:
        node = document.getElementById(element_id)
        if not frame.nullish(node):
            node.style.setProperty(prop, value)
            dom.forget()  # the next render puts back what its tree says (a drag's ghost)


class Runner:
    """One game page in the browser: boot, events, render, the bot loop."""

    def __init__(self, page_class: type[GamePage]) -> None:
        self.game = get_game(page_class.game_id)
        self.host = BrowserHost(self)
        self.shell = Shell(self.game, self.host)
        self.page = page_class(self.shell)
        self.shell.page = self.page
        self.bot_scheduled = False
        self.last_bot_seat: int | None = None
        self.rendering = False
        self.channel: Any = None
        #: the game being opened in slices (``begin_open``), and whether the page still boots
        self.opening: Opening | None = None
        self.booting = True
        self.split_below = False  # the next render draws what lies below the board in a task of its own
        self.audience = False
        self._broadcast_key: Any = None  # which save (and viewed step) the audience tab last got
        self.audience_slot: str | None = None
        self.announced = ""  # the last text given to the live region #shell-announce
        #: when the person last clicked, tapped or typed (``host.clock``), and the step the last
        #: render showed: a render after either brings ``data-now`` into view (``bring_now``);
        #: a timer's alone does not (a notice fading): it would fight the person's scrolling
        self.acted_at = -1e9
        self.now_key: Any = None
        #: live play (issue 22): the table or the guest, see live_browser.py
        self.live: Any = None

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
        frame.on(document.getElementById("shell-setup-form"), "submit", self.on_start)
        frame.on(document.getElementById("shell-import"), "change", self.on_import)
        frame.on(document.getElementById("shell-download"), "click", lambda ev: self.download())
        offline.attach(self)  # "Download offline copy" / in a copy, "Save to file"
        frame.on(document, "click", self.on_copy)
        frame.on(js.window, "hashchange", lambda ev: self.open_fragment())
        frame.on(document, "game-pick", self.on_pick)
        frame.on(document, "keydown", self.on_key)
        frame.on(document, "click", self.on_seat_move)
        frame.on(document, "click", self.on_audience_open)
        frame.on(document, "click", self.on_export_raw)
        frame.on(js.window, "storage", self.on_storage)
        for kind in ("click", "keydown", "change", "submit"):  # before the page's own handlers
            document.addEventListener(kind, create_proxy(self.on_act), js.Object.fromEntries([["capture", True]]))
        # the log is drawn as it is scrolled (issue 20, item 10): element scrolls do not
        # bubble, so one capturing listener on the document hears the log's box
        self._log_frame = self._place_frame = False
        self.chart_width = 640  # the chart box's width at the last frame (``_place_log``)
        self._log_frame_proxy = create_proxy(lambda t: self.guard(self.log_scrolled))
        self._place_frame_proxy = create_proxy(lambda t: self.guard(self._place_log))
        document.addEventListener("scroll", create_proxy(self.on_scroll),
                                  js.Object.fromEntries([["capture", True], ["passive", True]]))
        try:
            self.page.reduced_motion = bool(js.window.matchMedia("(prefers-reduced-motion: reduce)").matches)
        except Exception:
            pass
        try:  # a damaged slot is listed as such; however damaged, it never stops the page
            self.shell.check_slots()
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
        self.as_seat = str(params.get("as") or "") if params.has("as") else ""  # a copy for one player
        if params.has("audience"):
            self.start_audience(str(params.get("audience") or ""))
        else:
            try:
                self.channel = js.BroadcastChannel.new(f"conquest:{self.game.id}")
                frame.on(self.channel, "message", self.on_channel)
            except Exception:
                self.channel = None
            opened = self.open_fragment(render=False)
            if not opened and params.get("slot"):
                # a live table this game had opens again once the game is open (the host's reload)
                self.open_slot(str(params.get("slot")), then=self.live.resume)
        if self.opening is None:
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

    # -- opening a game: replayed in slices, the page answering between them (item 10) -----
    def begin_open(self, save: Any, done: Any, failed: Any) -> None:
        """Replay ``save`` (:class:`shell.Opening`) a slice of ``OPEN_SLICE_MS`` at a time,
        each slice its own task, with its progress in the message; then ``done(match)``, or
        ``failed(exc)`` at the first refusal. A newer opening (another link) drops this one."""
        warm = importing_games() if self.page.needs_all_games else None
        opening = Opening(save, warm)
        self.opening = opening
        t0 = self.host.clock()

        def next_slice() -> None:
            if self.opening is not opening:
                return
            try:
                match = opening.advance(OPEN_SLICE_MS, self.host.clock)
            except Exception as exc:  # noqa: BLE001 - whatever a save holds, the page stays up
                self.opening = None
                self.shell.clear_message()
                failed(exc)
                self.finish_boot()
                return
            if match is None:
                self.shell.say(opening.progress())
                self.mount("shell-toast", self.shell.render_message())
                self.host.later(0, next_slice)
                return
            self.opening = None
            self.shell.perf.update(replay=self.host.clock() - t0, replay_steps=len(match.log),
                                   replay_slices=opening.slices)
            if self.shell.message is not None and self.shell.message[1].startswith("Opening the game"):
                self.shell.clear_message()
            self.host.later(0, lambda: finish(lambda: keep(match)))

        def keep(match: Any) -> Any:
            """The game's states are kept as long as it is open (a past step is a lookup):
            moved out of the cyclic collector's way, since each of its full passes walked them
            all, 140-180 ms under Pyodide for an 80,000-step game, in whatever task it fell
            (issue 20, item 10). They are still freed when dropped (reference counts)."""
            gc.freeze()
            return lambda: done(match)

        def finish(part: Any) -> None:
            """What follows the replay, each part its own task: storing a long game and
            drawing it each take a while (``done`` may return the part that draws it)."""
            try:
                rest = part()
            except Exception as exc:  # noqa: BLE001 - said in words; the page boots all the same
                js.console.error(f"{type(exc).__name__}: {exc}")
                self.shell.refuse(exc)
                rest = None
            if callable(rest):
                self.host.later(0, lambda: finish(rest))
                return
            # the opened game's first render draws the board; what lies below it (the log, the
            # links, the chart) follows in a task of its own (a first render of all of it was
            # 150-290 ms under Pyodide), and the page says "ready" after that
            self.split_below = True
            self.render()
            self.host.later(0, lambda: self.finish_boot(render=False))

        self.shell.say(opening.progress())
        self.host.later(0, next_slice)

    def open_fragment(self, render: bool = True) -> bool:
        """A game in the address's fragment: checked, stored in a new slot, opened.

        The fragment leaves the address bar before anything reads it (issue 20, item 2): a
        link that stops the engine itself must not stay there, or "Reload to try again" would
        only stop it again. It goes back only when the game is good and storage refused it
        (full or disabled): then the address is where the game is kept.
        """
        frag = str(js.location.hash or "")
        if len(frag) <= 1 or frame.names_a_place(frag):
            return False
        if self.page.open_fragment(frag):
            frame.drop_fragment()
            if render:
                self.render()
            return True
        frame.drop_fragment()

        def failed(exc: BaseException) -> None:
            self.shell.say(f"That link could not be opened: {frame.why(exc)} Games already in this browser are "
                           "unchanged.", "error")

        try:
            mode, save = parse_fragment(frag)
            if save["game"] != self.game.id:
                raise SaveCodeError(
                    "game", "That link holds a game of another kind; open it from the home page."
                )
        except Exception as exc:  # noqa: BLE001 - whatever a link holds, the page stays up
            failed(exc)
            if render:
                self.render()
            return False
        self.begin_open(save, lambda match: self.opened_link(match, save, mode, frag), failed)
        if render:
            self.render()
        return True

    def opened_link(self, match: Any, save: Any, mode: str, frag: str) -> Any:
        """A link's game is replayed: stored in a new slot (or kept in the address); then, in
        a task of its own (returned), opened."""
        slot = None
        try:
            name = link_name(self.shell.slot_name(save, mode), self.host.now())
            slot, created = self.host.store.add_from_link(save, mode, name, self.host.now())
            if not created:
                self.shell.say(f"This game is already in your saved games as “{slot.name}”; opened it.")
            address = f"?slot={slot.id}"
        except StorageError as exc:
            address = frag  # the link is the game: a reload keeps it
            self.shell.say(f"{exc} The game stays in the address bar: copy the link before closing.", "error")

        def show() -> None:
            self.host.go(address)  # with the game on screen, in one task
            self.shell.open(match, slot, mode)
            if slot is None and self.shell.session is not None:
                self.shell.session.unsaved = True  # each step retries, and keeps the address up to date
            self.lock_seat(slot, from_link=True)

        return show

    def open_slot(self, slot_id: str, then: Any = None) -> None:
        """A stored game, replayed in slices (``begin_open``); ``then()`` once it is open."""

        def failed(exc: BaseException) -> None:
            msg = getattr(exc, "message", None) or f"This saved game cannot be opened ({type(exc).__name__})."
            listed = False
            try:
                listed = any(sl.id == slot_id for sl in self.host.store.list(self.game.id))
            except Exception:  # noqa: BLE001
                pass
            if listed:
                self.shell.damaged[slot_id] = msg
                msg += " It is listed below with your saved games: delete it, or export it as stored."
            self.shell.say(f"{msg} Start a new game or resume another.", "error")

        def done(match: Any) -> None:
            self.shell.open(match, slot, slot.mode)
            self.lock_seat(slot, from_link=False)
            if then is not None:
                then()

        try:
            slot = self.host.store.get(slot_id)
            save = self.host.store.open(slot_id)
        except Exception as exc:  # noqa: BLE001 - whatever is stored, the page starts
            failed(exc)
            return
        self.begin_open(save, done, failed)

    def lock_seat(self, slot: Any, from_link: bool) -> None:
        """A copy that plays for one seat (``?as=N`` in a link made for one player, issue 14).

        Kept per slot in this browser (``conquest:seat-locks``), so a reload keeps it; the
        address is the person's to edit, so this prevents mistakes, not cheating.
        """
        s = self.shell.session
        if s is None:
            return
        try:
            locks = load_json(self.host.load_pref(SEAT_LOCKS_KEY) or "{}", "preference")  # bounded (issue 20)
        except ValueError:
            locks = {}
        locks = {str(k): v for k, v in locks.items() if isinstance(v, int)} if isinstance(locks, dict) else {}
        sid = slot.id if slot is not None else None
        asked = getattr(self, "as_seat", "") if from_link else ""
        self.as_seat = ""
        seat: int | None = None
        if asked.isdigit() and int(asked) < len(s.seats()):
            seat = int(asked)
            if sid is not None:
                locks[sid] = seat
                self.host.save_pref(SEAT_LOCKS_KEY, json.dumps(dict(list(locks.items())[-100:])))
        elif sid is not None and sid in locks and 0 <= locks[sid] < len(s.seats()):
            seat = locks[sid]
        s.only_seat = seat

    # -- events -------------------------------------------------------------------------------
    def on_start(self, ev: Any) -> None:
        ev.preventDefault()
        fields = read_form(document.getElementById("shell-setup-form"))
        self.guard(self.shell.start, fields)
        self.render()
        if self.shell.session is not None:
            js.window.scrollTo(0, 0)
        elif self.shell.field_errors:  # the person is taken to the first field to fix
            self.host.focus(next(iter(self.shell.field_errors)))

    async def on_import(self, ev: Any) -> None:
        slot = await frame.import_from_input(ev.target, failed="could not be opened")
        if slot is None:
            return
        if slot.game != self.game.id:
            self.shell.say(f"“{slot.name}” is a game of another kind; it is in your saved games on the home page.")
            self.render()
            return
        # the address names the slot once its game is open (it opens in slices)
        self.open_slot(slot.id, then=lambda: self.host.go(f"?slot={slot.id}"))
        self.render()

    async def on_copy(self, ev: Any) -> None:
        target = ev.target
        b = None if frame.nullish(target) or not hasattr(target, "closest") else target.closest("[data-copy]")
        if frame.nullish(b):
            return
        ok = await frame.copy_text(str(b.dataset.copy))
        self.shell.say("Link copied." if ok else "Copying failed: select the link text and copy it by hand.")
        self.render()

    def on_pick(self, ev: Any) -> None:
        detail = ev.detail
        if frame.nullish(detail):
            return
        self.guard(self.shell.pick, int(str(detail)))  # refused behind a pass screen
        self.render()

    def on_key(self, ev: Any) -> None:
        """Keys for the page wherever the focus is, except while typing in a field."""
        target = ev.target
        tag = "" if frame.nullish(target) else str(getattr(target, "tagName", "") or "").lower()
        if tag in ("input", "textarea", "select") or self.shell.session is None:
            return
        if bool(ev.defaultPrevented):  # a control used the key (the log's arrow keys)
            return
        event = Event(
            type="keydown", key=str(ev.key or ""), ctrl=bool(ev.ctrlKey), alt=bool(ev.altKey),
            meta=bool(ev.metaKey), shift=bool(ev.shiftKey), raw=ev,
        )
        if self.guard(self.shell.key, event):  # no shortcut works behind a pass screen
            ev.preventDefault()
            self.render()

    def on_seat_move(self, ev: Any) -> None:
        """The set-up's ↑ ↓: swap a seat's fields with its neighbour's (turn order)."""
        target = ev.target
        b = None if frame.nullish(target) or not hasattr(target, "closest") else target.closest("[data-seat-move]")
        if frame.nullish(b):
            return
        row = b.closest("[data-seat]")
        i = int(str(row.dataset.seat))
        j = i + int(str(b.dataset.seatMove))
        if frame.nullish(document.getElementById(f"seat-name-{j}")):
            return
        for part in ("name", "colour", "who"):
            a, c = document.getElementById(f"seat-{part}-{i}"), document.getElementById(f"seat-{part}-{j}")
            if frame.nullish(a) or frame.nullish(c):
                continue
            a.value, c.value = c.value, a.value
        document.getElementById(f"seat-name-{j}").focus()

    def on_storage(self, ev: Any) -> None:
        """Another tab changed storage: if it saved this page's game, the shell decides."""
        key = "" if frame.nullish(ev.key) else str(ev.key)
        prefix = str(getattr(self.host.store.backend, "prefix", ""))  # an offline copy's keys
        key = key[len(prefix) :] if prefix and key.startswith(prefix) else key
        if key.startswith(SLOT_PREFIX) and not self.audience:
            self.shell.slot_changed(key[len(SLOT_PREFIX) :])
        self.render()

    def on_export_raw(self, ev: Any) -> None:
        """A damaged slot's button: download its stored text as it is."""
        target = ev.target
        b = None if frame.nullish(target) or not hasattr(target, "closest") else target.closest("[data-export-raw]")
        if frame.nullish(b):
            return
        try:
            name, text = self.host.store.export_raw(str(b.dataset.exportRaw))
        except StorageError as exc:
            self.shell.say(exc.message, "error")
            self.render()
            return
        frame.download(name, text)

    # -- the audience tab: map and wheel large, no controls, kept in step by the host -------
    def on_audience_open(self, ev: Any) -> None:
        target = ev.target
        b = None if frame.nullish(target) or not hasattr(target, "closest") else target.closest("[data-audience]")
        s = self.shell.session
        if frame.nullish(b) or s is None:
            return
        url = f"{self.host.page_url()}?audience={s.slot_id or '1'}"
        win = js.window.open(url, f"conquest-{self.game.id}-audience")
        if frame.nullish(win):
            self.shell.say(f"The browser blocked the new tab; open this address in a new tab: {url}")
            self.render()

    def start_audience(self, slot: str) -> None:
        self.audience = True
        self.audience_slot = slot if slot and slot != "1" else None
        document.documentElement.classList.add("shell-audience")
        try:
            self.channel = js.BroadcastChannel.new(f"conquest:{self.game.id}")
            frame.on(self.channel, "message", self.on_channel)
            self.channel.postMessage(json.dumps({"t": "hello", "slot": self.audience_slot}))
        except Exception:
            self.channel = None
        if self.audience_slot:
            self.open_slot(self.audience_slot, then=self.as_audience)

    def as_audience(self) -> None:
        if self.shell.session is not None:
            self.shell.session.mode = "audience"

    def broadcast(self, again: bool = False) -> None:
        """The game to an audience tab (``?audience=``); sent when it changed, or ``again``
        when a tab says hello: a long game's save is a large message, and every render sent
        it (20-50 ms of an 80,000-step game under Pyodide; issue 20, item 10)."""
        s = self.shell.session
        if self.channel is None or self.audience or s is None or s.mode != "host":
            return
        key = (id(s), s.slot_id, *self.shell.save_key(), s.viewing)
        if key == self._broadcast_key and not again:
            return
        self._broadcast_key = key
        msg = {"t": "state", "slot": s.slot_id, "save": s.save(), "viewing": s.viewing}
        try:
            self.channel.postMessage(json.dumps(msg))
        except Exception:  # a closed channel must never break the page
            pass

    def on_channel(self, ev: Any) -> None:
        try:
            msg = load_json(str(ev.data), "message")  # another tab's text: bounded
        except (TypeError, ValueError):
            return
        if not isinstance(msg, dict):
            return
        s = self.shell.session
        if msg.get("t") == "hello" and not self.audience:
            if s is not None and msg.get("slot") in (None, s.slot_id):
                self.broadcast(again=True)
            return
        if msg.get("t") != "state" or not self.audience:
            return
        if self.audience_slot and msg.get("slot") != self.audience_slot:
            return
        try:
            self.follow(msg.get("save"), msg.get("viewing"))
        except Exception as exc:  # a bad message must not break the audience tab
            self.shell.say(f"The audience view could not follow the host: {exc}", "error")
        self.render()

    def follow(self, raw: Any, viewing: Any) -> None:
        """Follow the host's log: extend, cut back (undo) or replay from the start."""
        from conquest.savecode import validate_save

        save = validate_save(raw)
        s = self.shell.session
        log = [str(x) for x in save["log"]]
        if s is not None and dict(s.match.options) == dict(save["options"]) and (
            log[: len(s.match.log)] == s.match.log or s.match.log[: len(log)] == log
        ):
            n = len(s.match.log)
            if log[:n] == s.match.log:
                for text in log[n:]:
                    s.match._push(text)  # results drawn by the host, replayed here
            else:
                s.match.truncate(len(log))
                self.page.reset()
        else:
            self.shell.open(check_save(save), None, "audience")
            s = self.shell.session
            assert s is not None
            s.mode = "audience"
        s.match.undone = [(int(at), tuple(texts)) for at, texts in save.get("undone", [])]
        if save.get("draws") is not None:  # the seals and words, as the host's page used them
            from conquest.draws import DrawRecord

            s.match.draws = DrawRecord.from_json(save["draws"])
        s.viewing = viewing if isinstance(viewing, int) and 0 <= viewing < len(s.match.log) else None

    def download(self) -> None:
        s = self.shell.session
        if s is None:
            return
        if self.shell.pending() is not None:
            self.guard(self.shell.refuse_if_pending)
            return
        if s.slot_id is not None:
            try:
                name, text = self.host.store.export(s.slot_id)
                frame.download(name, text)
                return
            except StorageError:
                pass
        frame.download(f"conquest-{self.game.id}.json", json.dumps(s.save(), indent=1, ensure_ascii=False))

    # -- rendering -------------------------------------------------------------------------
    def render(self) -> None:
        if self.rendering:
            return
        self.rendering = True
        t0 = self.host.clock()
        try:
            self._render()
            self.shell.perf["render"] = self.host.clock() - t0
            if self.shell.session is not None:
                dom.mount_id("shell-perf", self.shell.render_perf())
        finally:
            self.rendering = False
        self.schedule_bot()

    def _render(self) -> None:
        game = document.getElementById("shell-game")
        active = document.activeElement
        in_game = not frame.nullish(game) and not frame.nullish(active) and bool(game.contains(active))
        self._mount()
        if in_game and self.shell.session is not None:
            self.keep_focus()
        s = self.shell.session
        # the step, and which elements are marked: a new result or next decision drawn by a
        # timer (the wheel at rest) is brought into view too; the same ones again are not
        marks = tuple(f"{n.id}:{n.dataset.now}" for n in document.querySelectorAll("[data-now]"))
        key = None if s is None else (id(s), len(s.match.log), s.viewing, marks)
        # (a game just opened is placed by mapboard.js: its status bar at the top)
        same_game = key is not None and self.now_key is not None and key[0] == self.now_key[0]
        if same_game and (key != self.now_key or self.host.clock() - self.acted_at < ACTED_MS):
            self.acted_at = -1e9
            # in a task of its own: after what the render started (a page's ``reveal`` a task
            # later, a smooth scroll), so the marks have the last word
            self.host.later(0, bring_now)
        self.now_key = key

    def on_act(self, ev: Any) -> None:
        self.acted_at = self.host.clock()

    def keep_focus(self) -> None:
        """The control a person used is gone (Roll after a conquest, End the turn): focus goes
        to the page's ``focus_home`` (its panel of controls), not to the page's start."""
        active = document.activeElement
        # (two proxies of one JS object are not ``is`` each other: compare in JS terms)
        if not frame.nullish(active) and str(active.tagName) != "BODY" and bool(active.isConnected):
            return
        if self.shell.session is not None and self.shell.session.needs_handover() is not None:
            target = document.querySelector("#shell-handover button")  # Ready (drawn by the shell)
        else:
            target = document.getElementById(self.page.focus_home)
            if frame.nullish(target):
                target = document.querySelector("#shell-bar > div")  # the status bar
        if frame.nullish(target):
            return
        if not target.hasAttribute("tabindex") and not target.matches("button, a, input, select, textarea"):
            target.setAttribute("tabindex", "-1")
        target.focus(js.Object.fromEntries([["preventScroll", True]]))

    def mount(self, cid: str, tree: Node) -> None:
        """Every tree a page shows goes through :meth:`Shell.isolated` (issue 20, item 8)."""
        dom.mount_id(cid, self.shell.isolated(tree))

    def _mount(self) -> None:
        shell, s = self.shell, self.shell.session
        dock_toast(s is not None or self.audience)
        self.mount("shell-toast", shell.render_message())
        if self.live is not None:
            self.live.mount()
        setup, game = document.getElementById("shell-setup"), document.getElementById("shell-game")
        live_table = self.live is not None and self.live.role is not None and s is not None
        if not live_table:
            self._mount_saved()
        mark_field_errors(shell.field_errors)
        if s is None:
            setup.hidden = self.audience
            game.hidden = not self.audience
            for cid, tree in self.page.render_setup().items():
                self.mount(cid, tree)
            if self.audience:
                self.mount("shell-bar", Node("p", children=["Waiting for the host's page…"], attrs={"id": "shell-prompt"}))
            return
        setup.hidden = True
        game.hidden = False
        document.documentElement.classList.toggle("shell-readonly", s.mode == "view")
        view = s.view()
        self.mount("shell-bar", shell.render_status(self.page.prompt(view)))
        self.mount("shell-over", shell.render_over_row())
        self.mount("shell-duel", duel_banner(self.host, s, shell))  # a campaign's duel, a copy for one player
        self.mount("shell-viewing", shell.render_viewing())
        handover = shell.render_handover()
        self.mount("shell-handover", handover)
        document.getElementById("shell-game").classList.toggle("is-handover", "hidden" not in handover.attrs)
        drawn = self.page.render(view)
        if isinstance(drawn, Node):
            drawn = {"game-controls": drawn}
        for cid, tree in drawn.items():
            self.mount(cid, tree)
        for eid, patch in self.page.paint(view).items():
            apply_patch(document.getElementById(eid), patch)
        if live_table:  # below the board: drawn once the step is on the screen (issue 22's speed)
            self.live.after_paint(self._mount_below)
        elif self.split_below:  # a game just opened (begin_open)
            self.split_below = False
            self.host.later(0, self._mount_below)
        else:
            self._mount_below()
        self.page.after_render()
        self.announce(shell.announcement())
        self.broadcast()
        if self.live is not None:
            self.live.after_render()

    def _mount_saved(self) -> None:
        s = self.shell.session
        try:
            slots = self.host.store.list(self.game.id)
        except Exception:  # noqa: BLE001 - the game on screen matters more than the list
            slots = []
        self.mount("shell-saved", self.shell.render_saved(slots, None if s is None else s.slot_id))

    def _mount_below(self) -> None:
        """The log, the links, the chart (and the saved games' list): what lies below the
        board. At a live table every device draws each step; these wait for the next frame
        there, so the board and its controls show the step first."""
        shell, s = self.shell, self.shell.session
        if s is None:
            return
        if self.live is not None and self.live.role is not None:
            self._mount_saved()
        self.mount_log()
        self.mount("shell-links", shell.render_links(self.host.page_url()))
        self.mount("shell-chart", shell.render_chart(self.chart_width))
        self.place_log()  # and the chart's width is read at the next frame, with the log's place

    # -- the log drawn as it is scrolled (issue 20, item 10) ---------------------------------
    def on_scroll(self, ev: Any) -> None:
        """A scroll of the log's box: its lines are drawn again at the next frame (one
        render a frame however many scroll events come)."""
        target = ev.target
        if self._log_frame or frame.nullish(target) or str(getattr(target, "id", "") or "") != "shell-log-scroll":
            return
        self._log_frame = True
        js.requestAnimationFrame(self._log_frame_proxy)

    def log_geometry(self) -> tuple[Any, float] | None:
        """The log's box and the height of one of its rows (every row is as tall, style.css)."""
        box = document.getElementById("shell-log-scroll")
        row = None if frame.nullish(box) else box.querySelector("li[data-step]")
        if frame.nullish(box) or frame.nullish(row):
            return None
        height = float(row.getBoundingClientRect().height)
        return (box, height) if height > 0 else None

    def log_scrolled(self) -> None:
        """Tell the shell which line is at the top of the box; draw the log again if the lines
        in sight come near the edge of those drawn (the focus stays on its step)."""
        self._log_frame = False
        geo = self.log_geometry()
        if geo is None or self.shell.session is None:
            return
        box, row = geo
        top = float(box.scrollTop)
        at_end = top + float(box.clientHeight) >= float(box.scrollHeight) - 2
        if self.shell.log_scrolled(int(top // row), at_end):
            self.mount_log()

    def mount_log(self) -> None:
        """Draw the log; the keyboard focus stays on its step. Rows are patched in place by
        position, so when the drawn lines move, the button that had the focus shows another
        step: the focus goes back to the step's own button."""
        active = document.activeElement
        box = document.getElementById("shell-log-scroll")
        had_focus = not frame.nullish(active) and not frame.nullish(box) and bool(box.contains(active))
        self.mount("shell-log-box", self.shell.render_log())
        step = self.shell.log_focus
        if had_focus and step is not None and str(getattr(document.activeElement, "id", "")) != f"shell-view-{step}":
            node = document.getElementById(f"shell-view-{step}")
            if not frame.nullish(node):
                node.focus(js.Object.fromEntries([["preventScroll", True]]))

    def place_log(self) -> None:
        """After the log is drawn: at the next frame (reading its geometry lays the page out,
        65 ms of a freshly opened Game of Conquests page, better not in the render's task), a
        line the shell asks for is scrolled into sight (a step viewed from elsewhere, Home or
        End), and a log following the newest steps stays at its end."""
        if not self._place_frame:
            self._place_frame = True
            js.requestAnimationFrame(self._place_frame_proxy)

    def _place_log(self) -> None:
        self._place_frame = False
        # the chart is drawn at the width its box had at the last frame: reading it in the
        # render laid the whole page out inside the render's task (70 ms of a freshly opened
        # Game of Conquests page, and again after every step); drawn again when it changed
        box = document.getElementById("shell-chart")
        width = int(box.clientWidth or 0) if not frame.nullish(box) else 0
        if width and width != self.chart_width and self.shell.session is not None:
            self.chart_width = width
            self.mount("shell-chart", self.shell.render_chart(width))
        geo = self.log_geometry()
        if geo is None:
            return
        box, row = geo
        step = self.shell.take_log_reveal()
        height = float(box.clientHeight)
        if step is not None:
            y = (step - 1) * row
            if not float(box.scrollTop) <= y <= float(box.scrollTop) + height - row:
                box.scrollTop = max(0.0, y - height / 2 + row / 2)
        elif self.shell.log_top is None:
            box.scrollTop = float(box.scrollHeight)

    def announce(self, text: str) -> None:
        """Tell screen readers what just happened (issue 21, item 10): ``#shell-announce`` is a
        polite live region that stays in the page; only a changed text is written, so a
        re-render that changes nothing says nothing again."""
        if text == self.announced:
            return
        self.announced = text
        box = document.getElementById("shell-announce")
        if not frame.nullish(box):
            box.textContent = text

    # -- the bot loop: slices with a pause between, never a frozen page -------------------
    def schedule_bot(self) -> None:
        if self.bot_scheduled or self.shell.bot_turn() is None:
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
        played = self.shell.bot_step(BOT_SLICE_MS)
        if played:
            self.render()
        else:
            self.schedule_bot()


def scroll_behavior() -> str:
    """"smooth", unless the person asked for less motion (``prefers-reduced-motion``)."""
    try:
        return "auto" if bool(js.window.matchMedia("(prefers-reduced-motion: reduce)").matches) else "smooth"
    except Exception:  # noqa: BLE001
        return "auto"


def _marked(kind: str) -> Any:
    """The first drawn element marked ``data-now=kind`` (issue 41), or None."""
    for node in document.querySelectorAll(f'[data-now="{kind}"]'):
        if node.getClientRects().length and str(js.window.getComputedStyle(node).visibility) != "hidden":
            return node
    return None


def _scrolling_sheet(node: Any) -> Any:
    sheet = node.closest(".play-sheet")
    return sheet if not frame.nullish(sheet) and sheet.scrollHeight > sheet.clientHeight + 1 else None


def bring_now() -> None:
    """The newest result and the next decision the page marks (``data-now``) into the screen
    after a tap, a bot's or a peer's step (issue 41): a person should never have to swipe to
    see what a tap did and what to do next. ``shell.now_scroll`` decides how far; on a phone's
    play screen the page scrolls to the sheet under the map and the sheet to the marks in it
    (the map stays in sight), and a sticky status bar is not counted as room.
    ``guest-dom.js`` ``bringNow`` does the same on a guest's device."""
    ready = document.getElementById("shell-ready")  # a pass screen: Ready is the next decision
    ready = None if frame.nullish(ready) or not ready.getClientRects().length else ready
    if ready is not None:  # the whole pass screen when it fits: its "Pass to Bob" heading too
        box = ready.closest("#shell-handover")
        if not frame.nullish(box) and float(box.getBoundingClientRect().height) <= float(js.window.innerHeight):
            ready = box
    marks = [ready if ready is not None else _marked("next"), _marked("result")]
    if all(m is None for m in marks):
        return
    sheets = [None if m is None else _scrolling_sheet(m) for m in marks]
    top_box = document.getElementById("shell-top")
    room_top = 0.0
    inside_top = any(m is not None and not frame.nullish(top_box) and bool(top_box.contains(m)) for m in marks)
    if not frame.nullish(top_box) and not inside_top and str(js.window.getComputedStyle(top_box).position) == "sticky":
        room_top = float(top_box.getBoundingClientRect().height)
    height = float(js.window.innerHeight)

    def span(node: Any) -> tuple[float, float]:
        r = node.getBoundingClientRect()
        return float(r.top), float(r.bottom)

    # a next decision taller than the screen: the control the page put the focus on in it
    # (``focus_home``, the winner's buttons) stands for it, rather than its top
    active = document.activeElement
    if marks[0] is not None and not frame.nullish(active) and not bool(active.isSameNode(marks[0])) \
            and bool(marks[0].contains(active)) and active.getClientRects().length:
        t, b = span(marks[0])
        if b - t > (float(sheets[0].clientHeight) if sheets[0] is not None else height - room_top):
            marks[0] = active
    page = [None if m is None else span(sh if sh is not None else m) for m, sh in zip(marks, sheets, strict=True)]
    dy = now_scroll(page[0], page[1], room_top, height)
    sheet = sheets[0] if sheets[0] is not None else sheets[1]
    ds = 0.0
    if sheet is not None:
        st, _ = span(sheet)
        st += float(sheet.clientTop)
        inner = [span(m) if m is not None and sh is not None and bool(sh.isSameNode(sheet)) else None
                 for m, sh in zip(marks, sheets, strict=True)]
        inner = [None if x is None else (x[0] - dy, x[1] - dy) for x in inner]
        ds = now_scroll(inner[0], inner[1], max(st - dy, room_top), min(st - dy + float(sheet.clientHeight), height))
    # to a place, not by a distance: a smooth scroll still running (a page's ``reveal``) would
    # add its own rest to a distance
    how = scroll_behavior()
    if abs(dy) >= 1:
        js.window.scrollTo(js.Object.fromEntries([["top", float(js.window.scrollY) + dy], ["behavior", how]]))
    if sheet is not None and abs(ds) >= 1:
        sheet.scrollTo(js.Object.fromEntries([["top", float(sheet.scrollTop) + ds], ["behavior", how]]))


def dock_toast(game_shown: bool) -> None:
    """The shell's message in the flow (issue 41: a toast over the board covered the very
    square it spoke of): docked under the status bar (``#shell-top``) while a game shows, so it
    is where the person looks and covers nothing; above the set-up before that."""
    toast, top, setup = (document.getElementById(i) for i in ("shell-toast", "shell-top", "shell-setup"))
    if frame.nullish(toast) or frame.nullish(top) or frame.nullish(setup):
        return
    docked = bool(top.contains(toast))
    if game_shown and not docked:
        top.append(toast)
    elif not game_shown and docked:
        setup.before(toast)


def touch_screen() -> bool:
    """True on a device whose main pointer is a finger (no hover, coarse): its words say
    "Tap" (``shell.tap_word``). Asked once: a phone does not become a desktop mid-game."""
    try:
        return bool(js.window.matchMedia("(hover: none) and (pointer: coarse)").matches)
    except Exception:  # noqa: BLE001 - no matchMedia: a mouse's words
        return False


def read_form(form: Any) -> dict[str, str]:
    """Every field of a form as text (checkboxes: "on" when ticked, else absent)."""
    data = js.FormData.new(form)
    out: dict[str, str] = {}
    for pair in data.entries():
        out[str(pair[0])] = str(pair[1])
    return out


def mark_field_errors(errors: dict[str, str]) -> None:
    """Set-up errors beside their fields, announced (``aria-invalid`` and a message)."""
    for node in document.querySelectorAll("[data-field-error]"):
        node.remove()
    for node in document.querySelectorAll("[aria-invalid='true']"):
        node.removeAttribute("aria-invalid")
    for fid, msg in errors.items():
        field = document.getElementById(fid)
        if frame.nullish(field):
            continue
        field.setAttribute("aria-invalid", "true")
        note = document.createElement("span")
        note.className = "field-error"
        note.setAttribute("data-field-error", fid)
        note.setAttribute("role", "alert")
        note.textContent = msg
        field.insertAdjacentElement("afterend", note)


def apply_patch(node: Any, patch: dict[str, Any]) -> None:
    """Change a build-time element: classes on/off, style properties, attributes."""
    if frame.nullish(node):
        return
    for cls, on in patch.get("class", {}).items():
        node.classList.toggle(cls, bool(on))
    for prop, value in patch.get("style", {}).items():
        if value is None:
            node.style.removeProperty(prop)
        else:
            node.style.setProperty(prop, str(value))
    for name, value in patch.get("attrs", {}).items():
        if value is None:
            node.removeAttribute(name)
        else:
            node.setAttribute(name, str(value))


def run(page_class: type[GamePage]) -> Runner:
    runner = Runner(page_class)
    runner.boot()
    return runner
