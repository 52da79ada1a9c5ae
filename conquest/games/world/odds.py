"""Exact dice odds for World Conquest: one roll, and whole battles by dynamic programming.

Why exact: players of Risk-likes ask for an odds calculator, and "the computer cheats"
is the first suspicion about any dice game, so the page shows true fractions, and the tests
check the engine's sampled dice against them. The numbers of dice and sides come from
``conquest/data/world.json`` (W6); with the defaults a roll is one of 6**5 = 7776 equally
likely outcomes.

- :func:`roll_counts` / :func:`roll_odds`: one roll, every pairing of attacker dice
  (1..3) against defender dice (1..2): how often each side loses 0, 1 or 2 troops. 3 vs 2:
  the defender loses 2 with 2890/7776, each loses 1 with 2611/7776, the attacker loses 2
  with 2275/7776.
- :func:`battle_odds`: a whole battle, "attack until done" or "attack until N left",
  exactly, with :class:`fractions.Fraction`: the chance of taking the territory, the
  distribution of the troops left on each side and the expected losses. The rule of each
  roll is the engine's (``Blitz``): the attacker rolls the most dice it may without ever
  going below N troops, ``min(3, a - 1, a - N)``, the defender the most it may,
  ``min(2, d)`` (W6: bots and the default choose the most). Computed by pushing the
  probability mass forward level by level (every roll removes at least one troop), with
  integer numerators over a power of 7776 so no fraction is reduced until the end:
  100 vs 100 takes a fraction of a second.
- :func:`win_chance` and :func:`battle_summary`: the same recursion in floats, tabulated
  once per "until", for the bots, which ask thousands of times per game.

"a" counts every troop in the attacking territory, including the one that must stay.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product
from typing import Any

from .rules import RULES

__all__ = [
    "SIDES",
    "ATTACK_MAX",
    "DEFEND_MAX",
    "UNIT",
    "PAIRINGS",
    "BattleOdds",
    "roll_counts",
    "roll_odds",
    "expected_units",
    "battle_odds",
    "win_chance",
    "battle_summary",
]

SIDES = RULES.sides
ATTACK_MAX = RULES.attack_max
DEFEND_MAX = RULES.defend_max
#: the number of equally likely outcomes of the largest roll; every pairing's total divides it
UNIT = SIDES ** (ATTACK_MAX + DEFEND_MAX)
#: every pairing of dice, attacker first
PAIRINGS = tuple((a, d) for a in range(1, ATTACK_MAX + 1) for d in range(1, DEFEND_MAX + 1))
#: the largest battle the exact calculator accepts (the page's input is bounded by this)
MAX_TROOPS = 1000


def _check_pairing(attack: int, defend: int) -> None:
    if not (1 <= attack <= ATTACK_MAX and 1 <= defend <= DEFEND_MAX):
        raise ValueError(f"W6: 1..{ATTACK_MAX} attacking dice against 1..{DEFEND_MAX}, not {attack} vs {defend}")


def compare(attack: tuple[int, ...], defend: tuple[int, ...]) -> tuple[int, int]:
    """W6: highest against highest, then second; a tie goes to the defender.

    Returns (attacker losses, defender losses). The faces may come in any order.
    """
    al = dl = 0
    for x, y in zip(sorted(attack, reverse=True), sorted(defend, reverse=True), strict=False):
        if x > y:
            dl += 1
        else:
            al += 1
    return al, dl


@cache
def roll_counts(attack: int, defend: int) -> tuple[tuple[tuple[int, int], int], ...]:
    """((attacker losses, defender losses), count) over all sides**(attack+defend) rolls.

    By enumeration of every face combination, so the table is correct by construction
    (7776 combinations for 3 vs 2). Sorted by attacker losses, so the defender's worst
    outcome comes first.
    """
    _check_pairing(attack, defend)
    counts: dict[tuple[int, int], int] = {}
    for faces in product(range(1, SIDES + 1), repeat=attack + defend):
        key = compare(faces[:attack], faces[attack:])
        counts[key] = counts.get(key, 0) + 1
    return tuple(sorted(counts.items()))


def roll_odds(attack: int, defend: int) -> dict[tuple[int, int], Fraction]:
    """One roll's outcomes as exact fractions: {(attacker losses, defender losses): p}."""
    total = SIDES ** (attack + defend)
    return {k: Fraction(c, total) for k, c in roll_counts(attack, defend)}


@cache
def _scaled(attack: int, defend: int) -> tuple[tuple[int, int, int], ...]:
    """(attacker losses, defender losses, count scaled to UNIT): one common denominator."""
    scale = UNIT // SIDES ** (attack + defend)
    return tuple((al, dl, c * scale) for (al, dl), c in roll_counts(attack, defend))


@cache
def expected_units(attack: int, defend: int) -> tuple[int, int]:
    """Expected (attacker losses, defender losses) of one roll, times :data:`UNIT` (exact ints).

    The engine's luck statistic adds (actual - expected) in these units.
    """
    ea = sum(al * c for al, _, c in _scaled(attack, defend))
    ed = sum(dl * c for _, dl, c in _scaled(attack, defend))
    return ea, ed


def repeat_dice(attackers: int, until: int = 1, dice: int = ATTACK_MAX) -> int:
    """The attacker's dice for the next roll of a repeated attack (0: the attack stops).

    W6: at most 3 and at most troops - 1; and never so many that the roll could leave fewer
    than ``until`` troops (a roll removes at most one troop per attacking die).
    """
    return max(0, min(dice, attackers - 1, attackers - until))


@dataclass(frozen=True)
class BattleOdds:
    """The exact result of attacking until done (``until`` 1) or until ``until`` troops are left.

    ``outcomes`` are the final (attacker troops, defender troops, probability), exact; the
    attacker troops are those in the attacking territory before anything moves in.
    """

    attackers: int
    defenders: int
    until: int
    dice: int
    outcomes: tuple[tuple[int, int, Fraction], ...]

    @property
    def win(self) -> Fraction:
        """The chance of taking the territory."""
        return sum((p for _, d, p in self.outcomes if d == 0), Fraction(0))

    @property
    def attacker_left(self) -> dict[int, Fraction]:
        """Troops left in the attacking territory (before moving in): their distribution."""
        out: dict[int, Fraction] = {}
        for a, _, p in self.outcomes:
            out[a] = out.get(a, Fraction(0)) + p
        return dict(sorted(out.items()))

    @property
    def defender_left(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for _, d, p in self.outcomes:
            out[d] = out.get(d, Fraction(0)) + p
        return dict(sorted(out.items()))

    @property
    def expected_attacker_losses(self) -> Fraction:
        return sum((p * (self.attackers - a) for a, _, p in self.outcomes), Fraction(0))

    @property
    def expected_defender_losses(self) -> Fraction:
        return sum((p * (self.defenders - d) for _, d, p in self.outcomes), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        """Floats for the page (exact values stay available in Python)."""
        return {
            "attackers": self.attackers,
            "defenders": self.defenders,
            "until": self.until,
            "win": float(self.win),
            "attacker_left": {str(k): float(v) for k, v in self.attacker_left.items()},
            "defender_left": {str(k): float(v) for k, v in self.defender_left.items()},
            "expected_attacker_losses": float(self.expected_attacker_losses),
            "expected_defender_losses": float(self.expected_defender_losses),
        }


@lru_cache(maxsize=256)
def battle_odds(attackers: int, defenders: int, until: int = 1, dice: int = ATTACK_MAX) -> BattleOdds:
    """Exact odds of a repeated attack from ``attackers`` troops into ``defenders``.

    ``until`` (>= 1): stop when no die may be rolled without risking going below that many
    troops; 1 is "attack until done". ``dice`` caps the attacker's dice per roll.
    """
    for what, v, low in (("attackers", attackers, 1), ("defenders", defenders, 1), ("until", until, 1)):
        if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= MAX_TROOPS:
            raise ValueError(f"{what} must be a whole number {low}..{MAX_TROOPS}, not {v!r}")
    if not 1 <= dice <= ATTACK_MAX:
        raise ValueError(f"W6: the attacker rolls 1..{ATTACK_MAX} dice, not {dice}")
    # mass at (a, d) is numerator / UNIT**lost, lost = troops removed so far; every roll
    # removes at least one troop, so levels are processed in increasing order of lost
    depth = attackers + defenders
    levels: list[dict[tuple[int, int], int]] = [{} for _ in range(depth + 1)]
    levels[0][(attackers, defenders)] = 1
    powers = [1, UNIT, UNIT * UNIT]
    final: list[tuple[int, int, int, int]] = []
    for lost in range(depth + 1):
        for (a, d), m in levels[lost].items():
            k = repeat_dice(a, until, dice)
            if d == 0 or k == 0:
                final.append((a, d, m, lost))
                continue
            for al, dl, c in _scaled(k, min(DEFEND_MAX, d)):
                step = al + dl
                bucket = levels[lost + step]
                key = (a - al, d - dl)
                bucket[key] = bucket.get(key, 0) + m * c * powers[step - 1]
        levels[lost] = {}
    outcomes = tuple(
        sorted(((a, d, Fraction(m, UNIT**lost)) for a, d, m, lost in final), key=lambda o: (-o[1], o[0]))
    )
    return BattleOdds(attackers, defenders, until, dice, outcomes)


# -- floats for the bots ------------------------------------------------------------------------
_FLOAT_ROLLS = {
    (a, d): tuple((al, dl, c / UNIT) for al, dl, c in _scaled(a, d)) for a, d in PAIRINGS
}


class _Table:
    """W(a, d), S(a, d), R(a, d) for attacking until done: chance to win, E[attackers left;
    win], E[defenders left; loss]; grown on demand (a is the row, d the column).

    One table serves every ``until``: attacking from a troops until g are left rolls
    min(3, a - g) dice, exactly as attacking until done from a - g + 1 troops does, so it is
    the same battle with g - 1 troops that never fight.
    """

    __slots__ = ("win", "survive", "resist", "rows", "cols")

    def __init__(self) -> None:
        self.win: list[list[float]] = []
        self.survive: list[list[float]] = []
        self.resist: list[list[float]] = []
        self.rows = 0
        self.cols = 0

    def ensure(self, a: int, d: int) -> None:
        """Make rows 0..a and columns 0..d exist, computing only what is new (rows and
        columns at least double, so a long game pays for its largest battle about twice)."""
        if a < self.rows and d < self.cols:
            return
        rows = max(a + 1, min(2 * self.rows, FLOAT_CAP + 1) if a >= self.rows else self.rows, 32)
        cols = max(d + 1, min(2 * self.cols, FLOAT_CAP + 1) if d >= self.cols else self.cols, 32)
        win, sur, res = self.win, self.survive, self.resist
        old_rows, old_cols = self.rows, self.cols
        for row in (win, sur, res):
            for line in row:
                line.extend([0.0] * (cols - old_cols))
            row.extend([0.0] * cols for _ in range(rows - old_rows))
        rolls = _FLOAT_ROLLS
        for x in range(rows):
            wx, sx, rx = win[x], sur[x], res[x]
            first = old_cols if x < old_rows else 0
            if first == 0:
                wx[0], sx[0] = 1.0, float(x)
                first = 1
            k = max(0, min(ATTACK_MAX, x - 1))
            for y in range(first, cols):
                if k == 0:
                    rx[y] = float(y)
                    continue
                w = s = r = 0.0
                for al, dl, p in rolls[(k, DEFEND_MAX if y > DEFEND_MAX else y)]:
                    na, nd = x - al, y - dl
                    w += p * win[na][nd]
                    s += p * sur[na][nd]
                    r += p * res[na][nd]
                wx[y], sx[y], rx[y] = w, s, r
        self.rows, self.cols = rows, cols


_TABLE = _Table()
#: the float tables are exact up to this many troops a side; larger battles are scaled
#: down to it (same ratio), which slightly understates how sure a big battle is. Only bots
#: and hints use floats; the calculator (:func:`battle_odds`) is always exact.
FLOAT_CAP = 256


def _cell(attackers: int, defenders: int, until: int) -> tuple[int, int, float]:
    """Table coordinates for a battle (shifted for ``until``, scaled above FLOAT_CAP) and
    the factor that turns table troop counts back into real ones."""
    a = attackers - until + 1
    d = defenders
    scale = 1.0
    if a > FLOAT_CAP or d > FLOAT_CAP:
        scale = max(a, d) / FLOAT_CAP
        a = max(2, round(a / scale))
        d = max(1, round(d / scale))
    _TABLE.ensure(a, d)
    return a, d, scale


def win_chance(attackers: int, defenders: int, until: int = 1) -> float:
    """Float chance that attacking until done (or until ``until`` left) takes the territory."""
    if defenders <= 0:
        return 1.0
    a = attackers - until + 1
    if a <= 1:
        return 0.0
    t = _TABLE
    if a < t.rows and defenders < t.cols and a <= FLOAT_CAP and defenders <= FLOAT_CAP:
        return t.win[a][defenders]
    a, d, _ = _cell(attackers, defenders, until)
    return t.win[a][d]


def battle_summary(attackers: int, defenders: int, until: int = 1) -> tuple[float, float, float]:
    """(chance to win, expected attackers left given a win, expected defenders left given a loss)."""
    if defenders <= 0:
        return 1.0, float(attackers), 0.0
    if attackers <= until:
        return 0.0, 0.0, float(defenders)
    a, d, scale = _cell(attackers, defenders, until)
    t = _TABLE
    w = t.win[a][d]
    s = t.survive[a][d] / w * scale + until - 1 if w > 0 else 0.0
    r = t.resist[a][d] / (1 - w) * scale if w < 1 else 0.0
    return w, s, r


def dice_table_rows() -> list[list[str]]:
    """Rows of the rules page's single-roll table: pairing, then each outcome as a fraction
    of the pairing's equally likely rolls and as a percentage."""
    rows = []
    for a, d in PAIRINGS:
        total = SIDES ** (a + d)
        for (al, dl), c in roll_counts(a, d):
            if al == 0:
                what = f"defender loses {dl}"
            elif dl == 0:
                what = f"attacker loses {al}"
            else:
                what = f"each loses {dl}" if al == dl else f"attacker loses {al}, defender {dl}"
            rows.append([f"{a} vs {d}", what, f"{c}/{total}", f"{100 * c / total:.1f}%"])
    return rows
