"""The live panel of the host's page (issue 22): its controls, the Live settings form, and
what a second tab of a table shows (issue 36).

Why apart from ``live_browser.py``: that file opens the room and moves texts between the
transport and the devices; this is what people see of it and click. :class:`LivePanel` is
a part of :class:`live_browser.LiveBrowser` (its base): the state is set by
``LiveBrowser.__init__``, and the controls call its ``start_host``, ``join_url``,
``_spawn`` and ``_proxy``. The trees themselves are drawn by :mod:`live_panels`.
"""
from __future__ import annotations

import json
from typing import Any

import dom
import js  # type: ignore[import-not-found]
import live
from browser_audience import channel_message
from duel_desk import follow_duel
from shell import HUMAN, and_list
from ui import h

from conquest.bots import levels as bot_levels
from conquest.savecode import load_json
from conquest.session import excerpt

SETTINGS_KEY = "conquest:live-settings"
TABLE_KEY = live.TABLE_KEY


class LivePanel:
    """What the host's page shows of its live table, and its controls (the base of
    :class:`live_browser.LiveBrowser`, which sets these)."""

    runner: Any
    shell: Any
    host: Any
    role: str | None
    table: live.Table | None
    room: Any
    relay_room: Any
    lobby: Any
    qr: Any
    error: str
    problems: live.Problems
    show_settings: bool
    devices: Any
    elsewhere: str | None
    code: str
    _following: bool
    _opened_for: bool | None

    # -- settings ------------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """Relays (a setting, the defaults from ``conquest/data/live.json``), ICE servers, TURN
        (:func:`live.transport_settings`)."""
        return live.transport_settings(self.host.load_pref(SETTINGS_KEY))

    def save_settings(self, relays_text: str, turn_url: str, turn_user: str, turn_pass: str) -> None:
        relays = [x.strip() for x in relays_text.split() if x.strip()]
        bad = [x for x in relays if not (x.startswith("wss://") or x.startswith("ws://127.0.0.1:") or x.startswith("ws://localhost:"))]
        if bad:
            self.shell.say(f"A relay address starts with wss:// ({excerpt(bad[0])} does not).", "error")
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

    # -- the panel ------------------------------------------------------------------------
    def on(self, what: str, *args: Any) -> None:
        """The panel's controls."""
        if what == "start":
            self.start_host()
        elif what == "start-audience":  # a table to watch only (the Metagame console's audience)
            if self.table is None and self.role is None:
                self.start_host(then=self._audience_table)  # once this tab holds the table (issue 36)
            elif self.table is not None:
                self._audience_table()
        elif what == "close" and self.table is not None:
            if not self.host.confirm("Close the live table? The other devices stop playing; the game stays here."):
                return
            self.table.close()
            s = self.shell.session
            if s is not None and s.slot_id is not None:
                self.host.save_pref(TABLE_KEY + s.slot_id, "")
            if self.devices is not None:
                self.devices.flush_all()  # the devices are told, before the room is left
            self._spawn(self._leave(self.room, self.lobby))
            self._spawn(self._leave(self.relay_room, None))
            self.table, self.room, self.role, self.qr, self.lobby, self.devices = None, None, None, None, None, None
            self.relay_room = None
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
        elif what == "settings":
            self.show_settings = not self.show_settings
        elif what == "save-settings":
            f = self.host.form_fields("live-settings-form")
            self.save_settings(f.get("relays", ""), f.get("turn-url", ""), f.get("turn-user", ""), f.get("turn-pass", ""))

    @staticmethod
    async def _leave(room: Any, lobby: Any) -> None:
        """Leave the room once what was given to it is signed and sent (the devices' last
        update says the table is closed), and the lobby."""
        if room is not None:
            try:
                await room.flushed()
            finally:
                room.leave()
        if lobby is not None:
            lobby.leave()

    def _audience_table(self) -> None:
        if self.table is not None:
            self.table.keep_all()
            self.host.reveal("live-panel")
            self.runner.render()

    # -- a second tab of the table (issue 36) ---------------------------------------------------
    def _show_only(self, code: str, slot_id: str) -> None:
        """Another tab of this browser runs this game's table: this one opens no room, plays
        and saves nothing (:func:`live.show_only`), and follows that tab's game as the
        audience tab does (the host's page sends it on the game's ``BroadcastChannel`` after
        every render, ``AudienceTabs.broadcast``), so it still shows the game as it goes on."""
        self.elsewhere, self.code = slot_id, code
        s = self.shell.session
        if s is not None:
            live.show_only(s)
        channel = self.runner.channel
        if channel is None or self._following:
            return
        self._following = True
        channel.addEventListener("message", self._proxy(self._on_tab_state))
        try:  # the host's tab answers a hello with its game now (``AudienceTabs.on_channel``)
            channel.postMessage(json.dumps({"t": "hello", "slot": slot_id}))
        except Exception:  # noqa: BLE001 - a closed channel: the game stays as it was opened
            pass

    def _on_tab_state(self, ev: Any) -> None:
        """The other tab's game, sent after each of its renders: followed here."""
        msg = channel_message(ev)
        s = self.shell.session
        if (msg is None or msg.get("t") != "state" or msg.get("slot") != self.elsewhere
                or s is None or s.slot_id != self.elsewhere or s.mode == "host"):
            return
        try:
            self.runner.follow(msg.get("save"), msg.get("viewing"))
        except Exception as exc:  # noqa: BLE001 - a bad message must not break this tab
            self.shell.say(f"This tab could not follow the other tab's game: {exc}", "error")
        s = self.shell.session
        if s is not None:
            s.slot_id = self.elsewhere  # a game followed from the start is still this slot's
            if s.mode == "host":
                live.show_only(s)
        self.runner.render()

    # -- drawing the panel ------------------------------------------------------------------
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
        s = self.shell.session
        if self.elsewhere is not None and s is not None and s.slot_id == self.elsewhere and s.mode == "host":
            live.show_only(s)  # the same game opened again here (the saved games' list): only shown (issue 36)
        dom.mount_id("live-panel", self.shell.isolated(self.render()))  # names typed on other devices (issue 20)
        # the panel folds away while people play (on a phone it would push the board and its
        # controls off the screen) and opens by itself when it needs someone: the host's
        # table before anyone joined, a guest without a seat or a connection. In between,
        # it stays as the person left it.
        want = self.wants_open()
        if want is not None and want != self._opened_for:
            self._opened_for = want
            box = js.document.getElementById("live-panel-box")
            if not dom.nullish(box) and str(box.tagName) == "DETAILS":
                box.open = want

    def wants_open(self) -> bool | None:
        """Whether the folded panel should be open now (None: there is no folded panel)."""
        if self.role == "host" and self.table is not None:
            return (bool(self.error) or bool(self.problems.current(self.host.clock()))
                    or not any(d.connected for d in self.table.devices.values()))
        return None

    def summary(self) -> str:
        """The folded panel's one line: the table and who is connected, or this seat."""
        if self.role == "host" and self.table is not None:
            on = [d.name for d in self.table.devices.values() if d.connected]
            seats = self.table.session.seats()
            # seats kept for named players (a Metagame duel): wait for them by name
            named = [seats[i].name for i in sorted(self.table.reserved) if i < len(seats)]
            return f"Live table {self.table.code}: " + (", ".join(on) + " connected" if on else
                                                        f"waiting for {and_list(named) if named else 'guests'}")
        return "Live table"

    def folded(self, *body: Any) -> Any:
        return h("details", h("summary", self.summary(), id="live-summary", cls="live-summary"), *body,
                 id="live-panel-box", cls="live-details", open=bool(self.wants_open()))

    def render(self) -> Any:
        s = self.shell.session
        settings_button = h("button", "Live settings", type="button", cls="small secondary", id="live-settings-toggle",
                            aria_expanded="true" if self.show_settings else "false", on_click=lambda ev: self.on("settings"))
        extra = [settings_button, self.render_settings() if self.show_settings else None]
        if self.error:  # the room itself could not open
            extra.insert(0, h("p", f"Live connection problem: {self.error}. " + live.HOST_NO_CONNECTION, cls="error",
                              role="alert"))
        elif self.role == "host":  # pairings that failed lately, each while it lasts (issue 36)
            now = self.host.clock()
            problems = self.problems.current(now)
            if problems:
                extra.insert(0, h("p", "Live connection problem: " + "; ".join(problems) + ". " + live.HOST_NO_CONNECTION,
                                  cls="error", role="alert", id="live-problem"))
        if self.role == "host" and self.table is not None:
            if s is None:
                return h("div", id="live-panel-box", hidden=True)
            self.table.sync_session()
            levels = list(bot_levels(self.shell.game))
            panel = live.render_host_panel(self.table, self.join_url(), self.qr, self.on, levels)
            return self.folded(panel, *extra)
        if self.elsewhere is not None and s is not None and s.slot_id == self.elsewhere:
            return h("div", live.render_elsewhere_panel(), id="live-panel-box", cls="live-start")  # issue 36
        if s is None or s.mode != "host":
            return h("div", id="live-panel-box", hidden=True)
        return h(
            "div",
            h("button", "Play live: each player on their own device", type="button", id="live-start",
              on_click=lambda ev: self.on("start")),
            " ", *extra,
            id="live-panel-box", cls="live-start",
        )

    def after_render(self) -> None:
        if self.table is not None and self.shell.session is not None:
            # a capital's second duel set up at this table (issue 42): this page opens it, and
            # the devices at the table are sent it below, as any new step
            followed = self.role == "host" and follow_duel(self.shell, self.code) is not None
            self.table.sync_session()
            self.table.sync()
            if followed:
                self.table.save_table()  # the table's record under the new duel's slot, as it is now
                self.host.later(0, self.runner.render)  # this page draws the new duel
