"""The Game of Conquests play page in a real browser: a newcomer's path (issue #5)."""
from __future__ import annotations

from conquest.savecode import make_fragment
from conquest.session import Match

MOVES = "#cq-moves code"


def n_moves(page) -> int:
    return page.locator(MOVES).count()


def test_conquests_newcomer_path(open_page) -> None:
    w = open_page("play/conquests/")
    page = w.page
    # the start position is drawn at build time, before Python runs
    assert page.locator("#cq-pieces .piece").count() == 16
    page.select_option("#cq-seat-0", "human")
    page.select_option("#cq-seat-1", "easy")
    page.click("#cq-start")
    page.wait_for_selector("#cq-game:not([hidden])")
    # click a Soldier: its legal squares are marked; click one to move
    page.click("#cq-sq-b2")
    assert page.locator("#cq-marks .dot").count() == 3
    page.click("#cq-sq-b3")
    page.wait_for_function(f"document.querySelectorAll('{MOVES}').length >= 2", timeout=60_000)
    assert page.locator(MOVES).first.inner_text() == "b2b3"
    # a typed illegal move is refused with the engine's reason, and nothing changes
    page.fill("#cq-typed-text", "a1a3")
    page.click("#cq-typed button")
    assert "C2" in page.locator("#error-banner").inner_text()
    assert n_moves(page) == 2
    # undo against the computer goes back to the person's turn
    page.click("#cq-undo")
    page.wait_for_function(f"document.querySelectorAll('{MOVES}').length === 0")
    # reload keeps the game (it is in a save slot)
    page.click("#cq-sq-e2")
    page.click("#cq-sq-e3")
    page.wait_for_function(f"document.querySelectorAll('{MOVES}').length >= 2", timeout=60_000)
    page.reload()
    w.wait_engine()
    page.wait_for_selector("#cq-game:not([hidden])")
    assert page.locator(MOVES).first.inner_text() == "e2e3"
    w.assert_clean()


def test_conquests_placement_and_danger_from_a_link(open_page) -> None:
    # White's General must place a fighter on d2 to step to c2 (the Lancer f2 covers rank 2)
    match = Match("conquests", {"position": "g5/6/6/6/5l++/2G3 SA w 0 1", "seats": ["human", "human"]})
    w = open_page("play/conquests/#" + make_fragment(match.save().to_json(), "h"))
    page = w.page
    page.wait_for_selector("#cq-game:not([hidden])")
    page.click("#cq-sq-c1")
    page.click("#cq-sq-c2")
    assert page.locator("#cq-place").is_visible()
    assert page.locator("#cq-place-skip").is_disabled()  # alone it would be in Danger (C5)
    page.locator("#cq-res-0 button", has_text="Soldier").click()
    page.click("#cq-sq-d2")
    page.wait_for_function(f"document.querySelectorAll('{MOVES}').length === 1")
    assert page.locator(MOVES).first.inner_text() == "c1c2+S1@d2"
    # Black's Lancer takes the Soldier: White's General is in Danger
    page.click("#cq-sq-f2")
    page.click("#cq-sq-d2")
    page.wait_for_function(f"document.querySelectorAll('{MOVES}').length === 2")
    assert "Danger!" in page.locator("#cq-status").inner_text()
    assert page.locator("#cq-marks .danger").count() == 1
    w.assert_clean()
