"""Save slots over a key-value store (localStorage in the page, a dict in tests).

Why Python and not JavaScript: the rules for not losing games (never overwrite silently,
survive a corrupt entry, say clearly when storage is full) are logic worth testing without
a browser. The page only supplies a :class:`Backend` that wraps ``window.localStorage``.

Layout: ``conquest:slots`` holds the index (a JSON list of slot records), and each slot's
save is under ``conquest:slot:<id>``. The save is written before the index, so a failure
between the two leaves at worst an orphan that :meth:`SlotStore.list` recovers.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from typing import Any, Protocol

from conquest.core import ConquestError
from conquest.savecode import SaveCodeError, parse_save_json, validate_save

__all__ = ["StorageError", "Backend", "MemoryBackend", "Slot", "SlotStore"]

INDEX_KEY = "conquest:slots"
SLOT_PREFIX = "conquest:slot:"
MAX_NAME = 80


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


FULL_MESSAGE = (
    "This browser's storage is full, so the game was not saved here. It is still open in this page: "
    "export it to a file or copy its link, or delete old games to make room."
)


@dataclass(frozen=True)
class Slot:
    """One saved game as the list shows it."""

    id: str
    game: str
    name: str
    mode: str  # "host" (can continue) or "view" (read-only copy)
    created: float  # ms since the epoch, from the page's clock
    updated: float
    steps: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, obj: Any) -> Slot | None:
        try:
            slot = cls(
                id=str(obj["id"]),
                game=str(obj["game"]),
                name=str(obj["name"])[:MAX_NAME],
                mode="view" if obj.get("mode") == "view" else "host",
                created=float(obj["created"]),
                updated=float(obj["updated"]),
                steps=int(obj["steps"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        return slot if re.fullmatch(r"[a-z0-9]{1,24}", slot.id) else None


def clean_name(name: str) -> str:
    """Names are data shown as text; still, trim control characters and length."""
    name = re.sub(r"[\x00-\x1f\x7f]", " ", str(name)).strip()
    return name[:MAX_NAME] or "Untitled game"


class SlotStore:
    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    # -- index ------------------------------------------------------------------------
    def _read_index(self) -> list[Slot]:
        raw = self.backend.get(INDEX_KEY)
        slots: list[Slot] = []
        if raw is not None:
            try:
                items = json.loads(raw)
            except ValueError:
                items = []
            if isinstance(items, list):
                slots = [s for s in map(Slot.from_json, items) if s is not None]
        # recover saves the index lost (corrupt index, or a write cut between save and index)
        known = {s.id for s in slots}
        for key in sorted(self.backend.keys()):
            if key.startswith(SLOT_PREFIX) and key[len(SLOT_PREFIX) :] not in known:
                sid = key[len(SLOT_PREFIX) :]
                if not re.fullmatch(r"[a-z0-9]{1,24}", sid):
                    continue
                try:
                    save = parse_save_json(self.backend.get(key) or "", what="saved game")
                except SaveCodeError:
                    game, steps = "unknown", 0
                else:
                    game, steps = save["game"], len(save["log"])
                slots.append(Slot(sid, game, f"Recovered game {sid}", "host", 0.0, 0.0, steps))
        return slots

    def _write_index(self, slots: list[Slot]) -> None:
        self.backend.set(INDEX_KEY, json.dumps([s.to_json() for s in slots], separators=(",", ":")))

    def _new_id(self, slots: list[Slot], now: float) -> str:
        base = format(int(now), "x")[-10:] or "0"
        taken = {s.id for s in slots} | {
            k[len(SLOT_PREFIX) :] for k in self.backend.keys() if k.startswith(SLOT_PREFIX)
        }
        n = 0
        while f"{base}{n}" in taken:
            n += 1
        return f"{base}{n}"

    # -- reading ----------------------------------------------------------------------
    def list(self, game: str | None = None) -> list[Slot]:
        """Most recently played first."""
        slots = self._read_index()
        if game is not None:
            slots = [s for s in slots if s.game == game]
        return sorted(slots, key=lambda s: (-s.updated, s.id))

    def get(self, slot_id: str) -> Slot:
        for slot in self._read_index():
            if slot.id == slot_id:
                return slot
        raise StorageError("missing", "That saved game is no longer in this browser.")

    def open(self, slot_id: str) -> dict[str, Any]:
        """The save of a slot. A corrupt one raises, and stays listed so the user decides."""
        raw = self.backend.get(SLOT_PREFIX + slot_id)
        if raw is None:
            raise StorageError("missing", "That saved game is no longer in this browser.")
        try:
            return parse_save_json(raw, what="saved game")
        except SaveCodeError as exc:
            raise StorageError("corrupt", f"This saved game is damaged and cannot be opened: {exc.message}") from None

    # -- writing ----------------------------------------------------------------------
    def _write_save(self, slot_id: str, save: dict[str, Any]) -> None:
        self.backend.set(SLOT_PREFIX + slot_id, json.dumps(save, separators=(",", ":"), ensure_ascii=False))

    def create(self, save: dict[str, Any], name: str, now: float, mode: str = "host") -> Slot:
        save = validate_save(save)
        slots = self._read_index()
        slot = Slot(
            id=self._new_id(slots, now),
            game=save["game"],
            name=clean_name(name),
            mode="view" if mode == "view" else "host",
            created=now,
            updated=now,
            steps=len(save["log"]),
        )
        self._write_save(slot.id, save)
        try:
            self._write_index([*slots, slot])
        except StorageError:
            self.backend.remove(SLOT_PREFIX + slot.id)
            raise
        return slot

    def autosave(self, slot_id: str, save: dict[str, Any], now: float) -> Slot:
        """Overwrite a slot with the newer state of the same game (the only overwrite there is)."""
        save = validate_save(save)
        slots = self._read_index()
        for i, slot in enumerate(slots):
            if slot.id == slot_id:
                if slot.game != save["game"]:
                    raise StorageError("mismatch", "Refused to save one game over another.")
                if slot.mode == "view":
                    raise StorageError("read-only", "This is a read-only copy; it is not changed.")
                new = replace(slot, updated=now, steps=len(save["log"]))
                self._write_save(slot_id, save)
                slots[i] = new
                self._write_index(slots)
                return new
        raise StorageError("missing", "That saved game is no longer in this browser.")

    def rename(self, slot_id: str, name: str) -> Slot:
        slots = self._read_index()
        for i, slot in enumerate(slots):
            if slot.id == slot_id:
                slots[i] = replace(slot, name=clean_name(name))
                self._write_index(slots)
                return slots[i]
        raise StorageError("missing", "That saved game is no longer in this browser.")

    def delete(self, slot_id: str) -> None:
        slots = self._read_index()
        self.backend.remove(SLOT_PREFIX + slot_id)
        self._write_index([s for s in slots if s.id != slot_id])

    def find_same(self, save: dict[str, Any], mode: str) -> Slot | None:
        """A slot already holding exactly this save, so opening a link twice adds nothing."""
        for slot in self.list(save["game"]):
            if slot.mode != mode:
                continue
            raw = self.backend.get(SLOT_PREFIX + slot.id)
            try:
                if raw is not None and json.loads(raw) == save:
                    return slot
            except ValueError:
                continue
        return None

    def add_from_link(self, save: dict[str, Any], mode: str, name: str, now: float) -> tuple[Slot, bool]:
        """Store a game opened from a link in a new slot; never replaces another.

        Returns ``(slot, created)``; an identical save already stored is reused.
        """
        save = validate_save(save)
        same = self.find_same(save, mode)
        if same is not None:
            return same, False
        return self.create(save, name, now, mode=mode), True

    # -- files ------------------------------------------------------------------------
    def export(self, slot_id: str) -> tuple[str, str]:
        """``(file name, JSON text)`` for a download."""
        slot = self.get(slot_id)
        save = self.open(slot_id)
        stem = re.sub(r"[^A-Za-z0-9]+", "-", slot.name).strip("-").lower()[:40] or "game"
        return f"conquest-{slot.game}-{stem}.json", json.dumps(save, indent=1, ensure_ascii=False)

    def import_text(self, text: str | bytes, name: str, now: float) -> Slot:
        """A new slot from an exported file; a bad file raises SaveCodeError and adds nothing."""
        save = parse_save_json(text, what="file")
        return self.create(save, name, now)
