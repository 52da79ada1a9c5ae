"""The Short Campaign play page: its map, the question screen against the clock, the reveal.

Why this is all that is here: the shell (``shell.py``) gives the page its set-up seats,
links, saves, log, undo, "viewing step N", chart, bot runner and pass-the-device screens;
every rule, number and decision comes from :mod:`conquest.games.campaign` (``GAME.view``).
The page draws that view (the map is in the HTML from the build; here it is only recoloured
and given a layer of points and towers), times each person's answer, and turns clicks, keys
and map picks into the engine's action values.

The page is in parts (issue 42), each with its own state, renderer and handlers, which
:class:`CampaignPage` creates and routes the shell's hooks to: ``setup`` (the categories and
the question pack of the set-up form, :mod:`.setup`), ``clock`` (each person's clock and
answer, :mod:`.clock`), ``stage`` (the question, the pause and what is brought into view,
:mod:`.stage`), ``reveal`` (the last question's answers, :mod:`.reveal`), ``scores`` (the
scoreboard and the final table, :mod:`.scores`) and ``board`` (the map, its list and the
picks, :mod:`.board`). What every part reads (a seat's name, colour, whether a computer
plays it) stays here.

Timing (S8): a person's clock starts when their question is on screen: at their own Ready
on a shared device (``Session.ready_at``), otherwise when the question appears, which is a
few seconds after the last reveal (``HOLD_MS``) so people can read who won. The answers
given so far live only in the shell's ``Session.secret_parts`` and are never drawn; the
right answer is not in any view until everyone has answered. Every text from a link, a
file or a pack reaches the page as text (``ui`` trees are text-only).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shell import GamePage, Seat, Shell
from ui import Event, Node

from conquest.games.campaign import GAME

from .board import Board
from .clock import AnswerClock, seconds_left
from .reveal import Reveal
from .scores import Scores
from .setup import PACK_FILE_MAX, SetupForm
from .stage import Stage


class CampaignPage(GamePage):
    """The page: its parts, what they all read of the seats, and the shell's hooks."""

    game_id = "campaign"
    focus_home = "cp-stage-inner"  # the controls, after a step (issue 21, item 2)
    chart_x_label = "questions asked"

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.setup = SetupForm(shell)
        self.clock = AnswerClock(self)
        self.board = Board(self)
        self.stage = Stage(self)
        self.reveal = Reveal(self)
        self.scores = Scores(self)

    # -- set-up -----------------------------------------------------------------------------
    def options(self, seats: list[Seat], fields: Mapping[str, str]) -> dict[str, Any]:
        return self.setup.options(seats, fields)

    def render_setup(self) -> dict[str, Node]:
        return self.setup.render()

    # -- reading the game: what every part asks of the seats ---------------------------------
    def seat_colour(self, seat: int) -> str:
        seats = self.shell.session.seats() if self.shell.session else []
        return seats[seat].colour if 0 <= seat < len(seats) else "#999999"

    def is_bot(self, seat: int) -> bool:
        seats = self.shell.session.seats() if self.shell.session else []
        return 0 <= seat < len(seats) and seats[seat].is_bot

    def name(self, seat: int | None) -> str:
        """A player's name as the engine has it (the options' seats or players)."""
        s = self.shell.session
        if s is None or seat is None:
            return "—"
        names = GAME.setup(s.match.state).names
        return names[seat] if 0 <= seat < len(names) else "—"

    @property
    def touch(self) -> bool:
        """A touch screen (the host says so): "Tap", not "Click", and no keys to press."""
        return bool(getattr(self.shell.host, "touch", False))

    # -- the shell's hooks, routed to the parts -----------------------------------------------
    def reset(self) -> None:
        self.clock.reset()

    def opened(self) -> None:
        self.clock.opened()

    def on_key(self, ev: Event) -> None:
        self.clock.on_key(ev)

    def pick(self, index: int) -> None:
        self.board.pick(index)

    def paint(self, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        return self.board.paint(view)

    def result_until(self) -> int | None:
        """While a question is open, its draw is not "what just happened": the question is read
        on the stage after "Get ready", never early from the result box or the live region."""
        s = self.shell.session
        if s is None or s.match.state.phase != "answer":
            return None
        n = len(s.match.log)
        while n > 0 and GAME.chance(s.match.states[n - 1]) is not None:
            n -= 1
        return n

    def log_label(self, before: Any) -> str:
        if before.phase == "bases":
            return "Bases"
        if before.purpose == "final" and before.phase in ("draw", "answer"):
            return "Tie-break"
        if before.battle_round:
            return f"Battle {before.battle_round}"
        return f"Expansion {before.expansion_round}" if before.expansion_round else ""

    def chart_points(self, states: Sequence[Any]) -> list[tuple[int, int]]:
        """The scores before each question is drawn (x: questions asked so far) and at the end."""
        pts: list[tuple[int, int]] = []
        for i, st in enumerate(states):
            if st.phase == "draw" or (st.phase == "over" and i == len(states) - 1):
                x = len(st.used)
                if pts and pts[-1][0] == x:
                    pts[-1] = (x, i)
                else:
                    pts.append((x, i))
        return pts

    def prompt(self, view: Mapping[str, Any]) -> str:
        seat = self.clock.answerer()
        if seat is not None:
            start = self.clock.gate(seat)
            now = self.shell.host.clock()
            if now < start:
                return f"Get ready, {self.name(seat)}: the next question in {seconds_left(start - now)} s."
            return f"{self.name(seat)}: answer now — {seconds_left(self.clock.time_left(seat))} s left (S8)."
        if self.board.choices(view):
            verb = "Tap" if self.touch else "Click"
            return f"{view['prompt']} {verb} a highlighted territory, or use the list under the map."
        return str(view["prompt"])

    def after_render(self) -> None:
        """Browser only: the newest result and what to act on next are brought into view once
        each time they change (issue 41); the keyboard focus goes to a new question."""
        self.stage.bring_into_view()
        self.clock.focus()

    # -- rendering -------------------------------------------------------------------------------
    def render(self, view: Mapping[str, Any]) -> dict[str, Node]:
        s = self.shell.session
        assert s is not None
        out = {
            "cp-stage": self.stage.render(view),
            "cp-marks": self.board.render_marks(view),
            "cp-side": self.scores.render(view),
            "cp-choose": self.board.render_choose(view),
        }
        self.clock.schedule_tick()
        return out


def snapshot_warm() -> None:
    """Run once when the browser keeps its Python snapshot (site/snapshot-worker.mjs, issue
    38): the question bank (a megabyte of JSON, 0.2 s here) is read and indexed then, so a
    page restored from the snapshot opens without reading it."""
    GAME.question_categories()


def main() -> None:
    """In the page: run the page on the shell, and read pack files picked in the set-up.

    Reading a file is asynchronous in the browser and the shell's Host has no method for it,
    so this wires the set-up's file input here; the page's logic (``SetupForm.load_pack_text``) is
    the same one the tests call."""
    import asyncio

    import frame
    import js  # type: ignore[import-not-found]
    from shell_browser import run

    runner = run(CampaignPage)
    page = runner.page
    assert isinstance(page, CampaignPage)
    field = js.document.getElementById("cp-pack-file")

    async def read(input_el: Any) -> None:
        files = input_el.files
        if frame.nullish(files) or files.length == 0:
            return
        f = files.item(0)
        name = str(f.name)
        if int(f.size) > PACK_FILE_MAX:
            page.setup.pack_refused(name, f"the file is {int(f.size):,} bytes; a question pack file is at most "
                                    f"{PACK_FILE_MAX:,} bytes")
        else:
            try:
                page.setup.load_pack_text(name, str(await f.text()))
            except Exception as exc:  # an unreadable file: say so, keep the set-up
                page.setup.pack_refused(name, f"the file could not be read ({exc})")
        input_el.value = ""
        runner.render()

    if not frame.nullish(field):
        frame.on(field, "change", lambda ev: read(ev.target))
        if not frame.nullish(field.files) and field.files.length:  # picked while Python started
            asyncio.ensure_future(read(field))
