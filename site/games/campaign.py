"""The Short Campaign play page: its map, the question screen against the clock, the reveal.

Why this is all that is here: the shell (``shell.py``) gives the page its set-up seats,
links, saves, log, undo, "viewing step N", chart, bot runner and pass-the-device screens;
every rule, number and decision comes from :mod:`conquest.games.campaign` (``GAME.view``).
The page draws that view (the map is in the HTML from the build; here it is only recoloured
through :meth:`CampaignPage.paint` and given a layer of points and towers), times each
person's answer, and turns clicks, keys and map picks into the engine's action values.

Timing (S8): a person's clock starts when their question is on screen: at their own Ready
on a shared device (``Session.ready_at``), otherwise when the question appears, which is a
few seconds after the last reveal (``HOLD_MS``) so people can read who won. The answers
given so far live only in the shell's ``Session.secret_parts`` and are never drawn; the
right answer is not in any view until everyone has answered. Every text from a link, a
file or a pack reaches the page as text (``ui`` trees are text-only).
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from shell import GamePage, Seat, Shell, plural
from ui import Event, Node, h, svg

from conquest.core import InvalidOptions
from conquest.games.campaign import GAME, PackError, load_pack
from conquest.games.campaign.actions import Attack, Pick
from conquest.games.campaign.engine import rules
from conquest.games.campaign.pictures import picture_from_json
from conquest.maps import load_map

#: the map drawn by the template (build time); another map in a link is played from the list
MAP_ID = "campaign15"
#: the last reveal stays on screen this long before the next question is shown (one device)
HOLD_MS = 4000
#: a pack file larger than this is refused before it is read (the engine allows 4 x 100 kB)
PACK_FILE_MAX = 400_000
#: the answer times the set-up offers (the template lists the same; the engine checks)
SECONDS = (5, 10, 15, 20, 30, 45, 60, 90, 120)
#: keys that answer a multiple-choice question: 1-4 and A-D
CHOICE_KEYS = {"1": "A", "2": "B", "3": "C", "4": "D", "a": "A", "b": "B", "c": "C", "d": "D"}
PLACES = ("1st", "2nd", "3rd")
#: the site's root seen from this page (``play/campaign/``), for a question's picture file;
#: a guest device's page (``play/campaign/guest/``) is a folder deeper: its host says so
#: (``remote.RemoteHost.site_root``)
SITE_ROOT = "../../"
#: the pixel size a picture file is laid out at before it loads (CSS scales it: campaign.css)
PICTURE_BOX = {"flag": (160, 120), "emoji": (120, 120)}


def parse_guess(raw: str) -> int | None:
    """A typed guess as a whole number; thousands separators and spaces are allowed."""
    text = "".join(ch for ch in str(raw) if ch not in ", _'\u00a0\u202f")
    if not text.isdigit() or len(text) > 13:
        return None
    return int(text)


def seconds_left(ms: float) -> int:
    return max(0, math.ceil(ms / 1000))


class CampaignPage(GamePage):
    """The page's own state (one object) and renderers."""

    game_id = "campaign"
    focus_home = "cp-stage-inner"  # the controls, after a step (issue 21, item 2)

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
    chart_x_label = "questions asked"

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        cats = GAME.question_categories()
        self.bank_categories: list[dict[str, Any]] = cats
        self.categories: set[str] = {c["id"] for c in cats}
        self.pack: dict[str, Any] | None = None
        self.pack_file = ""
        self.pack_problems: list[str] = []
        self.pack_categories: set[str] = set()
        #: when each person's clock started: ``(log length, seat) -> host clock``
        self.gates: dict[tuple[int, int], float] = {}
        #: ``(log length, clock)``: when the question now open appeared
        self.appeared: tuple[int, float] | None = None
        #: ``(log index of the Answers step, clock)``: when the last reveal came
        self.reveal_seen: tuple[int, float] | None = None
        self.tick_pending = False
        self.focused_for: tuple[int, int, str] | None = None
        self.labels: dict[int, tuple[float, float]] = {}
        self.paths: dict[int, str] = {}
        self.reduced_motion = False
        #: the ids marked ``data-now`` in the last render: (result, next) (issue 41)
        self.marked_ids: tuple[str | None, str | None] = (None, None)
        self.revealed_for: tuple[Any, ...] | None = None

    # -- set-up -----------------------------------------------------------------------------
    def options(self, seats: list[Seat], fields: Mapping[str, str]) -> dict[str, Any]:
        """Seats with their colours and bot levels (so a link reopens the same table), the
        answer time, the categories and the pack. No set-up seed: every draw is a chance step."""
        raw = str(fields.get("seconds", "") or rules().seconds).strip()
        if not raw.isdigit():
            raise InvalidOptions("options.seconds", "Pick the time to answer from the list.")
        out: dict[str, Any] = {
            "seed": 0,
            "seats": [
                {"name": s.name, "colour": s.colour, **({"bot": s.who} if s.is_bot else {})} for s in seats
            ],
            "seconds": int(raw),
            "categories": self.chosen_categories(fields),
            "mix": True,  # issue 40: a varied draw (no category above a third of the questions)
        }
        if self.pack is not None:
            out["pack"] = self.pack
            out["pack_categories"] = self.chosen_pack_categories(fields)
        return out

    def chosen_categories(self, fields: Mapping[str, str]) -> list[str]:
        """The ticked bank categories: from the form when its boxes were drawn, else the page's."""
        ids = [c["id"] for c in self.bank_categories]
        if "cats-shown" in fields:
            return [c for c in ids if f"cat-{c}" in fields]
        return [c for c in ids if c in self.categories]

    def chosen_pack_categories(self, fields: Mapping[str, str]) -> list[str]:
        cats = list(self.pack["cats"]) if self.pack else []
        if "pcats-shown" in fields:
            return [c for i, c in enumerate(cats) if f"pcat-{i}" in fields]
        return [c for c in cats if c in self.pack_categories]

    def set_category(self, cat: str, on: bool) -> None:
        (self.categories.add if on else self.categories.discard)(cat)

    def set_all_categories(self, on: bool) -> None:
        self.categories = {c["id"] for c in self.bank_categories} if on else set()

    def set_pack_category(self, cat: str, on: bool) -> None:
        (self.pack_categories.add if on else self.pack_categories.discard)(cat)

    def load_pack_text(self, filename: str, text: str | bytes) -> bool:
        """A pack file was read: the engine checks it (every fault listed) and seals it.

        A loaded pack replaces the bank by default (the engine's default too): the bank
        categories are unticked, and the host may tick some back to mix them in."""
        self.pack_file = " ".join(str(filename).split())[:120]
        try:
            sealed = load_pack(text)
        except PackError as exc:
            self.pack_problems = list(exc.problems)
            self.shell.say(f"{self.pack_file} cannot be used as a question pack; the problems are listed below.", "error")
            return False
        self.pack = sealed
        self.pack_problems = []
        self.pack_categories = set(sealed["cats"])
        self.categories = set()
        self.shell.say(f"Loaded the question pack “{sealed['title']}” ({plural(len(sealed['q']), 'question')}).")
        return True

    def pack_refused(self, filename: str, problem: str) -> None:
        """A file that could not be read at all (too large, not text)."""
        self.pack_file = " ".join(str(filename).split())[:120]
        self.pack_problems = [problem]
        self.shell.say(f"{self.pack_file} cannot be used as a question pack.", "error")

    def remove_pack(self) -> None:
        self.pack = None
        self.pack_file = ""
        self.pack_problems = []
        self.pack_categories = set()
        self.categories = {c["id"] for c in self.bank_categories}
        self.shell.clear_message()

    def question_counts(self) -> tuple[int, int]:
        """Multiple-choice and guess questions in the chosen bank and pack categories."""
        choice = sum(c["choice"] for c in self.bank_categories if c["id"] in self.categories)
        guess = sum(c["guess"] for c in self.bank_categories if c["id"] in self.categories)
        if self.pack is not None:
            wanted = {i for i, c in enumerate(self.pack["cats"]) if c in self.pack_categories}
            for row in self.pack["q"]:
                if row[1] in wanted:
                    choice += row[0] == "c"
                    guess += row[0] == "g"
        return choice, guess

    def render_setup(self) -> dict[str, Node]:
        return {"cp-categories": self.render_categories(), "cp-pack": self.render_pack()}

    def render_categories(self) -> Node:
        boxes = []
        for c in self.bank_categories:
            cid = c["id"]
            kinds = ", ".join(
                part for part in (
                    f"{c['choice']:,} multiple choice" if c["choice"] else "",
                    f"{c['guess']:,} guess" if c["guess"] else "",
                ) if part
            )
            boxes.append(h(
                "label",
                h("input", type="checkbox", id=f"cp-cat-{cid}", name=f"cat-{cid}", checked=cid in self.categories,
                  on_change=lambda ev, c=cid: self.set_category(c, ev.checked)),
                f" {c['name']} ", h("span", f"({kinds})", cls="muted"),
                cls="cp-check",
            ))
        choice, guess = self.question_counts()
        need = 5
        short = choice < need or guess < need
        return h(
            "div",
            h("input", type="hidden", name="cats-shown", value="1"),
            h("p", "Questions from the bundled bank (built from open data; see the credits):", cls="cp-note"),
            h("div", *boxes, cls="cp-checks", role="group", aria_label="Question categories of the bank"),
            h("p",
              h("button", "All", type="button", cls="small", id="cp-cats-all", on_click=lambda ev: self.set_all_categories(True)),
              " ",
              h("button", "None", type="button", cls="small", id="cp-cats-none",
                on_click=lambda ev: self.set_all_categories(False)),
              " ",
              h("span", f"Chosen: {choice:,} multiple-choice and {guess:,} guess questions"
                + (f" — a game needs at least {need} of each." if short else "."),
                cls="cp-count" + (" bad" if short else ""), id="cp-count")),
            id="cp-categories-inner",
        )

    def render_pack(self) -> Node:
        kids: list[Any] = []
        if self.pack_problems:
            kids.append(h("div",
                          h("p", h("strong", f"{self.pack_file or 'The file'} cannot be used:")),
                          h("ul", *[h("li", p) for p in self.pack_problems], id="cp-pack-problems"),
                          cls="cp-pack-bad", role="alert"))
        if self.pack is not None:
            pack = self.pack
            n_choice = sum(1 for r in pack["q"] if r[0] == "c")
            n_guess = len(pack["q"]) - n_choice
            boxes = [
                h("label",
                  h("input", type="checkbox", id=f"cp-pcat-{i}", name=f"pcat-{i}", checked=c in self.pack_categories,
                    on_change=lambda ev, c=c: self.set_pack_category(c, ev.checked)),
                  f" {c}", cls="cp-check")
                for i, c in enumerate(pack["cats"])
            ]
            kids.append(h(
                "div",
                h("input", type="hidden", name="pcats-shown", value="1"),
                h("p", "Question pack ", h("strong", f"“{pack['title']}”", id="cp-pack-title"),
                  f" from {self.pack_file}: " if self.pack_file else ": ",
                  f"{plural(n_choice, 'multiple-choice question')} and {plural(n_guess, 'guess question')}."),
                h("p", f"Source: {pack['source']}", cls="muted") if pack.get("source") else None,
                h("div", *boxes, cls="cp-checks", role="group", aria_label="Categories of the pack"),
                h("p", "The bank's categories above were unticked so the game uses the pack only; tick some to "
                       "mix them in. The pack travels in the game's links (its answers scrambled, so they are not "
                       "readable at a glance).", cls="muted"),
                h("button", "Remove the pack", type="button", cls="small secondary", id="cp-pack-remove",
                  on_click=lambda ev: self.remove_pack()),
                cls="cp-pack-ok", id="cp-pack-loaded",
            ))
        return h("div", *kids, id="cp-pack-inner")

    # -- reading the game -------------------------------------------------------------------
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

    def answerer(self) -> int | None:
        """The person answering on this device now: a human seat whose question is open,
        with nobody else to hand the device to first; None otherwise."""
        s = self.shell.session
        if s is None or s.locked() or s.match.state.phase != "answer" or s.needs_handover() is not None:
            return None
        seat = s.acting_seat()
        if seat is None or self.is_bot(seat):
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

    # -- acting -------------------------------------------------------------------------------
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
            self.shell.say(f"Time was up: no answer from {self.name(seat)} (S8).")
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
        self.shell.say(f"Time is up: no answer from {self.name(seat)} (S8).")
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

    def pick(self, index: int) -> None:
        """A territory was picked on the map (click, tap, Enter) or in the list."""
        s = self.shell.session
        if s is None:
            return
        state = s.shown_state()
        view = GAME.view(state, None)
        if not 0 <= index < len(view["territories"]):
            return
        choices = self.choices(view)
        if index not in choices:
            t = view["territories"][index]
            owner = "free" if t["owner"] < 0 else f"held by {self.name(t['owner'])}"
            why = " This copy is read-only." if s.locked() else " It is not a choice now."
            self.shell.say(f"{t['name']}: {owner}, worth {t['value']:,}.{why}")
            return
        self.shell.play(Pick(index) if view["phase"] == "pick" else Attack(index))

    def choices(self, view: Mapping[str, Any]) -> list[int]:
        """Territories a person at this device may pick now (none for bots, none when locked)."""
        s = self.shell.session
        if s is None or s.locked():
            return []
        seat = view["to_move"]
        if seat is None or self.is_bot(seat):
            return []
        if view["phase"] == "pick":
            return list(view["pickable"])
        if view["phase"] == "attack":
            return list(view["targets"])
        return []

    # -- the shell's hooks ------------------------------------------------------------------------
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

    @property
    def touch(self) -> bool:
        """A touch screen (the host says so): "Tap", not "Click", and no keys to press."""
        return bool(getattr(self.shell.host, "touch", False))

    def prompt(self, view: Mapping[str, Any]) -> str:
        seat = self.answerer()
        if seat is not None:
            start = self.gate(seat)
            now = self.shell.host.clock()
            if now < start:
                return f"Get ready, {self.name(seat)}: the next question in {seconds_left(start - now)} s."
            return f"{self.name(seat)}: answer now — {seconds_left(self.time_left(seat))} s left (S8)."
        if self.choices(view):
            verb = "Tap" if self.touch else "Click"
            return f"{view['prompt']} {verb} a highlighted territory, or use the list under the map."
        return str(view["prompt"])

    def after_render(self) -> None:
        """Browser only: the newest result and what to act on next are brought into view once
        each time they change (issue 41; the next last, so it wins where both do not fit);
        the keyboard focus goes to a new question (or its Get ready button), so 1-4, A-D or a
        typed number answer at once."""
        s = self.shell.session
        if s is not None:
            choose = "cp-choose-inner" if self.choices(s.view()) else None
            ids = (self.marked_ids[0], self.marked_ids[1] or choose)
            key = (len(s.match.log), len(s.secret_parts), ids)
            if key != self.revealed_for:
                self.revealed_for = key
                for eid in ids:
                    if eid:
                        self.shell.host.reveal(eid)
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

    # -- rendering -------------------------------------------------------------------------------
    def render(self, view: Mapping[str, Any]) -> dict[str, Node]:
        s = self.shell.session
        assert s is not None
        out = {
            "cp-stage": self.render_stage(view),
            "cp-marks": self.render_marks(view),
            "cp-side": self.render_side(view),
            "cp-choose": self.render_choose(view),
        }
        self.schedule_tick()
        return out

    def render_stage(self, view: Mapping[str, Any]) -> Node:
        """The question, the Get ready pause, the reveal and the end, above the map."""
        s = self.shell.session
        assert s is not None
        kids: list[Any] = []
        act = "wait"
        if view["map"] != MAP_ID:
            kids.append(h("p", f"This game is played on the map {view['map']}, which this page does not draw: "
                               "use the list below the map to choose territories.", cls="cp-warn"))
        reveal = self.render_reveal(view)
        #: issue 41: what to act on next (``data-now="next"``) and the newest result
        #: (``"result"``), at most one of each; the shell brings them into view after a tap
        nxt: Node | None = None
        result: Node | None = None
        if view["phase"] == "answer" and view["question"] is not None:
            seat = self.answerer()
            if seat is not None and self.shell.host.clock() < self.gate(seat):
                act = "hold"
                nxt = self.render_hold(view, seat)
                result = reveal
                kids += [nxt, reveal]
            elif seat is not None:
                act = f"answer-{view['question']['kind']}"
                nxt = self.render_question(view, seat)
                kids.append(nxt)
            elif s.needs_handover() is not None:
                act = "handover"
            else:
                kids.append(self.render_question(view, None))
                kids.append(reveal)
        elif view["phase"] == "over":
            act = "over"
            kids.append(self.shell.result.render())  # what ended it, beside the result (item 10)
            result = self.render_final(view)
            kids += [result, reveal]
        else:
            if self.choices(view):
                act = view["phase"]
            # not in the answer phase: there the question is what the person reads
            box = self.shell.result.render()
            # what the last steps did, in words (the reveal's outcome among them), else the reveal
            result = reveal if box.attrs.get("hidden") is not None else box
            kids += [box, reveal]
        self.marked_ids = (self.mark(result, "result"), self.mark(nxt, "next"))
        # data-act and data-step say what the stage waits for (for people's tools and tests)
        return h("div", *kids, id="cp-stage-inner", cls="cp-stage-inner", data_act=act, data_phase=view["phase"],
                 data_step=f"{len(s.match.log)}.{len(s.secret_parts)}", on_keydown=self.on_key)

    @staticmethod
    def mark(node: Node | None, what: str) -> str | None:
        """Mark ``node`` ``data-now=what`` (issue 41); its id, for :meth:`after_render`."""
        if node is None:
            return None
        node.attrs["data-now"] = what
        return node.attrs.get("id")

    def asked_line(self, view: Mapping[str, Any], hold: bool = False) -> Node:
        """Who answers and who has answered (never what)."""
        s = self.shell.session
        assert s is not None
        q = view["question"]
        items = []
        for seat in q["asked"]:
            done = seat in s.secret_parts
            now = "getting ready" if hold else "answering"
            state = "answered" if done else (now if seat == s.acting_seat() else "waiting")
            who = self.name(seat) + (" (computer)" if self.is_bot(seat) else "")
            items.append(h("li", h("span", cls="swatch", style=f"background:{self.seat_colour(seat)}", aria_hidden="true"),
                           f" {who}: {state}", cls=f"is-{state.replace(' ', '-')}", data_seat=str(seat)))
        return h("ul", *items, cls="cp-asked", aria_label="Who answers")

    def render_question(self, view: Mapping[str, Any], seat: int | None) -> Node:
        """The open question; with controls and the clock for the person answering."""
        s = self.shell.session
        assert s is not None
        q = view["question"]
        fight = view["attack"]
        who = f" ({self.name(fight['attacker'])} attacks, {self.name(fight['defender'])} defends)" if fight else ""
        head = h("p", h("span", q["purpose_text"][:1].upper() + q["purpose_text"][1:] + who, cls="cp-purpose"),
                 " · ", h("span", q["category"], cls="cp-category"), cls="cp-qhead")
        text = h("h2", q["text"], id="cp-qtext", cls="cp-qtext")
        source = h("p", f"Source: {q['source']}", cls="cp-source muted") if q.get("source") else None
        live = seat is not None
        clock: Node | None = None
        if live:
            assert seat is not None
            limit = view["time_limit_ms"]
            left = max(0.0, self.time_left(seat))
            pct = max(0.0, min(100.0, 100.0 * left / limit))
            clock = h(
                "div",
                h("span", f"{seconds_left(left)} s", cls="cp-secs", id="cp-secs"),
                h("span", h("span", cls="cp-timer-fill", style=f"width:{pct:.1f}%"), cls="cp-timer-bar"),
                cls="cp-timer" + (" is-low" if left <= 5000 else ""), role="timer",
                aria_label=f"{seconds_left(left)} seconds left",
            )
        if q["kind"] == "choice":
            buttons = []
            for i, o in enumerate(q["options"]):
                buttons.append(h(
                    "button", h("span", o["letter"], cls="cp-letter"), h("span", o["text"], cls="cp-otext"),
                    type="button", id=f"cp-opt-{i}", cls="cp-option", disabled=not live,
                    aria_keyshortcuts=f"{i + 1} {o['letter']}", data_letter=o["letter"],
                    on_click=(lambda ev, L=o["letter"]: self.answer(seat, L)) if live else None,
                ))
            controls: Node = h("div", *buttons, cls="cp-options", role="group", aria_label="Answers")
            hint = ("Tap an answer." if self.touch else "Click an answer, or press 1–4 or A–D.") if live else None
        else:
            unit = f" {q['unit']}" if q.get("unit") else ""
            rng = f"a whole number from {q['min']:,} to {q['max']:,}{unit}"
            if live:
                controls = h(
                    "form",
                    h("label", "Your guess", for_="cp-guess", cls="visually-hidden"),
                    h("input", type="number", id="cp-guess", name="guess", min=str(q["min"]), max=str(q["max"]),
                      step="1", inputmode="numeric", autocomplete="off", required=True, aria_describedby="cp-range"),
                    h("span", q.get("unit") or "", cls="cp-unit"),
                    h("button", "Answer", type="submit", id="cp-guess-go"),
                    id="cp-guess-form", cls="cp-guess", novalidate=True,
                    on_submit=lambda ev: self.answer_guess(seat, ev),
                )
                hint = f"Type {rng}, then Enter. Closest wins; equal distance, the faster."
            else:
                controls = h("p", f"A guess: {rng}.", cls="muted")
                hint = None
        return h(
            "section",
            head,
            text,
            self.render_picture(q),
            clock,
            controls,
            h("p", hint, cls="cp-hint muted", id="cp-range") if hint else None,
            source,
            self.asked_line(view),
            cls="cp-question" + (" is-live" if live else ""),
            id="cp-question",
            aria_labelledby="cp-qtext",
            data_seat=str(seat) if live else None,
        )

    def render_picture(self, q: Mapping[str, Any], small: bool = False) -> Node | None:
        """A question's picture (issue 40), or None: a flag or an emoji as an image file of
        the site (``pictures/<kind>/<key>.svg``, copied there by the build), an element's
        symbol as a tile drawn here (its name and number would be the answers). The alt text
        is the bank's, written so it never gives the answer away; everything is text or an
        attribute (``ui`` escapes both). Checked again (a guest device's page is drawn from
        the same view, and a picture that is not one is left out rather than drawn)."""
        raw = q.get("picture")
        if raw is None:
            return None
        try:
            pic = picture_from_json(raw, f"question {q.get('id')}")
        except ValueError:
            return None
        cls = f"cp-picture is-{pic.kind}" + (" is-small" if small else "")
        path = pic.path()
        if path is None:  # a symbol: no file
            return h("figure", h("span", pic.key, cls="cp-symbol", role="img", aria_label=pic.alt), cls=cls)
        root = getattr(self.shell.host, "site_root", SITE_ROOT)
        w, ht = PICTURE_BOX[pic.kind]
        return h("figure", h("img", src=f"{root}{path}", alt=pic.alt, width=str(w), height=str(ht), decoding="async"),
                 cls=cls)

    @staticmethod
    def coming(q: Mapping[str, Any]) -> str:
        """The question to come, in words: "a guess question for expansion round 2"; a
        purpose that already names its question (the tie-break's "the guess question deciding
        the battle for Memphis") is said as it is, not "a guess question for the guess …"."""
        purpose = str(q["purpose_text"])
        if " question" in purpose:
            return purpose
        kind = "multiple-choice" if q["kind"] == "choice" else "guess"
        return f"a {kind} question for {purpose}"

    def render_hold(self, view: Mapping[str, Any], seat: int) -> Node:
        """The pause after a reveal: what comes next, and a button to show it at once."""
        q = view["question"]
        wait = self.gate(seat) - self.shell.host.clock()
        return h(
            "section",
            h("p", f"Next: {self.coming(q)}.", cls="cp-qhead"),
            h("p", h("strong", f"{self.name(seat)}, get ready: the question shows in {seconds_left(wait)} s."),
              cls="cp-ready"),
            h("button", "Show the question now", type="button", id="cp-go", on_click=lambda ev: self.show_now(seat)),
            self.asked_line(view, hold=True),
            cls="cp-question cp-hold", id="cp-question",
        )

    def render_reveal(self, view: Mapping[str, Any]) -> Node | None:
        """The last answered question: its right answer, everyone's answers, who won."""
        rv = view["reveal"]
        s = self.shell.session
        assert s is not None
        if rv is None:
            return None
        i = self.last_answers(s.step())
        before = s.match.states[i] if i is not None else None
        after = s.match.states[i + 1] if i is not None else None
        q = rv["question"]
        choice = q["kind"] == "choice"
        rows = {r["seat"]: r for r in rv["answers"]}
        order = [x for x in rv["ranking"] if x in rows] + [x for x in rows if x not in rv["ranking"]]
        winner = self.reveal_winner(rv, before, after)
        lines = []
        for place, seat in enumerate(order):
            r = rows[seat]
            if not r["answered"]:
                what, how = "no answer", ""
            elif choice:
                opt = next((o["text"] for o in q["options"] if o["letter"] == r["answer"]), "")
                what = f"{r['answer']}: {opt}"
                how = "right" if r["correct"] else "wrong"
            else:
                what = f"{int(r['answer']):,}"
                how = "exact" if r["distance"] == 0 else f"{r['distance']:,} off"
            badge = PLACES[place] if (not choice and r["answered"] and place < len(PLACES)) else ""
            lines.append(h(
                "tr",
                h("td", h("span", cls="swatch", style=f"background:{self.seat_colour(seat)}", aria_hidden="true"),
                  f" {r['name']}" + (" ★" if seat == winner else ""),
                  h("span", badge, cls="cp-place") if badge else None),
                h("td", h("span", what, cls="cp-given"),
                  h("span", how, cls="cp-how " + ("ok" if how in ("right", "exact") else "bad" if how == "wrong" else ""))
                  if how else None),
                h("td", f"{r['ms'] / 1000:.1f} s" if r["answered"] else "—", cls="num"),
                cls="is-winner" if seat == winner else None, data_seat=str(seat),
            ))
        return h(
            "section",
            h("p", "Last question · " + q["category"], cls="cp-qhead"),
            h("p", q["text"], cls="cp-rtext"),
            self.render_picture(q, small=True),
            h("p", "Right answer: ", h("strong", q["answer"], id="cp-right"), cls="cp-answer"),
            h("table",
              h("thead", h("tr", h("th", "Player"), h("th", "Answer"), h("th", "Time", cls="num"))),
              h("tbody", *lines), cls="data cp-answers"),
            h("p", self.outcome_words(rv, before, after), cls="cp-outcome", id="cp-outcome"),
            cls="cp-reveal", id="cp-reveal", aria_label="The last question's answers",
        )

    @staticmethod
    def reveal_winner(rv: Mapping[str, Any], before: Any, after: Any) -> int | None:
        """Whom the reveal favoured: closest guess, or the battle's winner."""
        result = rv["result"]
        if result in ("expand", "final") and rv["ranking"]:
            return int(rv["ranking"][0])
        if before is None or after is None:
            return None
        if result == "attacker":
            return int(before.attacker)
        if result in ("defender", "defender-bonus"):
            return int(before.defender)
        return None

    def outcome_words(self, rv: Mapping[str, Any], before: Any, after: Any) -> str:
        """What the answers decided, in a sentence."""
        result = rv["result"]
        name = self.name
        if result == "expand" and after is not None:
            firsts = [x for i, x in enumerate(after.picks) if x not in after.picks[:i]]
            return "; ".join(
                f"{name(x)} {'was closest' if k == 0 else 'came second'}: {plural(after.picks.count(x), 'pick')}"
                for k, x in enumerate(firsts)
            ) + " (S3)."
        if result == "none":
            return "Nobody answered in time: another question for this round (S3)."
        if result == "final":
            return f"{name(rv['ranking'][0])} wins the tie-break and the game (S7)."
        if result == "again":
            return "Still level: another question decides (S7)."
        if before is None or after is None:
            return ""
        att, dfd, t = before.attacker, before.defender, before.target
        where = GAME.setup(before).board.names[t] if 0 <= t < len(before.owner) else "the territory"
        if result == "both-right":
            return f"Both right: a guess question decides the battle for {where} (S5)."
        if result == "attacker":
            if before.alive[dfd] and not after.alive[dfd]:
                return (f"{name(att)} fells the last tower of {where}: {name(dfd)} is out, and {name(att)} takes "
                        f"all their territories and points, +{rules().elimination_bonus:,} (S6).")
            if after.owner[t] == att:
                gain = after.points[att] - before.points[att]
                return f"{name(att)} takes {where}, {gain:+,}; {name(dfd)} {after.points[dfd] - before.points[dfd]:+,} (S5)."
            left = after.towers[before.base.index(t)]
            return f"{name(att)} fells a tower of {where}: {left} still standing, the siege goes on (S6)."
        bonus = f" and scores the defence bonus, +{rules().defence_bonus}" if result == "defender-bonus" else ""
        return f"{name(dfd)} holds {where}{bonus} (S5)."

    def render_final(self, view: Mapping[str, Any]) -> Node:
        players = sorted(view["players"], key=lambda p: (p["seat"] != view["winner"], -p["points"], p["seat"]))
        rows = [
            h("tr", h("td", str(i + 1)),
              h("td", h("span", cls="swatch", style=f"background:{self.seat_colour(p['seat'])}", aria_hidden="true"),
                f" {p['name']}"),
              h("td", f"{p['points']:,}"), h("td", str(p["territories"])),
              h("td", "winner" if p["seat"] == view["winner"] else ("out" if not p["alive"] else "")))
            for i, p in enumerate(players)
        ]
        reason = view["outcome"]["reason"] if view.get("outcome") else ""
        return h(
            "section",
            h("h2", f"{self.name(view['winner'])} wins with {view['players'][view['winner']]['points']:,} points"),
            h("p", reason, cls="muted"),
            h("table", h("thead", h("tr", *[h("th", x) for x in ("#", "Player", "Points", "Territories", "")])),
              h("tbody", *rows), cls="data"),
            cls="cp-final", id="cp-final",
        )

    def render_side(self, view: Mapping[str, Any]) -> Node:
        """The scoreboard: points, territories, the Base's towers, who acts; the phase."""
        s = self.shell.session
        assert s is not None
        acting = set(view["answering"]) if view["phase"] == "answer" else {view["to_move"]}
        rows = []
        for p in view["players"]:
            seat = p["seat"]
            who = s.seats()[seat].who if seat < len(s.seats()) else ""
            towers = p["towers"]
            if p["base"] is None or p["base"] < 0:
                castle = "—"
            elif not p["alive"]:
                castle = "out"
            else:
                castle = "♜" * towers + "·" * (rules().towers - towers)
            rows.append(h(
                "tr",
                h("td", h("span", cls="swatch", style=f"background:{self.seat_colour(seat)}", aria_hidden="true"),
                  cls="sw"),
                h("td", p["name"],
                  h("span", " ◀", aria_label=" acts now") if seat in acting and view["outcome"] is None else None,
                  h("span", f"computer, {who}", cls="cp-bot") if self.is_bot(seat) else None),
                h("td", f"{p['points']:,}", cls="num"),
                h("td", str(p["territories"]), cls="num"),
                h("td", castle, aria_label=f"{towers} of {rules().towers} towers standing" if p["alive"] else "out"),
                cls=" ".join(c for c in ("is-acting" if seat in acting else "", "is-out" if not p["alive"] else "") if c)
                or None,
                data_seat=str(seat),
            ))
        if view["phase"] == "over":
            phase = "The game is over"
        elif view["battle_round"]:
            phase = f"Battle round {view['battle_round']} of {view['battle_rounds']}"
        elif view["expansion_round"]:
            phase = f"Expansion round {view['expansion_round']}"
        else:
            phase = "The Bases are drawn"
        order = None
        if view["order"] and view["phase"] not in ("over",):
            items = [h("li", self.name(x), cls="is-now" if view["turn"] == k else None) for k, x in enumerate(view["order"])]
            order = h("div", h("p", "Attack order:", cls="cp-order-head"), h("ol", *items, cls="cp-order"))
        qs = view["questions"]
        return h(
            "div",
            h("table",
              h("caption", phase, id="cp-phase"),
              h("thead", h("tr", h("th", h("span", "Colour", cls="visually-hidden"), cls="sw"), h("th", "Player"),
                           h("th", "Points", cls="num"), h("th", "Land", cls="num", title="territories"),
                           h("th", "Base", title="towers standing"))),
              h("tbody", *rows),
              cls="data cp-score", id="cp-score"),
            order,
            h("p", f"{plural(qs['asked'], 'question')} asked so far; the game draws from "
                   f"{qs['multiple_choice']:,} multiple-choice and {qs['guess']:,} guess questions, none twice.",
              cls="muted cp-qcount"),
            h("p", "This game was played with questions from an earlier edition of the question bank "
                   f"({qs['earlier_edition']:,} of the {plural(qs['asked'], 'question')} asked): they are shown "
                   "as they were asked. New questions come from the current bank.",
              cls="cp-edition", id="cp-edition") if qs.get("earlier_edition") else None,
            id="cp-side-inner",
        )

    def render_choose(self, view: Mapping[str, Any]) -> Node:
        """The choices of the map as a list: for keyboards, screen readers and small screens."""
        choices = self.choices(view)
        if not choices:
            return h("div", id="cp-choose-inner", hidden=True)
        terr = view["territories"]
        buttons = []
        for t in sorted(choices, key=lambda x: terr[x]["name"]):
            info = terr[t]
            if view["phase"] == "pick":
                label = info["name"]
            elif info["base_of"] is not None and not info["demolished"]:
                label = f"{info['name']} ({self.name(info['owner'])}'s Base, {plural(info['towers'], 'tower')})"
            else:
                label = f"{info['name']} ({self.name(info['owner'])}, {info['value']:,})"
            buttons.append(h("button", label, type="button", cls="small", data_index=str(t),
                             on_click=lambda ev, x=t: self.pick(x)))
        verb = "Take" if view["phase"] == "pick" else "Attack"
        # what to act on next (issue 41): the choices, here or on the map above
        return h("div", h("span", f"{verb}:", cls="cp-choose-verb"), *buttons, id="cp-choose-inner", cls="cp-choose",
                 data_now="next")

    # -- the map: paints of the build-time SVG, and the layer of points and towers ----------------
    def paint(self, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Owners' colours, the choices (the others fade) and the territory under attack."""
        if view["map"] != MAP_ID:
            return {}
        choices = set(self.choices(view))
        attack = view["attack"]
        # the chooser's own land keeps its colour while the others fade (item 4: faded, it
        # looked like free land)
        me = view.get("to_move") if choices else None
        out: dict[str, dict[str, Any]] = {"cp-map": {"class": {"has-choices": bool(choices)}}}
        for info in view["territories"]:
            t, owner = info["index"], info["owner"]
            who = "free" if owner < 0 else self.name(owner)
            extra = ""
            if info["base_of"] is not None:
                extra = (f", {self.name(info['base_of'])}'s Base, demolished" if info["demolished"]
                         else f", {self.name(info['base_of'])}'s Base, {plural(info['towers'], 'tower')} standing")
            out[f"cp-t{t}"] = {
                "style": {"--owner-fill": self.seat_colour(owner) if owner >= 0 else None},
                "class": {
                    "is-eligible": t in choices,
                    "is-target": attack is not None and attack["target"] == t,
                    "is-base": info["base_of"] is not None,
                    "is-mine": me is not None and owner == me,
                },
                "attrs": {"aria-label": f"{info['name']}: {who}, worth {info['value']:,}{extra}"
                          + (", a choice now" if t in choices else "")},
            }
        return out

    def label_at(self, t: int) -> tuple[float, float] | None:
        self.load_shapes()
        return self.labels.get(t)

    def load_shapes(self) -> None:
        if not self.labels:
            m = load_map(MAP_ID)
            self.labels = {tr.index: (float(tr.label[0]), float(tr.label[1])) for tr in m.territories}
            self.paths = {tr.index: tr.path for tr in m.territories}

    def outline(self, t: int, kind: str) -> list[Node]:
        """A territory's outline above every territory (a build-time path's own stroke is
        half hidden under its neighbours): white underneath, so it shows on any colour."""
        self.load_shapes()
        d = self.paths.get(t)
        if d is None:
            return []
        return [svg("path", d=d, cls=f"cp-outline-under is-{kind}"), svg("path", d=d, cls=f"cp-outline is-{kind}")]

    def render_marks(self, view: Mapping[str, Any]) -> Node:
        """The choices' and the target's outlines; each held territory's value under its name;
        a Base's castle with its towers."""
        kids: list[Node] = []
        if view["map"] == MAP_ID:
            for t in sorted(self.choices(view)):
                kids += self.outline(t, "choice")
            if view["attack"] is not None:
                kids += self.outline(view["attack"]["target"], "target")
            for info in view["territories"]:
                at = self.label_at(info["index"])
                if at is None or (info["owner"] < 0 and info["base_of"] is None):
                    continue
                x, y = at
                kids.append(svg("text", f"{info['value']:,}", x=f"{x:.1f}", y=f"{y + 14:.1f}", cls="cp-value"))
                if info["base_of"] is not None:
                    kids.append(self.castle(x, y - 22, info["towers"] or 0))
        return svg("g", *kids, id="cp-marks-inner")

    @staticmethod
    def castle(x: float, y: float, standing: int) -> Node:
        """Three towers on a wall: standing ones full height, fallen ones as stumps."""
        parts: list[Node] = [svg("rect", x=f"{x - 11:.1f}", y=f"{y + 4:.1f}", width=22, height=6, cls="cp-wall")]
        for k in range(rules().towers):
            tx = x - 11 + k * 8
            if k < standing:
                parts.append(svg("rect", x=f"{tx:.1f}", y=f"{y - 6:.1f}", width=6, height=10, cls="cp-tower"))
            else:
                parts.append(svg("rect", x=f"{tx:.1f}", y=f"{y + 1:.1f}", width=6, height=3, cls="cp-tower is-fallen"))
        return svg("g", *parts, cls="cp-castle" + ("" if standing else " is-demolished"))


def snapshot_warm() -> None:
    """Run once when the browser keeps its Python snapshot (site/snapshot-worker.mjs, issue
    38): the question bank (a megabyte of JSON, 0.2 s here) is read and indexed then, so a
    page restored from the snapshot opens without reading it."""
    GAME.question_categories()


def main() -> None:
    """In the page: run the page on the shell, and read pack files picked in the set-up.

    Reading a file is asynchronous in the browser and the shell's Host has no method for it,
    so this wires the set-up's file input here; the page's logic (``load_pack_text``) is
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
            page.pack_refused(name, f"the file is {int(f.size):,} bytes; a question pack file is at most "
                                    f"{PACK_FILE_MAX:,} bytes")
        else:
            try:
                page.load_pack_text(name, str(await f.text()))
            except Exception as exc:  # an unreadable file: say so, keep the set-up
                page.pack_refused(name, f"the file could not be read ({exc})")
        input_el.value = ""
        runner.render()

    if not frame.nullish(field):
        frame.on(field, "change", lambda ev: read(ev.target))
        if not frame.nullish(field.files) and field.files.length:  # picked while Python started
            asyncio.ensure_future(read(field))
