"""The Metagame from every player's phone (issue 39), in real browsers: a 3-player campaign
at a live table over the local relay, the host on a 1280 px desktop and Bob and Cy on
360x740 phones (guest pages: no engine). Capitals are chosen on the phones, Bob declares an
invasion on his, both set their slices at once, the host spins and every screen shows the
same wheel, the host records the result, and Bob's phone hands over the lost invasion's
territory. The seat rules themselves are tested in CPython (``tests/test_metagame_live.py``).
"""
from __future__ import annotations

from typing import Any

from conquest.games.metagame import GAME
from conquest.games.metagame.actions import Invade, Pass, PickCapital, SetOwner
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.live_kit import device, host_save, no_engine_requested, open_table, sit
from tests.browser.test_live_page import SHOTS

PLAYERS = [("Ann", "#e69f00"), ("Bob", "#56b4e9"), ("Cy", "#009e73")]
OPTIONS = {"players": [{"name": n, "colour": c} for n, c in PLAYERS], "games": ["Chess", "Go", "Carcassonne"]}


def plan() -> tuple[str, list[int], int, int]:
    """A new campaign's host link, the three capitals the players will pick, and two
    neighbouring territories far from them (Bob's and Cy's by the host's corrections, M17,
    so Bob has someone to invade on his first turn)."""
    m = Match(GAME, OPTIONS, rng=Rng(1))
    fragment = make_fragment(m.save().to_json(), "h")
    caps = []
    for p in range(3):
        caps.append(GAME.capital_candidates(m.state, p)[0])
        m.play(PickCapital(caps[-1]))
    b = m.state.board
    far = [t for t in range(len(b.names)) if all(b.dist[c][t] >= 3 for c in caps)]
    t1, t2 = next((t, u) for t in far for u in b.adj[t] if u in far)
    m.play(SetOwner(t2, 2))
    m.play(SetOwner(t1, 1))
    m.play(Pass())
    assert Invade(t2) in GAME.legal_actions(m.state)
    return fragment, caps, t1, t2


def bar(page: Any) -> str:
    return str(page.inner_text("#shell-bar"))


def wait_bar(page: Any, words: str, timeout: int = 60_000) -> None:
    page.wait_for_function("(w) => (document.getElementById('shell-bar')||{}).textContent.includes(w)", arg=words,
                           timeout=timeout)


def choose(page: Any, t: int) -> None:
    """The Choose list under the map (a phone's taps: the list, then OK)."""
    page.wait_for_selector("#mg-choose:not([hidden]) #mg-choose-t", timeout=60_000)
    page.select_option("#mg-choose-t", str(t))
    page.click("#mg-choose-go")


def test_a_campaign_table_with_two_players_on_their_phones(browser: Any, base_url: str, relay: str) -> None:
    fragment, caps, t1, t2 = plan()
    hctx, hw = device(browser, base_url, relay)
    bctx, bw = device(browser, base_url, relay, 360, 740)
    cctx, cw = device(browser, base_url, relay, 360, 740)
    host, bob, cy = hw.page, bw.page, cw.page
    try:
        join = open_table(host, base_url + "play/metagame/#" + fragment)
        sit(bob, join, "Bob", 1)
        sit(cy, join, "Cy", 2)
        host.wait_for_function("() => document.getElementById('live-seats').textContent.includes(\"Cy's device\")")

        # capitals: Ann has no device (the console plays her seat); Bob and Cy pick on their phones
        host.fill("#mg-typed-text", f"k{caps[0]}")
        host.press("#mg-typed-text", "Enter")
        wait_bar(bob, "Bob: pick a capital")
        assert bob.locator("#mg-choose:not([hidden])").count() == 1
        assert cy.locator("#mg-choose:not([hidden])").count() == 0  # not Cy's choice yet
        choose(bob, caps[1])
        wait_bar(cy, "Cy: pick a capital")
        choose(cy, caps[2])
        wait_bar(host, "claim a neutral territory")
        assert host_save(host)["log"][:3] == [f"k{caps[0]}", f"k{caps[1]}@p", f"k{caps[2]}@p"]

        # the host's corrections (M17) give Bob and Cy neighbours; Ann passes at the console
        for t, p in ((t2, 2), (t1, 1)):
            host.click("#mg-tools summary") if not host.locator("#mg-tools[open]").count() else None
            host.select_option("#mg-fix-t", str(t))
            host.select_option("#mg-fix-p", str(p))
            host.click("#mg-fix-owner button")
        n = len(host_save(host)["log"])
        host.wait_for_function(f"() => document.getElementById('shell-bar').textContent.includes('Step {n}')")
        host.click("#mg-actions button.secondary")  # Pass (M5)
        # Bob's turn, on Bob's phone: he invades Cy's territory
        wait_bar(bob, "Bob: claim a neutral territory, invade")
        assert host.locator("#mg-take-over").count() == 1  # the console waits, and may choose for him (M3)
        host.screenshot(path=str(SHOTS / "metagame-live-host-waiting-1280.png"), full_page=False)
        bob.screenshot(path=str(SHOTS / "metagame-live-bob-turn-360.png"))
        choose(bob, t2)
        # both set their slices at once: Cy first (held), then Bob; the wheel only after both
        cy.wait_for_selector("#mg-slice-form", timeout=60_000)
        bob.wait_for_selector("#mg-slice-form", timeout=60_000)
        cy.click("#mg-fill")
        cy.wait_for_selector("#mg-assign:not([disabled])")
        cy.click("#mg-assign")
        cy.wait_for_selector("#mg-held", timeout=60_000)
        assert "Your slices are in" in cy.inner_text("#mg-held")
        host.wait_for_selector("#mg-held", timeout=60_000)
        assert host.locator("#mg-spin").count() == 0
        bob.screenshot(path=str(SHOTS / "metagame-live-bob-slices-360.png"))
        bob.click("#mg-fill")
        bob.wait_for_selector("#mg-assign:not([disabled])")
        bob.click("#mg-assign")
        host.wait_for_selector("#mg-spin", timeout=60_000)
        # the commitment is on every screen before the spin; no phone has a spin button (M10)
        for page in (bob, cy):
            page.wait_for_selector("#mg-seal", timeout=60_000)
            assert page.locator("#mg-spin").count() == 0
        seal = host.inner_text("#mg-seal")
        assert cy.inner_text("#mg-seal") == seal
        host.screenshot(path=str(SHOTS / "metagame-live-host-1280.png"), full_page=False)
        host.click("#mg-spin")
        # the same slice on all three wheels, the result once it stops
        for page in (host, bob, cy):
            page.wait_for_selector(".mg-drawn:not([hidden])", timeout=60_000)
        styles = {p.get_attribute("#mg-spinner", "style") for p in (host, bob, cy)}
        assert len(styles) == 1, styles
        drawn = {p.inner_text(".mg-drawn") for p in (host, bob, cy)}
        assert len(drawn) == 1, drawn
        cy.screenshot(path=str(SHOTS / "metagame-live-cy-wheel-360.png"))
        # the host records the outside game's result (M12): Cy held
        host.wait_for_selector("#mg-won-d", timeout=30_000)
        assert bob.locator("#mg-won-d").count() == 0
        host.click("#mg-won-d")
        # Bob lost: his phone hands over a territory (M14), asked on the page first
        wait_bar(bob, "Bob: give Cy")
        choose(bob, t1)
        bob.wait_for_selector("#mg-confirm-yes", timeout=30_000)
        bob.screenshot(path=str(SHOTS / "metagame-live-bob-gift-360.png"))
        bob.click("#mg-confirm-yes")
        host.wait_for_function("(g) => { const id = new URLSearchParams(location.search).get('slot');"
                               " const o = JSON.parse(localStorage.getItem('conquest:slot:' + id));"
                               " return (o.save || o).log.includes(g); }", arg=f"g{t1}@p", timeout=60_000)
        log = host_save(host)["log"]
        assert f"i{t2}@p" in log and log.count("spin") == 1 and "dd" in log
        assert sum(1 for t in log if t.startswith("w") and t.endswith("@p")) == 2
        # the phones ran no engine: every page was drawn by the host's
        no_engine_requested(bw)
        no_engine_requested(cw)
        for w in (hw, bw, cw):
            w.assert_clean()
    finally:
        for ctx in (hctx, bctx, cctx):
            ctx.close()
