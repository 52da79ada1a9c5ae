"""The controls panel: the buttons of each phase, the question a spending step asks first,
and the host's way to make a seat's choice from the console.

Why a part: every step a person takes on the console's controls goes through ``act``, which
asks first when the step spends a token or a territory (a dialog on the host's page; on a
player's own device, which shows none, the question stands on the page: ``asking``), plays
it, and sends the focus to what comes next. The choices on the map are ``picks.Picks``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shell import plural
from ui import Node, h

from conquest.core import ConquestError
from conquest.games.metagame.actions import Block, Gift, Pass, Respin, Sacrifice, Spin


class Controls:
    """The phase's buttons and the spending question on the page (its state)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.shell = page.shell
        #: a spending step's question asked on the page (a device shows no dialog):
        #: (the step it was asked at, the question, the action)
        self.asking: tuple[int, str, Any] | None = None

    def act(self, action: Any) -> bool:
        """Play a step the person took on this page's controls (confirmed first when it
        spends a token or a territory); the focus then follows."""
        s = self.shell.session
        question = self.spend_question(s.match.state, action) if s is not None else None
        if question is not None and not getattr(self.shell.host, "dialogs", True):
            # a player's own device shows no dialog: the question is asked on the page
            self.asking = (len(s.match.log), question, action)  # type: ignore[union-attr]
            self.page.flow.want_focus = "mg-confirm-yes"
            self.page.flow.want_reveal = "mg-confirm"
            self.shell.host.rerender()
            return False
        if question is not None and not self.shell.host.confirm(question):
            return False
        played = self.shell.play(action)
        if played:
            self.page.flow.want_focus = "next"
        return played

    def spend_question(self, state: Any, action: Any) -> str | None:
        """The confirmation a step that spends a token or a territory needs (None: none)."""
        inv = state.inv
        if inv is None:
            return None
        names = state.board.names
        pl = state.players

        def listed(ts: tuple[int, ...]) -> str:
            return ", ".join(names[t] for t in ts) + (" (it becomes neutral)" if len(ts) == 1 else " (they become neutral)")

        if isinstance(action, Sacrifice) and action.ts:
            return f"{pl[inv.attacker].name} sacrifices {listed(action.ts)} to invade {names[inv.target]}. Go on?"
        if isinstance(action, Block) and action.ts:
            return f"{pl[inv.defender].name} spends a block token and sacrifices {listed(action.ts)}. Go on?"
        if isinstance(action, Respin) and action.t is not None:
            who = pl[inv.attacker if state.phase == "respin_a" else inv.defender].name
            return f"{who} spends a re-spin token and {listed((action.t,))} to spin the wheel again. Go on?"
        if isinstance(action, Gift):
            return f"{pl[inv.attacker].name} gives {names[action.t]} to {pl[inv.defender].name}. Go on?"
        return None

    def spin(self) -> None:
        self.act(Spin())

    def button(
        self, label: str, action: Any, secondary: bool = False, disabled: bool = False, id: str | None = None
    ) -> Node:
        return h(
            "button", label, type="button", cls="secondary" if secondary else None, disabled=disabled, id=id,
            on_click=lambda ev: self.act(action),
        )

    def render(self, view: Mapping[str, Any]) -> Node:
        s = self.shell.session
        assert s is not None
        kids: list[Any] = [self.render_asking()]
        waits = getattr(s, "waits_for_device", None)
        seat = waits() if waits is not None and s.viewing is None else None
        if seat is not None and view["outcome"] is None:
            name = s.seat_name(seat)
            kids += [
                h("p", f"{name} chooses on their own device.", cls="mg-msg", id="mg-waiting", role="status"),
                h("button", f"Choose for {name} here", type="button", cls="secondary", id="mg-take-over",
                  aria_label=f"Choose for {name} here (M3: the host may make any choice; the log says so)",
                  on_click=lambda ev, k=seat: self.take_over(k)),
            ]
        if not s.locked() and view["outcome"] is None:
            ph, inv = view["phase"], view["invasion"]
            if ph == "turn":
                kids.append(self.button("Pass (M5)", Pass(), True))
            elif ph == "sacrifice":
                n = len(self.page.draft.picked)
                elig = view["eligible"]
                most = min(elig["max"], len(elig["territories"]))
                kids += [
                    self.button(f"Sacrifice {n} selected", Sacrifice(tuple(sorted(self.page.draft.picked))), disabled=n == 0),
                    self.button("No sacrifice", Sacrifice(()), True),
                    h("span", f"Select up to {plural(most, 'territory', 'territories')} on the map.", cls="muted"),
                ]
            elif ph == "block":
                n_s = len(inv["sacrificed"]["territories"])
                kids += [
                    self.button(f"Block: sacrifice {len(self.page.draft.picked)} of {n_s} selected",
                                Block(tuple(sorted(self.page.draft.picked))), disabled=len(self.page.draft.picked) != n_s),
                    self.button("Do not block", Block(()), True),
                ]
            elif ph == "spin":
                kids.append(h("button", "Spin the wheel", type="button", id="mg-spin", on_click=lambda ev: self.spin()))
                if s.mode == "host" and getattr(s.match, "draws", None) is not None:
                    self.page.word.ensure_sealed()
                    kids.append(self.page.word.render_form(view))
            elif ph in ("respin_a", "respin_d"):
                kids += [
                    self.button("Keep the result", Respin(None), True, id="mg-keep"),
                    h("span", "or pick a highlighted territory to spend it and re-spin (M11)", cls="muted"),
                ]
            # the duel's winner buttons are in the result box beside the wheel (render_result)
        return h("div", *kids, id="mg-actions", cls="mg-actions")

    def render_asking(self) -> Node | None:
        """The question a spending step asks first, on a device that shows no dialog."""
        s = self.shell.session
        if self.asking is None or s is None or self.asking[0] != len(s.match.log) or s.locked():
            self.asking = None
            return None
        _, question, action = self.asking
        return h("div", h("p", question, cls="mg-msg", id="mg-confirm-q"),
                 h("div", h("button", "Yes, go on", type="button", id="mg-confirm-yes",
                            on_click=lambda ev: self.answered(True)),
                   h("button", "No", type="button", cls="secondary", id="mg-confirm-no",
                     on_click=lambda ev: self.answered(False)), cls="mg-actions"),
                 id="mg-confirm", cls="mg-confirm", role="alertdialog", aria_labelledby="mg-confirm-q")

    def answered(self, yes: bool) -> None:
        asking, self.asking = self.asking, None
        s = self.shell.session
        if yes and asking is not None and s is not None and asking[0] == len(s.match.log):
            if self.shell.play(asking[2]):
                self.page.flow.want_focus = "next"
        self.shell.host.rerender()

    def take_over(self, seat: int) -> None:
        """M3: the host makes a seat's present choice from the console (logged as the host's)."""
        s = self.shell.session
        try:
            s.take_over(seat)  # type: ignore[union-attr] - only at a live table
        except (AttributeError, ConquestError) as exc:
            self.shell.say(getattr(exc, "message", "Nobody's choice is awaited now."), "error")
            return
        self.page.flow.want_focus = "next"
        self.shell.host.rerender()
