"""A word said aloud (issue 26): a spin's contribution from a named player, and the seal it meets.

Why a part: the trust in a spin is this part's whole concern. The host's chain of draws is
sealed and its commitment shown (``render_seal``) before anyone is asked for a word; the word
a player says, typed by the host, is the draw's contribution (``spin``); and the word used is
shown large beside the result (``render_used``). The wheel's turn decides nothing.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ui import Node, h

from conquest.draws import describe_said
from conquest.games.metagame.actions import Spin


class SaidWord:
    """The word form, the seal shown before a spin, the word shown after it (no state)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.shell = page.shell

    def giver(self, view: Mapping[str, Any]) -> int:
        """Who is asked by default: the defender (the side that did not start the invasion)."""
        inv = view["invasion"]
        return int(inv["defender"]) if inv else 0

    def ensure_sealed(self) -> str | None:
        """Seal the host's chain before anyone is asked for a word, and save it, so the
        commitment is on every screen (the audience's too) before the word is said."""
        s = self.shell.session
        if s is None or s.mode != "host" or getattr(s.match, "draws", None) is None:
            return None
        if s.match.chain is None:
            s.match.seal()
            self.shell.saved.autosave()
        return s.match.commitment

    def spin(self, ev: Any) -> None:
        """Spin with the word the named player said aloud, as the host typed it."""
        from conquest.draws import DrawError, said_contribution

        s = self.shell.session
        if s is None:
            return
        try:
            seat = int(str(ev.fields.get("who", "")))
            contribution = said_contribution(seat, str(ev.fields.get("word", "")))
        except (ValueError, DrawError) as exc:
            self.shell.say(exc.message if isinstance(exc, DrawError) else "Choose who said the word.", "error")
            return
        if not 0 <= seat < len(s.seats()):
            self.shell.say("Choose who said the word.", "error")
            return
        self.ensure_sealed()
        if self.shell.play(Spin(), contribution):
            self.page.flow.want_focus = "next"
            ev.reset_form()

    def render_form(self, view: Mapping[str, Any]) -> Node:
        """"Spin with a word": who says it, what they said; the seal it meets is shown above."""
        s = self.shell.session
        assert s is not None
        default = self.giver(view)
        people = [h("option", seat.name, value=str(i), selected=i == default) for i, seat in enumerate(s.seats())]
        return h(
            "form",
            h("p", h("strong", "Or spin with a word said aloud: "),
              "ask a player for a word or a number, type it exactly as they say it, then spin. Their word and "
              "the host's sealed draws decide the slice together, so nobody alone can choose it.", cls="muted"),
            h("label", "Who says it ", h("select", *people, name="who", id="mg-word-who")),
            h("label", " Their word or number ",
              h("input", type="text", name="word", id="mg-word", maxlength="40", autocomplete="off",
                spellcheck="false", aria_label="The word or number they said")),
            h("button", "Spin with this word", type="submit", id="mg-spin-word", cls="secondary"),
            id="mg-word-form", cls="mg-word-form inline-form", aria_label="Spin with a word said aloud",
            on_submit=lambda ev: self.spin(ev),
        )

    def render_seal(self) -> Node | None:
        """The host's commitment, shown before a spin (the audience sees it too)."""
        s = self.shell.session
        rec = getattr(s.match, "draws", None) if s is not None else None
        if rec is not None and rec.seals:
            c, n = rec.seals[-1].commitment, rec.count + 1
        elif getattr(s, "seal", None) is not None:  # a player's own device: as the host's table says
            c, n = s.seal  # type: ignore[union-attr]
        else:
            return None
        return h("p", f"Sealed before anyone is asked: the host's draws are committed to {c[:8]}…{c[-4:]}; "
                      f"the next spin is draw {n}.", id="mg-seal", cls="mg-trust mg-seal")

    def contribution(self) -> tuple[int, str] | None:
        """(draw number from 1, contribution) of the latest spin result, when recorded."""
        at = self.page.wheel.last_spin_index()
        found = self.shell.draws.by_step().get(at) if at >= 0 else None
        return None if found is None else (found[0] + 1, found[1])

    def render_used(self) -> Node | None:
        """The word a player said, large beside the result (the audience sees it used)."""
        used = self.contribution()
        if used is None:
            return None
        said = describe_said(used[1], [seat.name for seat in self.shell.session.seats()]) if self.shell.session else None
        if said is None:
            return None
        who, word = said
        return h("span", f"with {who}'s word “{word}” (draw {used[0]})", cls="mg-result-label mg-word-used",
                 id="mg-word-used")
