"""A second tab of a live table (issue 36): it opens no room and only shows the game.

Why apart: one authority per table. A tab that finds the table's lock taken by another tab
of this browser (``LiveBrowser._claim``) must not become a second host; what it does instead
(play and save nothing, follow the other tab's game) is its own state and handler, read by
the page (no table to start here) and its panel (``live.render_elsewhere_panel``).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import live
from browser_audience import channel_message


class SecondTab:
    """Whether this tab only shows a game whose table another tab runs, and its following
    of that tab's game. ``proxy(fn)``: a JavaScript callback of ``fn`` kept for the page's
    life (``LiveBrowser._proxy``)."""

    def __init__(self, runner: Any, proxy: Callable[[Callable[..., Any]], Any]) -> None:
        self.runner = runner
        self.shell = runner.shell
        self.proxy = proxy
        #: the slot whose table another tab of this browser runs (it holds the table's
        #: lock): this tab only shows that game; None otherwise
        self.slot: str | None = None
        self._following = False  # listening to the other tab's game (``_on_tab_state``)

    def shows(self, s: Any) -> bool:
        """Whether the session ``s`` is that game: it is only shown here."""
        return self.slot is not None and s is not None and s.slot_id == self.slot

    def show_only(self, slot_id: str) -> None:
        """Another tab of this browser runs this game's table: this one opens no room, plays
        and saves nothing (:func:`live.show_only`), and follows that tab's game as the
        audience tab does (the host's page sends it on the game's ``BroadcastChannel`` after
        every render, ``AudienceTabs.broadcast``), so it still shows the game as it goes on."""
        self.slot = slot_id
        s = self.shell.session
        if s is not None:
            live.show_only(s)
        channel = self.runner.channel
        if channel is None or self._following:
            return
        self._following = True
        channel.addEventListener("message", self.proxy(self._on_tab_state))
        try:  # the host's tab answers a hello with its game now (``AudienceTabs.on_channel``)
            channel.postMessage(json.dumps({"t": "hello", "slot": slot_id}))
        except Exception:  # noqa: BLE001 - a closed channel: the game stays as it was opened
            pass

    def _on_tab_state(self, ev: Any) -> None:
        """The other tab's game, sent after each of its renders: followed here."""
        msg = channel_message(ev)
        s = self.shell.session
        if (msg is None or msg.get("t") != "state" or msg.get("slot") != self.slot
                or s is None or s.slot_id != self.slot or s.mode == "host"):
            return
        try:
            self.runner.follow(msg.get("save"), msg.get("viewing"))
        except Exception as exc:  # noqa: BLE001 - a bad message must not break this tab
            self.shell.say(f"This tab could not follow the other tab's game: {exc}", "error")
        s = self.shell.session
        if s is not None:
            s.slot_id = self.slot  # a game followed from the start is still this slot's
            if s.mode == "host":
                live.show_only(s)
        self.runner.render()
