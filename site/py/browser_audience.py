"""The audience tab (``?audience=``): map and wheel large, no controls, kept in step by the
host's tab over the game's ``BroadcastChannel``; the host's side sends its game there.

Why a part of its own (issue 42): the channel, the audience's slot and what was last sent
are this part's state, and following the host's log (extend, cut back, replay) its work.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import frame
import js  # type: ignore[import-not-found]
from shell import check_save

from conquest.savecode import load_json

if TYPE_CHECKING:
    from shell_browser import Runner

__all__ = ["AudienceTabs", "channel_message"]

document = js.document


def channel_message(ev: Any) -> dict[str, Any] | None:
    """Another tab's message on the tabs' channel, read as bounded data; None when it is not
    a JSON object (a tab's text is data, never trusted: the host's and the live panel's)."""
    try:
        msg = load_json(str(ev.data), "message")
    except (TypeError, ValueError):
        return None
    return msg if isinstance(msg, dict) else None


class AudienceTabs:
    """The tabs of ``runner``'s game (``Runner.tabs``): this page as an audience tab, or the
    host's page sending its game to one."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.shell, self.host, self.page, self.game = runner.shell, runner.host, runner.page, runner.game
        self.channel: Any = None
        #: this page is an audience tab, of this slot (None: whichever game the host shows)
        self.audience = False
        self.audience_slot: str | None = None
        self._broadcast_key: Any = None  # which save (and viewed step) the audience tab last got

    def listen(self) -> None:
        """The host's side: the game's channel, where an audience tab says hello."""
        try:
            self.channel = js.BroadcastChannel.new(f"conquest:{self.game.id}")
            frame.on(self.channel, "message", self.on_channel)
        except Exception:
            self.channel = None

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
            self.runner.render()

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
            self.runner.opener.open_slot(self.audience_slot, then=self.as_audience)

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
        key = (id(s), s.slot_id, *self.shell.links.save_key(), s.viewing)
        if key == self._broadcast_key and not again:
            return
        self._broadcast_key = key
        msg = {"t": "state", "slot": s.slot_id, "save": s.save(), "viewing": s.viewing}
        try:
            self.channel.postMessage(json.dumps(msg))
        except Exception:  # a closed channel must never break the page
            pass

    def on_channel(self, ev: Any) -> None:
        msg = channel_message(ev)
        if msg is None:
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
            if getattr(exc, "code", "") == "loading" and frame.when_lazy_settled(lambda: self.on_channel(ev)):
                self.shell.say(str(exc))  # a data file the game needs is on its way: followed once it is in
            else:
                self.shell.say(f"The audience view could not follow the host: {exc}", "error")
        self.runner.render()

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
