"""The log window: every step in plain words, drawn as the person scrolls it, each with View,
and the "viewing step N" bar a View opens.

Why a part of its own (issue 42): the log keeps state no other part has (the line in sight,
the lines drawn, its one Tab stop, the lines already put in words) and its own controls (the
View buttons, the arrow keys, "Show the action codes", Earlier/Later and the step box).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shell_links import LINKS_AT_ONCE
from ui import Node, h

if TYPE_CHECKING:
    from shell import Shell

__all__ = ["HIDDEN_CODE", "LOG_MARGIN", "LOG_PAGE", "LOG_SHOWN", "LOG_WINDOW", "LogWindow"]

#: The log is drawn as the person scrolls it (issue 20, item 10: drawing a 6,023-step World
#: log whole blocked the page 17 s; pages of 120 lines behind buttons still took 450 ms a
#: press): its box is as tall as every line (rows of one height, ``--log-row`` in style.css,
#: the lines not drawn stand as padding), and only the lines in sight are drawn, with
#: ``LOG_MARGIN`` more on each side so a scroll shows drawn lines before the next render.
#: The most lines the box shows at once (its height over a row's, with room to spare)
LOG_SHOWN = 20
#: lines drawn above and below those in sight (at the newest, the last 60 lines are drawn, as
#: the log did before it was drawn as scrolled)
LOG_MARGIN = 40
#: so never more than this many lines are drawn, however long the log
LOG_WINDOW = LOG_SHOWN + 2 * LOG_MARGIN
#: how far PageUp and PageDown move in the log
LOG_PAGE = 10
#: what the log shows instead of the code of a chance result nobody else may see
HIDDEN_CODE = "(secret)"


class LogWindow:
    """The log of the game open in ``shell`` (``Shell.log``) and the bar of the step viewed."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        #: the first log line in sight, as the browser last said (:meth:`scrolled`); None: the
        #: box is at its end and follows the newest steps
        self.top: int | None = None
        #: the lines drawn by the last :meth:`render`, ``[start, end)``
        self.drawn: tuple[int, int] = (0, 0)
        #: a step whose line the browser is to scroll into sight (:meth:`take_reveal`)
        self.reveal: int | None = None
        self._viewed: int | None = None  # the viewed step last brought into sight
        #: the log's View button that is its one Tab stop (a roving tabindex, issue 21 item 2);
        #: None: the viewed step's, else the newest drawn
        self.focus: int | None = None
        self.show_codes = False
        #: log lines already put in words, by index: ``(before, after, text, names, line)``
        #: (a render draws the last steps again; a live table renders on every device at each step)
        self._line_memo: dict[int, tuple[Any, Any, str, tuple[tuple[str, ...], bool], dict[str, Any]]] = {}

    def reset(self) -> None:
        """A game was just opened: the box follows its newest steps, nothing to bring into sight."""
        self.top = None
        self.reveal = self._viewed = None
        self.focus = None

    def lines(self, start: int, end: int) -> list[dict[str, Any]]:
        """Plain words for log entries ``start..end-1``; never raises (a log is data)."""
        s = self.shell.session
        assert s is not None
        out = []
        names = tuple(seat.name for seat in s.seats())
        draws = self.shell.draws.labels()
        # in a long game a draw's code is judged only when codes are shown: judging it takes
        # views of the states around it, a second for a log window of a 40,000-step Campaign
        # (issue 20, item 10); until then the code is not in the page at all
        lazy = not self.show_codes and len(s.match.log) > LINKS_AT_ONCE
        for i in range(start, end):
            text = s.match.log[i]
            before = s.match.states[i]
            after = s.match.states[i + 1] if i + 1 < len(s.match.states) else None
            memo = self._line_memo.get(i)
            drawn = draws.get(i, "")
            if (memo is not None and memo[0] is before and memo[1] is after and memo[2] == text
                    and memo[3] == (names, lazy) and memo[4]["draw"] == (drawn if memo[4]["chance"] else "")):
                out.append(memo[4])
                continue
            chance = self.shell.game.chance(before) is not None
            try:
                words = self.shell.game.describe_action(before, self.shell.game.parse_action(text))
            except Exception:  # describing is best effort; the code is still shown
                words = text
            label = self.shell.page.log_label(before) if self.shell.page is not None else ""
            code = HIDDEN_CODE if chance and (lazy or self.shell.draws.hidden(i)) else text
            line = {"step": i + 1, "words": words, "code": code, "chance": chance,
                    "label": label, "draw": drawn if chance else ""}
            self._line_memo[i] = (before, after, text, (names, lazy), line)
            out.append(line)
        return out

    def render(self) -> Node:
        """The log in plain words, drawn as the person scrolls (see ``LOG_SHOWN``), each line
        with "View"; taken-back chance results listed where they were drawn."""
        s = self.shell.session
        assert s is not None
        n = len(s.match.log)
        start, end = self.range()
        self.drawn = (start, end)
        inert = self.shell.pending() is not None  # the pass screen: words only, no button reacts
        items: list[Node] = []
        lines = self.lines(start, end)
        stop = self.stop([line["step"] for line in lines])
        for line in lines:
            step = line["step"]
            cls = "is-viewed" if s.viewing == step else ("is-future" if s.viewing is not None and step > s.viewing else None)
            items.append(
                h(
                    "li",
                    h("span", f"{step:,}", cls="shell-stepnum", aria_hidden="true"),
                    h("span",
                      h("span", line["label"], cls="shell-turn") if line["label"] else None,
                      h("span", line["words"]),
                      h("span", f" ({line['draw']})", cls="shell-draw") if line["draw"] else None,
                      " ",
                      h("code", line["code"], cls="shell-code"),
                      cls="shell-line"),
                    h("button", "View", type="button", cls="small", data_view=str(step), disabled=inert,
                      id=f"shell-view-{step}", tabindex="0" if step == stop else "-1",
                      aria_label=f"View the game after step {step}", on_click=lambda ev, k=step: self.view_step(k)),
                    cls=cls,
                    data_step=str(step),
                    value=str(step),
                    aria_posinset=str(step),
                    aria_setsize=str(n),
                )
            )
        undone = []
        for at, texts in s.match.undone:
            shown = [self.taken_back(at, x) for x in texts]
            undone.append(h("li", f"Taken back after step {at}: " + "; ".join(words for words, _ in shown)
                            + " (drawn, then undone)", h("code", " ".join(code for _, code in shown), cls="shell-code"),
                            cls="shell-taken-back"))
        shown = f"steps {start + 1:,} to {end:,} of {n:,} drawn" if n else "no steps yet"
        return h(
            "div",
            h("label", h("input", type="checkbox", id="shell-show-codes", checked=self.show_codes, disabled=inert,
                         on_change=lambda ev: setattr(self, "show_codes", ev.checked)),
              " Show the action codes (for hosts who type actions)", cls="shell-codes-toggle"),
            h("div",
              h("ol", *items, id="shell-log", cls="shell-log" + (" show-codes" if self.show_codes else ""),
                start=str(start + 1), data_before=str(start), data_after=str(n - end),
                style=f"--log-before:{start};--log-after:{n - end}",
                aria_label=f"Log of the game ({shown}): one Tab stop; the arrow keys, Page Up, Page Down, "
                           "Home and End move between its steps",
                on_keydown=None if inert else (lambda ev: self.key(ev))),
              id="shell-log-scroll", cls="shell-log-scroll", data_steps=str(n)),
            h("ul", *undone, cls="shell-taken", aria_label="Chance results taken back") if undone else None,
            self.shell.draws.render(),
            id="shell-log-inner",
        )

    def stop(self, steps: Sequence[int]) -> int | None:
        """The one View button of the drawn ``steps`` that Tab reaches (issue 21, item 2: the
        ~60 buttons were ~60 Tab stops between the controls and the map): the one last moved to
        with the arrow keys or used, else the step on screen, else the newest."""
        s = self.shell.session
        if not steps or s is None:
            return None
        for k in (self.focus, s.viewing):
            if k is not None and k in steps:
                return k
        return steps[-1]

    def key(self, ev: Any, steps: Sequence[int] | None = None) -> None:
        """Arrow keys (Up/Left: earlier, Down/Right: later), Page Up/Down, Home and End move
        through the whole log's View buttons (a roving tabindex), drawing the lines they reach
        (issue 20, item 10); other keys are left to the page."""
        s = self.shell.session
        assert s is not None
        n = len(s.match.log)
        drawn = list(range(self.drawn[0] + 1, self.drawn[1] + 1)) if steps is None else list(steps)
        stop = self.stop(drawn)
        if stop is None:
            return
        moves = {"ArrowUp": stop - 1, "ArrowLeft": stop - 1, "ArrowDown": stop + 1, "ArrowRight": stop + 1,
                 "Home": 1, "End": n, "PageUp": stop - LOG_PAGE, "PageDown": stop + LOG_PAGE}
        if ev.key not in moves or ev.ctrl or ev.alt or ev.meta:
            return
        ev.prevent()
        self.focus = max(1, min(n, moves[ev.key]))
        if not self.drawn[0] < self.focus <= self.drawn[1]:
            self.top = max(0, self.focus - 1 - LOG_SHOWN // 2)
            self.reveal = self.focus
            self.shell.host.rerender()  # its button is drawn before it takes the focus
        self.shell.host.focus(f"shell-view-{self.focus}")

    def view_step(self, step: int) -> None:
        """A log View pressed: that step on screen, and its button the log's Tab stop."""
        self.focus = step
        self._viewed = step  # it is in sight already: the log stays where the person put it
        self.shell.jump(step)

    def range(self) -> tuple[int, int]:
        """The log lines drawn, ``[start, end)``: those in sight (``top``, else the newest)
        and ``LOG_MARGIN`` more each side, never more than ``LOG_WINDOW``. A step viewed from
        elsewhere (◀ Earlier, a typed step, the audience following the host) is brought into
        sight once, so the person can scroll away from it again."""
        s = self.shell.session
        assert s is not None
        n = len(s.match.log)
        top = max(0, n - LOG_SHOWN) if self.top is None else max(0, min(self.top, n - 1))
        if s.viewing is not None and s.viewing != self._viewed:
            self._viewed = s.viewing
            if not top < s.viewing <= top + LOG_SHOWN // 2:
                top = self.top = max(0, min(s.viewing - 1 - LOG_SHOWN // 4, n - 1))
                self.reveal = s.viewing
        elif s.viewing is None:
            self._viewed = None
        start = max(0, top - LOG_MARGIN)
        return start, min(n, top + LOG_SHOWN + LOG_MARGIN)

    def scrolled(self, first: int, at_end: bool) -> bool:
        """The browser says the log's box shows line ``first`` (0-based) at its top, and
        whether it is scrolled to its end (then it follows the newest steps). True when the
        lines in sight come near the edge of those drawn: the log is to be drawn again."""
        s = self.shell.session
        if s is None:
            return False
        n = len(s.match.log)
        self.top = None if at_end else max(0, min(first, n - 1))
        start, end = self.drawn
        top = max(0, n - LOG_SHOWN) if self.top is None else self.top
        near = LOG_MARGIN // 3
        return (start > 0 and top < start + near) or (end < n and top + LOG_SHOWN > end - near)

    def take_reveal(self) -> int | None:
        """The step whose line the browser should scroll into sight after this render (once)."""
        step, self.reveal = self.reveal, None
        return step

    def taken_back(self, at: int, text: str) -> tuple[str, str]:
        """A chance result drawn after step ``at`` and then undone, as this device may show it:
        ``(words, code)``. The draw stays on record as taken back (a drawn result is never
        erased), but one whose value not everyone may see (a card's kind, W5:
        ``Game.secret_result``) is said as that ("a card", its code ``HIDDEN_CODE``; issue
        42): at a device several people share, a read-only copy, an audience tab, and
        wherever the state it was drawn in is no longer at hand to tell whose it was. Only
        the one person at this device who may see it reads it (``Game.redact_text``: a copy
        for the drawer's seat, the drawer alone among bots, a live device's own seat), the
        drawer, who saw it drawn."""
        secret = self.shell.game.secret_result(text)
        if secret is not None and not self._may_read(at, text):
            return secret, HIDDEN_CODE
        return self.taken_back_words(at, text), text

    def _may_read(self, at: int, text: str) -> bool:
        s = self.shell.session
        assert s is not None
        reader = s.at_device() if s.mode in ("host", "guest") else None
        if reader is None or not 0 <= at < len(s.match.states):
            return False
        try:
            self.shell.game.parse_action(text)  # a masked result ("C?", as a live device gets it) reads as none
            return self.shell.game.redact_text(s.match.states[at], text, reader) == text
        except Exception:  # noqa: BLE001 - never fails open
            return False

    def taken_back_words(self, at: int, text: str) -> str:
        """A chance result drawn after step ``at`` and then undone, in words (issue 21, item 8:
        "r26 12,12,10,10" says nothing to a person); its code stays beside it. Best effort:
        the state it was drawn in is on the present line only while ``at`` is."""
        s = self.shell.session
        assert s is not None
        if 0 <= at < len(s.match.states):
            try:
                return self.shell.game.describe_action(s.match.states[at], self.shell.game.parse_action(text))
            except Exception:  # noqa: BLE001 - a log entry is data; its code is shown then
                pass
        return text

    def render_viewing(self) -> Node:
        """The bar over the board while an earlier step is on screen: which, Earlier/Later, a step
        box, back to the present, and "Continue from here"."""
        s = self.shell.session
        assert s is not None
        if s.viewing is None or self.shell.pending() is not None:
            return h("div", id="shell-viewing-inner", hidden=True)
        n = len(s.match.log)
        return h(
            "div",
            h("strong", f"Viewing step {s.viewing} of {n}: the game as it was then. Nothing can be played here."),
            self.viewed_words(s.viewing),
            h("button", "◀ Earlier", type="button", cls="small", id="shell-view-prev",
              disabled=s.viewing <= 0, on_click=lambda ev: self.shell.jump(max(0, (s.viewing or 0) - 1))),
            h("button", "Later ▶", type="button", cls="small", id="shell-view-next",
              on_click=lambda ev: self.shell.jump((s.viewing or 0) + 1)),
            h("label", "Step ", h("input", type="number", min="0", max=str(n), value=str(s.viewing),
                                  id="shell-view-step", cls="shell-step-input",
                                  on_change=lambda ev: self._jump_typed(ev.value)), for_="shell-view-step"),
            h("button", "Back to the present", type="button", id="shell-view-present",
              on_click=lambda ev: self.shell.jump(None)),
            None if s.mode != "host" else h(
                "button", "Continue from here", type="button", id="shell-branch", cls="secondary",
                on_click=lambda ev: self.shell.branch(),
                title="Start a new saved game from this step; the original stays as it is",
            ),
            id="shell-viewing-inner",
            cls="shell-viewing",
        )

    def viewed_words(self, step: int) -> Node | None:
        """The viewed step's line of the log, whole: the log's rows show two or three lines of
        text (a phone's row cuts a long one), so the step on screen is also said here."""
        s = self.shell.session
        assert s is not None
        if not 0 < step <= len(s.match.log):
            return None
        line = self.lines(step - 1, step)[0]
        return h("p", h("span", line["label"], cls="shell-turn") if line["label"] else None, " " if line["label"] else None,
                 line["words"], h("span", f" ({line['draw']})", cls="shell-draw") if line["draw"] else None,
                 id="shell-viewing-words", cls="shell-viewing-words")

    def _jump_typed(self, value: str) -> None:
        try:
            self.shell.jump(int(value))
        except ValueError:
            self.shell.say("Type the number of a step.", "error")
