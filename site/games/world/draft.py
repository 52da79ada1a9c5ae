"""World Conquest's half-made action: a source, a target and the amounts chosen for them, built
pick by pick on the map or in the Choose list, and played as the engine's action value.

Why a part: between two steps the person builds an action (W3-W8) a pick at a time: where
from, where to, how many dice, how many troops to move in or to leave behind. That draft is
the page's only state of play of its own; it outlives a roll while the same attack goes on
and is dropped when it no longer fits. The panel's and the map's renderers read it; their
buttons and fields call its handlers.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shell import plural
from ui import Event

from conquest.games.world.actions import Attack, Blitz, Defend, EndTurn, Fortify, Place, Trade
from conquest.games.world.rules import RULES

if TYPE_CHECKING:
    from . import WorldPage


def parse_int(raw: Any, default: int) -> int:
    try:
        return int(str(raw).strip())
    except ValueError:
        return default


class Draft:
    """The action being built, its amounts, and the handlers of picks and of the panel."""

    def __init__(self, page: WorldPage) -> None:
        self.page = page
        self.shell = page.shell
        #: the half-made action: a source, a target, and the amounts chosen for it
        self.src: int | None = None
        self.dst: int | None = None
        self.dice = 0  # 0: the most allowed
        self.move = 0  # 0: as many as the dice
        self.until = 2
        self.amount = 0  # fortify: 0 = all but one
        self.place_n = 0  # reinforcements per pick: 0 = all that are left

    def reset(self) -> None:
        """After every step, undo or jump: keep a half-made attack only while it still fits
        (the same attack may go on after a roll), and after a conquest go on from the
        conquered territory when it can attack."""
        s = self.shell.session
        if s is None:
            self.src = self.dst = None
            return
        state = s.match.state
        me = state.current
        if state.phase != "attack" or self.src is None or state.owner[self.src] != me:
            self.src = self.dst = None
            self.dice = self.move = self.amount = 0
            return
        if self.dst is not None and state.owner[self.dst] == me and state.troops[self.src] >= 1:
            won = self.dst
            self.dst = None
            self.dice = self.move = 0
            self.src = won if won in self.sources(state) and self.enemy_targets(state, won) else None
            return
        if state.troops[self.src] < 2:
            self.src = self.dst = None
            return
        if self.dst is not None and self.dst not in RULES.adjset[self.src]:
            self.dst = None

    def opened(self) -> None:
        self.src = self.dst = None
        self.place_n = 0

    @staticmethod
    def sources(state: Any) -> list[int]:
        """Own territories with 2 or more troops and a neighbour: where an attack or a move starts."""
        me = state.current
        return [t for t in range(RULES.size) if state.owner[t] == me and state.troops[t] >= 2]

    @staticmethod
    def enemy_targets(state: Any, src: int) -> list[int]:
        me = state.owner[src]
        return [d for d in RULES.adj[src] if state.owner[d] != me]

    @staticmethod
    def own_targets(state: Any, src: int) -> list[int]:
        me = state.owner[src]
        return [d for d in RULES.adj[src] if state.owner[d] == me]

    def choices(self, state: Any) -> list[int]:
        """Territories lit up for the person to pick now (none for bots or a locked copy)."""
        if self.page.acting_person() is None:
            return []
        ph, me = state.phase, state.current
        if ph == "claim":
            return [t for t in range(RULES.size) if state.owner[t] < 0]
        if ph in ("setup", "reinforce"):
            if ph == "reinforce" and state.hand_size(me) >= RULES.must_trade_at:
                return []
            return state.territories_of(me)
        if ph == "attack":
            if self.src is None:
                return [t for t in self.sources(state) if RULES.adj[t]]
            return sorted(self.enemy_targets(state, self.src) + self.own_targets(state, self.src))
        return []

    # -- picks: the map, the Choose list ------------------------------------------------------
    def pick(self, index: int) -> None:
        """A territory was picked on the map (click, tap, Enter) or in the Choose list."""
        s = self.shell.session
        if s is None or not 0 <= index < RULES.size:
            return
        state = s.shown_state()
        name = RULES.names[index]
        owner = state.owner[index]
        about = f"{name}: " + ("empty" if owner < 0 else f"{self.page.name(owner)}, {plural(state.troops[index], 'troop')}")
        seat = self.page.acting_person()
        if seat is None:
            why = " This copy is read-only." if s.locked() else " It is not your move."
            self.shell.say(about + "." + why)
            return
        ph = state.phase
        if ph in ("claim", "setup"):
            if index in self.choices(state):
                self.shell.play(Place(index))
            else:
                need = "an empty territory" if ph == "claim" else "one of your territories"
                self.shell.say(f"{about}. Pick {need}.")
            return
        if ph == "reinforce":
            if state.hand_size(state.current) >= RULES.must_trade_at:
                self.shell.say(f"You hold {state.hand_size(state.current)} cards: trade a set first (W5).", "error")
                return
            if owner != state.current:
                self.shell.say(f"{about}. Place reinforcements on your own territories.")
                return
            self.shell.play(Place(index, self.place_count(state)))
            return
        if ph == "attack":
            self.pick_attack(state, index, about)
            return
        self.shell.say(about + ".")

    def pick_attack(self, state: Any, index: int, about: str) -> None:
        me = state.current
        if self.src is not None and index == self.src:
            self.src = self.dst = None
            return
        if self.src is not None and index in RULES.adjset[self.src]:
            self.dst = index
            self.dice = self.move = self.amount = 0
            return
        if state.owner[index] == me and state.troops[index] >= 2:
            self.src, self.dst = index, None
            self.dice = self.move = self.amount = 0
            return
        if state.owner[index] == me:
            self.shell.say(f"{about}: an attack or a move needs at least 2 troops there (W6, W8).")
        elif self.src is None:
            self.shell.say(f"{about}. First pick your territory to attack from.")
        else:
            self.shell.say(f"{about}: it does not border {RULES.names[self.src]}.")

    def chose(self, value: str) -> None:
        """A territory from the Choose list (OK): the focus goes back to the list, where the
        next pick of the step is made (issue 21, item 2: from OK, Tab walked the whole page
        round to reach it again); when the list empties, to the panel (``focus_home``)."""
        if value.isdigit():
            self.pick(int(value))
            self.shell.host.focus("wc-choose-t")

    def on_key(self, ev: Event) -> bool:
        """Escape drops the half-made attack or move."""
        if ev.key == "Escape" and (self.src is not None or self.dst is not None):
            self.src = self.dst = None
            return True
        return False

    # -- amounts -----------------------------------------------------------------------------
    def place_count(self, state: Any) -> int:
        pool = state.pool
        return pool if self.place_n <= 0 else max(1, min(self.place_n, pool))

    def set_place(self, raw: str) -> None:
        self.place_n = max(0, parse_int(raw, 0))

    def attack_dice(self, state: Any) -> tuple[int, int]:
        """(dice, most dice) for the attack from ``src``: W6 at most 3 and troops - 1."""
        assert self.src is not None
        most = min(RULES.attack_max, state.troops[self.src] - 1)
        dice = most if self.dice <= 0 else max(1, min(self.dice, most))
        return dice, most

    def attack_move(self, state: Any, dice: int) -> int:
        """The troops stated to move in: at least the dice, at most troops - 1 (W6)."""
        assert self.src is not None
        top = state.troops[self.src] - 1
        return dice if self.move <= 0 else max(dice, min(self.move, top))

    def fortify_count(self, state: Any) -> int:
        assert self.src is not None
        top = state.troops[self.src] - 1
        return top if self.amount <= 0 else max(1, min(self.amount, top))

    def set_dice(self, k: int) -> None:
        self.dice = k

    def set_move(self, raw: str) -> None:
        self.move = max(0, parse_int(raw, 0))

    def set_until(self, raw: str) -> None:
        self.until = max(1, parse_int(raw, 2))

    def set_amount(self, raw: str) -> None:
        self.amount = max(0, parse_int(raw, 0))

    # -- playing -----------------------------------------------------------------------------
    def roll(self) -> None:
        s = self.shell.session
        if s is None or self.src is None or self.dst is None:
            return
        state = s.match.state
        dice, _ = self.attack_dice(state)
        self.shell.play(Attack(self.src, self.dst, dice, self.attack_move(state, dice)))

    def blitz(self, until: int = 1) -> None:
        s = self.shell.session
        if s is None or self.src is None or self.dst is None:
            return
        top = s.match.state.troops[self.src] - 1
        self.shell.play(Blitz(self.src, self.dst, max(1, min(until, top))))

    def fortify(self) -> None:
        s = self.shell.session
        if s is None or self.src is None or self.dst is None:
            return
        self.shell.play(Fortify(self.src, self.dst, self.fortify_count(s.match.state)))

    def end_turn(self) -> None:
        self.shell.play(EndTurn())

    def trade(self, cards: str) -> None:
        self.shell.play(Trade(cards))

    def defend(self, dice: int) -> None:
        self.shell.play(Defend(dice))

    def cancel(self) -> None:
        self.src = self.dst = None
