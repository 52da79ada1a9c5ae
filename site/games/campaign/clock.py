"""The Short Campaign's question against the clock: when each person's clock starts, their
answer (a click, a key, a typed guess), and the time-out.

Why a part: the timing (S8) is state of its own, kept beside the game and never in it: when
a question appeared, when each person's clock started (their Ready on a shared device, else
the question on screen after the last reveal's pause), the one timer that redraws the
countdown. The answers given so far live only in the shell's ``Session.secret_parts`` and
are never drawn; this part turns a person's answer into the secret the shell gives the
engine, with the time it took.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ui import Event

from conquest.games.campaign import GAME

if TYPE_CHECKING:
    from . import CampaignPage

#: the last reveal stays on screen this long before the next question is shown (one device)
HOLD_MS = 4000
#: keys that answer a multiple-choice question: 1-4 and A-D
CHOICE_KEYS = {"1": "A", "2": "B", "3": "C", "4": "D", "a": "A", "b": "B", "c": "C", "d": "D"}


def parse_guess(raw: str) -> int | None:
    """A typed guess as a whole number; thousands separators and spaces are allowed."""
    text = "".join(ch for ch in str(raw) if ch not in ", _'\u00a0\u202f")
    if not text.isdigit() or len(text) > 13:
        return None
    return int(text)


def seconds_left(ms: float) -> int:
    return max(0, math.ceil(ms / 1000))


class AnswerClock:
    """Each person's clock for the open question, and their answer, timed from it."""

    def __init__(self, page: CampaignPage) -> None:
        self.page = page
        self.shell = page.shell
        #: when each person's clock started: ``(log length, seat) -> host clock``
        self.gates: dict[tuple[int, int], float] = {}
        #: ``(log length, clock)``: when the question now open appeared
        self.appeared: tuple[int, float] | None = None
        #: ``(log index of the Answers step, clock)``: when the last reveal came
        self.reveal_seen: tuple[int, float] | None = None
        self.tick_pending = False
        #: ``(log length, seat, "hold" or "question")`` the keyboard focus was last moved for
        self.focused_for: tuple[int, int, str] | None = None

    def reset(self) -> None:
        """After every step, undo or jump: new clocks for the next question, and the moment a
        new reveal arrived (the next question waits ``HOLD_MS`` after it)."""
        self.gates.clear()
        s = self.shell.session
        if s is None:
            return
        now = self.shell.host.clock()
        n = len(s.match.log)
        if s.match.state.phase == "answer":
            self.appeared = (n, now)
        last = self.last_answers(n)
        if last is not None and (self.reveal_seen is None or self.reveal_seen[0] != last):
            self.reveal_seen = (last, now)

    def opened(self) -> None:
        """A game was opened (link, slot, file, new): its last reveal counts as seen."""
        s = self.shell.session
        assert s is not None
        last = self.last_answers(len(s.match.log))
        self.reveal_seen = None if last is None else (last, -float(HOLD_MS))
        self.focused_for = None

    def last_answers(self, step: int) -> int | None:
        """Log index of the last answered question before ``step`` (its reveal), or None."""
        s = self.shell.session
        assert s is not None
        for i in range(min(step, len(s.match.log)) - 1, -1, -1):
            if s.match.log[i].startswith("a"):
                return i
        return None

    def answerer(self) -> int | None:
        """The person answering on this device now: a human seat whose question is open,
        with nobody else to hand the device to first; None otherwise."""
        s = self.shell.session
        if s is None or s.locked() or s.match.state.phase != "answer" or s.needs_handover() is not None:
            return None
        seat = s.acting_seat()
        if seat is None or self.page.is_bot(seat):
            return None
        return seat

    def hold_until(self) -> float:
        s = self.shell.session
        assert s is not None
        last = self.last_answers(len(s.match.log))
        if last is None or self.reveal_seen is None or self.reveal_seen[0] != last:
            return 0.0
        return self.reveal_seen[1] + HOLD_MS

    def gate(self, seat: int) -> float:
        """When ``seat``'s clock starts for the open question (created on first sight).

        Handed the device for this question: at their Ready. Otherwise when the question is
        shown, after the last reveal has been on screen for ``HOLD_MS``."""
        s = self.shell.session
        assert s is not None
        n = len(s.match.log)
        key = (n, seat)
        if key not in self.gates:
            now = self.shell.host.clock()
            if self.appeared is None or self.appeared[0] != n:
                self.appeared = (n, now)
            if s.shown_seat == seat and s.ready_at >= self.appeared[1]:
                start = s.ready_at
            else:
                start = max(now, self.hold_until())
            self.gates[key] = start
            self.shell.host.set_fields({"cp-guess": ""})  # no guess left over from the last question
        return self.gates[key]

    def show_now(self, seat: int) -> None:
        """"Show the question now": skip the rest of the pause after a reveal."""
        s = self.shell.session
        assert s is not None
        now = self.shell.host.clock()
        if self.answerer() == seat and self.gate(seat) > now:
            self.gates[(len(s.match.log), seat)] = now

    def time_left(self, seat: int) -> float:
        s = self.shell.session
        assert s is not None
        limit = GAME.setup(s.match.state).limit_ms
        return self.gate(seat) + limit - self.shell.host.clock()

    def answer(self, seat: int, value: int | str) -> None:
        """A person's answer, timed from their gate; after the time is up it counts as none."""
        s = self.shell.session
        if s is not None and seat in s.secret_parts:
            return  # a second click on the same question: the first answer stands
        if s is None or self.answerer() != seat:
            self.shell.say("That answer was not asked for now.", "error")
            return
        start = self.gate(seat)
        now = self.shell.host.clock()
        if now < start:
            return  # the question is not on screen yet
        limit = GAME.setup(s.match.state).limit_ms
        elapsed = int(now - start)
        if elapsed > limit:
            self.shell.give_secret(seat, None)
            self.shell.say(f"Time was up: no answer from {self.page.name(seat)} (S8).")
            return
        if self.shell.give_secret(seat, (value, elapsed)):
            self.focused_for = None

    def answer_guess(self, seat: int, ev: Event) -> None:
        q = self.open_question()
        raw = str(ev.fields.get("guess", ""))
        value = parse_guess(raw)
        if q is None:
            return
        if value is None:
            self.shell.say("Type a whole number, for example 1500.", "error")
            return
        if not q["min"] <= value <= q["max"]:
            self.shell.say(f"A guess must be from {q['min']:,} to {q['max']:,}.", "error")
            return
        ev.reset_form()
        self.answer(seat, value)

    def on_key(self, ev: Event) -> None:
        """1-4 or A-D answer a multiple-choice question (the focus is on the question)."""
        seat = self.answerer()
        q = self.open_question()
        letter = CHOICE_KEYS.get(ev.key.lower())
        if seat is None or q is None or q["kind"] != "choice" or letter is None:
            return
        if ev.ctrl or ev.meta or ev.alt:
            return  # Ctrl+C copies, it does not answer C
        if letter not in [o["letter"] for o in q["options"]]:
            return
        ev.prevent()
        self.answer(seat, letter)

    def open_question(self) -> dict[str, Any] | None:
        s = self.shell.session
        if s is None:
            return None
        return GAME.view(s.match.state, None)["question"]

    def check_timeout(self) -> bool:
        """The clock ran out for the person answering: no answer (S8). True if it did."""
        seat = self.answerer()
        if seat is None or self.time_left(seat) > 0:
            return False
        if self.shell.give_secret(seat, None):
            self.focused_for = None
        self.shell.say(f"Time is up: no answer from {self.page.name(seat)} (S8).")
        return True

    def tick(self) -> None:
        self.tick_pending = False
        self.check_timeout()
        self.shell.host.rerender()

    def schedule_tick(self) -> None:
        """One timer at a time while a person's clock runs (or their question is coming):
        the countdown is redrawn on each whole second, and the time-out comes on time."""
        seat = self.answerer()
        if seat is None or self.tick_pending:
            return
        now = self.shell.host.clock()
        start = self.gate(seat)
        if now < start:
            delay = (start - now) % 1000 or 1000
        else:
            delay = self.time_left(seat) % 1000 or 1000
        self.tick_pending = True
        self.shell.host.later(max(20.0, delay + 5), self.tick)

    def focus(self) -> None:
        """Browser only: the keyboard focus goes to a new question (or its Get ready button),
        so 1-4, A-D or a typed number answer at once."""
        s = self.shell.session
        seat = self.answerer()
        if seat is None or s is None:
            return
        q = self.open_question()
        now = self.shell.host.clock()
        what = "hold" if now < self.gate(seat) else "question"
        key = (len(s.match.log), seat, what)
        if self.focused_for == key or q is None:
            return
        self.focused_for = key
        if what == "hold":
            self.shell.host.focus("cp-go")
        else:
            self.shell.host.focus("cp-opt-0" if q["kind"] == "choice" else "cp-guess")

