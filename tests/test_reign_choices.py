"""To Reign Supreme's choices and levels (issue 25).

Seeded self-play of the strongest level (Monte Carlo): issue 25 asks every action, purchase
and strategy card to be chosen in at least 5% of the situations where it is legal
(``bench/reign.py``'s :func:`choice_counts` says what a situation is). Edition 2 of the values
(Recover only after a battle, R5 as the seed says) meets it; edition 1 never played Reallocate.
And the strongest level beats Random in at least 95% of a few seeded games (issue 25's 60%
against the next level is not met by these values: see that test).
The games are few (CPU): the bench measures the same over many more (``--choices``,
``--vs-games``).
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from conquest.games.reign import GAME

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_reign", ROOT / "bench" / "reign.py")
    assert spec is not None and spec.loader is not None
    mod = sys.modules.get("bench_reign")
    if mod is None:
        mod = importlib.util.module_from_spec(spec)
        sys.modules["bench_reign"] = mod
        spec.loader.exec_module(mod)
    return mod


BENCH = _bench()
GAMES_PER_SETUP = 6


def test_every_choice_is_made_by_the_strongest_level() -> None:
    total = BENCH.choices(None, "Monte Carlo", GAMES_PER_SETUP)
    r = GAME.rules
    expected = (
        set(BENCH.ACTION_KINDS.values())
        | {f"buy {k.name}" for k in r.kinds}
        | {f"card {c.name}" for c in r.cards}
    )
    assert set(total) == expected  # every choice met its situation in these games
    low = {k: f"{c} of {n}" for k, (n, c) in total.items() if c < 0.05 * n}
    assert not low, f"chosen in under 5% of the situations where legal: {low}"


def _wins(strong: str, weak: str, n: int, seeds: tuple[int, int]) -> tuple[int, int]:
    """Games ``strong`` wins against ``weak`` (Easy setup): half as Player 1 from seed
    ``seeds[0]`` on, half as Player 2 from ``seeds[1]`` on (as ``bench/reign.py`` plays them)."""
    g1 = BENCH.run_games(None, "easy", (strong, weak), n // 2, 1, seed0=seeds[0])
    g2 = BENCH.run_games(None, "easy", (weak, strong), n - n // 2, 1, seed0=seeds[1])
    return sum(g["winner"] == 0 for g in g1) + sum(g["winner"] == 1 for g in g2), n


def test_the_strongest_level_beats_random() -> None:
    """A few seeded games. Issue 25 also asks the strongest level to beat the next in at least
    60% of games: with these values it does not (bench/reign.py --vs-games 300: Monte Carlo beat
    Heuristic in 161 of 300, 53.7% [48.0-59.2]; edition 1's values: 198 of 300, 66.0%), and a
    dozen games cannot tell 54% from 60%, so the bench measures it and no test claims it."""
    won, n = _wins("Monte Carlo", "Random", 8, (30_000, 31_000))
    assert won >= 0.95 * n, f"Monte Carlo beat Random in {won} of {n}"
