"""Issue 41 for the Short Campaign and the landing page: after every tap, what just happened
and what to do next are on the screen, without a swipe.

A seeded Short Campaign game (one person, two computer players, opened from its link) is
walked by taps alone at 360x740 (touch) and by clicks at 1280x800, through the expansion
round and at least two battle questions. After every tap, once the page is waiting for the
person again and its own scrolling has come to rest (``tapwalk.settle``), the page marks one
``next`` (the control or panel to act on) and, from the first reveal on, one ``result`` (the
reveal, or the shell's "What just happened" after a pick or an attack), and both are inside
the screen (``tapwalk.out_of_view``, boxes against the viewport and the phone's sheet). Each
tapped target is on the screen when it is tapped (never scrolled to by the test) and, at
360 px, at least 44x44 px. While a question is open its result is not shown (the question
is what the person reads: ``CampaignPage.result_until``), so only ``next`` is asked for then.

The landing page at 360x740 lists each game once, and its first screen holds the games to
continue (one saved here) and at least the first game's card.

Figures are printed (``-s``): taps, the smallest target, the landing page's height.
"""
from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conquest.core import games
from conquest.games.campaign import GAME
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.conftest import watch
from tests.browser.tapwalk import marked, out_of_view, settle

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
DESK = {"viewport": {"width": 1280, "height": 800}}
MIN = 44
SHOTS = Path(tempfile.gettempdir()) / "conquest-shots"
SHOTS.mkdir(exist_ok=True)
#: what the stage waits for when the person must act, and the end
ACTING = ("hold", "answer-guess", "answer-choice", "pick", "attack", "over")


def seeded_link(seed: int = 5) -> str:
    """A new game's host link: Ann here, Bob and Cy the computer, its Bases drawn by ``seed``."""
    seats = [{"name": "Ann", "colour": "#e69f00"}, {"name": "Bob", "colour": "#56b4e9", "bot": "Medium"},
             {"name": "Cy", "colour": "#009e73", "bot": "Medium"}]
    m = Match(GAME, {"seats": seats, "seconds": 60, "mix": True}, rng=Rng(seed))
    m.resolve_chance()
    return make_fragment(m.save().to_json(), "h")


def stage(page: Any) -> tuple[str, str]:
    el = page.locator("#cp-stage-inner")
    return str(el.get_attribute("data-act")), str(el.get_attribute("data-step"))


def wait_acting(page: Any, last: str | None) -> tuple[str, str]:
    page.wait_for_function(
        """([acting, last]) => {
            const el = document.getElementById('cp-stage-inner');
            return el && acting.includes(el.dataset.act) && (el.dataset.step !== last || el.dataset.act === 'hold');
        }""",
        arg=[list(ACTING), last or ""], timeout=60_000,
    )
    return stage(page)


class Walk:
    """Taps (or clicks) with issue 41's checks after each."""

    def __init__(self, page: Any, phone: bool) -> None:
        self.page = page
        self.phone = phone
        self.sizes: list[tuple[str, float, float]] = []
        self.checks = 0
        self.failures: list[str] = []

    def tap(self, selector: str) -> None:
        """The target as it is (no scroll by the test): on screen, free, at 360 px >= 44x44."""
        box = self.page.evaluate(
            """(sel) => {
                const el = document.querySelector(sel);
                if (!el) return null;
                const b = el.getBoundingClientRect(), x = b.left + b.width / 2, y = b.top + b.height / 2;
                const sheet = el.closest('.play-sheet');
                const s = sheet && getComputedStyle(sheet).overflowY !== 'visible' ? sheet.getBoundingClientRect() : null;
                const top = Math.max(0, s ? s.top : 0), bottom = Math.min(innerHeight, s ? s.bottom : innerHeight);
                const hit = document.elementFromPoint(x, y);
                return { x, y, w: b.width, h: b.height, on: b.top >= top - 0.5 && b.bottom <= bottom + 0.5,
                         free: !!hit && (hit === el || el.contains(hit)), at: [b.top, b.bottom, top, bottom] };
            }""",
            selector,
        )
        assert box is not None, f"no {selector}"
        assert box["on"], f"{selector} is off screen when it is to be tapped: {box}"
        assert box["free"], f"{selector} is covered: {box}"
        if self.phone:
            assert box["w"] >= MIN and box["h"] >= MIN, f"{selector} is {box['w']:.0f}x{box['h']:.0f} px"
            self.page.touchscreen.tap(box["x"], box["y"])
        else:
            self.page.mouse.click(box["x"], box["y"])
        self.sizes.append((selector, box["w"], box["h"]))

    def check(self, act: str, want_result: bool) -> None:
        settle(self.page)
        marks = marked(self.page)
        off = out_of_view(self.page)
        self.checks += 1
        problems = []
        if act != "over" and marks.get("next", 0) != 1:
            problems.append(f"{marks.get('next', 0)} marked next")
        if marks.get("result", 0) > 1 or (want_result and marks.get("result", 0) != 1):
            problems.append(f"{marks.get('result', 0)} marked result")
        if off:
            problems.append(f"out of view: {off}")
        if problems:
            self.failures.append(f"at {act}: " + "; ".join(problems))


def walk_campaign(page: Any, walk: Walk, width: int) -> dict[str, int]:
    """The person's taps through the expansion round, two battle questions and a pick or attack of
    their own (or the end)."""
    counts = {"hold": 0, "answer-guess": 0, "answer-choice": 0, "pick": 0, "attack": 0, "battle": 0, "reveals": 0}
    step: str | None = None
    shot = {"question": False, "reveal": False}
    for _ in range(200):
        act, step = wait_acting(page, step)
        reveal = page.locator("#cp-reveal").count() > 0
        counts["reveals"] += reveal and act in ("hold", "pick", "attack")
        walk.check(act, want_result=act in ("hold", "pick", "attack", "over") and reveal)
        if reveal and not shot["reveal"] and act == "hold":
            page.screenshot(path=str(SHOTS / f"tapwalk-campaign-reveal-{width}.png"))
            shot["reveal"] = True
        # until two battle questions, three answers and one pick or attack of the person's own
        # (who wins the expansion's questions depends on how fast the person answered: a
        # loaded machine answers late; the battle rounds give every player an attack in turn)
        if act == "over" or counts["battle"] >= 2 and counts["answer-guess"] + counts["answer-choice"] >= 3 \
                and counts["pick"] + counts["attack"] >= 1:
            break
        counts[act] += 1
        if act == "hold":
            walk.tap("#cp-go")
            page.wait_for_function("document.getElementById('cp-stage-inner').dataset.act !== 'hold'")
            step = None
            continue
        if act.startswith("answer"):
            if not shot["question"]:
                page.screenshot(path=str(SHOTS / f"tapwalk-campaign-question-{width}.png"))
                shot["question"] = True
            counts["battle"] += " attacks, " in page.inner_text("#cp-question .cp-purpose")
        if act == "answer-guess":
            walk.tap("#cp-guess")
            low = int(page.get_attribute("#cp-guess", "min") or 0)
            high = int(page.get_attribute("#cp-guess", "max") or 0)
            page.keyboard.type(str((low + high) // 3))
            walk.tap("#cp-guess-go")
        elif act == "answer-choice":
            walk.tap(f"#cp-opt-{counts[act] % 4}")
        else:  # pick or attack: from the list under the map
            walk.tap("#cp-choose-inner button")
    return counts


@pytest.fixture(params=["360", "1280"])
def device(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[Any, bool, int]]:
    phone = request.param == "360"
    ctx = browser.new_context(**(PHONE if phone else DESK))
    yield ctx, phone, int(request.param)
    ctx.close()


def test_campaign_tap_walk(device: tuple[Any, bool, int], base_url: str) -> None:
    ctx, phone, width = device
    page = ctx.new_page()
    w = watch(page, base_url)
    page.goto(base_url + "play/campaign/#" + seeded_link())
    w.wait_engine()
    page.wait_for_selector("#shell-game:not([hidden])")
    walk = Walk(page, phone)
    counts = walk_campaign(page, walk, width)
    smallest = min(walk.sizes, key=lambda s: min(s[1], s[2]))
    print(f"Short Campaign at {width}: {len(walk.sizes)} taps, {walk.checks} checks, smallest target "
          f"{smallest[0]} {smallest[1]:.0f}x{smallest[2]:.0f} px, {counts}; failures {len(walk.failures)}")
    assert not walk.failures, "\n".join(walk.failures)
    assert counts["pick"] >= 1 or counts["attack"] >= 1, counts
    assert counts["battle"] >= 2, counts
    w.forgive_navigation_aborts()
    w.assert_clean()


def test_landing_page_each_game_once_and_the_first_screen(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(**PHONE)
    try:
        game = ctx.new_page()  # a saved game to continue, made on a page of its own (leaving it
        first = watch(game, base_url)  # aborts what it still loads: not this test's business)
        game.goto(base_url + "play/reign/")
        first.wait_engine()
        game.locator("#shell-start").tap()
        game.wait_for_selector("#shell-game:not([hidden])")
        game.close()
        page = ctx.new_page()
        w = watch(page, base_url)
        page.goto(base_url)
        w.wait_engine()
        page.locator("#continue-link").wait_for()
        page.wait_for_timeout(300)
        got = page.evaluate(
            """() => {
                const titles = [...document.querySelectorAll('main h3')].map((e) => e.textContent.trim());
                const box = (s) => { const e = document.querySelector(s); return e ? e.getBoundingClientRect().bottom : null; };
                return { titles, height: document.documentElement.scrollHeight, cont: box('#continue'),
                         first: box('.cards .card'), h: innerHeight };
            }"""
        )
        page.screenshot(path=str(SHOTS / "tapwalk-landing-360.png"))
        print(f"landing page at 360: {got['height']} px tall, continue ends at {got['cont']:.0f}, "
              f"the first game's card at {got['first']:.0f}")
        names = [g.title for g in games().values()]
        assert sorted(got["titles"]) == sorted(names), got["titles"]  # each game once
        assert got["cont"] <= got["h"], got
        assert got["first"] <= got["h"], got
        w.assert_clean()
    finally:
        ctx.close()
