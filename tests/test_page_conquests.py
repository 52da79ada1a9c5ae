"""The Game of Conquests page's logic in CPython (the browser tests keep only the glue).

Drives ``site/games/conquests/`` through the shell with a fake host: the set-up to a
started game, choosing a fighter and its legal squares, moves by clicks, drags, keys and
typed text, a General's move with its placement (C4), Danger (C5), undo against the
computer, viewing an earlier step, the computer's move through ``Shell.bots.step``, the
position editor and its links, leaving a game for the editor, and names from links kept
as text.
"""
from __future__ import annotations

from urllib.parse import quote

import pytest
from page_host import FakeHost, make_page, render_all  # first: it puts site/py and site/games on sys.path

from conquest.games.conquests import GAME, position_from_text, position_to_text
from conquest.games.conquests import rules as R
from conquest.session import Match

# isort: split
from conquests import SIDE_COLOURS, THINK_KEY, ConquestsPage, think_choice
from conquests_editor import SETUP_PREFIX, Editor, read_setup_link, setup_link, step_square, verdict
from ui import Event, Node, find, find_all, fire, text, to_html

FIELDS = {
    "title": "The Game of Conquests",
    "seat-count": "2",
    "seat-name-0": "White",
    "seat-colour-0": "#e69f00",
    "seat-who-0": "human",
    "seat-name-1": "Black",
    "seat-colour-1": "#56b4e9",
    "seat-who-1": "human",
}
#: White's General must place a fighter on d2 to step to c2 (the Lancer f2 covers rank 2)
PLACEMENT = "g5/6/6/6/5l++/2G3 SA w 0 1"


def started(black: str = "human", white: str = "human", host: FakeHost | None = None, **extra: str):  # noqa: ANN201
    shell, page, host = make_page(ConquestsPage, host)
    fields = dict(FIELDS, **{"seat-who-0": white, "seat-who-1": black}, **extra)
    assert shell.start(fields) is not None, shell.message
    return shell, page, host


def opened_at(position: str, seats: tuple[str, str] = ("human", "human")):  # noqa: ANN201
    """A game from a position, opened from a save slot as a link would be."""
    shell, page, host = make_page(ConquestsPage)
    match = Match(GAME, {"position": position, "seats": list(seats)})
    slot = host.store.create(match.save().to_json(), "From a link", host.now())
    shell.open(match, slot)
    return shell, page, host


def trees(shell) -> dict[str, Node]:  # noqa: ANN001
    return render_all(shell)


def board_input(shell) -> Node:  # noqa: ANN001
    return find(trees(shell)["cq-squares"], "#cq-board-input")


def press(shell, square: str, release: str | None = None) -> None:  # noqa: ANN001
    """A click (press and release on one square), or a drag to ``release``."""
    fire(board_input(shell), "#cq-board-input", "pointerdown", under={"sq": square}, x=100.0, y=100.0)
    fire(board_input(shell), "#cq-board-input", "pointerup", under={"sq": release or square}, x=160.0, y=100.0)


def side(shell) -> Node:  # noqa: ANN001
    return trees(shell)["cq-side"]


def sq(name: str) -> int:
    return R.parse_square(name)


def after(*moves: str, start: str = R.START_TEXT) -> str:
    """The position text after ``moves``, as the engine writes it."""
    return position_to_text(Match(GAME, {"position": start}, list(moves)).state)


def log(shell) -> list[str]:  # noqa: ANN001
    return list(shell.session.match.log)


# -- set-up and the first moves ------------------------------------------------------------------
def test_setup_starts_a_game_with_white_and_black_seats() -> None:
    shell, page, host = started(black="easy")
    s = shell.session
    assert s is not None and s.slot_id and host.query == f"?slot={s.slot_id}"
    seats = s.match.options["seats"]
    assert seats == [{"name": "White", "colour": SIDE_COLOURS[0]},
                     {"name": "Black", "colour": SIDE_COLOURS[1], "bot": "easy"}]
    assert s.match.options["seed"] == 0  # no chance: no random digits in links
    assert [seat.who for seat in s.seats()] == ["human", "easy"]
    assert text(trees(shell)["shell-bar"]).endswith("White to move: choose a fighter.Undo")
    status = text(find(side(shell), "#cq-status"))
    assert status == "Move 1: White to move."
    assert not page.board.flipped  # the person plays White: White at the bottom
    assert len(find_all(trees(shell)["cq-pieces"], ".piece")) == 16
    assert text(find(side(shell), "#cq-think-row")).startswith("Computer's time per move")
    assert "hidden" not in find(side(shell), "#cq-think-row").attrs


def test_setup_errors_name_their_field() -> None:
    shell, page, host = make_page(ConquestsPage)
    assert shell.start(dict(FIELDS, **{"seat-who-1": "grandmaster", "seat-name-0": ""})) is None
    assert set(shell.field_errors) == {"seat-who-1", "seat-name-0"} and shell.session is None


def test_a_fighter_shows_its_legal_squares_and_moves_by_clicks() -> None:
    shell, page, host = started()
    press(shell, "b2")
    t = trees(shell)
    assert len(find_all(t["cq-marks"], ".dot")) == 3  # b3, a3, c3: a Soldier's steps
    assert "is-selected" in find(t["cq-squares"], "#cq-sq-b2").attrs["class"]
    assert find(t["cq-squares"], "#cq-sq-b3").attrs["aria-label"] == "b3, a legal move for the chosen fighter"
    assert "Soldier on b2, level 1 of 2" in text(find(t["cq-side"], "#cq-info-text"))
    assert "choose where the Soldier goes" in text(t["shell-bar"])
    press(shell, "b3")
    assert log(shell) == ["b2b3"]
    t = trees(shell)
    assert [text(c) for c in find_all(find(t["cq-side"], "#cq-moves"), "code")] == ["b2b3"]
    assert {"is-last"} <= set(find(t["cq-squares"], "#cq-sq-b3").attrs["class"].split())
    assert text(find(t["cq-side"], ".cq-last")).startswith("White Soldier (level 1) b2 to b3")
    # the shell's log and chart follow
    assert len(find_all(t["shell-log-box"], "li")) == 1
    assert [n.attrs["data-stat"] for n in find_all(t["shell-chart"], "svg")] == ["Fighters on the board", "In reserve"]
    # Black's turn: clicking a White fighter selects nothing; a second click deselects
    press(shell, "c5")
    press(shell, "c5")
    assert page.board.selected is None
    press(shell, "b5")
    press(shell, "b5")
    assert page.board.selected is None


def test_refusals_explain_and_change_nothing() -> None:
    shell, page, host = started()
    press(shell, "b2")
    press(shell, "b5")
    assert shell.message == ("notice", "b2–b5 is not a legal move.") and log(shell) == []
    press(shell, "a1")  # the Archer behind its own Soldier cannot move
    assert shell.message[1] == "The Archer on a1 has no legal move now."
    press(shell, "c4")  # an empty square: the choice is dropped
    assert page.board.selected is None
    fire(side(shell), "#cq-typed", "submit", fields={"move": "a1a3"})
    assert shell.message[0] == "error" and "C2" in shell.message[1] and log(shell) == []
    fire(side(shell), "#cq-typed", "submit", fields={"move": "hello"})
    assert "is not a move" in shell.message[1]
    shell.clear_message()
    fire(side(shell), "#cq-typed", "submit", fields={"move": "  "})  # nothing typed: nothing said
    assert shell.message is None and log(shell) == []
    fire(side(shell), "#cq-typed", "submit", fields={"move": "B2-B3"})  # the engine's parser is tolerant
    assert log(shell) == ["b2b3"]


def test_drag_and_drop_moves_and_the_ghost_follows() -> None:
    shell, page, host = started()
    assert "pointermove" not in find(trees(shell)["cq-squares"], "#cq-board-input").on  # hovering is cheap
    fire(board_input(shell), "#cq-board-input", "pointerdown", under={"sq": "e2"}, x=300.0, y=400.0)
    assert page.pointer.drag is not None and page.board.selected == sq("e2")
    t = trees(shell)
    assert "pointermove" in find(t["cq-squares"], "#cq-board-input").on  # listened to while pressed
    assert text(find(t["cq-ghost-box"], "#cq-ghost")) == "S"
    fire(board_input(shell), "#cq-board-input", "pointermove", under={"sq": "e2"}, x=302.0, y=401.0)
    assert ("cq-ghost", "left") not in host.styles  # a few pixels are not a drag yet
    fire(board_input(shell), "#cq-board-input", "pointermove", under={"sq": "e3"}, x=300.0, y=330.0)
    assert host.styles[("cq-ghost", "left")] == "300px" and host.styles[("cq-ghost", "top")] == "330px"
    assert host.styles[("cq-piece-e2", "opacity")] == "0.3"
    fire(board_input(shell), "#cq-board-input", "pointerup", under={"sq": "e3"}, x=300.0, y=330.0)
    assert log(shell) == ["e2e3"] and page.pointer.drag is None
    assert "pointermove" not in find(trees(shell)["cq-squares"], "#cq-board-input").on
    # a drag dropped back on its square, or cancelled, plays nothing
    fire(board_input(shell), "#cq-board-input", "pointerdown", under={"sq": "b5"}, x=0.0, y=0.0)
    fire(board_input(shell), "#cq-board-input", "pointermove", under={"sq": "b4"}, x=0.0, y=60.0)
    fire(board_input(shell), "#cq-board-input", "pointerup", under={"sq": "b5"}, x=0.0, y=0.0)
    fire(board_input(shell), "#cq-board-input", "pointerdown", under={"sq": "e5"}, x=0.0, y=0.0)
    fire(board_input(shell), "#cq-board-input", "pointercancel")
    assert log(shell) == ["e2e3"] and page.pointer.drag is None


def test_hover_focus_and_keyboard_on_the_board() -> None:
    shell, page, host = started()
    fire(board_input(shell), "#cq-board-input", "pointerover", under={"sq": "d1"})
    t = trees(shell)
    assert text(find(t["cq-side"], "#cq-info-text")).startswith("White Champion on d1, level 1 of 3: slides any")
    assert len(find_all(t["cq-hover"], ".reach")) == 8  # d2-d5, the capture on d6, c2, b3, a4
    assert len(find_all(t["cq-hover"], ".reach-from")) == 1
    assert len(find_all(find(t["cq-side"], "#cq-info-diagram"), ".arrow")) == 8
    fire(board_input(shell), "#cq-board-input", "pointerover", under={"sq": "b2"})
    assert len(find_all(trees(shell)["cq-hover"], ".reach")) == 3
    fire(board_input(shell), "#cq-board-input", "pointerout", under={"sq": "b3"})  # onto another square
    assert page.pointer.hover == sq("b2")
    fire(board_input(shell), "#cq-board-input", "pointerout", under={})  # off the board
    assert text(find(side(shell), "#cq-info-text")).startswith("Point at a fighter")
    assert "is-empty" in find(side(shell), "#cq-info").attrs["class"]
    # keyboard: focus a square, arrows move the focus (roving tabindex), Enter chooses
    squares = trees(shell)["cq-squares"]
    fire(squares, "#cq-sq-b1", "focus", data={"sq": "b1"})
    assert page.pointer.hover == page.pointer.focus_sq == sq("b1")
    fire(squares, "#cq-sq-b1", "keydown", data={"sq": "b1"}, key="ArrowUp")
    assert host.focused == "cq-sq-b2"
    assert find(trees(shell)["cq-squares"], "#cq-sq-b2").attrs["tabindex"] == "0"
    fire(squares, "#cq-sq-b1", "blur", data={"sq": "b1"})  # not the hovered square any more
    assert page.pointer.hover == sq("b2")
    fire(squares, "#cq-sq-b2", "keydown", data={"sq": "b2"}, key="Enter")
    assert page.board.selected == sq("b2")
    fire(squares, "#cq-sq-b2", "keydown", data={"sq": "b2"}, key="Escape")
    assert page.board.selected is None
    fire(squares, "#cq-sq-b2", "keydown", data={"sq": "b2"}, key=" ")
    fire(squares, "#cq-sq-b2", "keydown", data={"sq": "b2"}, key="ArrowUp")
    fire(squares, "#cq-sq-b3", "keydown", data={"sq": "b3"}, key="Enter")
    assert log(shell) == ["b2b3"]
    fire(squares, "#cq-sq-b3", "keydown", data={"sq": "b3"}, key="x")  # other keys: left alone
    fire(squares, "#cq-sq-b3", "blur", data={"sq": "b3"})
    assert page.pointer.hover is None
    host.run_timers()  # the re-renders asked for are one per moment, not one per event
    assert host.renders >= 1


def test_flip_turns_the_board_and_the_keys() -> None:
    shell, page, host = started()
    a1 = find(trees(shell)["cq-squares"], "#cq-sq-a1").attrs
    assert (a1["x"], a1["y"]) == ("26", "400")
    fire(side(shell), "#cq-flip", "click")
    t = trees(shell)
    a1 = find(t["cq-squares"], "#cq-sq-a1").attrs
    assert (a1["x"], a1["y"]) == ("426", "0") and find(t["cq-side"], "#cq-flip").attrs["aria-pressed"] == "true"
    assert [text(n) for n in find_all(t["cq-coords"], "text")][:2] == ["f", "1"]
    assert step_square(sq("b2"), "ArrowUp", True) == sq("b1")  # up on the screen is down the board
    # chevrons point the fighter's way: a White fighter's now point down
    chev = find(find(t["cq-pieces"], "#cq-piece-a1"), "polyline").attrs["points"]
    assert chev == "-8,17 0,22 8,17"
    # the reserves list the side at the top of the board first
    assert [n.attrs["id"] for n in find_all(t["cq-side"], ".cq-reserve")] == ["cq-res-0", "cq-res-1"]


# -- a General's move with its placement (C4), Danger (C5) ------------------------------------------
def test_general_move_with_a_placement_then_danger() -> None:
    shell, page, host = opened_at(PLACEMENT)
    # before a General move the reserve fighters explain themselves (C4)
    chip = find(side(shell), "#cq-res-0-S1")
    assert chip.attrs["aria-disabled"] == "true"
    fire(side(shell), "#cq-res-0-S1", "pointerover")
    t = side(shell)
    assert text(find(t, "#cq-info-text")).startswith("White Soldier in the reserve, level 1 of 2: steps one square")
    assert len(find_all(find(t, "#cq-info-diagram"), ".dot")) == 3
    fire(t, "#cq-res-0-S1", "pointerout", under={"key": "S1"})  # onto the chip's own text: still shown
    assert page.pointer.hover_res is not None
    fire(t, "#cq-res-0-S1", "pointerout", under={})
    assert page.pointer.hover_res is None
    fire(side(shell), "#cq-res-0-S1", "click")
    assert "move your General first" in shell.message[1]
    # c1-c2 alone would leave the General in Danger: the placement is asked for
    press(shell, "c1")
    press(shell, "c2")
    assert page.placement.pending == (sq("c1"), sq("c2")) and log(shell) == []
    t = trees(shell)
    box = find(t["cq-side"], "#cq-status-box")
    assert "is-place" in box.attrs["class"] and "disabled" in find(box, "#cq-place-skip").attrs
    assert "Moving without placing would leave your General in Danger (C5)." in text(find(box, "#cq-place-text"))
    assert len(find_all(t["cq-marks"], ".place-ring")) == 1  # only d2 blocks the Lancer, for either fighter
    assert "is-pending" in find(t["cq-pieces"], "#cq-piece-c1").attrs["class"]
    assert "place a reserve fighter" in text(t["shell-bar"])
    fire(t["cq-side"], "#cq-place-skip", "click")  # refused: it says why
    assert shell.message[1].endswith("(C5).") and log(shell) == []
    chip = find(t["cq-side"], "#cq-res-0-S1")
    assert "aria-disabled" not in chip.attrs and chip.attrs["aria-pressed"] == "false"
    fire(t["cq-side"], "#cq-res-0-S1", "click")
    t = trees(shell)
    assert find(t["cq-side"], "#cq-res-0-S1").attrs["aria-pressed"] == "true"
    assert len(find_all(t["cq-marks"], ".place-ring")) == 1
    assert "click a green square for the Soldier (level 1)" in text(find(t["cq-side"], "#cq-place-text"))
    press(shell, "e1")  # not a placement square for the Soldier
    assert "Choose a fighter from your reserve" in shell.message[1]
    press(shell, "d2")
    assert log(shell) == ["c1c2+S1@d2"]
    # Black's Lancer takes the Soldier: White's General is in Danger, ringed with its attacker
    press(shell, "f2")
    press(shell, "d2")
    t = trees(shell)
    status = text(find(t["cq-side"], "#cq-status"))
    assert "Danger! White's General on c2 is attacked by the Lancer on d2 (C5)." in status
    assert "is-danger" in find(t["cq-side"], "#cq-status").attrs["class"]
    assert len(find_all(t["cq-marks"], ".danger")) == 1 and len(find_all(t["cq-marks"], ".danger-from")) == 1
    assert "Your General is in Danger!" in text(t["shell-bar"])


def test_placement_square_picked_first_then_cancel_and_move_without_placing() -> None:
    shell, page, host = opened_at("g5/6/6/6/6/2G3 S w 0 1")
    press(shell, "c1")
    press(shell, "c2")
    press(shell, "b1")  # a green square first: the only fighter that fits there is placed
    assert log(shell) == ["c1c2+S1@b1"]
    shell, page, host = opened_at("g5/6/6/6/6/2G3 SA w 0 1")
    press(shell, "c1")
    press(shell, "c2")
    press(shell, "b1")  # both fit behind the General: the first is chosen, the square asked again
    assert page.placement.place_choice is not None and log(shell) == []
    assert shell.message[1].startswith("Several reserve fighters fit on b1: the Soldier (level 1) is chosen")
    fire(side(shell), "#cq-place-cancel", "click")
    assert page.placement.pending is None and page.board.selected is None
    press(shell, "c1")
    press(shell, "c2")
    assert "disabled" not in find(side(shell), "#cq-place-skip").attrs
    fire(side(shell), "#cq-place-skip", "click")
    assert log(shell) == ["c1c2"]


def test_a_capture_waiting_for_its_placement_and_the_draw_warnings() -> None:
    shell, page, host = opened_at("g5/6/6/6/2s3/2G3 S w 185 30")
    assert "185 moves without a capture: 200 is a draw." in text(find(side(shell), "#cq-status"))
    press(shell, "c1")
    press(shell, "c2")  # the General takes the Soldier and may place its own (C4)
    pieces = trees(shell)["cq-pieces"]
    general = find(pieces, "#cq-piece-c1")
    assert "is-pending" in general.attrs["class"] and general.attrs["transform"] == "translate(226.0,360.0)"
    assert [n.attrs["id"] for n in find_all(pieces, ".piece")] == ["cq-piece-c1", "cq-piece-a6"]  # c2 taken
    fire(side(shell), "#cq-place-skip", "click")
    assert log(shell) == ["c1c2"]
    moves = find(side(shell), "#cq-moves")
    assert [li.attrs["value"] for li in find_all(moves, "li")] == ["30"]
    # the same position a second time: the status warns that a third is a draw (C5)
    shell, page, host = opened_at("g5/6/6/6/6/5G - b 0 12")
    for move in ("a6b6", "f1e1", "b6a6", "e1f1"):
        fire(side(shell), "#cq-typed", "submit", fields={"move": move})
    assert log(shell) == ["a6b6", "f1e1", "b6a6", "e1f1"]
    assert "This position has occurred twice: a third time is a draw." in text(find(side(shell), "#cq-status"))
    first = find(find(side(shell), "#cq-moves"), "li")
    assert first.attrs["value"] == "12" and text(first.children[0]) == "…"  # the game began with Black


# -- undo, viewing earlier steps, the computer ----------------------------------------------------
def test_undo_against_the_computer_returns_to_the_person() -> None:
    shell, page, host = started(black="easy")
    press(shell, "b2")
    press(shell, "b3")
    assert shell.bots.step(30.0) is True  # the fake clock stands still: one slice thinks to the end
    assert len(log(shell)) == 2 and "Computer (easy)" in page.computer.ai_words
    fire(trees(shell)["shell-bar"], "#shell-undo", "click")
    assert log(shell) == [] and shell.message == ("notice", "Took back the last 2 steps, back to your move.")
    assert shell.bots.turn() is None  # the person is to move: the computer does not play again
    # between two people, undo takes back one move
    shell, page, host = started()
    press(shell, "b2")
    press(shell, "b3")
    shell.bar.undo()
    assert log(shell) == [] and shell.message[1] == "Took back the last step."


def test_the_computer_moves_through_the_bot_runner_with_progress_and_figures() -> None:
    shell, page, host = started(black="medium")
    fire(side(shell), "#cq-typed", "submit", fields={"move": "e2e3"})
    assert log(shell) == ["e2e3"]
    t = trees(shell)
    assert "(computer, medium) to move" in text(t["shell-bar"])
    assert "Black (computer) is thinking…" in text(find(t["shell-bar"], "#shell-thinking"))
    assert find_all(t["cq-side"], "#cq-progress")  # the thinking bar beside the status
    press(shell, "b2")  # not the person's turn
    assert shell.message[1] == "Wait for the computer's move."
    fire(t["cq-side"], "#cq-typed", "submit", fields={"move": "b2b3"})
    assert shell.message[1] == "Wait for the computer's move."
    host.t += 1_000.0
    assert shell.bots.step(30.0) is True
    assert len(log(shell)) == 2
    assert ("cq-progress-fill", "width") in host.styles  # moved between the search's steps
    assert "nodes" in host.styles[("cq-progress-words", "--cq-think")]
    stats = find(side(shell), "#cq-ai-stats")
    assert "Computer (medium):" in text(stats) and "nodes per second" in text(stats)
    assert int(stats.attrs["data-nps"]) > 0
    assert find_all(side(shell), "#cq-progress") == []


def test_random_computer_and_the_time_per_move() -> None:
    host = FakeHost()
    host.save_pref(THINK_KEY, "10")
    shell, page, host = started(white="random", black="human", host=host)
    assert page.board.flipped  # the person plays Black: Black at the bottom
    assert page.computer.think_seconds == 10
    fire(side(shell), "#cq-think", "change", value="1")
    assert host.load_pref(THINK_KEY) == "1" and page.computer.think_seconds == 1
    assert page.make_bot("hard", None).seconds == 1.0  # type: ignore[arg-type]
    assert shell.bots.step(30.0) is True
    assert page.computer.ai_words == "Computer (random): a random choice, no search."
    assert think_choice("7") == 3 and think_choice("x") == 3 and think_choice("30") == 30


def test_hard_computer_keeps_to_its_time_per_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """The think-time box sets the hard level's time per move; a fake clock (5 ms a
    reading) makes the test the same under any load (tests never assert on wall time)."""
    from conquest.games.conquests import ai

    now = [1000.0]

    def tick() -> float:
        now[0] += 0.005
        return now[0]

    monkeypatch.setattr(ai.time, "monotonic", tick)
    shell, page, host = started(white="hard", black="human")
    fire(side(shell), "#cq-think", "change", value="1")
    t0 = now[0]
    assert shell.bots.step(1e9) is True
    took = now[0] - t0
    assert 1.0 <= took < 1.1, took
    assert "to depth" in page.computer.ai_words and len(log(shell)) == 1


def test_stop_pauses_the_computer() -> None:
    shell, page, host = started(black="easy")
    press(shell, "b2")
    press(shell, "b3")
    fire(trees(shell)["shell-bar"], "#shell-bot-stop", "click")
    assert shell.bots.step(30.0) is False and len(log(shell)) == 1
    assert find_all(side(shell), "#cq-progress") == []
    fire(trees(shell)["shell-bar"], "#shell-bot-go", "click")
    assert shell.bots.step(30.0) is True


def test_viewing_an_earlier_step_shows_it_and_plays_nothing() -> None:
    shell, page, host = started()
    for move in ("b2b3", "b5b4", "e2e3"):
        fire(side(shell), "#cq-typed", "submit", fields={"move": move})
    fire(side(shell), "#cq-moves button", "click")  # the first move in the list
    s = shell.session
    assert s.viewing == 1
    t = trees(shell)
    assert "is-viewed" in find(t["cq-side"], "#cq-moves button").attrs["class"]
    assert text(find(t["cq-position-box"], "#cq-position")) == after("b2b3")
    assert find(t["cq-position-box"], "#cq-copy-setup").attrs["data-copy"].endswith(quote(after("b2b3"), safe=""))
    assert "hidden" in find(t["cq-side"], "#cq-typed").attrs
    assert text(t["shell-bar"]).startswith("Step 1 of 3 · Move 1: Black to move.")
    press(shell, "b5")
    assert "earlier step" in shell.message[1] and len(log(shell)) == 3
    fire(t["cq-side"], "#cq-typed", "submit", fields={"move": "b5b4"})
    assert "earlier step" in shell.message[1]
    shell.jump(None)
    assert s.viewing is None


def test_a_view_link_is_read_only() -> None:
    shell, page, host = make_page(ConquestsPage)
    match = Match(GAME, {"seats": ["human", "easy"]}, ["b2b3"])
    slot = host.store.create(match.save().to_json(), "A view", host.now(), mode="view")
    shell.open(match, slot)
    assert shell.session.mode == "view" and shell.bots.turn() is None
    t = trees(shell)
    assert "hidden" in find(t["cq-side"], "#cq-typed").attrs and "hidden" in find(t["cq-side"], "#cq-think-row").attrs
    press(shell, "b5")
    assert shell.message[1] == "This is a read-only copy of the game: nothing can be played here."
    assert page.board.selected is None and log(shell) == ["b2b3"]
    fire(t["cq-side"], "#cq-typed", "submit", fields={"move": "b5b4"})
    assert shell.message[1].startswith("This is a read-only copy")
    fire(t["cq-side"], "#cq-edit-here", "click")  # its position may still go to the editor, unasked
    assert host.asked == [] and ed_text(page) == after("b2b3")


def test_game_over_is_shown_and_nothing_more_is_asked() -> None:
    shell, page, host = opened_at("g5/6/5L++/6/6/1L++3G - w 0 1")
    fire(side(shell), "#cq-typed", "submit", fields={"move": "f4a4"})
    t = trees(shell)
    assert text(find(t["cq-side"], "#cq-result")) == "White wins."
    status = text(find(t["cq-side"], "#cq-status"))
    assert "in Danger with no escape." in status and status.count("White wins") == 1  # said once (issue 9)
    assert "C5" not in status
    shell.log.show_codes = True  # the ruling's code for hosts who show codes
    assert "C5: " in text(find(trees(shell)["cq-side"], "#cq-status"))
    shell.log.show_codes = False
    # the next steps where the game ended, no Undo (issue 21, item 3)
    assert text(t["shell-bar"]).endswith("Game over: White wins.")  # the next steps right under it
    assert text(t["shell-over"]) == "Play againStart or resume another game"
    press(shell, "f1")
    assert page.board.selected is None and find_all(trees(shell)["cq-marks"], ".dot") == []
    assert shell.message[1] == "The game is over: no more moves."
    fire(side(shell), "#cq-typed", "submit", fields={"move": "f1f2"})
    assert shell.message[1] == "The game is over: no more moves."


# -- the position editor and its links -------------------------------------------------------------
def setup_trees(page: ConquestsPage) -> dict[str, Node]:
    return page.render_setup()


def radio(page: ConquestsPage, name: str, value: str) -> None:
    """Tick one of the editor's radio buttons (its change handler, as the browser would)."""
    node = next(n for n in find_all(editor(page), "input") if n.attrs.get("name") == name
                and n.attrs.get("value") == value)
    node.on["change"](Event("change", value=value, checked=True))


def editor(page: ConquestsPage) -> Node:
    return setup_trees(page)["cq-editor-box"]


def ed_msg(page: ConquestsPage) -> str:
    return text(find(editor(page), "#cq-ed-msg"))


def ed_text(page: ConquestsPage) -> str:
    return str(find(editor(page), "#cq-ed-text").props["value"])


def test_position_editor_checks_every_step_with_the_parser() -> None:
    shell, page, host = make_page(ConquestsPage)
    box = setup_trees(page)
    assert "hidden" in find(box["cq-editor-box"], "#cq-editor").attrs
    fire(box["cq-ed-toggle-box"], "#cq-edit-open", "click")
    assert "hidden" not in find(editor(page), "#cq-editor").attrs
    assert find(setup_trees(page)["cq-ed-toggle-box"], "#cq-edit-open").attrs["aria-expanded"] == "true"
    assert ed_msg(page) == "A valid position: White to move, 15 legal moves."
    fire(editor(page), "#cq-ed-clear", "click")
    assert ed_text(page) == "6/6/6/6/6/6 - w 0 1"
    assert "White must have exactly one General on the board, found 0" in ed_msg(page)
    assert "disabled" in find(editor(page), "#cq-ed-play").attrs
    radio(page, "cq-ed-kind", "G")
    fire(editor(page), "#cq-ed-sq-c1", "click")
    assert "Black must have exactly one General" in ed_msg(page)
    # by keyboard: arrows move the focus, Enter places a Black General on c6
    radio(page, "cq-ed-owner", "1")
    for r in range(1, 6):
        fire(editor(page), f"#cq-ed-sq-c{r}", "keydown", data={"sq": f"c{r}"}, key="ArrowUp")
        assert host.focused == f"cq-ed-sq-c{r + 1}"
    fire(editor(page), "#cq-ed-sq-c6", "keydown", data={"sq": "c6"}, key="Enter")
    assert ed_text(page) == "2g3/6/6/6/6/2G3 - w 0 1"
    assert ed_msg(page).startswith("A valid position: White to move")
    # a White level-3 Lancer on c4 attacks c6 while Black is not to move: refused (C5)
    radio(page, "cq-ed-owner", "0")
    radio(page, "cq-ed-kind", "L")
    radio(page, "cq-ed-level", "3")
    fire(editor(page), "#cq-ed-sq-c4", "click")
    assert ed_text(page) == "2g3/6/2L++3/6/6/2G3 - w 0 1"
    assert "Black is not to move but its General is in Danger (C5)" in ed_msg(page)
    radio(page, "cq-ed-side", "b")
    assert ed_msg(page).endswith("Black's General is in Danger (C5).")
    # a General in a reserve is refused (C3); the chip removes it again
    radio(page, "cq-ed-kind", "G")
    levels = [n for n in find_all(editor(page), "input") if n.attrs.get("name") == "cq-ed-level"]
    assert ["disabled" in n.attrs for n in levels] == [False, True, True]
    fire(editor(page), "#cq-ed-res-add", "click")
    assert "a General is never in the reserve (C3)" in ed_msg(page)
    fire(find(editor(page), "#cq-ed-res-0"), "button", "click")
    assert ed_msg(page).startswith("A valid position: Black to move")
    # the eraser, Delete, and a fighter clicked twice empty squares
    radio(page, "cq-ed-kind", "-")
    assert "disabled" in find(editor(page), "#cq-ed-res-add").attrs
    fire(editor(page), "#cq-ed-res-add", "click")  # nothing to add with the eraser
    fire(editor(page), "#cq-ed-sq-c4", "click")
    assert ed_text(page) == "2g3/6/6/6/6/2G3 - b 0 1"
    fire(editor(page), "#cq-ed-sq-c6", "keydown", data={"sq": "c6"}, key="Delete")
    assert ed_text(page) == "6/6/6/6/6/2G3 - b 0 1"
    fire(editor(page), "#cq-ed-sq-c6", "keydown", data={"sq": "c6"}, key="Tab")  # not ours
    radio(page, "cq-ed-kind", "S")
    radio(page, "cq-ed-level", "2")
    fire(editor(page), "#cq-ed-sq-a2", "click")
    assert ed_text(page) == "6/6/6/6/S+5/2G3 - b 0 1"
    fire(editor(page), "#cq-ed-sq-a2", "click")  # the same fighter again: the square empties
    assert ed_text(page) == "6/6/6/6/6/2G3 - b 0 1"
    # the counters: typed numbers, out of range ones refused by the parser
    fire(editor(page), "#cq-ed-quiet", "input", value="250")
    assert "quiet plies must be 0 to 200" in ed_msg(page)
    fire(editor(page), "#cq-ed-quiet", "input", value="abc")
    assert "whole numbers" in ed_msg(page)
    fire(editor(page), "#cq-ed-quiet", "input", value="")
    fire(editor(page), "#cq-ed-moveno", "input", value="9")
    assert ed_text(page) == "6/6/6/6/6/2G3 - b 0 9"


def test_typed_text_swap_start_and_play_from_here() -> None:
    shell, page, host = make_page(ConquestsPage)
    page.editor.open = True
    before = list(page.editor.ed.board)
    fire(editor(page), "#cq-ed-text", "input", value="2g3/6/2L++3/6/6/2G9 - b 0 1")
    assert ed_msg(page) == "C6: bad position text: unexpected '9' in rank 1"
    assert page.editor.ed.board == before and ed_text(page) == "2g3/6/2L++3/6/6/2G9 - b 0 1"
    fire(editor(page), "#cq-ed-text", "keydown", key="Enter")  # refused: said, no game
    assert shell.session is None and shell.message[0] == "error"
    fire(editor(page), "#cq-ed-text", "input", value="2g3/6/2L++3/6/6/2G3 s b 7 12")
    ed = editor(page)
    assert len(find_all(ed, ".piece")) == 3 and len(find_all(ed, ".chev")) == 5
    assert find(ed, "#cq-ed-moveno").props["value"] == "12" and find(ed, "#cq-ed-quiet").props["value"] == "7"
    assert len(find_all(find(ed, "#cq-ed-res-1"), "button")) == 1
    url = text(find(ed, "#cq-ed-url"))
    assert url == "http://127.0.0.1:8000/play/test/#setup=2g3%2F6%2F2L%2B%2B3%2F6%2F6%2F2G3%20s%20b%207%2012"
    assert find(ed, "#cq-ed-copy").attrs["data-copy"] == url
    fire(ed, "#cq-ed-flipsides", "click")
    assert ed_text(page) == "3g2/6/6/3l++2/6/3G2 S w 7 12"  # turned half round, sides swapped
    fire(editor(page), "#cq-ed-flipsides", "click")
    fire(editor(page), "#cq-ed-quiet", "keydown", key="Enter")  # Enter never sends the set-up form
    # play from here, with the players chosen in the set-up form
    host.fields["shell-setup-form"] = dict(FIELDS, **{"seat-who-0": "easy"})
    fire(editor(page), "#cq-ed-text", "keydown", key="Enter")
    s = shell.session
    assert s is not None and s.match.options["position"] == "2g3/6/2L++3/6/6/2G3 s b 7 12"
    assert not page.editor.open and page.start_position is None
    host.run_timers()
    assert "shell-title" in host.revealed
    t = trees(shell)
    status = text(find(t["cq-side"], "#cq-status"))
    assert "Move 12: Black to move." in status and "Black's General on c6 is attacked by the Lancer on c4" in status
    # "Usual start" brings the start back
    page.editor.set_text("x")
    fire(editor(page), "#cq-ed-start", "click")
    assert ed_text(page) == R.START_TEXT and ed_msg(page).endswith("15 legal moves.")


def test_setup_link_opens_the_editor_and_hostile_text_stays_text() -> None:
    shell, page, host = make_page(ConquestsPage)
    hostile = '<img src=x onerror="alert(1)"> / - w'
    assert page.open_fragment(SETUP_PREFIX + quote(hostile)) is True
    assert page.editor.open and ed_text(page) == hostile
    assert ed_msg(page).startswith("C6: bad position text:")
    assert find(editor(page), "#cq-ed-text").attrs["value"] == hostile  # only ever an input's value
    assert "<img" not in to_html(editor(page)) and find_all(editor(page), "img") == []
    assert "disabled" in find(editor(page), "#cq-ed-play").attrs
    assert page.open_fragment("#h=c1.abc") is False  # a game link is the shell's
    assert page.open_fragment(SETUP_PREFIX + "%E0%A4%A") is True
    assert "damaged" in shell.message[1]
    assert page.open_fragment(SETUP_PREFIX + "%FF") is True and "damaged" in shell.message[1]
    assert page.open_fragment(SETUP_PREFIX + "x" * 2001) is True and "far longer" in shell.message[1]
    text_in = "2g3/6/2L++3/6/6/2G3 s b 7 12"
    assert read_setup_link(setup_link("", text_in)[len(""):]) == (text_in, "")
    over = after("f4a4", start="g5/6/5L++/6/6/1L++3G - w 0 1")
    assert verdict(over)[1].startswith("A valid position, but the game is already over there: C5")


def test_names_from_a_link_are_text() -> None:
    shell, page, host = started(**{"seat-name-0": "<b>Ann</b>", "seat-name-1": "<i>Bo</i>"})
    t = trees(shell)
    assert "<b>Ann</b> (White) to move" in text(t["shell-bar"])
    assert "&lt;b&gt;Ann&lt;/b&gt; (White) to move" in to_html(t["shell-bar"])
    assert "<b>" not in to_html(t["cq-side"])
    assert text(find(t["cq-side"], "#cq-status")) == "Move 1: <b>Ann</b> (White) to move."


# -- leaving a game for the editor asks first --------------------------------------------------------
def test_leaving_a_game_for_the_editor_asks_and_back_returns() -> None:
    shell, page, host = started()
    fire(side(shell), "#cq-typed", "submit", fields={"move": "b2b3"})
    slot = shell.session.slot_id
    host.confirms = [False]
    fire(side(shell), "#cq-edit-here", "click")
    assert shell.session is not None and host.asked[-1].startswith("Leave this game for the position editor?")
    host.confirms = [True]
    fire(side(shell), "#cq-edit-here", "click")
    assert shell.session is None and page.editor.open and host.query == "?"
    assert ed_text(page) == after("b2b3")
    back = setup_trees(page)["cq-ed-toggle-box"]
    fire(back, "#cq-back", "click")
    assert shell.session is not None and shell.session.slot_id == slot and log(shell) == ["b2b3"]
    assert host.query == f"?slot={slot}" and not page.editor.open
    # "New game" asks too; a position link while playing asks before leaving
    host.confirms = [True]
    fire(side(shell), "#cq-new", "click")
    assert shell.session is None and not page.editor.open
    fire(setup_trees(page)["cq-ed-toggle-box"], "#cq-back", "click")
    host.confirms = [False]
    assert page.open_fragment(SETUP_PREFIX + quote("2g3/6/6/6/6/2G3 - w 0 1")) is True
    assert shell.session is not None
    # a game gone from storage cannot be returned to: said plainly
    host.confirms = [True]
    fire(side(shell), "#cq-new", "click")
    host.store.delete(slot)
    fire(setup_trees(page)["cq-ed-toggle-box"], "#cq-back", "click")
    assert shell.session is None and shell.message[0] == "error"


def test_a_game_not_yet_started_is_left_without_asking() -> None:
    shell, page, host = started()
    fire(side(shell), "#cq-edit-here", "click")
    assert host.asked == [] and shell.session is None and page.editor.open
    assert ed_text(page) == R.START_TEXT


# -- the pieces of the engine the page relies on ---------------------------------------------------
def test_editor_model_and_stats() -> None:
    ed = Editor()
    ed.load(position_from_text("2g3/6/2L++3/6/6/2G3 s b 7 12"))
    assert ed.written() == "2g3/6/2L++3/6/6/2G3 s b 7 12"
    ed.kind = None
    assert ed.tool() is None
    st = position_from_text("g5/6/6/6/5l++/2G3 SA w 0 1")
    assert GAME.stats(st) == {"Fighters on the board": [1.0, 2.0], "In reserve": [2.0, 0.0]}


@pytest.mark.parametrize("raw", ["%", "%4", "%zz", "%C3%28"])
def test_damaged_escapes_are_refused(raw: str) -> None:
    assert read_setup_link(SETUP_PREFIX + raw)[0] is None
