"""To Reign Supreme's actions: small frozen values and their short canonical texts.

Why so short: a whole game travels in a link that chat apps cut at about 2,000 characters.
Territories are written by their one-letter code (lower case, from the data file: ``m`` is
the Iron Mine), strategy cards by theirs (upper case: ``A``), purchases by kind code and
count (``m1a1``: one Mercenary, one Apothecary). The log shown to people uses
``ReignGame.describe_action``, which spells everything out.

=================  =====================  =================================================
text               value                  meaning
=================  =====================  =================================================
``Lwmscah2``       ``Deal``               chance: the shuffled layout, one code per place,
                                         and the values' edition (none written: 1)
``tAB/CD``         ``Setup``              both players' tracker cards, revealed together
``bm``             ``Battle("m")``        declare a battle over the Iron Mine
``p``              ``Fight()``            the defender goes into the battle as they stand
``Am1a1/Bm1b1``    ``Reveal``             both battle choices, revealed together (R10)
``rm``             ``Reform("m")``        Reform the Iron Mine (R5)
``dm``             ``Develop("m")``       Develop the Iron Mine (R5)
``Rwmscah``        ``Reallocate``         Reallocate: the new layout, one code per place
``+2`` / ``-1``    ``Recruit`` / ``Disband``  gain / lose that much Military (R5)
``o``              ``Recover()``          Recover (R5)
``wAC``            ``WarCouncil("AC")``   take back discarded cards A and C
``xBD``            ``Restructure("BD")``  B and D become the tracker cards (no action)
``e``              ``EndTurn()``          end the turn
=================  =====================  =================================================

Parts of a secret step (``Part``, ``Pick``) are values too: ``secret_choices`` lists them
and ``join_secret`` puts one per seat into a ``Reveal`` / ``Setup``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from conquest.core import InvalidAction, excerpt
from conquest.games.reign.data import Rules

__all__ = [
    "Deal",
    "Pick",
    "Setup",
    "Battle",
    "Fight",
    "Part",
    "Reveal",
    "Reform",
    "Develop",
    "Reallocate",
    "Recruit",
    "Disband",
    "Recover",
    "WarCouncil",
    "Restructure",
    "EndTurn",
    "Action",
    "ActionCodec",
]


@dataclass(frozen=True)
class Deal:
    """The chance step of set-up: territory codes at places 0..5 (row by row, R1), and the
    edition of the values the cards are dealt with (R5, R9): written after the layout from
    edition 2 on (``Lwmscah2``), so a log of edition 1 (``Lwmscah``) replays as it was played."""

    layout: str
    edition: int = 1

    def __str__(self) -> str:
        return "L" + self.layout + ("" if self.edition == 1 else str(self.edition))


@dataclass(frozen=True)
class Pick:
    """One seat's secret set-up part: the two strategy cards laid on the tracker."""

    cards: str  # two card codes, sorted

    def __str__(self) -> str:
        return self.cards


@dataclass(frozen=True)
class Setup:
    picks: tuple[Pick, Pick]

    def __str__(self) -> str:
        return f"t{self.picks[0]}/{self.picks[1]}"


@dataclass(frozen=True)
class Battle:
    t: str

    def __str__(self) -> str:
        return "b" + self.t


@dataclass(frozen=True)
class Fight:
    """The defender declines to Restructure before the battle."""

    def __str__(self) -> str:
        return "p"


@dataclass(frozen=True)
class Part:
    """One seat's secret battle part: a strategy card and purchases (R6).

    ``buys`` is the canonical purchase text, kinds in data order, counts 1..max, e.g.
    ``"m1a1"``; empty for none.
    """

    card: str
    buys: str = ""

    def __str__(self) -> str:
        return self.card + self.buys


@dataclass(frozen=True)
class Reveal:
    """Both battle parts, seat 0 first: the one logged step of a battle's secret choice."""

    parts: tuple[Part, Part]

    def __str__(self) -> str:
        return f"{self.parts[0]}/{self.parts[1]}"


@dataclass(frozen=True)
class Reform:
    t: str

    def __str__(self) -> str:
        return "r" + self.t


@dataclass(frozen=True)
class Develop:
    t: str

    def __str__(self) -> str:
        return "d" + self.t


@dataclass(frozen=True)
class Reallocate:
    layout: str

    def __str__(self) -> str:
        return "R" + self.layout


@dataclass(frozen=True)
class Recruit:
    n: int

    def __str__(self) -> str:
        return f"+{self.n}"


@dataclass(frozen=True)
class Disband:
    n: int

    def __str__(self) -> str:
        return f"-{self.n}"


@dataclass(frozen=True)
class Recover:
    def __str__(self) -> str:
        return "o"


@dataclass(frozen=True)
class WarCouncil:
    cards: str  # sorted card codes

    def __str__(self) -> str:
        return "w" + self.cards


@dataclass(frozen=True)
class Restructure:
    tracker: str  # the two new tracker cards, sorted

    def __str__(self) -> str:
        return "x" + self.tracker


@dataclass(frozen=True)
class EndTurn:
    def __str__(self) -> str:
        return "e"


Action = (
    Deal
    | Setup
    | Battle
    | Fight
    | Reveal
    | Reform
    | Develop
    | Reallocate
    | Recruit
    | Disband
    | Recover
    | WarCouncil
    | Restructure
    | EndTurn
)

_MAX_TEXT = 40


class ActionCodec:
    """Parses action texts against one set of codes (the data file's), canonically.

    Why a class: the codes of cards, territories and purchases come from the data file, so
    the parser is built from :class:`Rules`. Parsing accepts purchases in any order and
    card sets unsorted, and returns the canonical value, whose ``str`` the log stores.
    """

    def __init__(self, rules: Rules, recruit_amounts: Sequence[int] = ()) -> None:
        """``recruit_amounts``: the Recruit amounts of every edition of the values besides
        ``rules``' own (R5). Why: a log keeps its edition, so ``+1`` of an edition that
        allowed it must still parse; whether the game's edition allows it is the engine's
        question (refused as ``R5.amount``, citing R5). An amount no edition has is malformed."""
        self.rules = rules
        self.recruit_amounts = tuple(sorted(set(rules.recruit_amounts.values) | set(recruit_amounts)))
        self.card_codes = "".join(c.code for c in rules.cards)
        self.territory_codes = "".join(t.code for t in rules.territories)
        self.kind_codes = "".join(k.code for k in rules.kinds)
        t = re.escape(self.territory_codes)
        self._layout = re.compile(f"[{t}]{{6}}")
        self._part = re.compile(f"([{re.escape(self.card_codes)}])((?:[{re.escape(self.kind_codes)}][0-9])*)")

    # -- pieces -----------------------------------------------------------------------
    def layout(self, body: str, text: str) -> str:
        if not self._layout.fullmatch(body) or len(set(body)) != 6:
            raise InvalidAction(
                "action.layout",
                f"{excerpt(text)}: a layout names each of the six territories {self.territory_codes} once",
            )
        return body

    def cards(self, body: str, text: str, n: int | None = None) -> str:
        if not body or any(c not in self.card_codes for c in body) or len(set(body)) != len(body):
            raise InvalidAction(
                "action.cards", f"{excerpt(text)}: name strategy cards by their letters {self.card_codes}, each once"
            )
        if n is not None and len(body) != n:
            raise InvalidAction("action.cards", f"{excerpt(text)}: name exactly {n} strategy cards")
        return "".join(sorted(body, key=self.card_codes.index))

    def buys(self, counts: tuple[int, ...]) -> str:
        """The canonical purchase text of per-kind counts."""
        return "".join(f"{k}{n}" for k, n in zip(self.kind_codes, counts, strict=True) if n)

    def counts(self, part: Part) -> tuple[int, ...]:
        """Per-kind counts of a part's purchases (its text is canonical)."""
        out = [0] * len(self.kind_codes)
        s = part.buys
        for i in range(0, len(s), 2):
            out[self.kind_codes.index(s[i])] = int(s[i + 1])
        return tuple(out)

    def part(self, body: str, text: str) -> Part:
        m = self._part.fullmatch(body)
        if not m:
            raise InvalidAction(
                "action.part",
                f"{excerpt(text)}: a battle choice is a card letter ({self.card_codes}) and purchases such as m1a2 "
                f"(kinds {self.kind_codes})",
            )
        counts = [0] * len(self.kind_codes)
        seen = set()
        s = m[2]
        for i in range(0, len(s), 2):
            k, n = s[i], int(s[i + 1])
            if k in seen:
                raise InvalidAction("action.part", f"{excerpt(text)} names the purchase {excerpt(k)} twice")
            seen.add(k)
            if not 1 <= n <= self.rules.max_each:
                raise InvalidAction(
                    "action.purchases",
                    f"{excerpt(text)}: R6: at most {self.rules.max_each} of each kind per battle, at least 1 when named",
                )
            counts[self.kind_codes.index(k)] = n
        if sum(counts) > self.rules.max_total:
            raise InvalidAction(
                "action.purchases", f"{excerpt(text)}: R6: at most {self.rules.max_total} purchases in all per battle"
            )
        return Part(m[1], self.buys(tuple(counts)))

    # -- whole actions ------------------------------------------------------------------
    def parse(self, text: object) -> Action:
        """The action for a text; InvalidAction (code ``action.*``) if it is malformed."""
        if not isinstance(text, str):
            raise InvalidAction("action.type", "an action must be text")
        s = text.strip()
        if not s or len(s) > _MAX_TEXT:
            raise InvalidAction("action.syntax", f"{excerpt(text[:_MAX_TEXT])} is not a To Reign Supreme action")
        head, body = s[0], s[1:]
        if s == "p":
            return Fight()
        if s == "o":
            return Recover()
        if s == "e":
            return EndTurn()
        if head in "+-" and body.isdigit() and body == str(int(body)):
            n = int(body)
            if head == "+":
                if n not in self.recruit_amounts:
                    raise InvalidAction(
                        "action.amount", f"{excerpt(s)}: R5: Recruit {self.rules.recruit_amounts.words()} at a time"
                    )
                return Recruit(n)
            limit = self.rules.disband_max.value
            if not 1 <= n <= limit:
                raise InvalidAction("action.amount", f"{excerpt(s)}: R5: Disband 1 to {limit} at a time")
            return Disband(n)
        if head in "brd" and len(body) == 1 and body in self.territory_codes:
            return {"b": Battle, "r": Reform, "d": Develop}[head](body)
        if head == "L":
            m = re.fullmatch(r"(.{6})([2-9]|[1-9][0-9])?", body)
            if m is None:
                raise InvalidAction(
                    "action.layout",
                    f"{excerpt(s)}: a deal names each of the six territories {self.territory_codes} once, "
                    "then the edition of the values from 2 on",
                )
            return Deal(self.layout(m.group(1), s), int(m.group(2) or 1))
        if head == "R":
            return Reallocate(self.layout(body, s))
        if head == "w":
            return WarCouncil(self.cards(body, s))
        if head == "x":
            return Restructure(self.cards(body, s, 2))
        if head == "t" and "/" in body:
            a, _, b = body.partition("/")
            return Setup((Pick(self.cards(a, s, 2)), Pick(self.cards(b, s, 2))))
        if "/" in s:
            a, _, b = s.partition("/")
            return Reveal((self.part(a, s), self.part(b, s)))
        raise InvalidAction("action.syntax", f"{excerpt(text[:_MAX_TEXT])} is not a To Reign Supreme action")
