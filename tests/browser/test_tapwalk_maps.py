"""Issue 41 for the map games: after every tap, the newest result and the next decision are
on the screen, without a swipe, at 360x740 (touch) and at 1280x800 (mouse).

Two walks, each from a link to a seeded position (as test_world_page.py does), every step
by a tap (a click at 1280x800):

* World Conquest, hot-seat, three people, the territories dealt at random: the device passed
  to Ann, her reinforcements placed on a front territory, an attack picked on the map, one
  roll, an attack until done, the end of the turn, the device passed to Bob.
* The Metagame: Ann invades Bob's territory beside her capital on the map, both sides'
  slices (one each, on a built-in game, so the drawn game is played here), the spin, the
  result with the duel's choice (play here, live or by link) and the winner buttons.

After every tap (once the page's own smooth scrolling has come to rest) the page marks the
next decision (``data-now="next"``), and the newest result (``data-now="result"``) once the
walk has made one, at most one of each on screen, and every mark is inside the screen (and
inside the play screen's sheet on a phone): :mod:`tests.browser.tapwalk`.

Figures (printed): each walk's taps and the worst distance of a mark off the screen.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from conquest.games.metagame import GAME as METAGAME
from conquest.games.world import GAME as WORLD
from conquest.games.world.bots import RuleBot
from conquest.games.world.rules import RULES
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.conftest import click_territory, watch
from tests.browser.tapwalk import marked, out_of_view, settle
from tests.browser.test_metagame_page import SHOTS
from tests.browser.test_phone_page import PHONE, Taps
from tests.browser.test_world_page import COLOURS, board, think

DESK = {"viewport": {"width": 1280, "height": 800}}

SIZES = {"phone": PHONE, "desk": DESK}

#: marks drawn on screen (the hidden ones, e.g. the game behind a pass-the-device screen, aside)
_SHOWN = """() => { const n = {}; for (const el of document.querySelectorAll('[data-now]')) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    n[el.dataset.now] = (n[el.dataset.now] || 0) + 1; } return n; }"""


@pytest.fixture(params=["phone", "desk"])
def walker(request: Any, browser: Any, base_url: str) -> Iterator[tuple[Any, Any]]:
    ctx = browser.new_context(**SIZES[request.param])
    page = ctx.new_page()
    page.emulate_media(reduced_motion="reduce")
    w = watch(page, base_url)
    yield Walk(page, request.param == "phone"), w
    ctx.close()


class Walk:
    """Taps (or clicks) with the check of issue 41 after each."""

    def __init__(self, page: Any, touch: bool) -> None:
        self.page = page
        self.touch = touch
        self.taps: Taps | None = None
        self.n = 0
        self.results = False  # a result was marked: from then on there is always one
        self.failures: list[str] = []

    def start(self, map_id: str) -> None:
        self.page.wait_for_timeout(1500)  # the play screen scrolled into place (mapboard.js)
        self.taps = Taps(self.page, map_id) if self.touch else None

    def check(self, what: str) -> None:
        page = self.page
        settle(page)
        page.wait_for_timeout(120)  # a smooth scroll that starts a frame late
        settle(page)
        self.n += 1
        marks, shown, off = marked(page), page.evaluate(_SHOWN), out_of_view(page)
        self.results = self.results or "result" in marks
        wrong = []
        if "next" not in marks:
            wrong.append("no next decision marked")
        if self.results and "result" not in marks:
            wrong.append("no result marked")
        wrong += [f"{k} marked {v} times" for k, v in shown.items() if v > 1]
        wrong += off
        # the status bar's instruction stays on the screen (issue 41, point 4: World's bar
        # scrolled off the top at the first map tap)
        bar = page.evaluate("() => { const e = document.getElementById('shell-prompt');"
                            " if (!e || !e.getClientRects().length) return null;"
                            " const b = e.getBoundingClientRect(); return [b.top, b.bottom]; }")
        if bar is not None and (bar[0] < -0.5 or bar[1] > page.viewport_size["height"] + 0.5):
            wrong.append(f"the status bar's instruction at {bar[0]:.0f}..{bar[1]:.0f} px")
        if wrong:
            self.failures.append(f"after tap {self.n} ({what}): " + "; ".join(wrong))

    def tap(self, selector: str, what: str | None = None) -> None:
        if self.taps is not None:
            self.taps.tap(selector)
        else:
            self.page.click(selector)
        self.check(what or selector)

    def territory(self, prefix: str, t: int, changed: str) -> None:
        """Territory ``t`` picked on the map; on a phone a tap on it drawn small zooms in on it
        first (a tap too, checked as well), as a person does it (``Taps.territory``)."""
        page = self.page
        if self.taps is None:
            click_territory(page, f"{prefix}-t{t}")
            page.wait_for_function(changed, timeout=15_000)
            self.check(f"{prefix}-t{t}")
            return
        for _ in range(6):
            at = self.taps.spot(prefix, t)
            if at is None:
                self.tap(f".{prefix}-maptools button[data-zoom='reset']", "the whole map")
                page.wait_for_function(f"document.getElementById('{prefix}-map').dataset.zoom === '1.00'")
                continue
            big = at["w"] >= 44 and at["h"] >= 44 and at["named"]
            page.touchscreen.tap(at["x"], at["y"])
            if big:
                page.wait_for_function(changed, timeout=15_000)
                self.check(f"{prefix}-t{t}")
                return
            page.wait_for_function(f"document.getElementById('{prefix}-map').dataset.zoom !== '{at['zoom']}'")
            self.check(f"{prefix}-t{t}, zoomed in")
        raise AssertionError(f"{prefix}-t{t} never became a target")

    def done(self, what: str) -> None:
        far = [int(x) for f in self.failures for x in re.findall(r"at (-?\d+)\.\.", f)]
        print(f"{what} ({'360x740 touch' if self.touch else '1280x800'}): {self.n} taps, "
              f"{len(self.failures)} with a mark missing or off screen" + (f" (tops {far})" if far else ""))
        assert not self.failures, "\n".join(self.failures)


def world_link() -> str:
    """Three people, a random deal, fixed order: the set-up's troops placed (the engine's
    Rule-based bot places them), at Ann's first reinforcement."""
    seats = [{"name": n, "colour": c} for n, c in zip(("Ann", "Bob", "Cy"), COLOURS, strict=True)]
    m = Match(WORLD, {"seats": seats, "order": "fixed", "deal": True}, rng=Rng(7))
    m.resolve_chance()
    bot = RuleBot(Rng(7))
    while m.state.phase != "reinforce":
        m.play(think(bot, m.state))
    assert m.state.current == 0
    save = m.save().to_json()
    save["undone"] = []
    return make_fragment(save, "h")


def figures(page: Any, selectors: tuple[str, ...]) -> str:
    got = page.evaluate(
        """(sels) => sels.map((s) => { const el = document.querySelector(s);
            if (!el || !el.getClientRects().length) return `${s} -`;
            const b = el.getBoundingClientRect(); return `${s} ${b.top.toFixed(0)}..${b.bottom.toFixed(0)}`; })""",
        list(selectors))
    return ", ".join(got) + f" (screen {page.viewport_size['height']} px)"


def test_world_conquest_walk(walker: tuple[Walk, Any], base_url: str) -> None:
    walk, w = walker
    page = walk.page
    page.goto(base_url + "play/world/#" + world_link())
    w.wait_engine()
    page.wait_for_selector("#shell-ready, #wc-panel-inner[data-act='reinforce']")
    walk.start("wc-map")
    size = "360" if walk.touch else "1280"
    if page.locator("#shell-ready").is_visible():
        walk.tap("#shell-ready", "Ready (Ann)")
    page.wait_for_selector("#wc-panel-inner[data-act='reinforce']")

    def step() -> str:
        return str(page.get_attribute("#wc-panel-inner", "data-step"))

    own, troops = board(page)
    me = own[int(page.locator("#wc-map .territory.is-eligible").first.get_attribute("data-index") or 0)]
    fronts = [t for t in range(42) if own[t] == me and any(own[d] != me for d in RULES.adj[t])]
    front = max(fronts, key=lambda t: (troops[t], -sum(own[d] == me for d in RULES.adj[t])))
    walk.tap("#wc-place-all", "All")
    page.wait_for_function("document.getElementById('wc-place-n').value === document.getElementById('wc-place-n').max")
    s = step()
    walk.territory("wc", front, f"document.getElementById('wc-panel-inner').dataset.step !== '{s}'")
    page.wait_for_selector("#wc-panel-inner[data-act='attack']")

    own, troops = board(page)
    enemy = min((d for d in RULES.adj[front] if own[d] != me), key=lambda d: troops[d])
    walk.territory("wc", front, "!!document.getElementById('wc-cancel')")
    walk.territory("wc", enemy, "!!document.getElementById('wc-roll')")
    s = step()
    walk.tap("#wc-roll", "Roll")
    page.wait_for_function(f"document.getElementById('wc-panel-inner').dataset.step !== '{s}'")
    settle(page)
    print(f"World after a roll at {size}:", figures(page, ("#wc-here-svg", "#wc-dice-svg", "#wc-end", "#shell-bar-inner")))
    page.screenshot(path=str(SHOTS / f"tapwalk-world-roll-{size}.png"))
    if page.locator("#wc-blitz").count():
        s = step()
        walk.tap("#wc-blitz", "Attack until done")
        page.wait_for_function(f"document.getElementById('wc-panel-inner').dataset.step !== '{s}'")
    walk.tap("#wc-end", "End the turn")
    page.wait_for_selector("#shell-ready, #wc-panel-inner[data-act='reinforce']")
    if page.locator("#shell-ready").is_visible():
        walk.tap("#shell-ready", "Ready (Bob)")
    page.wait_for_selector("#wc-panel-inner[data-act='reinforce']")
    assert "Bob" in page.inner_text("#shell-prompt")
    walk.done("World Conquest")
    w.assert_clean()


def metagame_link() -> tuple[str, int]:
    """Ann's first turn, Bob's territory beside her capital; two built-in games and Chess."""
    m = Match(METAGAME, {"players": ["Ann", "Bob", "Cy"], "games": ["conquests", "reign", "Chess"], "seed": 3})
    m.play(f"k{METAGAME.view(m.state, None)['eligible']['territories'][0]}")
    while m.state.phase == "capital":
        m.play(str(METAGAME.legal_actions(m.state)[-1]))
    target = m.state.board.adj[m.state.capital[0]][0]
    m.play(f"!o{target}=1")
    return make_fragment(m.save().to_json(), "h"), target


def test_metagame_invasion_walk(walker: tuple[Walk, Any], base_url: str) -> None:
    walk, w = walker
    page = walk.page
    link, target = metagame_link()
    page.goto(base_url + "play/metagame/#" + link)
    w.wait_engine()
    walk.start("mg-map")
    size = "360" if walk.touch else "1280"
    logged = "document.querySelectorAll('#shell-log li').length"
    n = page.locator("#shell-log li").count()
    walk.territory("mg", target, f"{logged} > {n}")
    # Ann's one slice and Bob's two (a cap of 1 a game) on the built-in games: the drawn game's
    # duel is offered here, live or by link
    for games in (("The Game of Conquests",), ("The Game of Conquests", "To Reign Supreme")):
        page.wait_for_selector("#mg-assign")
        for game in games:
            walk.tap(f"#mg-slice-form button[aria-label='One slice more for {game}']", f"+ a slice for {game}")
        page.wait_for_function("!document.getElementById('mg-assign').disabled")
        n = page.locator("#shell-log li").count()
        walk.tap("#mg-assign", "Assign these slices")
        page.wait_for_function(f"{logged} > {n}")
    walk.tap("#mg-spin", "Spin the wheel")
    page.wait_for_selector(".mg-drawn:not([hidden])")
    while page.locator("#mg-keep").count():
        n = page.locator("#shell-log li").count()
        walk.tap("#mg-keep", "Keep the result")
        page.wait_for_function(f"{logged} > {n}")
    page.wait_for_selector("#mg-won-a")
    settle(page)
    walk.check("the wheel at rest")
    print(f"Metagame after a spin at {size}:",
          figures(page, ("#mg-result", "#mg-duel-here", "#mg-won-a", "#mg-won-d")))
    page.screenshot(path=str(SHOTS / f"tapwalk-metagame-spin-{size}.png"))
    n = page.locator("#shell-log li").count()
    walk.tap("#mg-won-d", "Bob (defender) won")
    page.wait_for_function(f"{logged} > {n}")
    walk.done("Metagame invasion")
    w.forgive_navigation_aborts()
    w.assert_clean()
