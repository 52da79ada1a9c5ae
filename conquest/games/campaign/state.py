"""Short Campaign's state: plain frozen data, one phase at a time.

Why phases as data: the page, the bots and the tests all ask "what happens now?", and the
answer is ``State.phase`` plus a few numbers. Territories are map indices; owners are
seats 0-2, ``-1`` meaning free. The game's options travel as one canonical JSON string
(``opts``), so states compare and serialise cheaply while the map and the question pool
are looked up from it (cached).

Phases:

=========  ================================================================================
``bases``  chance (S1): the three Bases are drawn
``draw``   chance: a question is drawn for ``purpose`` (``expand``, ``battle``,
           ``tiebreak``, ``final``)
``answer`` simultaneous secret step: the seats in ``asked`` answer ``question``
``pick``   S3: ``picks[0]`` takes a free territory
``order``  chance (S4): the attack order of battle round ``battle_round``
``attack`` S4: ``order[turn]`` chooses a target
``over``   the end (S7)
=========  ================================================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from conquest.games.campaign.actions import Part

__all__ = ["FREE", "PHASES", "PURPOSES", "Reveal", "State", "Used"]

FREE = -1
PHASES = ("bases", "draw", "answer", "pick", "order", "attack", "over")
PURPOSES = ("expand", "battle", "tiebreak", "final")


@dataclass(frozen=True)
class Reveal:
    """The last answered question, made public: who answered what, and what came of it.

    ``ranking`` lists the seats that answered, best first (closest, then fastest; for a
    multiple-choice question: right answers first, each group fastest first). ``result``
    says what the answers decided (a code the view and the log turn into words):
    ``expand``, ``none`` (nobody answered), ``attacker``, ``defender``, ``defender-bonus``,
    ``both-right`` (a guess question follows), ``final``, ``again`` (a final tie-break
    without a winner; another question follows).
    """

    qid: str
    purpose: str
    asked: tuple[int, ...]
    parts: tuple[Part, ...]
    ranking: tuple[int, ...]
    result: str


class _Line:
    """The drawn question ids of one line of play, shared by every state along it.

    ``ids`` only ever grows; ``first`` maps an id to the index where it was first drawn;
    ``counts[s][i]`` is how many distinct ids of the set ``s`` are among ``ids[:i]`` (kept
    for the pool's sets, extended as needed).
    """

    __slots__ = ("counts", "first", "ids")

    def __init__(self, ids: Iterable[str] = ()) -> None:
        self.ids: list[str] = []
        self.first: dict[str, int] = {}
        #: by the set's id (equal sets of different pools would be compared whole on a look-up)
        self.counts: dict[int, tuple[frozenset[str], list[int]]] = {}
        for qid in ids:
            self.append(qid)

    def count(self, ids: frozenset[str], n: int) -> int:
        prefix = self.counts.setdefault(id(ids), (ids, [0]))[1]
        for i in range(len(prefix) - 1, n):
            qid = self.ids[i]
            prefix.append(prefix[-1] + (qid in ids and self.first[qid] == i))
        return prefix[n]

    def append(self, qid: str) -> None:
        self.first.setdefault(qid, len(self.ids))
        self.ids.append(qid)


class Used:
    """The questions asked so far, in order (repeats included): an immutable sequence.

    Why not a tuple: a game where nobody ever answers draws question after question (S8, a
    legal game), and a tuple copied at each draw made replay cost grow with the square of
    the steps (issue 20, item 4: 20,000 steps took 10 s and 418 MB). Every state along one
    line of play shares one :class:`_Line`; a state is its first ``n`` ids. Adding to the
    line's last state appends in place; adding to an earlier one (after an undo, a bot's
    look-ahead) copies its ids into a new line once. Membership is a dict look-up, so a
    draw costs the same at step 20 and at step 20,000. Compares equal to the tuple of its ids.
    """

    __slots__ = ("_line", "_n")

    def __init__(self, ids: Iterable[str] = ()) -> None:
        self._line = _Line(ids)
        self._n = len(self._line.ids)

    @classmethod
    def _at(cls, line: _Line, n: int) -> Used:
        out = cls.__new__(cls)
        out._line, out._n = line, n
        return out

    def plus(self, qid: str) -> Used:
        """These ids and then ``qid`` (amortised constant time, see the class docstring)."""
        line = self._line
        if not self._n or len(line.ids) != self._n:  # a new game, or a branch: not the line's last
            line = _Line(line.ids[: self._n])
        line.append(qid)
        return Used._at(line, self._n + 1)

    def __contains__(self, qid: object) -> bool:
        at = self._line.first.get(qid) if isinstance(qid, str) else None
        return at is not None and at < self._n

    def count_in(self, ids: frozenset[str]) -> int:
        """How many distinct ids of ``ids`` were asked (amortised constant time per draw)."""
        return self._line.count(ids, self._n)

    def as_set(self) -> set[str]:
        """The asked ids as a set, built in C loops: for scanning a whole pool at a live draw."""
        line = self._line
        return set(line.first) if len(line.ids) == self._n else set(line.ids[: self._n])

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[str]:
        return iter(self._line.ids[: self._n])

    def __getitem__(self, i: Any) -> Any:
        return tuple(self)[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Used):
            return self._n == other._n and (self._line is other._line or tuple(self) == tuple(other))
        if isinstance(other, (tuple, list)):
            return len(other) == self._n and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Used({tuple(self)!r})"


@dataclass(frozen=True)
class State:
    opts: str
    phase: str
    owner: tuple[int, ...]
    value: tuple[int, ...]
    points: tuple[int, ...]
    base: tuple[int, ...]
    towers: tuple[int, ...]
    alive: tuple[bool, ...]
    #: the questions asked so far (a shared, immutable sequence: see :class:`Used`)
    used: Used = Used()
    purpose: str = ""
    question: str = ""
    asked: tuple[int, ...] = ()
    picks: tuple[int, ...] = ()
    expansion_round: int = 0
    battle_round: int = 0
    order: tuple[int, ...] = ()
    turn: int = 0
    target: int = FREE
    defender: int = FREE
    #: battles fought so far in the current attack (a siege of a Base has several, S6)
    fights: int = 0
    reveal: Reveal | None = None
    #: the winner once the game is over (S7)
    winner: int = FREE

    def __post_init__(self) -> None:
        if not isinstance(self.used, Used):  # a tuple or list (tests, older callers)
            object.__setattr__(self, "used", Used(self.used))

    @property
    def attacker(self) -> int:
        """The seat attacking now (battle phases only), else FREE."""
        if self.battle_round and self.order and 0 <= self.turn < len(self.order):
            return self.order[self.turn]
        return FREE

    def territories(self, seat: int) -> list[int]:
        return [t for t, o in enumerate(self.owner) if o == seat]

    def counts(self) -> tuple[int, ...]:
        return tuple(sum(1 for o in self.owner if o == s) for s in range(len(self.points)))
