"""The console's duel panel (issue 14) in CPython: set up, watched, taken, on the shell's fake host.

The duel is played on its own page's slot; here the "other tab" is simulated by replaying
the duel slot's save with one move and writing it back, exactly what the duel page's
autosave does (``live_kit.play_in_other_tab``). Positions one move from the end keep the
duels short.
"""
from __future__ import annotations

from conquests import ConquestsPage
from duel_desk import TIES_KEY, duel_banner, load_ties, site_base
from live_kit import console, panel, play_in_other_tab
from metagame import MetagamePage
from page_host import FakeHost, make_page, render_all
from test_metagame_duels import ANN, BOB, WHITE_MATES, campaign
from ui import find, find_all, fire, text

from conquest.games.metagame import GAME
from conquest.savecode import make_fragment
from conquest.session import Match


def by_hand(shell):  # noqa: ANN001, ANN201
    """The console's own buttons for a winner typed by the host."""
    return [b for b in find_all(render_all(shell)["mg-side"], "button") if text(b).endswith(") won")]


def test_the_panel_offers_the_duel_here_and_by_link_and_keeps_typing_as_the_fallback() -> None:
    shell, page, host = console()
    box = panel(shell)
    assert "Duel: The Game of Conquests" in text(box)
    assert find(box, "#mg-duel-here") and find(box, "#mg-duel-link")
    assert "entered by hand" in text(box)
    assert len(by_hand(shell)) == 2  # typing the winner stays


def test_hot_seat_duel_opens_with_names_and_colours_and_its_end_is_taken_by_itself() -> None:
    shell, page, host = console()
    fire(panel(shell), "#mg-duel-here")
    tie = page.duel_desk.tie()
    assert tie["mode"] == "here" and tie["game"] == "conquests" and tie["campaign"] == shell.session.slot_id
    href = find(panel(shell), "#mg-duel-open").attrs["href"]
    assert href == f"../conquests/?slot={tie['slot']}"
    # the duel page opens that slot with the two players' names and colours
    dshell, dpage, _ = make_page(ConquestsPage, host)
    dslot = host.store.get(tie["slot"])
    dshell.open(Match("conquests", host.store.open(tie["slot"])["options"]), dslot)
    seats = dshell.session.seats()
    assert [(x.name, x.colour) for x in seats] == [(ANN["name"], ANN["colour"]), (BOB["name"], BOB["colour"])]
    assert dslot.name == "Duel: Ann vs Bob for T10, turn 1"
    banner = duel_banner(host, dshell.session)
    assert "Duel: Ann vs Bob for T10" in text(banner) and "hidden" not in banner.attrs
    assert find(banner, "#shell-duel-back").attrs["href"] == f"../metagame/?slot={shell.session.slot_id}"
    # nothing to take while the duel goes on
    assert not page.duel_desk.poll() and shell.session.match.state.phase == "duel"
    play_in_other_tab(host, tie["slot"])
    assert page.duel_desk.poll()
    m = shell.session.match
    assert m.log[-1].startswith("da:conquests:a:") and m.state.owner[10] == 0
    assert "Ann won the duel" in shell.message[1]
    assert page.duel_desk.tie() is None  # the tie belonged to the step before
    assert host.store.open(shell.session.slot_id)["log"] == m.log  # autosaved with the duel in it
    words = [line["words"] for line in shell.log.lines(len(m.log) - 1, len(m.log))]
    assert "played here" in words[0] and "replayed and checked" in words[0]
    dshell.open(Match("conquests", host.store.open(tie["slot"])["options"] | {"position": WHITE_MATES}, ["f4a4"]), dslot)
    assert "The duel is over" in text(duel_banner(host, dshell.session))
    dshell.open(Match("conquests", {}), None)
    assert "hidden" in duel_banner(host, dshell.session).attrs
    # an undo of the result does not take the same duel again: the host sets it up anew
    shell.bar.undo()
    assert shell.session.match.state.phase == "duel"
    assert page.duel_desk.tie() is None and not page.duel_desk.poll()
    assert find(panel(shell), "#mg-duel-here")
    fire(panel(shell), "#mg-duel-here")
    assert page.duel_desk.tie()["slot"] != tie["slot"]


def test_capital_second_duel_is_set_up_by_itself() -> None:
    shell, page, host = console(capital=True)
    fire(panel(shell), "#mg-duel-here")
    first = page.duel_desk.tie()["slot"]
    play_in_other_tab(host, first)
    assert page.duel_desk.poll()
    s = shell.session
    assert s.match.state.phase == "duel" and s.match.state.inv.duel_wins == 1
    tie = page.duel_desk.tie()
    assert tie["slot"] != first and tie["wins"] == 1
    box = panel(shell)
    assert "Duel (second game)" in text(box) and find(box, "#mg-duel-open")
    assert "second duel" in shell.message[1]
    play_in_other_tab(host, tie["slot"])
    assert page.duel_desk.poll()
    st = s.match.state
    assert st.phase in ("turn", "over") and 1 not in st.owner
    assert sum(x.startswith("da:conquests:") for x in s.match.log) == 2


def test_by_link_the_host_pastes_the_finished_link() -> None:
    shell, page, host = console()
    fire(panel(shell), "#mg-duel-link")
    box = panel(shell)
    url = find(box, "#mg-duel-url").attrs["value"]
    assert url.startswith(site_base(host.page_url()) + "conquests/?as=0#h=")
    assert "Send this link to Ann" in text(box)
    # the players play on their own devices; the last one sends the finished link back
    save = host.store.open(page.duel_desk.tie()["slot"])
    duel = Match("conquests", {**save["options"], "position": WHITE_MATES})
    duel.play("f4a4")
    link = "https://example.org/play/conquests/#" + make_fragment(duel.save().to_json())
    # garbage first: a clear message, nothing changes
    fire(panel(shell), "#mg-duel-paste-form", "submit", fields={"link": "#h=c1.broken!"})
    assert shell.message[0] == "error" and shell.session.match.state.phase == "duel"
    fire(panel(shell), "#mg-duel-paste-form", "submit", fields={"link": link})
    assert shell.session.match.state.owner[10] == 0


def test_a_duel_with_other_seats_is_not_taken_and_the_panel_says_why() -> None:
    shell, page, host = console()
    fire(panel(shell), "#mg-duel-here")
    slot = page.duel_desk.tie()["slot"]
    save = host.store.open(slot)
    other = {**save["options"], "seats": [ANN, {**BOB, "bot": "easy"}], "position": WHITE_MATES}
    duel = Match("conquests", other)
    duel.play("f4a4")
    host.store.autosave(slot, duel.save().to_json(), host.now())
    assert not page.duel_desk.poll()
    note = find(panel(shell), "#mg-duel-note")
    assert "Ann and Bob" in text(note)
    assert shell.session.match.state.phase == "duel"
    # the host falls back to typing the winner; the log says so
    by_hand(shell)[0].on["click"](None)
    if shell.session.match.state.phase == "duel":  # a confirm step may come first
        buttons = find_all(render_all(shell)["mg-side"], "button")
        confirm = [b for b in buttons if "Confirm" in text(b) or "Yes" in text(b)]
        if confirm:
            confirm[0].on["click"](None)
    m = shell.session.match
    assert m.log[-1] == "da"
    assert shell.log.lines(len(m.log) - 1, len(m.log))[0]["words"].startswith("Duel result entered by hand")


def test_a_stale_tie_after_undo_is_ignored_and_damaged_ties_are_empty() -> None:
    shell, page, host = console()
    fire(panel(shell), "#mg-duel-here")
    assert page.duel_desk.tie() is not None
    shell.session.match._push("dd")  # another step: the tie belongs to an earlier one
    assert page.duel_desk.tie() is None
    host.backend.set(TIES_KEY, "{not json")
    assert load_ties(host) == {}
    host.backend.set(TIES_KEY, "[1, 2]")
    assert load_ties(host) == {}


def test_by_link_the_link_plays_for_one_side_and_offers_the_link_for_the_other() -> None:
    shell, page, host = console()
    fire(panel(shell), "#mg-duel-link")
    url = find(panel(shell), "#mg-duel-url").attrs["value"]
    assert "/conquests/?as=0#h=" in url and "Send this link to Ann, who moves first" in text(panel(shell))
    slot = page.duel_desk.tie()["slot"]
    save = host.store.open(slot)
    start = Match("conquests", save["options"])
    # Bob's copy (as=1) refuses White's move, says why, and changes nothing
    bshell, _, _ = make_page(ConquestsPage, FakeHost())
    bshell.open(Match("conquests", save["options"]), None)
    bshell.session.only_seat = 1
    assert not bshell.play("b1b2")
    assert bshell.message[0] == "error" and "This copy plays for Bob; it is Ann's move" in bshell.message[1]
    assert bshell.session.match.log == []
    # Ann's copy plays, then offers the link made for Bob; Bob cannot take Ann's move back
    ashell, _, _ = make_page(ConquestsPage, FakeHost())
    ashell.open(Match("conquests", save["options"]), None)
    ashell.session.only_seat = 0
    legal = start.game.legal_actions(start.state)
    assert ashell.play(legal[0])
    assert "It is Bob's move: send Bob the link" in text(duel_banner(ashell.host, ashell.session))
    assert "This copy plays for Bob. It is Ann's move" in text(duel_banner(bshell.host, bshell.session))
    links = render_all(ashell)["shell-links"]
    assert "Copy the link for Bob" in text(find(links, "#shell-copy-seat"))
    bob_url = find(links, "#shell-copy-seat").attrs["data-copy"]
    assert "?as=1#h=" in bob_url
    bshell.open(Match("conquests", ashell.session.match.options, ashell.session.match.log), None)
    bshell.session.only_seat = 1
    bshell.bar.undo()
    assert len(bshell.session.match.log) == 1 and "only their own last step" in bshell.message[1]
    ashell.bar.undo()
    assert ashell.session.match.log == []


def test_a_game_with_secret_choices_is_not_offered_by_link() -> None:
    from test_metagame_duels import GAMES  # conquests, reign, Chess

    shell, page, host = make_page(MetagamePage)
    m = campaign()
    # the same invasion, the wheel on To Reign Supreme (game 1)
    log = list(m.log)
    layout = m.state.inv.layout
    start = sum(n for g, n in layout if g < 1)
    k = next(i for i, x in enumerate(log) if x.startswith("r"))
    log = log[:k] + [f"r{start} " + log[k].split(" ", 1)[1]] + log[k + 1 :]
    shell.open(Match(GAME, m.options, log), None)
    assert GAMES[1] == "reign" and shell.session.match.state.phase == "duel"
    box = panel(shell)
    assert find(box, "#mg-duel-here") and not find_all(box, "#mg-duel-link")
    assert "secret choices" in text(box)
