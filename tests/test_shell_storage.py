"""The shell and storage faults (issue 10): two tabs on one game, damaged slots, in CPython.

Two tabs are two shells over one storage (the browser's ``storage`` event becomes
``Shell.saved.slot_changed``); the browser side is tested in tests/browser/test_storage_page.py.
"""
from __future__ import annotations

import json

from page_host import FakeHost, make_page
from shell import GamePage
from ui import find, find_all, h, text

from conquest.core import get_game
from conquest.rng import Rng
from conquest.session import Match
from conquest.store import SLOT_PREFIX, SlotStore

GAME = "conquests"  # no chance steps: each play is one log entry


class ButtonsPage(GamePage):
    game_id = GAME

    def render(self, view):  # noqa: ANN001, ANN201
        return h("div", id="game-controls-inner")


def two_tabs() -> tuple:
    """Tab A starts a game (stored in a slot); tab B opens the same slot."""
    a, _, host_a = make_page(ButtonsPage)
    host_b = FakeHost()
    host_b.backend = host_a.backend
    host_b.store = SlotStore(host_a.backend)
    b, _, _ = make_page(ButtonsPage, host_b)
    game = get_game(GAME)
    match = Match(game, game.default_options(), rng=Rng(3))
    slot = host_a.store.create(match.save().to_json(), "Shared", host_a.now())
    a.open(match, slot)
    b.open(Match(game, host_b.store.open(slot.id)["options"], []), host_b.store.get(slot.id))
    return a, b, host_a, host_b, slot


def play_first(shell, which: int = 0) -> str:  # noqa: ANN001
    """Play a legal action (``which``: its index; tabs B play another move than A's)."""
    action = shell.game.legal_actions(shell.session.match.state)[which]
    assert shell.play(action), shell.message
    return shell.session.match.log[-1]


def test_the_tab_behind_is_told_and_overwrites_nothing() -> None:
    a, b, host_a, host_b, slot = two_tabs()
    play_first(a)
    play_first(a)
    stored = host_a.store.open(slot.id)["log"]
    assert len(stored) == 2 and a.session.rev == 3
    # B moves on its own older line: refused, its move stays in its page
    play_first(b, -1)
    assert b.session.conflict and len(b.session.match.log) == 1
    assert host_b.store.open(slot.id)["log"] == stored
    box = b.render_message()
    assert "changed in another tab" in text(box)
    assert {n.attrs["id"] for n in find_all(box, "button")} == {"shell-conflict-reload", "shell-conflict-keep"}
    # A goes on saving: it is not behind
    play_first(a)
    assert not a.session.conflict and len(host_a.store.open(slot.id)["log"]) == 3


def test_keep_mine_makes_a_new_slot_and_open_newer_takes_the_other() -> None:
    a, b, host_a, host_b, slot = two_tabs()
    play_first(a)
    mine = play_first(b, -1)
    assert b.session.conflict
    find(b.render_message(), "#shell-conflict-keep").on["click"](None)
    assert not b.session.conflict and b.session.slot_id != slot.id
    assert host_b.store.open(b.session.slot_id)["log"] == [mine]
    assert host_b.store.get(b.session.slot_id).name == "Shared (this tab's line)"
    assert host_b.query == f"?slot={b.session.slot_id}"
    assert len(host_a.store.open(slot.id)["log"]) == 1  # A's game is unchanged
    play_first(b)  # and B saves on its own slot from now on
    assert len(host_b.store.open(b.session.slot_id)["log"]) == 2 and not b.session.conflict
    # a third tab behind A chooses A's version instead
    c, _, host_c = make_page(ButtonsPage, FakeHost())
    host_c.backend, host_c.store = host_a.backend, SlotStore(host_a.backend)
    c.open(Match(get_game(GAME), host_c.store.open(slot.id)["options"], []), host_c.store.get(slot.id))
    c.session.rev = 1
    play_first(a)
    c.saved.slot_changed(slot.id)  # the storage event, before C even moves
    assert c.session.conflict
    find(c.render_message(), "#shell-conflict-reload").on["click"](None)
    assert not c.session.conflict and c.session.match.log == host_a.store.open(slot.id)["log"]
    assert c.session.rev == host_a.store.get(slot.id).rev


def test_a_storage_event_for_the_same_game_is_quiet() -> None:
    a, b, host_a, host_b, slot = two_tabs()
    b.saved.slot_changed(slot.id)  # nothing changed
    b.saved.slot_changed("someoneelse")
    assert not b.session.conflict
    # deleted in another tab: the game stays open here, unsaved, and the page says so
    host_a.store.delete(slot.id)
    b.saved.slot_changed(slot.id)
    assert b.session.slot_id is None and "deleted in another tab" in b.message[1]


def test_damaged_slots_listed_plainly_with_delete_and_export() -> None:
    shell, _, host = make_page(ButtonsPage)
    game = get_game(GAME)
    good = host.store.create(Match(game, game.default_options()).save().to_json(), "Good one", host.now())
    host.backend.data[SLOT_PREFIX + "bad1"] = '{"v":1,"game":"' + GAME + '","options":{"title":"\\ud800"},"log":[]}'
    index = json.loads(host.backend.data["conquest:slots"])
    index.append({"id": "bad1", "game": GAME, "name": "Poisoned", "mode": "host", "created": 1, "updated": 1,
                  "steps": 0})
    host.backend.data["conquest:slots"] = json.dumps(index)
    shell.saved.check_slots()
    assert set(shell.saved.damaged) == {"bad1"}
    tree = shell.saved.render(host.store.list(GAME), None)
    bad = find(tree, "li.is-damaged")
    assert "“Poisoned” is damaged and cannot be opened." in text(bad) and "lone surrogate" in text(bad)
    assert find(bad, "[data-export-raw=bad1]").tag == "button"
    assert "Resume “Good one”" in text(tree)
    delete = [b for b in find_all(bad, "button") if text(b) == "Delete"][0]
    host.confirms.append(True)
    delete.on["click"](None)
    assert "bad1" not in shell.saved.damaged and [s.id for s in host.store.list()] == [good.id]
    assert "Deleted the damaged game “Poisoned”" in shell.message[1]


def test_a_game_storage_refused_stays_in_the_address_and_is_stored_once_it_can() -> None:
    """Issue 10, item 9: before, the warning went at the next step and a reload lost the
    steps since the link; now every step retries, the warning stands, the address carries
    the game as it is now, and the first step with room stores it."""
    from conquest.savecode import parse_fragment

    shell, _, host = make_page(ButtonsPage, FakeHost(quota=50))
    game = get_game(GAME)
    shell.open(Match(game, game.default_options(), rng=Rng(3)), None)
    shell.session.unsaved = True  # as the page does when the link's game could not be stored
    for n in (1, 2):
        play_first(shell, n)
        assert shell.message[0] == "error" and "storage is full" in shell.message[1]
        assert "kept in the address bar" in shell.message[1]
        mode, save = parse_fragment(host.query)
        assert mode == "host" and save["log"] == shell.session.match.log and len(save["log"]) == n
    host.backend.quota = None  # room was made
    play_first(shell)
    assert not shell.session.unsaved and host.query == f"?slot={shell.session.slot_id}"
    assert host.store.open(shell.session.slot_id)["log"] == shell.session.match.log
    assert "Saved in this browser now" in shell.message[1]


def test_a_new_game_with_storage_full_is_kept_and_said() -> None:
    shell, page, host = make_page(ButtonsPage, FakeHost(quota=50))
    fields = {"seat-count": "2", "seat-name-0": "Ann", "seat-name-1": "Bob"}
    session = shell.start(fields)
    assert session is not None and session.unsaved and session.slot_id is None
    assert "storage is full" in shell.message[1] and host.query.startswith("#h=")


def disabled_host() -> FakeHost:
    from conquest.store import DisabledBackend

    host = FakeHost()
    host.backend = DisabledBackend()  # what frame.store() uses when localStorage throws
    host.store = SlotStore(host.backend)
    return host


def test_with_storage_disabled_a_game_lives_in_the_address_never_in_a_memory_slot() -> None:
    """Issue 20, item 9: before, storage disabled gave a slot held only in memory and the
    address ``?slot=<id>``, so a reload lost the game and every move. Now a new game, each
    step and "Continue from here" keep the game in the address bar, as storage full does."""
    from conquest.savecode import parse_fragment

    shell, _, host = make_page(ButtonsPage, disabled_host())
    session = shell.start({"seat-count": "2", "seat-name-0": "Ann", "seat-name-1": "Bob"})
    assert session is not None and session.unsaved and session.slot_id is None
    assert "storage is disabled" in shell.message[1] and "kept in the address bar" in shell.message[1]
    for n in (1, 2, 3):
        play_first(shell)
        assert "?slot=" not in host.query
        mode, save = parse_fragment(host.query)
        assert mode == "host" and save["log"] == shell.session.match.log and len(save["log"]) == n
    shell.jump(1)
    assert shell.branch() is None and shell.session.unsaved and shell.session.slot_id is None
    _, save = parse_fragment(host.query)
    assert save["log"] == shell.session.match.log and len(save["log"]) == 1
    assert host.store.list() == []


def test_a_long_game_storage_refused_keeps_its_address_up_to_date_in_the_steps_task() -> None:
    """Issue 20, item 10 with item 9: a long game storage refused is kept in the address
    after every step, written in the step's own task (issue 42: before, its code followed in
    slices, and a reload before they ended lost the step); after a step it is compressed
    from the last code's mark, not whole (``tests/test_link_marks.py``)."""
    import world as world_page
    from shell import LINKS_AT_ONCE

    from conquest.savecode import parse_fragment
    from conquest.store import DisabledBackend
    from tools.hostile import long_match

    long = long_match("world", LINKS_AT_ONCE + 500)
    shell, _, host = make_page(world_page.WorldPage)
    host.backend = DisabledBackend()
    host.store = SlotStore(host.backend)
    shell.open(Match(long.game, long.options, long.log), None)
    shell.session.unsaved = True  # as the page does when the link's game could not be stored
    if (seat := shell.pending()) is not None:
        shell.handover.ready(seat)
    shell.play(shell.session.match.legal_actions()[0])
    assert "kept in the address bar" in shell.message[1]
    mode, save = parse_fragment(host.query)  # no timer has run: the step's own task wrote it
    assert mode == "host" and save["log"] == shell.session.match.log and len(save["log"]) > len(long.log)
