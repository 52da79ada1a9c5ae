"""The Conquest Metagame host console: its map, invasion panel, wheel and host tools.

Why this is all that is here: the shell (``shell.py``) gives every game page its set-up
seats, links, saves, log, undo, "viewing step N", chart and audience tab; every rule,
number and eligibility comes from :mod:`conquest.games.metagame` (``GAME.view``,
``slice_report``). This page draws that view (the map is in the HTML from the build; here it
is only recoloured through :meth:`MetagamePage.paint`) and turns picks, clicks and typed
text into the engine's action values.

Spins are drawn by the match driver from the host's sealed chain and a contribution
(:mod:`conquest.draws`, issue 26): the page's own randomness, or a word a named player says
aloud that the host types ("Spin with a word said aloud"); the seal is shown before the word
is asked, the word beside the result. The wheel's animation then turns to the drawn slice,
it never decides it. All names from links, files or storage
reach the page as text (``ui`` trees are text-only).

The page is composed of parts (issue 42), each with its own state, renderer and handlers,
which :class:`MetagamePage` creates and routes the shell's hooks to: ``setup`` (the presets,
the options), ``draft`` (the slices and picks being made, with the slices' form), ``board``
(the map's paint and marks), ``picks`` (the map's choices), ``controls`` (each phase's
buttons, the spending question), ``wheel`` (its turn and the drawn game), ``word`` (a word
said aloud and the seal), ``duel`` (the duel on the console, beside ``duel_desk``),
``invasion`` and the players' tables (``panels``), ``flow`` (the focus and the marks after a
step), ``tools`` and ``spins`` (below the log); ``bench`` is the benchmark hook.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duel_desk import DuelDesk, wire_duel_desk
from shell import GamePage, Seat, Shell
from ui import Node, h, unmark

from .bench import bench
from .board import Board
from .controls import Controls
from .draft import Draft
from .duel import DuelBox
from .flow import Flow
from .panels import REASONS, InvasionPanel, render_final, render_players
from .picks import Picks
from .setup import Presets
from .spins import SpinHistory
from .tools import HostTools
from .wheel import Wheel
from .word import SaidWord


class MetagamePage(GamePage):
    """The console: its parts, and the shell's hooks routed to them."""

    game_id = "metagame"
    needs_all_games = True  # the wheel lists every built-in game
    focus_home = "mg-side-inner"  # the controls, after a step (issue 21, item 2)
    chart_x_label = "turns played"

    #: the wheel turns on every player's device too (issue 39: each watches their own wheel)
    turns_on_devices = True

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.setup = Presets(self)
        self.draft = Draft(self)
        self.board = Board(self)
        self.picks = Picks(self)
        self.controls = Controls(self)
        self.wheel = Wheel(self)
        self.word = SaidWord(self)
        #: a duel in one of the site's own games: set up, watched, its result taken (issue 14)
        self.duel_desk = DuelDesk(self)
        self.duel = DuelBox(self)
        self.invasion = InvasionPanel(self)
        self.flow = Flow(self)
        self.tools = HostTools(self)
        self.spins = SpinHistory(self)

    @property
    def reduced_motion(self) -> bool:
        """The wheel's short turn (the browser's setting; a device's page that does not turn
        its wheel): set on every page by the runner, held by the wheel."""
        return self.wheel.reduced_motion

    @reduced_motion.setter
    def reduced_motion(self, value: bool) -> None:
        self.wheel.reduced_motion = value

    # -- the shell's hooks ---------------------------------------------------------------------
    def options(self, seats: list[Seat], fields: Mapping[str, str]) -> dict[str, Any]:
        return self.setup.options(seats, fields)

    def render_setup(self) -> dict[str, Node]:
        return self.setup.render()

    def reset(self) -> None:
        self.draft.reset()
        self.wheel.reset()

    def opened(self) -> None:
        """A campaign was opened: its spins count as seen, its draft comes back."""
        self.wheel.opened()
        self.draft.load()

    def pick(self, t: int) -> None:
        """A territory was picked (click, tap, Enter on the map, or the "Choose" list)."""
        self.picks.pick(t)

    def paint(self, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        return self.board.paint(view)

    def after_render(self) -> None:
        self.duel.after_render()
        self.flow.after_render()

    def chart_points(self, states: Any) -> list[tuple[int, int]]:
        """(turns completed, state index) at the start of each turn, and at the end."""
        pts: list[tuple[int, int]] = []
        last_turn = -1
        for i, st in enumerate(states):
            if st.phase == "turn" and st.turn != last_turn:
                pts.append((st.turn - 1, i))
                last_turn = st.turn
            elif st.phase == "over":
                if pts and pts[-1][0] == st.turn:
                    pts[-1] = (st.turn, i)
                else:
                    pts.append((st.turn, i))
        return pts

    def log_label(self, before: Any) -> str:
        return "Capitals" if before.phase == "capital" else f"Turn {before.turn}"

    def prompt(self, view: Mapping[str, Any]) -> str:
        s = self.shell.session
        assert s is not None
        if view["outcome"] is not None:
            names = " and ".join(view["players"][w]["name"] for w in view["outcome"]["winners"])
            reason = REASONS.get(view["ended"], view["ended"])
            return f"The campaign is over: {reason}. {names} won with the most territories (M16)."
        self.wheel.start()  # the bar is drawn before the panel: never the result before the wheel stops
        if self.wheel.spinning():
            return "The wheel is spinning…"
        turn = "Capitals" if view["phase"] == "capital" else f"Turn {view['turn']}"
        if view["phase"] == "duel" and self.duel_desk.note and s.mode == "host":
            return f"{turn} · {self.duel_desk.note}"  # a drawn or refused duel: what happens next (M12)
        return f"{turn} · {InvasionPanel.drawn_note(view)}{view['prompt']}"

    def render(self, view: Mapping[str, Any]) -> dict[str, Node]:
        s = self.shell.session
        assert s is not None
        self.wheel.start()
        state = s.shown_state()
        side = h(
            "div",
            self.picks.render_last_pick(),
            unmark(self.shell.result.render()),  # the spin, the duel's result, a step (item 10)
            self.duel.render_my_duel(view),
            self.controls.render(view),
            self.picks.render(state, view),
            self.invasion.render(state, view),  # the duel's choice is with the drawn game in it
            render_players(view),
            render_final(view),
            id="mg-side-inner",
        )
        self.flow.mark_now(side, view)
        return {
            "mg-marks": self.board.render_marks(view),
            "mg-side": side,
            "mg-host-tools": self.tools.render(state),
            "mg-spins": self.spins.render(),
        }


def main() -> None:
    """In the page: run the console on the shell, and expose the benchmark hook."""
    import js  # type: ignore[import-not-found]
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found]
    from shell_browser import run

    runner = run(MetagamePage)
    wire_duel_desk(runner)
    runner.page.tools.live_audience = lambda: runner.live.on("start-audience")
    runner.page.duel.device_pages = lambda: runner.live.devices
    runner.render()  # the audience's live button, now that it can work
    js.window.conquestBench = create_proxy(
        lambda text, repeats=3: bench(str(text), int(repeats or 3), runner.host.clock)
    )
