"""The keyboard flow and the marks the shell follows: where the focus and the view go after a step.

Why a part: after each step a person takes, the focus goes to the control the next step
needs (issue 21, item 2: never after typed text), and the view to what changed (a spin
started: the wheel; it stopped: the result). The side panel marks its newest result and its
next decision (``data-now``, issue 41) for the shell to bring into view after a tap; the
parts only say what they want (``want_focus``, ``want_reveal``), this part carries it out.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ui import Node, walk


class Flow:
    """The focus and the reveal the last step asked for, taken after the next render."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.shell = page.shell
        #: set by the person's own step here (click, key, pick): after the next render the
        #: keyboard focus goes to the control the new step needs (never after typed text)
        self.want_focus: str | None = None
        self.want_reveal: str | None = None

    def after_render(self) -> None:
        """The focus to the control asked for ("next": the one the step on screen needs)."""
        want, self.want_focus = self.want_focus, None
        s = self.shell.session
        target = None if want is None or s is None else self.focus_target(s.view()) if want == "next" else want
        if target is not None:
            self.shell.host.focus(target)
        # a spin started: the wheel into view; it stopped: the result (on a phone both are
        # below the fold, and the focus may just have scrolled to the winner buttons)
        reveal, self.want_reveal = self.want_reveal, None
        if reveal is not None:
            self.shell.host.reveal(reveal)

    def focus_target(self, view: Mapping[str, Any]) -> str | None:
        """The id of the control the step on screen needs next (None: leave the focus).

        Choices on the map: the map (``mapboard.js`` puts the focus on a choice); the slices:
        the first count; the spin: its button; a re-spin: "Keep the result" (spending is a
        pick on the map, Shift+Tab away); the duel: the first winner button, once the wheel
        has stopped."""
        s = self.shell.session
        if s is None or s.locked() or view["outcome"] is not None or self.page.wheel.spinning():
            return None
        ph = view["phase"]
        if ph in ("capital", "capital_override", "turn", "sacrifice", "block", "gift"):
            return "mg-map"
        if ph in ("slices_a", "slices_d"):
            return "mg-count-0"
        return {"spin": "mg-spin", "respin_a": "mg-keep", "respin_d": "mg-keep", "duel": "mg-won-a"}.get(ph)

    def mark_now(self, side: Node, view: Mapping[str, Any]) -> None:
        """Issue 41: the newest result (``data-now="result"``) and the next decision
        (``"next"``), at most one of each, for the shell to bring into view after a tap.

        The result: the drawn game while the wheel's result stands (the spin, a re-spin
        choice, the duel), else "What just happened". The next decision: the duel's choice
        (play here, live or by link) with the winner buttons, the Spin button, the re-spin
        buttons, the slices' form, the list of the map's choices, the final standings."""
        ids = {n.attrs.get("id"): n for n in walk(side)}

        def mark(kind: str, *choices: str) -> None:
            for c in choices:
                node = ids.get(c)
                if node is not None and "hidden" not in node.attrs:
                    node.attrs["data-now"] = kind
                    return

        inv, ph = view["invasion"], view["phase"]
        spun = bool(inv and inv["spins"]) and ph in ("respin_a", "respin_d", "duel")
        mark("result", *(("mg-result-text",) if spun or self.page.wheel.spinning() else ()), "shell-result-inner")
        s = self.shell.session
        if s is None or s.viewing is not None:
            return
        if view["outcome"] is not None:
            mark("next", "mg-final")
        elif self.page.wheel.spinning():
            mark("next", "mg-wheel-box")
        elif ids.get("mg-waiting") is not None or ids.get("mg-confirm") is not None:
            mark("next", "mg-actions")
        elif ph == "duel":
            mark("next", "mg-decide", "mg-my-duel-box")
        elif ph in ("slices_a", "slices_d"):
            mark("next", "mg-slice-form", "mg-held")
        elif ph == "spin":
            # the Spin button: spinning with a word said aloud is the other way, its form under
            # it (as a whole 440 px at 360x740, taller than the sheet's room with the result)
            mark("next", "mg-spin", "mg-actions")
        elif ph in ("respin_a", "respin_d", "sacrifice", "block"):
            mark("next", "mg-actions")
        else:
            mark("next", "mg-choose", "mg-actions")
