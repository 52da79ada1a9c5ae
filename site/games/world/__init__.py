"""The World Conquest play page: the world map, troops, dice, cards and exact odds.

Why this is all that is here: the shell (``shell.py``) gives the page its set-up seats,
links, saves, log, undo, "viewing step N", chart, bot runner and pass-the-device screens;
every rule and number comes from :mod:`conquest.games.world` (``GAME.view``,
``GAME.legal_actions``, :mod:`conquest.games.world.odds`). The map is in the HTML from the
build; here it is only recoloured and given a layer of troop counts, outlines and odds
(``#wc-marks``). Picks on the map (or the Choose list under it, for keyboards and small
screens) build the engine's action values step by step: a source, then a target, then dice
and the troops to move in, then the roll.

The page is in parts (issue 42), each with its own state, renderer and handlers, which
:class:`WorldPage` creates and routes the shell's hooks to: ``draft`` (the half-made action
and the handlers that build and play it, :mod:`.draft`), ``board`` (the map's paints and
marks and the Choose list, :mod:`.board`), ``panel`` (the controls of each phase,
:mod:`.panel`), ``dice`` (the last roll, :mod:`.dice`), ``cards`` (the hand and the trades,
:mod:`.cards`) and ``players`` (the players' table, :mod:`.players`). What every part reads (a
seat's name and colour, whether a person at this device acts) stays here.

Every name comes from a link or the set-up form and reaches the page as text only (``ui``
trees never hold markup).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shell import GamePage, Seat, Shell, plural
from ui import Event, Node

from conquest.games.world.rules import RULES

from .board import MapLayer
from .cards import Hand
from .dice import DiceBox
from .draft import Draft
from .panel import Panel
from .players import PlayersTable


class WorldPage(GamePage):
    """The page: its parts, what they all read of the seats, and the shell's hooks."""

    game_id = "world"
    focus_home = "wc-panel-inner"  # the controls, after a step (issue 21, item 2)
    chart_x_label = "turns"

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        #: (the options the colours were read from, the seats' colours)
        self._colours: tuple[Any, list[str]] = (None, [])
        self.draft = Draft(self)
        self.board = MapLayer(self)
        self.panel = Panel(self)
        self.dice = DiceBox(self)
        self.cards = Hand(self)
        self.players = PlayersTable(self)

    # -- set-up -----------------------------------------------------------------------------
    def options(self, seats: list[Seat], fields: Mapping[str, str]) -> dict[str, Any]:
        """Seats (so a link reopens the same table), the seat order (W2), the random deal
        (W3) and the defender's dice choice (W6), as the engine's options."""
        out: dict[str, Any] = {"seats": [s.to_json() for s in seats]}
        out["order"] = "fixed" if fields.get("order") == "fixed" else "random"
        out["deal"] = "deal" in fields
        out["defender_choice"] = "defender-choice" in fields
        return out

    # -- reading the game: what every part asks of the seats ---------------------------------
    def name(self, seat: int | None) -> str:
        return self.shell.session.seat_name(seat) if self.shell.session else "—"

    def colour(self, seat: int) -> str:
        """A seat's colour; the seats are read once per render (``Session.seats`` parses
        the options each time, and the map asks for 42 colours)."""
        s = self.shell.session
        if s is None:
            return "#999999"
        if self._colours[0] is not s.match.options:
            self._colours = (s.match.options, [x.colour for x in s.seats()])
        colours = self._colours[1]
        return colours[seat] if 0 <= seat < len(colours) else "#999999"

    def acting_person(self) -> int | None:
        """The seat a person at this device must play now, or None (bots, locked, over)."""
        s = self.shell.session
        if s is None or s.locked():
            return None
        seat = s.acting_seat()
        if seat is None or s.seats()[seat].is_bot or s.needs_handover() is not None:
            return None
        return seat

    # -- the shell's hooks, routed to the parts -----------------------------------------------
    def reset(self) -> None:
        self.draft.reset()

    def opened(self) -> None:
        self.draft.opened()

    def pick(self, index: int) -> None:
        self.draft.pick(index)

    def on_key(self, ev: Event) -> bool:
        return self.draft.on_key(ev)

    def paint(self, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        return self.board.paint(view)

    def log_label(self, before: Any) -> str:
        return f"Turn {before.turn}" if before.turn else "Set-up"

    def chart_points(self, states: Sequence[Any]) -> list[tuple[int, int]]:
        """The start of every turn (x: the turn), and the state now."""
        pts: list[tuple[int, int]] = []
        for i, st in enumerate(states):
            if i == 0 or st.turn != states[i - 1].turn:
                pts.append((st.turn, i))
        if states:
            last = len(states) - 1
            if pts and pts[-1][0] == states[last].turn:
                pts[-1] = (states[last].turn, last)
            else:
                pts.append((states[last].turn, last))
        return pts

    def prompt(self, view: Mapping[str, Any]) -> str:
        """One line: the phase and what to do next."""
        s = self.shell.session
        assert s is not None
        if view["outcome"] is not None:
            return str(view["phase_text"])
        seat = self.acting_person()
        if seat is None or s.viewing is not None:
            return str(view["phase_text"])
        state = s.match.state
        who = self.name(seat)
        ph = state.phase
        # short: the phone's status bar shows two lines at 360 px (issue 41: "…or one of
        # yours to mo…" was cut at its third line); the panel under the map says the rest
        if ph == "claim":
            return f"{who}: claim an empty territory (W3), {state.reserve[seat]} troops left."
        if ph == "setup":
            return f"{who}: place a troop on one of yours (W3), {state.reserve[seat]} left."
        if ph == "reinforce":
            if view["must_trade"]:
                return f"{who}: trade a set of cards first (W5)."
            return f"{who}: place {plural(state.pool, 'troop')} on yours (W4)."
        if ph == "attack":
            if self.draft.src is None:
                return f"{who}: pick your territory to attack from, or end the turn (W6)."
            if self.draft.dst is None:
                return f"{who}: pick a neighbour of {RULES.names[self.draft.src]} to attack or move to."
            if state.owner[self.draft.dst] == seat:
                return f"{who}: move troops to {RULES.names[self.draft.dst]}; it ends the turn (W8)."
            return f"{who}: attack {RULES.names[self.draft.dst]}: roll, or attack until done (W6)."
        if ph == "defend":
            return f"{who}: choose your dice to defend {RULES.names[state.battle.dst]} (W6)."
        return str(view["phase_text"])
    # -- rendering ------------------------------------------------------------------------------
    def render(self, view: Mapping[str, Any]) -> dict[str, Node]:
        s = self.shell.session
        assert s is not None
        state = s.shown_state()
        return {
            "wc-marks": self.board.render_marks(view, state),
            "wc-panel": self.panel.render(view, state),
            "wc-choose": self.board.render_choose(state),
            "wc-dice": self.dice.render(view),
            "wc-cards": self.cards.render(view),
            "wc-seats": self.players.render(view),
        }


def main() -> None:
    """In the page: run the page on the shell."""
    from shell_browser import run

    run(WorldPage)
