"""The Short Campaign's stage above the map: the open question, the Get ready pause, the
reveal and the end, and what of it is brought into view after a tap.

Why a part: the stage is what a person reads and answers on; it decides what the page waits
for (``data-act``) and marks the newest result and the next decision (``data-now``, issue 41).
Its renderers draw the question with the controls of the person answering; the answer itself
and its timing are the clock's (:mod:`.clock`), the last reveal's table is :mod:`.reveal`'s.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ui import Node, h

from conquest.games.campaign.pictures import picture_from_json

from .board import MAP_ID
from .clock import seconds_left

if TYPE_CHECKING:
    from . import CampaignPage

#: the site's root seen from this page (``play/campaign/``), for a question's picture file;
#: a guest device's page (``play/campaign/guest/``) is a folder deeper: its host says so
#: (``remote.RemoteHost.site_root``)
SITE_ROOT = "../../"
#: the pixel size a picture file is laid out at before it loads (CSS scales it: campaign.css)
PICTURE_BOX = {"flag": (160, 120), "emoji": (120, 120)}


class Stage:
    """The stage's renderers, and the ids it marked ``data-now`` to bring into view."""

    def __init__(self, page: CampaignPage) -> None:
        self.page = page
        self.shell = page.shell
        #: the ids marked ``data-now`` in the last render: (result, next) (issue 41)
        self.marked_ids: tuple[str | None, str | None] = (None, None)
        self.revealed_for: tuple[Any, ...] | None = None

    def bring_into_view(self) -> None:
        """Browser only: the newest result and what to act on next are brought into view once
        each time they change (issue 41; the next last, so it wins where both do not fit)."""
        s = self.shell.session
        if s is None:
            return
        choose = "cp-choose-inner" if self.page.board.choices(s.view()) else None
        ids = (self.marked_ids[0], self.marked_ids[1] or choose)
        key = (len(s.match.log), len(s.secret_parts), ids)
        if key != self.revealed_for:
            self.revealed_for = key
            for eid in ids:
                if eid:
                    self.shell.host.reveal(eid)

    def render(self, view: Mapping[str, Any]) -> Node:
        """The question, the Get ready pause, the reveal and the end, above the map."""
        s = self.shell.session
        assert s is not None
        kids: list[Any] = []
        act = "wait"
        if view["map"] != MAP_ID:
            kids.append(h("p", f"This game is played on the map {view['map']}, which this page does not draw: "
                               "use the list below the map to choose territories.", cls="cp-warn"))
        reveal = self.page.reveal.render(view)
        #: issue 41: what to act on next (``data-now="next"``) and the newest result
        #: (``"result"``), at most one of each; the shell brings them into view after a tap
        nxt: Node | None = None
        result: Node | None = None
        if view["phase"] == "answer" and view["question"] is not None:
            seat = self.page.clock.answerer()
            if seat is not None and self.shell.host.clock() < self.page.clock.gate(seat):
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
            result = self.page.scores.render_final(view)
            kids += [result, reveal]
        else:
            if self.page.board.choices(view):
                act = view["phase"]
            # not in the answer phase: there the question is what the person reads
            box = self.shell.result.render()
            # what the last steps did, in words (the reveal's outcome among them), else the reveal
            result = reveal if box.attrs.get("hidden") is not None else box
            kids += [box, reveal]
        self.marked_ids = (self.mark(result, "result"), self.mark(nxt, "next"))
        # data-act and data-step say what the stage waits for (for people's tools and tests)
        return h("div", *kids, id="cp-stage-inner", cls="cp-stage-inner", data_act=act, data_phase=view["phase"],
                 data_step=f"{len(s.match.log)}.{len(s.secret_parts)}", on_keydown=self.page.on_key)

    @staticmethod
    def mark(node: Node | None, what: str) -> str | None:
        """Mark ``node`` ``data-now=what`` (issue 41); its id, for :meth:`bring_into_view`."""
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
            who = self.page.name(seat) + (" (computer)" if self.page.is_bot(seat) else "")
            items.append(h("li", h("span", cls="swatch", style=f"background:{self.page.seat_colour(seat)}", aria_hidden="true"),
                           f" {who}: {state}", cls=f"is-{state.replace(' ', '-')}", data_seat=str(seat)))
        return h("ul", *items, cls="cp-asked", aria_label="Who answers")

    def render_question(self, view: Mapping[str, Any], seat: int | None) -> Node:
        """The open question; with controls and the clock for the person answering."""
        s = self.shell.session
        assert s is not None
        q = view["question"]
        fight = view["attack"]
        who = f" ({self.page.name(fight['attacker'])} attacks, {self.page.name(fight['defender'])} defends)" if fight else ""
        head = h("p", h("span", q["purpose_text"][:1].upper() + q["purpose_text"][1:] + who, cls="cp-purpose"),
                 " · ", h("span", q["category"], cls="cp-category"), cls="cp-qhead")
        text = h("h2", q["text"], id="cp-qtext", cls="cp-qtext")
        source = h("p", f"Source: {q['source']}", cls="cp-source muted") if q.get("source") else None
        live = seat is not None
        clock: Node | None = None
        if live:
            assert seat is not None
            limit = view["time_limit_ms"]
            left = max(0.0, self.page.clock.time_left(seat))
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
                    on_click=(lambda ev, L=o["letter"]: self.page.clock.answer(seat, L)) if live else None,
                ))
            controls: Node = h("div", *buttons, cls="cp-options", role="group", aria_label="Answers")
            hint = ("Tap an answer." if self.page.touch else "Click an answer, or press 1–4 or A–D.") if live else None
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
                    on_submit=lambda ev: self.page.clock.answer_guess(seat, ev),
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
        wait = self.page.clock.gate(seat) - self.shell.host.clock()
        return h(
            "section",
            h("p", f"Next: {self.coming(q)}.", cls="cp-qhead"),
            h("p", h("strong", f"{self.page.name(seat)}, get ready: the question shows in {seconds_left(wait)} s."),
              cls="cp-ready"),
            h("button", "Show the question now", type="button", id="cp-go", on_click=lambda ev: self.page.clock.show_now(seat)),
            self.asked_line(view, hold=True),
            cls="cp-question cp-hold", id="cp-question",
        )
