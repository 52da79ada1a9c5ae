"""Benchmark of the World Conquest engine, its odds and its bots (prints figures, asserts nothing).

Run: ``nice .venv/bin/python bench/world.py [--games 200] [--quick]``

Prints:

- the exact odds calculator's time for 30 vs 30 and 100 vs 100 (cold cache);
- a 6-bot Rule-based game start to finish through :class:`conquest.session.Match` (the real
  driver: every action goes through its text and back), over a few seeds: time, steps,
  turns;
- the time per top-level decision (``Bot.choose``) of each level, by phase;
- win rates over ``--games`` 3-seat games of one bot of a level against two of a weaker
  level (W2 allows 3-6 seats, so "one-on-one" is one against two; the fair share is 1/3),
  the hero's seat taking turns and the seat order drawn as in play;
- share-link lengths (``conquest.savecode``, the characters after ``#h=``) of whole games,
  and how many steps of a 6-bot game fit in 2,000 characters.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conquest.bots import Bot  # noqa: E402
from conquest.games.world import GAME, odds  # noqa: E402
from conquest.rng import Rng  # noqa: E402
from conquest.savecode import encode_save  # noqa: E402
from conquest.session import Match  # noqa: E402

LEVELS = GAME.bot_levels()
LINK_LIMIT = 2000


def bench_odds() -> None:
    print("== exact odds (battle_odds, cold cache)")
    for a, d in ((30, 30), (100, 100)):
        odds.battle_odds.cache_clear()
        t = time.perf_counter()
        b = odds.battle_odds(a, d)
        dt = time.perf_counter() - t
        print(f"  {a} vs {d}: {dt * 1000:.1f} ms, attacker wins {float(b.win):.4f}, "
              f"expected losses {float(b.expected_attacker_losses):.2f} vs {float(b.expected_defender_losses):.2f}")


class Timed(Bot):
    """Wraps a bot and records how long each top-level decision takes, by phase."""

    def __init__(self, inner: Bot, times: dict[str, list[float]]) -> None:
        super().__init__(inner.rng)
        self.inner = inner
        self.times = times

    def choose(self, game: Any, state: Any) -> Any:
        t = time.perf_counter()
        action = self.inner.choose(game, state)
        self.times[state.phase].append(time.perf_counter() - t)
        return action


def play_match(levels: list[str], seed: int, times: dict[str, dict[str, list[float]]] | None = None,
               max_steps: int = 50_000) -> Match:
    """One game through Match (text round trips), the seat order drawn from ``seed``."""
    m = Match(GAME, {"players": len(levels)}, rng=Rng(seed))
    m.resolve_chance()
    seats: list[Bot] = []
    for i, level in enumerate(levels):
        bot = LEVELS[level](Rng(seed * 100 + i))
        seats.append(Timed(bot, times[level]) if times is not None else bot)
    steps = 0
    while GAME.outcome(m.state) is None and steps < max_steps:
        seat = GAME.to_move(m.state)
        m.play(seats[seat].choose(GAME, m.state))
        steps += 1
    return m


def link_chars(m: Match) -> int:
    return len(encode_save(m.save().to_json()))


def bench_six_rule_bots(seeds: int) -> Match:
    print(f"== 6 Rule-based bots, start to finish through Match ({seeds} seeds)")
    times, steps, turns, links = [], [], [], []
    last = None
    for seed in range(seeds):
        t = time.perf_counter()
        m = play_match(["Rule-based"] * 6, seed)
        times.append(time.perf_counter() - t)
        steps.append(len(m.log))
        turns.append(m.state.turn)
        links.append(link_chars(m))
        last = m
    print(f"  time per game: median {statistics.median(times):.3f} s, mean {statistics.mean(times):.3f} s, "
          f"max {max(times):.3f} s (first game includes building the odds tables)")
    print(f"  log steps: median {statistics.median(steps):.0f}; turns: median {statistics.median(turns):.0f}")
    print(f"  link length: median {statistics.median(links):,.0f} characters, max {max(links):,}")
    assert last is not None
    return last


def bench_decisions(games: int) -> None:
    print(f"== time per top-level decision (3 seats: Strong, Rule-based, Random; {games} games)")
    times: dict[str, dict[str, list[float]]] = {k: defaultdict(list) for k in LEVELS}
    for seed in range(games):
        play_match(["Strong", "Rule-based", "Random"], 1000 + seed, times)
    for level, by_phase in times.items():
        every = [x for xs in by_phase.values() for x in xs]
        if not every:
            continue
        every.sort()
        print(f"  {level}: {len(every)} decisions, mean {statistics.mean(every) * 1000:.2f} ms, "
              f"p95 {every[int(0.95 * (len(every) - 1))] * 1000:.2f} ms, max {every[-1] * 1000:.1f} ms")
        for phase, xs in sorted(by_phase.items()):
            xs.sort()
            print(f"    {phase:9} {len(xs):5} decisions, mean {statistics.mean(xs) * 1000:7.2f} ms, "
                  f"max {xs[-1] * 1000:7.1f} ms")


def fast_game(levels: list[str], seed: int, max_steps: int = 50_000) -> Any:
    """One game on the engine directly (no text round trips): for the many-game win rates."""
    rng = Rng(seed)
    st = GAME.new_game(GAME.normalize_options({"players": len(levels)}), 0)
    seats = [LEVELS[level](Rng(seed * 100 + i)) for i, level in enumerate(levels)]
    steps = 0
    while steps < max_steps:
        spec = GAME.chance(st)
        if spec is not None:
            st = GAME.apply(st, GAME.chance_action(st, rng.draw(spec.sizes)))
            continue
        if st.phase == "over":
            break
        st = GAME.apply(st, seats[GAME.to_move(st)].choose(GAME, st))
        steps += 1
    return st


def bench_win_rates(games: int, pairs: list[tuple[str, str]]) -> None:
    print(f"== win rates, 3 seats: one hero against two of another level ({games} games each; fair share 33%)")
    for hero, other in pairs:
        wins = unfinished = 0
        t = time.perf_counter()
        turns = []
        for k in range(games):
            seat = k % 3
            levels = [hero if i == seat else other for i in range(3)]
            st = fast_game(levels, 5000 + k)
            turns.append(st.turn)
            if st.phase != "over":
                unfinished += 1
            elif st.winner == seat:
                wins += 1
        dt = time.perf_counter() - t
        rate = wins / games
        se = (rate * (1 - rate) / games) ** 0.5
        print(f"  {hero} vs 2 x {other}: {hero} wins {wins}/{games} = {rate:.1%} (+/- {1.96 * se:.1%}), "
              f"unfinished {unfinished}, median {statistics.median(turns):.0f} turns, {dt / games:.2f} s per game")


def bench_links(m: Match) -> None:
    print("== share links")
    n = len(m.log)
    lo, hi = 0, n
    while lo < hi:  # the longest prefix of the 6-bot game whose link fits the limit
        mid = (lo + hi + 1) // 2
        save = m.save().to_json()
        save["log"] = save["log"][:mid]
        if len(encode_save(save)) <= LINK_LIMIT:
            lo = mid
        else:
            hi = mid - 1
    full = link_chars(m)
    print(f"  whole 6-bot game: {n} steps, {full:,} characters ({full / n:.2f} per step)")
    rolls = sum(1 for x in m.log if x.startswith("R"))
    print(f"  of its steps, {rolls} are dice rolls ({rolls / n:.0%})")
    print(f"  {LINK_LIMIT:,} characters hold its first {lo} steps (the set-up alone is {6 * 20} placements)")
    m3 = play_match(["Rule-based"] * 3, 7)
    print(f"  whole 3-bot game: {len(m3.log)} steps, {link_chars(m3):,} characters")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per win-rate pairing (default 200)")
    ap.add_argument("--quick", action="store_true", help="few games, for a smoke run")
    args = ap.parse_args(argv)
    games = 12 if args.quick else args.games
    bench_odds()
    last = bench_six_rule_bots(3 if args.quick else 10)
    bench_links(last)
    bench_decisions(2 if args.quick else 6)
    bench_win_rates(games, [("Rule-based", "Random"), ("Strong", "Random"), ("Strong", "Rule-based"),
                            ("Random", "Rule-based")])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
