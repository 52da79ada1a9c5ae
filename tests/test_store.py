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


# -- issue 10: the slot record inside the save (item 10) ------------------------------------
def test_index_is_rebuilt_whole_from_the_saves() -> None:
    """Before: a corrupt index gave "Recovered game <id>", dates unknown, and the next write
    made that permanent. Now each save carries its record."""
    backend = MemoryBackend()
    store = SlotStore(backend)
    a = store.create(save(n=2), "Ann's campaign", now=1000)
    v, _ = store.add_from_link(save(n=3, title="Shared"), "view", "Shared (view)", now=2000)
    store.rename(a.id, "Ann and Bob")
    store.autosave(a.id, save(n=4), now=3000, rev=1)
    before = {s.id: s for s in store.list()}
    for broken in ("{not json", "[1, 2, {\"id\": 5}]", "null"):
        backend.data[INDEX_KEY] = broken
        after = {s.id: s for s in store.list()}
        assert after == before
    # the next write keeps them (it writes the rebuilt index)
    store.autosave(a.id, save(n=5), now=4000, rev=2)
    got = store.get(a.id)
    assert (got.name, got.created, got.updated, got.steps, got.rev) == ("Ann and Bob", 1000, 4000, 5, 3)
    assert store.get(v.id).mode == "view" and store.get(v.id).name == "Shared (view)"


def test_export_carries_name_and_dates_and_import_keeps_them() -> None:
    store = SlotStore(MemoryBackend())
    a = store.create(save(n=3), "Tuesday game", now=5000)
    store.autosave(a.id, save(n=4), now=6000, rev=a.rev)
    _, text = store.export(a.id)
    record = json.loads(text)["slot"]
    assert record == {"name": "Tuesday game", "created": 5000, "updated": 6000, "mode": "host", "rev": 2}
    other = SlotStore(MemoryBackend())
    b = other.import_text(text, "fallback name", now=9000)
    assert (b.name, b.created, b.updated) == ("Tuesday game", 5000, 9000)
    assert other.open(b.id) == save(n=4)  # the game itself, without the record
    # a plain save file (no record) takes the given name
    c = other.import_text(json.dumps(save(n=1)), "From a file", now=9500)
    assert (c.name, c.created) == ("From a file", 9500)


def test_links_never_carry_the_slot_record() -> None:
    from conquest.savecode import decode_save, encode_save

    with_record = {**save(n=2), "slot": {"name": "x", "created": 1, "updated": 2, "mode": "host", "rev": 3}}
    assert decode_save(encode_save(with_record)) == save(n=2)


@pytest.mark.parametrize(
    "record",
    [
        [],
        {"name": "x", "extra": 1},
        {"name": "a\x1b[2Kb"},
        {"name": "\ud800"},
        {"name": 5},
        {"created": -1},
        {"updated": float("nan")},
        {"created": True},
        {"mode": "admin"},
        {"rev": -1},
        {"rev": 2**60},
        {"rev": 1.5},
    ],
)
def test_a_bad_slot_record_is_refused_with_a_message(record) -> None:
    with pytest.raises(SaveCodeError) as info:
        SlotStore(MemoryBackend()).import_text(json.dumps({**save(), "slot": record}), "x", now=1)
    assert "slot" in info.value.message


# -- issue 10: two tabs on one game (item 3) -------------------------------------------------
def test_two_tabs_alternating_never_lose_a_move_silently() -> None:
    """The issue's case: tabs A and B open one game and play A, A, B, A, B. Before, the slot
    ended with 3 of 5 moves lost and no message; now every write over a newer revision is
    refused, and the refused tab still holds its own line to keep as a new slot."""
    store = SlotStore(MemoryBackend())
    slot = store.create(save(n=0), "Shared game", now=1)
    tabs = {"A": {"log": [], "rev": slot.rev}, "B": {"log": [], "rev": slot.rev}}
    refused = []
    for i, who in enumerate("AABAB"):
        tab = tabs[who]
        tab["log"].append(f"{who}{i}")
        game = {"v": 1, "game": "g", "options": {"seed": 1}, "log": list(tab["log"])}
        try:
            tab["rev"] = store.autosave(slot.id, game, now=10 + i, rev=tab["rev"]).rev
        except StorageError as exc:
            assert exc.code == "conflict" and "changed in another tab" in exc.message
            refused.append(i)
    # B's first write came after A's two: refused; A's third came after nothing of B's: kept
    assert refused == [2, 4]
    assert store.open(slot.id)["log"] == ["A0", "A1", "A3"]
    # B keeps its line as a new slot; nothing of either is lost
    b = store.create({"v": 1, "game": "g", "options": {"seed": 1}, "log": tabs["B"]["log"]}, "mine", now=20)
    assert store.open(b.id)["log"] == ["B2", "B4"]


def test_same_game_written_by_a_twin_is_not_a_conflict() -> None:
    store = SlotStore(MemoryBackend())
    slot = store.create(save(n=1), "x", now=1)
    store.autosave(slot.id, save(n=2), now=2, rev=1)
    # another tab at rev 1 arrives at the very same game: adopt the revision, write nothing
    again = store.autosave(slot.id, save(n=2), now=3, rev=1)
    assert again.rev == 2 and store.get(slot.id).updated == 2


def test_rename_elsewhere_is_not_a_conflict_and_is_kept() -> None:
    store = SlotStore(MemoryBackend())
    slot = store.create(save(n=1), "Old name", now=1)
    store.rename(slot.id, "New name")  # e.g. on the landing page in another tab
    new = store.autosave(slot.id, save(n=2), now=2, rev=slot.rev)
    assert new.name == "New name" and new.rev == 2


# -- issue 10: a damaged slot never stops a page (item 2) -----------------------------------
def damaged_backend() -> tuple[MemoryBackend, dict[str, str]]:
    """One good slot and every kind of damage seen: what ``list(check=True)`` must say."""
    backend = MemoryBackend()
    store = SlotStore(backend)
    good = store.create(save(n=2), "Good", now=1)
    kinds = {}
    for n, raw in enumerate([
        "{not json",
        json.dumps({**save(), "options": {"title": "\ud800"}}),  # escaped lone surrogate
        '{"v":1,"game":"g","options":{"title":"' + "\ud800" + '"},"log":[]}',  # a raw one
        json.dumps({"v": 99, "game": "g", "options": {}, "log": []}),
        "[" * 50_000,
        json.dumps({**save(), "slot": {"rev": "many"}}),
    ]):
        sid = f"bad{n}"
        backend.data[SLOT_PREFIX + sid] = raw
        kinds[sid] = raw
    # an index entry whose save is gone, and one with a poisonous name
    index = json.loads(backend.data[INDEX_KEY])
    index.append({"id": "gone1", "game": "g", "name": "Gone", "mode": "host", "created": 1, "updated": 1, "steps": 3})
    index.append({"id": "bad1", "game": "g", "name": "x\ud800\x1b[2Ky", "mode": "host", "created": 1,
                  "updated": 1, "steps": 1})
    backend.data[INDEX_KEY] = json.dumps(index)
    return backend, {"good": good.id, **{k: k for k in kinds}, "gone1": "gone1"}


def test_damaged_slots_are_listed_with_why_and_can_go() -> None:
    backend, ids = damaged_backend()
    store = SlotStore(backend)
    slots = {s.id: s for s in store.list(check=True)}
    assert set(slots) == set(ids.values())
    assert slots[ids["good"]].damaged == ""
    damaged = {sid: s.damaged for sid, s in slots.items() if s.damaged}
    assert set(damaged) == set(ids.values()) - {ids["good"]}
    assert "missing" in damaged["gone1"]
    assert "not valid JSON" in damaged["bad0"]
    assert "lone surrogate" in damaged["bad1"] and "lone surrogate" in damaged["bad2"]
    assert "format 99" in damaged["bad3"]
    for s in slots.values():  # every name can be shown: no surrogate, no control character
        assert not any(0xD800 <= ord(c) <= 0xDFFF or ord(c) < 32 for c in s.name)
    assert slots["bad1"].name == "x\ufffd [2Ky"
    # export as stored: the text as it was (a raw lone surrogate as U+FFFD)
    name, text = store.export_raw("bad2")
    assert name == "conquest-damaged-bad2.json" and "\ufffd" in text and text.startswith('{"v":1')
    with pytest.raises(StorageError):
        store.export_raw("gone1")
    for sid in damaged:
        store.delete(sid)
    assert [s.id for s in store.list(check=True)] == [ids["good"]]


def test_damaged_storage_fuzz_never_raises_anything_else() -> None:
    """Seeded mutations of the index and the saves (bytes cut, flipped, duplicated, wrong
    types): reading, listing, checking, renaming, saving and exporting either work or raise
    StorageError/SaveCodeError, and every listed name can be shown."""
    import random

    rng = random.Random(10)
    backend = MemoryBackend()
    store = SlotStore(backend)
    for i in range(3):
        s = store.create(save(n=i + 1, title=f"T{i}"), f"Game {i}", now=100 + i)
        store.autosave(s.id, save(n=i + 2), now=200 + i, rev=s.rev)
    pristine = dict(backend.data)
    junk = ["\ud800", "\x00", "\x1b", "}", "{", '"', "[", "]", ",", "null", "1e999", "-1", "\"slot\":{}", "\ufffd"]
    cases = 0
    for _ in range(400):
        backend.data = dict(pristine)
        for _ in range(rng.randint(1, 4)):
            key = rng.choice(sorted(backend.data))
            text = backend.data[key]
            op = rng.randrange(4)
            pos = rng.randrange(len(text) + 1)
            if op == 0:
                text = text[:pos]
            elif op == 1:
                text = text[:pos] + rng.choice(junk) + text[pos + 1 :]
            elif op == 2:
                text = text[:pos] + rng.choice(junk) + text[pos:]
            else:
                text = json.dumps(rng.choice([None, 5, "x", [], {}, [{"id": 1}], {"v": 1}]))
            backend.data[key] = text
        for slot in store.list(check=True):
            cases += 1
            assert not any(0xD800 <= ord(c) <= 0xDFFF or ord(c) < 32 for c in slot.name + slot.game)
            for op in (
                lambda sl: store.open(sl.id),
                lambda sl: store.rename(sl.id, "R"),
                lambda sl: store.autosave(sl.id, save(n=9), now=999, rev=sl.rev),
                lambda sl: store.export(sl.id),
                lambda sl: store.export_raw(sl.id),
            ):
                try:
                    op(slot)
                except (StorageError, SaveCodeError):
                    pass
    assert cases > 800
