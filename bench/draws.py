"""Benchmark of the draw protocol (issue 26): not a test, it prints figures and asserts nothing.

Run: ``.venv/bin/python bench/draws.py`` (CPython) or ``node bench/draws_pyodide.mjs``
(the same code on Pyodide, the page's interpreter).

Prints the cost a person could notice in hot-seat play: sealing a chain (once per page
opened, at its first draw), one draw (the rule over the link and the contribution, then the
engine's own chance step) for a spin, World Conquest's dice and a 42-card deal, and checking
every draw of a long World Conquest game (what "Check the draws" does).
"""
from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conquest.bots import RandomBot  # noqa: E402
from conquest.core import get_game  # noqa: E402
from conquest.draws import Chain, check_draws, draw_values  # noqa: E402
from conquest.rng import Rng  # noqa: E402
from conquest.session import Match  # noqa: E402


def timed(fn: Callable[[], Any], runs: int) -> tuple[float, float]:
    """(median, max) milliseconds of ``runs`` calls."""
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return statistics.median(out), max(out)


def main() -> None:
    print(f"draws (issue 26) on {sys.implementation.name} {sys.version.split()[0]}")
    med, top = timed(lambda: Chain(), 20)
    print(f"  seal a chain of 1,024 links (once per page, at its first draw): median {med:.2f} ms, max {top:.2f} ms")
    chain = Chain()
    system = Rng(None)
    for label, sizes in (("a spin of 12 slices", (12,)), ("World dice, 3 against 2", (6,) * 5),
                         ("a 42-card deal (Fisher-Yates)", tuple(range(42, 1, -1)))):
        med, top = timed(lambda s=sizes: draw_values(chain.link(5), 6, "2:Lighthouse 42", s), 2000)
        old, _ = timed(lambda s=sizes: system.draw(s), 2000)
        print(f"  the rule for {label}: median {med * 1000:.0f} us, max {top * 1000:.0f} us "
              f"(before issue 26, the system generator: median {old * 1000:.0f} us)")
    game = get_game("world")
    m = Match(game, None, rng=Rng(1), checkable=True)
    m.resolve_chance()
    bot = RandomBot(Rng(2))
    per_draw: list[float] = []
    while game.outcome(m.state) is None and len(m.log) < 3000:
        m._push(game.format_action(bot.choose(game, m.state)))  # the player's step alone
        t1 = time.perf_counter()
        n = m.resolve_chance()
        t2 = time.perf_counter()
        if n:
            per_draw.append((t2 - t1) * 1000 / n)
    per_draw.sort()
    print(f"  World Conquest, one draw in play (rule + the engine's chance step), {len(per_draw)} draws: "
          f"median {statistics.median(per_draw):.3f} ms, p95 {per_draw[int(0.95 * (len(per_draw) - 1))]:.3f} ms, "
          f"max {per_draw[-1]:.3f} ms (the first includes sealing)")
    save = m.save().to_json()
    t0 = time.perf_counter()
    result = check_draws(game, m.states, m.log, m.undone, save["draws"])
    print(f"  Check the draws on that game ({len(m.log)} steps, {result.draws} draws, {result.status}): "
          f"{(time.perf_counter() - t0) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
