"""To Reign Supreme's stage: what happens now (the set-up pick, a battle, the reveal, a turn, the end).

Why a part: the stage above the board is the page's "what just happened, what to do next"
(issue 41): it puts the newest result over the one decision of the phase (or a waiting
line while another seat or device chooses), and marks both with ``data-now`` in the
trees of every part, so the shell brings them into view after a tap or a step. It keeps no
state of its own: the drafts are their parts', the result is the shell's.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ui import Node, find_all, h

from conquest.games.reign import GAME
from conquest.games.reign.state import State

if TYPE_CHECKING:
    from . import ReignPage


def mark(node: Node | None, now: str) -> Node | None:
    """``data-now`` on a node (issue 41): ``result`` for what the last action did, ``next`` for
    the control or panel to act on next; the shell brings both into view."""
    if node is not None:
        node.attrs["data-now"] = now
    return node


class Stage:
    """The stage's renderer and the page's ``data-now`` marks."""

    def __init__(self, page: ReignPage) -> None:
        self.page = page

    def render(self, view: Mapping[str, Any], st: State, seat: int | None, legal: list[Any]) -> Node:
        page = self.page
        s = page.session()
        # what the last action did, a bot's turn step by step (items 5 and 10)
        kids: list[Node | None] = [page.shell.result.render()]
        act = "wait"
        reveal = page.reveal.render(st)
        news = reveal is not None and reveal.tag == "section"
        if news:  # the battle's result right above the next decision (issue 41)
            kids.append(reveal)
        if view.get("outcome"):
            act = "over"
            winner = st.winner if st.winner is not None else 0
            kids.append(h("h2", f"{page.name(winner)} wins: Controls all six territories (R11)", id="rg-winner"))
        elif st.phase == "setup":
            if seat is not None and seat not in s.secret_parts:
                act = "pick"
                kids.append(page.setup_pick.render(seat))
            else:
                kids.append(self.waiting_line(st))
        elif st.phase == "battle" and st.battle is not None:
            if seat is not None and seat not in s.secret_parts:
                act = "battle"
                kids.append(page.battle.render(st, seat))
            else:
                kids.append(self.waiting_line(st))
        elif st.phase == "respond" and st.battle is not None:
            kids.append(page.turn.render_respond(st, seat, legal))
            act = "respond" if seat is not None else "wait"
        elif st.phase == "turn":
            act = "turn" if seat is not None else "wait"
            kids.append(page.turn.render_turn(st, seat, legal) if seat is not None else self.waiting_turn(st))
        if reveal is not None and not news:
            kids.append(reveal)
        return h("div", *kids, id="rg-stage-inner", cls="rg-stage", data_act=act, data_step=str(s.step()),
                 data_phase=st.phase)

    def waiting_line(self, st: State) -> Node:
        page = self.page
        s = page.session()
        what = "their tracker cards" if st.phase == "setup" else "a card and purchases"
        seat = s.acting_seat()
        mine = [x for x in s.secret_parts if not s.seats()[x].is_bot]
        # on a live device the seat still choosing is not this one (``acting_seat`` is None
        # there): named from the choices still missing, so the waiting line is never empty
        # (issue 41: it is the device's next thing to look at)
        still = [x for x in GAME.simultaneous(st) if x not in s.secret_parts] if seat is None else [seat]
        lines = []
        if mine and still:
            lines.append(h("p", f"{page.name(mine[0])} has chosen; the choice stays hidden until both have chosen."))
        if still:
            lines.append(h("p", f"Waiting for {page.name(still[0])} to choose {what} in secret…"))
        return h("div", *lines, cls="rg-waiting", id="rg-waiting", role="status")

    def waiting_turn(self, st: State) -> Node:
        """Another device's turn (live): whose it is, where this device's eye goes next."""
        name = self.page.name
        return h("div", h("p", f"{name(st.active)}'s turn: waiting for {name(st.active)} to play…"),
                 cls="rg-waiting", id="rg-waiting", role="status")

    def mark_now(self, trees: Mapping[str, Node], st: State, seat: int | None) -> None:
        """Issue 41: the newest result (``data-now="result"``) and the next decision
        (``data-now="next"``), one of each at most; the shell brings both into view after a tap
        or a step (``browser_now.bring_now``), so "next" is a control or a short panel, never a
        panel taller than a phone's screen."""
        def there(eid: str) -> Node | None:
            for tree in trees.values():
                for node in find_all(tree, f"#{eid}"):
                    return node
            return None

        page = self.page
        battle, pick, realloc = page.battle, page.setup_pick, page.reallocation
        drafting = page.drafting(seat)
        reveal, shell_result = there("rg-reveal"), there("shell-result-inner")
        candidates = (
            ("rg-reveal", reveal is not None and reveal.tag == "section"),
            ("rg-totals", drafting and st.phase == "battle" and (battle.card is not None or any(battle.counts))),
            ("rg-pick-summary", drafting and st.phase == "setup" and bool(pick.picks)),
            ("rg-realloc-summary", drafting and (realloc.arrangement is not None or realloc.held is not None)),
            ("rg-winner", True),
            ("shell-result-inner", shell_result is not None and "hidden" not in shell_result.attrs),
        )
        result = next((eid for eid, on in candidates if on and there(eid) is not None), None)
        nxt: str | None = None
        if st.phase == "setup" and seat is not None and there("rg-pick") is not None:
            nxt = "rg-pick-go" if len(pick.picks) == 2 else "rg-pick-cards"
        elif st.phase == "battle" and there("rg-battle") is not None:
            # the cards, not the whole panel: at 360 px the panel is taller than the screen,
            # and the result above it must stay in view beside the cards (issue 41)
            nxt = "rg-battle-go" if battle.card is not None else "rg-battle-cards"
        elif st.phase == "respond" and there("rg-respond") is not None:
            nxt = "rg-respond"
        elif st.phase == "turn" and seat is not None:
            if realloc.drafted(st) is not None:
                nxt = "rg-realloc-go"
            elif realloc.held is not None:
                nxt = "rg-realloc"
            else:
                nxt = "rg-turn"
        elif there("rg-waiting") is not None:
            nxt = "rg-waiting"
        if result is not None:
            mark(there(result), "result")
        if nxt is not None:
            mark(there(nxt), "next")
