"""Live play's secret steps in real browsers (issue 22): choices made at once on several
devices, each seeing only its own until the reveal; refusals; a peer posing as the host.

Every device is a Chromium context at one table over WebRTC, signalled through the local
Nostr relay (``tools/relay.py``). What a guest's page received is read from its record
(the ``record`` live setting keeps every text the host's key signed, and every text sent).
"""
from __future__ import annotations

import json
import tempfile
from typing import Any

from conquest.core import get_game
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match, replay
from tests.browser.live_kit import (
    device,
    end_checks,
    host_save,
    open_table,
    sit,
)

REIGN = get_game("reign")
CAMPAIGN = get_game("campaign")
#: Ann Develops the Weapons Workshop and attacks The Citadel; Bob fights as he stands
#: (tests/browser/test_reign_page.py): the next step is the battle's secret choices
TO_BATTLE = ["Lwmscah", "tAB/AB", "dw", "bc", "p"]
COLOURS = ("#e69f00", "#56b4e9", "#009e73")
SHOTS = tempfile.gettempdir()


def received(page: Any) -> list[dict[str, Any]]:
    return [json.loads(raw) for raw in page.evaluate("() => window.conquestLiveReceived || []")]


def before_reveal(msgs: list[dict[str, Any]], marker: str = "rg-reveal") -> list[dict[str, Any]]:
    """The pages a guest was sent (issue 37: ui trees and patches) until the first that
    draws the reveal (holds ``marker``: Reign's ``#rg-reveal``, a step's ``data-step``)."""
    out = []
    for msg in msgs:
        if msg.get("t") == "ui" and marker in json.dumps(msg):
            break
        out.append(msg)
    return out


def toast(page: Any, text: str) -> None:
    page.wait_for_function("t => (document.getElementById('shell-toast') || {}).textContent?.includes(t)",
                           arg=text, timeout=30_000)


def test_reign_battle_chosen_at_once_refusals_and_a_forged_host(browser: Any, base_url: str, relay: str) -> None:
    save = Match(REIGN, {"setup": "easy", "players": ["Ann", "Bob"], "seed": 0}, TO_BATTLE, rng=Rng(1)).save().to_json()
    hctx, hw = device(browser, base_url, relay)
    actx, aw = device(browser, base_url, relay)  # Ann's laptop
    bctx, bw = device(browser, base_url, relay, 360, 740)  # Bob's phone
    fctx, fw = device(browser, base_url, relay)
    host, ann, bob, forger = hw.page, aw.page, bw.page, fw.page
    try:
        join = open_table(host, base_url + "play/reign/#" + make_fragment(save, "h"))
        host.select_option("#live-seat-0", "open")  # the host's device keeps no seat: both play on their own
        sit(ann, join, "Ann", 0)
        sit(bob, join, "Bob", 1)
        # no pass-the-device screen: each seat is on its own device, the host's only shows the game
        ann.wait_for_selector("#rg-battle-go", timeout=30_000)
        bob.wait_for_selector("#rg-battle-go", timeout=30_000)
        assert "Bob: you defend The Citadel" in bob.inner_text("#rg-stage")
        assert host.locator("#rg-battle-go").count() == 0
        # both draft at once, each on their own device, then both confirm
        ann.click("#rg-stage [data-card=C]")
        bob.click("#rg-stage [data-card=D]")
        ann.click("#rg-stage [data-buy='s+']")
        bob.click("#rg-stage [data-buy='a+']")
        ann.click("#rg-stage [data-buy='b+']")
        bob.wait_for_function("document.querySelector('[data-total=defence]').textContent.trim() === 'Defence 6'")
        ann.wait_for_function("document.querySelector('[data-total=attack]').textContent.trim() === 'Attack 9'")
        bob.click("#rg-battle-go")
        # every device says who has chosen (never what) while Ann still chooses
        for page in (host, ann, bob):
            page.wait_for_function("() => (document.getElementById('shell-chosen') || {}).textContent"
                                   "?.includes('Bob has chosen; waiting for Ann')", timeout=30_000)
        assert "Defence" not in host.inner_text("#shell-bar") and "Defence" not in ann.inner_text("#shell-bar")
        assert "Defence 6" not in ann.inner_text("#rg-stage")  # Bob's choice is his until the reveal
        host.screenshot(path=f"{SHOTS}/live-chosen-host-1280.png", full_page=False)
        bob.evaluate("() => window.scrollTo(0, 0)")
        bob.screenshot(path=f"{SHOTS}/live-chosen-bob-360.png", full_page=False)
        ann.click("#rg-battle-go")
        for page in (host, ann, bob):
            page.wait_for_selector("#rg-reveal", timeout=30_000)
            # in words on every device; the arithmetic is there too, behind "How it was counted"
            assert "Ann played Cavalry Charge (attack 9)" in page.inner_text("#rg-reveal")
            assert "Attack 9 = 4 Military + 3 Cavalry Charge" in (page.text_content("#rg-reveal") or "")
        played = replay(host_save(host))
        assert played.log[len(TO_BATTLE)] == "Cs1b1/Da1"  # one step, both parts, as in hot-seat play
        # before the reveal, nothing Bob's device received held Ann's choice (nor her card's name)
        early = before_reveal(received(bob))
        assert early and any(m.get("t") == "ui" for m in early)
        assert not any(m.get("t") == "sync" for m in received(bob))  # pages only, never a state
        for msg in early:
            text = json.dumps(msg)
            assert "Cs1b1" not in text and "Attack 9" not in text, text[:300]
        for msg in before_reveal(received(ann)):  # nor Ann's Bob's
            text = json.dumps(msg)
            assert "Da1" not in text and "Defence 6" not in text, text[:300]
        assert "conquest:slot:" not in bob.evaluate("() => Object.keys(localStorage).join(' ')")

        # a peer posing as the host: it knows the link (every guest does) but not the host's
        # key; it announces itself and sends a made-up update and a "closed"; Bob ignores all
        code, rest = join.split("#live=")[1].split(".", 1)
        password = rest.split(".")[0]
        forger.goto(base_url, wait_until="commit")
        forger.wait_for_load_state("load")
        step = bob.get_attribute("#rg-stage-inner", "data-step")
        fake = {"t": "ui", "n": 1, "full": True, "c": {"rg-stage": ["A forged page"], "live-panel": ["closed"]}}
        forger.evaluate(
            """async ([relay, code, password, fake]) => {
                await import('./static/live.js');
                const pair = await window.conquestLive.newHostKey();
                let room = null;
                const sent = new Set();
                const handlers = {
                    message() {}, leave() {}, error() {},
                    join(peer) {
                        const go = () => {
                            if (!room) { setTimeout(go, 50); return; }
                            room.send(peer, JSON.stringify({ t: 'host', game: 'reign', code }));
                            room.send(peer, JSON.stringify(fake));
                            room.send(peer, JSON.stringify({ t: 'closed' }));
                            sent.add(peer);
                        };
                        go();
                    },
                };
                room = await window.conquestLive.open(code, password,
                    { appId: 'conquest-live-1', relays: [relay], maxChars: 8000000, hostKey: pair.private,
                      trickleIce: false }, handlers);
                window.forgerSent = sent;
            }""",
            [relay, code, password, fake],
        )
        bob.wait_for_function("() => (window.conquestLiveForged || 0) >= 3", timeout=120_000)
        assert bob.get_attribute("#rg-stage-inner", "data-step") == step
        assert "forged" not in bob.inner_text("#rg-stage")
        assert "You play Bob" in str(bob.text_content("#live-status")) and "closed" not in str(bob.text_content("#live-panel"))

        # Bob's turn: he ends it on his phone; now it is Ann's move
        n = len(played.log)
        bob.wait_for_selector("#rg-end", timeout=30_000)
        stale = bob.get_attribute("#rg-end", "data-on-click")
        bob.click("#rg-end")
        host.wait_for_function(f"() => document.getElementById('rg-stage-inner').dataset.step !== '{n}'", timeout=30_000)
        after = replay(host_save(host))
        assert after.state.active == 0
        n = len(after.log)
        bob.wait_for_function("() => !!window.conquestLiveHostPeer")
        # a hostile Bob (issue 37): the End button's handler he was sent before (stale now), a
        # handler never sent, and the table's own move message; each refused to him, in words
        for msg, words in (({"t": "ev", "k": stale, "type": "click"}, "no longer on your screen: nothing was changed"),
                           ({"t": "ev", "k": "rg-stage/.0.9/click", "type": "click"}, "no longer on your screen"),
                           ({"t": "act", "step": n, "action": "e"}, "Unknown message kind")):
            bob.evaluate("m => window.conquestLiveRoom.send(window.conquestLiveHostPeer, m)", json.dumps(msg))
            toast(bob, words)
            assert len(replay(host_save(host)).log) == n
            assert host.get_attribute("#rg-stage-inner", "data-step") == str(n)
        end_checks(hw, aw, bw, guests=(aw, bw))
    finally:
        for c in (hctx, actx, bctx, fctx):
            c.close()


def test_campaign_question_answered_on_three_devices_at_once(browser: Any, base_url: str, relay: str) -> None:
    seats = [{"name": n, "colour": c} for n, c in zip(("Ann", "Bob", "Cy"), COLOURS, strict=True)]
    m = Match(CAMPAIGN, {"seats": seats, "seconds": 120}, rng=Rng(1))  # the longest clock: joining takes a while
    m.resolve_chance()
    assert CAMPAIGN.simultaneous(m.state) == (0, 1, 2)  # the first question, for all three
    hctx, hw = device(browser, base_url, relay)
    bctx, bw = device(browser, base_url, relay)
    cctx, cw = device(browser, base_url, relay, 360, 740)
    host, bob, cy = hw.page, bw.page, cw.page
    try:
        join = open_table(host, base_url + "play/campaign/#" + make_fragment(m.save().to_json(), "h"))
        sit(bob, join, "Bob", 1)
        sit(cy, join, "Cy", 2)
        for page in (host, bob, cy):
            page.wait_for_selector("#cp-guess", timeout=30_000)
        n = len(m.log)
        # all three answer at once; Bob takes his time on his own device
        cy.fill("#cp-guess", "7")
        host.fill("#cp-guess", "3")
        cy.click("#cp-guess-go")
        host.click("#cp-guess-go")
        bob.wait_for_timeout(1500)
        bob.fill("#cp-guess", "5")
        bob.click("#cp-guess-go")
        for page in (host, bob, cy):
            page.wait_for_function(f"() => document.getElementById('cp-stage-inner').dataset.step.split('.')[0] !== '{n}'",
                                   timeout=30_000)
        log = replay(host_save(host)).log
        reveal = log[n]
        assert reveal.startswith("a"), log
        parts = [p.split("@") for p in reveal[1:].split(",")]
        assert [p[0] for p in parts] == ["3", "5", "7"]
        ms = [int(p[1]) for p in parts]
        # each time runs from when the question was on that device's page to its answer
        assert ms[1] >= 1500, ms  # Bob's clock ran while he waited on his device
        # before the reveal, no device was sent another's answer (pages only, never a state)
        for page, seat in ((bob, 1), (cy, 2)):
            msgs = received(page)
            assert not any(m.get("t") == "sync" for m in msgs)
            early = before_reveal(msgs, f'"data-step": "{n + 1}.')
            assert early and len(early) < len(msgs)
            for msg in early:
                text = json.dumps(msg)
                for other in (0, 1, 2):
                    if other != seat:
                        assert f"{parts[other][0]}@{ms[other]}" not in text
        end_checks(hw, bw, cw, guests=(bw, cw))
    finally:
        for c in (hctx, bctx, cctx):
            c.close()
