"""Issue 41's tap walk, live: To Reign Supreme between Ann at the host's laptop (1280x800,
a mouse) and Bob on his phone (360x740, touch), a guest device that runs no engine.

Point 1 of the issue was live too: the defender's "Restructure or fight" arrived while the
guest was scrolled away, and after the reveal the guest jumped to "Your turn" without ever
seeing the battle's result. Here every tap is made by the device whose decision it is; after
it, once the step has reached both devices (the same ``data-step``) and their scrolling has
come to rest, *both* are checked as ``test_tapwalk_reign_conquests.Walk`` checks a hot-seat
page: one next decision marked and, once anything was played, one newest result, each inside
its screen. The device that did not tap is checked too: what arrives from a peer must come
into view on its own (``guest-dom.js`` ``bringNow`` on the phone, ``browser_now.bring_now``
on the host).

Figures (printed): the taps on each device and the problems found.
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from conquest.games.reign import GAME as REIGN
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.live_kit import device, end_checks, open_table, sit
from tests.browser.test_tapwalk_reign_conquests import REIGN_START, VIEWS, Walk, reign_tap

#: what a device may be asked to do on Reign's stage (``data-act``), the rest is waiting
ACTS = ("battle", "respond", "turn")


class GuestWalk(Walk):
    """A guest device's tap goes to the host and comes back as a drawn page: the check waits
    for the page to change after the tap (a MutationObserver), not only for scrolling to rest."""

    def tap(self, selector: str, what: str = "") -> None:
        self.page.evaluate(
            """() => { window.cqChanged = false;
                if (!window.cqWatch) {
                    window.cqWatch = new MutationObserver(() => { window.cqChanged = true; });
                    window.cqWatch.observe(document.body, {subtree: true, childList: true, attributes: true,
                                                           characterData: true});
                } }""")
        self.waiting = True
        super().tap(selector, what)

    def check(self, what: str) -> None:
        if getattr(self, "waiting", False):
            self.page.wait_for_function("() => window.cqChanged", timeout=30_000)
            self.waiting = False
        super().check(what)


def stage(page: Any) -> tuple[str, str]:
    """(``data-act``, ``data-step``) of the device's stage, empty while it is not drawn."""
    got = page.evaluate("() => { const e = document.getElementById('rg-stage-inner');"
                        " return e ? [e.dataset.act || '', e.dataset.step || ''] : ['', '']; }")
    return str(got[0]), str(got[1])


def test_reign_live_a_phone_guest_sees_each_result_and_decision(browser: Any, base_url: str, relay: str) -> None:
    save = Match(REIGN, {"setup": "easy", "players": ["Ann", "Bob"], "seed": 0}, REIGN_START, rng=Rng(1))
    # a device at each of the walk's two sizes, joining tables through the local relay
    hctx, hw = device(browser, base_url, relay, record=False, **VIEWS["desktop"])
    bctx, bw = device(browser, base_url, relay, record=False, **VIEWS["phone"])
    host, bob = hw.page, bw.page
    walks = {"Ann": Walk(host, False), "Bob": GuestWalk(bob, True)}
    pages = {"Ann": host, "Bob": bob}
    try:
        join = open_table(host, base_url + "play/reign/#" + make_fragment(save.save().to_json(), "h"))
        sit(bob, join, "Bob", 1)  # the host's device keeps Ann's seat
        bob.wait_for_selector("#rg-stage-inner", state="attached", timeout=30_000)
        confirms = 0
        for _ in range(90):
            if confirms >= 6:  # three battles, each side confirmed three times
                break
            # whose decision it is: the first device whose stage asks for one
            for _wait in range(300):
                acts = {who: stage(p) for who, p in pages.items()}
                doing = [who for who, (act, _) in acts.items() if act in ACTS]
                if doing or any(act == "over" for act, _ in acts.values()):
                    break
                host.wait_for_timeout(100)
            else:
                raise AssertionError(f"no device is asked for anything: {acts}")
            if not doing:
                break  # the game is over
            who = doing[0]
            walk, page = walks[who], pages[who]
            confirms += reign_tap(walk, page, acts[who][0], who)
            # the step reached the other device: it is checked as it stands, untouched
            other = "Bob" if who == "Ann" else "Ann"
            host_step = stage(host)[1]
            pages[other].wait_for_function(
                "(n) => { const e = document.getElementById('rg-stage-inner'); return e && e.dataset.step === n; }",
                arg=host_step, timeout=30_000)
            for w in walks.values():
                w.acted = True
            walks[other].check(f"{who}'s tap {walk.taps} arrived")
        shots = Path(tempfile.gettempdir()) / "conquest-shots"
        shots.mkdir(exist_ok=True)
        bob.screenshot(path=str(shots / "tapwalk-live-bob-360.png"))
        host.screenshot(path=str(shots / "tapwalk-live-ann-1280.png"))
        taps = {who: w.taps for who, w in walks.items()}
        print(f"\nlive walk: {taps['Ann']} taps by Ann at 1280x800, {taps['Bob']} by Bob at 360x740; "
              f"{confirms // 2} battles")
        assert confirms >= 6, f"only {confirms // 2} battles in {taps} taps"
        assert taps["Bob"] >= 5, taps
        problems = [f"{who}: {p}" for who, w in walks.items() for p in w.problems]
        assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
        end_checks(hw, bw, guests=(bw,))
    finally:
        hctx.close()
        bctx.close()
