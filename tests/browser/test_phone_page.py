"""The map games on a phone (issue 21): 360x740, touch, taps only.

A World Conquest turn (reinforce, attack with the odds shown, one roll, attack until done with
the troops to move in set by taps, fortify, which ends the turn) and a Metagame invasion
(declare on the map, both sides' slices, the spin, the winner) are played with
``page.touchscreen.tap`` alone: the test never scrolls, never types, never clicks with a mouse.
Before every tap it measures what the person sees: the tapped target drawn at least 44x44 CSS
px, inside the viewport and not covered (the point tapped hits it), the map on the same
screen (no scroll between the map and the controls), no horizontal overflow, and the status
bar at most 56 px tall. A territory picked on the map is drawn at least 44x44 px when the
tap that picks it lands; a tap on a smaller one zooms in on it and picks nothing.

Figures (printed): the map's size, the territories' drawn sizes at the whole map, the
status bar's height, the smallest target tapped.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from conquest.games.metagame import GAME as METAGAME
from conquest.games.world.rules import RULES
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.conftest import watch
from tests.browser.test_metagame_page import SHOTS, save_at_turn
from tests.browser.test_world_page import board, late_position, wait_act

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
MIN = 44
BAR_MAX = 56


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(**PHONE)
    yield ctx
    ctx.close()


class Taps:
    """Taps with the checks of issue 21 before each; ``sizes`` keeps every target's drawn size."""

    def __init__(self, page: Any, map_id: str) -> None:
        self.page = page
        self.map_id = map_id
        self.sizes: list[tuple[str, float, float]] = []
        self.bars: list[float] = []

    def screen(self) -> dict[str, Any]:
        got = self.page.evaluate(
            """(mapId) => {
                const r = (el) => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
                const map = document.getElementById(mapId);
                return { map: r(map), bar: r(document.getElementById('shell-bar-inner')),
                         tools: r(map.parentElement.querySelector('button[data-zoom]').parentElement),
                         width: document.documentElement.scrollWidth, h: innerHeight, w: innerWidth };
            }""",
            self.map_id,
        )
        assert got["width"] <= got["w"], f"the page overflows sideways: {got['width']} px"
        left, top, right, bottom = got["map"]
        assert top >= 0 and bottom <= got["h"] and left >= 0 and right <= got["w"], f"the map is off screen: {got}"
        tools = got["tools"]
        assert tools[3] <= top + 0.5 or tools[1] >= bottom - 0.5, f"the zoom buttons sit on the map: {got}"
        small = self.text()
        assert not small, f"text drawn too small: {small}"
        bar = got["bar"][3] - got["bar"][1]
        assert bar <= BAR_MAX, f"the status bar is {bar:.0f} px tall"
        self.bars.append(bar)
        return got

    def text(self) -> list[Any]:
        """Text drawn on the play screen under 12 px (map labels and marks: under 9 px)."""
        return self.page.evaluate(
            """() => {
                const out = [];
                const walker = document.createTreeWalker(document.getElementById('shell-game'), NodeFilter.SHOW_TEXT);
                let n;
                while ((n = walker.nextNode())) {
                    const el = n.parentElement;
                    if (!n.textContent.trim() || !el.getClientRects().length) continue;
                    const r = el.getBoundingClientRect();
                    if (r.bottom < 0 || r.top > innerHeight || getComputedStyle(el).visibility === 'hidden') continue;
                    let px = parseFloat(getComputedStyle(el).fontSize);
                    const inMap = !!el.closest('svg[data-pick-board]');
                    if (el.closest('svg')) { const m = el.getScreenCTM(); if (m) px *= Math.hypot(m.a, m.b); }
                    if (px < (inMap ? 9 : 12) - 0.05) out.push([n.textContent.trim().slice(0, 30), +px.toFixed(1)]);
                }
                return out;
            }"""
        )

    def tap(self, selector: str) -> None:
        """Tap a control: on screen with the map, not covered, at least 44x44 px (once the
        page's own smooth scroll, if any, has come to rest)."""
        try:
            self.page.wait_for_function(
                """(sel) => { const el = document.querySelector(sel); if (!el) return false;
                    const b = el.getBoundingClientRect(), t = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
                    return !!t && (t === el || el.contains(t)); }""",
                arg=selector, timeout=3_000)
        except PlaywrightTimeout:  # the checks below say what is wrong
            pass
        # no swipe: the step's controls come first in the sheet, what the last step did under
        # them (issue 21; the test swiped the sheet while the result box stood above them)
        self.screen()
        box = self.page.evaluate(
            """(sel) => {
                const el = document.querySelector(sel);
                if (!el) return null;
                const b = el.getBoundingClientRect(), x = b.left + b.width / 2, y = b.top + b.height / 2;
                const top = document.elementFromPoint(x, y);
                const sheet = el.closest('.play-sheet');  // a control cut by its sheet's edge is not tappable
                const clip = Math.min(innerHeight, sheet ? sheet.getBoundingClientRect().bottom : innerHeight);
                const free = !!top && (top === el || el.contains(top));
                const over = free || !top ? null  // what covers it, to say so
                    : `${top.tagName.toLowerCase()}#${top.id}.${top.className} "${top.textContent.trim().slice(0, 120)}"`;
                return { x, y, w: b.width, h: b.height, bottom: b.bottom, top: b.top, clip, free, over };
            }""",
            selector,
        )
        assert box is not None, f"no {selector}"
        # (a pixel's leeway: a scroll to a fractional place leaves a control's edge 0.5 px out)
        assert box["top"] >= -1 and box["bottom"] <= box["clip"] + 1, f"{selector} is off screen: {box}"
        assert box["free"], f"{selector} is covered where it is tapped: {box}"
        assert box["w"] >= MIN and box["h"] >= MIN, f"{selector} is {box['w']:.0f}x{box['h']:.0f} px"
        self.sizes.append((selector, box["w"], box["h"]))
        self.page.touchscreen.tap(box["x"], box["y"])

    def spot(self, prefix: str, t: int) -> dict[str, Any] | None:
        """A point of territory ``t`` to tap, inside the map's box (its badge if it has one)."""
        return self.page.evaluate(
            """([prefix, t]) => {
                const svg = document.getElementById(prefix + '-map'), el = document.getElementById(prefix + '-t' + t);
                const m = svg.getBoundingClientRect(), r = el.getBoundingClientRect();
                const inside = (x, y) => x > m.left + 2 && x < m.right - 2 && y > m.top + 2 && y < m.bottom - 2;
                const out = { w: r.width, h: r.height, named: !svg.classList.contains('labels-small'), zoom: svg.dataset.zoom };
                const badge = svg.querySelector(`[data-t="${t}"] circle`);
                if (badge) {
                    const b = badge.getBoundingClientRect(), x = b.left + b.width / 2, y = b.top + b.height / 2;
                    if (inside(x, y)) return { ...out, x, y, on: 'badge' };
                }
                const marks = [...svg.querySelectorAll('[data-t] circle')].map((c) => c.getBoundingClientRect());
                for (let i = 1; i < 24; i++) for (let j = 1; j < 24; j++) {
                    const x = r.left + r.width * i / 24, y = r.top + r.height * j / 24;
                    if (!inside(x, y) || document.elementFromPoint(x, y) !== el) continue;
                    if (marks.some((b) => x > b.left - 3 && x < b.right + 3 && y > b.top - 3 && y < b.bottom + 3)) continue;
                    return { ...out, x, y, on: 'land' };
                }
                return null;
            }""",
            [prefix, t],
        )

    def territory(self, prefix: str, t: int, changed: str) -> dict[str, Any]:
        """Pick territory ``t`` by taps: a tap on it while it is drawn under 44 px (or its name
        is hidden) zooms in on it and picks nothing; the tap that picks it lands on it drawn at
        least 44x44 px and named. ``changed`` is a JS expression true once the pick was taken.
        When it is out of the zoomed view, the whole map comes back first (the ⤢ button)."""
        for _ in range(6):
            self.screen()
            at = self.spot(prefix, t)
            if at is None:
                self.tap(f".{prefix}-maptools button[data-zoom='reset']")
                self.page.wait_for_function(f"document.getElementById('{prefix}-map').dataset.zoom === '1.00'")
                continue
            big = at["w"] >= MIN and at["h"] >= MIN and at["named"]
            self.page.touchscreen.tap(at["x"], at["y"])
            if big:
                self.page.wait_for_function(changed, timeout=15_000)
                self.sizes.append((f"{prefix}-t{t} ({at['on']})", at["w"], at["h"]))
                return at
            # too small or unnamed: the tap zoomed in and picked nothing
            self.page.wait_for_function(
                f"document.getElementById('{prefix}-map').dataset.zoom !== '{at['zoom']}'", timeout=5_000)
            assert not self.page.evaluate(changed), f"a tap on {prefix}-t{t} drawn {at['w']:.0f}x{at['h']:.0f} px picked it"
        raise AssertionError(f"{prefix}-t{t} never became a target")

    def report(self, what: str) -> None:
        w, h = min((s[1], s[2]) for s in self.sizes)
        print(f"{what}: {len(self.sizes)} taps, smallest target {w:.0f}x{h:.0f} px, "
              f"status bar {min(self.bars):.0f}-{max(self.bars):.0f} px")


def map_figures(page: Any, prefix: str) -> str:
    got = page.evaluate(
        """(prefix) => {
            const m = document.getElementById(prefix + '-map').getBoundingClientRect();
            const ts = [...document.querySelectorAll('#' + prefix + '-map .territory')].map((e) => {
                const r = e.getBoundingClientRect(); return [r.width, r.height]; });
            const small = ts.filter(([w, h]) => w < 44 || h < 44).length;
            ts.sort((a, b) => Math.min(...a) - Math.min(...b));
            return [m.width, m.height, ts.length, small, ts[ts.length >> 1]];
        }""",
        prefix,
    )
    return (f"map {got[0]:.0f}x{got[1]:.0f} px, {got[3]} of {got[2]} territories under 44 px at the whole map "
            f"(median {got[4][0]:.0f}x{got[4][1]:.0f})")


def test_a_world_conquest_turn_by_taps_on_a_phone(phone: Any, base_url: str) -> None:
    frag, seat = late_position()
    page = phone.new_page()
    w = watch(page, base_url)
    page.goto(base_url + "play/world/#" + frag)
    w.wait_engine()
    act, step = wait_act(page, None)
    assert act == "reinforce"
    page.wait_for_timeout(1500)  # the play screen scrolled into place (mapboard.js)
    taps = Taps(page, "wc-map")
    print("World at 360x740:", map_figures(page, "wc"))
    got = taps.screen()
    panel = page.locator("#wc-panel").bounding_box()
    assert panel is not None and panel["y"] < got["h"] - 100, "the step's panel starts below the screen"
    assert page.locator(".wc-maptools .hint-touch").is_visible()  # the touch hint beside the zoom row
    assert not page.locator(".wc-maptools .hint-mouse").is_visible()
    own, _ = board(page)
    me = own[int(page.locator("#wc-map .territory.is-eligible").first.get_attribute("data-index") or 0)]

    def changed_from(step: str) -> str:
        return f"document.getElementById('wc-panel-inner').dataset.step !== '{step}'"

    # reinforce: every troop on one front territory (All, then a territory)
    taps.tap("#wc-place-all")
    page.wait_for_function("document.getElementById('wc-place-n').value === document.getElementById('wc-place-n').max")
    own, troops = board(page)
    fronts = [t for t in range(42) if own[t] == me and any(own[d] != me for d in RULES.adj[t])]
    front = min(fronts, key=lambda t: (sum(own[d] != me for d in RULES.adj[t]) == 0, RULES.names[t]))
    taps.territory("wc", front, changed_from(step))
    act, step = wait_act(page, step)
    assert act == "attack"

    # attack: the source and a neighbour on the map, the odds, one roll, then until done
    own, troops = board(page)
    enemy = next(d for d in RULES.adj[front] if own[d] != me)
    taps.territory("wc", front, "!!document.getElementById('wc-cancel')")
    taps.territory("wc", enemy, "!!document.getElementById('wc-blitz')")
    page.screenshot(path=str(SHOTS / "phone-world-battle-360.png"))
    assert page.inner_text("#wc-blitz-odds").endswith("%")
    assert page.locator("#wc-rollodds li").count() >= 2  # this roll's odds
    before = page.input_value("#wc-move")
    taps.tap("#wc-move-more")  # the troops to move in on a win, by a tap
    page.wait_for_function(f"document.getElementById('wc-move').value !== '{before}'")
    taps.tap("#wc-roll")
    act, step = wait_act(page, step)
    assert page.locator("#wc-dice-svg g.wc-die").count() >= 2  # the roll is shown
    if page.locator("#wc-blitz").count():
        taps.tap("#wc-blitz")
        act, step = wait_act(page, step)
    assert act == "attack"
    own, troops = board(page)
    assert own[enemy] == me, "the attack until done did not take the territory (a 99% chance)"

    # fortify (it ends the turn): from the conquered territory back to the front
    if page.locator("#wc-cancel").count():
        taps.tap("#wc-cancel")
        page.wait_for_selector("#wc-cancel", state="detached")
    src, dst = (enemy, front) if troops[enemy] >= 2 else (front, enemy)
    taps.territory("wc", src, "!!document.getElementById('wc-cancel')")
    taps.territory("wc", dst, "!!document.getElementById('wc-fortify')")
    amount = int(page.input_value("#wc-amount"))
    taps.tap("#wc-amount-less")
    page.wait_for_function(f"document.getElementById('wc-amount').value === '{amount - 1}'")
    taps.tap("#wc-fortify")
    page.wait_for_function(f"document.getElementById('wc-panel-inner').dataset.step !== '{step}'")
    assert f"moves {amount - 1} troops from {RULES.names[src]} to {RULES.names[dst]} and ends the turn" in page.inner_text("#shell-log")
    assert any("(badge)" in s[0] for s in taps.sizes), "no pick landed on a troop badge"
    taps.report("World turn")
    assert all(s[1] >= MIN and s[2] >= MIN for s in taps.sizes), taps.sizes
    w.assert_clean()


def test_a_metagame_capital_and_invasion_by_taps_on_a_phone(phone: Any, base_url: str) -> None:
    # the capitals: a tap on an unnamed territory zooms, the picking tap is named beside the
    # controls and undone in one tap
    fresh = Match(METAGAME, {"players": ["Ann", "Bob", "Cy"], "games": ["conquests", "reign", "Chess", "Go"],
                             "seed": 3}).save().to_json()
    page = phone.new_page()
    w = watch(page, base_url)
    page.emulate_media(reduced_motion="reduce")
    page.goto(base_url + "play/metagame/#" + make_fragment(fresh, "h"))
    w.wait_engine()
    page.wait_for_timeout(1500)
    taps = Taps(page, "mg-map")
    print("Metagame at 360x740:", map_figures(page, "mg"))
    logged = "document.querySelectorAll('#shell-log li').length"
    cap = int(page.locator("#mg-map .territory.is-eligible").first.get_attribute("data-index") or 0)
    at = taps.territory("mg", cap, f"{logged} > 0")
    assert at["named"]
    name = page.get_attribute(f"#mg-t{cap}", "data-name")
    assert page.inner_text("#mg-last-pick-text") == f"Ann's capital: {name} (M4)."
    page.screenshot(path=str(SHOTS / "phone-metagame-capital-360.png"))
    taps.tap("#mg-undo-pick")
    page.wait_for_function(f"{logged} === 0")
    assert page.locator("#mg-last-pick").count() == 0

    # the invasion, on Ann's first turn with Bob's territory beside her capital
    save, target = save_at_turn()
    page.goto(base_url + "play/metagame/#" + make_fragment(save, "h"))
    w.wait_engine()
    page.wait_for_timeout(1500)
    n = page.locator("#shell-log li").count()
    taps.territory("mg", target, f"{logged} > {n}")
    names = Match(METAGAME, save["options"], save["log"]).state.board.names
    assert page.inner_text("#mg-last-pick-text") == f"Ann invades {names[target]} (M5)."
    for side in range(2):  # each side's slices
        page.wait_for_selector("#mg-fill")
        if side == 0:
            page.screenshot(path=str(SHOTS / "phone-metagame-slices-360.png"))
        taps.tap("#mg-fill")
        page.wait_for_function("!document.getElementById('mg-assign').disabled")
        n = page.locator("#shell-log li").count()
        taps.tap("#mg-assign")
        page.wait_for_function(f"{logged} > {n}")
    page.screenshot(path=str(SHOTS / "phone-metagame-spin-360.png"))
    taps.tap("#mg-spin")
    page.wait_for_selector(".mg-drawn")
    while page.locator("#mg-keep").count():
        page.wait_for_timeout(600)  # the wheel at rest, the result shown
        n = page.locator("#shell-log li").count()
        taps.tap("#mg-keep")
        page.wait_for_function(f"{logged} > {n}")
    page.wait_for_selector("#mg-won-a")
    page.wait_for_timeout(600)
    page.screenshot(path=str(SHOTS / "phone-metagame-result-360.png"))
    taps.tap("#mg-won-d")
    page.wait_for_function("document.querySelector('#shell-log li:last-child').textContent.includes('Bob earns a block token')")
    taps.report("Metagame capital and invasion")
    w.forgive_navigation_aborts()  # the capitals' page was left for the invasion's link
    w.assert_clean()


def small_targets(page: Any) -> list[Any]:
    """Every button, field and select of the game drawn under 44x44 px."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#shell-game button, #shell-game select, #shell-game input:not([type=checkbox])')]
            .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
            .map((e) => { const r = e.getBoundingClientRect(); return [e.id || e.textContent.trim().slice(0, 16), r.width, r.height]; })
            .filter(([, w, h]) => w < 44 - 0.5 || h < 44 - 0.5)"""
    )


def test_reign_and_conquests_targets_and_text_on_a_phone(phone: Any, base_url: str) -> None:
    """Issue 21: Reign's +/- (40x32 before) and card actions (32 px tall), Undo (57x32), the
    words of the cards' names ("Agricultur al Lands"), the 6x6 board's coordinates (8.8 px)."""
    from conquest.core import get_game
    from conquest.rng import Rng

    reign = get_game("reign")
    m = Match(reign, {"seats": [{"name": "Ann", "colour": "#e69f00"}, {"name": "Bob", "colour": "#56b4e9"}]},
              rng=Rng(1))
    while m.state.phase != "battle":  # the first battle: both sides choose cards and purchases
        m.resolve_chance()
        legal = reign.legal_actions(m.state)
        m.play(next((a for a in legal if type(a).__name__ == "Battle"), legal[0]))
    page = phone.new_page()
    w = watch(page, base_url)
    page.goto(base_url + "play/reign/#" + make_fragment(m.save().to_json(), "h"))
    w.wait_engine()
    page.wait_for_selector("#shell-handover button, .rg-buy button")
    if page.locator("#shell-handover button").count():  # two people: the device goes to Ann
        page.locator("#shell-handover button").first.tap()
    page.wait_for_selector(".rg-buy button")
    assert page.locator(".rg-card h3").count() == 6
    assert small_targets(page) == []
    broken = page.evaluate(
        """() => {
            const out = [];
            for (const h of document.querySelectorAll('.rg-card h3')) {
                const node = h.firstChild, text = node.textContent;
                for (const m of text.matchAll(/\\S+/g)) {
                    const r = document.createRange();
                    r.setStart(node, m.index);
                    r.setEnd(node, m.index + m[0].length);
                    const lines = new Set([...r.getClientRects()].map((b) => Math.round(b.top)));
                    if (lines.size > 1) out.push(m[0]);
                }
            }
            return out;
        }"""
    )
    assert broken == [], f"words broken across lines: {broken}"
    assert page.locator("#shell-undo").bounding_box()["height"] >= 44

    page.goto(base_url + "play/conquests/")
    w.wait_engine()
    page.locator("#shell-start").tap()
    page.wait_for_selector("#shell-game:not([hidden])")
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('.cq-board .coord')].filter((t) => t.getClientRects().length).map((t) => {
            const m = t.getScreenCTM(); return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); })"""
    )
    assert len(sizes) >= 12 and min(sizes) >= 12, sizes
    assert small_targets(page) == []
    w.forgive_navigation_aborts()
    w.assert_clean()


def finished_world(last: bool) -> str:
    """A host link to a bots' game of World won by Bob (played by the person): the whole
    game, or all of it but its last attack (Bob's, which takes the last territory)."""
    from conquest.games.world import GAME as WORLD
    from conquest.games.world.bots import RuleBot
    from conquest.rng import Rng
    from tests.browser.test_world_page import COLOURS, think

    seats: list[dict[str, str]] = [{"name": n, "colour": c} for n, c in zip(("Ann", "Bob", "Cy"), COLOURS, strict=True)]
    m = Match(WORLD, {"seats": seats, "order": "fixed", "deal": True}, rng=Rng(1))
    m.resolve_chance()
    bot = RuleBot(Rng(1))
    while m.state.phase != "over":
        m.play(think(bot, m.state))
    assert m.state.winner == 1
    save = m.save().to_json()
    save["options"] = {**save["options"], "seats": [s if i == 1 else {**s, "bot": "Rule-based"}
                                                    for i, s in enumerate(seats)]}
    if last:
        assert save["log"][-3] == "b17-19"
        save["log"] = save["log"][:-3]  # the attack until done ("b17-19") and its two rolls
        save["undone"] = []
    return make_fragment(save, "h")


def on_first_screen(page: Any, selector: str) -> dict[str, Any]:
    """Where ``selector`` is drawn, measured as it stands: nothing is scrolled or swiped."""
    box = page.evaluate(
        """(sel) => { const el = document.querySelector(sel); if (!el) return null;
            const b = el.getBoundingClientRect(), t = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
            const sheet = el.closest('.play-sheet');
            const clip = Math.min(innerHeight, sheet ? sheet.getBoundingClientRect().bottom : innerHeight);
            return { top: b.top, bottom: b.bottom, clip, w: b.width, h: b.height,
                     free: !!t && (t === el || el.contains(t)) }; }""",
        selector,
    )
    assert box is not None, f"no {selector}"
    assert box["top"] >= 0 and box["bottom"] <= box["clip"] + 0.5 and box["free"], \
        f"{selector} is not on the first screen (or cut by the sheet's edge): {box}"
    return box


def test_a_finished_game_shows_its_result_and_next_step_without_a_swipe(phone: Any, base_url: str) -> None:
    """Issue 21 (left item 2): the winning roll by a tap; then the result (the page's winner
    line and "What just happened") and the next steps (Play again, another game) are on the
    first screen at 360x740, without swiping the sheet or scrolling. Before, the next steps
    were in the status bar, cut to 56 px: "Play again" half drawn (y 26-70), "Start or resume
    another game" under the bar's edge (y 76-120), not tappable."""
    page = phone.new_page()
    w = watch(page, base_url)
    page.goto(base_url + "play/world/#" + finished_world(last=True))
    w.wait_engine()
    act, step = wait_act(page, None)
    assert act == "attack"
    page.wait_for_timeout(1500)  # the play screen scrolled into place (mapboard.js)
    taps = Taps(page, "wc-map")
    # the last attack by taps: from Northern Europe (17) on Southern Europe (19), until done
    taps.territory("wc", 17, "!!document.getElementById('wc-cancel')")
    taps.territory("wc", 19, "!!document.getElementById('wc-blitz')")
    taps.tap("#wc-blitz")
    act, _ = wait_act(page, step)
    assert act == "over", "Bob's attack until done did not take the last territory"
    page.wait_for_timeout(600)
    scrolled = page.evaluate("[window.scrollY, document.querySelector('.play-sheet').scrollTop]")
    page.screenshot(path=str(SHOTS / "phone-world-over-360.png"))
    on_first_screen(page, "#wc-win")
    assert page.inner_text("#wc-win") == "Bob holds the world and wins (W7)."
    box = on_first_screen(page, "#shell-result-inner")
    assert "Bob" in page.inner_text("#shell-result-inner") and box["h"] > 20
    if page.locator("#wc-result").count():  # the roll's dice with it
        on_first_screen(page, "#wc-result")
    for sel in ("#shell-rematch", "#shell-over-new"):
        box = on_first_screen(page, sel)
        assert box["w"] >= MIN and box["h"] >= MIN, f"{sel} is {box['w']:.0f}x{box['h']:.0f} px"
    taps.screen()  # the map on screen, the bar at most 56 px, no overflow, no small text
    assert page.evaluate("[window.scrollY, document.querySelector('.play-sheet').scrollTop]") == scrolled
    assert scrolled[1] == 0, "the sheet was swiped"
    page.locator("#shell-rematch").tap()  # the next step works by a tap
    page.wait_for_function("document.getElementById('wc-panel-inner').dataset.act !== 'over'", timeout=60_000)
    w.forgive_navigation_aborts()
    w.assert_clean()


def test_short_campaign_play_screen_on_a_phone(phone: Any, base_url: str) -> None:
    """Issue 21 (left item 3): Short Campaign at 360x740 gets the play screen World and the
    Metagame have: the map and its Choose list on top, the question (or its reveal) and the
    scores in the sheet under them. Every question is answered and every territory picked by
    taps (a guess typed on the phone's keyboard) with the question's controls and the map on
    one screen, never a scroll between them. Before, the question stood above the map: the
    map started at y 586 under a question (its foot at 802, past the screen) and at y 795
    under the reveal of a pick, the Choose list at y 1021."""
    page = phone.new_page()
    w = watch(page, base_url)
    page.goto(base_url + "play/campaign/")
    w.wait_engine()
    page.wait_for_selector("#cp-cat-capitals")
    page.locator("#shell-start").tap()
    page.wait_for_selector("#shell-game:not([hidden])")
    page.wait_for_timeout(1500)  # the play screen scrolled into place (mapboard.js)
    taps = Taps(page, "cp-map")
    print("Short Campaign at 360x740:", map_figures(page, "cp"))
    acts: dict[str, int] = {}
    scroll = None
    step: str | None = None
    from tests.browser.test_campaign_page import wait_acting

    games = 1
    for _ in range(120):
        act, step = wait_acting(page, step)
        if act == "over":
            # the game is random: a person can be out before the map was tapped enough; the
            # finished game's "Play again" (a tap too) starts another
            if games >= 4:
                break
            taps.tap("#shell-rematch")
            page.wait_for_function("document.getElementById('cp-stage-inner').dataset.act !== 'over'")
            # its notice stands over the foot of the sheet, where a long question puts the
            # Answer button (CI of 60bc35f: covered): the person taps it away (it would go by
            # itself after Shell.say's NOTICE_MS)
            if page.locator("#shell-toast-inner .shell-toast-close").count():
                taps.tap("#shell-toast-inner .shell-toast-close")
                page.wait_for_selector("#shell-toast-inner", state="hidden")
            games += 1
            step = None
            page.wait_for_timeout(1500)  # the play screen scrolled into place again (mapboard.js)
            scroll = None
            continue
        now = page.evaluate("window.scrollY")
        scroll = now if scroll is None else scroll
        assert abs(now - scroll) <= 4, f"the page scrolled from {scroll} to {now} at {act}"  # the bar's 1-2 px aside
        acts[act] = acts.get(act, 0) + 1
        if act == "hold":
            taps.tap("#cp-go")
            page.wait_for_function("document.getElementById('cp-stage-inner').dataset.act !== 'hold'")
            step = None
        elif act == "answer-guess":
            on_first_screen(page, "#cp-qtext")
            taps.tap("#cp-guess")
            low = int(page.get_attribute("#cp-guess", "min") or 0)
            high = int(page.get_attribute("#cp-guess", "max") or 0)
            page.keyboard.type(str((low + high) // 3))  # the phone's keyboard
            taps.tap("#cp-guess-go")
        elif act == "answer-choice":
            on_first_screen(page, "#cp-qtext")
            taps.tap("#cp-opt-0")
        else:  # pick or attack: on the map by taps, and now and then in the Choose list
            if act == "pick" and acts[act] == 1:
                page.screenshot(path=str(SHOTS / "phone-campaign-pick-360.png"))
            if acts[act] % 2:
                t = int(page.locator("#cp-map .territory.is-eligible").first.get_attribute("data-index") or 0)
                taps.territory("cp", t, f"document.getElementById('cp-stage-inner').dataset.step !== '{step}'")
            else:
                taps.tap("#cp-choose-inner button")
        # the map tapped twice (picks or attacks: how many of each the game offers the person
        # depends on who wins the questions) and two guesses typed
        if acts.get("pick", 0) + acts.get("attack", 0) >= 3 and acts.get("answer-guess", 0) >= 2:
            break
    page.screenshot(path=str(SHOTS / "phone-campaign-360.png"))
    assert acts.get("pick", 0) + acts.get("attack", 0) >= 2, (acts, games)
    assert acts.get("answer-guess", 0) >= 2, acts
    taps.report("Short Campaign")
    assert all(s[1] >= MIN and s[2] >= MIN for s in taps.sizes), taps.sizes
    w.assert_clean()
