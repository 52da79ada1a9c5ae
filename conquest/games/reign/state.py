"""To Reign Supreme's state: plain frozen data, round-tripping through JSON.

Why a ladder index per place: R2 makes every card's state one of four rungs, and every
change (battle, Reform, Develop) moves a card along it. The rung is stored from seat 0's
view: 0 Controlled by seat 1, 1 Influenced by seat 1, 2 Influenced by seat 0, 3 Controlled
by seat 0. Moving toward seat 0 adds, toward seat 1 subtracts, and clamping at the ends is
R8's "steps stop at Controlled by the attacker".

Places are numbered row by row, 0 1 2 / 3 4 5 (R1); ``layout[p]`` is the territory card at
place ``p`` (an index into the data file's territories). Strategy cards are indices into the
data file's cards. Nothing secret is ever stored: a battle's secret parts exist only in the
``Reveal`` action that carries both (R10).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from conquest.core import InvalidOptions
from conquest.games.reign.data import current_edition

__all__ = ["PHASES", "Player", "Pending", "Report", "State", "state_to_json", "state_from_json", "rel"]

#: every phase, in the order a game meets them
PHASES = (
    "deal",  # chance: the territory cards are shuffled and laid out (R1)
    "setup",  # secret: each player picks the two tracker cards
    "turn",  # the active player takes actions (R4, R5) or Restructures
    "respond",  # a battle is declared: the defender may Restructure first
    "battle",  # secret: both players choose a strategy card and purchases (R6, R10)
    "over",  # someone Controls all six (R11)
)


def rel(rung: int, seat: int) -> int:
    """The rung seen from ``seat``: 3 Controlled by it, 2 Influenced by it, 1 Influenced by
    the opponent, 0 Controlled by the opponent."""
    return rung if seat == 0 else 3 - rung


@dataclass(frozen=True)
class Player:
    wealth: int
    military: int
    tracker: tuple[int, ...] = ()  # the two cards on the strength tracker (face up)
    hand: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pending:
    """A declared battle waiting for its secret choices."""

    attacker: int
    place: int


@dataclass(frozen=True)
class Report:
    """The last battle's numbers, all public once revealed (for the view and the log)."""

    attacker: int
    place: int
    territory: int
    parts: tuple[str, str]
    attack: tuple[int, int]
    defence: tuple[int, int]
    damage: tuple[int, int]
    casualties: tuple[int, int]  # suffered by each seat (hired troops included)
    earned: tuple[int, int]
    level: int  # the defender's action level the margin is compared with (R8)
    steps: int
    before: int  # rung before and after
    after: int

    @property
    def defender(self) -> int:
        return 1 - self.attacker

    @property
    def won(self) -> bool:
        """R7: the attacker wins only with the higher attack; ties go to the defender."""
        return self.attack[self.attacker] > self.attack[self.defender]


@dataclass(frozen=True)
class State:
    setup: str  # "easy" or "challenging" (R1)
    names: tuple[str, str]
    layout: tuple[int, ...]  # territory index per place; () before the deal
    ladder: tuple[int, ...]  # rung per place, seat 0's view (see module docstring)
    players: tuple[Player, Player]
    phase: str = "deal"
    active: int = 0
    turn: int = 0  # 1 is the first player's first turn
    actions_left: int = 0
    fresh: tuple[int, ...] = ()  # places newly Controlled by the active player this turn (R11)
    battle: Pending | None = None
    last: Report | None = None
    winner: int | None = None
    #: the turn of the last battle fought (0: none yet); Recover is "skip an action to
    #: recover after a battle" (R5, edition 2): the battle of this turn or the two before
    fought: int = 0
    #: the edition of the reconstructed values the game is played with (R5, R9), fixed by
    #: the deal: old saves replay with the values they were played with (a state written
    #: before editions existed is of edition 1; a new one, of the data file's)
    edition: int = field(default_factory=current_edition)

    def holder(self, place: int) -> int:
        """The seat that Influences or Controls the card at ``place``."""
        return 0 if self.ladder[place] >= 2 else 1

    def influenced(self) -> tuple[int, ...]:
        """The places whose card is Influenced, by either seat (what Reallocate picks up, R5)."""
        return tuple(q for q in range(len(self.layout)) if self.ladder[q] in (1, 2))

    def controls(self, seat: int, place: int) -> bool:
        return rel(self.ladder[place], seat) == 3

    def controlled(self, seat: int) -> int:
        return sum(1 for r in self.ladder if rel(r, seat) == 3)

    def place_of(self, territory: int) -> int:
        return self.layout.index(territory)


def _player_json(p: Player) -> dict[str, Any]:
    return {
        "wealth": p.wealth,
        "military": p.military,
        "tracker": list(p.tracker),
        "hand": list(p.hand),
        "discard": list(p.discard),
    }


def _report_json(r: Report) -> dict[str, Any]:
    return {
        "attacker": r.attacker,
        "place": r.place,
        "territory": r.territory,
        "parts": list(r.parts),
        "attack": list(r.attack),
        "defence": list(r.defence),
        "damage": list(r.damage),
        "casualties": list(r.casualties),
        "earned": list(r.earned),
        "level": r.level,
        "steps": r.steps,
        "before": r.before,
        "after": r.after,
    }


def state_to_json(s: State) -> dict[str, Any]:
    return {
        "setup": s.setup,
        "names": list(s.names),
        "layout": list(s.layout),
        "ladder": list(s.ladder),
        "players": [_player_json(p) for p in s.players],
        "phase": s.phase,
        "active": s.active,
        "turn": s.turn,
        "actions_left": s.actions_left,
        "fresh": list(s.fresh),
        "battle": None if s.battle is None else {"attacker": s.battle.attacker, "place": s.battle.place},
        "last": None if s.last is None else _report_json(s.last),
        "winner": s.winner,
        "fought": s.fought,
        "edition": s.edition,
    }


def _ints(v: Any) -> tuple[int, ...]:
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        raise TypeError("expected a list of whole numbers")
    return tuple(v)


def _pair(v: Any) -> tuple[int, int]:
    t = _ints(v)
    if len(t) != 2:
        raise TypeError("expected two numbers")
    return (t[0], t[1])


def state_from_json(obj: Mapping[str, Any]) -> State:
    """The state of :func:`state_to_json`; InvalidOptions names what is malformed."""
    try:
        players = tuple(
            Player(
                wealth=int(p["wealth"]),
                military=int(p["military"]),
                tracker=_ints(p["tracker"]),
                hand=_ints(p["hand"]),
                discard=_ints(p["discard"]),
            )
            for p in obj["players"]
        )
        b = obj["battle"]
        r = obj["last"]
        names = tuple(str(n) for n in obj["names"])
        if len(players) != 2 or len(names) != 2 or obj["phase"] not in PHASES:
            raise TypeError("two players and a known phase")
        return State(
            setup=str(obj["setup"]),
            names=(names[0], names[1]),
            layout=_ints(obj["layout"]),
            ladder=_ints(obj["ladder"]),
            players=(players[0], players[1]),
            phase=obj["phase"],
            active=int(obj["active"]),
            turn=int(obj["turn"]),
            actions_left=int(obj["actions_left"]),
            fresh=_ints(obj["fresh"]),
            battle=None if b is None else Pending(int(b["attacker"]), int(b["place"])),
            last=None
            if r is None
            else Report(
                attacker=int(r["attacker"]),
                place=int(r["place"]),
                territory=int(r["territory"]),
                parts=(str(r["parts"][0]), str(r["parts"][1])),
                attack=_pair(r["attack"]),
                defence=_pair(r["defence"]),
                damage=_pair(r["damage"]),
                casualties=_pair(r["casualties"]),
                earned=_pair(r["earned"]),
                level=int(r["level"]),
                steps=int(r["steps"]),
                before=int(r["before"]),
                after=int(r["after"]),
            ),
            winner=None if obj["winner"] is None else int(obj["winner"]),
            fought=int(obj.get("fought", 0)),
            edition=int(obj.get("edition", 1)),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise InvalidOptions("state.malformed", f"not a To Reign Supreme state: {exc}") from None
