"""Files and the clipboard in the page: a saved game imported from a file, downloaded, a
damaged slot's stored text downloaded as it is, a link copied.

Why a part of its own (issue 42): each of these hands text between the page and the device
(``frame.import_from_input``, ``frame.download``, ``frame.copy_text``), with its own words
when the device refuses.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import frame

from conquest.store import StorageError

if TYPE_CHECKING:
    from shell_browser import Runner

__all__ = ["Files"]


class Files:
    """Files and the clipboard of ``runner``'s page (``Runner.files``)."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.shell, self.host, self.game = runner.shell, runner.host, runner.game

    async def on_import(self, ev: Any) -> None:
        slot = await frame.import_from_input(ev.target, failed="could not be opened")
        if slot is None:
            return
        if slot.game != self.game.id:
            self.shell.say(f"“{slot.name}” is a game of another kind; it is in your saved games on the home page.")
            self.runner.render()
            return
        # the address names the slot once its game is open (it opens in slices)
        self.runner.opener.open_slot(slot.id, then=lambda: self.host.go(f"?slot={slot.id}"))
        self.runner.render()

    async def on_copy(self, ev: Any) -> None:
        target = ev.target
        b = None if frame.nullish(target) or not hasattr(target, "closest") else target.closest("[data-copy]")
        if frame.nullish(b):
            return
        ok = await frame.copy_text(str(b.dataset.copy))
        self.shell.say("Link copied." if ok else "Copying failed: select the link text and copy it by hand.")
        self.runner.render()

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
            self.runner.render()
            return
        frame.download(name, text)

    def download(self) -> None:
        s = self.shell.session
        if s is None:
            return
        if self.shell.pending() is not None:
            self.runner.guard(self.shell.refuse_if_pending)
            return
        if s.slot_id is not None:
            try:
                name, text = self.host.store.export(s.slot_id)
                frame.download(name, text)
                return
            except StorageError:
                pass
        frame.download(f"conquest-{self.game.id}.json", json.dumps(s.save(), indent=1, ensure_ascii=False))
