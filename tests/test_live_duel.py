"""A Metagame duel played live (issue 22, M12) in CPython: the console's side.

The console (the Metagame page) seats the two invasion players at a live table of the duel;
the duel's page on the same device (same fake storage) runs that table, exactly as
``live_browser.resume`` opens a stored table; the two players are guests on their own
devices over the fake network of ``live_kit.Net``. The duel's page autosaves what its table
plays, and the console takes the finished duel from that save by itself, replaying it.
"""
from __future__ import annotations

import json

from conquests import ConquestsPage
from live import (
    TABLE_KEY,
    device_token,
    parse_join_fragment,
    parse_seat_key,
    render_guest_panel,
    render_host_panel,
)
from live_kit import (
    CONQUESTS,
    HELPMATE,
    HOST_KEY,
    WHITE_WINS,
    Net,
    console,
    duel_table,
    join_duel,
    live_console,
    panel,
    play_in_other_tab,
    play_live,
    seat_key,
    world_host,
)
from metagame import MetagamePage
from page_host import FakeHost, render_all
from ui import find, find_all, fire, text

from conquest.core import get_game
from conquest.games.metagame.actions import Duel
from conquest.savecode import make_fragment
from conquest.session import Match


def test_play_live_seats_the_two_invasion_players_and_gives_each_their_link() -> None:
    shell, page, host, tie, record = live_console()
    # the click opened the duel's table on this device (its page runs the table)
    assert host.opened == [f"../conquests/?slot={tie['slot']}"]
    box = panel(shell)
    words = text(box)
    assert "Played live" in words and "takes the result by itself" in words
    assert find(box, "#mg-live-code").children == [record["code"]]
    # the duel's seats, in order, are the invasion's two players: Ann attacks, Bob defends
    save = host.store.open(tie["slot"])
    assert [x["name"] for x in save["options"]["seats"]] == ["Ann", "Bob"]
    assert [(d["name"], d["seat"]) for d in record["devices"]] == [("Ann", 0), ("Bob", 1)]
    assert record["kept"] == []  # the console's device plays neither seat
    assert record["reserved"] == {"0": record["devices"][0]["token"], "1": record["devices"][1]["token"]}
    links = {s: text(find(box, f"#mg-live-url-{s}")) for s in (0, 1)}
    for s, d in enumerate(record["devices"]):
        assert links[s].startswith("http://127.0.0.1:8000/play/conquests/guest/#live=")
        assert seat_key(links[s]) == d["token"]
        assert find(box, f"#mg-live-copy-{s}").attrs["data-copy"] == links[s]
    watch = text(find(box, "#mg-live-url-watch"))
    assert parse_join_fragment(watch[watch.index("#"):]) and parse_seat_key(watch[watch.index("#"):]) is None
    # no QR code is drawn in CPython (the page's encoder draws them), and the page asks for both
    assert sorted(page.duel_desk.panel.qr_wanted()) == sorted(links.values())
    # the duel's table: both seats on the players' devices, none free, none on this device
    dshell, net = duel_table(host, tie, record)
    assert net.table.seating.free_seats() == [] and net.table.seating.kept() == set()
    assert dshell.session.remote == frozenset({0, 1})
    assert [x.name for x in dshell.session.seats()] == ["Ann", "Bob"]


def test_the_duel_s_host_tab_says_whose_link_each_seat_waits_for_and_a_seat_link_names_its_guest() -> None:
    shell, page, host, tie, record = live_console()
    dshell, net = duel_table(host, tie, record)
    box = render_host_panel(net.table, "http://127.0.0.1:8000/play/conquests/#live=x", None, lambda *a: None, [])
    intro = text(find(box, "#live-intro"))
    assert "pick a free seat" not in intro
    assert "Ann and Bob each open their own link" in intro and "watches" in intro
    assert [text(x) for x in find_all(box, ".live-where")] == ["waiting for Ann's own link", "waiting for Bob's own link"]
    # Ann opens her seat's link with an empty name field: it is prefilled with her seat's name
    ann = net.join("peer-a", ConquestsPage, "", None, token=seat_key(text(find(panel(shell), "#mg-live-url-0"))),
                   seat_link=True)
    assert ann.session.only_seat == 0 and ann.name == "Ann"
    assert find(render_guest_panel(ann, lambda *a: None), "#live-name").attrs["value"] == "Ann"
    box = render_host_panel(net.table, "http://x/#live=x", None, lambda *a: None, [])
    assert [text(x) for x in find_all(box, ".live-where")] == ["Ann's device", "waiting for Bob's own link"]
    # a name already typed is kept; a guest of the table's own link (not a seat's) is not renamed
    bob = net.join("peer-b", ConquestsPage, "Bobby", None, token=seat_key(text(find(panel(shell), "#mg-live-url-1"))),
                   seat_link=True)
    assert bob.session.only_seat == 1 and bob.name == "Bobby"
    fan = net.join("peer-s", ConquestsPage, "", None)
    assert fan.session.spectator and fan.name == ""
    # an ordinary table with a free seat keeps the usual words
    host_shell, clock = world_host()
    plain = Net(host_shell, clock)
    words = text(find(render_host_panel(plain.table, "http://x/#live=y", None, lambda *a: None, []), "#live-intro"))
    assert "pick a free seat" in words


def test_a_live_duel_is_played_on_two_devices_and_the_console_takes_it_by_itself() -> None:
    shell, page, host, tie, record = live_console()
    dshell, net = duel_table(host, tie, record)
    box = panel(shell)
    ann = join_duel(net, "peer-a", seat_key(text(find(box, "#mg-live-url-0"))), "Ann on her phone")
    bob = join_duel(net, "peer-b", seat_key(text(find(box, "#mg-live-url-1"))), "")  # no name typed
    stored = json.loads(host.load_pref(TABLE_KEY + tie["slot"]))
    assert [d["name"] for d in stored["devices"]] == ["Ann on her phone", "Bob"]  # Bob keeps his
    # the console names each link by the duel's seat, whatever a device calls itself
    assert [text(b) for b in find_all(panel(shell), "button") if text(b).startswith("Copy ")][:2] == \
        ["Copy Ann's link", "Copy Bob's link"]
    fan = join_duel(net, "peer-s", None, "Fan")
    fan.want = 0
    fan.hello()
    net.run()
    assert (ann.session.only_seat, bob.session.only_seat) == (0, 1)
    assert fan.session.spectator and fan.session.only_seat is None  # no free seat to sit at
    fan.claim(1)
    net.run()
    assert "not free" in fan.refusals[-1] and bob.session.only_seat == 1
    # the host's page plays for nobody at this table: its own clicks are refused
    assert not dshell.play(HELPMATE[0]) and dshell.session.match.log == []

    steps = {0: ann, 1: bob}

    def hostile(i: int, move: str, seat: int) -> None:
        other = steps[1 - seat]
        # the other player cannot move for the one whose turn it is
        other._send({"t": "act", "step": i, "action": CONQUESTS.legal_actions(other.session.match.state)[0].__str__()})
        net.run()
        assert "nothing was changed" in other.refusals[-1] and len(dshell.session.match.log) == i
        # nor can a spectator, nor a guest "claim a win": no message kind says who won
        fan._send({"t": "act", "step": i, "action": move})
        fan._send({"t": "result", "winner": "d"})
        net.run()
        assert "spectators cannot play" in fan.refusals[-2] and "Unknown message kind" in fan.refusals[-1]
        assert not page.duel_desk.poll() and shell.session.match.state.phase == "duel"

    # each move on its player's device; after each, the table's page and all three devices have it
    play_live(net, dshell, steps, HELPMATE, before=hostile)
    assert CONQUESTS.outcome(dshell.session.match.state).winners == (1,)
    # the duel's page autosaved the end; the console takes it by itself (a storage event runs poll)
    assert host.store.open(tie["slot"])["log"] == list(HELPMATE)
    assert page.duel_desk.poll()
    m = shell.session.match
    assert m.log[-1].startswith("dd:conquests@live:") and m.state.owner[10] == 1
    assert "Bob won the duel" in shell.message[1]
    words = [line["words"] for line in shell.log.lines(len(m.log) - 1, len(m.log))]
    assert "played live (" in words[0] and "replayed and checked" in words[0]  # not "played here"
    # it is in the log's text itself, so the campaign's link says "played live" wherever it opens
    mg = get_game("metagame")
    duel = mg.parse_action(m.log[-1])
    assert duel.record is not None and duel.record.how == "live" and str(duel) == m.log[-1]
    assert "played live" in mg.describe_action(m.states[-2], duel)
    assert page.duel_desk.tie() is None and not page.duel_desk.poll()  # taken once


def forge(host: FakeHost, tie: dict, **change: object) -> None:
    """Write a duel save into the duel's slot as a forger would (not through any table)."""
    save = dict(host.store.open(tie["slot"]))
    save.update(change)
    host.store.autosave(tie["slot"], save, host.now())


def test_a_forged_or_mismatched_live_duel_is_refused_by_the_console_replay() -> None:
    shell, page, host, tie, record = live_console()
    desk = page.duel_desk
    before = list(shell.session.match.log)
    # a log whose last move is not legal there: the replay refuses it, nothing is recorded
    forge(host, tie, log=[*HELPMATE[:3], "e5e1"])
    assert not desk.poll() and desk.note and shell.session.match.log == before
    # the same finish won by someone who is not in this invasion: not its duel (M12)
    save = host.store.open(tie["slot"])
    other = [save["options"]["seats"][0], {**save["options"]["seats"][1], "name": "Mallory"}]
    forge(host, tie, options={**save["options"], "seats": other}, log=list(HELPMATE))
    assert not desk.poll() and "M12" in desk.note and shell.session.match.log == before
    # a finished duel's link pasted by hand is replayed the same way: the forged one refused
    forged = {**save, "log": [*HELPMATE[:3], "e5e1"]}
    fire(panel(shell), "#mg-duel-paste-form", "submit",
         fields={"link": "https://example.org/play/conquests/#" + make_fragment(forged)})
    assert shell.message[0] == "error" and shell.session.match.log == before
    # the true finish is taken
    forge(host, tie, options=save["options"], log=list(HELPMATE))
    assert desk.poll() and shell.session.match.log[-1].startswith("dd:conquests@live:")


def test_a_player_link_opened_on_a_second_device_takes_the_seat_over_and_a_stranger_cannot() -> None:
    shell, page, host, tie, record = live_console()
    dshell, net = duel_table(host, tie, record)
    key = record["devices"][0]["token"]
    first = join_duel(net, "peer-a", key, "Ann")
    assert first.session.only_seat == 0
    # Ann's phone sleeps; she opens her link on her laptop: the same seat, at the present step
    net.leave("peer-a")
    again = join_duel(net, "peer-a2", key, "Ann")
    assert again.session.only_seat == 0
    # a stranger's own token finds no seat
    stranger = join_duel(net, "peer-x", device_token(), "X")
    stranger.claim(0)
    net.run()
    assert stranger.session.only_seat is None and "not free" in stranger.refusals[-1]
    # Ann chooses to watch for a while: her seat stays kept for her link, not for the stranger
    again.claim(None)
    net.run()
    assert again.session.only_seat is None and net.table.seating.free_seats() == []
    assert [x["where"] for x in stranger.meta["seats"]] == ["reserved", "device"]
    words = text(render_guest_panel(stranger, lambda *a: None))
    assert "Ann: kept for its player" in words and "Play Ann" not in words
    assert [x["where"] for x in again.meta["seats"]] == ["free", "device"]  # hers to take back
    stranger.claim(0)
    net.run()
    assert stranger.session.only_seat is None and "not free" in stranger.refusals[-1]
    again.claim(0)
    net.run()
    assert again.session.only_seat == 0
    assert text(find(panel(shell), "#mg-live-url-0")).endswith("." + key)  # her link is the same
    assert [b for b in find_all(panel(shell), "button") if text(b) == "Copy Ann's link"]


def test_a_capitals_second_duel_is_played_at_the_first_duels_table_with_the_same_links() -> None:
    """Issue 42: the second duel of a capital (M12) keeps the first duel's live table: the same
    room code and links in the console, and the devices still at the table get the new duel
    from the table's page, which opens it by itself (``duel_desk.follow_duel``, run by
    ``live_browser`` after each render), without a new link."""
    from duel_desk import duel_banner, follow_duel

    shell, page, host, first, record = live_console(capital=True)
    dshell, net = duel_table(host, first, record)
    links = [text(find(panel(shell), f"#mg-live-url-{s}")) for s in (0, 1)]
    watch = text(find(panel(shell), "#mg-live-url-watch"))
    ann = join_duel(net, "peer-a", seat_key(links[0]), "")
    bob = join_duel(net, "peer-b", seat_key(links[1]), "")
    fan = join_duel(net, "peer-s", None, "Fan")
    # nothing to follow while the first duel is played
    assert follow_duel(dshell, record["code"]) is None
    play_live(net, dshell, {0: ann, 1: bob}, WHITE_WINS)  # Ann (White, the attacker) wins
    assert CONQUESTS.outcome(dshell.session.match.state).winners == (0,)
    assert follow_duel(dshell, record["code"]) is None  # the console has not taken it yet
    assert page.duel_desk.poll()
    s = shell.session
    assert s.match.state.inv.duel_wins == 1 and s.match.log[-1].startswith("da:conquests@live:")
    tie = page.duel_desk.tie()
    assert tie["mode"] == "live" and tie["slot"] != first["slot"] and tie["table_from"] == first["slot"]
    # the console: the same table under the second duel's slot, the same links, said so
    second = json.loads(host.load_pref(TABLE_KEY + tie["slot"]))
    assert (second["code"], second["password"], second["key"]) == (record["code"], record["password"], record["key"])
    assert host.load_pref(TABLE_KEY + first["slot"]) == ""  # the first duel's page cannot reopen it
    box = panel(shell)
    assert "Duel (second game)" in text(box) and find(box, "#mg-live-code").children == [record["code"]]
    assert [text(find(box, f"#mg-live-url-{s}")) for s in (0, 1)] == links
    assert text(find(box, "#mg-live-url-watch")) == watch
    assert "same links" in text(find(box, "#mg-live-same"))
    assert find_all(box, "#mg-live-wait") == []  # the table's key is the first table's: links at once
    page.after_render()
    assert len(host.opened) == 1  # set up by itself, nothing opened: the table's tab runs it
    # the table's page follows: the second duel in place of the first, at the same table
    slot = follow_duel(dshell, record["code"])
    assert slot is not None and dshell.session.slot_id == tie["slot"] and host.query == f"?slot={tie['slot']}"
    assert dshell.session.match.log == [] and "same links" in dshell.message[1]
    assert "Duel (second game)" in text(duel_banner(host, dshell.session))
    assert follow_duel(dshell, record["code"]) is None  # once
    net.table.seating.sync_session()  # what live_browser's after_render runs next
    net.table.sync()
    net.run()
    # the devices still at the table: the second duel, their seats kept, no new link
    for guest, seat in ((ann, 0), (bob, 1), (fan, None)):
        assert guest.session.match.log == [] and guest.session.only_seat == seat
        assert guest.session.match.options["title"].startswith("Duel (second game)")
    net.table.seating.save()
    assert json.loads(host.load_pref(TABLE_KEY + tie["slot"]))["code"] == record["code"]
    # Ann wins again on her device: the console takes it and Bob's capital falls (M13)
    play_live(net, dshell, {0: ann, 1: bob}, WHITE_WINS)
    assert host.store.open(tie["slot"])["log"] == list(WHITE_WINS)
    assert page.duel_desk.poll()
    assert s.match.state.phase in ("turn", "over") and 1 not in s.match.state.owner
    assert sum(x.startswith("da:conquests@live:") for x in s.match.log) == 2
    assert follow_duel(dshell, record["code"]) is None  # no third duel


def test_a_capitals_second_duel_gets_a_table_of_its_own_when_the_first_one_is_gone() -> None:
    """The same table only where it is still stored for the same two players; else a new
    table, whose links wait for its own key, as a first duel's do."""
    shell, page, host = console(capital=True)
    fire(panel(shell), "#mg-duel-live")
    page.after_render()
    first = page.duel_desk.tie()
    old = json.loads(host.load_pref(TABLE_KEY + first["slot"]))
    host.save_pref(TABLE_KEY + first["slot"], "")  # e.g. this browser's storage was cleared
    play_in_other_tab(host, first["slot"])  # Ann wins (a scripted end keeps this short)
    assert page.duel_desk.poll() and shell.session.match.state.inv.duel_wins == 1
    tie = page.duel_desk.tie()
    assert tie["mode"] == "live" and tie["slot"] != first["slot"] and "table_from" not in tie
    record = json.loads(host.load_pref(TABLE_KEY + tie["slot"]))
    assert [(d["name"], d["seat"]) for d in record["devices"]] == [("Ann", 0), ("Bob", 1)]
    assert record["code"] != old["code"]
    box = panel(shell)
    assert "Duel (second game)" in text(box) and "Open the duel's table (second game)" in text(box)
    assert find(box, "#mg-live-wait") is not None and find_all(box, "#mg-live-same") == []


def test_the_audience_can_be_a_live_table_to_watch_only() -> None:
    shell, page, host = console()
    net = Net(shell, host)
    net.table.keep_all()  # the console's "Audience on their own devices"
    fan = net.join("peer-s", MetagamePage, "Fan", 0)  # asks for Ann's seat: not free
    assert fan.session.spectator and fan.session.only_seat is None and net.table.seating.free_seats() == []
    assert fan.session.match.log == shell.session.match.log
    fan.claim(1)
    fan._send({"t": "act", "step": len(shell.session.match.log), "action": "da"})
    net.run()
    assert "not free" in fan.refusals[-2] and "spectators cannot play" in fan.refusals[-1]
    # the spectator's console has no controls and no duel panel; it follows the host's steps
    trees = fan.shell.page.render(fan.session.view())
    assert not [b for t in trees.values() for b in find_all(t, "button")]
    assert not [n for n in find_all(trees["mg-side"], "section") if n.attrs.get("id") == "mg-duel"]
    assert shell.play(Duel("a"))
    net.table.sync()
    net.run()
    assert fan.session.match.log == shell.session.match.log and fan.session.match.log[-1] == "da"


def test_a_drawn_live_duel_played_again_stays_at_the_same_table_with_the_same_links() -> None:
    from duel_desk import DRAWN, duel_banner

    shell, page, host, tie, record = live_console()
    dshell, net = duel_table(host, tie, record)
    ann = join_duel(net, "peer-a", record["devices"][0]["token"], "")
    bob = join_duel(net, "peer-b", record["devices"][1]["token"], "")
    links = [text(find(panel(shell), f"#mg-live-url-{s}")) for s in (0, 1)]
    # the duel's page plays a draw (a scripted position at its 199th quiet ply, as a position link would)
    save = host.store.open(tie["slot"])
    duel = Match(save["game"], {**save["options"], "position": "5g/6/6/6/6/G5 - w 199 1"})
    dshell.open(duel, host.store.get(tie["slot"]))
    net.table.seating.sync_session()  # what live_browser's after_render runs after every render
    net.table.sync()
    net.run()
    assert ann.shell.play(CONQUESTS.parse_action("a1b1")), ann.shell.message
    net.run()
    assert CONQUESTS.outcome(dshell.session.match.state).winners == ()
    assert not page.duel_desk.poll() and text(find(panel(shell), "#mg-duel-note")) == DRAWN
    # issue 39: said where the host looks: the status bar and the toast, the panel brought into view
    trees = render_all(shell)
    assert DRAWN in text(trees["shell-bar"]) and "record the winner" not in text(trees["shell-bar"])
    assert shell.message == ("error", DRAWN)
    page.after_render()
    assert host.revealed[-1] == "mg-duel"
    # the table's page plays it again: a new slot, the same table, the guests on the new game
    fire(duel_banner(host, dshell.session, dshell), "#shell-duel-again")
    new = dshell.session.slot_id
    assert new != tie["slot"] and json.loads(host.load_pref(TABLE_KEY + new))["code"] == record["code"]
    net.table.seating.sync_session()
    net.table.sync()
    net.run()
    assert ann.session.match.log == [] == bob.session.match.log
    assert (ann.session.only_seat, bob.session.only_seat) == (0, 1)
    page.duel_desk.poll()
    assert page.duel_desk.tie()["slot"] == new
    assert [text(find(panel(shell), f"#mg-live-url-{s}")) for s in (0, 1)] == links


def test_seat_links_parse_and_a_bad_seat_key_is_not_a_join_link() -> None:
    from live import join_fragment, seat_fragment

    key = device_token()
    assert parse_join_fragment(seat_fragment("ABCDEFGH", "p" * 22, HOST_KEY, key)) == ("ABCDEFGH", "p" * 22, HOST_KEY)
    assert parse_seat_key(seat_fragment("ABCDEFGH", "p" * 22, HOST_KEY, key)) == key
    assert parse_seat_key(join_fragment("ABCDEFGH", "p" * 22, HOST_KEY)) is None  # the spectators' link
    for bad in ("", "short", "k" * 65, "has space" + "k" * 16, "<b>" + "k" * 16, key + ".more"):
        frag = join_fragment("ABCDEFGH", "p" * 22, HOST_KEY) + "." + bad
        assert parse_join_fragment(frag) is None and parse_seat_key(frag) is None, bad


def test_the_console_offers_one_way_to_the_duel_s_table() -> None:
    """Issue 36: "Play live" opens the duel's table in a new tab by itself, so the panel
    offers no second way to open it (a second tab of the table would only show the game):
    it says the table is opening, then open in its tab (its tab holds the table's lock, as
    the page asks the browser); the link to open it is back once no tab runs the table."""
    from duel_desk import OPENING_MS
    from live import table_lock

    shell, page, host, tie, record = live_console()
    desk = page.duel_desk
    assert host.opened == [f"../conquests/?slot={tie['slot']}"]
    box = panel(shell)
    assert find_all(box, "#mg-duel-open") == []  # no second "Open the duel's table"
    assert "opening in a new tab of this browser" in text(find(box, "#mg-duel-table"))
    # the page asks the browser whether a tab holds the table's lock, by the table's room code
    asked: list[str] = []
    desk.ask_table = asked.append
    page.after_render()
    assert asked == [record["code"]] and table_lock(asked[0]).endswith(record["code"])
    desk.tables_open[record["code"]] = True
    box = panel(shell)
    assert find_all(box, "#mg-duel-open") == []
    assert "open in its own tab of this browser: switch to that tab" in text(find(box, "#mg-duel-table"))
    # the table's tab is closed: once the opening is over, the one way to open it again
    desk.tables_open[record["code"]] = False
    assert find_all(panel(shell), "#mg-duel-open") == []  # still starting, just after the click
    host.advance(OPENING_MS)
    box = panel(shell)
    assert find_all(box, "#mg-duel-table") == []
    assert find(box, "#mg-duel-open").attrs["href"] == f"../conquests/?slot={tie['slot']}"
    # the panel is drawn again by itself when the opening time is over
    assert any(fn == host.rerender for _, fn in host.timers)


def test_a_campaign_duels_seats_are_never_handed_to_the_computer() -> None:
    """Issue 39: the duel's table offers no Computer for its players' seats, and refuses one."""
    from live import LiveError, render_host_panel

    shell, page, host, tie, record = live_console()
    dshell, net = duel_table(host, tie, record)
    tree = render_host_panel(net.table, "https://example.invalid/#live=x", None, lambda *a: None, ["easy", "hard"])
    options = [text(o) for o in find_all(tree, "option")]
    assert options and not [o for o in options if o.startswith("Computer")]
    for seat in (0, 1):
        try:
            net.table.make_bot(seat, "easy")
        except LiveError as exc:
            assert exc.message.startswith("M12:")
        else:
            raise AssertionError("a duel's seat was given to the computer")
    assert not any(x.get("bot") for x in dshell.session.match.options["seats"])
