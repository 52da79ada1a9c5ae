"""The page's own events: the set-up form's Start and its seats' ↑ ↓, a pick from a page's
board, keys wherever the focus is, and another tab's change to storage.

Why a part of its own (issue 42): each turns a DOM event into one of the shell's handlers
(``Shell.start``, ``Shell.pick``, ``Shell.key``, ``SavedGames.slot_changed``) and renders.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import frame
import js  # type: ignore[import-not-found]
from browser_host import read_form
from ui import Event

from conquest.store import SLOT_PREFIX

if TYPE_CHECKING:
    from shell_browser import Runner

__all__ = ["PageEvents"]

document = js.document


class PageEvents:
    """The set-up form's, the board's, the keyboard's and storage's events of ``runner``'s
    page (``Runner.events``)."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.shell, self.host = runner.shell, runner.host

    def on_start(self, ev: Any) -> None:
        ev.preventDefault()
        fields = read_form(document.getElementById("shell-setup-form"))
        self.runner.guard(self.shell.start, fields)
        self.runner.render()
        if self.shell.session is not None:
            js.window.scrollTo(0, 0)
        elif self.shell.field_errors:  # the person is taken to the first field to fix
            self.host.focus(next(iter(self.shell.field_errors)))

    def on_pick(self, ev: Any) -> None:
        detail = ev.detail
        if frame.nullish(detail):
            return
        self.runner.guard(self.shell.pick, int(str(detail)))  # refused behind a pass screen
        self.runner.render()

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
        if self.runner.guard(self.shell.key, event):  # no shortcut works behind a pass screen
            ev.preventDefault()
            self.runner.render()

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
        if key.startswith(SLOT_PREFIX) and not self.runner.tabs.audience:
            self.shell.saved.slot_changed(key[len(SLOT_PREFIX) :])
        self.runner.render()
