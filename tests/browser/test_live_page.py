"""Live play across devices in real browsers (issue 22): three Chromium contexts (a host,
a guest, a phone-sized guest) at one table over WebRTC, signalled through a real Nostr
relay on 127.0.0.1 (``tools/relay.py``). Nothing leaves the machine: the pages take the
relay from the live settings and no STUN server is asked (``iceServers: []``). The devices,
the table and the seats are ``live_kit``'s, shared with every live test.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from conquest.core import get_game
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match, replay
from tests.browser.live_kit import (
    device,
    end_checks,
    guest_ready,
    host_save,
    no_page_errors,
    ready,
    sit,
)
from tests.browser.live_kit import open_table as open_live_table

WORLD = get_game("world")
SHOTS = Path(tempfile.gettempdir()) / "conquest-shots"
SHOTS.mkdir(exist_ok=True)
COLOURS = ("#e69f00", "#56b4e9", "#009e73")


def open_table(host: Any, base_url: str, minutes_old: int = 0) -> str:
    """The host's page opens a World table between Ann, Bob and Cy (midgame) and plays live;
    ``minutes_old``: made that old at once (an ``ageable`` host, ``live_kit.open_table``).
    Returns the join link."""
    return open_live_table(host, base_url + "play/world/#" + midgame(), minutes_old)


def midgame(seed: int = 3) -> str:
    """A host link to a World game between three people with cards in hands (played by
    bots' moves up to a turn where every seat holds a card)."""
    from conquest.bots import run_thinking
    from conquest.games.world.bots import RuleBot

    seats = [{"name": n, "colour": c} for n, c in zip(("Ann", "Bob", "Cy"), COLOURS, strict=True)]
    m = Match(WORLD, {"seats": seats, "order": "fixed", "deal": True}, rng=Rng(seed))
    m.resolve_chance()
    bot = RuleBot(Rng(seed))
    while not (m.state.phase == "attack" and m.state.current == 0 and all(m.state.hand_size(s) for s in range(3))):
        m.play(run_thinking(bot.think(WORLD, m.state)))
        assert m.state.phase != "over"
    return make_fragment(m.save().to_json(), "h")


def act_of(page: Any) -> tuple[str, str]:
    el = page.locator("#wc-panel-inner")
    return str(el.get_attribute("data-act")), str(el.get_attribute("data-step"))


def test_world_live_with_two_guests_one_a_phone(browser: Any, base_url: str, relay: str) -> None:
    hctx, hw = device(browser, base_url, relay)
    g1ctx, g1w = device(browser, base_url, relay)
    g2ctx, g2w = device(browser, base_url, relay, 360, 740)
    host, bob, cy = hw.page, g1w.page, g2w.page
    try:
        join = open_table(host, base_url)
        assert host.locator("#live-qr path").count() == 1 or host.wait_for_selector("#live-qr")
        assert "#live=" in join and host.inner_text("#live-code") in join
        for page, seat, name in ((bob, 1, "Bob"), (cy, 2, "Cy")):
            sit(page, join, name, seat, host)
        host.wait_for_function("() => document.getElementById('live-seats').textContent.includes(\"Cy's device\")")
        # seated, the panel folds to one line above the board (a phone's screen is for the game);
        # opened by a tap, its controls are reachable by taps: every one at least 44 px tall
        cy.wait_for_function("() => !document.getElementById('live-panel-box').open")
        assert "you play Cy" in cy.inner_text("#live-summary")
        assert cy.evaluate("() => document.getElementById('live-summary').getBoundingClientRect().height") >= 44
        cy.click("#live-summary")
        heights = cy.evaluate("() => [...document.querySelectorAll('#live-panel button')].map(b => b.getBoundingClientRect().height)")
        assert heights and min(heights) >= 44, heights
        cy.click("#live-summary")

        # while it is Ann's move, the guests' pages wait (as for a computer's move)
        assert act_of(bob)[0] == "wait" and act_of(cy)[0] == "wait"
        # Ann (the host) ends her turn; Bob's turn starts on Bob's device only
        host.click("#wc-end")
        bob.wait_for_function("() => document.getElementById('wc-panel-inner').dataset.act !== 'wait'", timeout=30_000)
        assert act_of(cy)[0] == "wait"
        # Bob's page reloads mid-turn (a dropped connection): he rejoins at the same step, his seat kept
        step = act_of(bob)[1]
        bob.reload(wait_until="commit")
        guest_ready(bob)
        bob.wait_for_function(f"() => (document.getElementById('wc-panel-inner')||{{dataset:{{}}}}).dataset.step === '{step}'"
                              " && document.getElementById('wc-panel-inner').dataset.act !== 'wait'", timeout=120_000)
        # Bob plays on: trades if he must, places, ends the turn; every device follows
        for _ in range(60):
            act, step = act_of(bob)
            if act == "wait":
                break
            if bob.locator("#wc-end").count():
                bob.click("#wc-end")
            elif bob.locator("#wc-choose-go").count():
                bob.click("#wc-choose-go")
            elif bob.locator("[data-trade]").count():
                bob.locator("[data-trade]").first.click()
            else:
                break
            bob.wait_for_function(f"() => document.getElementById('wc-panel-inner').dataset.step !== '{step}'", timeout=30_000)
        cy.wait_for_function("() => document.getElementById('wc-panel-inner').dataset.act !== 'wait'", timeout=30_000)
        # the host reloads: the table reopens from its storage, the guests find it again, Cy plays
        host.reload(wait_until="commit")
        ready(host)
        host.wait_for_selector("#live-join-url", timeout=60_000)
        step = act_of(cy)[1]
        # the guests find the reopened table by themselves (the host lists them connected again)
        host.wait_for_function("() => { const t = document.getElementById('live-seats').textContent;"
                               " return t.includes(\"Cy's device\") && !t.includes(\"Cy's device (disconnected\"); }",
                               timeout=120_000)
        for _ in range(60):
            if act_of(cy)[0] != "wait":
                for button in ("#wc-end", "#wc-choose-go"):
                    if cy.locator(button).count():
                        cy.click(button)
                        break
                else:
                    cy.wait_for_timeout(1000)
                    continue
                break
            cy.wait_for_timeout(1000)
        host.wait_for_function(f"() => document.getElementById('wc-panel-inner').dataset.step !== '{step}'", timeout=120_000)

        # what each guest received: pages drawn for it (issue 37), never a state or the log to
        # replay; its hand is its own (the CPython tests check each device's trees against its seat)
        states = replay(host_save(host)).states
        for page, seat in ((bob, 1), (cy, 2)):
            received = page.evaluate("() => window.conquestLiveReceived || []")
            kinds = {json.loads(raw).get("t") for raw in received}
            assert kinds <= {"host", "ui", "refused"} and "ui" in kinds, kinds
            n = states[-1].hand_size(seat)
            page.wait_for_function(f"() => document.querySelectorAll('#wc-hand li.wc-card').length === {n}", timeout=30_000)
            stored = page.evaluate("() => JSON.stringify(Object.fromEntries(Object.entries(localStorage)))")
            assert "conquest:slot:" not in stored  # a guest's page never stores the game
        end_checks(hw, g1w, g2w, guests=(g1w, g2w))
    finally:
        for c in (hctx, g1ctx, g2ctx):
            c.close()


def test_a_guest_joins_a_table_opened_five_minutes_ago_on_a_phone(browser: Any, base_url: str, relay: str) -> None:
    """Issue 36: a friend who joins late connects as fast as one who joined at once. The
    host's page makes the offer and its table is five minutes old (its clock moved on): the
    peer library then re-makes its pooled offers, which in Chromium came out empty (no data
    channel, no candidates) and no late guest ever connected. The guest's first screens at
    360 px: "Joining World Conquest …" from the first frame (never the set-up form), then
    the seats in view; the seat takes the name she typed, on every device."""
    hctx, hw = device(browser, base_url, relay, ageable=True)
    gctx, gw = device(browser, base_url, relay, 360, 740)
    host, bea = hw.page, gw.page
    try:
        join = open_table(host, base_url, minutes_old=5)
        assert "/play/world/guest/#live=" in join  # the guest page: no engine (issue 37)
        bea.goto(join, wait_until="domcontentloaded")
        # the first frame: joining, no set-up form
        assert bea.evaluate("() => document.documentElement.dataset.guest") != "ready"
        assert bea.locator("#live-joining").is_visible()
        assert "Joining World Conquest" in bea.inner_text("#live-joining")
        assert not bea.locator("#shell-setup").is_visible()
        guest_ready(bea)
        assert not bea.locator("#shell-setup").is_visible()
        bea.fill("#live-name", "Bea")
        bea.dispatch_event("#live-name", "change")
        try:
            bea.wait_for_selector("button[data-take='1']", timeout=60_000)
        except Exception:
            raise AssertionError(f"Bea: {bea.inner_text('#live-panel')[:300]} / host: "
                                 f"{host.inner_text('#live-panel')[:600]}") from None
        # the host made the offer (its id sorts first): the path that failed on an old table
        ids = (host.evaluate("() => conquestLiveRoom.self"), bea.evaluate("() => conquestLiveRoom.self"))
        assert ids[0] < ids[1], ids
        assert not bea.locator("#live-joining").is_visible()
        # the seats are in view on the phone, not above the screen
        bea.wait_for_function("() => { const r = document.querySelector(\"button[data-take='1']\").getBoundingClientRect();"
                              " return r.top >= 0 && r.bottom <= innerHeight; }", timeout=5_000)
        bea.screenshot(path=str(SHOTS / "live-guest-seats-360.png"))
        bea.click("button[data-take='1']")
        bea.wait_for_function("() => document.getElementById('live-status').textContent.includes('You play Bea')")
        # Bob's seat is Bea's now: in the host's seats, the game's own state and its sentences
        host.wait_for_function("() => document.getElementById('live-seats').textContent.includes('Bea')")
        assert host_save(host)["options"]["seats"][1]["name"] == "Bea"
        assert "Problem" not in bea.inner_text("#live-panel") and "problem" not in bea.inner_text("#live-panel")
        end_checks(hw, gw, guests=(gw,))
    finally:
        for c in (hctx, gctx):
            c.close()


def test_a_friend_types_the_room_code_on_the_landing_page(browser: Any, base_url: str, relay: str) -> None:
    """Issue 36: the code the host's panel shows in large letters, typed on the landing page
    in lower case with a space, finds the table (the host's lobby answers its game and join
    fragment; the code is made from the table's key, so the answer is checked against it)
    and the page goes to the table's join link on this site."""
    hctx, hw = device(browser, base_url, relay)
    gctx, gw = device(browser, base_url, relay, 360, 740)
    host, bea = hw.page, gw.page
    try:
        join = open_table(host, base_url)
        code = host.inner_text("#live-code")
        assert host.evaluate("(k) => conquestLive.codeForKey(k, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789')",
                             join.split("#live=")[1].split("&")[0].split(".")[2]) == code
        bea.goto(base_url)
        ready(bea)
        bea.fill("#open-link-input", f" {code[:4].lower()} {code[4:].lower()} ")
        bea.click("#open-link-form button[type=submit]")
        bea.wait_for_url("**/play/world/guest/#live=" + code + ".*", timeout=60_000)
        assert bea.url == join
        guest_ready(bea)
        bea.wait_for_selector("button[data-take='1']", timeout=60_000)
        no_page_errors(hw, gw)
    finally:
        for c in (hctx, gctx):
            c.close()
