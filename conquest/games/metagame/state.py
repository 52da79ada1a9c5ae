"""The metagame's state: plain frozen data, one phase at a time.

Why phases as data: the host console, the bots and the conformance test all ask the same
question, "what may happen now?", and the answer is a function of ``State.phase`` alone
(plus the numbers of the invasion under way): the table in :mod:`.phases`. Territories are
map indices; owners and capitals are seat numbers, ``-1`` meaning neutral / none.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from conquest.games.metagame.board import Board
from conquest.games.metagame.phases import Phase

__all__ = ["PHASES", "Phase", "Player", "Invasion", "State", "NEUTRAL"]

NEUTRAL = -1

#: every phase's saved string, in the order a campaign meets them (see :class:`Phase`)
PHASES: tuple[str, ...] = tuple(p.value for p in Phase)


@dataclass(frozen=True)
class Player:
    name: str
    colour: str


@dataclass(frozen=True)
class Invasion:
    """One invasion; the numbers of M6 are taken when it is declared and never change."""

    attacker: int
    defender: int
    target: int
    m: int  # 2 on the defender's capital, else 1
    n_a: int
    n_d: int
    sacrificed: tuple[int, ...] = ()
    blocked: tuple[int, ...] = ()  # the defender's sacrifice; non-empty iff the block was used
    slices_a: tuple[tuple[int, int], ...] = ()
    slices_d: tuple[tuple[int, int], ...] = ()
    spins: tuple[int, ...] = ()  # drawn slice indices, the last one stands
    respin_by: int = NEUTRAL
    respin_spent: int = NEUTRAL  # territory given up for the re-spin
    duel_wins: int = 0  # attacker's duel wins so far (a capital needs two)

    # -- M6 numbers --------------------------------------------------------------------
    @property
    def z_a(self) -> int:
        return self.m * self.n_a

    @property
    def z_d(self) -> int:
        return self.m * self.n_d

    @property
    def x(self) -> int:
        return self.z_a + self.z_d

    @property
    def y_a(self) -> int:
        return self.m * (self.n_a // 2)

    @property
    def y_d(self) -> int:
        return self.m * (self.n_d // 2)

    @property
    def sacrifice_counts(self) -> bool:
        """M8: a blocked sacrifice gives no cap bonus and no re-spin token."""
        return bool(self.sacrificed) and not self.blocked

    @property
    def cap_a(self) -> int:
        """M6 (0 raised to 1) and M7 (YA + s unless blocked)."""
        return max(1, self.y_a + (len(self.sacrificed) if self.sacrifice_counts else 0))

    @property
    def cap_d(self) -> int:
        return max(1, self.y_d)

    @property
    def layout(self) -> tuple[tuple[int, int], ...]:
        """The wheel: slices per game of both sides added up (M9), in game order."""
        total: dict[int, int] = {}
        for g, n in self.slices_a + self.slices_d:
            total[g] = total.get(g, 0) + n
        return tuple(sorted(total.items()))

    def game_at(self, k: int) -> int:
        """The game under slice ``k`` of the wheel (slices laid out game by game)."""
        for g, n in self.layout:
            if k < n:
                return g
            k -= n
        raise IndexError(k)

    @property
    def needed_wins(self) -> int:
        """M12: a capital invasion needs the attacker to win twice."""
        return 2 if self.m == 2 else 1


@dataclass(frozen=True)
class State:
    board: Board
    players: tuple[Player, ...]
    games: tuple[str, ...]
    pool: int | None  # tokens of each kind in the pool at the start; None = unlimited (M15)
    owner: tuple[int, ...]
    capital: tuple[int, ...]
    block: tuple[int, ...]
    respin: tuple[int, ...]
    phase: Phase = Phase.CAPITAL
    current: int = 0
    turn: int = 0  # 1 for the first turn after the capitals
    inv: Invasion | None = None
    ended: str | None = None  # M16 reason once over: "last", "majority" or "agreement"
    #: moves of the duels played here and replayed so far (M12): bounded per campaign, so
    #: any accepted link replays within a stated budget (:mod:`.duelrecord`)
    duel_steps: int = 0

    def __post_init__(self) -> None:
        # a saved string becomes its member (ValueError for an unknown phase), so every
        # lookup in the phase table sees a Phase
        if type(self.phase) is not Phase:
            object.__setattr__(self, "phase", Phase(self.phase))

    def count(self, p: int) -> int:
        return self.owner.count(p)

    @cached_property
    def _counts(self) -> tuple[int, ...]:
        # one pass, kept with the (immutable) state: counting is the hottest loop of a
        # replay, asked several times per step (M13 eliminations, M16 end, the view)
        out = [0] * (len(self.players) + 1)  # the last slot collects the neutral (-1) ones
        for o in self.owner:
            out[o] += 1
        return tuple(out[:-1])

    def counts(self) -> list[int]:
        """Territories per seat."""
        return list(self._counts)

    def alive(self, p: int) -> bool:
        """M2: eliminated players are skipped; during the capital picks everyone is in."""
        return self.phase is Phase.CAPITAL or p in self.owner

    def player_name(self, p: int) -> str:
        """A seat's name for messages; never raises (a log may name a seat that is not there)."""
        return self.players[p].name if 0 <= p < len(self.players) else f"player {p}"

    def territory_name(self, t: int) -> str:
        """A territory's name for messages; never raises."""
        return self.board.names[t] if 0 <= t < len(self.board) else f"territory {t}"
