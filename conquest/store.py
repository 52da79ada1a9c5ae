"""Save slots over a key-value store (localStorage in the page, a dict in tests).

Why Python and not JavaScript: the rules for not losing games (never overwrite silently,
survive a corrupt entry, say clearly when storage is full) are logic worth testing without
a browser. The page only supplies a :class:`Backend` that wraps ``window.localStorage``.

Layout: ``conquest:slots`` holds the index (a JSON list of slot records), and each slot's
save is under ``conquest:slot:<id>``. The save is written before the index, so a failure
between the two leaves at worst an orphan that :meth:`SlotStore.list` recovers.

Each save also carries its own slot record (name, dates, mode, revision; see
:mod:`conquest.savecode`), so the index is only a quick list: lost or corrupt, it is rebuilt
whole from the saves, names and dates included (issue 10, item 10), and an exported file
keeps them.

Two tabs on one game (issue 10, item 3): every write of a game raises the slot's revision.
A tab says which revision it last read or wrote; :meth:`SlotStore.autosave` refuses to
write over a newer one (``StorageError('conflict')``), so the tab that is behind can offer
to load the newer game or keep its own line as a new slot. Nothing is overwritten silently.

A damaged slot (its save missing, not JSON, or refused by the decoder) never stops a page:
:meth:`SlotStore.list` with ``check=True`` lists it with the reason in ``Slot.damaged``, and
it can be deleted or exported as it is (:meth:`SlotStore.export_raw`).
"""
from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, Protocol

from conquest.core import ConquestError
from conquest.savecode import (
    SLOT_KEY,
    SaveCodeError,
    check_slot_record,
    load_json,
    parse_save_json,
    validate_save,
)

__all__ = ["StorageError", "Backend", "MemoryBackend", "DisabledBackend", "Slot", "SlotStore", "CONFLICT_MESSAGE"]

INDEX_KEY = "conquest:slots"
SLOT_PREFIX = "conquest:slot:"
MAX_NAME = 80
MAX_RESULT = 120  # a finished game's result in the index ("Ann won"), bounded like a name
_SLOT_ID = re.compile(r"[a-z0-9]{1,24}")
_GAME_ID = re.compile(r"[a-z][a-z0-9_-]{0,39}")
#: lone surrogates (escaped here: a literal one in a module breaks Pyodide's import)
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class StorageError(ConquestError):
    """Storage could not do what was asked; the game itself stays in the page."""


class Backend(Protocol):
    """What the store needs of localStorage. ``set`` raises StorageError('full') when full."""

    def get(self, key: str) -> str | None: ...

    def set(self, key: str, value: str) -> None: ...

    def remove(self, key: str) -> None: ...

    def keys(self) -> Iterable[str]: ...


class MemoryBackend:
    """A dict with an optional quota in characters, like localStorage's (for tests and fallback)."""

    def __init__(self, quota: int | None = None) -> None:
        self.data: dict[str, str] = {}
        self.quota = quota

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        if self.quota is not None:
            used = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
            if used + len(key) + len(value) > self.quota:
                raise StorageError("full", FULL_MESSAGE)
        self.data[key] = value

    def remove(self, key: str) -> None:
        self.data.pop(key, None)

    def keys(self) -> list[str]:
        return list(self.data)


class DisabledBackend:
    """Storage the browser refuses altogether (disabled, e.g. some private windows).

    Why not a dict in memory: a slot kept only in this page would be put in the address as
    ``?slot=<id>``, and a reload would lose the game and every move (issue 20, item 9).
    Refusing every write sends the page down the storage-full path instead: the game stays
    in the address bar after every step, so a reload keeps it.
    """

    def get(self, key: str) -> str | None:
        return None

    def set(self, key: str, value: str) -> None:
        raise StorageError("disabled", DISABLED_MESSAGE)

    def remove(self, key: str) -> None:
        pass

    def keys(self) -> list[str]:
        return []


DISABLED_MESSAGE = (
    "This browser does not let the site keep games (storage is disabled, e.g. in some private windows), "
    "so the game was not saved here."
)

FULL_MESSAGE = (
    "This browser's storage is full, so the game was not saved here. It is still open in this page: "
    "export it to a file or copy its link, or delete old games to make room."
)


#: how a damaged save's refusal starts (the list says the rest: why)
CORRUPT_PREFIX = "This saved game is damaged and cannot be opened: "
CONFLICT_MESSAGE = (
    "This game changed in another tab (or window) since this page opened it, so this page did not "
    "save over it. Open the newer version, or keep this page's line as a new saved game."
)


@dataclass(frozen=True)
class Slot:
    """One saved game as the list shows it."""

    id: str
    game: str
    name: str
    mode: str  # "host" (can continue) or "view" (read-only copy)
    created: float  # ms since the epoch, from the page's clock; 0 = unknown
    updated: float
    steps: int
    #: how many times the game was written (0: a slot from before revisions were kept)
    rev: int = 0
    #: why the slot cannot be opened ("" when it is fine); only from ``list(check=True)``
    damaged: str = ""
    #: a finished game's result in words ("Ann won"), "" while it goes on: the lists offer a
    #: finished game as such, not as one to resume (issue 21, item 3)
    result: str = ""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        del out["damaged"]  # found by checking, never stored
        return out

    def record(self) -> dict[str, Any]:
        """The slot record kept inside the save itself."""
        return {"name": self.name, "created": self.created, "updated": self.updated, "mode": self.mode,
                "rev": self.rev}

    @classmethod
    def from_json(cls, obj: Any) -> Slot | None:
        """An index entry, or None if it is not one; text is cleaned so it can always be shown."""
        try:
            slot = cls(
                id=str(obj["id"]),
                game=str(obj["game"]),
                name=clean_name(obj["name"]),
                mode="view" if obj.get("mode") == "view" else "host",
                created=float(obj["created"]),
                updated=float(obj["updated"]),
                steps=int(obj["steps"]),
                rev=int(obj.get("rev", 0)),
                result=clean_name(obj["result"])[:MAX_RESULT] if obj.get("result") else "",
            )
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
            return None
        ok = (
            _SLOT_ID.fullmatch(slot.id)
            and _GAME_ID.fullmatch(slot.game)
            and all(0 <= x < 1e15 for x in (slot.created, slot.updated))
            and 0 <= slot.steps < 10**9
            and 0 <= slot.rev < 2**53
        )
        return slot if ok else None


def last_played(slots: Sequence[Slot], playable: Collection[str]) -> Slot | None:
    """The game to offer first on the landing page ("Continue: World Conquest, step 212",
    issue 21, item 11): the most recently played game of this browser that can go on (not
    finished, not a read-only copy, not damaged) of a game the site can play."""
    fit = [s for s in slots if s.game in playable and s.mode == "host" and not s.result and not s.damaged]
    return max(fit, key=lambda s: (s.updated, s.id), default=None)


def link_name(name: str, now: float) -> str:
    """The name of a game stored from a link: its own name and when it was opened, so two
    copies of one game (a host link opened twice) differ by more than their step counts
    (issue 9 item 14). ``now``: milliseconds since the epoch; the browser's local time."""
    import time

    if now <= 0:
        return name
    return f"{name}, opened {time.strftime('%Y-%m-%d %H:%M', time.localtime(now / 1000))}"


def clean_name(name: Any) -> str:
    """Names are data shown as text; still, drop what cannot be shown (control characters,
    lone surrogates: one of those once stopped a page from starting) and trim the length."""
    name = _SURROGATE.sub("\ufffd", str(name))
    name = re.sub(r"[\x00-\x1f\x7f-\x9f]", " ", name).strip()
    return name[:MAX_NAME] or "Untitled game"


def split_record(save: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """``(the game's save, its slot record or None)`` of a checked save."""
    game = {k: v for k, v in save.items() if k != SLOT_KEY}
    return game, save.get(SLOT_KEY)


class SlotStore:
    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    # -- index ------------------------------------------------------------------------
    def _read_index(self) -> list[Slot]:
        raw = self.backend.get(INDEX_KEY)
        slots: list[Slot] = []
        if raw is not None:
            try:
                items = load_json(raw, "saved-games index")
            except ValueError:
                items = []
            if isinstance(items, list):
                seen: set[str] = set()
                for slot in map(Slot.from_json, items):
                    if slot is not None and slot.id not in seen:
                        seen.add(slot.id)
                        slots.append(slot)
        # recover saves the index lost (corrupt index, or a write cut between save and index):
        # whole, from the slot record each save carries
        known = {s.id for s in slots}
        for key in sorted(self.backend.keys()):
            if key.startswith(SLOT_PREFIX) and key[len(SLOT_PREFIX) :] not in known:
                sid = key[len(SLOT_PREFIX) :]
                if not _SLOT_ID.fullmatch(sid):
                    continue
                slots.append(self._recover(sid))
        return slots

    def _recover(self, sid: str) -> Slot:
        try:
            save, rec = split_record(parse_save_json(self.backend.get(SLOT_PREFIX + sid) or "", what="saved game"))
        except SaveCodeError:
            return Slot(sid, "unknown", f"Damaged game {sid}", "host", 0.0, 0.0, 0)
        if rec is None:  # saved before slots carried their record
            return Slot(sid, save["game"], f"Recovered game {sid}", "host", 0.0, 0.0, len(save["log"]))
        return Slot(sid, save["game"], clean_name(rec["name"]), rec["mode"], rec["created"], rec["updated"],
                    len(save["log"]), rec["rev"])

    def _write_index(self, slots: list[Slot]) -> None:
        self.backend.set(INDEX_KEY, json.dumps([s.to_json() for s in slots], separators=(",", ":")))

    def _new_id(self, slots: list[Slot], now: float) -> str:
        base = format(max(0, int(now)), "x")[-10:] or "0"
        taken = {s.id for s in slots} | {
            k[len(SLOT_PREFIX) :] for k in self.backend.keys() if k.startswith(SLOT_PREFIX)
        }
        n = 0
        while f"{base}{n}" in taken:
            n += 1
        return f"{base}{n}"

    # -- reading ----------------------------------------------------------------------
    def list(self, game: str | None = None, check: bool = False) -> list[Slot]:
        """Most recently played first. ``check`` reads every save too and marks the damaged
        ones (``Slot.damaged`` says why): for listing once when a page starts, not per click."""
        slots = self._read_index()
        if game is not None:
            slots = [s for s in slots if s.game == game]
        if check:
            slots = [replace(s, damaged=self.check(s.id)) for s in slots]
        return sorted(slots, key=lambda s: (-s.updated, s.id))

    def check(self, slot_id: str) -> str:
        """Why this slot's save cannot be opened, or "" when it reads as a save."""
        try:
            self.read(slot_id)
        except StorageError as exc:
            return exc.message.removeprefix(CORRUPT_PREFIX)
        return ""

    def has_data(self, slot_id: str) -> bool:
        """Whether anything of the slot's save is stored (a damaged one can be exported)."""
        return self.backend.get(SLOT_PREFIX + slot_id) is not None

    def get(self, slot_id: str) -> Slot:
        for slot in self._read_index():
            if slot.id == slot_id:
                return slot
        raise StorageError("missing", "That saved game is no longer in this browser.")

    def read(self, slot_id: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """``(save, slot record or None)``; a missing or corrupt save raises StorageError."""
        raw = self.backend.get(SLOT_PREFIX + slot_id)
        if raw is None:
            raise StorageError(
                "missing", "Its saved data is missing from this browser's storage (only its name is left)."
            )
        try:
            return split_record(parse_save_json(raw, what="saved game"))
        except SaveCodeError as exc:
            raise StorageError("corrupt", CORRUPT_PREFIX + exc.message) from None
        except Exception as exc:  # noqa: BLE001 - whatever is stored, the page must go on
            raise StorageError(
                "corrupt", f"This saved game is damaged and cannot be opened ({type(exc).__name__})."
            ) from None

    def open(self, slot_id: str) -> dict[str, Any]:
        """The save of a slot. A corrupt one raises, and stays listed so the user decides."""
        return self.read(slot_id)[0]

    # -- writing ----------------------------------------------------------------------
    def _write_save(self, slot: Slot, save: dict[str, Any]) -> None:
        game, _ = split_record(save)
        value = {**game, SLOT_KEY: slot.record()}
        self.backend.set(SLOT_PREFIX + slot.id, json.dumps(value, separators=(",", ":"), ensure_ascii=False))

    def create(
        self, save: dict[str, Any], name: str, now: float, mode: str = "host", created: float | None = None
    ) -> Slot:
        """A new slot (``created``: the date a file kept, else now)."""
        save, _ = split_record(validate_save(save))
        slots = self._read_index()
        slot = Slot(
            id=self._new_id(slots, now),
            game=save["game"],
            name=clean_name(name),
            mode="view" if mode == "view" else "host",
            created=created if created else now,
            updated=now,
            steps=len(save["log"]),
            rev=1,
        )
        self._write_save(slot, save)
        try:
            self._write_index([*slots, slot])
        except StorageError:
            self.backend.remove(SLOT_PREFIX + slot.id)
            raise
        return slot

    def autosave(self, slot_id: str, save: dict[str, Any], now: float, rev: int | None = None,
                 result: str = "") -> Slot:
        """Overwrite a slot with the newer state of the same game (the only overwrite there is).

        ``rev`` is the revision the page last read or wrote; when the slot holds another one
        (another tab wrote it meanwhile), the write is refused with ``StorageError('conflict')``
        unless the stored game is exactly this one. ``None`` skips the check.
        """
        save, _ = split_record(validate_save(save))
        slots = self._read_index()
        for i, slot in enumerate(slots):
            if slot.id == slot_id:
                if slot.game != save["game"]:
                    raise StorageError("mismatch", "Refused to save one game over another.")
                if slot.mode == "view":
                    raise StorageError("read-only", "This is a read-only copy; it is not changed.")
                rec = self._peek_record(slot_id)
                stored_rev = rec["rev"] if rec is not None else slot.rev
                if rec is not None:  # a rename elsewhere is kept; the record in the save wins
                    slot = replace(slot, name=clean_name(rec["name"]), created=rec["created"])
                if rev is not None and stored_rev != rev:
                    try:
                        stored = self.read(slot_id)[0]
                    except StorageError:
                        stored = None
                    if stored == save:
                        return replace(slot, rev=stored_rev)
                    raise StorageError("conflict", CONFLICT_MESSAGE)
                new = replace(slot, updated=now, steps=len(save["log"]), rev=stored_rev + 1,
                              result=clean_name(result)[:MAX_RESULT] if result else "")
                self._write_save(new, save)
                slots[i] = new
                self._write_index(slots)
                return new
        raise StorageError("missing", "That saved game is no longer in this browser.")

    def _peek_record(self, slot_id: str) -> dict[str, Any] | None:
        """The slot record of a stored save, read without checking the whole game (every
        autosave reads it: the revision must be current, the log need not be re-checked)."""
        raw = self.backend.get(SLOT_PREFIX + slot_id)
        if raw is None:
            return None
        try:
            obj = load_json(raw, "saved game")
            if isinstance(obj, dict) and SLOT_KEY in obj:
                return check_slot_record(obj[SLOT_KEY], "saved game")
        except (ValueError, RecursionError, SaveCodeError):
            pass
        return None

    def rename(self, slot_id: str, name: str) -> Slot:
        """A new name, in the index and in the save's own record (its revision stays: the game
        itself did not change, so a tab playing it goes on saving)."""
        slots = self._read_index()
        for i, slot in enumerate(slots):
            if slot.id == slot_id:
                slots[i] = new = replace(slot, name=clean_name(name))
                try:
                    save, rec = self.read(slot_id)
                except StorageError:
                    pass  # a damaged save keeps its bytes; only the list shows the new name
                else:
                    if rec is not None:
                        new = replace(new, rev=rec["rev"], created=rec["created"], updated=rec["updated"])
                        slots[i] = new
                    self._write_save(new, save)
                self._write_index(slots)
                return new
        raise StorageError("missing", "That saved game is no longer in this browser.")

    def delete(self, slot_id: str) -> None:
        slots = self._read_index()
        self.backend.remove(SLOT_PREFIX + slot_id)
        self._write_index([s for s in slots if s.id != slot_id])

    def find_same(self, save: dict[str, Any], mode: str) -> Slot | None:
        """A slot already holding exactly this save, so opening a link twice adds nothing."""
        game, _ = split_record(save)
        for slot in self.list(save["game"]):
            if slot.mode != mode or slot.steps != len(game["log"]):
                continue  # (read and checked only when it may be the same: a long save is dear)
            try:
                if self.read(slot.id)[0] == game:
                    return slot
            except StorageError:
                continue
        return None

    def add_from_link(self, save: dict[str, Any], mode: str, name: str, now: float) -> tuple[Slot, bool]:
        """Store a game opened from a link in a new slot; never replaces another.

        Returns ``(slot, created)``; an identical save already stored is reused.
        """
        save, _ = split_record(validate_save(save))
        same = self.find_same(save, mode)
        if same is not None:
            return same, False
        return self.create(save, name, now, mode=mode), True

    # -- files ------------------------------------------------------------------------
    def export(self, slot_id: str) -> tuple[str, str]:
        """``(file name, JSON text)`` for a download: the save with its slot record (name,
        dates), so a file imported elsewhere keeps them."""
        slot = self.get(slot_id)
        save, rec = self.read(slot_id)
        stem = re.sub(r"[^A-Za-z0-9]+", "-", slot.name).strip("-").lower()[:40] or "game"
        record = {**slot.record(), **({"rev": rec["rev"]} if rec else {})}
        text = json.dumps({**save, SLOT_KEY: record}, indent=1, ensure_ascii=False)
        return f"conquest-{slot.game}-{stem}.json", text

    def export_raw(self, slot_id: str) -> tuple[str, str]:
        """A damaged slot's stored text exactly as it is (only what cannot be encoded at all,
        lone surrogates, becomes U+FFFD), so nothing is thrown away unseen."""
        raw = self.backend.get(SLOT_PREFIX + slot_id)
        if raw is None:
            raise StorageError("missing", "Nothing of this saved game is left in this browser's storage to export.")
        return f"conquest-damaged-{slot_id}.json", _SURROGATE.sub("\ufffd", raw)

    def import_save(self, save: dict[str, Any], name: str, now: float) -> Slot:
        """A new slot from a checked save of a file; a file exported with its slot record keeps
        its name and creation date (``name`` is used for files without one)."""
        save, rec = split_record(save)
        if rec is not None and clean_name(rec["name"]) != "Untitled game":
            name = rec["name"]
        return self.create(save, name, now, created=rec["created"] if rec else None)

    def import_text(self, text: str | bytes, name: str, now: float) -> Slot:
        """A new slot from an exported file; a bad file raises SaveCodeError and adds nothing."""
        return self.import_save(parse_save_json(text, what="file"), name, now)
