"""Live play across devices in real browsers (issue 22): three Chromium contexts (a host,
a guest, a phone-sized guest) at one table over WebRTC, signalled through a real Nostr
relay on 127.0.0.1 (``tools/relay.py``). Nothing leaves the machine: the pages take the
relay from the live settings and no STUN server is asked (``iceServers: []``).
"""
from __future__ import annotations

import json
from typing import Any

from conquest.core import get_game
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match, replay
from tests.browser.conftest import ENGINE_TIMEOUT_MS, watch

WORLD = get_game("world")
COLOURS = ("#e69f00", "#56b4e9", "#009e73")


def device(browser: Any, base_url: str, relay: str, width: int = 1280, height: int = 900) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport={"width": width, "height": height})
    settings = json.dumps({"relays": [relay], "iceServers": [], "record": True})
    ctx.add_init_script(f"localStorage.setItem('conquest:live-settings', {json.dumps(settings)});")
    page = ctx.new_page()
    return ctx, watch(page, base_url)


def ready(page: Any) -> None:
    page.wait_for_function("document.documentElement.dataset.engine === 'ready'", timeout=ENGINE_TIMEOUT_MS)


def midgame(seed: int = 3) -> str:
    """A host link to a World game between three people with cards in hands (played by
    bots' moves up to a turn where every seat holds a card)."""
    from conquest.games.world.bots import RuleBot

    seats = [{"name": n, "colour": c} for n, c in zip(("Ann", "Bob", "Cy"), COLOURS, strict=True)]
    m = Match(WORLD, {"seats": seats, "order": "fixed", "deal": True}, rng=Rng(seed))
    m.resolve_chance()
    bot = RuleBot(Rng(seed))
    while not (m.state.phase == "attack" and m.state.current == 0 and all(m.state.hand_size(s) for s in range(3))):
        gen = bot.think(WORLD, m.state)
        try:
            while True:
                next(gen)
        except StopIteration as stop:
            m.play(stop.value)
        assert m.state.phase != "over"
    return make_fragment(m.save().to_json(), "h")


def act_of(page: Any) -> tuple[str, str]:
    el = page.locator("#wc-panel-inner")
    return str(el.get_attribute("data-act")), str(el.get_attribute("data-step"))


def host_save(host: Any) -> dict[str, Any]:
    raw = host.evaluate("""() => {
        const id = new URLSearchParams(location.search).get('slot');
        return localStorage.getItem('conquest:slot:' + id);
    }""")
    obj = json.loads(raw)
    return obj.get("save", obj)


def test_world_live_with_two_guests_one_a_phone(browser: Any, base_url: str, relay: str) -> None:
    hctx, hw = device(browser, base_url, relay)
    g1ctx, g1w = device(browser, base_url, relay)
    g2ctx, g2w = device(browser, base_url, relay, 360, 740)
    host, bob, cy = hw.page, g1w.page, g2w.page
    try:
        host.goto(base_url + "play/world/#" + midgame(), wait_until="commit")
        ready(host)
        host.wait_for_selector("#live-start")
        host.click("#live-start")
        host.wait_for_selector("#live-join-url")
        assert host.locator("#live-qr path").count() == 1 or host.wait_for_selector("#live-qr")
        join = host.inner_text("#live-join-url")
        assert "#live=" in join and host.inner_text("#live-code") in join
        for page, seat, name in ((bob, 1, "Bob"), (cy, 2, "Cy")):
            page.goto(join, wait_until="commit")
            ready(page)
            page.fill("#live-name", name)
            page.dispatch_event("#live-name", "change")
            try:
                page.wait_for_selector(f"button[data-take='{seat}']", timeout=120_000)
            except Exception:
                raise AssertionError(f"{name}: {page.inner_text('#live-panel')[:300]} / host: "
                                     f"{host.inner_text('#live-panel')[:600]}") from None
            page.click(f"button[data-take='{seat}']")
            page.wait_for_function(f"() => document.getElementById('live-status').textContent.includes('You play {name}')")
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
        ready(bob)
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

        # what each guest received: its seat's redaction of the host's states, nothing more
        states = replay(host_save(host)).states
        for page, seat in ((bob, 1), (cy, 2)):
            received = page.evaluate("() => window.conquestLiveReceived || []")
            assert received
            for raw in received:
                msg = json.loads(raw)
                if msg.get("t") != "sync":
                    continue
                base = msg["base"]
                first = base if base == 0 else base + 1
                you = msg["you"]  # the seat the message was redacted for (None: watching)
                assert you in (None, seat)
                for k, st in enumerate(msg["states"]):
                    got = WORLD.state_from_json(st)
                    want = WORLD.redact(states[first + k], you)
                    assert got == want, (seat, base, first + k, len(states), got.hands, want.hands, got.phase, want.phase,
                                         states[first + k].hands, msg["log"][:5])
                for i, text in enumerate(msg["log"]):
                    before = states[base + i]
                    if text.startswith("C") and before.current != you:
                        assert text == "C?"
            stored = page.evaluate("() => JSON.stringify(Object.fromEntries(Object.entries(localStorage)))")
            assert "conquest:slot:" not in stored  # a guest's page never stores the game
        for w in (hw, g1w, g2w):
            w.forgive_navigation_aborts()
            assert not w.page_errors, w.page_errors
    finally:
        for c in (hctx, g1ctx, g2ctx):
            c.close()
