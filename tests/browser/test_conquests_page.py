"""The Game of Conquests play page in a real browser: a newcomer's path (issue #5), on the
game shell (seats, links, undo, the bot runner and messages come from ``site/py/shell.py``;
the page logic itself is tested in CPython by ``tests/test_page_conquests.py``)."""
from __future__ import annotations

import re
from urllib.parse import quote

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from conquest.savecode import make_fragment
from conquest.session import Match

MOVES = "#cq-moves code"
TOAST = "#shell-toast"


def n_moves(page) -> int:
    return page.locator(MOVES).count()


def wait_moves(page, n: int, timeout: int = 60_000, at_least: bool = False) -> None:
    op = ">=" if at_least else "==="
    page.wait_for_function(f"document.querySelectorAll('{MOVES}').length {op} {n}", timeout=timeout)


def play_a_legal_move(page, squares: tuple[str, ...]) -> None:
    """Choose the first of ``squares`` whose fighter has a legal move, by clicks, and play
    its first legal move (the board's labels name each one)."""
    for sq in squares:
        page.click(f"#cq-sq-{sq}")
        try:
            page.wait_for_selector(f"#cq-sq-{sq}.is-selected", timeout=3000)
        except PlaywrightTimeout:
            continue  # not a Black fighter (or one that cannot move)
        target = page.locator("rect[aria-label*='a legal move for the chosen fighter']")
        if target.count():
            page.click(f"#{target.first.get_attribute('id')}")
            return
        page.click(f"#cq-sq-{sq}")  # deselect
    raise AssertionError(f"no legal move from {squares}")


def drag(page, frm: str, to: str) -> None:
    """Press on one square, move the mouse in steps to another, release (a drag, not two clicks)."""
    a = page.locator(f"#cq-sq-{frm}").bounding_box()
    b = page.locator(f"#cq-sq-{to}").bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def top_of(page, selector: str) -> float:
    return page.locator(selector).bounding_box()["y"]


def test_conquests_newcomer_path(open_page) -> None:
    w = open_page("play/conquests/")
    page = w.page
    # the start position is drawn at build time, before Python runs
    assert page.locator("#cq-pieces .piece").count() == 16
    page.select_option("#seat-who-0", "human")
    page.select_option("#seat-who-1", "easy")
    page.click("#shell-start")
    page.wait_for_selector("#shell-game:not([hidden])")
    expect(page.locator("#shell-prompt")).to_contain_text("White to move")
    # the side panel's controls keep their place whatever the status says
    controls = top_of(page, "#cq-flip"), top_of(page, "#cq-typed")
    # click a Soldier: its legal squares are marked; click one to move
    page.click("#cq-sq-b2")
    expect(page.locator("#cq-marks .dot")).to_have_count(3)
    assert (top_of(page, "#cq-flip"), top_of(page, "#cq-typed")) == controls
    page.click("#cq-sq-b3")
    wait_moves(page, 2, at_least=True)
    assert page.locator(MOVES).first.inner_text() == "b2b3"
    expect(page.locator("#shell-log li")).to_have_count(2)
    assert (top_of(page, "#cq-flip"), top_of(page, "#cq-typed")) == controls
    # a typed illegal move is refused with the engine's reason, and nothing changes
    page.fill("#cq-typed-text", "a1a3")
    page.click("#cq-typed button")
    expect(page.locator(TOAST)).to_contain_text("C2")
    assert n_moves(page) == 2
    # undo against the computer goes back to the person's turn
    page.click("#shell-undo")
    wait_moves(page, 0)
    expect(page.locator("#shell-log li")).to_have_count(0)
    # reload keeps the game (it is in a save slot); this move is dragged
    drag(page, "e2", "e3")
    wait_moves(page, 2, at_least=True)
    page.reload()
    w.wait_engine()
    page.wait_for_selector("#shell-game:not([hidden])")
    expect(page.locator(MOVES).first).to_have_text("e2e3")
    w.forgive_navigation_aborts()  # the reload may cut off the snapshot worker's fetch
    w.assert_clean()


def test_conquests_placement_and_danger_from_a_link(open_page) -> None:
    # White's General must place a fighter on d2 to step to c2 (the Lancer f2 covers rank 2)
    match = Match("conquests", {"position": "g5/6/6/6/5l++/2G3 SA w 0 1", "seats": ["human", "human"]})
    w = open_page("play/conquests/#" + make_fragment(match.save().to_json(), "h"))
    page = w.page
    page.wait_for_selector("#shell-game:not([hidden])")
    # a reserve fighter shows its pattern too; before a General move it cannot be placed (C4)
    soldier = page.locator("#cq-res-0 button", has_text="Soldier")
    soldier.hover()
    expect(page.locator("#cq-info-text")).to_contain_text(
        "White Soldier in the reserve, level 1 of 2: steps one square")
    expect(page.locator("#cq-info-diagram .dot")).to_have_count(3)
    soldier.click(force=True)  # aria-disabled: it explains instead of doing nothing
    expect(page.locator(TOAST)).to_contain_text("move your General first")
    page.click("#cq-sq-c1")
    page.wait_for_selector("#cq-sq-c1.is-selected")
    page.click("#cq-sq-c2")
    expect(page.locator("#cq-place")).to_be_visible()
    assert page.locator("#cq-place-skip").is_disabled()  # alone it would be in Danger (C5)
    page.locator("#cq-res-0 button", has_text="Soldier").click()
    expect(page.locator("#cq-marks .place-ring")).to_have_count(1)
    page.click("#cq-sq-d2")
    wait_moves(page, 1)
    assert page.locator(MOVES).first.inner_text() == "c1c2+S1@d2"
    # Black's Lancer takes the Soldier: White's General is in Danger
    page.click("#cq-sq-f2")
    page.wait_for_selector("#cq-sq-f2.is-selected")
    page.click("#cq-sq-d2")
    wait_moves(page, 2)
    expect(page.locator("#cq-status")).to_contain_text(
        "Danger! White's General on c2 is attacked by the Lancer on d2 (C5).")
    expect(page.locator("#cq-marks .danger")).to_have_count(1)
    expect(page.locator("#cq-marks .danger-from")).to_have_count(1)
    w.assert_clean()


# -- a whole game against the computer, from a position link ---------------------------------------
#: White (the person) is far ahead; the game starts here through a position link (#setup=)
ENDGAME = "a1g3/1s4/6/6/4S1/ALGCLA S w 150 40"
RESULT = "#cq-result"


def replay(start: str, page) -> Match:
    """The game as the page shows it: the start position and the move list, replayed by the engine."""
    log = [c.inner_text() for c in page.locator(MOVES).all()]
    return Match("conquests", {"position": start}, log)


def test_conquests_full_game_against_the_computer(open_page) -> None:
    from conquest.games.conquests import GAME
    from conquest.games.conquests import rules as R
    from conquest.games.conquests.ai import choose_action
    from conquest.rng import Rng

    w = open_page("play/conquests/#setup=" + quote(ENDGAME))
    page = w.page
    # the link opens the editor with the position, checked by the engine's parser
    expect(page.locator("#cq-editor")).to_be_visible()
    assert page.input_value("#cq-ed-text") == ENDGAME
    assert page.locator("#cq-ed-msg").inner_text().startswith("A valid position: White to move")
    page.select_option("#seat-who-0", "human")
    page.select_option("#seat-who-1", "easy")
    page.click("#cq-ed-play")
    page.wait_for_selector("#shell-game:not([hidden])")
    expect(page.locator("#cq-position")).to_have_text(ENDGAME)
    # hovering a fighter shows its move pattern: words, a diagram and its squares on the board
    page.hover("#cq-sq-d1")
    expect(page.locator("#cq-info-text")).to_contain_text("Champion on d1, level 1 of 3: slides any distance")
    expect(page.locator("#cq-hover .reach").first).to_be_attached()
    expect(page.locator("#cq-info-diagram .arrow")).to_have_count(8)
    # White plays the engine's own hard choice (small budget: deterministic) through the UI,
    # clicking plain moves and typing placements; the computer (easy) answers each in the page
    typed = clicked = placed = 0
    for _ in range(60):
        if page.locator(RESULT).count():
            break
        match = replay(ENDGAME, page)
        assert match.state.to_move == 0
        action = str(choose_action(match.state, "hard", rng=Rng(1), node_budget=3000))
        n = n_moves(page)
        if (typed + clicked) % 3 == 2:  # keyboard play: every third move typed
            page.fill("#cq-typed-text", action)
            page.click("#cq-typed button")
            typed += 1
        else:
            page.click(f"#cq-sq-{action[:2]}")
            page.wait_for_selector(f"#cq-sq-{action[:2]}.is-selected")
            page.click(f"#cq-sq-{action[2:4]}")
            if "+" in action:  # a General move with a placement (C4): the reserve fighter, then its square
                letter, level, square = action[5], action[6], action[8:10]
                name = R.NAMES[R.KINDS.index(letter)]
                page.locator("#cq-res-0 button", has_text=f"{name}, level {level}").click()
                expect(page.locator("#cq-marks .place-ring").first).to_be_attached()
                page.click(f"#cq-sq-{square}")
                placed += 1
            else:
                page.wait_for_function(
                    f"document.querySelectorAll('{MOVES}').length > {n} || document.getElementById('cq-place')")
                if page.locator("#cq-place").is_visible():  # a General move that could have placed
                    page.click("#cq-place-skip")
            clicked += 1
        page.wait_for_function(
            f"document.querySelectorAll('{MOVES}').length >= {n + 2} || document.querySelector('{RESULT}')",
            timeout=60_000,
        )
        assert page.locator(MOVES).nth(n).inner_text() == action
    # the end: the page shows the engine's result for the game it played
    assert page.locator(RESULT).count() == 1, "the game did not end within 60 moves"
    final = replay(ENDGAME, page)
    outcome = GAME.outcome(final.state)
    assert outcome is not None
    status = page.locator("#cq-status").inner_text()
    reason = re.sub(r"^C\d+: |: (White|Black) wins$", "", outcome.reason)  # without the code and the winner
    assert reason[:1].upper() + reason[1:] in status and status.count(" wins") <= 1  # "wins" said once
    assert page.locator(RESULT).inner_text() in ("White wins.", "Black wins.", "Draw.")
    assert page.locator("#shell-prompt").inner_text().startswith("Game over:")
    assert clicked >= 1
    # no more moves: the board offers nothing, the computer does not think
    page.click("#cq-sq-c1")
    page.wait_for_timeout(300)
    assert page.locator("#cq-marks .dot, #cq-marks .ring").count() == 0
    assert page.locator("#shell-thinking").is_hidden()
    # the computer's search speed is shown in the page
    stats = page.locator("#cq-ai-stats")
    assert "nodes per second" in stats.inner_text()
    assert int(stats.get_attribute("data-nps")) > 0
    print(f"\nfull game: {len(final.log)} plies, {clicked} clicked ({placed} placing), {typed} typed; "
          f"{stats.inner_text()}")
    w.assert_clean()


# -- the position editor --------------------------------------------------------------------------
def ed_msg(page) -> str:
    return page.locator("#cq-ed-msg").inner_text()


NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def test_conquests_position_editor(context, open_page) -> None:
    """At 360 px wide (a small phone): nothing sticks out sideways, in the editor or the game."""
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    w = open_page("play/conquests/")
    page = w.page
    page.set_viewport_size({"width": 360, "height": 740})
    page.click("#cq-edit-open")
    expect(page.locator("#cq-editor")).to_be_visible()
    assert page.get_attribute("#cq-edit-open", "aria-expanded") == "true"
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert page.locator("#cq-ed-board").bounding_box()["width"] <= 360
    assert ed_msg(page) == "A valid position: White to move, 15 legal moves."
    # an empty board is refused with the parser's reason; so is every step until it is whole
    page.click("#cq-ed-clear")
    expect(page.locator("#cq-ed-text")).to_have_value("6/6/6/6/6/6 - w 0 1")
    assert "White must have exactly one General on the board, found 0" in ed_msg(page)
    assert page.locator("#cq-ed-play").is_disabled()
    page.check('input[name="cq-ed-kind"][value="G"]')
    page.click("#cq-ed-sq-c1")
    expect(page.locator("#cq-ed-msg")).to_contain_text("Black must have exactly one General")
    # by keyboard: from c1 five squares up, Enter puts a Black General on c6
    page.check('input[name="cq-ed-owner"][value="1"]')
    page.focus("#cq-ed-sq-c1")
    for i in range(5):
        page.keyboard.press("ArrowUp")
        page.wait_for_function(f"document.activeElement.id === 'cq-ed-sq-c{i + 2}'")
    page.keyboard.press("Enter")
    expect(page.locator("#cq-ed-text")).to_have_value("2g3/6/6/6/6/2G3 - w 0 1")
    assert ed_msg(page).startswith("A valid position: White to move")
    # a White level-3 Lancer on c4 attacks c6 while Black is not to move: refused (C5)
    page.check('input[name="cq-ed-owner"][value="0"]')
    page.check('input[name="cq-ed-kind"][value="L"]')
    page.check('input[name="cq-ed-level"][value="3"]')
    page.click("#cq-ed-sq-c4")
    expect(page.locator("#cq-ed-text")).to_have_value("2g3/6/2L++3/6/6/2G3 - w 0 1")
    assert "Black is not to move but its General is in Danger (C5)" in ed_msg(page)
    assert page.locator("#cq-ed-play").is_disabled()
    page.check('input[name="cq-ed-side"][value="b"]')
    expect(page.locator("#cq-ed-msg")).to_contain_text("Black's General is in Danger (C5).")
    assert ed_msg(page).endswith("Black's General is in Danger (C5).")
    # a General in a reserve is refused (C3); the chip removes it again
    page.check('input[name="cq-ed-kind"][value="G"]')
    expect(page.locator('input[name="cq-ed-level"][value="2"]')).to_be_disabled()  # a General has one level
    page.click("#cq-ed-res-add")
    expect(page.locator("#cq-ed-msg")).to_contain_text("a General is never in the reserve (C3)")
    page.locator("#cq-ed-res-0 button").click()
    expect(page.locator("#cq-ed-msg")).to_contain_text("A valid position: Black to move")
    # typed text: an invalid one gets the parser's message and leaves the board alone
    pieces = page.locator("#cq-ed-pieces .piece").count()
    page.fill("#cq-ed-text", "2g3/6/2L++3/6/6/2G9 - b 0 1")
    expect(page.locator("#cq-ed-msg")).to_have_text("C6: bad position text: unexpected '9' in rank 1")
    assert page.locator("#cq-ed-play").is_disabled()
    assert page.locator("#cq-ed-pieces .piece").count() == pieces
    # a valid one redraws the board (levels as chevrons) and sets the fields
    page.fill("#cq-ed-text", "2g3/6/2L++3/6/6/2G3 s b 7 12")
    expect(page.locator("#cq-ed-pieces .piece")).to_have_count(3)
    assert page.locator("#cq-ed-pieces .piece .chev").count() == 5
    assert page.input_value("#cq-ed-moveno") == "12"
    assert page.input_value("#cq-ed-quiet") == "7"
    assert page.locator("#cq-ed-res-1 button").count() == 1
    url = page.locator("#cq-ed-url").inner_text()
    assert url.endswith("play/conquests/#setup=2g3%2F6%2F2L%2B%2B3%2F6%2F6%2F2G3%20s%20b%207%2012")
    page.click("#cq-ed-copy")
    expect(page.locator(TOAST)).to_contain_text("Link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == url
    # Enter in the text box plays from here too (it does not send the set-up form's usual start)
    page.select_option("#seat-who-0", "human")
    page.select_option("#seat-who-1", "human")
    page.focus("#cq-ed-text")
    page.keyboard.press("Enter")
    page.wait_for_selector("#shell-game:not([hidden])")
    expect(page.locator("#cq-position")).to_have_text("2g3/6/2L++3/6/6/2G3 s b 7 12")
    status = page.locator("#cq-status").inner_text()
    assert "Move 12: Black to move." in status and "Black's General on c6 is attacked by the Lancer on c4" in status
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    # by keyboard on the game board: Enter chooses the General, an arrow and Enter move it
    page.focus("#cq-sq-c6")
    page.keyboard.press("Enter")
    expect(page.locator("#cq-info-text")).to_contain_text("General on c6")
    page.wait_for_selector("#cq-sq-c6.is-selected")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.activeElement.id === 'cq-sq-b6'")
    page.keyboard.press("Enter")
    page.click("#cq-place-skip")  # the General could place its reserve Soldier (C4); not now
    wait_moves(page, 1)
    # "Set up this position" asks first, then takes the game's position into the editor
    w.answers.append(True)
    page.click("#cq-edit-here")
    expect(page.locator("#cq-editor")).to_be_visible()
    assert page.locator("#shell-game").is_hidden()
    expect(page.locator("#cq-ed-text")).to_have_value("1g4/6/2L++3/6/6/2G3 s w 8 13")
    # and "Back to the game" returns to it as it was
    page.click("#cq-back")
    page.wait_for_selector("#shell-game:not([hidden])")
    expect(page.locator("#cq-position")).to_have_text("1g4/6/2L++3/6/6/2G3 s w 8 13")
    assert n_moves(page) == 1
    # the position link opens the editor on another page with the same text
    url = page.locator("#cq-setup-url").inner_text()
    other = open_page("play/" + url.split("/play/", 1)[1])
    expect(other.page.locator("#cq-ed-text")).to_have_value("1g4/6/2L++3/6/6/2G3 s w 8 13")
    assert other.page.locator("#cq-ed-msg").inner_text().startswith("A valid position: White to move")
    other.assert_clean()
    w.assert_clean()


def test_conquests_hostile_position_link_is_text(open_page) -> None:
    hostile = '<img src=x onerror="alert(1)"> / - w'
    w = open_page("play/conquests/#setup=" + quote(hostile))
    page = w.page
    expect(page.locator("#cq-ed-text")).to_have_value(hostile)
    assert ed_msg(page).startswith("C6: bad position text:")
    assert page.locator("#cq-editor img, #cq-ed-msg *").count() == 0
    assert page.locator("#cq-ed-play").is_disabled()
    # a damaged escape is refused with a message; the page keeps working
    w2 = open_page("play/conquests/#setup=%E0%A4%A")
    expect(w2.page.locator(TOAST)).to_contain_text("damaged")
    assert w2.page.locator("#shell-setup").is_visible()
    w2.assert_clean()
    w.assert_clean()


def test_conquests_computer_thinks_in_slices_within_its_time(context, open_page) -> None:
    # the time per move is this browser's preference: 10 seconds (long enough to act meanwhile)
    context.add_init_script("localStorage.setItem('conquest:conquests:think-seconds', '10')")
    w = open_page("play/conquests/")
    page = w.page
    page.select_option("#seat-who-0", "hard")  # the computer plays White: it moves first
    page.select_option("#seat-who-1", "human")
    page.click("#shell-start")
    page.wait_for_selector("#shell-thinking")
    assert "White (computer) is thinking" in page.locator("#shell-thinking").inner_text()
    assert page.input_value("#cq-think") == "10"
    assert page.get_attribute("#cq-flip", "aria-pressed") == "true"  # Black's side at the bottom
    assert page.locator("#cq-progress").is_visible()
    # the page answers while the computer thinks: the flip button works at once
    page.click("#cq-flip")
    expect(page.locator("#cq-flip")).to_have_attribute("aria-pressed", "false")
    assert n_moves(page) == 0 and page.locator("#shell-thinking").is_visible()
    # the thinking bar moves between slices, without a re-render
    page.wait_for_function("parseFloat(document.getElementById('cq-progress-fill').style.width) > 0")
    wait_moves(page, 1, timeout=40_000)
    expect(page.locator("#shell-thinking")).to_be_hidden()
    stats = page.locator("#cq-ai-stats")
    assert "Computer (hard)" in stats.inner_text() and "nodes per second" in stats.inner_text()
    assert int(stats.get_attribute("data-nps")) > 0
    print(f"\nhard, 10 s per move: {stats.inner_text()}")
    # Stop pauses the computer (nothing is played); a shorter time for the next moves, and
    # "Let the computer play" goes on. (Stop is pressed during a 10 s think: with 3 s the
    # reply could come before the button was seen, and the test waited for it in vain.)
    # Black's reply: b5 to b4 if the computer's move left it legal, else the first legal move
    # of a Black fighter (the computer's move depends on how deep it got in its 10 s)
    play_a_legal_move(page, ("b5", "a5", "c5", "d5", "e5", "f5", "a6", "b6", "c6", "d6", "e6", "f6"))
    page.wait_for_selector("#shell-bot-stop")
    page.click("#shell-bot-stop")
    expect(page.locator("#shell-bot-go")).to_be_visible()
    expect(page.locator(TOAST)).to_contain_text("paused")
    page.select_option("#cq-think", "3")
    page.wait_for_timeout(4000)
    assert n_moves(page) == 2
    page.click("#shell-bot-go")
    wait_moves(page, 3, timeout=30_000)
    w.assert_clean()
