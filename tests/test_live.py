"""The live table's protocol in CPython (issue 22): the host's message handling (accept,
refuse, redact, rejoin) with a fake network, hostile guests included.

Each device is a real page (``site/games/<id>.py``) on the real shell with a fake host;
the network is a queue of texts, so what a guest receives is exactly what its page reads
(:class:`live_kit.Net`, shared with the other live tests).
"""
from __future__ import annotations

import json
from typing import Any

import pytest
from campaign import CampaignPage
from live import Guest, GuestSession, LiveError, Table, TableSession
from live_kit import WORLD, Net, play_steps, world_host
from page_host import FakeHost, make_page
from reign import ReignPage
from shell import Session, Shell
from ui import isolate, text
from world import WorldPage

from conquest.core import Game, GameError, get_game
from conquest.rng import Rng
from conquest.session import Match


def test_world_live_each_device_receives_only_its_seat() -> None:
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    bob = net.join("peer-b", WorldPage, "Bob", 1)
    cy = net.join("peer-c", WorldPage, "Cy", 2)
    assert isinstance(host_shell.session, TableSession)
    assert host_shell.session.remote == {1, 2}
    play_steps(net, host_shell, Rng(7), 400)
    hs = host_shell.session
    for guest, seat in ((bob, 1), (cy, 2)):
        gs = guest.session
        assert isinstance(gs, GuestSession) and gs.only_seat == seat
        # the guest's page holds exactly the host's states as its seat may know them
        assert gs.match.log == [WORLD.redact_text(hs.match.states[i], t, seat) for i, t in enumerate(hs.match.log)]
        assert gs.match.states == [WORLD.redact(st, seat) for st in hs.match.states]
        assert gs.view() == WORLD.view(hs.match.state, seat)
        # no other seat's card kind in anything it received: every state it was sent is the
        # stand-in, which depends on public counts only, and others' draws read "C?"
        for raw in net.inbox[f"peer-{'b' if seat == 1 else 'c'}"]:
            msg = json.loads(raw)
            for st in msg.get("states", []):
                got = WORLD.state_from_json(st)
                assert WORLD.redact(got, seat) == got
        drawn_by_others = [t for i, t in enumerate(hs.match.log) if t.startswith("C") and hs.match.states[i].current != seat]
        assert drawn_by_others, "the game must reach cards drawn by others"
        assert all(t == "C?" for i, t in enumerate(gs.match.log) if hs.match.log[i].startswith("C") and hs.match.states[i].current != seat)
        # and its page never stored anything
        assert guest.shell.host.store.list() == []


def test_refused_intents_are_answered_with_a_message_and_change_nothing() -> None:
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    bob = net.join("peer-b", WorldPage, "Bob", 1)
    hs = host_shell.session
    assert hs is not None
    # the claim: Ann (the host's seat) first
    mover = hs.acting_seat()
    assert mover != 1
    n = len(hs.match.log)
    log = list(hs.match.log)
    # another seat's move, sent anyway (the guest's shell refuses before sending; a hostile one sends)
    bob.send(json.dumps({"t": "act", "step": n, "action": str(WORLD.legal_actions(hs.match.state)[0])}))
    net.run()
    assert "Ann's move, not Bob's" in bob.refusals[-1]
    # the guest's own page refuses it too, with the shell's words
    assert not bob.shell.play(WORLD.legal_actions(bob.session.match.state)[0])
    assert "it is Ann's move" in bob.shell.message[1]
    # Ann plays; Bob's turn comes; a stale step and an illegal action are refused
    while hs.acting_seat() != 1:
        actions = WORLD.legal_actions(hs.match.state)
        assert host_shell.play(actions[0])
        net.table.sync()
        net.run()
    n = len(hs.match.log)
    log = list(hs.match.log)
    bob.send(json.dumps({"t": "act", "step": n - 1, "action": str(WORLD.legal_actions(hs.match.state)[0])}))
    net.run()
    assert "nothing was changed" in bob.refusals[-1] and f"step {n - 1}" in bob.refusals[-1]
    bob.send(json.dumps({"t": "act", "step": n, "action": "p41x99"}))
    net.run()
    try:  # the engine's own message, which cites the ruling
        WORLD.apply(hs.match.state, WORLD.parse_action("p41x99"))
        raise AssertionError("p41x99 must be refused")
    except GameError as exc:
        assert bob.refusals[-1] == exc.message and "W3" in exc.message
    bob.send(json.dumps({"t": "act", "step": n, "action": "zzz"}))
    net.run()
    assert "zzz" in bob.refusals[-1]
    assert hs.match.log == log
    assert bob.session.match.log == [WORLD.redact_text(hs.match.states[i], t, 1) for i, t in enumerate(log)]


def test_a_hostile_guest_is_bounded_and_cannot_slow_the_others() -> None:
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    bob = net.join("peer-b", WorldPage, "Bob", 1)
    mal = net.join("peer-m", WorldPage, "Mal", None)
    hs = host_shell.session
    log = list(hs.match.log)
    for raw in ("x" * 100_000, "not json", "[" * 3000 + "]" * 3000, "[]", '{"t": 5}', '{"t": "boom"}',
                '{"t": "act", "step": "0", "action": "p1"}', '{"t": "claim", "seat": 99}',
                '{"t": "secret", "step": 0, "part": [[[[["deep"]]]]]}'):
        clock.advance(1000)
        mal.send(raw)
        net.run()
    notes = net.inbox["peer-m"]
    refused = [json.loads(x)["message"] for x in notes if json.loads(x)["t"] == "refused"]
    assert len(refused) == 9, refused
    assert "100,000 characters" in refused[0]
    # a spectator can send nothing that changes the game
    clock.advance(1000)
    mal.send(json.dumps({"t": "act", "step": len(hs.match.log), "action": str(WORLD.legal_actions(hs.match.state)[0])}))
    net.run()
    assert "spectators cannot play" in json.loads(net.inbox["peer-m"][-2])["message"]
    assert hs.match.log == log
    # a flood: dropped before parsing, and Bob is answered at once
    parsed = net.table.parsed
    for _ in range(10_000):
        net.table.receive("peer-m", "x" * 4000, clock.clock())
    assert net.table.parsed - parsed <= 20
    bob.claim(None)
    net.run()
    assert bob.session.spectator
    assert net.table.seating.devices[bob.token].seat is None
    # a stranger that never said hello
    net.table.receive("peer-z", json.dumps({"t": "act", "step": 0, "action": "p1"}), clock.clock())
    assert json.loads(net.q[-1][2])["code"] == "live.unknown"


def test_a_dropped_guest_rejoins_at_the_present_step_and_the_host_reload_resumes() -> None:
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    bob = net.join("peer-b", WorldPage, "Bob", 1)
    net.join("peer-c", WorldPage, "Cy", 2)
    rng = Rng(11)
    play_steps(net, host_shell, rng, 60)
    hs = host_shell.session
    # Bob's connection drops; the others play on until it is Bob's move
    net.leave("peer-b")
    assert "Bob disconnected" in net.table.seating.log_notes[-1]
    while hs.acting_seat() != 1:
        play_steps(net, host_shell, rng, 1)
    # Bob's page reloads: a new page, the same device token, a new peer id
    bob2 = net.join("peer-b2", WorldPage, "Bob", None, token=bob.token)
    assert bob2.session.only_seat == 1
    assert bob2.session.match.states[-1] == WORLD.redact(hs.match.state, 1)
    play_steps(net, host_shell, rng, 30)
    assert bob2.session.match.log[-1] == WORLD.redact_text(hs.match.states[-2], hs.match.log[-1], 1)
    # the host reloads: the game from its slot, the table from what it stored
    stored = net.table.seating.to_json()
    slot_id = hs.slot_id
    shell2, _, _ = make_page(WorldPage, host_shell.host)
    from shell import check_save

    shell2.open(check_save(host_shell.host.store.open(slot_id)), host_shell.host.store.get(slot_id))
    log = list(hs.match.log)
    net2 = Net(shell2, clock)
    net2.table.seating.restore(stored)
    assert shell2.session.remote == {1, 2}
    for peer, guest in list(net.guests.items()):
        if peer in net.down:
            continue
        guest.host_left("host")
        net2.guests[peer] = guest
        net2.inbox[peer] = []
        guest.send = lambda text, p=peer: net2.q.append((p, "host", text))
        net2.table.connected(peer)
        net2.run()
    assert shell2.session.match.log == log
    play_steps(net2, shell2, rng, 20)
    assert len(shell2.session.match.log) > len(log)


def reign_host() -> tuple[Shell, FakeHost]:
    shell, _, host = make_page(ReignPage)
    assert shell.start({
        "seat-count": "2", "setup": "easy",
        "seat-name-0": "Ann", "seat-colour-0": "#e69f00", "seat-who-0": "human",
        "seat-name-1": "Bob", "seat-colour-1": "#56b4e9", "seat-who-1": "human",
    }) is not None, shell.message
    return shell, host


def reign_table() -> tuple[Game[Any, Any], Shell, Net, Guest]:
    """Reign's host (Ann) with Bob joined on his own device, both about to choose their
    tracker cards in secret: (the game, the host's shell, the network, Bob)."""
    game = get_game("reign")
    shell, clock = reign_host()
    net = Net(shell, clock)
    bob = net.join("peer-b", ReignPage, "Bob", 1)
    assert shell.session is not None
    assert game.simultaneous(shell.session.match.state) == (0, 1)  # the tracker cards, at set-up
    return game, shell, net, bob


def test_reign_secret_choices_are_made_at_once_and_never_sent_before_the_reveal() -> None:
    game, shell, net, bob = reign_table()
    hs = shell.session
    # Bob chooses first, on his device; the host's person may still choose (in parallel)
    pick_b = game.secret_choices(hs.match.state, 1)[3]
    assert bob.shell.give_secret(1, pick_b)
    net.run()
    assert {k: str(v) for k, v in hs.secret_parts.items()} == {1: str(pick_b)}  # as its text
    assert hs.acting_seat() == 0 and not hs.locked()
    assert str(pick_b) not in "".join(net.inbox["peer-b"][1:])
    assert net.table.updates.meta(net.table.seating.devices[bob.token])["chosen"] == [1]
    # Bob cannot choose twice, nor for Ann
    bob.send(json.dumps({"t": "secret", "step": len(hs.match.log), "part": "AB"}))
    net.run()
    assert "already chosen" in bob.refusals[-1]
    pick_a = game.secret_choices(hs.match.state, 0)[0]
    assert shell.give_secret(0, pick_a)
    net.table.sync()
    net.run()
    assert bob.session.match.log == hs.match.log
    assert game.simultaneous(hs.match.state) == ()


def bar_text(shell: Shell) -> str:
    """The status bar as drawn on that device (its words, no markup)."""
    s = shell.session
    assert s is not None and shell.page is not None
    return text(shell.bar.render(shell.page.prompt(s.view())))


def test_every_device_says_who_has_chosen_at_a_secret_step_never_what() -> None:
    game, shell, net, bob = reign_table()
    hs = shell.session
    assert shell.bar.chosen_words() == bob.shell.bar.chosen_words() == ""  # nobody has chosen yet
    pick_b = game.secret_choices(hs.match.state, 1)[3]
    assert bob.shell.give_secret(1, pick_b)
    net.run()
    # the host's device and Bob's both say it, in the bar, with the names only
    for device in (shell, bob.shell):
        assert device.bar.chosen_words() == "Bob has chosen; waiting for Ann"
        assert "Bob has chosen; waiting for Ann" in bar_text(device)
    assert str(pick_b) not in bar_text(shell)
    assert json.loads(net.inbox["peer-b"][-1])["chosen"] == [1]  # the host says who, not what
    # an earlier step on screen is not the open step: nothing said there
    hs.viewing = 0
    assert shell.bar.chosen_words() == ""
    hs.viewing = None
    # the host's person chooses: the reveal is played and the words go on every device
    assert shell.give_secret(0, game.secret_choices(hs.match.state, 0)[0])
    net.table.sync()
    net.run()
    assert shell.bar.chosen_words() == bob.shell.bar.chosen_words() == ""


def test_hot_seat_says_who_has_chosen_too() -> None:
    game = get_game("reign")
    shell, _ = reign_host()
    hs = shell.session
    shell.handover.ready(0)
    pick = game.secret_choices(hs.match.state, 0)[2]
    assert shell.give_secret(0, pick)
    assert shell.bar.chosen_words() == "Ann has chosen; waiting for Bob"
    assert str(pick) not in bar_text(shell)


def test_campaign_three_devices_answer_at_once_each_timed_on_its_own_device() -> None:
    game = get_game("campaign")
    shell, _, host = make_page(CampaignPage)
    assert shell.start({
        "seat-count": "3", "seconds": "20",
        "seat-name-0": "Ann", "seat-colour-0": "#e69f00", "seat-who-0": "human",
        "seat-name-1": "Bob", "seat-colour-1": "#56b4e9", "seat-who-1": "human",
        "seat-name-2": "Cy", "seat-colour-2": "#009e73", "seat-who-2": "human",
    }) is not None, shell.message
    net = Net(shell, host)
    net.table.release(0)  # the host's device is the console: every player on their own
    ann = net.join("peer-a", CampaignPage, "Ann", 0)
    bob = net.join("peer-b", CampaignPage, "Bob", 1)
    cy = net.join("peer-c", CampaignPage, "Cy", 2)
    hs = shell.session
    assert hs.remote == {0, 1, 2} and net.table.seating.kept() == set()
    # play the expansion picks on their devices until the first question is open
    guests = {0: ann, 1: bob, 2: cy}
    for _ in range(200):
        st = hs.match.state
        if game.simultaneous(st):
            break
        seat = hs.acting_seat()
        g = guests[seat]
        g.shell.play(game.legal_actions(g.session.match.state)[0])
        net.run()
    st = hs.match.state
    asked = game.simultaneous(st)
    assert len(asked) >= 2
    times = {}
    for k, seat in enumerate(asked):
        g = guests[seat]
        part = game.secret_choices(g.session.match.state, seat)[0]
        times[seat] = 1234 + k * 111
        g.shell.give_secret(seat, (part[0], times[seat]))
        if k == 0:  # the first answer is said on every device, names only
            net.run()
            first, rest = hs.seat_name(seat), [hs.seat_name(x) for x in asked[1:]]
            for device in [shell, *(x.shell for x in guests.values())]:
                words = device.bar.chosen_words()
                assert words.startswith(f"{first} has chosen; waiting for "), words
                assert all(name in words for name in rest) and str(times[seat]) not in bar_text(device)
    net.run()
    reveal = hs.match.log[len(hs.match.log) - 1]
    assert not game.simultaneous(hs.match.state) or len(hs.match.log) > 0
    text = " ".join(hs.match.log[-3:])
    for seat in asked:
        assert str(times[seat]) in text, (text, times)
    for g in guests.values():
        assert g.session.match.log == hs.match.log
    assert reveal


def test_a_spectator_who_takes_a_seat_is_sent_its_seat_s_redaction() -> None:
    """Found by the browser test: a guest that joined watching and then took a seat kept
    the spectator's states (no hand of its own)."""
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    bob = net.join("peer-b", WorldPage, "Bob", None)
    play_steps(net, host_shell, Rng(5), 300)  # Ann plays every seat until cards are dealt
    hs = host_shell.session
    assert any(sum(st.hands[1]) for st in hs.match.states)
    assert bob.session.spectator
    bob.claim(1)
    net.run()
    assert bob.session.only_seat == 1
    assert bob.session.match.states == [WORLD.redact(st, 1) for st in hs.match.states]


def test_host_controls_move_a_seat_make_a_bot_and_close() -> None:
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    bob = net.join("peer-b", WorldPage, "Bob", 1)
    spec = net.join("peer-s", WorldPage, "Sam", None)
    assert net.table.seating.free_seats() == [2]
    net.table.assign(2, spec.token)
    net.run()
    assert spec.session.only_seat == 2 and not spec.session.spectator
    net.table.make_bot(2, "Rule-based")
    net.run()
    hs = host_shell.session
    assert hs.seats()[2].is_bot and spec.session.spectator
    assert Match(WORLD, hs.match.options, hs.match.log).state == hs.match.state  # the save replays
    net.table.close()
    net.run()
    assert bob.closed and bob.session.locked()
    assert not isinstance(host_shell.session, TableSession)


def test_a_seat_moved_to_a_device_not_at_the_table_is_refused_and_nothing_changes() -> None:
    """The table checks the device before its record (``Table.seating``) changes: a refused
    move leaves every seat where it was, in the stored record and on the devices."""
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    bob = net.join("peer-b", WorldPage, "Bob", 1)
    before = json.dumps(net.table.seating.to_json())
    with pytest.raises(LiveError) as refused:
        net.table.assign(1, "no-such-device-token")
    net.run()
    assert refused.value.code == "live.unknown"
    assert json.dumps(net.table.seating.to_json()) == before
    assert bob.session.only_seat == 1 and not bob.session.spectator


def test_join_fragment_round_trips_and_rejects_junk() -> None:
    from live import join_fragment, new_table_keys, parse_join_fragment

    code, password = new_table_keys()
    key = "B" + "x" * 86  # the shape of a raw P-256 public key in base64url
    assert parse_join_fragment(join_fragment(code, password, key)) == (code, password, key)
    for bad in ("#live=", "#live=ab.cd", "#live=ABCDEFGH.<script>xx", "#h=c1.xyz", "#live=" + "A" * 300,
                join_fragment(code, password, "short"), join_fragment(code, password, key[:-1] + "<"),
                f"#live={code}.{password}"):  # a link without the host's key is not a join link
        assert parse_join_fragment(bad) is None


def test_a_peer_posing_as_the_host_is_ignored() -> None:
    """Host authenticity: every guest knows the password, so another guest could announce
    itself as the host and send made-up updates. A guest takes only what the transport
    found signed with the key of its join link (``signed``); the rest is dropped unread."""
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    bob = net.join("peer-b", WorldPage, "Bob", 1)
    log, received = list(bob.session.match.log), bob.received
    assert bob.host_peer == "host"
    fake_state = WORLD.state_to_json(host_shell.session.match.state)
    forged = [
        {"t": "host", "game": "world", "code": "ABCDEFGH"},
        {"t": "sync", "base": 0, "log": [], "states": [fake_state], "game": "world", "options": {}, "you": 1,
         "seats": [], "chosen": [], "watching": 0},
        {"t": "closed"},
        {"t": "refused", "code": "x", "message": "forged"},
    ]
    for msg in forged:
        bob.receive("peer-m", json.dumps(msg), False)  # from another peer, not signed by the host
        bob.receive("host", json.dumps(msg), False)  # the host's peer id, but not its signature
    assert bob.forged == 2 * len(forged)
    assert bob.host_peer == "host" and not bob.closed and not bob.refusals
    assert bob.session.match.log == log and bob.received == received
    # the real host's next update is still taken
    play_steps(net, host_shell, Rng(2), 3)
    assert bob.session.match.log == host_shell.session.match.log


def test_the_host_panel_moves_seats_between_this_device_guests_and_the_computer() -> None:
    from live import render_host_panel
    from ui import fire, text

    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    bob = net.join("peer-b", WorldPage, "Bob", 1)
    calls: list[tuple] = []
    panel = render_host_panel(net.table, "http://x/#live=ABCDEFGH.pppppppppppp", None,
                              lambda *a: calls.append(a), ["Random", "Rule-based"])
    assert "Bob's device" in text(panel) and "ABCDEFGH" in text(panel)
    assert "relay sees" in text(panel) and "IP addresses" in text(panel)
    fire(panel, "#live-seat-2", "change", value="open")
    fire(panel, "#live-seat-0", "change", value=bob.token)
    assert calls == [("seat", 2, "open"), ("seat", 0, bob.token)]
    net.table.release(0)
    assert 0 in net.table.seating.free_seats()
    net.table.assign(0, None)
    assert net.table.seating.kept() == {0}


def test_the_host_s_key_is_kept_with_the_table_and_a_damaged_one_is_dropped() -> None:
    """A reload signs with the key the guests' links name: the key pair is stored with the
    table; a stored key of the wrong shape is not used (the page makes a new one)."""
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    net.table.seating.host_key = {"private": '{"kty":"EC"}', "public": "B" + "x" * 86}
    stored = json.loads(json.dumps(net.table.seating.to_json()))
    again = Table(host_shell, lambda peer, text: None, "ABCDEFGH", "p" * 22)
    again.seating.restore(stored)
    assert again.seating.host_key == net.table.seating.host_key
    for bad in ({"private": 1, "public": "B" + "x" * 86}, {"private": "{}", "public": "short"}, "key", None):
        t = Table(host_shell, lambda peer, text: None, "ABCDEFGH", "p" * 22)
        t.seating.restore({**stored, "key": bad})
        assert t.seating.host_key is None


# -- issue 36: names, problems ---------------------------------------------------------------
def test_a_seat_takes_the_name_its_guest_typed_on_every_device() -> None:
    """Bea takes "Player 2": the game says "Bea" in its sentences, on the host and on every
    device (the states are replayed with the new name; the log and draws are unchanged)."""
    shell, host = world_host(**{"seat-name-1": "Player 2", "seat-name-2": "Player 3"})
    net = Net(shell, host)
    s = shell.session
    assert isinstance(s, Session)
    net.table.seating.sync_session()
    log_before = list(s.match.log)
    bea = net.join("p1", WorldPage, "Bea", 1)
    cy = net.join("p2", WorldPage, "", 2)  # no name typed: the seat keeps its name
    hs = net.table.session
    assert [x.name for x in hs.seats()][1:] == [isolate("Bea"), isolate("Player 3")]
    assert hs.match.state.names[1] == "Bea"
    assert hs.match.log == log_before
    for g in (bea, cy):
        gs = g.session
        assert gs is not None and gs.seats()[1].name == isolate("Bea")
        assert gs.match.state.names[1] == "Bea"
    # a name another seat has is not taken; the host's save has the new name
    net.guests["p2"].name = "Bea"
    net.guests["p2"].hello()
    net.run()
    assert hs.seats()[2].name == isolate("Player 3")
    assert hs.match.save().options["seats"][1]["name"] == "Bea"


def test_the_phase_line_speaks_of_the_acting_seat_in_the_third_person() -> None:
    """Every device shows the phase line: "your" would speak to the wrong person (issue 36)."""
    from conquest.games.world.view import _phase_text

    m = Match(WORLD, {"seats": [{"name": n} for n in ("Ann", "Bob", "Cy")], "order": "fixed"}, rng=Rng(1))
    m.resolve_chance()
    line = _phase_text(m.state)
    assert line.startswith("Ann ") and "your" not in line


def test_connection_problems_are_shown_only_while_they_last() -> None:
    from live import PROBLEM_MS, Problems

    p = Problems()
    p.add("peerA", "could not connect to peer peerA after exchanging SDP; configure TURN servers", 1000.0)
    p.add("peerB", "handshake timed out after 10000ms", 2000.0)
    now = p.current(2500.0)
    assert len(now) == 2 and "could not connect to it directly" in now[0] and "greeting" in now[1]
    assert "TURN" not in now[0]  # what is known first; the advice comes with the panel
    p.resolved("peerB")  # it connected: its problem is over
    assert len(p.current(2500.0)) == 1
    assert p.current(1000.0 + PROBLEM_MS) == []  # stale
    p.clear()
    assert p.current(2500.0) == []


# -- issue 36: one authority per table ------------------------------------------------------
def test_a_second_tab_of_the_host_s_table_plays_and_saves_nothing() -> None:
    """Two tabs of the host's browser on one slot (one storage): the first runs the table;
    the second finds the table's lock taken (``live_browser._claim``) and only shows the
    game (``live.show_only``): no step, no computer's move, nothing saved over the first
    tab's game, and its live panel says so in words."""
    from live import ELSEWHERE, render_elsewhere_panel, show_only, table_lock
    from shell import check_save

    shell, host = world_host()
    net = Net(shell, host)
    net.join("peer-b", WorldPage, "Bob", 1)
    net.table.make_bot(0, "Random")  # Ann's seat, to move now, goes to the computer
    slot_id = shell.session.slot_id
    assert slot_id is not None
    # the second tab opens the same slot from storage, as a reload of the page would
    second, _, _ = make_page(WorldPage, host)
    second.open(check_save(host.store.open(slot_id)), host.store.get(slot_id))
    assert second.bots.turn() is not None  # as a host, it would play Ann's move
    before, rev = host.store.open(slot_id), host.store.get(slot_id).rev
    show_only(second.session)
    assert second.session.locked() and second.bots.turn() is None
    assert not second.bots.step(10_000)
    assert not second.play(WORLD.legal_actions(second.session.match.state)[0])
    second.saved.autosave()
    assert host.store.open(slot_id) == before and host.store.get(slot_id).rev == rev
    # the first tab's table goes on: its steps are the ones stored
    assert shell.bots.step(10_000) or shell.bots.step(10_000)
    assert len(host.store.open(slot_id)["log"]) > len(before["log"])
    words = text(render_elsewhere_panel())
    assert words.startswith("Live table") and ELSEWHERE in words
    assert "open in another tab of this browser" in words and "only shows the game" in words
    assert "Reload this one to run the table here" in words
    # one lock per room: another table's tab is not this one's
    assert table_lock(net.table.seating.code) == table_lock("ABCDEFGH") != table_lock("ABCDEFGJ")


def test_a_host_s_own_relays_travel_in_its_join_link_bounded() -> None:
    """Issue 36: a host on relays of its own puts them in the join link (ws/wss only, at most
    four, bounded before decoding); a guest is shown those it does not know before use."""
    import base64

    from live import (
        RELAYS_MARK,
        join_fragment,
        link_relays,
        parse_join_fragment,
        parse_seat_key,
        relays_fragment,
        seat_fragment,
    )

    key = "B" * 87
    own = ["ws://127.0.0.1:5555", "wss://relay.example.org/nostr"]
    frag = join_fragment("ABCDEFGH", "p" * 22, key) + relays_fragment(own)
    assert parse_join_fragment(frag) == ("ABCDEFGH", "p" * 22, key)
    assert link_relays(frag) == own
    seat = seat_fragment("ABCDEFGH", "p" * 22, key, "s" * 20) + relays_fragment(own)
    assert parse_seat_key(seat) == "s" * 20
    # hostile: other schemes, markup, too many, too long, not base64: none is used
    def enc(text: str) -> str:
        return RELAYS_MARK + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
    for bad in ("javascript:alert(1)", "https://example.org", "wss://a.org\n" * 5 + "wss://b.org",
                "wss://<b>x</b>", "wss://" + "a" * 200 + ".org"):
        assert link_relays("#live=x" + enc(bad)) is None, bad
    assert link_relays("#live=x" + RELAYS_MARK + "%%%") is None
    assert link_relays("#live=x" + RELAYS_MARK + "A" * 5000) is None
    assert relays_fragment(["javascript:alert(1)"]) == ""
