"""Draws at a live table in real browsers (issue 26): the host and two guests over WebRTC
(the local relay of tests/browser/test_live_page.py); the host attacks, and every roll's
contribution carries each guest's share, sent by the guests' own pages. The host's save
then passes Check the draws in the page and ``verify`` in CPython."""
from __future__ import annotations

import io
import json
from typing import Any

from conquest.__main__ import verify
from conquest.bots import run_thinking
from conquest.draws import check_draws
from conquest.games.world.bots import RuleBot
from conquest.games.world.rules import RULES
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match, replay
from tests.browser.live_kit import device, host_save, no_page_errors, open_table, sit
from tests.browser.test_live_page import COLOURS, WORLD


def sealed_midgame(seed: int = 3) -> tuple[str, Match]:
    """Ann's attack phase in a sealed World game of three people (as the pages now save)."""
    seats = [{"name": n, "colour": c} for n, c in zip(("Ann", "Bob", "Cy"), COLOURS, strict=True)]
    m = Match(WORLD, {"seats": seats, "order": "fixed", "deal": True}, rng=Rng(seed), checkable=True)
    m.resolve_chance()
    bot = RuleBot(Rng(seed))
    while not (m.state.phase == "attack" and m.state.current == 0):
        m.play(run_thinking(bot.think(WORLD, m.state)))
    return make_fragment(m.save().to_json(), "h"), m


def test_live_draws_carry_each_guests_share(browser: Any, base_url: str, relay: str) -> None:  # noqa: F811
    frag, m = sealed_midgame()
    hctx, hw = device(browser, base_url, relay)
    g1ctx, g1w = device(browser, base_url, relay)
    g2ctx, g2w = device(browser, base_url, relay, 360, 740)
    host, bob, cy = hw.page, g1w.page, g2w.page
    try:
        join = open_table(host, base_url + "play/world/#" + frag)
        for page, seat, name in ((bob, 1, "Bob"), (cy, 2, "Cy")):
            sit(page, join, name, seat)
        host.wait_for_function("() => document.getElementById('live-seats').textContent.includes(\"Cy's device\")")
        host.wait_for_timeout(1500)  # the guests' first shares arrive after their first update
        # Ann (the host) attacks until done from her strongest front
        st = m.state
        s, d = max((st.troops[s], s, d) for s in range(42) if st.owner[s] == 0 and st.troops[s] >= 2
                    for d in RULES.adj[s] if st.owner[d] != 0)[1:]
        before = len(host_save(host)["draws"]["c"])
        host.select_option("#wc-choose-t", str(s))
        host.click("#wc-choose-go")
        host.click(f"#wc-targets button[data-index='{d}']")
        host.wait_for_selector("#wc-blitz")
        host.click("#wc-blitz")
        host.wait_for_function(
            "n => { const id = new URLSearchParams(location.search).get('slot');"
            " const o = JSON.parse(localStorage.getItem('conquest:slot:' + id)); const s = o.save || o;"
            " return s.draws && s.draws.c.length > n; }", arg=before, timeout=30_000)
        save = host_save(host)
        rolls = save["draws"]["c"][before:]
        assert rolls and rolls[0].startswith("@"), rolls
        keys = sorted(part.split("=")[0] for part in rolls[0][1:].split())
        assert keys == ["1", "2", "h"], rolls[0]  # the host's share and both guests'
        # the guests' pages made those shares: they are what reached the host over WebRTC
        arrived = {json.loads(raw).get("share") for raw in host.evaluate("() => window.conquestLiveReceived || []")
                   if '"share"' in raw}
        used = dict(part.split("=") for part in rolls[0][1:].split())
        assert used["1"] in arrived and used["2"] in arrived, (used, arrived)
        # every draw recomputes: in CPython, and with the page's own button
        again = replay(save)
        result = check_draws(WORLD, again.states, again.log, again.undone, save["draws"])
        assert result.status == "checked" and result.kinds.get("live", 0) >= 1, result.summary()
        out = io.StringIO()
        assert verify(host.inner_text("#shell-host-url"), out=out) == 0, out.getvalue()
        host.click("#shell-check-draws")
        host.wait_for_selector("#shell-draw-verdict")
        assert host.locator("#shell-draw-verdict").get_attribute("data-status") == "checked"
        assert "live" in host.inner_text("#shell-draw-verdict")
        no_page_errors(hw, g1w, g2w)
    finally:
        for c in (hctx, g1ctx, g2ctx):
            c.close()
