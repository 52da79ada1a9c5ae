"""Issue 41 on the Short Campaign page, in CPython: what to act on next and the newest result
are marked (``data-now``), at most one of each per render; the words fit the device."""
from __future__ import annotations

from page_host import render_all
from ui import find, find_all, text

from conquest.games.campaign import GAME
from tests.test_page_campaign import bots, started


def marks(shell) -> dict[str, list[str]]:  # noqa: ANN001
    out: dict[str, list[str]] = {}
    for tree in render_all(shell).values():
        for node in find_all(tree, "[data-now]"):
            out.setdefault(node.attrs["data-now"], []).append(node.attrs.get("id", node.tag))
    return out


def test_the_open_question_is_next_then_the_reveal_is_the_result() -> None:
    shell, page, host = started()
    seat = page.clock.answerer()
    assert seat == 0
    page.clock.show_now(seat)
    assert marks(shell) == {"next": ["cp-question"]}  # no result while the question is open
    page.clock.answer(seat, GAME.answer_key(shell.session.match.state))
    bots(shell)
    got = marks(shell)
    assert all(len(v) == 1 for v in got.values()), got
    if page.clock.answerer() is not None:  # the next question's pause: it is next, the reveal the result
        assert got == {"next": ["cp-question"], "result": ["cp-reveal"]}
    else:  # a pick: the list of choices, and what just happened
        assert got == {"next": ["cp-choose-inner"], "result": ["shell-result-inner"]}


def test_taps_on_touch_and_clicks_with_a_mouse() -> None:
    shell, page, host = started()
    page.clock.show_now(0)
    assert "Click an answer, or press 1–4 or A–D." in text(render_all(shell)["cp-stage"]) or \
        "Type a whole number" in text(render_all(shell)["cp-stage"])
    host.touch = True
    stage = text(render_all(shell)["cp-stage"])
    assert "press 1–4" not in stage and "Click" not in stage
    q = page.clock.open_question()
    assert q is not None
    if q["kind"] == "choice":
        assert "Tap an answer." in stage


def test_a_tie_break_question_is_not_named_twice() -> None:
    q = {"kind": "guess", "purpose_text": "the guess question deciding the battle for Memphis"}
    assert page_coming(q) == "the guess question deciding the battle for Memphis"
    assert page_coming({"kind": "choice", "purpose_text": "the battle for Memphis"}) == \
        "a multiple-choice question for the battle for Memphis"
    assert page_coming({"kind": "guess", "purpose_text": "expansion round 2"}) == "a guess question for expansion round 2"


def page_coming(q: dict) -> str:
    from campaign.stage import Stage

    return Stage.coming(q)


def test_a_pick_prompt_says_tap_on_touch() -> None:
    shell, page, host = started()
    host.touch = True
    s = shell.session
    for _ in range(400):
        if page.board.choices(s.view()):
            break
        seat = page.clock.answerer()
        if seat is not None:
            page.clock.show_now(seat)
            page.clock.answer(seat, GAME.answer_key(s.match.state))
        bots(shell)
    assert page.board.choices(s.view())
    words = page.prompt(s.view())
    assert "Tap a highlighted territory" in words and "Click" not in words
    assert find(render_all(shell)["cp-choose"], "#cp-choose-inner").attrs["data-now"] == "next"
