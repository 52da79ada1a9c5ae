"""Save slots: never lose a game, never overwrite one silently, say clearly when full."""
from __future__ import annotations

import json

import pytest

from conquest.savecode import SaveCodeError
from conquest.store import INDEX_KEY, SLOT_PREFIX, MemoryBackend, SlotStore, StorageError


def save(game: str = "g", n: int = 3, title: str | None = None) -> dict:
    options: dict = {"seed": 1}
    if title is not None:
        options["title"] = title
    return {"v": 1, "game": game, "options": options, "log": [f"a{i}" for i in range(n)]}


def test_create_list_open_rename_delete() -> None:
    store = SlotStore(MemoryBackend())
    a = store.create(save(n=1), "First", now=1000)
    b = store.create(save(n=2), "Second", now=2000)
    assert [s.id for s in store.list()] == [b.id, a.id]  # most recent first
    assert store.open(a.id) == save(n=1)
    store.rename(a.id, "  Renamed\x00game  ")
    assert store.get(a.id).name == "Renamed game"
    store.delete(b.id)
    assert [s.id for s in store.list()] == [a.id]
    with pytest.raises(StorageError):
        store.open(b.id)


def test_autosave_updates_only_its_own_game() -> None:
    store = SlotStore(MemoryBackend())
    a = store.create(save("g", 1), "A", now=1)
    updated = store.autosave(a.id, save("g", 5), now=9)
    assert updated.steps == 5 and updated.updated == 9
    with pytest.raises(StorageError) as info:
        store.autosave(a.id, save("other", 1), now=10)
    assert info.value.code == "mismatch"
    assert store.open(a.id) == save("g", 5)


def test_view_slots_are_read_only() -> None:
    store = SlotStore(MemoryBackend())
    slot, created = store.add_from_link(save(), "view", "Shared", now=1)
    assert created and slot.mode == "view"
    with pytest.raises(StorageError) as info:
        store.autosave(slot.id, save(n=9), now=2)
    assert info.value.code == "read-only"


def test_link_never_overwrites_and_is_not_duplicated() -> None:
    store = SlotStore(MemoryBackend())
    mine = store.create(save(n=4), "Mine", now=1)
    slot, created = store.add_from_link(save(n=2), "host", "From link", now=2)
    assert created and slot.id != mine.id
    assert store.open(mine.id) == save(n=4)
    again, created_again = store.add_from_link(save(n=2), "host", "From link", now=3)
    assert not created_again and again.id == slot.id
    assert len(store.list()) == 2


def test_full_storage_loses_nothing() -> None:
    backend = MemoryBackend(quota=600)
    store = SlotStore(backend)
    a = store.create(save(n=2), "Kept", now=1)
    before = dict(backend.data)
    with pytest.raises(StorageError) as info:
        store.create(save(n=200), "Too big", now=2)
    assert info.value.code == "full" and "still open in this page" in info.value.message
    assert backend.data == before
    assert store.open(a.id) == save(n=2)


def test_corrupt_index_is_recovered_from_slots() -> None:
    backend = MemoryBackend()
    store = SlotStore(backend)
    a = store.create(save(n=2), "A", now=1)
    backend.data[INDEX_KEY] = "{not json"
    slots = store.list()
    assert [s.id for s in slots] == [a.id]
    assert store.open(a.id) == save(n=2)


def test_corrupt_slot_stays_listed_and_says_why() -> None:
    backend = MemoryBackend()
    store = SlotStore(backend)
    a = store.create(save(), "A", now=1)
    backend.data[SLOT_PREFIX + a.id] = '{"v": 1, "game": 5}'
    with pytest.raises(StorageError) as info:
        store.open(a.id)
    assert info.value.code == "corrupt"
    assert [s.id for s in store.list()] == [a.id]
    store.delete(a.id)
    assert store.list() == []


def test_orphan_slot_is_recovered() -> None:
    backend = MemoryBackend()
    store = SlotStore(backend)
    backend.data[SLOT_PREFIX + "abc1"] = json.dumps(save(n=7))
    (slot,) = store.list()
    assert slot.id == "abc1" and slot.steps == 7 and slot.name.startswith("Recovered")


def test_export_and_import() -> None:
    store = SlotStore(MemoryBackend())
    a = store.create(save(n=3), "My <b>game</b>", now=1)
    filename, text = store.export(a.id)
    assert filename == "conquest-g-my-b-game-b.json"
    b = store.import_text(text, "Imported", now=2)
    assert store.open(b.id) == save(n=3)
    with pytest.raises(SaveCodeError):
        store.import_text("{broken", "x", now=3)
    with pytest.raises(SaveCodeError):
        store.import_text(b"\xff\xfe", "x", now=3)
    assert len(store.list()) == 2


def test_ids_are_unique_at_the_same_time() -> None:
    store = SlotStore(MemoryBackend())
    ids = {store.create(save(), "x", now=5).id for _ in range(20)}
    assert len(ids) == 20
