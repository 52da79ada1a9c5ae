"""Issue 41's tap-walk for To Reign Supreme and The Game of Conquests: a seeded hot-seat game
of each, walked by taps on a 360x740 touch screen and by clicks at 1280x800.

After every tap (once the page's own smooth scrolling has come to rest) the page must mark the
next decision (``data-now="next"``), and the newest result (``data-now="result"``) once an
action has been taken, and both must be inside the screen (``tapwalk.out_of_view``: element
boxes against the viewport). At 360 px every tapped target is at least 44x44 px. Between two
people a pass-the-device screen may come first: then its Ready button must be on the screen.

Every problem is collected with the tap it followed, so a failing run says how far off the
screen each thing was, not only the first.
"""
from __future__ import annotations

from typing import Any

import pytest

from conquest.games.conquests import GAME as CONQUESTS
from conquest.games.conquests import rules as R
from conquest.games.reign import GAME as REIGN
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match

from .tapwalk import marked, out_of_view, settle

VIEWS = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
#: Reign after its set-up: the layout dealt and both trackers laid (tests/browser/test_reign_page.py)
REIGN_START = ["Lwmscah", "tAB/AB"]
#: Conquests with a Soldier in each reserve: White's General can place one at once (C4), and
#: the Champion on d1 can take Black's on d6 (a capture)
CONQUESTS_START = "algcla/4s1/6/6/4S1/ALGCLA Ss w 0 1"

_BOX = """(sel) => { const el = document.querySelector(sel); if (!el) return null;
    const b = el.getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; }"""


class Walk:
    """Taps with issue 41's checks after each; ``problems`` keeps what failed, in words."""

    def __init__(self, page: Any, phone: bool) -> None:
        self.page = page
        self.phone = phone
        self.taps = 0
        self.acted = False  # an action was taken: a result must be marked from now on
        self.problems: list[str] = []

    def tap(self, selector: str, what: str = "") -> None:
        loc = self.page.locator(selector).first
        loc.wait_for(state="visible", timeout=10_000)
        loc.scroll_into_view_if_needed()
        box = self.page.evaluate(_BOX, selector)
        if self.phone and box is not None and (box[2] < 43.5 or box[3] < 43.5):
            self.problems.append(f"tap {self.taps + 1} {selector}: target {box[2]:.0f}x{box[3]:.0f} px")
        if self.phone:
            loc.tap()
        else:
            loc.click()
        self.taps += 1
        self.page.wait_for_timeout(60)
        self.check(what or selector)

    def check(self, what: str) -> None:
        page = self.page
        settle(page)
        where = f"tap {self.taps} ({what}, scrollY {page.evaluate('scrollY'):.0f})"
        ready = page.locator("#shell-ready")
        if ready.count() and ready.is_visible():  # a pass-the-device screen: its button in view
            b = page.evaluate(_BOX, "#shell-ready")
            # (half a pixel of rounding allowed, as tapwalk.out_of_view does)
            if b is None or b[1] < -0.5 or b[1] + b[3] > page.viewport_size["height"] + 0.5:
                self.problems.append(f"{where}: Ready is off the screen at {b}")
            return
        marks = marked(page)
        if marks.get("next", 0) != 1:
            self.problems.append(f"{where}: {marks.get('next', 0)} elements marked next")
        if self.acted and marks.get("result", 0) != 1:
            self.problems.append(f"{where}: {marks.get('result', 0)} elements marked result")
        self.problems += [f"{where}: {line}" for line in out_of_view(page)]


@pytest.fixture(params=list(VIEWS))
def walk_page(request: pytest.FixtureRequest, browser: Any, base_url: str) -> Any:
    """A page at 360x740 (touch) or 1280x800 in a context of the session's browser."""
    ctx = browser.new_context(**VIEWS[request.param])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield Walk(page, request.param == "phone"), base_url
    ctx.close()
    assert not errors, errors


def open_game(walk: Walk, url: str) -> None:
    page = walk.page
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.engine !== 'starting'", timeout=90_000)
    page.wait_for_selector("#shell-game:not([hidden])")


def report(walk: Walk) -> str:
    return f"{len(walk.problems)} problems in {walk.taps} taps:\n" + "\n".join(walk.problems)


def reign_tap(walk: Walk, page: Any, act: str, who: str = "") -> int:
    """The walk's one tap in To Reign Supreme for the stage's ``act``: in a battle a strategy
    card and Confirm, else Fight as we stand, else an attack, else End the turn now, else
    Develop or Reform, else End the turn. Returns 1 for a confirmed battle choice. Shared by the
    hot-seat walk and the live one (``who`` names the device's person in the problems)."""
    say = f"{who}: " if who else ""
    if act == "battle":
        if not page.locator("#rg-stage .rg-sc.is-on").count():
            walk.tap("#rg-stage .rg-sc", f"{say}a strategy card")
        walk.acted = True
        walk.tap("#rg-battle-go", f"{say}Confirm my choice")
        return 1
    if act == "respond":
        walk.tap("#rg-fight", f"{say}Fight as we stand")
        return 0
    attack = "#rg-board .rg-card-acts button[data-action^=b]"
    if page.locator(attack).count():
        walk.tap(attack, f"{say}Attack")
    elif page.locator("#rg-end-now").count():
        walk.tap("#rg-end-now", f"{say}End the turn")
    elif page.locator("#rg-board .rg-card-acts button").count():
        walk.tap("#rg-board .rg-card-acts button", f"{say}Develop or Reform")
    else:
        walk.tap("#rg-end", f"{say}End the turn")
    return 0


def test_reign_three_battles_by_taps(walk_page: Any) -> None:
    walk, base = walk_page
    save = Match(REIGN, {"setup": "easy", "players": ["Ann", "Bob"], "seed": 0}, REIGN_START, rng=Rng(1))
    open_game(walk, base + "play/reign/#" + make_fragment(save.save().to_json(), "h"))
    page = walk.page
    confirms = 0
    for _ in range(80):
        if confirms >= 6:  # three battles: each side confirmed three times
            break
        page.wait_for_function(
            """() => { const r = document.querySelector('#shell-ready');
                if (r && r.offsetParent) return true;
                const el = document.getElementById('rg-stage-inner');
                return el && ['battle', 'respond', 'turn', 'over'].includes(el.dataset.act); }""",
            timeout=30_000)
        if page.locator("#shell-ready").is_visible():
            walk.tap("#shell-ready", "Ready")
            continue
        act = page.get_attribute("#rg-stage-inner", "data-act")
        if act == "over":
            break
        confirms += reign_tap(walk, page, str(act))
        walk.acted = True
    assert confirms >= 6, f"only {confirms // 2} battles in {walk.taps} taps"
    assert not walk.problems, report(walk)


def conquests_choice(match: Match, n: int) -> Any:
    """The walk's next move: first the General's move with a placement, then a capture when
    there is one, else the first legal move of a fighter that is not the General."""
    acts = CONQUESTS.legal_actions(match.state)
    board = match.state.board
    if n == 0:
        return next(a for a in acts if a.place)
    takes = [a for a in acts if board[a.to] and not a.place]
    if takes:
        return takes[0]
    return next((a for a in acts if not a.place and R.kind_of(board[a.frm]) != R.GENERAL), acts[0])


def test_conquests_ten_moves_by_taps(walk_page: Any) -> None:
    walk, base = walk_page
    match = Match("conquests", {"position": CONQUESTS_START, "seats": ["human", "human"]})
    open_game(walk, base + "play/conquests/#" + make_fragment(match.save().to_json(), "h"))
    page = walk.page
    played: list[str] = []
    for n in range(10):
        a = conquests_choice(match, n)
        captures = bool(match.state.board[a.to])
        walk.tap(f"#cq-sq-{R.square_name(a.frm)}", f"move {n + 1}: the fighter on {R.square_name(a.frm)}")
        walk.tap(f"#cq-sq-{R.square_name(a.to)}", f"move {n + 1}: to {R.square_name(a.to)}")
        if a.place:
            walk.tap(f"#cq-sq-{R.square_name(a.place_sq)}", f"move {n + 1}: place on {R.square_name(a.place_sq)}")
        page.wait_for_function(f"document.querySelectorAll('#cq-moves code').length === {n + 1}")
        walk.acted = True
        walk.check(f"move {n + 1} played")
        match.play(str(a))
        played.append(str(a) + (" (capture)" if captures else ""))
    assert any("+" in m for m in played) and any("capture" in m for m in played), played
    assert [c.inner_text() for c in page.locator("#cq-moves code").all()] == list(match.log)
    # the move list's buttons are fingers' targets too
    if walk.phone:
        sizes = page.evaluate("[...document.querySelectorAll('#cq-moves button')].map(b => "
                              "[b.getBoundingClientRect().width, b.getBoundingClientRect().height])")
        small = [s for s in sizes if s[0] < 43.5 or s[1] < 43.5]
        assert not small, f"move list targets under 44 px: {small}"
    assert not walk.problems, report(walk)
