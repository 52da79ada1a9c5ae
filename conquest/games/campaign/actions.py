"""Short Campaign actions: small frozen values and their short canonical texts.

Why so short: the whole game travels in a link, and chat apps cut links at about 2,000
characters. Territories are map indices, seats are 0-2, questions are their ids. The log
shown to people comes from :meth:`CampaignGame.describe_action`, which spells it all out.

==============================  ====================================  ==========================================
text                            value                                 meaning
==============================  ====================================  ==========================================
``B3.9.12``                     ``Bases((3, 9, 12))``                 S1 chance: seat 0's, 1's and 2's Base
``Qk3f9a2`` / ``Qp12``          ``Draw("k3f9a2")``                    chance: the question drawn (bank id / pack)
``O201``                        ``Order((2, 0, 1))``                  S4 chance: the attack order of a battle round
``a1500@4200,1480@5100,-``      ``Answers(((1500, 4200), ...))``      the reveal: every asked seat's answer
``aC@3200,-``                   ``Answers((("C", 3200), None))``      ... for a multiple-choice question
``p7``                          ``Pick(7)``                           S3 take free territory 7
``t7``                          ``Attack(7)``                         S4 attack territory 7
==============================  ====================================  ==========================================

An answer part is ``<answer>@<milliseconds>``, or ``-`` for a seat that did not answer in
time. Parts come in the order of the asked seats (ascending seat numbers). A guess is a
whole number, a multiple-choice answer the option's letter ``A``-``D``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from conquest.core import InvalidAction, excerpt

__all__ = [
    "Action",
    "Answers",
    "Attack",
    "Bases",
    "Draw",
    "Order",
    "Part",
    "Pick",
    "parse_action",
]

#: one seat's answer: (whole number or option letter, milliseconds); None = no answer
Part = tuple[int | str, int] | None

MAX_TERRITORY = 999
MAX_MS = 9_999_999


@dataclass(frozen=True)
class Bases:
    ts: tuple[int, ...]

    def __str__(self) -> str:
        return "B" + ".".join(map(str, self.ts))


@dataclass(frozen=True)
class Draw:
    qid: str

    def __str__(self) -> str:
        return "Q" + self.qid


@dataclass(frozen=True)
class Order:
    seats: tuple[int, ...]

    def __str__(self) -> str:
        return "O" + "".join(map(str, self.seats))


def format_part(part: Part) -> str:
    if part is None:
        return "-"
    answer, ms = part
    return f"{answer}@{ms}"


@dataclass(frozen=True)
class Answers:
    parts: tuple[Part, ...]

    def __str__(self) -> str:
        return "a" + ",".join(format_part(p) for p in self.parts)


@dataclass(frozen=True)
class Pick:
    t: int

    def __str__(self) -> str:
        return f"p{self.t}"


@dataclass(frozen=True)
class Attack:
    t: int

    def __str__(self) -> str:
        return f"t{self.t}"


Action = Bases | Draw | Order | Answers | Pick | Attack

_NUM = r"(?:0|[1-9][0-9]{0,2})"
_RE_BASES = re.compile(rf"B({_NUM}(?:\.{_NUM}){{0,7}})")
_RE_DRAW = re.compile(r"Q([a-z0-9]{6}|p[1-9][0-9]{0,2})")
_RE_ORDER = re.compile(r"O([0-9]{1,8})")
_RE_PART = re.compile(r"(?:([A-D])|(0|[1-9][0-9]{0,12}))@(0|[1-9][0-9]{0,6})")
_RE_ONE = {"p": re.compile(rf"p({_NUM})"), "t": re.compile(rf"t({_NUM})")}


def parse_part(text: str) -> Part:
    """One answer part: ``1500@4200``, ``C@3200`` or ``-``."""
    if text == "-":
        return None
    m = _RE_PART.fullmatch(text)
    if not m:
        raise InvalidAction(
            "action.answer",
            f"{excerpt(text, 30)} is not an answer: write <number>@<milliseconds>, <letter A-D>@<milliseconds> or -",
        )
    return (m[1] if m[1] else int(m[2]), int(m[3]))


def parse_action(text: str) -> Action:
    """The action for a canonical text; InvalidAction if it is malformed."""
    if not isinstance(text, str):
        raise InvalidAction("action.type", "an action must be text")
    s = text.strip()
    if m := _RE_ONE["p"].fullmatch(s):
        return Pick(int(m[1]))
    if m := _RE_ONE["t"].fullmatch(s):
        return Attack(int(m[1]))
    if s.startswith("a") and 1 < len(s) <= 200:
        return Answers(tuple(parse_part(p) for p in s[1:].split(",")))
    if m := _RE_DRAW.fullmatch(s):
        return Draw(m[1])
    if m := _RE_BASES.fullmatch(s):
        return Bases(tuple(int(v) for v in m[1].split(".")))
    if m := _RE_ORDER.fullmatch(s):
        return Order(tuple(int(c) for c in m[1]))
    raise InvalidAction("action.syntax", f"{excerpt(text, 40)} is not a Short Campaign action")
