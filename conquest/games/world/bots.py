"""World Conquest's computer players: Random, Rule-based, Strong (weakest first).

Why these three: Random is the conformance baseline and a punching bag for newcomers;
Rule-based plays the way a sensible beginner does and is fast enough for a 6-bot game in
well under a second; Strong plays each turn's plan out in its head against the dice
(Monte Carlo) before choosing it.

Every bot:

- thinks on ``conceal(state, seat)`` only, so it never sees other hands or the deck's make-up
  (W5: hands are secret); a test checks that the choice does not change when they do;
- takes all its randomness from its :class:`conquest.rng.Rng` (Rule-based uses none, so
  equal states give equal choices; Strong draws the dice of its play-outs from it), which
  keeps benchmarks and tests reproducible;
- yields from ``think`` whenever about 10 ms of work have passed (``SLICE``), so the page
  can run it in slices (the Rule-based bot rarely needs to);
- defends with the most dice (W6: bots choose the most);
- places each turn's reinforcements in one batch and attacks with "attack until N left"
  (``Blitz``), so a game's log stays short: one ``b`` action, then only the rolls.

A "garrison" is the ``until`` of a ``Blitz``: the attack stops when that many troops are
left in the source, and on a conquest all other troops move in (W6, see ``Blitz``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from conquest.bots import Bot, RandomBot
from conquest.rng import Rng

from .actions import Action, Blitz, Defend, EndTurn, Fortify, Place, Trade
from .engine import _sets_in, conceal
from .odds import win_chance
from .rules import RULES
from .state import State

__all__ = ["LEVELS", "RuleBot", "StrongBot"]

N = RULES.size
ADJ = RULES.adj
CONT = RULES.continents
CONT_OF = RULES.continent_of
#: territories of each continent that border another continent (where it is defended)
CONT_BORDERS = tuple(
    tuple(t for t in c.members if any(CONT_OF[u] != ci for u in ADJ[t])) for ci, c in enumerate(CONT)
)
#: how cheap each continent is to hold: bonus per territory to defend
EASE = tuple(c.bonus / len(CONT_BORDERS[ci]) for ci, c in enumerate(CONT))

SLICE = 0.010


class _Clock:
    """Says when about SLICE seconds of work have passed since the last pause."""

    __slots__ = ("mark",)

    def __init__(self) -> None:
        self.mark = time.perf_counter()

    def due(self) -> bool:
        now = time.perf_counter()
        if now - self.mark >= SLICE:
            self.mark = now
            return True
        return False


def _front_distance(owner: tuple[int, ...], me: int) -> list[int]:
    """For each of ``me``'s territories, borders crossed (through own land) to reach an
    enemy-adjacent territory; 0 on the front, large where cut off."""
    dist = [99] * N
    queue = []
    for t in range(N):
        if owner[t] == me and any(owner[u] != me for u in ADJ[t]):
            dist[t] = 0
            queue.append(t)
    for t in queue:  # breadth first: the list grows while it is read
        for u in ADJ[t]:
            if owner[u] == me and dist[u] > dist[t] + 1:
                dist[u] = dist[t] + 1
                queue.append(u)
    return dist


def _fortify_to_front(state: State, me: int) -> Action:
    """W8: the largest stack away from the front moves one step closer to it, all but 1."""
    owner, troops = state.owner, state.troops
    dist = _front_distance(owner, me)
    best: tuple[int, int, int] | None = None
    for t in range(N):
        if owner[t] != me or troops[t] < 2 or dist[t] == 0 or dist[t] == 99:
            continue
        to = min((u for u in ADJ[t] if owner[u] == me), key=lambda u: (dist[u], u))
        if dist[to] < dist[t] and (best is None or troops[t] > troops[best[0]]):
            best = (t, to, troops[t] - 1)
    if best is None:
        return EndTurn()
    return Fortify(*best)


def _trade(state: State, me: int) -> Action | None:
    """W5: trade as soon as a set is held (values only rise); three alike first."""
    sets = _sets_in(state.hands[me])
    return Trade(sets[0]) if sets else None


@dataclass(frozen=True)
class Style:
    """The rule-based policy's two thresholds: the exact chance to win an attack must reach
    ``attack_odds``, or ``card_odds`` for the turn's first conquest (it earns a card, W5)."""

    attack_odds: float = 0.7
    card_odds: float = 0.5


RULE_STYLE = Style()


def target_continent(state: State, me: int) -> int:
    """The continent to take: largest share held, then the easiest to hold, then the least
    enemy troops in it."""
    owner, troops = state.owner, state.troops
    best, best_score = 0, -1e9
    for ci, c in enumerate(CONT):
        mine = enemy = 0
        for t in c.members:
            if owner[t] == me:
                mine += 1
            else:
                enemy += troops[t]
        score = mine / len(c.members) + 0.15 * EASE[ci] - 0.02 * enemy
        if score > best_score:
            best, best_score = ci, score
    return best


def claim_choice(state: State, me: int) -> int:
    """W3 claim: the continent where the seat has the largest lead, small easy ones first."""
    owner = state.owner
    best, best_score = -1, -1e9
    for t in range(N):
        if owner[t] >= 0:
            continue
        ci = CONT_OF[t]
        members = CONT[ci].members
        mine = sum(1 for u in members if owner[u] == me)
        theirs = sum(1 for u in members if owner[u] >= 0 and owner[u] != me)
        s = (mine + 1 - theirs) / len(members) + 0.1 * EASE[ci]
        s += 0.05 * sum(1 for u in ADJ[t] if owner[u] == me)
        if s > best_score:
            best, best_score = t, s
    return best


def setup_choice(state: State, me: int) -> int:
    """W3 placing: the border territory most outnumbered by its strongest enemy neighbour,
    those of the target continent first, so the start troops spread along the front."""
    owner, troops = state.owner, state.troops
    target = target_continent(state, me)
    best, best_score = owner.index(me), -1e9
    for t in range(N):
        if owner[t] != me:
            continue
        enemy = [troops[u] for u in ADJ[t] if owner[u] != me]
        if not enemy:
            continue
        s = max(enemy) + 1 - troops[t] + (3 if CONT_OF[t] == target else 0)
        if s > best_score:
            best, best_score = t, s
    return best


def attack_value(state: State, me: int, e: int, target: int) -> float:
    """What taking territory ``e`` is worth, in rough "territories"."""
    owner = state.owner
    foe = owner[e]
    ci = CONT_OF[e]
    members = CONT[ci].members
    v = 1.0
    if ci == target:
        v += 1.5
    if all(owner[u] == me for u in members if u != e):
        v += 3.0 + CONT[ci].bonus / 2
    if all(owner[u] == foe for u in members):
        v += 1.0 + CONT[ci].bonus / 4
    if owner.count(foe) == 1:
        v += 2.0 + 0.5 * state.hand_size(foe)
    return v


def placement_scores(state: State, me: int, pool: int) -> list[tuple[float, int]]:
    """Each border territory's score for receiving ``pool`` troops, best first: its best
    attack afterwards (value x chance), or the defence of a held continent's border."""
    owner, troops = state.owner, state.troops
    target = target_continent(state, me)
    out = []
    for t in range(N):
        if owner[t] != me:
            continue
        enemies = [u for u in ADJ[t] if owner[u] != me]
        if not enemies:
            continue
        s = 0.0
        for e in enemies:
            s = max(s, win_chance(troops[t] + pool, troops[e]) * attack_value(state, me, e, target))
        ci = CONT_OF[t]
        if all(owner[u] == me for u in CONT[ci].members):
            if max(troops[e] for e in enemies) >= troops[t]:
                s = max(s, 2.0 + CONT[ci].bonus * 0.5)
        out.append((s, t))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


def attack_choice(state: State, me: int, style: Style) -> Blitz | None:
    """The best attack at good odds (value x chance), or one cheap attack for the card."""
    owner, troops = state.owner, state.troops
    target = -2
    best: tuple[float, int, int, int] | None = None
    cheap: tuple[float, int, int, int] | None = None
    attack_odds, card_odds, want_card = style.attack_odds, style.card_odds, not state.conquered
    for s in range(N):
        ts = troops[s]
        if owner[s] != me or ts < 2:
            continue
        enemies = [u for u in ADJ[s] if owner[u] != me]
        if not enemies:
            continue
        for e in enemies:
            # the garrison: 1 if the source has no other enemy neighbour, else half the
            # strongest of them (what the source needs to hold once the attack is over)
            other = max((troops[u] for u in enemies if u != e), default=0)
            g = 1 if other == 0 else max(1, min(ts - 1, other // 2 + 1))
            if ts <= g:
                continue
            p = win_chance(ts, troops[e], g)
            if p >= attack_odds:
                if target == -2:
                    target = target_continent(state, me)
                score = p * attack_value(state, me, e, target)
                if best is None or score > best[0]:
                    best = (score, s, e, g)
            elif want_card and p >= card_odds and (cheap is None or p > cheap[0]):
                cheap = (p, s, e, g)
    pick = best or cheap
    return None if pick is None else Blitz(pick[1], pick[2], pick[3])


def rule_action(state: State, me: int, style: Style = RULE_STYLE, place_at: int = -1) -> Action:
    """The rule-based policy for any phase (``place_at``: where reinforcements go, or -1
    to choose by :func:`placement_scores`)."""
    ph = state.phase
    if ph == "defend":
        assert state.battle is not None
        return Defend(min(RULES.defend_max, state.troops[state.battle.dst]))
    if ph == "claim":
        return Place(claim_choice(state, me))
    if ph == "setup":
        return Place(setup_choice(state, me))
    if ph == "reinforce":
        trade = _trade(state, me)
        if trade is not None:
            return trade
        if place_at < 0 or state.owner[place_at] != me:
            scores = placement_scores(state, me, state.pool)
            place_at = scores[0][1] if scores else state.owner.index(me)
        return Place(place_at, state.pool)
    if ph == "attack":
        attack = attack_choice(state, me, style)
        return attack if attack is not None else _fortify_to_front(state, me)
    raise ValueError(f"no decision for seat {me} in the {ph} phase")


class RuleBot(Bot):
    """A sensible beginner (see :func:`rule_action`).

    - claim: the continent where it leads, small easy continents first; set-up troops go
      to the border territories most outnumbered, its target continent first;
    - reinforce: trade whenever it can; everything on one border territory: the one with
      the best attack afterwards (value x exact chance), or a held continent's threatened
      border;
    - attack until done (keeping a garrison where the source still borders enemies), only
      at an exact chance to win >= 0.7, best value first (its target continent, completing
      or breaking a continent, eliminating a seat); one attack at >= 0.5 for the turn's card;
    - fortify: the largest stack behind the front moves one step toward it.
    """

    style = RULE_STYLE

    def think(self, game: Any, state: State) -> Generator[None, None, Action]:
        me = game.to_move(state)
        return rule_action(conceal(state, me), me, self.style)
        yield  # pragma: no cover - makes this a generator


# -- the strong bot ---------------------------------------------------------------------------------
#: weights of :func:`standing`: a logistic regression fitted offline on 43,512 turn starts of
#: 1,000 three-seat games of Rule-based bots (the seat to move, did it win?); log loss 0.351
#: on held-out turns against 0.378 for the plain sum of shares
STANDING_WEIGHTS = (5.80, 6.42, -1.31, -7.99, -0.52)
STANDING_BIAS = -0.75


def standing(state: State, me: int) -> float:
    """The chance that ``me`` wins, estimated from its position: its shares of territories,
    of troops (cards in hand counted at the next trade's value) and of income (W4), and
    the largest troop and income shares among the others. 1 for a win, 0 once out."""
    if state.phase == "over":
        return 1.0 if state.winner == me else 0.0
    n = state.n
    terr = [0] * n
    army = [0.0] * n
    for o, k in zip(state.owner, state.troops, strict=True):
        terr[o] += 1
        army[o] += k
    if not terr[me]:
        return 0.0
    per_card = RULES.trade_value(state.trades) / 3
    income = [0] * n
    for s in range(n):
        if terr[s]:
            army[s] += per_card * state.hand_size(s)
            income[s] = RULES.base_reinforcement(terr[s])
    for c in CONT:
        o = state.owner[c.members[0]]
        if all(state.owner[t] == o for t in c.members):
            income[o] += c.bonus
    total_army, total_income = sum(army), sum(income)
    features = (
        terr[me] / N,
        army[me] / total_army,
        income[me] / total_income,
        max(army[s] for s in range(n) if s != me) / total_army,
        max(income[s] for s in range(n) if s != me) / total_income,
    )
    x = STANDING_BIAS + sum(w * f for w, f in zip(STANDING_WEIGHTS, features, strict=True))
    return 1.0 / (1.0 + math.exp(-x))


@dataclass(frozen=True)
class _Plan:
    turn: int
    seat: int
    style: Style


class StrongBot(Bot):
    """Monte Carlo over the dice: each turn's plan is tried out before it is played.

    At the start of each turn (after any trade) the bot makes a few plans: where all the
    reinforcements go (the best attack stagings and the most threatened borders) times how
    boldly to attack (``STYLES``). Each plan is played out to the start of the bot's next
    turn: its own turn by the rule-based policy with that plan, every other seat by the
    rule-based policy, the dice drawn from the bot's own generator (the same dice for every
    plan, so plans are compared on equal luck). The plan with the best mean
    :func:`standing` is played; the most promising plans get more play-outs. Claims and
    set-up are the rule-based ones, and so is everything inside the turn once its plan is
    chosen (the plan is remembered for the turn).
    """

    STYLES = (Style(0.55, 0.45), Style(0.75, 0.5), Style(0.92, 0.6))
    PLACES = 4
    SAMPLES = 6
    FINALISTS = 3
    EXTRA = 8

    def __init__(self, rng: Rng | None = None) -> None:
        super().__init__(rng)
        self._plan: _Plan | None = None

    def think(self, game: Any, state: State) -> Generator[None, None, Action]:
        me = game.to_move(state)
        state = conceal(state, me)
        if state.phase == "reinforce":
            trade = _trade(state, me)
            if trade is not None:
                return trade
            t, style = yield from self._choose_plan(game, state, me)
            self._plan = _Plan(state.turn, me, style)
            return Place(t, state.pool)
        style = RULE_STYLE
        plan = self._plan
        if plan is not None and plan.turn == state.turn and plan.seat == me:
            style = plan.style
        return rule_action(state, me, style)

    def _choose_plan(self, game: Any, state: State, me: int) -> Generator[None, None, tuple[int, Style]]:
        clock = _Clock()
        pool = state.pool
        places = [t for _, t in placement_scores(state, me, pool)[: self.PLACES]]
        owner, troops = state.owner, state.troops
        threatened = sorted(
            (t for t in range(N) if owner[t] == me and any(owner[u] != me for u in ADJ[t])),
            key=lambda t: (troops[t] - max(troops[u] for u in ADJ[t] if owner[u] != me), t),
        )
        for t in threatened[:2]:
            if t not in places:
                places.append(t)
        if not places:
            return owner.index(me), RULE_STYLE
        plans = [(t, st) for t in places for st in self.STYLES]
        seeds = [self.rng.below(2**31) for _ in range(self.SAMPLES + self.EXTRA)]
        totals = [0.0] * len(plans)
        for k, plan in enumerate(plans):
            for r in range(self.SAMPLES):
                totals[k] += yield from self._playout(game, state, me, plan, seeds[r], clock)
        ranked = sorted(range(len(plans)), key=lambda k: -totals[k])[: self.FINALISTS]
        for k in ranked:
            for r in range(self.SAMPLES, self.SAMPLES + self.EXTRA):
                totals[k] += yield from self._playout(game, state, me, plans[k], seeds[r], clock)
        best = max(ranked, key=lambda k: (totals[k], -k))
        return plans[best]

    def _playout(
        self, game: Any, state: State, me: int, plan: tuple[int, Style], seed: int, clock: _Clock
    ) -> Generator[None, None, float]:
        rng = Rng(seed)
        place_at, style = plan
        start = state.turn
        st = state
        for _ in range(5000):
            spec = game.chance(st)
            if spec is not None:
                st = game.apply(st, game.chance_action(st, rng.draw(spec.sizes)))
                if clock.due():  # a long blitz is many rolls: a pause between them too
                    yield
                continue
            if st.phase == "over" or (st.current == me and st.turn > start):
                break
            seat = game.to_move(st)
            if seat == me and st.turn == start:
                action = rule_action(st, me, style, place_at)
            else:
                action = rule_action(st, seat)
            st = game.apply(st, action)
            if clock.due():
                yield
        return standing(st, me)


LEVELS: dict[str, Callable[[Any], Bot]] = {
    "Random": RandomBot,
    "Rule-based": RuleBot,
    "Strong": StrongBot,
}
