"""World Conquest actions: small frozen values with compact canonical texts.

Why so terse: a game travels in a link, and a game of World Conquest is thousands of steps
(every dice roll is one, W9). Territories are written by their map index (0 Alaska ... 41
Eastern Australia), seats by number. Upper-case texts are chance results, drawn by the
driver and logged (W9); lower-case texts are players' choices. The log shown to people uses
``WorldGame.describe_action``, which spells everything out.

==============  ===========================  ======================================================
text            value                        meaning
==============  ===========================  ======================================================
``O201``        ``Order((2, 0, 1))``         W2 chance: seat order drawn (seat 2 plays first)
``D0120...``    ``Deal((0, 1, 2, ...))``     W3 chance: the random deal, the owner of each territory
``p12``         ``Place(12)``                W3/W4 place one troop on territory 12
``p12x5``       ``Place(12, 5)``             W4 place 5 reinforcements on 12 (one batch)
``tiii``        ``Trade("iii")``             W5 trade three infantry (``ccc``, ``aaa``; ``ica`` one of each)
``a0-29x3``     ``Attack(0, 29, 3, 3)``      W6 one roll from 0 into 29 with 3 dice, moving 3 in
``a0-29x3m7``   ``Attack(0, 29, 3, 7)``      W6 the same, stating 7 troops to move in on a conquest
``b0-29``       ``Blitz(0, 29)``             W6 attack until done: roll until won or 1 troop left
``b0-29u4``     ``Blitz(0, 29, 4)``          W6 attack until 4 troops are left in territory 0
``d1``          ``Defend(1)``                W6 the defender's choice of dice (option ``defender_choice``)
``R641-54``     ``Roll((6,4,1), (5,4))``     W9 chance: the dice, each side sorted high to low
``f3-4x5``      ``Fortify(3, 4, 5)``         W8 move 5 troops from 3 to 4; ends the turn
``e``           ``EndTurn()``                end the turn without fortifying
``Ci``          ``Draw("i")``                W5 chance: the card drawn (``Cc`` cavalry, ``Ca`` artillery)
==============  ===========================  ======================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from conquest.core import InvalidAction, excerpt

from .rules import CARD_KINDS, RULES

__all__ = [
    "Action",
    "Attack",
    "Blitz",
    "Deal",
    "Defend",
    "Draw",
    "EndTurn",
    "Fortify",
    "Order",
    "Place",
    "Roll",
    "Trade",
    "SETS",
    "parse_action",
]

#: the sets of W5 in canonical spelling: three alike, or one of each
SETS = ("iii", "ccc", "aaa", "ica")


@dataclass(frozen=True)
class Order:
    """W2: the seats in turn order (a permutation of 0..n-1)."""

    seats: tuple[int, ...]

    def __str__(self) -> str:
        return "O" + "".join(map(str, self.seats))


@dataclass(frozen=True)
class Deal:
    """W3 random deal: the seat owning each territory, in map order."""

    owners: tuple[int, ...]

    def __str__(self) -> str:
        return "D" + "".join(map(str, self.owners))


@dataclass(frozen=True)
class Place:
    t: int
    n: int = 1

    def __str__(self) -> str:
        return f"p{self.t}" if self.n == 1 else f"p{self.t}x{self.n}"


@dataclass(frozen=True)
class Trade:
    """``cards`` is one of :data:`SETS`."""

    cards: str

    def __str__(self) -> str:
        return "t" + self.cards


@dataclass(frozen=True)
class Attack:
    """One roll (W6): ``dice`` rolled, ``move`` troops move in if it takes the territory."""

    src: int
    dst: int
    dice: int
    move: int

    def __str__(self) -> str:
        tail = "" if self.move == self.dice else f"m{self.move}"
        return f"a{self.src}-{self.dst}x{self.dice}{tail}"


@dataclass(frozen=True)
class Blitz:
    """Attack until done (W6): roll with the most dice the source allows without ever
    falling below ``until`` troops; stop when won or when no die is left. On a conquest all
    troops but ``until`` move in (never fewer than the dice of the winning roll)."""

    src: int
    dst: int
    until: int = 1

    def __str__(self) -> str:
        return f"b{self.src}-{self.dst}" + ("" if self.until == 1 else f"u{self.until}")


@dataclass(frozen=True)
class Defend:
    dice: int

    def __str__(self) -> str:
        return f"d{self.dice}"


@dataclass(frozen=True)
class Roll:
    """W9: the faces, each side sorted high to low (the order they are compared in)."""

    attack: tuple[int, ...]
    defend: tuple[int, ...]

    def __str__(self) -> str:
        return "R" + "".join(map(str, self.attack)) + "-" + "".join(map(str, self.defend))


@dataclass(frozen=True)
class Fortify:
    src: int
    dst: int
    n: int

    def __str__(self) -> str:
        return f"f{self.src}-{self.dst}" + ("" if self.n == 1 else f"x{self.n}")


@dataclass(frozen=True)
class EndTurn:
    def __str__(self) -> str:
        return "e"


@dataclass(frozen=True)
class Draw:
    """W5: the kind of the card drawn (``i``, ``c`` or ``a``)."""

    kind: str

    def __str__(self) -> str:
        return "C" + self.kind


Action = Order | Deal | Place | Trade | Attack | Blitz | Defend | Roll | Fortify | EndTurn | Draw

_N = r"(0|[1-9][0-9]{0,3})"
_RE_PLACE = re.compile(rf"p{_N}(?:x{_N})?")
_RE_ATTACK = re.compile(rf"a{_N}-{_N}x{_N}(?:m{_N})?")
_RE_BLITZ = re.compile(rf"b{_N}-{_N}(?:u{_N})?")
_RE_FORTIFY = re.compile(rf"f{_N}-{_N}(?:x{_N})?")
_RE_ROLL = re.compile(r"R([1-9]{1,9})-([1-9]{1,9})")
_RE_DIGITS = re.compile(r"[0-9]{1,64}")


def parse_action(text: str) -> Action:
    """The action for a text; InvalidAction (code ``action.syntax``) when it is malformed.

    Lenient where it costs nothing: dice in any order, a set's kinds in any order, ``x1``.
    The canonical text (``str``) is what the log keeps.
    """
    if not isinstance(text, str):
        raise InvalidAction("action.type", "an action must be text")
    s = text.strip()
    if not s or len(s) > 80:
        raise InvalidAction("action.syntax", f"{excerpt(text[:40])} is not a World Conquest action")
    head = s[0]
    if s == "e":
        return EndTurn()
    if head == "p" and (m := _RE_PLACE.fullmatch(s)):
        return Place(int(m[1]), int(m[2]) if m[2] else 1)
    if head == "R" and (m := _RE_ROLL.fullmatch(s)):
        if max(map(int, m[1] + m[2])) > RULES.sides:
            raise InvalidAction("action.faces", f"{excerpt(s)}: W9: dice show 1 to {RULES.sides}")
        return Roll(
            tuple(sorted(map(int, m[1]), reverse=True)), tuple(sorted(map(int, m[2]), reverse=True))
        )
    if head == "a" and (m := _RE_ATTACK.fullmatch(s)):
        dice = int(m[3])
        return Attack(int(m[1]), int(m[2]), dice, int(m[4]) if m[4] else dice)
    if head == "b" and (m := _RE_BLITZ.fullmatch(s)):
        return Blitz(int(m[1]), int(m[2]), int(m[3]) if m[3] else 1)
    if head == "f" and (m := _RE_FORTIFY.fullmatch(s)):
        return Fortify(int(m[1]), int(m[2]), int(m[3]) if m[3] else 1)
    if head == "t" and len(s) == 4 and all(ch in CARD_KINDS for ch in s[1:]):
        cards = "".join(sorted(s[1:], key=CARD_KINDS.index))
        if cards in SETS:
            return Trade(cards)
        raise InvalidAction(
            "action.set", f"{excerpt(s)}: W5: a set is three alike or one of each kind (i, c, a)"
        )
    if head == "d" and s in ("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9"):
        return Defend(int(s[1]))
    if head == "C" and len(s) == 2 and s[1] in CARD_KINDS:
        return Draw(s[1])
    if head == "O" and _RE_DIGITS.fullmatch(s[1:]):
        seats = tuple(map(int, s[1:]))
        if sorted(seats) != list(range(len(seats))):
            raise InvalidAction("action.order", f"{excerpt(s)}: a seat order names every seat once")
        return Order(seats)
    if head == "D" and _RE_DIGITS.fullmatch(s[1:]):
        return Deal(tuple(map(int, s[1:])))
    raise InvalidAction("action.syntax", f"{excerpt(text[:40])} is not a World Conquest action")
