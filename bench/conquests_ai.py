"""Benchmark of The Game of Conquests' computer players (a script, not a test).

Prints:

1. search speed: nodes per second of the hard search in this Python (target >= 50,000 in
   CPython), over the start and the perft positions;
2. a tournament: every pair of levels (random, easy, medium, hard) plays ``--games`` games,
   colours alternating, hard with a small node budget (``--budget``) to keep it quick.
   A game still going after ``--max-plies`` plies is counted as a draw (adjudicated).

Usage: ``python bench/conquests_ai.py [--games 100] [--budget 1500] [--jobs 2]``
(takes a few minutes; run it in the background with ``nohup`` if you like).
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from conquest.games.conquests import GAME, position_from_text  # noqa: E402
from conquest.games.conquests.ai import LEVELS, Search, choose_action, random_action  # noqa: E402
from conquest.rng import Rng  # noqa: E402


def speed(budget: int) -> tuple[int, float, float]:
    """Nodes searched, wall seconds, CPU seconds (CPU time stays fair on a busy machine)."""
    perft = json.loads((ROOT / "tests" / "data" / "conquests_perft.json").read_text(encoding="utf-8"))
    nodes = 0
    seconds = 0.0
    cpu = 0.0
    for entry in perft["positions"]:
        state = position_from_text(entry["position"])
        search = Search(state, "hard", rng=Rng(1), node_budget=budget)
        t0, c0 = time.perf_counter(), time.process_time()
        while search.step(5000) is None:
            pass
        seconds += time.perf_counter() - t0
        cpu += time.process_time() - c0
        nodes += search.nodes
        print(
            f"  {entry['position']:<52} depth {search.depth:>2}  {search.nodes:>7} nodes  "
            f"move {search.best}",
            flush=True,
        )
    return nodes, seconds, cpu


def play_game(args: tuple[str, str, int, int, int]) -> tuple[str, str, int, int]:
    """One game: (white level, black level, White's result 2 win / 1 draw / 0 loss, plies)."""
    white, black, seed, budget, max_plies = args
    rng = Rng(seed)
    state = GAME.new_game({}, 0)
    levels = (white, black)
    while GAME.outcome(state) is None and state.ply < max_plies:
        level = levels[state.to_move]
        if level == "random":
            action = random_action(state, rng)
        else:
            action = choose_action(state, level, rng=rng, node_budget=budget if level == "hard" else None)
        state = GAME.apply(state, action)
    out = GAME.outcome(state)
    if out is None or not out.winners:
        result = 1  # draw
    else:
        result = 2 if out.winners == (0,) else 0
    return white, black, result, state.ply


def tournament(games: int, budget: int, max_plies: int, jobs: int) -> None:
    tasks = []
    seed = 1000
    for a, b in itertools.combinations(LEVELS, 2):
        for g in range(games):
            seed += 1
            tasks.append((a, b, seed, budget, max_plies) if g % 2 == 0 else (b, a, seed, budget, max_plies))
    score: dict[tuple[str, str], list[int]] = {}
    plies: dict[tuple[str, str], int] = {}
    t0 = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play_game, tasks, chunksize=4))
    else:
        results = [play_game(t) for t in tasks]
    for white, black, result, n in results:
        # count it from both sides: the table shows every level against every other
        for me, other, mine in ((white, black, result), (black, white, 2 - result)):
            wdl = score.setdefault((me, other), [0, 0, 0])
            wdl[{2: 0, 1: 1, 0: 2}[mine]] += 1
        key = tuple(sorted((white, black)))
        plies[key] = plies.get(key, 0) + n
    elapsed = time.perf_counter() - t0
    print(f"\nTournament: {games} games per pair, colours alternating, hard node budget {budget}, "
          f"draw adjudicated after {max_plies} plies ({elapsed:.0f} s)")
    print("row level against column level: wins-draws-losses (win share)")
    header = "".join(f"{lvl:>18}" for lvl in LEVELS)
    print(f"{'':>8}{header}")
    for me in LEVELS:
        cells = []
        for other in LEVELS:
            if me == other:
                cells.append(f"{'-':>18}")
                continue
            w, d, lo = score[(me, other)]
            cells.append(f"{f'{w}-{d}-{lo} ({w / (w + d + lo):.0%})':>18}")
        print(f"{me:>8}{''.join(cells)}")
    print("\naverage game length (plies):")
    for (a, b), n in sorted(plies.items()):
        print(f"  {a} v {b}: {n / games:.0f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--budget", type=int, default=1500, help="hard level node budget in the tournament")
    parser.add_argument("--speed-budget", type=int, default=60_000)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--skip-tournament", action="store_true")
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}: hard search, {args.speed_budget} nodes per position")
    nodes, seconds, cpu = speed(args.speed_budget)
    print(
        f"search speed: {nodes} nodes in {seconds:.2f} s wall = {nodes / seconds:,.0f} nodes per second; "
        f"{cpu:.2f} s CPU = {nodes / max(cpu, 1e-9):,.0f} nodes per CPU second"
    )
    if not args.skip_tournament:
        tournament(args.games, args.budget, args.max_plies, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
