"""A Metagame campaign played at a live table by computer players who tap on their own
devices (issue 39): shared by ``tests/test_metagame_live.py`` and ``bench/metagame_live.py``.

Each player is a :class:`conquest.bots.metagame_greedy.GreedyMetagameBot` that decides, and
then makes its decision the way a person does on the device's page: map picks, the buttons
it was sent, the slice counts typed into the fields and the form submitted, the question of
a spending step answered on the page. The host's page only spins and records each duel's
result (an outside game's, by its buttons), unless ``at_console`` makes the host play every
seat from the console as before live campaign tables (the "before" of the benchmark).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from live_kit import Wire, WireDevice, attrs, seat_wire, text_of
from metagame import MetagamePage
from page_host import make_page, render_all
from ui import fire

from conquest.bots.metagame_greedy import GreedyMetagameBot
from conquest.games.metagame import GAME
from conquest.games.metagame.actions import (
    Block,
    Claim,
    Gift,
    Invade,
    Pass,
    PickCapital,
    Respin,
    Sacrifice,
    Slices,
)
from conquest.rng import Rng

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
COLOURS = ["#e69f00", "#56b4e9", "#009e73", "#cc79a7", "#0072b2", "#d55e00", "#f0e442", "#999999"]


@dataclass
class Tally:
    """What a campaign cost, per invasion: the host's inputs and the players' taps."""

    invasions: int = 0
    host_inputs: int = 0  # taps and picks at the host's console
    host_in_invasions: int = 0  # of those, from the invasion's declaration to its end
    device_inputs: int = 0  # taps, picks, typed counts and submits on the players' devices
    device_in_invasions: int = 0
    #: ms from a device's last input of a step (its confirm) until every device was sent the
    #: step: the host's page applying it and drawing every device's page (no network)
    confirm_ms: list[float] = field(default_factory=list)
    steps: int = 0
    over: bool = False
    by: dict[str, int] = field(default_factory=dict)  # log marks: "p" device, "h" host, "" console


def campaign(players: int) -> tuple[Any, Any, Any]:
    shell, page, host = make_page(MetagamePage)
    fields = {"title": "Live", "seat-count": str(players), "builtin-conquests": "on",
              "typed-games": "Chess\nGo", "pool-unlimited": "on"}
    for i in range(players):
        fields |= {f"seat-name-{i}": NAMES[i], f"seat-colour-{i}": COLOURS[i]}
    assert shell.start(fields) is not None, shell.message
    return shell, page, host


def seat_devices(shell: Any, host: Any, players: int | tuple[int, ...]) -> tuple[Wire, dict[int, WireDevice]]:
    """A live table of the campaign; each seat (the first ``players``, or those named) taken
    by its player's device (its peer: the player's name in lower case)."""
    seats = range(players) if isinstance(players, int) else players
    return seat_wire(shell, host, MetagamePage, {i: NAMES[i].lower() for i in seats})


class Player:
    """One seat's device, tapped as its person would."""

    def __init__(self, w: Wire, device: WireDevice, tally: Tally, clock: Callable[[], float]) -> None:
        self.w, self.d, self.tally, self.clock = w, device, tally, clock
        self.last_ms = 0.0

    def _send(self, msg: dict[str, Any]) -> None:
        self.tally.device_inputs += 1
        t0 = self.clock()
        self.w.send(self.d.peer, msg)  # delivered, applied, and every device's page drawn and sent
        self.last_ms = (self.clock() - t0) * 1000

    def pick(self, t: int) -> None:
        self._send({"t": "pick", "i": t})

    def click(self, pred: Callable[[dict[str, Any]], bool]) -> None:
        key, _ = self.d.find("mg-side", lambda k, n: k.endswith("/click") and pred(n))
        self._send({"t": "ev", "k": key, "type": "click"})

    def by_id(self, ident: str) -> None:
        self.click(lambda n: attrs(n).get("id") == ident)

    def by_text(self, start: str) -> None:
        self.click(lambda n: n.get("g") == "button" and text_of(n).startswith(start))

    def confirm(self) -> None:
        """The spending step's question, answered on the page."""
        self.by_id("mg-confirm-yes")

    def slices(self, alloc: tuple[tuple[int, int], ...]) -> None:
        for g, n in alloc:
            key, _ = self.d.find("mg-side", lambda k, node, g=g: k.endswith("/input")
                                 and attrs(node).get("id") == f"mg-count-{g}")
            self._send({"t": "ev", "k": key, "type": "input", "v": str(n)})
        key, _ = self.d.find("mg-side", lambda k, n: k.endswith("/submit") and attrs(n).get("id") == "mg-slice-form")
        self._send({"t": "ev", "k": key, "type": "submit", "f": {}})

    def make(self, action: Any) -> None:
        """``action``, made on this device's page."""
        if isinstance(action, (PickCapital, Claim, Invade)):
            self.pick(action.t)
        elif isinstance(action, Pass):
            self.by_text("Pass")
        elif isinstance(action, (Sacrifice, Block)):
            if not action.ts:
                self.by_text("No sacrifice" if isinstance(action, Sacrifice) else "Do not block")
                return
            for t in action.ts:
                self.pick(t)
            self.by_text("Sacrifice" if isinstance(action, Sacrifice) else "Block:")
            self.confirm()
        elif isinstance(action, Slices):
            self.slices(action.alloc)
        elif isinstance(action, Respin):
            if action.t is None:
                self.by_id("mg-keep")
            else:
                self.pick(action.t)
                self.confirm()
        elif isinstance(action, Gift):
            self.pick(action.t)
            self.confirm()
        else:
            raise AssertionError(f"not a player's choice: {action!r}")


def play(players: int = 4, seed: int = 1, max_steps: int = 4000, at_console: bool = False,
         attacker_odds: float = 0.5, clock: Callable[[], float] = time.perf_counter) -> tuple[Tally, Any]:
    """A whole campaign; returns the tally and the host's shell."""
    shell, _, host = campaign(players)
    tally = Tally()
    rng = Rng(seed)
    bots = {i: GreedyMetagameBot(Rng(seed * 100 + i)) for i in range(players)}
    w: Wire | None = None
    people: dict[int, Player] = {}
    if not at_console:
        w, devices = seat_devices(shell, host, players)
        people = {i: Player(w, d, tally, clock) for i, d in devices.items()}
    s = shell.session
    assert s is not None
    while len(s.match.log) < max_steps:
        st = s.match.state
        if GAME.outcome(st) is not None:
            tally.over = True
            break
        ph = st.phase
        n = len(s.match.log)
        if ph == "spin":
            fire(render_all(shell)["mg-side"], "#mg-spin")
            tally.host_inputs += 1
            tally.host_in_invasions += 1
            render_all(shell)  # the wheel starts turning when the page draws the result
            host.advance(4000)  # and stops: the result shows when it has
            host.run_timers()
        elif ph == "duel":
            fire(render_all(shell)["mg-side"], "#mg-won-a" if rng.below(1000) < attacker_odds * 1000 else "#mg-won-d")
            tally.host_inputs += 1
            tally.host_in_invasions += 1
        elif at_console:
            action = bots[s.acting_seat()].choose(GAME, st)
            if isinstance(action, Invade):
                tally.invasions += 1
            assert shell.play(action), shell.message
            # the console's inputs for it, at the least: a pick or a button; a count per game
            # and Assign; the picks of a sacrifice or block, its button and the question
            inputs = (1 + len(action.alloc) if isinstance(action, Slices)
                      else len(action.ts) + 2 if isinstance(action, (Sacrifice, Block)) and action.ts
                      else 2 if isinstance(action, Gift) or (isinstance(action, Respin) and action.t is not None)
                      else 1)
            tally.host_inputs += inputs
            if st.inv is not None or isinstance(action, Invade):
                tally.host_in_invasions += inputs
        else:
            assert w is not None
            ahead = GAME.ahead(st)
            seats = [s.acting_seat()] + [x for x in ahead if x not in s.held]
            if ahead and rng.below(2):
                seats.reverse()  # either side confirms first
            for seat in seats:
                probe = st if seat == GAME.to_move(st) else _as_defender(st)
                action = bots[seat].choose(GAME, probe)
                if isinstance(action, Invade):
                    tally.invasions += 1
                mark = tally.device_inputs
                people[seat].make(action)
                tally.confirm_ms.append(people[seat].last_ms)
                if st.inv is not None or isinstance(action, Invade):
                    tally.device_in_invasions += tally.device_inputs - mark
        if w is not None:
            w.table.sync()
            w.run()
        if len(s.match.log) == n and st.phase == s.match.state.phase and not s.held:
            raise AssertionError(f"no step at {ph}: {shell.message}")
    tally.steps = len(s.match.log)
    for text in s.match.log:
        mark = getattr(GAME.parse_action(text), "by", "")
        tally.by[mark] = tally.by.get(mark, 0) + 1
    return tally, shell


def _as_defender(state: Any) -> Any:
    from dataclasses import replace

    from conquest.games.metagame.phases import Phase

    return replace(state, phase=Phase.SLICES_D)


__all__ = ["Tally", "play", "campaign", "seat_devices", "Player"]
