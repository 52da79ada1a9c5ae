"""Pass-the-device screens in a real browser (issue 19), World Conquest with three people.

The rules of the hand-over are the shell's and tested in CPython (tests/test_handover.py);
this repeats the issue's two faults through the real page: on "Pass to Ben" the log's View
drew a step of Ann's turn with Ann's hand (fault 1), and Undo on the pass screen took back
Ann's step and drew her whole turn, hand included, for whoever held the device (fault 2).
The position is a game the engine's Rule-based bot played for every seat, opened by a host
link with all three seats given to people: Ann, holding cards, is about to end her turn and
Ben, next, holds cards too.
"""
from __future__ import annotations

from typing import Any

from conquest.games.world import GAME
from conquest.games.world.actions import EndTurn
from conquest.games.world.bots import RuleBot
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match

PEOPLE = [{"name": n, "colour": c} for n, c in (("Ann", "#e69f00"), ("Ben", "#56b4e9"), ("Cy", "#009e73"))]


def think(bot: RuleBot, state: Any) -> Any:
    gen = bot.think(GAME, state)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def ann_ends_her_turn(seed: int = 1) -> str:
    """A host link to the step before Ann (with cards) ends her turn and Ben (with cards) begins."""
    m = Match(GAME, {"seats": PEOPLE, "order": "fixed", "deal": True}, rng=Rng(seed))
    m.resolve_chance()
    bot = RuleBot(Rng(seed))
    for _ in range(3000):
        st = m.state
        action = think(bot, st)
        if isinstance(action, EndTurn) and st.current == 0 and st.hand_size(0) >= 1:
            trial = Match(GAME, m.options, m.log, rng=Rng(seed))
            trial.play(action)
            if trial.state.current == 1 and trial.state.phase == "reinforce" and trial.state.hand_size(1) >= 1:
                return make_fragment(m.save().to_json(), "h")
        m.play(action)
    raise AssertionError("no such position")


def step_number(page: Any) -> int:
    """The step the status bar shows ("Step 171 · ...")."""
    return int(page.inner_text(".shell-stepno").split()[1].replace(",", ""))


def no_hand(page: Any) -> None:
    """Nothing of anybody's hand anywhere in the page, shown or hidden."""
    assert "Your cards" not in page.content()
    assert page.locator("#wc-hand").count() == 0


def test_the_pass_screen_shows_no_hand_and_only_ready_reacts(open_page) -> None:  # noqa: ANN001
    w = open_page("play/world/#" + ann_ends_her_turn())
    page = w.page
    page.wait_for_selector("#shell-ready")
    assert "Pass to Ann" in page.inner_text("#shell-handover")
    no_hand(page)
    page.click("#shell-ready")
    page.wait_for_selector("#wc-hand")
    ann_hand = page.inner_text("#wc-cards-inner h2")
    assert ann_hand.startswith("Your cards")
    page.click("#wc-end")
    page.wait_for_selector("#shell-ready")
    assert "Pass to Ben" in page.inner_text("#shell-handover")
    no_hand(page)
    page.screenshot(path="/tmp/i19-pass-1280.png", full_page=False)

    # fault 1: the log's View on a step of Ann's turn is dead on the pass screen
    views = page.locator("#shell-log li button[data-view]")
    assert views.count() > 0 and all(views.nth(i).is_disabled() for i in range(views.count()))
    page.evaluate("document.querySelector('#shell-log li:last-child button[data-view]').click()")
    page.keyboard.press("Escape")
    page.keyboard.press("1")
    assert not page.locator("#shell-viewing .shell-viewing").is_visible()
    assert "Viewing step" not in page.inner_text("#shell-game")
    no_hand(page)
    assert page.locator("#shell-copy-host").count() == 0  # no link past the pass screen

    # fault 2: Undo is dead on the pass screen; after Ben's Ready it asks, and Ann's step taken
    # back sends the device to Ann before her hand is drawn again
    assert page.locator("#shell-undo").is_disabled()
    page.evaluate("document.getElementById('shell-undo').click()")
    assert "Pass to Ben" in page.inner_text("#shell-handover") and not w.dialogs
    page.click("#shell-ready")
    page.wait_for_selector("#wc-hand")
    assert page.inner_text("#wc-cards-inner h2").startswith("Your cards")
    steps = step_number(page)
    w.answers.append(True)  # "Take back step N, Ann's move (...)?": yes
    page.click("#shell-undo")
    page.wait_for_selector("#shell-ready")
    assert "Pass to Ann" in page.inner_text("#shell-handover")
    assert step_number(page) < steps
    no_hand(page)
    page.click("#shell-ready")
    page.wait_for_selector("#wc-hand")
    assert page.inner_text("#wc-cards-inner h2") == ann_hand
    # at 360 px the pass screen is the first thing and Ready is a big enough target
    page.click("#wc-end")
    page.wait_for_selector("#shell-ready")
    page.set_viewport_size({"width": 360, "height": 740})
    box = page.locator("#shell-ready").bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    page.screenshot(path="/tmp/i19-pass-360.png", full_page=False)
    w.assert_clean()
