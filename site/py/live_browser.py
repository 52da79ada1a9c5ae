"""Live play in the page: the transport (``static/live.js``) joined to :mod:`live`.

Why thin: the protocol, the checks and the panels are in :mod:`live` and :mod:`remote`
(tested in CPython); this file only opens the room, moves texts between the data channel
and the devices' pages (:class:`remote.Devices`, which speak to :class:`live.Table`), keeps
the table in storage. Its parts are objects it owns: the panel (``panel``, a
:class:`live_browser_panel.LivePanel`, given this page as its narrow ``TableOwner``) and a
second tab's state (``second``, :class:`live_browser_tab.SecondTab`). Only the host's page
runs here: a guest device runs no engine (issue 37: the game's guest page,
``static/guest.js``). Hooks in ``shell_browser.Runner``: ``boot`` (a join link: to the guest
page), ``resume`` (a host's reload), ``mount`` (the panel), ``after_render`` (send the news;
a Metagame capital's second duel set up at this table is opened here,
``duel_desk.follow_duel``). One tab of a browser runs a table (issue 36): a second tab of it
only shows the game (``_claim``, ``SecondTab.show_only``).
"""
from __future__ import annotations

import json
from typing import Any

import dom
import js  # type: ignore[import-not-found]
import live
import remote
from duel_desk import follow_duel
from live_browser_panel import LivePanel, load_settings
from live_browser_tab import SecondTab
from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from conquest.savecode import load_json

TABLE_KEY = live.TABLE_KEY


class LiveBrowser:
    """The host's page at its live table: opens the room (its lock, its key, the lobby), and
    moves texts between the transport and the devices' pages; its panel is ``panel``."""

    def __init__(self, runner: Any) -> None:
        self.runner = runner
        self.shell = runner.shell
        self.host = runner.host
        self.role: str | None = None
        self.table: live.Table | None = None
        self.room: Any = None
        self.code = ""
        self.password = ""
        self.qr: Any = None
        self.error = ""  # the transport could not open at all (shown until the page reloads)
        #: connection problems about peers, shown only while they last (issue 36)
        self.problems = live.Problems()
        self.devices: remote.Devices | None = None  # the guest devices' pages (issue 37)
        self.relay_room: Any = None  # the same room through the relays alone (issue 37)
        self.lobby: Any = None  # the host's lobby, where a typed room code finds the table (issue 36)
        self.room_relays: list[str] | None = None  # the relays the room was last opened on
        self._keep: list[Any] = []
        self.render_waiting = False
        self._below: Any = None
        self._below_asked = False
        self._paint_proxy: Any = None
        self._frame_proxy: Any = None
        #: issue 36, one authority per table: whether another tab of this browser runs it
        self.second = SecondTab(runner, self._proxy)
        self.claiming = False  # the table's lock is being asked for (start_host)
        self.panel = LivePanel(self, runner, self.second)
        self.tracing = bool(load_settings(self.host).get("trace"))
        if self.tracing:
            js.window.conquestLiveTrace = js.Array.new()

    # -- starting -----------------------------------------------------------------------
    def boot(self) -> bool:
        """A join link (``#live=…``) belongs to the game's guest page (issue 37: a guest device
        runs no engine): this page goes there. ``static/joining.js`` sends a link opened on
        this page there before anything of the engine loads; this catches one pasted into
        the address bar of an open page (a new fragment, no new page)."""
        frag = str(js.location.hash or "")
        if live.parse_join_fragment(frag) is None:
            return False
        js.location.replace(live.guest_page(self.host.page_url()) + frag)
        return True

    def resume(self) -> None:
        """The host's page reloads (or crashed): a table stored for this slot opens again."""
        s = self.shell.session
        if s is None or s.slot_id is None or s.mode != "host" or self.role is not None:
            return
        raw = self.host.load_pref(TABLE_KEY + s.slot_id)
        if not raw:
            return
        try:
            obj = load_json(raw, "preference")
            code, password = str(obj["code"]), str(obj["password"])
        except (ValueError, KeyError, TypeError):
            return
        self.start_host(code, password, obj)

    def stored_table(self, slot_id: str) -> tuple[str, str, Any] | None:
        """``(code, password, record)`` of the table stored for ``slot_id``, or None."""
        raw = self.host.load_pref(TABLE_KEY + slot_id)
        try:
            obj = load_json(raw, "preference") if raw else None
            return (str(obj["code"]), str(obj["password"]), obj) if isinstance(obj, dict) else None
        except (ValueError, KeyError, TypeError):
            return None

    def start_host(self, code: str | None = None, password: str | None = None, stored: Any = None,
                   then: Any = None) -> None:
        """Open the table of this page's game, once this tab holds its lock (issue 36, see
        ``_claim``); ``then()`` after it opened here."""
        s = self.shell.session
        if self.second.shows(s):
            self.shell.say("This game's live table is open in another tab of this browser: use that tab.", "error")
            return
        if s is None or s.mode != "host":
            self.shell.say("Open a game first; then it can be played live.", "error")
            return
        if s.slot_id is None:
            self.shell.say("This game is not stored in this browser yet, so a table cannot be kept across a reload.", "error")
            return
        if not has_webrtc():
            self.shell.say(live.HOST_NO_WEBRTC, "error")
            return
        if self.claiming or self.role is not None:
            return
        if code is None or password is None:
            # another tab may have opened this game's table since this page loaded: that
            # table, not a second one (issue 36)
            found = self.stored_table(s.slot_id)
            code, password, stored = found if found is not None else (*live.new_table_keys(), None)
        self.claiming = True
        self._spawn(self._claim(code, password, stored, then))

    async def _new_table(self, code: str, password: str) -> tuple[str, Any]:
        """A new table's signing key first, and its room code made from the key
        (``conquestLive.codeForKey``): a friend who has only the code, typed on the landing
        page, can then check that the table answering it is this one (issue 36). Where no key
        can be made the random code stays (``_start_host`` then says why there is no table)."""
        try:
            pair = await js.window.conquestLive.newHostKey()
            key = {"private": str(pair.private), "public": str(pair.public)}
            code = str(await js.window.conquestLive.codeForKey(key["public"], live.CODE_ALPHABET))
        except Exception:  # noqa: BLE001 - no WebCrypto (an insecure page): said by _start_host
            return code, None
        return code, {"code": code, "password": password, "devices": [], "key": key}

    async def _claim(self, code: str, password: str, stored: Any, then: Any) -> None:
        """Issue 36, one authority per table: a second tab or window of this table in this
        browser (a duplicated tab, the Metagame console's link clicked again) must not become
        a second host, with a second history and the guests split between the two. The tab
        that runs the table holds a lock named after its room (``static/frame.js``) for the
        page's life; a tab that finds it taken opens no room and only shows the game
        (``SecondTab.show_only``). Where the browser has no Web Locks (none that runs the engine on a
        secure page, and a table needs one for its signing key) the table opens as before."""
        if stored is None:
            code, stored = await self._new_table(code, password)
        try:
            got = await js.window.conquestTableLock.hold(live.table_lock(code))
            held = None if dom.nullish(got) else bool(got)
        except Exception:  # noqa: BLE001 - no helper (an older cached frame.js): as before
            held = None
        finally:
            self.claiming = False
        s = self.shell.session
        if s is None or s.slot_id is None or s.mode != "host" or self.role is not None:
            return  # the page moved on meanwhile (another game opened)
        if held is False:
            self.code = code
            self.second.show_only(s.slot_id)
            self.runner.render()
            return
        self._host(code, password, stored)
        if then is not None:
            then()

    def _host(self, code: str, password: str, stored: Any) -> None:
        self.role = "host"
        self.code, self.password = code, password
        self.table = live.Table(self.shell, self._send_to_peer, code, password)
        self.table.seating.saver = self._store_table
        # issue 37: this page draws every guest device's page; the table speaks to those pages
        self.devices = remote.Devices(type(self.runner.page), self.shell.game, self.host, self._send_to_peer)
        self.devices.host_page = self.runner.page
        self.devices.attach(self.table)
        if stored is not None:
            self.table.seating.restore(stored)
        self._spawn(self._start_host())

    async def _start_host(self) -> None:
        """The signing key first (kept with the table: a reload signs with the key the
        guests' links name), then the room and the QR code of the link that names it."""
        record = self.table.seating if self.table is not None else None
        if record is None:
            return
        if record.host_key is None:
            try:
                pair = await js.window.conquestLive.newHostKey()
            except Exception as exc:  # noqa: BLE001 - no WebCrypto (an insecure page): no table
                self._on_error(f"this browser cannot sign the table's messages ({exc})")
                return
            record.host_key = {"private": str(pair.private), "public": str(pair.public)}
        self._store_table(record.to_json())
        self.runner.render()
        await self._open()
        await self._make_qr()
        await self._open_lobby()

    async def _open_lobby(self) -> None:
        """Where a friend with only the room code finds this table (issue 36): a second room
        named by the code, answering the game and the join fragment. Only for a code made
        from this table's key (older tables and the Metagame's duel tables, made before their
        key, are joined by their links)."""
        record = self.table.seating if self.table is not None else None
        if record is None or record.host_key is None or self.lobby is not None:
            return
        try:
            code = str(await js.window.conquestLive.codeForKey(record.host_key["public"], live.CODE_ALPHABET))
            if code != self.code:
                return
            url = self.join_url()
            info = json.dumps({"game": self.shell.game.id, "fragment": url[url.index("#"):]})
            self.lobby = await js.window.conquestLive.lobby(self.code, to_js(load_settings(self.host), dict_converter=js.Object.fromEntries), info)
        except Exception as exc:  # noqa: BLE001 - the link and the QR code still work
            js.console.warn(f"live lobby: {exc}")

    def _store_table(self, obj: Any) -> None:
        s = self.shell.session
        if s is not None and s.slot_id is not None:
            self.host.save_pref(TABLE_KEY + s.slot_id, json.dumps(obj))

    def join_url(self) -> str:
        key = self.table.seating.host_key if self.table is not None else None
        if key is None:
            return ""
        # the relays the room was opened on (settings saved since apply to the next table);
        # read once there, not from storage at every render of the panel
        relays = self.room_relays if self.room_relays is not None else load_settings(self.host)["relays"]
        own = live.relays_fragment(relays) if list(relays) != list(live.SETTINGS["relays"]) else ""
        return f"{live.guest_page(self.host.page_url())}{live.join_fragment(self.code, self.password, key['public'])}{own}"

    def _spawn(self, coro: Any) -> None:
        import asyncio

        task = asyncio.ensure_future(coro)
        self._keep.append(task)
        task.add_done_callback(lambda t: self._keep.remove(t) if t in self._keep else None)

    async def _make_qr(self) -> None:
        try:
            rows = await js.window.conquestLive.qr(self.join_url())
            modules = [[c == "1" for c in str(r)] for r in rows]
            self.qr = live.qr_svg(modules, "QR code of the join link")
        except Exception as exc:  # noqa: BLE001 - the link and the code still work
            js.console.warn(f"QR code: {exc}")
        self.runner.render()

    async def _open(self) -> None:
        handlers = {
            "message": self._proxy(self._on_message),
            "join": self._proxy(self._on_join),
            "leave": self._proxy(self._on_leave),
            "error": self._proxy(self._on_error),
        }
        settings = load_settings(self.host)
        self.room_relays = list(settings["relays"])
        if self.table is not None and self.table.seating.host_key is not None:
            settings["hostKey"] = self.table.seating.host_key["private"]
        try:
            self.room = await js.window.conquestLive.open(
                self.code, self.password, to_js(settings, dict_converter=js.Object.fromEntries),
                to_js(handlers, dict_converter=js.Object.fromEntries),
            )
        except Exception as exc:  # noqa: BLE001 - the room itself could not open: shown until a reload
            self.error = f"{type(exc).__name__}: {exc}"[:300]
            self.runner.render()
            return
        if self.table is not None and self.relay_room is None:
            # issue 37: a device without WebRTC joins through the relays alone (its peer ids
            # start with "r:"); the host answers there too, and posts nothing until one does
            try:
                self.relay_room = await js.window.conquestLive.openRelay(
                    self.code, self.password, to_js(settings, dict_converter=js.Object.fromEntries),
                    to_js(handlers, dict_converter=js.Object.fromEntries),
                )
            except Exception as exc:  # noqa: BLE001 - the direct way still works
                js.console.warn(f"live relay room: {exc}")
        self.runner.render()

    def close_table(self) -> None:
        """The host closes the table: the devices are told before the room is left, and the
        table's record is dropped (a reload does not reopen it); the game stays here."""
        if self.table is None:
            return
        self.table.close()
        s = self.shell.session
        if s is not None and s.slot_id is not None:
            self.host.save_pref(TABLE_KEY + s.slot_id, "")
        if self.devices is not None:
            self.devices.flush_all()  # the devices are told, before the room is left
        self._spawn(_leave(self.room, self.lobby))
        self._spawn(_leave(self.relay_room, None))
        self.table, self.room, self.role, self.qr, self.lobby, self.devices = None, None, None, None, None, None
        self.relay_room = None

    # -- the runner's hooks (the panel is drawn and answered by ``panel``) --------------------
    def mount(self) -> None:
        self.panel.mount()

    def on(self, what: str, *args: Any) -> None:
        """The panel's controls by name (the Metagame console starts its audience table so)."""
        self.panel.on(what, *args)

    def after_render(self) -> None:
        if self.table is not None and self.shell.session is not None:
            # a capital's second duel set up at this table (issue 42): this page opens it, and
            # the devices at the table are sent it below, as any new step
            followed = self.role == "host" and follow_duel(self.shell, self.code) is not None
            self.table.seating.sync_session()
            self.table.sync()
            if followed:
                self.table.seating.save()  # the table's record under the new duel's slot, as it is now
                self.host.later(0, self.runner.render)  # this page draws the new duel

    def _proxy(self, fn: Any) -> Any:
        p = create_proxy(lambda *a: self.runner.guard(fn, *a))
        self._keep.append(p)
        return p

    # -- the transport's events -------------------------------------------------------------
    def trace(self, what: str) -> None:
        """The benchmark's record (``trace`` setting): what happened when, in ms since the
        epoch, comparable between the pages of one machine (bench/live.py reads it)."""
        if self.tracing:
            js.window.conquestLiveTrace.push(to_js([what, float(js.performance.timeOrigin + js.performance.now())]))

    def _on_message(self, peer: Any, text: Any, signed: Any = False) -> None:
        """A device's message: to its page on this host (``remote.Devices``), then this page is
        drawn once the devices' updates are on their way."""
        if self.devices is None:
            return
        self.trace("received")
        self.devices.receive(str(peer), str(text), self.host.clock())
        self.trace("handled")
        self._after_table()

    def _after_table(self) -> None:
        """The host's page is drawn after the updates have left (signing is asynchronous):
        the guests' screens never wait for the host's own render. Renders asked for while
        one waits are one render."""
        if self.render_waiting:
            return
        self.render_waiting = True
        self._spawn(self._render_after_sends())

    async def _render_after_sends(self) -> None:
        """The devices' pages first (each drawn and sent in a task of its own, issue 37),
        then this page, once what they were sent is signed and on its way."""
        try:
            if self.devices is not None:
                await self.devices.idle()
            if self.room is not None:
                await self.room.flushed()
        finally:
            self.render_waiting = False
            self.runner.render()
            self.trace("rendered")
            self._trace_painted()

    def _trace_painted(self) -> None:
        """The benchmark's "shown": the next frame after the render (the screen is painted)."""
        if self.tracing:
            js.requestAnimationFrame(create_proxy(lambda *_: self.trace("painted")))

    def after_paint(self, fn: Any) -> None:
        """``fn`` once the next frame is painted (one call however many renders asked)."""
        self._below = fn
        if self._below_asked:
            return
        self._below_asked = True

        def frame(*_: Any) -> None:
            js.setTimeout(self._paint_proxy, 0)

        def run() -> None:
            self._below_asked = False
            fn_now, self._below = self._below, None
            if fn_now is not None:
                fn_now()

        self._paint_proxy = self._paint_proxy or create_proxy(lambda: self.runner.guard(run))
        self._frame_proxy = self._frame_proxy or create_proxy(frame)
        js.requestAnimationFrame(self._frame_proxy)

    def _on_join(self, peer: Any) -> None:
        self.problems.resolved(str(peer))
        if self.devices is not None:
            self.devices.connected(str(peer))
            self.runner.render()

    def _on_leave(self, peer: Any) -> None:
        peer = str(peer)
        self.problems.resolved(peer)
        if self.devices is not None:
            self.devices.disconnected(peer)
        self.runner.render()

    def _on_error(self, message: Any, peer: Any = "") -> None:
        """A failed pairing with one peer (the library tries again by itself): shown while it
        lasts (issue 36)."""
        self.problems.add(str(peer or "") or "?", str(message)[:300], self.host.clock())
        self.runner.render()
        self.host.later(live.PROBLEM_MS + 100, self.runner.render)  # drawn again once it is stale

    def _send_to_peer(self, peer: str, text: str) -> None:
        self.trace("send")
        room = self.relay_room if peer.startswith("r:") else self.room
        if room is not None:
            room.send(peer, text)


async def _leave(room: Any, lobby: Any) -> None:
    """Leave the room once what was given to it is signed and sent (the devices' last update
    says the table is closed), and the lobby."""
    if room is not None:
        try:
            await room.flushed()
        finally:
            room.leave()
    if lobby is not None:
        lobby.leave()


def has_webrtc() -> bool:
    """Whether this browser can make the peer connections live play uses."""
    return not dom.nullish(getattr(js.window, "RTCPeerConnection", None))


def attach(runner: Any) -> LiveBrowser:
    return LiveBrowser(runner)

