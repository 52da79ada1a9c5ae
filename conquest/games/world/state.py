"""World Conquest's state: plain frozen data, one phase at a time.

Why phases as data: the page, the bots and the tests all ask "what may happen now?", and
the answer depends on ``State.phase`` (plus the battle under way). Territories are map
indices (see :mod:`.rules`), owners are seat numbers (``-1``: empty during the claim), and
every hand, the deck and the discards are count triples (infantry, cavalry, artillery):
cards have only a kind (W5), so a draw from the deck is a draw from those counts, which
is the same chance as drawing from a shuffled pile and needs no stored shuffle that a link
could reveal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["PHASES", "CHANCE_PHASES", "Battle", "State", "Cards", "evolve"]

#: a hand, the deck or the discards: counts of infantry, cavalry, artillery
Cards = tuple[int, int, int]

PHASES = (
    "order",  # W2 chance: the seat order is drawn
    "deal",  # W3 chance: the territories are dealt (option "deal")
    "claim",  # W3: ``current`` places one troop on an empty territory
    "setup",  # W3: ``current`` places one troop on one of their territories
    "reinforce",  # W4/W5: trade sets and place ``pool`` troops
    "attack",  # W6-W8: attack, fortify (ends the turn) or end the turn
    "defend",  # W6: the defender chooses dice (option "defender_choice")
    "roll",  # W9 chance: the dice of the battle under way
    "draw",  # W5 chance: the card of a conquering turn
    "over",  # W7: one seat holds every territory
)
CHANCE_PHASES = frozenset({"order", "deal", "roll", "draw"})


@dataclass(frozen=True)
class Battle:
    """An attack under way (W6). ``until == 0`` is one roll with the stated ``dice`` and
    ``move``; ``until >= 1`` repeats rolls (attack until done / until N left)."""

    src: int
    dst: int
    dice: int = 0
    move: int = 0
    until: int = 0
    #: the defender's dice for the pending roll; 0 while the defender has not chosen
    ddice: int = 0


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    deal: bool
    defender_choice: bool
    phase: str
    order: tuple[int, ...]
    current: int
    owner: tuple[int, ...]
    troops: tuple[int, ...]
    #: W3 start troops each seat has still to place
    reserve: tuple[int, ...]
    #: W4 reinforcements the current seat has still to place
    pool: int
    hands: tuple[Cards, ...]
    deck: Cards
    discard: Cards
    #: W5 sets traded so far in the whole game (sets the next trade's value)
    trades: int
    #: W5 the current seat has conquered a territory this turn
    conquered: bool = False
    #: W5 cards still to draw at the end of this turn
    draws: int = 0
    battle: Battle | None = None
    #: the last roll (attacker faces, defender faces, src, dst) for the page to show
    last_roll: tuple[tuple[int, ...], tuple[int, ...], int, int] | None = None
    #: per seat, sum over their rolls of (troops their dice removed - the expected number),
    #: in units of 1/sides**(attack_max+defend_max) so it stays an exact integer
    luck: tuple[int, ...] = ()
    #: turns started (1 = the first turn after the set-up)
    turn: int = 0
    winner: int = -1

    @property
    def n(self) -> int:
        return len(self.names)

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def territories_of(self, seat: int) -> list[int]:
        return [t for t, o in enumerate(self.owner) if o == seat]

    def count(self, seat: int) -> int:
        return self.owner.count(seat)

    def alive(self, seat: int) -> bool:
        """W7: a seat with no territory is out (before the map is full nobody is out)."""
        if self.phase in ("order", "deal", "claim"):
            return True
        return seat in self.owner


T = TypeVar("T", State, Battle)


def evolve(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` without re-running ``__init__``: about ten times faster.

    Why: a game is thousands of steps and the Strong bot plays many more in its head, and
    ``replace`` on a 22-field dataclass was the engine's largest cost. Only for fields that
    already exist (the engine's own calls), so the result is an ordinary, equal-comparing
    instance.
    """
    new = object.__new__(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    d.update(changes)
    return new
