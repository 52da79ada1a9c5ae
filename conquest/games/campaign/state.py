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

from dataclasses import dataclass

from conquest.games.campaign.actions import Part

__all__ = ["FREE", "PHASES", "PURPOSES", "Reveal", "State"]

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
    used: tuple[str, ...] = ()
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
