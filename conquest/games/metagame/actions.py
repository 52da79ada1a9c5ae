"""Metagame actions: small frozen values and their compact canonical texts.

Why so terse: a whole campaign travels in a link that chat apps cut at about 2,000
characters, so territories are written by their map index (``c37``), players by seat
number, games by their position in the session's list. The log shown to people uses
:meth:`MetagameGame.describe_action`, which spells everything out.

=================  ===============================  ===========================================
text               value                            meaning
=================  ===============================  ===========================================
``k37``            ``PickCapital(37)``              M4 pick territory 37 as capital
``k37!``           ``PickCapital(37, True)``        M4 host override (only when none qualifies)
``c37``            ``Claim(37)``                    M5 claim a neutral territory
``i37``            ``Invade(37)``                   M5 invade another player's territory
``p``              ``Pass()``                       M5 pass
``s3.40``/``s-``   ``Sacrifice((3, 40))``           M7 attacker's sacrifice (or none)
``b8.9``/``b-``    ``Block((8, 9))``                M8 defender's block (or none)
``w5,,3``          ``Slices(((0, 5), (2, 3)))``     M9 slices of the side assigning now
``spin``           ``Spin()``                       M10 the host presses spin
``r17 5,3,,16``    ``SpinResult(17, layout)``       M10 drawn slice 17 (0-based) and the wheel
``x12``/``x-``     ``Respin(12)``                   M11 re-spin spending territory 12 (or not)
``da``/``dd``      ``Duel("a")``                    M12 duel won by attacker / defender (entered by hand)
``da:conquests:…`` ``Duel("a", record)``            M12 a duel played here, carried whole and replayed (``da:conquests@live:…``: at a live table)
``g12``            ``Gift(12)``                     M14 the losing attacker's gift
``!o37=2``         ``SetOwner(37, 2)``              M17 owner correction (``=-`` neutral)
``!k2=37``         ``SetCapital(2, 37)``            M17 capital correction (``=-`` none)
``!t2b=3``         ``SetTokens(2, "b", 3)``         M17 tokens correction (``b`` block, ``r`` re-spin)
``!end``           ``Agree()``                      M16 the host records a mutual agreement
``c37@p``          ``Claim(37, by="p")``            M3 a player's choice made on their own device
``c37@h``          ``Claim(37, by="h")``            M3 made by the host for a seat on its own device
=================  ===============================  ===========================================
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from conquest.core import InvalidAction, excerpt
from conquest.savecode import load_json

__all__ = [
    "PickCapital",
    "Claim",
    "Invade",
    "Pass",
    "Sacrifice",
    "Block",
    "Slices",
    "Spin",
    "SpinResult",
    "Respin",
    "Duel",
    "Gift",
    "SetOwner",
    "SetCapital",
    "SetTokens",
    "Agree",
    "BY",
    "CHOICES",
    "DuelRecord",
    "format_record",
    "parse_record",
    "Action",
    "parse_action",
    "format_alloc",
    "quote",
]

#: the largest number accepted in any action text (territories, seats, slices, tokens)
MAX_NUMBER = 9999
#: the most characters of an action text a message quotes
QUOTE_CHARS = 60


def quote(text: object, limit: int = QUOTE_CHARS) -> str:
    """A short, escaped excerpt of ``text`` for messages (repr-quoted, at most ``limit`` characters).

    Why: refusals end up on pages and terminals; a 2,000-character action text, control
    characters or a right-to-left override from a crafted link must not travel with them.
    """
    return excerpt(text, limit)  # the one excerpt helper (conquest.core), under the metagame's limit


@dataclass(frozen=True)
class PickCapital:
    t: int
    override: bool = False

    by: str = field(default="", compare=False)  # who made it at a live table (M3): BY

    def __str__(self) -> str:
        return f"k{self.t}{'!' if self.override else ''}" + _by(self.by)


@dataclass(frozen=True)
class Claim:
    t: int

    by: str = field(default="", compare=False)  # who made it at a live table (M3): BY

    def __str__(self) -> str:
        return f"c{self.t}" + _by(self.by)


@dataclass(frozen=True)
class Invade:
    t: int

    by: str = field(default="", compare=False)  # who made it at a live table (M3): BY

    def __str__(self) -> str:
        return f"i{self.t}" + _by(self.by)


@dataclass(frozen=True)
class Pass:
    by: str = field(default="", compare=False)  # who made it at a live table (M3): BY

    def __str__(self) -> str:
        return "p" + _by(self.by)


#: who made a player's choice at a live campaign table (M3), written after the choice as
#: ``@p`` or ``@h``; a choice without it was made at the host's console, as every choice was
#: before live tables (older logs read as they did). Equality ignores it (``compare=False``),
#: so a choice is the same move whoever made it.
BY = {"p": "on their own device", "h": "by the host for them (M3)"}
_BY_RE = re.compile(r"(.+)@([ph])")


def _by(by: str) -> str:
    return f"@{by}" if by else ""


def _fmt_set(prefix: str, ts: tuple[int, ...]) -> str:
    return prefix + (".".join(map(str, ts)) if ts else "-")


@dataclass(frozen=True)
class Sacrifice:
    """``ts`` sorted and distinct; empty means "no sacrifice"."""

    ts: tuple[int, ...] = ()

    by: str = field(default="", compare=False)  # who made it at a live table (M3): BY

    def __str__(self) -> str:
        return _fmt_set("s", self.ts) + _by(self.by)


@dataclass(frozen=True)
class Block:
    """``ts`` sorted and distinct; empty means "no block"."""

    ts: tuple[int, ...] = ()

    by: str = field(default="", compare=False)  # who made it at a live table (M3): BY

    def __str__(self) -> str:
        return _fmt_set("b", self.ts) + _by(self.by)


def format_alloc(alloc: tuple[tuple[int, int], ...]) -> str:
    """Slices per game by position in the game list: ``5,,3`` is game 0: 5, game 2: 3.

    Positional rather than ``game:count`` pairs because it is about half as long, and the
    invasions are most of a campaign's link.
    """
    counts = dict(alloc)
    last = max(counts) if counts else -1
    return ",".join(str(counts[g]) if g in counts else "" for g in range(last + 1))


@dataclass(frozen=True)
class Slices:
    """One side's whole assignment: ``(game index, slices)`` pairs sorted by game, all > 0."""

    alloc: tuple[tuple[int, int], ...]

    by: str = field(default="", compare=False)  # who made it at a live table (M3): BY

    def __str__(self) -> str:
        return "w" + format_alloc(self.alloc) + _by(self.by)


@dataclass(frozen=True)
class Spin:
    def __str__(self) -> str:
        return "spin"


@dataclass(frozen=True)
class SpinResult:
    """The drawn slice ``k`` (0-based) and the wheel's layout, for the log (M10).

    The wheel's size X is not written: it is the sum of the layout (this saves about 60
    characters in the link of a long campaign). The parser still reads the older
    ``r17/24 5,3,,16`` form when the ``/24`` agrees with the layout.
    """

    k: int
    layout: tuple[tuple[int, int], ...]

    @property
    def x(self) -> int:
        return sum(n for _, n in self.layout)

    def __str__(self) -> str:
        return f"r{self.k} {format_alloc(self.layout)}"


@dataclass(frozen=True)
class Respin:
    """``t`` is the territory spent; ``None`` declines the re-spin."""

    t: int | None

    by: str = field(default="", compare=False)  # who made it at a live table (M3): BY

    def __str__(self) -> str:
        return ("x-" if self.t is None else f"x{self.t}") + _by(self.by)


# -- a duel played here, as text (M12; the replay is in :mod:`.duelrecord`) ----------------
#: one log step of a link holds at most this many characters (conquest.savecode's
#: MAX_ACTION_CHARS); a longer duel is refused with a message, and the host enters the
#: winner by hand. A Game of Conquests duel of ~350 moves still fits.
MAX_RECORD_CHARS = 2_000
#: option keys that say who sits where (or name the save), never rules: rebuilt from the
#: campaign's players, so a record never repeats names or colours
SEAT_KEYS = frozenset({"seats", "players", "title", "seed"})
_ESC = {"%": "%25", ",": "%2C", ":": "%3A", ";": "%3B"}
_UNESC = {v: k for k, v in _ESC.items()}
_RECORD_RE = re.compile(
    r"d([ad]):([a-z][a-z0-9_-]{0,39})(?:@([a-z]{1,12}))?:([ad]):(0|[1-9][0-9]{0,18}):([^:]*):(.*)", re.S
)
#: how a duel was played, when not at the host's device (``@live`` after the game id; issue
#: 22). Optional, so every record written before it reads and replays exactly as it did; it
#: changes the words of the campaign's log, never the replay.
DUEL_HOWS = frozenset({"live"})


def _esc(text: str) -> str:
    return "".join(_ESC.get(ch, ch) for ch in text)


def _unesc(text: str, what: str) -> str:
    def sub(m: re.Match[str]) -> str:
        code = m[0].upper()
        if code not in _UNESC:
            raise InvalidAction(
                "action.duel-escape", f"M12: the duel record's {what} holds an unknown escape {m[0]!r}"
            )
        return _UNESC[code]

    if re.search(r"%(?![0-9A-Fa-f]{2})", text):
        raise InvalidAction("action.duel-escape", f"M12: the duel record's {what} holds a broken % escape")
    return re.sub(r"%[0-9A-Fa-f]{2}", sub, text)


@dataclass(frozen=True)
class DuelRecord:
    """A finished duel as data: enough to replay it exactly with its own engine."""

    game: str  # the duel game's registry id
    first: str  # "a": the attacker sat in the duel's first seat; "d": the defender did
    seed: int  # the duel's set-up seed (options["seed"] of its save)
    options: str  # rules options differing from the defaults, as compact sorted JSON ("" for none)
    log: tuple[str, ...]
    how: str = ""  # "": played on the host's device; "live": at a live table (DUEL_HOWS)

    def rules_options(self) -> dict[str, Any]:
        return json.loads(self.options) if self.options else {}


def format_record(winner: str, rec: DuelRecord) -> str:
    """The canonical log text of a duel decided by ``rec``."""
    steps = ",".join(_esc(x) for x in rec.log)
    how = f"@{rec.how}" if rec.how else ""
    return f"d{winner}:{rec.game}{how}:{rec.first}:{rec.seed}:{_esc(rec.options)}:{steps}"


def parse_record(text: str) -> tuple[str, DuelRecord]:
    """``(winner, record)`` from a log text; InvalidAction when malformed (never replays here)."""
    if len(text) > MAX_RECORD_CHARS:
        raise InvalidAction(
            "action.duel-long",
            f"M12: a duel record is at most {MAX_RECORD_CHARS:,} characters; this one has {len(text):,}",
        )
    m = _RECORD_RE.fullmatch(text)
    if m is None:
        raise InvalidAction(
            "action.duel-syntax", "M12: not a duel record (da:<game>[@live]:<a|d>:<seed>:<options>:<steps>)"
        )
    how = m[3] or ""
    if how and how not in DUEL_HOWS:
        raise InvalidAction(
            "action.duel-how", f"M12: a duel record says how it was played only as @live, not @{excerpt(how)}"
        )
    raw_opts = _unesc(m[6], "options")
    if raw_opts:
        try:  # the one bounded parser (issue 20, item 2): lists 991 deep gave a RecursionError
            opts = load_json(raw_opts, "duel record's options")
        except ValueError:
            raise InvalidAction(
                "action.duel-options", "M12: the duel record's options are not JSON (or nest too deeply)"
            ) from None
        if not isinstance(opts, dict) or not opts:
            raise InvalidAction(
                "action.duel-options", "M12: the duel record's options must be a non-empty object"
            )
        if SEAT_KEYS & set(opts):
            raise InvalidAction(
                "action.duel-options",
                "M12: the duel record's options may not name seats, players, a title or a seed",
            )
        raw_opts = json.dumps(opts, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    log = tuple(_unesc(x, "steps") for x in m[7].split(",")) if m[7] else ()
    if any(not x for x in log):
        raise InvalidAction("action.duel-steps", "M12: the duel record holds an empty step")
    return m[1], DuelRecord(m[2], m[4], int(m[5]), raw_opts, log, how)


@dataclass(frozen=True)
class Duel:
    """``winner`` is ``"a"`` (attacker) or ``"d"`` (defender).

    Without ``record`` the host typed the winner (a game played elsewhere, or an abandoned
    duel); with it, the duel was played here and ``apply`` replays it (:mod:`.duelrecord`).
    """

    winner: str
    record: DuelRecord | None = None

    @property
    def by_hand(self) -> bool:
        return self.record is None

    def __str__(self) -> str:
        return "d" + self.winner if self.record is None else format_record(self.winner, self.record)


@dataclass(frozen=True)
class Gift:
    t: int
    by: str = field(default="", compare=False)  # who made it at a live table (M3): BY

    def __str__(self) -> str:
        return f"g{self.t}" + _by(self.by)


@dataclass(frozen=True)
class SetOwner:
    t: int
    player: int | None

    def __str__(self) -> str:
        return f"!o{self.t}={'-' if self.player is None else self.player}"


@dataclass(frozen=True)
class SetCapital:
    player: int
    t: int | None

    def __str__(self) -> str:
        return f"!k{self.player}={'-' if self.t is None else self.t}"


@dataclass(frozen=True)
class SetTokens:
    player: int
    kind: str  # "b" block or "r" re-spin
    count: int

    def __str__(self) -> str:
        return f"!t{self.player}{self.kind}={self.count}"


@dataclass(frozen=True)
class Agree:
    def __str__(self) -> str:
        return "!end"


Action = (
    PickCapital
    | Claim
    | Invade
    | Pass
    | Sacrifice
    | Block
    | Slices
    | Spin
    | SpinResult
    | Respin
    | Duel
    | Gift
    | SetOwner
    | SetCapital
    | SetTokens
    | Agree
)

_NUM = r"(0|[1-9][0-9]{0,3})"
_ALLOC = r"[0-9]{0,4}(?:,[0-9]{0,4}){0,99}"
_RE = {
    "k": re.compile(rf"k{_NUM}(!?)"),
    "c": re.compile(rf"c{_NUM}"),
    "i": re.compile(rf"i{_NUM}"),
    "set": re.compile(rf"([sb])(-|{_NUM}(?:\.{_NUM})*)"),
    "w": re.compile(rf"w({_ALLOC})"),
    "r": re.compile(rf"r{_NUM}(?:/{_NUM})? ({_ALLOC})"),
    "x": re.compile(rf"x(-|{_NUM})"),
    "g": re.compile(rf"g{_NUM}"),
    "o": re.compile(rf"!o{_NUM}=(-|{_NUM})"),
    "kk": re.compile(rf"!k{_NUM}=(-|{_NUM})"),
    "t": re.compile(rf"!t{_NUM}([br])={_NUM}"),
}


def _alloc(text: str, what: str) -> tuple[tuple[int, int], ...]:
    pairs = []
    for g, part in enumerate(text.split(",")):
        if part == "":
            continue
        if part != str(int(part)):
            raise InvalidAction("action.alloc-number", f"{what}: write {quote(part)} as a plain number")
        if int(part) == 0:
            raise InvalidAction("action.alloc-zero", f"{what} gives a game 0 slices; leave its place empty")
        pairs.append((g, int(part)))
    if not pairs:
        raise InvalidAction("action.alloc-empty", f"{what} assigns no slices")
    return tuple(pairs)


#: the player's choices: what a seat's own device may send at a live table (M3)
CHOICES = (PickCapital, Claim, Invade, Pass, Sacrifice, Block, Slices, Respin, Gift)


def parse_action(text: str) -> Action:
    """The action for a canonical text (also accepts unsorted lists); InvalidAction if malformed."""
    if not isinstance(text, str):
        raise InvalidAction("action.type", "an action must be text")
    s = text.strip()
    if (m := _BY_RE.fullmatch(s)) and not s.startswith("d"):
        action = parse_action(m[1])
        if not isinstance(action, CHOICES) or action.by:
            raise InvalidAction("action.by", f"{quote(s)}: only a player's choice says who made it (M3)")
        return replace(action, by=m[2])
    if s == "p":
        return Pass()
    if s == "spin":
        return Spin()
    if s == "!end":
        return Agree()
    if s in ("da", "dd"):
        return Duel(s[1])
    if s.startswith(("da:", "dd:")):
        winner, record = parse_record(s)
        return Duel(winner, record)
    if m := _RE["k"].fullmatch(s):
        return PickCapital(int(m[1]), m[2] == "!")
    if m := _RE["c"].fullmatch(s):
        return Claim(int(m[1]))
    if m := _RE["i"].fullmatch(s):
        return Invade(int(m[1]))
    if m := _RE["g"].fullmatch(s):
        return Gift(int(m[1]))
    if m := _RE["set"].fullmatch(s):
        body = m[2]
        ts: tuple[int, ...] = () if body == "-" else tuple(sorted(int(v) for v in body.split(".")))
        if len(set(ts)) != len(ts):
            raise InvalidAction("action.repeat", f"{quote(s)} names a territory twice")
        return Sacrifice(ts) if m[1] == "s" else Block(ts)
    if m := _RE["w"].fullmatch(s):
        return Slices(_alloc(m[1], quote(s)))
    if m := _RE["r"].fullmatch(s):
        result = SpinResult(int(m[1]), _alloc(m[3], quote(s)))
        if m[2] is not None and int(m[2]) != result.x:
            raise InvalidAction(
                "action.spin-size", f"{quote(s)}: the wheel's slices add up to {result.x}, not {m[2]}"
            )
        return result
    if m := _RE["x"].fullmatch(s):
        return Respin(None if m[1] == "-" else int(m[1]))
    if m := _RE["o"].fullmatch(s):
        return SetOwner(int(m[1]), None if m[2] == "-" else int(m[2]))
    if m := _RE["kk"].fullmatch(s):
        return SetCapital(int(m[1]), None if m[2] == "-" else int(m[2]))
    if m := _RE["t"].fullmatch(s):
        return SetTokens(int(m[1]), m[2], int(m[3]))
    raise InvalidAction("action.syntax", f"{quote(text)} is not a metagame action")
