"""To Reign Supreme's Reallocate draft (R5): the Influenced cards rearranged by swaps, then played once.

Why a part: Reallocate moves any number of cards in one action, so the page drafts it first
(``arrangement``, the layout as it would be, and ``held``, the place tapped first); the
draft, its fieldset among the turn's actions and its confirmation belong together, and the
stage reads the draft to say what comes next.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ui import Node, h

from conquest.games.reign import GAME
from conquest.games.reign.actions import Reallocate
from conquest.games.reign.state import State

from .symbols import coins

if TYPE_CHECKING:
    from . import ReignPage


class Reallocation:
    """The Reallocate draft, its fieldset and its confirmation."""

    def __init__(self, page: ReignPage) -> None:
        self.page = page
        #: the Reallocate draft (R5): the layout as it would be, and the place tapped first
        self.arrangement: tuple[int, ...] | None = None
        self.held: int | None = None

    def clear(self) -> None:
        self.arrangement = None
        self.held = None

    def tap(self, seat: int, q: int) -> None:
        """The first tap picks up the card at place ``q``, the second swaps it with the card
        at another Influenced place; a tap on the held card puts it down. Any arrangement is
        reached by swaps; nothing is played until confirmed."""
        self.page.check_draft(seat)
        st = self.page.state()
        if q not in st.influenced():
            return
        lay = list(self.arrangement or st.layout)
        if self.held is None:
            self.held = q
        elif self.held == q:
            self.held = None
        else:
            lay[self.held], lay[q] = lay[q], lay[self.held]
            self.held = None
        self.arrangement = tuple(lay)

    def undo(self, seat: int) -> None:
        self.page.check_draft(seat)
        self.clear()

    def drafted(self, st: State) -> Reallocate | None:
        """The Reallocate the draft makes, or None while it moves nothing."""
        if self.arrangement is None or self.arrangement == st.layout:
            return None
        codes = [t.code for t in self.page.rules.territories]
        return Reallocate("".join(codes[t] for t in self.arrangement))

    def confirm(self, seat: int) -> None:
        """Play the drafted layout as one Reallocate; the engine refuses what R5 does not allow."""
        self.page.check_draft(seat)
        action = self.drafted(self.page.state())
        if action is None:
            self.page.shell.say("Swap at least two Influenced cards first (R5).", "error")
            return
        self.page.play(action)

    def render(self, st: State, seat: int) -> Node:
        """Reallocate as the seed has it (R5): pick up any Influenced cards, yours and your
        opponent's, and put them back in any order in the same places, in one action. A
        button per Influenced place, named by the card lying there now and showing the card
        the draft puts there; tap two to swap them, as often as needed, then confirm."""
        page = self.page
        page.check_draft(seat)
        r = page.rules
        lay = self.arrangement or st.layout
        names = [t.name for t in r.territories]
        rows = []
        for q in st.influenced():
            here, now = names[st.layout[q]], names[lay[q]]
            held = self.held == q
            moved = lay[q] != st.layout[q]
            label = f"{here}'s place: {now}" if moved else f"{here}"
            who = page.name(st.holder(q))
            rows.append(h(
                "button", h("span", label), h("span", f" · {who} Influences", cls="muted"),
                type="button", cls="small rg-place" + (" is-held" if held else "") + (" is-moved" if moved else ""),
                aria_pressed="true" if held else "false", data_place=str(q),
                aria_label=(f"{label}, Influenced by {who}" + (": picked up, tap another card to swap" if held else "")),
                on_click=lambda ev, x=q: self.tap(seat, x),
            ))
        draft = self.drafted(st)
        changed = draft is not None
        if draft is not None:
            summary = f"The draft: {GAME.reallocate_words(st, draft)}."
        elif self.held is not None:
            summary = f"{names[st.layout[self.held]]} picked up: tap another Influenced card to swap them."
        else:
            summary = "Tap two Influenced cards to swap them; repeat until they lie as you want, then confirm."
        n_moved = sum(1 for q in range(len(lay)) if lay[q] != st.layout[q])
        return h(
            "fieldset",
            h("legend", f"Reallocate ({coins(r.reallocate.value)}, one action)"),
            h("p", "Each place keeps the player who Influences it; only which territory lies there changes. "
                   "Controlled cards stay (R5).", cls="muted"),
            h("div", *rows, cls="rg-row rg-places", role="group", aria_label="Influenced cards"),
            h("p", summary, id="rg-realloc-summary", aria_live="polite"),
            h("div",
              h("button", f"Reallocate: move {n_moved} cards ({coins(r.reallocate.value)})" if changed
                else "Reallocate", type="button", cls="small", id="rg-realloc-go", disabled=not changed,
                on_click=lambda ev: self.confirm(seat)),
              h("button", "Start again", type="button", cls="small secondary", id="rg-realloc-reset",
                on_click=lambda ev: self.undo(seat)) if changed or self.held is not None else None,
              cls="rg-row"),
            cls="rg-realloc", id="rg-realloc",
        )
