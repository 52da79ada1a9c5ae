"""The To Reign Supreme play page: six territory cards, two strength trackers, secret battles.

Why this is all that is here: the shell (``shell.py``) gives the page its set-up seats,
links, saves, log, undo, "viewing step N", chart, bot runner and pass-the-device screens;
every rule and number comes from :mod:`conquest.games.reign` (``GAME.view``,
``GAME.legal_actions``, the data file through ``GAME.rules``). The page draws the view and
turns clicks and keys into the engine's action values.

The battle's secret step (R10): the person choosing a strategy card and purchases sees
their own totals computed live from the data file (the same sums as R7), then hands the
choice to ``Shell.give_secret``. The choice lives only in ``Session.secret_parts`` until
both have chosen; this page never draws those parts, and its own draft is dropped as soon
as it is handed over, so a pass-the-device screen, a save or a link made meanwhile cannot
show it. The reveal then spells out both sides' arithmetic from the logged step.

The page is in parts (issue 42), each with its own state, renderer and handlers, which
:class:`ReignPage` creates and routes to: the stage of what happens now (``stage.py``), the
set-up's tracker pick (``pick.py``), the battle choice (``battle.py``), the reveal
(``reveal.py``), the six territory cards (``board.py``), the turn's actions (``turn.py``)
with the Reallocate draft (``reallocate.py``), and the strength trackers (``side.py``);
the symbols they all draw are in ``symbols.py``. This module keeps what they share: who is
at the device, the seats' names and colours, the game's values, and the drafts' owner (a
draft belongs to one step and one seat; another step or seat drops every draft).

Seats: the engine keeps the shell's ``seats`` (who is a computer, colours) in its options,
so a link or save reopens them on any device.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shell import GamePage, Seat, Session, Shell, plural
from ui import Node

from conquest.core import InvalidOptions
from conquest.games.reign import GAME
from conquest.games.reign.data import Rules
from conquest.games.reign.engine import SETUPS
from conquest.games.reign.state import State
from conquest.seats import PALETTE

from .battle import BattleChoice
from .board import TerritoryBoard
from .pick import TrackerPick
from .reallocate import Reallocation
from .reveal import BattleReveal
from .side import StrengthPanel
from .stage import Stage
from .symbols import icon
from .turn import TurnPanel

__all__ = ["ReignPage", "icon", "main"]


class ReignPage(GamePage):
    """The page: its parts, who is at the device, and the shell's hooks."""

    game_id = "reign"
    focus_home = "rg-stage-inner"  # the controls, after a step (issue 21, item 2)
    chart_x_label = "steps played"

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.codec = GAME.codec
        #: the drafts of the person choosing now, each in its part
        self.setup_pick = TrackerPick(self)
        self.battle = BattleChoice(self)
        self.reallocation = Reallocation(self)
        #: ``(log length, seat)`` the drafts belong to: another step or seat drops them
        self.draft_key: tuple[int, int] | None = None
        self.reveal = BattleReveal(self)
        self.stage = Stage(self)
        self.board = TerritoryBoard(self)
        self.turn = TurnPanel(self)
        self.side = StrengthPanel(self)

    # -- set-up -----------------------------------------------------------------------------
    def options(self, seats: list[Seat], fields: Mapping[str, str]) -> dict[str, Any]:
        """The setup (R1) and the seats (names, colours, who plays), kept in the options."""
        setup = str(fields.get("setup", "easy") or "easy")
        if setup not in SETUPS:
            raise InvalidOptions("options.setup", "Pick the easy or the challenging setup.")
        return {"setup": setup, "seats": [s.to_json() for s in seats]}

    def opened(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget half-made choices (after any step, undo or jump)."""
        self.setup_pick.clear()
        self.battle.clear()
        self.reallocation.clear()
        self.draft_key = None

    def check_draft(self, seat: int) -> None:
        """The drafts belong to this step and ``seat``; any others are dropped first."""
        key = (len(self.session().match.log), seat)
        if self.draft_key != key:
            self.reset()
            self.draft_key = key

    def drafting(self, seat: int | None) -> bool:
        """The drafts on the page are this step's and ``seat``'s."""
        return self.draft_key is not None and self.draft_key == (len(self.session().match.log), seat)

    # -- who is at the device --------------------------------------------------------------
    def session(self) -> Session:
        s = self.shell.session
        assert s is not None
        return s

    def state(self) -> State:
        st = self.session().shown_state()
        assert isinstance(st, State)
        return st

    @property
    def rules(self) -> Rules:
        """The values of the game on the table: its edition's (an old save keeps the values
        it was played with, R5, R9); the data file's before a game is open."""
        if self.shell.session is None:
            return GAME.rules
        return GAME.rules_of(self.state())

    def colour(self, seat: int) -> str:
        seats = self.session().seats()
        return seats[seat].colour if seat < len(seats) else PALETTE[seat]

    def name(self, seat: int) -> str:
        return self.session().seat_name(seat)

    def me(self) -> int | None:
        """The seat this device may play now, or None (a computer's move, a read-only copy,
        an earlier step, the game over, or the device not yet handed over)."""
        s = self.session()
        if s.locked() or s.needs_handover() is not None:
            return None
        seat = s.acting_seat()
        if seat is None or s.seats()[seat].is_bot:
            return None
        viewer = s.viewer()
        if viewer is not None and viewer != seat:
            return None
        return seat

    # -- playing -----------------------------------------------------------------------------
    def play(self, action: Any) -> None:
        self.shell.play(action)

    def on_key(self, ev: Any) -> bool:
        """In a battle or the set-up: keys 1-5 choose the strategy card shown at that place."""
        if ev.ctrl or ev.alt or ev.meta or not str(ev.key).isdigit():
            return False
        seat = self.me()
        if seat is None:
            return False
        st = self.state()
        n = int(ev.key) - 1
        if st.phase == "battle" and seat not in self.session().secret_parts:
            hand = [self.rules.cards[c].code for c in st.players[seat].hand]
            if 0 <= n < len(hand):
                self.battle.choose_card(seat, hand[n])
                return True
        if st.phase == "setup" and seat not in self.session().secret_parts and 0 <= n < len(self.rules.cards):
            self.setup_pick.toggle(seat, self.rules.cards[n].code)
            return True
        return False

    # -- words ---------------------------------------------------------------------------------
    def prompt(self, view: Mapping[str, Any]) -> str:
        s = self.session()
        st = self.state()
        if view.get("outcome"):
            return str(view["outcome"]["reason"]).removeprefix("R11: ") + "."
        if st.phase == "setup":
            seat = s.acting_seat()
            return f"{self.name(seat)}: choose two cards for the strength tracker, in secret." if seat is not None else ""
        if st.phase == "battle" and st.battle is not None:
            seat = s.acting_seat()
            where = self.rules.territories[st.layout[st.battle.place]].name
            who = self.name(seat) if seat is not None else ""
            return f"Battle over {where}: {who} chooses a card and purchases, in secret."
        if st.phase == "respond" and st.battle is not None:
            return f"{self.name(1 - st.active)}: Restructure before the battle, or fight as you stand."
        if st.phase == "turn":
            return f"{self.name(st.active)}'s turn: {plural(st.actions_left, 'action')} left."
        return ""

    def log_label(self, before: Any) -> str:
        return f"Turn {before.turn}" if getattr(before, "turn", 0) else "Set-up"

    # -- rendering -------------------------------------------------------------------------------
    def render(self, view: Mapping[str, Any]) -> dict[str, Node]:
        st = self.state()
        seat = self.me()
        legal = GAME.legal_actions(st) if seat is not None and st.phase in ("turn", "respond") else []
        trees = {
            "rg-stage": self.stage.render(view, st, seat, legal),
            "rg-board": self.board.render(view, st, seat, legal),
            "rg-side": self.side.render(view, st),
        }
        self.stage.mark_now(trees, st, seat)
        return trees


def main() -> None:
    from shell_browser import run

    run(ReignPage)
