"""Live play in the page: the transport (``static/live.js``) joined to :mod:`live`.

Why thin: the protocol, the checks and the panels are in :mod:`live` (tested in CPython);
this file only opens the room, moves texts between the data channel and :class:`live.Table`
or :class:`live.Guest`, keeps the table and the device token in storage, and mounts the
panel. Hooks in ``shell_browser.Runner``: ``boot`` (a join link), ``resume`` (a host's
reload), ``mount`` (the panel), ``after_render`` (send the news).
"""
from __future__ import annotations

import json
from typing import Any

import dom
import js  # type: ignore[import-not-found]
import live
from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]
from shell import HUMAN
from ui import h

from conquest.bots import levels as bot_levels
from conquest.savecode import load_json

SETTINGS_KEY = "conquest:live-settings"
NAME_KEY = "conquest:live-name"
TABLE_KEY = "conquest:live-table:"
DEVICE_KEY = "conquest:live-device:"
#: a guest that hears nothing from the host for this long joins the room again (a fresh
#: announcement on the relays; some first attempts never pair), and after TRIES is told why
#: and what to do
CONNECT_TIMEOUT_MS = 12_000
TRIES = 4


class LiveBrowser:
    def __init__(self, runner: Any) -> None:
        self.runner = runner
        self.shell = runner.shell
        self.host = runner.host
        self.role: str | None = None
        self.table: live.Table | None = None
        self.guest: live.Guest | None = None
        self.room: Any = None
        self.code = ""
        self.password = ""
        self.qr: Any = None
        self.failed = False
        self.error = ""
        self.show_settings = False
        self.tries = 0
        self._keep: list[Any] = []

    # -- settings ------------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """Relays (a setting, the defaults from ``conquest/data/live.json``), ICE servers, TURN."""
        try:
            raw = load_json(self.host.load_pref(SETTINGS_KEY) or "{}", "preference")
        except ValueError:
            raw = {}
        raw = raw if isinstance(raw, dict) else {}
        relays = [r for r in raw.get("relays", []) if isinstance(r, str)] or list(live.SETTINGS["relays"])
        out: dict[str, Any] = {"appId": live.SETTINGS["app_id"], "relays": relays[:8], "maxChars": live.MAX_UPDATE}
        if raw.get("trickleIce") is True:
            out["trickleIce"] = True
        if raw.get("record") is True:  # tests: keep every text received, to check what arrived
            out["record"] = True
        ice = raw.get("iceServers")
        if isinstance(ice, list):
            out["iceServers"] = [x for x in ice if isinstance(x, dict)]
        turn = raw.get("turn")
        if isinstance(turn, dict) and isinstance(turn.get("urls"), str) and turn["urls"]:
            out["turn"] = {k: str(v) for k, v in turn.items() if k in ("urls", "username", "credential")}
        return out

    def save_settings(self, relays_text: str, turn_url: str, turn_user: str, turn_pass: str) -> None:
        relays = [x.strip() for x in relays_text.split() if x.strip()]
        bad = [x for x in relays if not (x.startswith("wss://") or x.startswith("ws://127.0.0.1:") or x.startswith("ws://localhost:"))]
        if bad:
            self.shell.say(f"A relay address starts with wss:// ({live.excerpt(bad[0])} does not).", "error")
            return
        try:
            raw = load_json(self.host.load_pref(SETTINGS_KEY) or "{}", "preference")
        except ValueError:
            raw = {}
        raw = raw if isinstance(raw, dict) else {}
        raw["relays"] = relays
        raw["turn"] = {"urls": turn_url.strip(), "username": turn_user, "credential": turn_pass} if turn_url.strip() else None
        self.host.save_pref(SETTINGS_KEY, json.dumps(raw))
        self.shell.say("Saved. They apply to the next table you open or join (reload this page to rejoin).")

    # -- starting -----------------------------------------------------------------------
    def boot(self) -> bool:
        """A join link (``#live=<code>.<password>``) opens this page as a guest."""
        keys = live.parse_join_fragment(str(js.location.hash or ""))
        if keys is None:
            return False
        self.role = "guest"
        self.code, self.password = keys
        key = DEVICE_KEY + self.code
        token = self.host.load_pref(key)
        if not token or len(token) < 16:
            token = live.device_token()
            self.host.save_pref(key, token)
        self.guest = live.Guest(self.shell, self._send_to_host, token, self.host.load_pref(NAME_KEY) or "")
        self.host.later(0, lambda: self._spawn(self._open()))
        self.host.later(CONNECT_TIMEOUT_MS, self._check_connected)
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

    def start_host(self, code: str | None = None, password: str | None = None, stored: Any = None) -> None:
        s = self.shell.session
        if s is None or s.mode != "host":
            self.shell.say("Open a game first; then it can be played live.", "error")
            return
        if s.slot_id is None:
            self.shell.say("This game is not stored in this browser yet, so a table cannot be kept across a reload.", "error")
            return
        if code is None or password is None:
            code, password = live.new_table_keys()
        self.role = "host"
        self.code, self.password = code, password
        self.table = live.Table(self.shell, self._send_to_peer, code, password)
        self.table.saver = self._store_table
        if stored is not None:
            self.table.restore(stored)
        self._store_table(self.table.to_json())
        self._spawn(self._open())
        self._spawn(self._make_qr())

    def _store_table(self, obj: Any) -> None:
        s = self.shell.session
        if s is not None and s.slot_id is not None:
            self.host.save_pref(TABLE_KEY + s.slot_id, json.dumps(obj))

    def join_url(self) -> str:
        return f"{self.host.page_url()}{live.join_fragment(self.code, self.password)}"

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
        try:
            self.room = await js.window.conquestLive.open(
                self.code, self.password, to_js(self.settings(), dict_converter=js.Object.fromEntries),
                to_js(handlers, dict_converter=js.Object.fromEntries),
            )
        except Exception as exc:  # noqa: BLE001
            self._on_error(f"{type(exc).__name__}: {exc}")
            return
        self.runner.render()

    def _proxy(self, fn: Any) -> Any:
        p = create_proxy(lambda *a: self.runner.guard(fn, *a))
        self._keep.append(p)
        return p

    # -- the transport's events -------------------------------------------------------------
    def _on_message(self, peer: Any, text: Any) -> None:
        peer, text = str(peer), str(text)
        if self.table is not None:
            self.table.receive(peer, text, self.host.clock())
            self._after_table()
        elif self.guest is not None:
            before = self.shell.session
            self.guest.receive(peer, text)
            if self.guest.host_peer is not None:
                self.failed = False
            if before is None and self.shell.session is not None:
                js.window.scrollTo(0, 0)
            self.runner.render()

    def _after_table(self) -> None:
        self.runner.render()

    def _on_join(self, peer: Any) -> None:
        if self.table is not None:
            self.table.connected(str(peer))
            self.runner.render()

    def _on_leave(self, peer: Any) -> None:
        peer = str(peer)
        if self.table is not None:
            self.table.disconnected(peer)
        elif self.guest is not None:
            self.guest.host_left(peer)
            if self.guest.host_peer is None:
                self.tries = 0
                self.host.later(CONNECT_TIMEOUT_MS, self._check_connected)
        self.runner.render()

    def _on_error(self, message: Any) -> None:
        self.error = str(message)[:300]
        self.failed = True
        self.runner.render()

    def _check_connected(self) -> None:
        if self.guest is None or self.guest.host_peer is not None:
            return
        self.tries += 1
        if self.tries >= TRIES:
            self.failed = True
            self.runner.render()
            return
        room, self.room = self.room, None
        if room is not None:
            self._spawn(self._rejoin(room))
        self.host.later(CONNECT_TIMEOUT_MS, self._check_connected)

    async def _rejoin(self, room: Any) -> None:
        try:
            await room.leave()
        except Exception:  # noqa: BLE001 - a room that cannot leave is dropped anyway
            pass
        await self._open()

    def _send_to_peer(self, peer: str, text: str) -> None:
        if self.room is not None:
            self.room.send(peer, text)

    def _send_to_host(self, text: str) -> None:
        if self.room is not None and self.guest is not None and self.guest.host_peer is not None:
            self.room.send(self.guest.host_peer, text)

    # -- the panel ------------------------------------------------------------------------
    def on(self, what: str, *args: Any) -> None:
        """The panel's controls."""
        if what == "start":
            self.start_host()
        elif what == "close" and self.table is not None:
            if not self.host.confirm("Close the live table? The other devices stop playing; the game stays here."):
                return
            self.table.close()
            s = self.shell.session
            if s is not None and s.slot_id is not None:
                self.host.save_pref(TABLE_KEY + s.slot_id, "")
            if self.room is not None:
                self.room.leave()
            self.table, self.room, self.role, self.qr = None, None, None, None
        elif what == "seat" and self.table is not None:
            seat, value = int(args[0]), str(args[1])
            if value.startswith("bot:"):
                self.table.make_bot(seat, value[4:])
            elif value == "open":
                self.table.release(seat)
            else:
                s = self.table.session
                if seat < len(s.seats()) and s.seats()[seat].is_bot:
                    self.table.make_bot(seat, HUMAN)
                self.table.assign(seat, value or None)
        elif what == "claim" and self.guest is not None:
            self.guest.claim(args[0])
        elif what == "name" and self.guest is not None:
            name = " ".join(str(args[0]).split())[: live.MAX_NAME]
            self.guest.name = name
            self.host.save_pref(NAME_KEY, name)
            self.guest.hello()
        elif what == "settings":
            self.show_settings = not self.show_settings
        elif what == "save-settings":
            f = self.host.form_fields("live-settings-form")
            self.save_settings(f.get("relays", ""), f.get("turn-url", ""), f.get("turn-user", ""), f.get("turn-pass", ""))

    def render_settings(self) -> Any:
        st = self.settings()
        turn = st.get("turn") or {}
        return h(
            "form",
            h("label", "Relays (one per line; the site allows these: "
              + ", ".join(live.SETTINGS["relays"]) + ", and one on this machine, ws://127.0.0.1:PORT)",
              h("textarea", "\n".join(st["relays"]), name="relays", rows="4", id="live-relays")),
            h("label", "TURN server (for networks that block direct connections), e.g. turn:turn.example.org:3478",
              h("input", type="text", name="turn-url", id="live-turn-url", value=turn.get("urls", ""))),
            h("label", "TURN user name", h("input", type="text", name="turn-user", value=turn.get("username", ""))),
            h("label", "TURN password", h("input", type="password", name="turn-pass", value=turn.get("credential", ""))),
            h("button", "Save settings", type="button", id="live-save-settings", on_click=lambda ev: self.on("save-settings")),
            id="live-settings-form", cls="live-settings",
        )

    def mount(self) -> None:
        dom.mount_id("live-panel", self.render())

    def render(self) -> Any:
        s = self.shell.session
        settings_button = h("button", "Live settings", type="button", cls="small secondary", id="live-settings-toggle",
                            aria_expanded="true" if self.show_settings else "false", on_click=lambda ev: self.on("settings"))
        extra = [settings_button, self.render_settings() if self.show_settings else None]
        if self.error:
            extra.insert(0, h("p", f"Live connection problem: {self.error}. " + live.NO_CONNECTION, cls="error", role="alert"))
        if self.role == "host" and self.table is not None:
            if s is None:
                return h("div", id="live-panel-box", hidden=True)
            self.table.sync_session()
            levels = list(bot_levels(self.shell.game))
            panel = live.render_host_panel(self.table, self.join_url(), self.qr, self.on, levels)
            return h("div", panel, *extra, id="live-panel-box")
        if self.role == "guest" and self.guest is not None:
            connected = self.guest.host_peer is not None and s is not None
            return h("div", live.render_guest_panel(self.guest, connected, self.failed, self.on), *extra, id="live-panel-box")
        if s is None or s.mode != "host":
            return h("div", id="live-panel-box", hidden=True)
        return h(
            "div",
            h("button", "Play live: each player on their own device", type="button", id="live-start",
              on_click=lambda ev: self.on("start")),
            " ", *extra,
            id="live-panel-box", cls="live-start",
        )

    def links_note(self) -> Any:
        """A guest's "Links and files": it holds no save (the host's page keeps the game)."""
        return h("p", "At a live table the game is kept on the host's device; ask the host for links or a file.",
                 id="shell-links-inner", cls="muted")

    def no_banner(self) -> Any:
        return h("div", id="shell-duel-inner", hidden=True)

    def after_render(self) -> None:
        if self.table is not None and self.shell.session is not None:
            self.table.sync_session()
            self.table.sync()


def attach(runner: Any) -> LiveBrowser:
    return LiveBrowser(runner)

