"""The choices on the map: a pick (click, tap, Enter, or the "Choose" list), why a territory
is not one, and the last pick named beside the controls with its one-tap Undo.

Why a part: a pick is the page's answer to the build-time map (``game-pick``) and to its list
of choices for the keyboard and screen readers; a pick that is no choice is answered in the
engine's words (its ruling, tried on the step it would be), never in rules repeated here.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ui import Node, h

from conquest.core import GameError
from conquest.games.metagame import GAME
from conquest.games.metagame.actions import Block, Claim, Gift, Invade, PickCapital, Respin, Sacrifice

CHOOSE_VERB = {
    "capital": "capital",
    "capital_override": "capital (override)",
    "sacrifice": "select / unselect",
    "block": "select / unselect",
    "respin": "spend and re-spin",
    "gift": "give",
}


class Picks:
    """The map's choices and their list (no state: the picks made are ``draft.Draft``'s)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.shell = page.shell

    def pick(self, t: int) -> None:
        """A territory was picked (click, tap, Enter on the map, or the "Choose" list)."""
        s = self.shell.session
        if s is None:
            return
        state = s.shown_state()
        if not 0 <= t < len(state.owner):
            return
        view = GAME.view(state, None)
        elig = view["eligible"]
        if s.locked() or elig is None or t not in elig["territories"]:
            name = state.board.names[t]
            owner = state.owner[t]
            who = "neutral" if owner < 0 else state.players[owner].name
            why = self.locked_why() if s.locked() else self.why_not(state, t, elig)
            self.shell.say(f"{name} ({who}): {why}")
            return
        kind = elig["kind"]
        if kind in ("sacrifice", "block"):
            self.page.draft.toggle(t)
            return
        action = {
            "capital": lambda: PickCapital(t),
            "capital_override": lambda: PickCapital(t, override=True),
            "turn": lambda: Claim(t) if t in elig["claim"] else Invade(t),
            "respin": lambda: Respin(t),
            "gift": lambda: Gift(t),
        }.get(kind)
        if action is not None:
            self.page.controls.act(action())

    def locked_why(self) -> str:
        """Why nothing can be picked here now, in words that fit this screen."""
        s = self.shell.session
        assert s is not None
        if s.viewing is not None or s.mode not in ("host", "guest"):
            return "This view is read-only."
        ruling = GAME.host_step(s.match.state)
        if ruling is not None:
            return f"{ruling}; this device waits for the host."
        seat = s.acting_seat()
        who = s.seat_name(seat) if seat is not None else "nobody"
        if s.mode == "guest":
            if s.only_seat is None:
                return "You are watching this table."
            return f"It is {who}'s choice now; you choose for {s.seat_name(s.only_seat)} when the campaign asks you (M3)."
        return f"It is {who}'s choice, on their own device; “Choose for {who} here” makes it from here (M3)."

    def why_not(self, state: Any, t: int, elig: Mapping[str, Any] | None) -> str:
        """Why ``t`` is not a choice now, in the engine's words: the step a pick of it would
        be is tried, and the engine's refusal (its ruling) is the reason; no rule is repeated
        here."""
        if elig is None:
            return "nothing is chosen on the map at this step."
        kind = elig["kind"]
        others = [u for u in elig["territories"] if u != t]
        s_count = len(state.inv.sacrificed) if state.inv is not None else 1
        trial = {
            "capital": lambda: PickCapital(t),
            "capital_override": lambda: PickCapital(t, override=True),
            "turn": lambda: Claim(t) if state.owner[t] < 0 else Invade(t),
            "sacrifice": lambda: Sacrifice((t,)),
            "block": lambda: Block(tuple(sorted((t, *others[: max(0, s_count - 1)])))),
            "respin": lambda: Respin(t),
            "gift": lambda: Gift(t),
        }.get(kind)
        if trial is not None:
            try:
                GAME.apply(state, trial())
            except GameError as exc:
                return self.plain(exc.message)
        return "it is not a choice for this step."

    def plain(self, message: str) -> str:
        """An engine message without its leading rule code (kept when codes are shown)."""
        if self.shell.log.show_codes:
            return message
        head, sep, rest = message.partition(": ")
        if sep and head[:1] == "M" and head[1:].replace(".", "").isalnum() and len(head) <= 4:
            message = rest
        return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")

    def render(self, state: Any, view: Mapping[str, Any]) -> Node:
        """The choices as a list too: for the keyboard, screen readers and small screens."""
        s = self.shell.session
        assert s is not None
        elig = view["eligible"]
        if s.locked() or elig is None or view["outcome"] is not None or not elig["territories"]:
            return h("form", id="mg-choose", cls="mg-choose", hidden=True)
        names = state.board.names
        options = []
        for t in elig["territories"]:
            # the name first, so typing a letter in the list jumps to it
            if elig["kind"] == "turn":
                label = f"{names[t]}: claim" if t in elig["claim"] else (
                    f"{names[t]}: invade ({state.players[state.owner[t]].name})"
                )
            else:
                mark = " ✓" if t in self.page.draft.picked else ""
                label = f"{names[t]}: {CHOOSE_VERB.get(elig['kind'], '')}{mark}"
            options.append((label, t))
        options.sort()
        return h(
            "form",
            h("label", "Choose", for_="mg-choose-t"),
            h("select", *[h("option", label, value=str(t)) for label, t in options], id="mg-choose-t", name="t"),
            h("button", "OK", type="submit", cls="small", id="mg-choose-go"),
            id="mg-choose", cls="mg-choose", on_submit=lambda ev: self.chose(ev.fields.get("t", "")),
        )

    def chose(self, value: str) -> None:
        if value.isdigit():
            self.pick(int(value))

    def render_last_pick(self) -> Node | None:
        """The territory the last step chose, named beside the controls with a one-tap Undo
        (issue 21): on a phone the map's names show only once zoomed in, so a pick is said
        in words where the controls are, and a slip is taken back in one tap, not hunted for
        in the log. Only a pick on the map (a capital, a claim, an invasion) and only while
        the next step is still to come (the log's last step, at the host)."""
        s = self.shell.session
        if s is None or s.locked() or s.viewing is not None or s.mode != "host" or not s.match.log:
            return None
        try:
            action = GAME.parse_action(s.match.log[-1])
        except GameError:
            return None
        before, after = s.match.states[-2], s.match.state
        names = before.board.names
        if isinstance(action, PickCapital):
            who = next((p.name for i, p in enumerate(after.players) if after.capital[i] == action.t), "")
            said = f"{who}'s capital: {names[action.t]} (M4)."
        elif isinstance(action, Claim):
            said = f"{after.players[after.owner[action.t]].name} claimed {names[action.t]} (M5)."
        elif isinstance(action, Invade):
            said = f"{before.players[before.current].name} invades {names[action.t]} (M5)."
        else:
            return None
        return h("p", h("span", said, id="mg-last-pick-text"), " ",
                 h("button", "Undo", type="button", id="mg-undo-pick", cls="small secondary",
                   aria_label=f"Undo: {said}", on_click=lambda ev: self.shell.bar.undo()),
                 id="mg-last-pick", cls="mg-last-pick", role="status")
