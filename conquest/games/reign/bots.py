"""Computer players for To Reign Supreme, weakest first: Random, Heuristic, Monte Carlo.

Why these three: the game has no dice; its uncertainty is the opponent's secret battle
choice (R10). So a player's strength is (1) how well it values a position, (2) how well it
sequences the actions of a turn and (3) how it plays the battle's simultaneous choice.

- Random: a kind of action uniformly, then one of that kind (:class:`KindRandomBot`), and
  uniform over its secret choices (the baseline).
- Heuristic: values each action by the best next action after it, with
  :class:`Evaluator`; a battle it may declare is valued by fictitious play over a narrow
  menu of choices (a battle after the next action by a 3 x 3 quick estimate). In a battle
  it plays its best pure part from that fictitious play.
- Monte Carlo: Monte Carlo over the hidden choice: sampled regret matching over a wide
  menu (every purchase set not dominated by a cheaper one), then it draws its own part
  from the resulting mixed strategy, so it cannot be read. In its turn it runs a two-action
  expectimax: a battle is valued by its likeliest outcomes under both sides' mixes, each
  followed by the best next action ("attack, then Develop what was taken").

Every battle number is computed by :class:`BattleModel` with the engine's own arithmetic
(R6-R8) without building states, so a matrix of a few hundred joint choices costs
milliseconds. A bot decides its secret part from ``game.view(state, seat)`` only (the
view holds the public state; the pending choices never enter it). Thinking yields about
every 20 ms (``slice_s``) so the page stays responsive.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, product
from time import perf_counter
from typing import Any

from conquest.bots import Bot, RandomBot, run_thinking
from conquest.games.reign.actions import Battle, EndTurn, Part, Pick, Reallocate, Restructure, Reveal
from conquest.games.reign.data import Rules
from conquest.games.reign.engine import NEIGHBOURS, SIDES, ReignGame
from conquest.games.reign.state import Player, State
from conquest.rng import Rng

__all__ = [
    "Weights",
    "Evaluator",
    "BattleModel",
    "HeuristicBot",
    "MonteCarloBot",
    "BOT_LEVELS",
    "KindRandomBot",
    "prune_reallocations",
    "solve_fictitious",
    "solve_sampled",
]

SLICE = 0.02  # seconds of work between yields
WIN = 1000.0
#: attack a side can add with W coins (best Sellsword/Bribe buys, R6): 0,1,2,2,3,3,4
BOOST = (0, 1, 2, 2, 3, 3, 4)
#: the odds of the stronger side winning a battle by the gap in Military + purchases
_ODDS = tuple(1.0 / (1.0 + math.exp(-(e - 0.5) / 1.3)) for e in range(-24, 25))


class Clock:
    """Says when a slice of work is over, so thinking generators can yield."""

    def __init__(self, slice_s: float = SLICE) -> None:
        self.slice = slice_s
        self.t = perf_counter()

    def due(self) -> bool:
        now = perf_counter()
        if now - self.t >= self.slice:
            self.t = now
            return True
        return False


@dataclass(frozen=True)
class Weights:
    """The evaluation's knobs (points; a Controlled card is worth about 4)."""

    rung: tuple[float, float, float, float] = (-4.0, -1.5, 1.5, 4.0)  # by rung seen from the seat
    face: float = 0.08  # extra per point of a face's coins + swords + 2 x (damage + heart)
    #: share of a card's Controlled face counted while it is only Influenced: what it will
    #: give once Developed (without it Reallocate, which moves Influenced cards, looked
    #: worthless: their Influenced faces are alike)
    potential: float = 0.5
    control: tuple[float, ...] = (0.0, 0.0, 0.4, 1.2, 3.0, 7.0, 0.0)  # by cards Controlled
    wealth: float = 0.45
    military: float = 0.75
    hand: float = 0.2
    threat: float = 0.45


class Evaluator:
    """A position's value for one seat, antisymmetric: value(s, 0) == -value(s, 1).

    Why these terms: cards on the ladder (R2), how close each seat is to Controlling six
    (R11), Wealth and Military now and after the next Resupply (R3: Resupply raises to the
    cards' coins and swords, so spending below that floor is cheap), the cards in hand, and
    the threat each seat poses to the other's cards in reach (R1) given the armies (R7).
    """

    def __init__(self, game: ReignGame, weights: Weights | None = None, rules: Rules | None = None) -> None:
        """``rules``: the values the game is played with (``game.rules_of(state)``: an old
        save keeps its edition's, R5, R9); default: the game's current values."""
        self.game = game
        self.w = weights or Weights()
        self.rules = r = rules or game.rules
        self.card_value = tuple(
            c.attack.value * 1.0 + c.defence.value * 0.35 + c.damage.value * 0.35 + c.coins.value * 0.3
            for c in r.cards
        )
        # per territory: (influenced face, controlled face) -> (coins, swords, weight)
        self.faces = []
        for t in r.territories:
            pair = []
            pts = [f.coins.value + f.swords.value + 2 * (f.damage.value + f.heart.value) for f in (t.influenced, t.controlled)]
            pts[0] += self.w.potential * pts[1]
            for f, n in zip((t.influenced, t.controlled), pts, strict=True):
                pair.append((f.coins.value, f.swords.value, 1.0 + self.w.face * n))
            self.faces.append(tuple(pair))
        self.lo, self.hi = r.min_strength, r.max_strength
        self._ladders: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self._menus: dict[tuple[int, bool], list[tuple[str, int, int, int, int, int]]] = {}

    def menu(self, wealth: int, wide: bool) -> list[tuple[str, int, int, int, int, int]]:
        """:func:`purchase_menu` with each set's (text, attack, defence, damage, hired troops,
        cost), cached per (Wealth, width)."""
        key = (wealth, wide)
        got = self._menus.get(key)
        if got is None:
            r = self.rules
            got = []
            for counts in purchase_menu(self.game, wealth, wide, r):
                pairs = list(zip(r.kinds, counts, strict=True))
                got.append(
                    (
                        self.game.codec.buys(counts),
                        sum(k.attack * n for k, n in pairs),
                        sum(k.defence * n for k, n in pairs),
                        sum(k.damage * n for k, n in pairs),
                        sum(n for k, n in pairs if k.dies_first),
                        r.purchase_cost(counts),
                    )
                )
            self._menus[key] = got
        return got

    def state(self, s: State, seat: int) -> float:
        if s.winner is not None:
            return WIN if s.winner == seat else -WIN
        v = self.raw(
            s.setup,
            s.layout,
            s.ladder,
            (s.players[0].wealth, s.players[1].wealth),
            (s.players[0].military, s.players[1].military),
        )
        v += self.w.hand * (self.hand_value(s.players[0]) - self.hand_value(s.players[1]))
        return v if seat == 0 else -v

    def hand_value(self, p: Player) -> float:
        return sum(self.card_value[c] for c in p.hand) + 0.5 * len(p.hand)

    def raw(
        self,
        setup: str,
        layout: Sequence[int],
        ladder: Sequence[int],
        wealth: Sequence[int],
        military: Sequence[int],
    ) -> float:
        """Seat 0's value of a position given by its numbers (no hands)."""
        info = self.ladder_info(setup, tuple(layout), tuple(ladder))
        if info[0]:
            return info[0]
        _, v, bw0, bm0, bw1, bm1, g0, g1 = info
        w = self.w
        w0, w1, m0, m1 = wealth[0], wealth[1], military[0], military[1]
        v += w.wealth * 0.5 * ((w0 + (w0 if w0 > bw0 else bw0)) - (w1 + (w1 if w1 > bw1 else bw1)))
        v += w.military * 0.5 * ((m0 + (m0 if m0 > bm0 else bm0)) - (m1 + (m1 if m1 > bm1 else bm1)))
        # the threat each seat poses to the other's best two cards in reach, by its odds: a
        # seat attacks after its own Resupply and defends with what it has now
        r0, r1 = (w0 if w0 > bw0 else bw0), (w1 if w1 > bw1 else bw1)
        a0 = (m0 if m0 > bm0 else bm0) + BOOST[r0 if r0 < 6 else 6]
        a1 = (m1 if m1 > bm1 else bm1) + BOOST[r1 if r1 < 6 else 6]
        d0 = m0 + BOOST[w0 if w0 < 6 else 6]
        d1 = m1 + BOOST[w1 if w1 < 6 else 6]
        e0, e1 = a0 - d1, a1 - d0
        e0 = -24 if e0 < -24 else 24 if e0 > 24 else e0
        e1 = -24 if e1 < -24 else 24 if e1 > 24 else e1
        return v + w.threat * (g0 * _ODDS[24 + e0] - g1 * _ODDS[24 + e1])

    def ladder_info(self, setup: str, layout: tuple[int, ...], ladder: tuple[int, ...]) -> tuple[Any, ...]:
        """What depends on the cards alone (cached): (terminal value or 0, cards' value,
        both seats' Resupply coins and swords, both seats' best two gains in reach)."""
        key = (setup, layout, ladder)
        info = self._ladders.get(key)
        if info is not None:
            return info
        w = self.w
        pos = 0.0
        base_c = [0, 0]
        base_s = [0, 0]
        ctrl = [0, 0]
        for q, rung in enumerate(ladder):
            faces = self.faces[layout[q]]
            coins, swords, weight = faces[1] if rung in (0, 3) else faces[0]
            pos += w.rung[rung] * weight
            holder = 0 if rung >= 2 else 1
            base_c[holder] += coins
            base_s[holder] += swords
            if rung == 3:
                ctrl[0] += 1
            elif rung == 0:
                ctrl[1] += 1
        terminal = WIN if ctrl[0] == 6 else -WIN if ctrl[1] == 6 else 0.0
        gains = [0.0, 0.0]
        for seat in (0, 1):
            found = []
            for q, rung in enumerate(ladder):
                r_s = rung if seat == 0 else 3 - rung
                if r_s > 1:
                    continue
                if q in SIDES[setup][seat] or any(
                    (ladder[n] if seat == 0 else 3 - ladder[n]) == 3 for n in NEIGHBOURS[q]
                ):
                    found.append(abs(w.rung[r_s] - w.rung[min(3, r_s + 2)]))
            found.sort(reverse=True)
            gains[seat] = sum(found[:2])
        lo, hi = self.lo, self.hi
        info = (
            terminal,
            pos + w.control[ctrl[0]] - w.control[ctrl[1]],
            min(hi, max(lo, base_c[0])),
            min(hi, max(lo, base_s[0])),
            min(hi, max(lo, base_c[1])),
            min(hi, max(lo, base_s[1])),
            gains[0],
            gains[1],
        )
        if len(self._ladders) > 20000:
            self._ladders.clear()
        self._ladders[key] = info
        return info


@dataclass
class Side:
    """One seat's menu of battle parts with the numbers each part adds (R6, R7)."""

    parts: list[Part] = field(default_factory=list)
    card: list[int] = field(default_factory=list)
    atk: list[int] = field(default_factory=list)
    dfc: list[int] = field(default_factory=list)
    dmg: list[int] = field(default_factory=list)
    cost: list[int] = field(default_factory=list)
    hired: list[int] = field(default_factory=list)
    coins: list[int] = field(default_factory=list)


def purchase_menu(game: ReignGame, wealth: int, wide: bool, rules: Rules | None = None) -> list[tuple[int, ...]]:
    """Purchase sets to consider with ``wealth`` coins (R6).

    Wide: every affordable set not dominated by another at most as dear that adds at least
    as much attack, defence, damage and hired troops. Narrow: a fixed list of 14 sets (none,
    one of a kind, and the common pairs and attack-heavy Sellsword + Bribe sets).
    """
    r = rules or game.rules
    k = len(r.kinds)
    sets = [c for c in product(range(r.max_each + 1), repeat=k) if sum(c) <= r.max_total]
    sets = [c for c in sets if r.purchase_cost(c) <= wealth]

    def stats(c: tuple[int, ...]) -> tuple[int, int, int, int, int]:
        a = sum(kd.attack * n for kd, n in zip(r.kinds, c, strict=True))
        d = sum(kd.defence * n for kd, n in zip(r.kinds, c, strict=True))
        g = sum(kd.damage * n for kd, n in zip(r.kinds, c, strict=True))
        h = sum(n for kd, n in zip(r.kinds, c, strict=True) if kd.dies_first)
        return a, d, g, h, r.purchase_cost(c)

    if not wide:
        narrow = {"", "s1", "b1", "m1", "a1", "s1b1", "m1s1", "m1b1", "s1a1", "s2b1", "s1b2", "s2b2", "m1s1b1", "s1a1b1"}
        return [c for c in sets if game.codec.buys(c) in narrow]
    st = {c: stats(c) for c in sets}
    keep = []
    for c in sets:
        a, d, g, h, cost = st[c]
        dominated = False
        for o in sets:
            if o == c:
                continue
            a2, d2, g2, h2, cost2 = st[o]
            if a2 >= a and d2 >= d and g2 >= g and h2 >= h and cost2 <= cost and (a2, d2, g2, h2, -cost2) != (a, d, g, h, -cost):
                dominated = True
                break
        if not dominated:
            keep.append(c)
    return keep


class BattleModel:
    """The battle declared over ``place`` by ``attacker``: menus and a payoff matrix.

    The payoff of a joint choice is the attacker's :class:`Evaluator` value of the position
    after the battle, computed from the battle's numbers alone (no state is built): the
    outcome of a pair is a handful of numbers (rung, Wealth and Military of both), and
    values are cached per outcome.
    """

    def __init__(
        self, game: ReignGame, ev: Evaluator, s: State, attacker: int, place: int, wide: bool, tiny: bool = False
    ) -> None:
        """``wide``: the wide purchase menu; ``tiny``: only each side's strongest card with
        no purchase, Sellsword + Bribe, or two of each (a quick estimate, at most 3 x 3)."""
        self.game, self.ev, self.s = game, ev, s
        r = ev.rules
        self.att, self.dfd, self.place = attacker, 1 - attacker, place
        self.level = game.level(s.players[self.dfd])
        heart = game.face(s, place).heart.value if s.controls(self.dfd, place) else 0
        self.sides: list[Side] = []
        for seat in (0, 1):
            p = s.players[seat]
            side = Side()
            bolts = game.bolts(s, seat)
            hand = sorted(p.hand)
            menu = ev.menu(p.wealth, wide)
            if tiny:
                hand = [max(hand, key=lambda c: (r.cards[c].attack.value, r.cards[c].damage.value, -c))]
                menu = [m for m in menu if m[0] in ("", "s1b1", "s2b2")]
            for buys, a, d, g, h, cost in menu:
                for ci in hand:
                    c = r.cards[ci]
                    side.parts.append(Part(c.code, buys))
                    side.card.append(ci)
                    side.atk.append(p.military + c.attack.value + a)
                    side.dfc.append(c.defence.value + d + (heart if seat == self.dfd else 0))
                    side.dmg.append(c.damage.value + bolts + g)
                    side.cost.append(cost)
                    side.hired.append(h)
                    side.coins.append(c.coins.value)
            self.sides.append(side)
        self.hand_after = [
            [self._hand_after(s.players[seat], ci) for ci in self.sides[seat].card] for seat in (0, 1)
        ]
        self._memo: dict[tuple[int, ...], float] = {}

    def _hand_after(self, p: Player, card: int) -> float:
        hand = [c for c in p.hand if c != card]
        if not hand:
            hand = [*p.discard, card]
        return sum(self.ev.card_value[c] for c in hand) + 0.5 * len(hand)

    def outcome(self, i: int, j: int) -> tuple[int, int, int, int, int]:
        """(rung after, W and M of the attacker, W and M of the defender) for the pair
        (attacker's part i, defender's part j): R7 and R8 exactly as the engine does."""
        s, r = self.s, self.ev.rules
        a, d = self.sides[self.att], self.sides[self.dfd]
        pa, pd = s.players[self.att], s.players[self.dfd]
        cas_a = min(max(0, d.dmg[j] - a.dfc[i]), a.hired[i] + pa.military)
        cas_d = min(max(0, a.dmg[i] - d.dfc[j]), d.hired[j] + pd.military)
        hi = r.max_strength
        wa = min(hi, pa.wealth - a.cost[i] + cas_d * a.coins[i])
        wd = min(hi, pd.wealth - d.cost[j] + cas_a * d.coins[j])
        ma = max(0, pa.military - max(0, cas_a - a.hired[i]))
        md = max(0, pd.military - max(0, cas_d - d.hired[j]))
        margin = a.atk[i] - d.atk[j]
        if margin > 0:
            steps = r.steps_big_win if margin > self.level else r.steps_win
        elif cas_d >= r.casualties_for_step:
            steps = r.steps_loss
        else:
            steps = 0
        before = s.ladder[self.place]
        after = min(3, before + steps) if self.att == 0 else max(0, before - steps)
        return after, wa, ma, wd, md

    def _base(self, out: tuple[int, int, int, int, int]) -> float:
        base = self._memo.get(out)
        if base is None:
            s = self.s
            after, wa, ma, wd, md = out
            ladder = list(s.ladder)
            ladder[self.place] = after
            if self.att == 0:
                base = self.ev.raw(s.setup, s.layout, ladder, (wa, wd), (ma, md))
            else:
                base = -self.ev.raw(s.setup, s.layout, ladder, (wd, wa), (md, ma))
            self._memo[out] = base
        return base

    def value(self, i: int, j: int) -> float:
        """The attacker's value after the pair (i, j)."""
        base = self._base(self.outcome(i, j))
        if abs(base) >= WIN:
            return base
        return base + self.ev.w.hand * (self.hand_after[self.att][i] - self.hand_after[self.dfd][j])

    def matrix(self, clock: Clock | None = None) -> Generator[None, None, list[list[float]]]:
        """Every pair's :meth:`value`, rows the attacker's parts: the same arithmetic as
        :meth:`outcome`, inlined because this loop is most of a bot's thinking."""
        s, r = self.s, self.ev.rules
        a, d = self.sides[self.att], self.sides[self.dfd]
        pa, pd = s.players[self.att], s.players[self.dfd]
        hi, big, win, loss, need = r.max_strength, r.steps_big_win, r.steps_win, r.steps_loss, r.casualties_for_step
        level, before, up = self.level, s.ladder[self.place], self.att == 0
        hand_w = self.ev.w.hand
        ha, hd = self.hand_after[self.att], self.hand_after[self.dfd]
        memo, base_of = self._memo, self._base
        pam, pdm, paw, pdw = pa.military, pd.military, pa.wealth, pd.wealth
        n = len(d.parts)
        cols = list(zip(d.atk, d.dfc, d.dmg, d.hired, d.cost, d.coins, hd, strict=True))
        out = []
        for i in range(len(a.parts)):
            a_atk, a_dfc, a_dmg, a_hired, a_cost, a_coins = a.atk[i], a.dfc[i], a.dmg[i], a.hired[i], a.cost[i], a.coins[i]
            a_hand = ha[i]
            row = [0.0] * n
            for j, (d_atk, d_dfc, d_dmg, d_hired, d_cost, d_coins, d_hand) in enumerate(cols):
                cas_a = d_dmg - a_dfc
                cas_a = 0 if cas_a < 0 else cas_a
                if cas_a > a_hired + pam:
                    cas_a = a_hired + pam
                cas_d = a_dmg - d_dfc
                cas_d = 0 if cas_d < 0 else cas_d
                if cas_d > d_hired + pdm:
                    cas_d = d_hired + pdm
                wa = paw - a_cost + cas_d * a_coins
                wa = hi if wa > hi else wa
                wd = pdw - d_cost + cas_a * d_coins
                wd = hi if wd > hi else wd
                lost = cas_a - a_hired
                ma = pam - lost if lost > 0 else pam
                lost = cas_d - d_hired
                md = pdm - lost if lost > 0 else pdm
                margin = a_atk - d_atk
                if margin > 0:
                    steps = big if margin > level else win
                elif cas_d >= need:
                    steps = loss
                else:
                    steps = 0
                if up:
                    after = before + steps
                    after = 3 if after > 3 else after
                else:
                    after = before - steps
                    after = 0 if after < 0 else after
                key = (after, wa, ma if ma > 0 else 0, wd, md if md > 0 else 0)
                base = memo.get(key)
                if base is None:
                    base = base_of(key)
                row[j] = base if (base >= WIN or base <= -WIN) else base + hand_w * (a_hand - d_hand)
            out.append(row)
            if clock is not None and clock.due():
                yield
        return out

    def rows(self) -> int:
        return len(self.sides[self.att].parts)

    def cols(self) -> int:
        return len(self.sides[self.dfd].parts)


def solve_fictitious(
    model: BattleModel, iters: int, clock: Clock | None = None
) -> Generator[None, None, tuple[list[float], list[float], float]]:
    """Fictitious play on the full matrix: both players best-respond to the other's
    empirical mix. Returns (attacker mix, defender mix, value to the attacker)."""
    m, n = model.rows(), model.cols()
    mat = yield from model.matrix(clock)
    row_tot = [0.0] * m  # payoff of each row against the defender's counts
    col_tot = [0.0] * n  # payoff (to the attacker) of each column against the attacker's counts
    xc = [0] * m
    yc = [0] * n
    i = max(range(m), key=lambda k: sum(mat[k]))
    for _ in range(iters):
        xc[i] += 1
        row = mat[i]
        for j2 in range(n):
            col_tot[j2] += row[j2]
        j = min(range(n), key=col_tot.__getitem__)
        yc[j] += 1
        for i2 in range(m):
            row_tot[i2] += mat[i2][j]
        i = max(range(m), key=row_tot.__getitem__)
        if clock is not None and clock.due():
            yield
    tx, ty = sum(xc), sum(yc)
    x = [c / tx for c in xc]
    y = [c / ty for c in yc]
    value = sum(x[a] * y[b] * mat[a][b] for a in range(m) if x[a] for b in range(n) if y[b])
    return x, y, value


def solve_sampled(
    model: BattleModel, iters: int, rng: Rng, clock: Clock | None = None
) -> Generator[None, None, tuple[list[float], list[float], float]]:
    """Monte Carlo over the hidden choice: regret matching in which each round samples
    one choice per side from the current mixes and updates every regret against the
    sampled choice of the other side (regret matching+, average strategies). Returns
    (attacker mix, defender mix, value to the attacker)."""
    mat = yield from model.matrix(clock)
    m, n = len(mat), len(mat[0])
    cols = [list(c) for c in zip(*mat, strict=True)]
    reg_x = [0.0] * m
    reg_y = [0.0] * n
    sum_x = [0.0] * m
    sum_y = [0.0] * n
    scale = float(1 << 30)

    def draw(reg: list[float], total: list[float]) -> int:
        """Sample by the positive regrets (uniform when none) and add the mix to ``total``."""
        t = sum(reg)
        k = len(reg)
        if t <= 0.0:
            for a in range(k):
                total[a] += 1.0 / k
            return rng.below(k)
        u = rng.below(1 << 30) / scale * t
        pick = -1
        acc = 0.0
        for a in range(k):
            r = reg[a]
            if r:
                total[a] += r / t
                acc += r
                if pick < 0 and u < acc:
                    pick = a
        return pick if pick >= 0 else k - 1

    value_sum = 0.0
    for it in range(iters):
        i = draw(reg_x, sum_x)
        j = draw(reg_y, sum_y)
        col = cols[j]
        row = mat[i]
        u = row[j]
        value_sum += u
        for a in range(m):
            v = reg_x[a] + col[a] - u
            reg_x[a] = v if v > 0.0 else 0.0
        for b in range(n):
            v = reg_y[b] + u - row[b]
            reg_y[b] = v if v > 0.0 else 0.0
        if clock is not None and it % 50 == 0 and clock.due():
            yield
    tx, ty = sum(sum_x), sum(sum_y)
    return [v / tx for v in sum_x], [v / ty for v in sum_y], value_sum / max(1, iters)


def prune_reallocations(game: ReignGame, s: State, actions: Sequence[Any]) -> list[Any]:
    """``actions`` with the Reallocates cut to those that differ in what a bot can weigh.

    Why: ``legal_actions`` lists every rearrangement of the Influenced cards (up to 719,
    R5), and the bots look two actions ahead, so weighing each would multiply their work by
    hundreds. Kept: every swap of two cards (what the bots weighed before, among them a swap
    within one player's cards, which in the Challenging setup can bring a card from the
    middle column, where it cannot be Developed yet, to that player's side), and for every
    other split of the cards between the two players (which cards each Influences, what
    :class:`Evaluator` values) the first arrangement that makes it with the fewest cards
    moved. Dropped: the other arrangements, which move cards among one player's places
    once more. The kept actions are the given ones: the others first, then the swaps, then
    one per other split, each group in the given order.
    """
    index = {t.code: i for i, t in enumerate(game.rules_of(s).territories)}
    cur = s.layout
    mine = [q for q in range(len(cur)) if s.ladder[q] == 2]
    out: list[Any] = []
    kept: list[Any] = []
    swaps: set[frozenset[int]] = set()
    best: dict[frozenset[int], tuple[int, int, Any]] = {}
    for i, a in enumerate(actions):
        if not isinstance(a, Reallocate):
            out.append(a)
            continue
        lay = [index[c] for c in a.layout]
        split = frozenset(lay[q] for q in mine)
        moved = sum(1 for q in range(len(lay)) if lay[q] != cur[q])
        if moved == 2:
            kept.append(a)
            swaps.add(split)
            continue
        got = best.get(split)
        if got is None or moved < got[0]:
            best[split] = (moved, i, a)
    here = frozenset(cur[q] for q in mine)
    extra = sorted((i, a) for split, (_, i, a) in best.items() if split not in swaps and split != here)
    return out + kept + [a for _, a in extra]


class KindRandomBot(RandomBot):
    """Random: a kind of action uniformly, then one action of that kind uniformly.

    Why not uniform over ``legal_actions``: Reallocate alone has up to 719 arrangements
    (R5) and War Council up to 31 sets of cards, so a uniform pick would do little else
    whenever it could pay for them. The secret choices stay uniform (one kind).
    """

    def choose(self, game: Any, state: Any) -> Any:
        actions = game.legal_actions(state)
        if not actions:
            raise ValueError("no legal action to choose from")
        kinds: dict[type, list[Any]] = {}
        for a in actions:
            kinds.setdefault(type(a), []).append(a)
        group = list(kinds.values())[self.rng.below(len(kinds))]
        return group[self.rng.below(len(group))]


class HeuristicBot(Bot):
    """Two actions ahead with the evaluator (a following battle by a quick estimate);
    battles by fictitious play over the narrow menu, then its best pure part."""

    wide = False
    battle_iters = 40
    lookahead = 1
    #: seconds of thinking between yields (the page's slice)
    slice_s = SLICE

    def __init__(self, rng: Rng | None = None, weights: Weights | None = None) -> None:
        super().__init__(rng)
        self.weights = weights
        self._ev: tuple[ReignGame, Evaluator] | None = None

    def evaluator(self, game: ReignGame, s: State) -> Evaluator:
        """The evaluator for ``s``'s values (its edition's), kept while they stay the same."""
        rules = game.rules_of(s)
        if self._ev is None or self._ev[0] is not game or self._ev[1].rules is not rules:
            self._ev = (game, Evaluator(game, self.weights, rules))
        return self._ev[1]

    # -- battles ----------------------------------------------------------------------
    def solve(self, model: BattleModel, clock: Clock) -> Generator[None, None, tuple[list[float], list[float], float]]:
        """A battle's value, to judge whether to declare it (cheap: fictitious play)."""
        return (yield from solve_fictitious(model, self.battle_iters, clock))

    def solve_secret(
        self, model: BattleModel, clock: Clock
    ) -> Generator[None, None, tuple[list[float], list[float], float]]:
        """The mixes for the secret choice itself."""
        return (yield from self.solve(model, clock))

    def battle_value(self, game: ReignGame, s: State, seat: int, clock: Clock) -> Generator[None, None, float]:
        """Value to ``seat`` of the battle declared in ``s`` (phase respond/battle)."""
        pend = s.battle
        assert pend is not None
        model = BattleModel(game, self.evaluator(game, s), s, pend.attacker, pend.place, self.wide)
        _, _, v = yield from self.solve(model, clock)
        return v if seat == pend.attacker else -v

    def pick_tracker(self, game: ReignGame, ev: Evaluator) -> Pick:
        """The two tracker cards, drawn with weights exp((hand value - best) / 0.6).

        Why drawn: the hands are open, so a fixed choice tells the opponent the three cards
        of every first battle; and the cards are close in value, so several hands are
        about as good.
        """
        cards = ev.rules.cards
        pairs = list(combinations(range(len(cards)), 2))
        values = [sum(ev.card_value[c] for c in range(len(cards)) if c not in pair) for pair in pairs]
        top = max(values)
        weights = [math.exp((v - top) / 0.6) for v in values]
        u = self.rng.below(1 << 30) / float(1 << 30) * sum(weights)
        k = len(pairs) - 1
        acc = 0.0
        for i, w in enumerate(weights):
            acc += w
            if u < acc:
                k = i
                break
        return Pick("".join(cards[c].code for c in pairs[k]))

    def pick_part(self, mix: list[float]) -> int:
        best = max(mix)
        ties = [k for k, p in enumerate(mix) if p >= best - 1e-12]
        return ties[self.rng.below(len(ties))]

    # -- the protocol -----------------------------------------------------------------
    def think_secret(self, game: Any, state: Any, seat: int) -> Generator[None, None, Any]:
        clock = Clock(self.slice_s)
        s = game.state_from_json(game.view(state, seat)["state"])  # the public view only
        ev = self.evaluator(game, s)
        if s.phase == "setup":
            return self.pick_tracker(game, ev)
        pend = s.battle
        model = BattleModel(game, ev, s, pend.attacker, pend.place, self.wide)
        x, y, _ = yield from self.solve_secret(model, clock)
        mine = x if seat == pend.attacker else y
        k = self.pick_part(mine)
        return model.sides[seat].parts[k]

    def think(self, game: Any, state: Any) -> Generator[None, None, Any]:
        clock = Clock(self.slice_s)
        seat = game.to_move(state)
        actions = prune_reallocations(game, state, game.legal_actions(state))
        if len(actions) == 1:
            return actions[0]
        best: list[Any] = []
        best_v = -math.inf
        for a in actions:
            v = yield from self.action_value(game, state, seat, a, clock, self.lookahead)
            if v > best_v + 1e-9:
                best, best_v = [a], v
            elif v > best_v - 1e-9:
                best.append(a)
            if clock.due():
                yield
        return best[self.rng.below(len(best))]

    @staticmethod
    def before_resupply(s: State, after: State, seat: int) -> State:
        """``after`` without the opponent's Resupply when the action ended the turn.

        Why: an ended turn puts the opponent's Resupply (R3) into the state, which would make
        every turn-ending action look worse than one that keeps the turn open (such as a
        needless Restructure). The opponent's numbers are the same before and after any
        action of ours that is not a battle, so they are taken from ``s``.
        """
        if after.phase == "turn" and after.active != seat and after.winner is None:
            opp = 1 - seat
            players = list(after.players)
            players[opp] = replace(players[opp], wealth=s.players[opp].wealth, military=s.players[opp].military)
            return replace(after, players=(players[0], players[1]))
        return after

    def action_value(
        self, game: ReignGame, s: State, seat: int, a: Any, clock: Clock, depth: int
    ) -> Generator[None, None, float]:
        ev = self.evaluator(game, s)
        after = game.apply(s, a)
        if after.phase in ("respond", "battle") and after.battle is not None:
            return (yield from self.battle_value(game, after, seat, clock))
        after = self.before_resupply(s, after, seat)
        if depth > 0 and after.phase == "turn" and after.active == seat and not isinstance(a, EndTurn):
            best = ev.state(after, seat)
            for b in prune_reallocations(game, after, game.legal_actions(after)):
                if isinstance(b, (Restructure, EndTurn)):
                    continue
                nxt = game.apply(after, b)
                if isinstance(b, Battle):
                    v = self.quick_battle_value(game, nxt, seat)  # e.g. Develop, then attack from it
                else:
                    v = ev.state(self.before_resupply(after, nxt, seat), seat)
                best = max(best, v)
                if clock.due():
                    yield
            return best
        return ev.state(after, seat)

    def quick_battle_value(self, game: ReignGame, s: State, seat: int) -> float:
        """A cheap value to ``seat`` of the battle declared in ``s``: each side's strongest
        card with at most three purchase sets, the attacker's best row against the
        defender's best answer (a lower bound for the attacker)."""
        pend = s.battle
        assert pend is not None
        model = BattleModel(game, self.evaluator(game, s), s, pend.attacker, pend.place, False, tiny=True)
        mat = run_thinking(model.matrix())
        v = max(min(row) for row in mat)
        return v if seat == pend.attacker else -v


class MonteCarloBot(HeuristicBot):
    """Monte Carlo over the hidden choice, and two actions of expectimax in its turn.

    Its secret part is drawn from the mixed strategy that sampled regret matching finds
    over the wide menu (so it cannot be read). In its turn it values each action by the
    best next action after it; a battle is valued by its likely outcomes under both sides'
    equilibrium mixes, each followed by the best next action (so it sees "attack, then
    Develop what was taken"), the unlikely rest by the payoff matrix.
    """

    wide = True
    battle_iters = 40
    secret_iters = 800
    lookahead = 1
    #: battle outcomes followed one action further (the likeliest ones)
    follow = 4

    def solve_secret(
        self, model: BattleModel, clock: Clock
    ) -> Generator[None, None, tuple[list[float], list[float], float]]:
        return (yield from solve_sampled(model, self.secret_iters, self.rng, clock))

    def pick_part(self, mix: list[float]) -> int:
        u = self.rng.below(1 << 30) / float(1 << 30)
        acc = 0.0
        for k, p in enumerate(mix):
            acc += p
            if u < acc:
                return k
        return len(mix) - 1

    def action_value(
        self, game: ReignGame, s: State, seat: int, a: Any, clock: Clock, depth: int
    ) -> Generator[None, None, float]:
        if depth <= 0:
            return (yield from super().action_value(game, s, seat, a, clock, 0))
        after = game.apply(s, a)
        if after.battle is not None and after.phase in ("respond", "battle"):
            return (yield from self.battle_expectation(game, after, seat, clock, depth))
        after = self.before_resupply(s, after, seat)
        return (yield from self.continuation(game, after, seat, clock, depth))

    def continuation(self, game: ReignGame, s: State, seat: int, clock: Clock, depth: int) -> Generator[None, None, float]:
        """The best value ``seat`` reaches from ``s`` with ``depth`` more actions of its turn."""
        ev = self.evaluator(game, s)
        best = ev.state(s, seat)
        if depth <= 0 or s.phase != "turn" or s.active != seat or s.winner is not None:
            return best
        for b in prune_reallocations(game, s, game.legal_actions(s)):
            if isinstance(b, (Restructure, EndTurn)):
                continue
            # a following battle by its matrix game (not the Heuristic's quick estimate)
            v = yield from HeuristicBot.action_value(self, game, s, seat, b, clock, 0)
            if v > best:
                best = v
            if clock.due():
                yield
        return best

    def battle_expectation(
        self, game: ReignGame, s: State, seat: int, clock: Clock, depth: int
    ) -> Generator[None, None, float]:
        """Expected value to ``seat`` of the battle declared in ``s`` (the defender assumed
        to fight as is), following the likeliest outcomes one action further."""
        pend = s.battle
        assert pend is not None
        battle = replace(s, phase="battle")
        model = BattleModel(game, self.evaluator(game, s), battle, pend.attacker, pend.place, False)
        x, y, value = yield from solve_fictitious(model, self.battle_iters, clock)
        sign = 1.0 if seat == pend.attacker else -1.0
        groups: dict[tuple[int, ...], list[Any]] = {}
        for i, xi in enumerate(x):
            if xi <= 0.0:
                continue
            for j, yj in enumerate(y):
                if yj <= 0.0:
                    continue
                key = model.outcome(i, j)
                g = groups.get(key)
                if g is None:
                    groups[key] = [xi * yj, i, j, xi * yj * model.value(i, j)]
                else:
                    g[0] += xi * yj
                    g[3] += xi * yj * model.value(i, j)
        total = 0.0
        ranked = sorted(groups.values(), key=lambda g: -g[0])
        for rank, (p, i, j, weighted) in enumerate(ranked):
            after = None
            if rank < self.follow and seat == pend.attacker:
                parts = [model.sides[0].parts[0], model.sides[1].parts[0]]
                parts[pend.attacker] = model.sides[pend.attacker].parts[i]
                parts[1 - pend.attacker] = model.sides[1 - pend.attacker].parts[j]
                after = game.apply(battle, Reveal((parts[0], parts[1])))
            if after is not None and after.phase == "turn" and after.active == seat:
                total += p * (yield from self.continuation(game, after, seat, clock, depth))
            else:
                # the turn is over (or the defender judges): the matrix has the value
                total += sign * weighted
        return total


BOT_LEVELS: dict[str, Callable[[Any], Bot]] = {
    "Random": KindRandomBot,
    "Heuristic": HeuristicBot,
    "Monte Carlo": MonteCarloBot,
}
