"""Offline copies (site/py/offline.py), the parts without a browser: the copy's own data is
checked like any file, its storage keys never meet another file page's, and reopening a
copy finds the game this browser kept for it (issue 15). The browser side is
tests/browser/test_offline_copy.py."""
from __future__ import annotations

import json

import pytest
from offline import (
    FILE_PREFIX,
    POINTER_PREFIX,
    PrefixBackend,
    copy_filename,
    copy_state,
    read_copy_state,
    slot_for_copy,
)

from conquest.savecode import SaveCodeError
from conquest.store import INDEX_KEY, MemoryBackend, SlotStore, StorageError


def save(n: int = 3, seed: int = 1, game: str = "world") -> dict:
    return {"v": 1, "game": game, "options": {"seed": seed, "title": "Ours"}, "log": [f"a{i}" for i in range(n)]}


def test_prefix_backend_keeps_the_copies_apart_from_other_file_pages() -> None:
    raw = MemoryBackend()
    raw.set("conquest:slots", "another file page's own data")
    store = SlotStore(PrefixBackend(raw))
    slot = store.create(save(), "Ours", now=1)
    assert raw.get("conquest:slots") == "another file page's own data"
    assert all(k.startswith(FILE_PREFIX) for k in raw.keys() if k != "conquest:slots")
    assert raw.get(FILE_PREFIX + INDEX_KEY) is not None
    assert [s.id for s in store.list()] == [slot.id]
    store.delete(slot.id)
    assert store.list() == [] and raw.keys() == ["conquest:slots", FILE_PREFIX + INDEX_KEY]


def test_copy_state_round_trip_and_a_new_id_per_site_copy() -> None:
    a = copy_state("world", "play_world", save(), "https://example.org/play/world/", None, 5.0)
    b = copy_state("world", "play_world", save(), "https://example.org/play/world/", None, 5.0)
    assert a["copy"] != b["copy"]  # each copy made on the site starts its own line
    again = copy_state("world", "play_world", save(4), a["site"], a["copy"], 6.0)
    assert again["copy"] == a["copy"]  # "Save to file" keeps it
    got = read_copy_state(json.dumps(a))
    assert got["save"]["log"] == save()["log"] and got["module"] == "play_world"
    assert read_copy_state(json.dumps(copy_state("reign", "play_reign", None, "", None, 1.0)))["save"] is None


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        json.dumps({"v": 2, "game": "world", "module": "play_world", "copy": "ab"}),
        json.dumps({"v": 1, "game": "world", "module": "<script>", "copy": "ab"}),
        json.dumps({"v": 1, "game": "world", "module": "play_world", "copy": "../x"}),
        json.dumps({"v": 1, "game": "world", "module": "play_world", "copy": "ab", "save": {"game": "world"}}),
        json.dumps({"v": 1, "game": "world", "module": "play_world", "copy": "ab", "save": save(game="reign")}),
        json.dumps({"v": 1, "game": "world", "module": "play_world", "copy": "ab", "mode": "admin"}),
    ],
)
def test_damaged_or_hostile_copy_data_is_refused_with_a_message(text: str) -> None:
    with pytest.raises(SaveCodeError) as info:
        read_copy_state(text)
    assert info.value.message


def test_reopening_a_copy_finds_the_game_played_on_since() -> None:
    store = SlotStore(PrefixBackend(MemoryBackend()))
    sid, continued = slot_for_copy(store, "c1", save(3), "Ours", now=1)
    assert not continued and store.open(sid)["log"] == save(3)["log"]
    store.autosave(sid, save(7), now=2)  # moves made in the copy, kept by this browser
    again, continued = slot_for_copy(store, "c1", save(3), "Ours", now=3)
    assert (again, continued) == (sid, True) and store.open(sid)["log"] == save(7)["log"]
    # undone back past the file's moves: still the same game, still the kept slot
    store.autosave(sid, save(1), now=4)
    assert slot_for_copy(store, "c1", save(3), "Ours", now=5) == (sid, True)
    # another copy, of another game: its own slot; the first copy's slot is untouched
    other, continued = slot_for_copy(store, "c2", save(2, seed=9), "Other", now=6)
    assert other != sid and not continued and len(store.list()) == 2


def test_a_copy_whose_kept_game_is_gone_or_different_opens_its_own_game() -> None:
    store = SlotStore(PrefixBackend(MemoryBackend()))
    sid, _ = slot_for_copy(store, "c1", save(3), "Ours", now=1)
    store.delete(sid)
    new, continued = slot_for_copy(store, "c1", save(3), "Ours", now=2)
    assert not continued and store.open(new)["log"] == save(3)["log"]
    store.backend.set(POINTER_PREFIX + "c1", "nosuchslot")
    third, continued = slot_for_copy(store, "c1", save(3), "Ours", now=3)
    assert not continued and third == new  # the identical stored game is reused, not doubled


def test_a_read_only_view_stays_read_only_in_its_copy() -> None:
    state = read_copy_state(json.dumps(copy_state("world", "play_world", save(), "", None, 1.0, mode="view")))
    assert state["mode"] == "view"
    store = SlotStore(PrefixBackend(MemoryBackend()))
    sid, _ = slot_for_copy(store, state["copy"], state["save"], "Ours (view)", now=1, mode=state["mode"])
    assert store.get(sid).mode == "view"
    with pytest.raises(StorageError):
        store.autosave(sid, save(5), now=2)
    older = json.dumps({"v": 1, "game": "world", "module": "play_world", "copy": "ab"})
    assert read_copy_state(older)["mode"] == "host"


def test_a_full_storage_says_so() -> None:
    store = SlotStore(PrefixBackend(MemoryBackend(quota=50)))
    with pytest.raises(StorageError):
        slot_for_copy(store, "c1", save(30), "Ours", now=1)


def test_copy_file_names_are_plain() -> None:
    assert copy_filename("world", "Ann & Bob's <game>") == "conquest-world-ann-bob-s-game-offline.html"
    assert copy_filename("reign", "!!!") == "conquest-reign-game-offline.html"
