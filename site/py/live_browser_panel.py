"""The live panel of the host's page (issue 22): its controls and the Live settings form.

Why apart from ``live_browser.py``: that file opens the room and moves texts between the
transport and the devices; this is what people see of it and click. :class:`LivePanel` is
a part the page's :class:`live_browser.LiveBrowser` owns (``LiveBrowser.panel``): it keeps
its own state (the settings form shown, the fold), reads the table through a narrow
:class:`TableOwner`, and draws what a second tab of the table shows from the
:class:`live_browser_tab.SecondTab` it is given. The trees themselves are drawn by
:mod:`live_panels`.
"""
from __future__ import annotations

import json
from typing import Any, Protocol

import dom
import js  # type: ignore[import-not-found]
import live
from live_browser_tab import SecondTab
from shell import HUMAN, and_list
from ui import h

from conquest.bots import levels as bot_levels
from conquest.savecode import load_json
from conquest.session import excerpt

SETTINGS_KEY = "conquest:live-settings"


def load_settings(host: Any) -> dict[str, Any]:
    """Relays (a setting, the defaults from ``conquest/data/live.json``), ICE servers, TURN
    (:func:`live.transport_settings`): what the form shows and the room is opened with."""
    return live.transport_settings(host.load_pref(SETTINGS_KEY))


class TableOwner(Protocol):
    """What the panel reads of the page's live table and asks of it (``LiveBrowser``)."""

    role: str | None
    table: live.Table | None
    qr: Any  # the join link's QR code, once made
    error: str  # the room could not open at all
    problems: live.Problems  # failed pairings, while they last

    def join_url(self) -> str: ...

    def start_host(self, code: str | None = None, password: str | None = None, stored: Any = None,
                   then: Any = None) -> None: ...

    def close_table(self) -> None: ...


class LivePanel:
    """What the host's page shows of its live table, and its controls."""

    def __init__(self, owner: TableOwner, runner: Any, second: SecondTab) -> None:
        self.owner = owner
        self.runner = runner
        self.shell = runner.shell
        self.host = runner.host
        self.second = second
        self.show_settings = False  # the Live settings form is open
        self._opened_for: bool | None = None  # the fold was last opened (or closed) for this

    # -- settings ------------------------------------------------------------------------
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
        owner, table = self.owner, self.owner.table
        if what == "start":
            owner.start_host()
        elif what == "start-audience":  # a table to watch only (the Metagame console's audience)
            if table is None and owner.role is None:
                owner.start_host(then=self._audience_table)  # once this tab holds the table (issue 36)
            elif table is not None:
                self._audience_table()
        elif what == "close" and table is not None:
            if self.host.confirm("Close the live table? The other devices stop playing; the game stays here."):
                owner.close_table()
        elif what == "seat" and table is not None:
            seat, value = int(args[0]), str(args[1])
            if value.startswith("bot:"):
                table.make_bot(seat, value[4:])
            elif value == "open":
                table.release(seat)
            else:
                s = table.session
                if seat < len(s.seats()) and s.seats()[seat].is_bot:
                    table.make_bot(seat, HUMAN)
                table.assign(seat, value or None)
        elif what == "settings":
            self.show_settings = not self.show_settings
        elif what == "save-settings":
            f = self.host.form_fields("live-settings-form")
            self.save_settings(f.get("relays", ""), f.get("turn-url", ""), f.get("turn-user", ""), f.get("turn-pass", ""))

    def _audience_table(self) -> None:
        if self.owner.table is not None:
            self.owner.table.keep_all()
            self.host.reveal("live-panel")
            self.runner.render()

    # -- drawing the panel ------------------------------------------------------------------
    def render_settings(self) -> Any:
        st = load_settings(self.host)
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
        if self.second.shows(s) and s.mode == "host":
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
        owner, table = self.owner, self.owner.table
        if owner.role == "host" and table is not None:
            return (bool(owner.error) or bool(owner.problems.current(self.host.clock()))
                    or not any(d.connected for d in table.seating.devices.values()))
        return None

    def summary(self) -> str:
        """The folded panel's one line: the table and who is connected, or this seat."""
        table = self.owner.table
        if self.owner.role == "host" and table is not None:
            record = table.seating
            on = [d.name for d in record.devices.values() if d.connected]
            seats = record.session.seats()
            # seats kept for named players (a Metagame duel): wait for them by name
            named = [seats[i].name for i in sorted(record.reserved) if i < len(seats)]
            return f"Live table {record.code}: " + (", ".join(on) + " connected" if on else
                                                    f"waiting for {and_list(named) if named else 'guests'}")
        return "Live table"

    def folded(self, *body: Any) -> Any:
        return h("details", h("summary", self.summary(), id="live-summary", cls="live-summary"), *body,
                 id="live-panel-box", cls="live-details", open=bool(self.wants_open()))

    def render(self) -> Any:
        s = self.shell.session
        owner, table = self.owner, self.owner.table
        settings_button = h("button", "Live settings", type="button", cls="small secondary", id="live-settings-toggle",
                            aria_expanded="true" if self.show_settings else "false", on_click=lambda ev: self.on("settings"))
        extra = [settings_button, self.render_settings() if self.show_settings else None]
        if owner.error:  # the room itself could not open
            extra.insert(0, h("p", f"Live connection problem: {owner.error}. " + live.HOST_NO_CONNECTION, cls="error",
                              role="alert"))
        elif owner.role == "host":  # pairings that failed lately, each while it lasts (issue 36)
            now = self.host.clock()
            problems = owner.problems.current(now)
            if problems:
                extra.insert(0, h("p", "Live connection problem: " + "; ".join(problems) + ". " + live.HOST_NO_CONNECTION,
                                  cls="error", role="alert", id="live-problem"))
        if owner.role == "host" and table is not None:
            if s is None:
                return h("div", id="live-panel-box", hidden=True)
            table.seating.sync_session()
            levels = list(bot_levels(self.shell.game))
            panel = live.render_host_panel(table, owner.join_url(), owner.qr, self.on, levels)
            return self.folded(panel, *extra)
        if self.second.shows(s):
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
