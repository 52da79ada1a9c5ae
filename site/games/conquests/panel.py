"""The side panel of The Game of Conquests page: the status, the controls, the typed move, the position.

Why a part: beside the board (under it on a phone) the panel lays out what just happened and
what is asked now (issue 41: the status box, with ``data-now`` on the result and the next
decision, brought into view after a tap), the reserves, the page's buttons, the computer's
time, a move typed as text, the moves played and the position's text and link. It holds
what the last render showed as "now", so a re-render that changed nothing does not scroll.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from conquests_editor import COLOURS, setup_link
from ui import Event, Node, find_all, h

from conquest.core import InvalidAction
from conquest.games.conquests import GAME, State, position_to_text
from conquest.games.conquests import rules as R

from .board import danger_squares

if TYPE_CHECKING:
    from . import ConquestsPage


def first(tree: Node, selector: str) -> Node | None:
    """The first element of ``tree`` that matches, or None."""
    return next(iter(find_all(tree, selector)), None)


class SidePanel:
    """The panel's layout, its status box, the typed move and the position's link."""

    def __init__(self, page: ConquestsPage) -> None:
        self.page = page
        self.now_key: Any = None  # what the last render showed as "now" (issue 41)
        self.now_shown: Any = None

    def render(self, state: State, view: Mapping[str, Any]) -> Node:
        page = self.page
        s = page.shell.session
        assert s is not None
        show_think = s.mode == "host" and any(seat.is_bot for seat in s.seats())
        return h(
            "div",
            self.render_now(state, view),
            page.placement.render_reserves(state),
            h("div",
              h("button", "Flip the board", type="button", id="cq-flip", cls="secondary",
                aria_pressed="true" if page.board.flipped else "false", on_click=lambda ev: page.board.flip()),
              h("button", "Set up this position", type="button", id="cq-edit-here", cls="secondary",
                on_click=lambda ev: page.edit_here()),
              h("button", "New game", type="button", id="cq-new", cls="secondary",
                on_click=lambda ev: page.new_game()),
              cls="cq-actions"),
            page.computer.render_think(show_think),
            h("form",
              h("label", "Type a move (e.g. ", h("code", "b2b3"), ", or after a General move ",
                h("code", "c1c2+S2@b1"), "):", for_="cq-typed-text"),
              h("input", type="text", id="cq-typed-text", name="move", autocomplete="off", spellcheck="false",
                autocapitalize="off"),
              h("button", "Play", type="submit", cls="secondary"),
              id="cq-typed", cls="inline-form", aria_label="Type a move", hidden=s.locked(),
              on_submit=self.play_typed),
            h("h2", "Moves"),
            page.moves.render(),
            page.computer.render_stats(),
            id="cq-side-inner",
        )

    def play_typed(self, ev: Event) -> None:
        """A typed move: the engine parses it, so a typo gets the engine's message."""
        page = self.page
        text = str(ev.fields.get("move", "")).strip()
        if not text:
            return
        if not page.live():
            page.say_why_not()
            return
        try:
            action = GAME.parse_action(text)
        except InvalidAction as exc:
            page.shell.say(exc.message, "error")
            return
        if page.shell.play(action):
            ev.reset_form()

    # -- what just happened and what to do next, right by the board (issue 41) ----------------------
    def render_now(self, state: State, view: Mapping[str, Any]) -> Node:
        """Right under the board on a phone, first beside it on a wide screen: the status box (the last
        move, or the placement after a General's move) and the chosen fighter's help. The
        status box is this page's "what just happened" (the last move, the computer's reply),
        of a fixed size so the controls below never move; the shell's live region announces
        the same steps (issue 21, item 10)."""
        page = self.page
        status = self.render_status_box(state, view)
        info = page.info.render(state)
        result: Node | None = None
        nxt: Node | None = None
        if page.placement.pending is not None:
            result, nxt = first(status, "#cq-place-text"), first(status, "#cq-place-acts")
        else:
            result = first(status, "#cq-last")
            if page.live():
                nxt = info if page.board.selected is not None else None  # else the board's squares (render_squares)
            elif view["outcome"] is None:
                nxt = first(status, "#cq-status")  # the computer's move: its thinking bar
        for node, now in ((result, "result"), (nxt, "next")):
            if node is not None:
                node.attrs["data-now"] = now
        self.now_key = (len(page.shell.session.match.log) if page.shell.session else 0, page.board.selected,
                        page.placement.pending, page.placement.place_choice)
        return h("div", status, info, id="cq-now-inner", cls="cq-now-inner")

    def after_render(self) -> None:
        """After a tap or a step (not the first render, nor while a fighter is dragged): the
        board with the result and the next decision into view (issue 41)."""
        if self.page.pointer.drag is not None or self.now_key == self.now_shown:
            return
        first_render, self.now_shown = self.now_shown is None, self.now_key
        if not first_render:
            self.page.shell.host.reveal("cq-now-inner")

    def render_status_box(self, state: State, view: Mapping[str, Any]) -> Node:
        """A box of fixed size (the controls below never move): what just happened and what
        is asked now, or the placement choice after a General move (C4)."""
        page = self.page
        if page.placement.pending is not None:
            return h("div", page.placement.render_placement(), id="cq-status-box", cls="cq-status-box is-place")
        s = page.shell.session
        assert s is not None
        kids: list[Any] = []
        if state.last:  # what just happened, in words (the status is live for screen readers)
            kids.append(h("span", f"{page.moves.describe_last(state)}. ", cls="cq-last", id="cq-last"))
        out = view["outcome"]
        danger = bool(view["in_danger"]) and out is None
        if out is not None:  # the reason names the winner or the draw, and the ruling
            winners = out.get("winners") or []
            result = f"{COLOURS[winners[0]]} wins." if len(winners) == 1 else "Draw."
            kids += [h("span", "Game over: "), h("strong", result, id="cq-result"), " ",
                     h("span", self.end_reason(out["reason"], winners))]
        else:
            side = state.to_move
            level = page.bot_level(side)
            who = page.seat_label(side) + " to move" + ("" if level is None else f" (computer, {level})")
            kids.append(h("span", f"Move {view['move_number']}: {who}."))
            if danger:
                g, attackers = danger_squares(state)
                by = ", ".join(f"the {R.NAMES[R.kind_of(state.board[a])]} on {R.square_name(a)}" for a in attackers)
                kids += [" ", h("span", "Danger!", cls="cq-danger-word"),
                         h("span", f" {COLOURS[side]}'s General on {R.square_name(g)} is attacked by {by} (C5).")]
            if view["repetitions"] == 2:
                kids.append(h("span", " This position has occurred twice: a third time is a draw."))
            if view["quiet_plies"] >= 180:
                kids.append(h("span", f" {view['quiet_plies']} moves without a capture: 200 is a draw."))
            if s.viewing is None and (s.bot is not None or s.bot_to_act() is not None):
                kids.append(page.computer.render_progress())
        return h(
            "div",
            h("p", *kids, id="cq-status", cls="cq-status" + (" is-danger" if danger else "")
              + (" is-over" if out is not None else ""), role="status", aria_live="polite"),
            id="cq-status-box", cls="cq-status-box",
        )

    def end_reason(self, reason: str, winners: list[int]) -> str:
        """The engine's reason without what the status already says: the winner ("Black
        wins" once, not twice) and, unless codes are shown, the rule code in front."""
        if len(winners) == 1:
            tail = f": {COLOURS[winners[0]]} wins"
            reason = reason[: -len(tail)] if reason.endswith(tail) else reason
        code, sep, rest = reason.partition(": ")
        if sep and not self.page.shell.log.show_codes and code[:1] == "C" and code[1:].isdigit():
            reason = rest
        return reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else ".")

    def render_position(self, state: State) -> Node:
        """The position's text (C6) and a link that opens the editor on it."""
        text = position_to_text(state)
        url = setup_link(self.page.shell.host.page_url(), text)
        return h(
            "div",
            h("p", "Position (C6): ", h("span", text, id="cq-position", cls="cq-position")),
            h("p", h("button", "Copy link to this position", type="button", id="cq-copy-setup", cls="small",
                     data_copy=url),
              " ", h("span", f"{len(url):,} characters", id="cq-setup-len", cls="muted"),
              h("span", url, id="cq-setup-url", cls="url")),
            h("p", "The position link opens the position editor with the position as it stands on the board, "
                   "for anyone to play on from it.", cls="muted"),
            id="cq-position-inner", cls="cq-links",
        )
