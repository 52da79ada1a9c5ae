"""Saved games: this game's slots in this browser, the autosave after every step, a game
storage refused, a damaged slot, and two tabs on one game (issue 10, item 3).

Why a part of its own (issue 42): saving has its own state (the damaged slots), its own
controls (the saved games' list, Delete, the two-tabs choice) and its own answers to the
store's refusals.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from session import check_save, plural
from ui import Node, h, isolate

from conquest.savecode import SaveCodeError
from conquest.store import CONFLICT_MESSAGE, Slot, StorageError

if TYPE_CHECKING:
    from shell import Shell

__all__ = ["SavedGames", "shown_names"]


class SavedGames:
    """The saved games of ``shell``'s game (``Shell.saved``), and the slot of the one open."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        #: slots of this game that cannot be opened, and why (checked when the page starts and
        #: whenever one fails to open): listed plainly with Delete and Export as stored
        self.damaged: dict[str, str] = {}

    def autosave(self) -> None:
        """Store the game open after a step (its slot, or a new one for a game storage refused);
        another tab's newer line is never written over (``Session.conflict``)."""
        s = self.shell.session
        if s is not None and s.slot_id is None and s.unsaved and s.mode == "host":
            self._store_unsaved()
            return
        if s is None or s.slot_id is None or s.mode != "host":
            return
        try:
            slot = self.shell.host.store.autosave(s.slot_id, s.save(), self.shell.host.now(), rev=s.rev,
                                                  result=self.shell.result.words())
        except StorageError as exc:
            if exc.code == "conflict":
                s.conflict = True  # render_message shows the choice; nothing is written
                return
            self.shell.say(f"{exc} Copy the host link or download the game to keep it.", "error")
            return
        s.rev, s.conflict = slot.rev, False

    def _store_unsaved(self) -> None:
        """A game storage refused (issue 10, item 9): try again to store it in a new slot; while
        that fails, the game goes into the address bar (a reload keeps it) and the warning
        stands, saying exactly what to do."""
        s = self.shell.session
        assert s is not None
        save = s.save()
        try:
            slot = self.shell.host.store.create(save, self.shell.slot_name(save, "host"), self.shell.host.now())
        except StorageError as exc:
            # written in the step's own task, before the step is drawn: a reload at once must
            # find it (issue 42: a long game's code followed in slices, and a reload before
            # they ended lost the step, in all three engines; writing it as the page is left
            # would race the reload, which may have read the address already). Cheap after
            # a step (``LinksPanel.code_now``: from the last code's mark, ``SaveEncoder``).
            self.shell.host.go("#h=" + self.shell.links.code_now(save))
            self.shell.say(
                f"{exc} Meanwhile this game is kept in the address bar after every step: a reload keeps it, "
                "and you can bookmark or copy the address.",
                "error",
            )
            return
        s.slot_id, s.rev, s.unsaved = slot.id, slot.rev, False
        self.shell.host.go(f"?slot={slot.id}")
        self.shell.say(f"Saved in this browser now, as “{slot.name}”.")

    def slot_changed(self, slot_id: str) -> None:
        """Another tab wrote a slot (the browser's ``storage`` event): if it is this page's
        game and now holds a newer revision of another line, say so and offer the choice."""
        s = self.shell.session
        if s is None or s.slot_id != slot_id or s.mode != "host":
            return
        try:
            save, rec = self.shell.host.store.read(slot_id)
        except StorageError as exc:
            if exc.code == "missing" and not any(sl.id == slot_id for sl in self.shell.host.store.list(self.shell.game.id)):
                s.slot_id = None  # deleted elsewhere: this page keeps the game, unsaved
                self.shell.say("This game was deleted in another tab. It is still open here: keep it as a new "
                               "saved game with “Continue from here”, or download it.", "error")
            return
        rev = rec["rev"] if rec is not None else s.rev
        if rev == s.rev:
            return
        if save == s.save():
            s.rev = rev  # the same game (e.g. saved by this page's twin): nothing to choose
            return
        s.conflict = True

    def open_newer(self) -> None:
        """The person chose the version another tab saved: open it (this page's line goes)."""
        s = self.shell.session
        if s is None or s.slot_id is None:
            return
        try:
            slot = self.shell.host.store.get(s.slot_id)
            match = check_save(self.shell.host.store.open(s.slot_id))
        except (SaveCodeError, StorageError) as exc:
            self.shell.say(f"{exc.message} This page's game is unchanged.", "error")
            return
        self.shell.open(match, slot, slot.mode)
        self.shell.say(f"Opened the newer version of “{slot.name}” ({plural(len(match.log), 'step')}).")

    def keep_as_new(self) -> Slot | None:
        """The person keeps this page's line: a new slot; the other tab's game stays as it is."""
        s = self.shell.session
        if s is None:
            return None
        save = s.save()
        try:
            old = self.shell.host.store.get(s.slot_id).name if s.slot_id else self.shell.slot_name(save, "host")
        except StorageError:
            old = self.shell.slot_name(save, "host")
        name = f"{old} (this tab's line)"
        try:
            slot = self.shell.host.store.create(save, name, self.shell.host.now())
        except StorageError as exc:
            self.shell.say(str(exc), "error")
            return None
        s.slot_id, s.rev, s.conflict = slot.id, slot.rev, False
        self.shell.host.go(f"?slot={slot.id}")
        self.shell.say(f"Kept this page's game as a new saved game, “{slot.name}”; the other tab's game is unchanged.")
        return slot

    def render_conflict(self) -> Node:
        """The toast's choice while another tab has saved this game (``Session.conflict``)."""
        return h(
            "div",
            h("span", CONFLICT_MESSAGE, cls="shell-toast-text", id="shell-conflict-text"),
            h("span",
              h("button", "Open the newer version", type="button", id="shell-conflict-reload", cls="small",
                on_click=lambda ev: self.open_newer()),
              h("button", "Keep mine as a new saved game", type="button", id="shell-conflict-keep",
                cls="small secondary", on_click=lambda ev: self.keep_as_new()),
              cls="shell-conflict-actions"),
            id="shell-toast-inner",
            cls="shell-toast-box error shell-conflict",
            role="alert",
        )

    def render(self, slots: Sequence[Slot], current: str | None = None) -> Node:
        """This game's saved games in this browser, newest first: resume any of them."""
        mine = [sl for sl in slots if sl.game == self.shell.game.id]
        if not mine:
            return h("div", id="shell-saved-inner", hidden=True)
        items = []
        names = shown_names(mine)
        for sl in sorted(mine, key=lambda x: -x.updated):
            why = sl.damaged or self.damaged.get(sl.id, "")
            if why:
                items.append(self._damaged_item(sl, why))
                continue
            note = f" · {plural(sl.steps, 'step')}" + (" · read-only view" if sl.mode == "view" else "")
            verb = "Open" if sl.result or sl.mode == "view" else "Resume"
            items.append(
                h(
                    "li",
                    h("a", f"{verb} “{isolate(names[sl.id])}”", href=f"?slot={sl.id}", cls="button secondary"),
                    h("span", f" · Finished: {isolate(sl.result)}", cls="shell-slot-result") if sl.result else None,
                    h("span", note, cls="muted"),
                    h("span", "", cls="shell-when", data_when=str(sl.updated)),
                    cls="is-current" if sl.id == current else None,
                )
            )
        return h(
            "div",
            h("h2", f"Your games of {self.shell.game.title}"),
            h("p", "Saved in this browser after every step.", cls="muted"),
            h("ul", *items, id="shell-saved-list"),
            id="shell-saved-inner",
        )

    def _damaged_item(self, sl: Slot, why: str) -> Node:
        """A slot that cannot be opened: said plainly, with what can still be done."""
        return h(
            "li",
            h("span", f"“{isolate(sl.name)}” is damaged and cannot be opened.", cls="shell-damaged-name"),
            h("span", f" {why}", cls="muted"),
            h("button", "Export as stored", type="button", cls="small secondary", data_export_raw=sl.id,
              aria_label=f"Export the damaged game “{sl.name}” as stored")
            if self.shell.host.store.has_data(sl.id) else None,
            h("button", "Delete", type="button", cls="small secondary",
              aria_label=f"Delete the damaged game “{sl.name}”", on_click=lambda ev, sid=sl.id: self.delete_damaged(sid)),
            cls="is-damaged",
            data_slot=sl.id,
        )

    def delete_damaged(self, slot_id: str) -> None:
        """A damaged slot's Delete, once the person confirms it."""
        try:
            name = self.shell.host.store.get(slot_id).name
        except StorageError:
            name = "this game"
        if not self.shell.host.confirm(f"Delete the damaged game “{name}” from this browser? This cannot be undone."):
            return
        self.shell.host.store.delete(slot_id)
        self.damaged.pop(slot_id, None)
        self.shell.say(f"Deleted the damaged game “{name}”.")

    def check_slots(self) -> None:
        """Note which of this game's slots cannot be opened (once, when the page starts)."""
        try:
            slots = self.shell.host.store.list(self.shell.game.id, check=True)
        except StorageError:
            return
        self.damaged = {sl.id: sl.damaged for sl in slots if sl.damaged}


def shown_names(slots: Sequence[Slot]) -> dict[str, str]:
    """Each slot's name as listed: two games of one name are told apart by a number in the
    order they were started ("Duel: Ann vs Cat for Pullman (2)"), item 3."""
    by_name: dict[str, list[Slot]] = {}
    for sl in slots:
        by_name.setdefault(sl.name, []).append(sl)
    out = {}
    for name, group in by_name.items():
        group.sort(key=lambda x: (x.created, x.id))
        for i, sl in enumerate(group):
            out[sl.id] = name if len(group) == 1 else f"{name} ({i + 1})"
    return out
