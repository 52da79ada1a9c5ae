"""The Metagame from every player's phone (issue 39), in CPython: a live campaign table where
each player makes their own seat's choices on their own device and the host referees (M3).

The devices are :class:`test_remote.WireDevice`: they hold only the ui trees the host's page
sent them and answer with events by handler, map picks and form submits, as the guest page
does in the browser. The browser tests keep the glue (a 3-player campaign over the local
relay with two 360 px phones, ``tests/browser/test_metagame_live_page.py``).
"""
from __future__ import annotations

import json
from typing import Any

from live_kit import Wire, WireDevice, attrs, tap, text_of
from metagame import MetagamePage
from metagame_table import campaign, play, seat_devices
from page_host import render_all
from ui import fire, text

from conquest.games.metagame import GAME
from conquest.games.metagame.actions import Invade, Slices, parse_action
from conquest.rng import Rng


def table(n: int = 3, seated: tuple[int, ...] | None = None) -> tuple[Any, Wire, dict[int, WireDevice]]:
    """A campaign with a live table; each seat of ``seated`` taken by its player's device."""
    shell, _, host = campaign(n)
    w, devices = seat_devices(shell, host, n if seated is None else seated)
    return shell, w, devices


def sync(w: Wire) -> None:
    w.host.run_timers()
    w.table.sync()
    w.run()


def said(d: WireDevice, *words: str) -> bool:
    """Whether the device was sent all these words in one update (a notice fades later)."""
    return any(all(w in json.dumps(m) for w in words) for m in d.inbox if m["t"] == "ui")


def has_id(d: WireDevice, cid: str, ident: str) -> bool:
    return f'"id": "{ident}"' in json.dumps(d.containers.get(cid, []))


def submit_fill(w: Wire, d: WireDevice) -> None:
    """"Fill for me", then "Assign these slices", on the device."""
    tap(w, d, "mg-side", lambda k, n: attrs(n).get("id") == "mg-fill")
    key, _ = d.find("mg-side", lambda k, n: k.endswith("/submit") and attrs(n).get("id") == "mg-slice-form")
    w.send(d.peer, {"t": "ev", "k": key, "type": "submit", "f": {}})


def to_invasion(shell: Any, w: Wire, devices: dict[int, WireDevice]) -> None:
    """Capitals and turns picked on the devices until an invasion is declared."""
    s = shell.session
    rng = Rng(7)
    while s.match.state.phase in ("capital", "turn"):
        st = s.match.state
        legal = GAME.legal_actions(st)
        inv = [a for a in legal if isinstance(a, Invade)]
        picks = [a for a in legal if hasattr(a, "t")]  # a claim or a capital, never a pass
        act = inv[0] if inv else picks[rng.below(len(picks))]
        seat = s.acting_seat()
        w.send(devices[seat].peer, {"t": "pick", "i": act.t})
        assert s.match.log[-1] == f"{act}@p", devices[seat].text("shell-toast")


# -- the seat rules ----------------------------------------------------------------------------------
def test_the_host_is_a_referee_every_seat_is_free_for_its_player() -> None:
    shell, w, devices = table(3, seated=())
    assert w.table.seating.kept() == set() and w.table.seating.free_seats() == [0, 1, 2]  # M3: a role, not a seat
    bob = w.join("bob")
    tap(w, bob, "live-panel", lambda k, n: attrs(n).get("data-take") == "1")
    assert shell.session.remote == {1}


def test_a_player_chooses_only_for_their_own_seat_and_only_at_their_own_decision() -> None:
    shell, w, d = table(3)
    s = shell.session
    ann, bob = d[0], d[1]
    # Ann's capital: only Ann's device offers a choice; Bob's map tap is refused in words
    assert not has_id(bob, "mg-side", "mg-choose-t") and has_id(ann, "mg-side", "mg-choose-t")
    cand = GAME.legal_actions(s.match.state)[0].t
    w.send("bob", {"t": "pick", "i": cand})
    assert s.match.log == [] and said(bob, "Ann's choice now", "(M3)")
    # the loopback path the table checks itself (a device that skipped its page's guard)
    w.devices.pages["bob"].guest._send({"t": "act", "step": 0, "action": f"k{cand}"})
    w.run()
    assert s.match.log == [] and said(bob, "It is Ann's move, not Bob's (M3)")
    # too close to another capital: the engine refuses on Bob's own device, in words (M4)
    w.send("ann", {"t": "pick", "i": cand})
    assert s.match.log == [f"k{cand}@p"]
    near = next(t for t in range(100) if s.match.state.owner[t] < 0 and s.match.state.board.dist[cand][t] == 1)
    w.send("bob", {"t": "pick", "i": near})
    assert len(s.match.log) == 1 and said(bob, "M4")
    # the log says who made the choice
    assert "on their own device" in GAME.describe_action(s.match.states[0], parse_action(s.match.log[0]))


def test_the_host_may_make_any_choice_and_the_log_says_it_was_the_host() -> None:
    shell, w, d = table(3)
    s = shell.session
    cand = GAME.legal_actions(s.match.state)[0]
    assert not shell.play(cand) and "(M3)" in shell.message[1]  # a click by mistake changes nothing
    side = render_all(shell)["mg-side"]
    assert "Ann chooses on their own device" in text(side)
    fire(side, "#mg-take-over")  # "Choose for Ann here"
    assert not s.locked()
    assert shell.play(cand), shell.message
    assert s.match.log == [f"{cand}@h"]
    assert "by the host for them (M3)" in GAME.describe_action(s.match.states[0], parse_action(s.match.log[0]))
    assert s.locked() and s.override is None  # the next choice is Bob's, on his device, again
    sync(w)
    assert said(d[1], "Ann picks", "by the host for them (M3)")  # every device's log says so


def test_a_seat_whose_device_is_away_is_played_from_the_console() -> None:
    shell, w, d = table(3, seated=(1, 2))
    s = shell.session
    # Ann has no device: the console plays her seat as before, unmarked
    assert not s.locked()
    act = GAME.legal_actions(s.match.state)[0]
    assert shell.play(act) and s.match.log == [str(act)]
    # Bob's device drops: his seat is played from the console until it is back
    w.table.disconnected(next(p for p, t in w.table.seating.peers.items() if w.table.seating.devices[t].seat == 1))
    w.table.seating.sync_session()
    assert 1 not in s.remote and not s.locked()


def test_the_spin_and_the_duel_result_are_the_hosts_on_every_device() -> None:
    shell, w, d = table(3)
    s = shell.session
    to_invasion(shell, w, d)
    inv = s.match.state.inv
    att, dfd = d[inv.attacker], d[inv.defender]
    while s.match.state.phase in ("sacrifice", "block"):
        seat = s.acting_seat()
        key, _ = d[seat].find("mg-side", lambda k, n: k.endswith("/click") and "secondary" in attrs(n).get("class", "")
                              and attrs(n).get("id") != "mg-take-over")
        w.send(d[seat].peer, {"t": "ev", "k": key, "type": "click"})  # no sacrifice / do not block
    # both sides set their slices at once: the defender first, held until the attacker's
    n = len(s.match.log)
    assert s.match.state.phase == "slices_a" and has_id(dfd, "mg-side", "mg-slice-form")
    assert f"{s.seat_name(inv.defender)}'s slices" in dfd.text("mg-side")
    submit_fill(w, dfd)
    assert len(s.match.log) == n and inv.defender in s.held
    assert "Your slices are in" in dfd.text("mg-side")
    assert "assigned their slices ahead" in text(render_all(shell)["mg-side"])
    assert not has_id(dfd, "mg-side", "mg-spin")
    submit_fill(w, att)
    log = s.match.log
    assert [GAME.parse_action(t).by for t in log[n:]] == ["p", "p"] and s.match.state.phase == "spin"
    assert isinstance(GAME.parse_action(log[-1]), Slices) and not s.held
    # the spin: nobody's device offers it; a device that sends one is refused (M10)
    sync(w)
    for dev in d.values():
        assert not has_id(dev, "mg-side", "mg-spin")
    w.devices.pages[att.peer].guest._send({"t": "act", "step": len(log), "action": "spin"})
    w.run()
    assert s.match.state.phase == "spin" and said(att, "M10: the wheel must be spun by the host")
    assert not w.devices.pages[att.peer].shell.play("spin") and "M10" in w.devices.pages[att.peer].shell.message[1]
    # the host seals, then spins; every device shows the commitment first, then the same slice
    render_all(shell)  # the console draws the spin button and seals the draws
    sync(w)
    seal = s.match.draws.seals[-1].commitment
    for dev in d.values():
        assert seal[:8] in dev.text("mg-side"), dev.text("mg-side")[:300]
    assert shell.play("spin"), shell.message
    sync(w)
    k = GAME.parse_action(s.match.log[-1]).k
    turns = {spinner_style(dev) for dev in d.values()} | {spinner_style_of(render_all(shell)["mg-side"])}
    assert len(turns) == 1 and "rotate(" in turns.pop()  # the same turn to the same slice on every screen
    assert f"slice {k + 1} of" in att.text("shell-log-box") or f"slice {k + 1} of" in att.text("mg-side")
    # the duel's result: the host's (M12), never a device's
    while s.match.state.phase in ("respin_a", "respin_d"):
        w.send(d[s.acting_seat()].peer, {"t": "ev", "k": d[s.acting_seat()].find(
            "mg-side", lambda k, n: attrs(n).get("id") == "mg-keep")[0], "type": "click"})
    assert s.match.state.phase == "duel"
    for dev in d.values():
        assert not has_id(dev, "mg-side", "mg-won-a") and not has_id(dev, "mg-side", "mg-duel-here")
    w.devices.pages[att.peer].guest._send({"t": "act", "step": len(s.match.log), "action": "da"})
    w.run()
    assert s.match.state.phase == "duel" and said(att, "M12: the host records the duel")


def test_a_spending_step_is_asked_on_the_players_own_device() -> None:
    """A device shows no dialog: the sacrifice's question is asked on its page."""
    shell, w, d = table(3)
    s = shell.session
    to_invasion(shell, w, d)
    assert s.match.state.phase == "sacrifice" and len(GAME.legal_actions(s.match.state)) > 1
    sac = GAME.legal_actions(s.match.state)[1]
    att = d[s.acting_seat()]
    n = len(s.match.log)
    w.send(att.peer, {"t": "pick", "i": sac.ts[0]})
    tap(w, att, "mg-side", lambda k, node: text_of(node).startswith("Sacrifice 1 selected"))
    assert len(s.match.log) == n and "Go on?" in att.text("mg-side")
    tap(w, att, "mg-side", lambda k, node: attrs(node).get("id") == "mg-confirm-yes")
    assert s.match.log[-1] == f"s{sac.ts[0]}@p"


def spinner_style(d: WireDevice) -> str:
    return str(attrs(find_node(d.containers["mg-side"], "mg-spinner")).get("style", ""))


def spinner_style_of(tree: Any) -> str:
    from ui import find

    return str(find(tree, "#mg-spinner").attrs.get("style", ""))


def test_undo_drops_a_choice_made_ahead() -> None:
    shell, w, d = table(3)
    s = shell.session
    to_invasion(shell, w, d)
    while s.match.state.phase in ("sacrifice", "block"):
        seat = s.acting_seat()
        s.take_over(seat)
        assert shell.play(GAME.legal_actions(s.match.state)[0])
    sync(w)
    dfd = d[s.match.state.inv.defender]
    submit_fill(w, dfd)
    assert s.held
    n = len(s.match.log)
    shell.bar.undo()  # the host takes back the block (or the sacrifice): the held slices go with it
    assert len(s.match.log) == n - 1 and not s.held


def test_a_four_player_campaign_is_played_to_its_end_from_the_players_devices() -> None:
    """Issue 39's "done when": every choice made on its player's own device, by taps on the
    trees it was sent; the host only spins and records each duel's result."""
    tally, shell = play(players=4, seed=1, max_steps=1500)
    s = shell.session
    assert tally.over and GAME.outcome(s.match.state) is not None
    marks = [getattr(GAME.parse_action(t), "by", None) for t in s.match.log]
    hosts = [t for t, m in zip(s.match.log, marks, strict=True) if m is None or m == ""]
    assert all(t == "spin" or t.startswith(("r", "d")) for t in hosts), hosts  # the spin, its draw, the duel
    assert "h" not in marks and tally.invasions > 0
    assert tally.host_inputs == sum(1 for t in s.match.log if t == "spin" or t.startswith("d"))


def test_the_host_corrects_the_campaign_while_a_player_is_choosing_on_their_device() -> None:
    """M17: a correction is the host's own action: no seat's device waits for it."""
    shell, w, d = table(3)
    s = shell.session
    assert s.locked()  # Ann's capital, on Ann's device
    assert shell.play("!t1b=2"), shell.message
    assert s.match.log == ["!t1b=2"] and s.match.state.block[1] == 2 and s.locked()


def test_each_duelist_finds_their_own_link_to_a_live_duel_on_their_device() -> None:
    """A built-in duel played live (M12): the console sets it up as before, and each of the
    two players' devices at the campaign table shows that player's own seat link."""
    from live import TABLE_KEY
    from live_kit import HOST_KEY, console, panel, seat_wire

    shell, page, host = console()
    w, d = seat_wire(shell, host, MetagamePage, {0: "ann", 1: "bob"}, host_page=page)
    watcher = w.join("fan")
    fire(panel(shell), "#mg-duel-live")
    page.after_render()
    t = page.duel_desk.tie()
    record = json.loads(host.load_pref(TABLE_KEY + t["slot"]))
    record["key"] = {"private": "{}", "public": HOST_KEY}  # as the duel's page stores it once open
    host.save_pref(TABLE_KEY + t["slot"], json.dumps(record))
    render_all(shell)
    page.after_render()  # the links changed: every device's page is drawn again
    w.run()
    links = {}
    for i, dev in d.items():
        assert "Your duel" in dev.text("mg-side"), dev.text("mg-side")[:200]
        links[i] = find_node(dev.containers["mg-side"], "mg-my-duel")["a"]["href"]
    seat_urls = {who: url for _, who, url in page.duel_desk.live_links(t)[1]}
    players = shell.session.match.state.players
    assert links == {0: seat_urls[players[0].name], 1: seat_urls[players[1].name]} and links[0] != links[1]
    assert "Your duel" not in watcher.text("mg-side")  # a watcher has no seat link


def find_node(kids: list[Any], ident: str) -> dict[str, Any]:
    for node in kids:
        if isinstance(node, dict):
            if attrs(node).get("id") == ident:
                return node
            try:
                return find_node(node.get("c", []), ident)
            except LookupError:
                pass
    raise LookupError(ident)


def test_a_choice_made_ahead_survives_a_reload_of_the_hosts_page() -> None:
    """The table's record keeps the defender's held slices; reopened, it holds them again
    (checked anew), and a record of another step holds nothing."""
    from live import Table

    shell, w, d = table(3)
    s = shell.session
    to_invasion(shell, w, d)
    while s.match.state.phase in ("sacrifice", "block"):
        s.take_over(s.acting_seat())
        assert shell.play(GAME.legal_actions(s.match.state)[0])
    sync(w)
    defender = s.match.state.inv.defender
    submit_fill(w, d[defender])
    record = w.table.seating.to_json()
    assert list(record["held"]) == [str(defender)]
    s.held.clear()  # the page reloads: the session comes back from the save, the table from its record
    again = Table(shell, lambda peer, text: None, record["code"], record["password"])
    again.seating.restore(json.loads(json.dumps(record)))
    assert list(s.held) == [defender] and isinstance(s.held[defender][1], Slices)
    s.held.clear()
    again.seating.restore({**record, "held": {str(defender): [0, "w9,9,9"]}})  # another step's: dropped
    again.seating.restore({**record, "held": {"x": "<b>", str(defender): [len(s.match.log), "w99"]}})  # bad: dropped
    assert not s.held
