"""Issue 41 in CPython: where the shell scrolls after a tap (``shell.now_scroll``, the rule
``browser_now.bring_now`` and ``guest-dom.js`` ``bringNow`` follow), the device's words
(``shell.tap_word``: "Tap" on a touch screen) and a guest device's part in both (``remote``:
the device says it is a touch screen when it opens its page; the host tells it when an update
follows its tap or a step, ``"now": true``)."""
from __future__ import annotations

import json
from typing import Any

from live import device_token
from live_kit import Wire, WireDevice, attrs, tap, world_host
from page_host import FakeHost
from shell import now_scroll, tap_word, tap_word_lower, whole_px
from world import WorldPage

from conquest.core import get_game

WORLD = get_game("world")


def test_both_in_view_with_the_least_scroll() -> None:
    assert now_scroll((100, 200), (300, 400), 0, 740) == 0  # both in sight: no jump
    assert now_scroll((900, 1000), (700, 800), 0, 740) == 260  # both below: their foot at the foot
    assert now_scroll((-300, -250), (-100, 0), 0, 740) == -300  # both above: their top at the top
    assert now_scroll(None, (800, 900), 0, 740) == 160
    assert now_scroll((800, 900), None, 0, 740) == 160
    assert now_scroll(None, None, 0, 740) == 0
    # a sticky status bar over the top 60 px is not room
    assert now_scroll((30, 80), None, 60, 740) == -30


def test_the_next_decision_wins_when_both_do_not_fit() -> None:
    # the result 1,600 px above the next decision (To Reign Supreme's battle): the next at the
    # foot of the screen, the end of the result over it
    assert now_scroll((2000, 2100), (400, 500), 0, 740) == 2100 - 740
    # the result below the next: the next at the top, as much of the result under it
    assert now_scroll((1000, 1100), (2000, 2100), 0, 740) == 1000
    # a next decision taller than the room: its top at the top
    assert now_scroll((1000, 2000), (100, 200), 0, 740) == 1000
    # a result taller than the room alone: its top at the top
    assert now_scroll(None, (1000, 2000), 0, 740) == 1000


def test_tap_words_follow_the_device() -> None:
    host = FakeHost()
    assert (tap_word(host), tap_word_lower(host)) == ("Click", "click")
    host.touch = True  # type: ignore[attr-defined]
    assert (tap_word(host), tap_word_lower(host)) == ("Tap", "tap")
    assert tap_word(object()) == "Click"  # a host that does not say is a mouse's


def _joined(touch: object) -> tuple[Wire, Any]:
    shell, host = world_host(deal="on")
    w = Wire(shell, host, WorldPage)
    w.ends["bob"] = WireDevice("bob")
    w.devices.connected("bob")
    w.q.clear()  # the device's own "open" is the one below
    msg = {"t": "open", "device": device_token(), "name": "Bob", "want": None}
    if touch is not None:
        msg["touch"] = touch
    w.devices.receive("bob", json.dumps(msg), host.clock())
    w.run()
    return w, w.devices.pages["bob"]


def test_a_guest_device_says_whether_it_is_a_touch_screen() -> None:
    for said, touch in ((True, True), (None, False), (False, False), ("yes", False), (1, False)):
        _, page = _joined(said)
        assert page.rhost.touch is touch, said
        assert tap_word(page.rhost) == ("Tap" if touch else "Click")


def test_an_update_after_a_tap_or_a_step_tells_the_device_to_bring_the_marks_into_view() -> None:
    shell, host = world_host(deal="on")
    w = Wire(shell, host, WorldPage)
    bob = w.join("bob")
    assert all("now" not in m for m in bob.inbox if m["t"] == "ui")  # joining is no tap's result
    n = len(bob.inbox)
    tap(w, bob, "live-panel", lambda k, node: attrs(node).get("data-take") == "1")  # Bob's tap
    assert any(m.get("now") is True for m in bob.inbox[n:] if m["t"] == "ui")
    s = shell.session
    assert s is not None
    n = len(bob.inbox)
    assert shell.play(WORLD.legal_actions(s.match.state)[0]), shell.message  # the host's step
    w.table.sync()
    w.run()
    assert any(m.get("now") is True for m in bob.inbox[n:] if m["t"] == "ui")
    # a change that is neither (the page drawn again by a timer) does not scroll the device
    n = len(bob.inbox)
    page = w.devices.pages["bob"]
    page.shell.say("A notice from a timer.")
    page.changed()
    w.run()
    assert len(bob.inbox) > n and all("now" not in m for m in bob.inbox[n:] if m["t"] == "ui")


def test_the_announcement_ends_each_line_once() -> None:
    """A log line ends its own sentence: the screen reader's line read "(S3).." before."""
    from shell_result import Results

    class Lines:
        def lines(self) -> tuple[list[dict[str, Any]], int]:
            return [{"step": 3, "words": "Ann claims Ohio (S3)."}, {"step": 4, "words": "Bob passes"}], 0

    said = Results.announcement(Lines())  # type: ignore[arg-type]
    assert said == "Step 3: Ann claims Ohio (S3). Step 4: Bob passes."


def test_a_scroll_is_made_in_whole_pixels_away_from_zero() -> None:
    """A result box 0.6 px over a phone's sheet was left there: scrolls under 1 px were
    skipped (the Short Campaign walk at 360 px, ``browser_now.bring_now``; ``guest-dom.js``
    rounds alike)."""
    assert whole_px(0.6) == 1 and whole_px(-0.6) == -1
    assert whole_px(12.2) == 13 and whole_px(-12.2) == -13
    assert whole_px(0.05) == 0 and whole_px(0.0) == 0
    # the walk's case: the box 598..740.6 in a room ending at 740 is brought in whole
    dy = whole_px(now_scroll(None, (598.0, 740.6), 596.0, 740.0))
    assert dy == 1 and 740.6 - dy <= 740.0 and 598.0 - dy >= 596.0
