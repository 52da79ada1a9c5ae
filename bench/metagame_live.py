"""Benchmark of a Metagame campaign at a live table (issue 39): prints figures, asserts nothing.

Run: ``.venv/bin/python bench/metagame_live.py [--players 4] [--seeds 3]``

Four computer players (``GreedyMetagameBot``) play whole campaigns, twice each seed:
- **before**: every choice made at the host's console (as before live campaign tables),
  counting the console's inputs for each (a pick or button; a count per game and Assign; a
  sacrifice's picks, its button and its question);
- **after**: each player's choices made on their own device, through the trees the host's
  page sends it (``tests/metagame_table.py``: picks, buttons, typed counts, the question on
  the page), the host spinning and recording each result.

Printed per invasion: the host's inputs (before and after) and the players' (after); and
the time from a player's confirm until every device was sent the step: the host's page
applying it and drawing every device's page, in CPython (no network; the relay and the
browsers' own time are in ``bench/guests.py``).
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "tests", ROOT / "site" / "py", ROOT / "site" / "games"):
    sys.path.insert(0, str(p))

from metagame_table import play  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--max-steps", type=int, default=3000)
    args = ap.parse_args()
    rows = []
    for seed in range(1, args.seeds + 1):
        before, _ = play(args.players, seed, args.max_steps, at_console=True)
        after, _ = play(args.players, seed, args.max_steps)
        rows.append((seed, before, after))
    print(f"{args.players}-player campaigns, {args.seeds} seeds; inputs per invasion")
    print("seed | steps before/after | ended before/after | invasions before/after | "
          "host before | host after | players' devices after")
    for seed, b, a in rows:
        print(f"{seed} | {b.steps}/{a.steps} | {b.over}/{a.over} | {b.invasions}/{a.invasions} | "
              f"{b.host_in_invasions / max(1, b.invasions):.1f} | {a.host_in_invasions / max(1, a.invasions):.1f} | "
              f"{a.device_in_invasions / max(1, a.invasions):.1f}")
    b_all = sum(b.host_in_invasions for _, b, _ in rows) / max(1, sum(b.invasions for _, b, _ in rows))
    a_all = sum(a.host_in_invasions for _, _, a in rows) / max(1, sum(a.invasions for _, _, a in rows))
    print(f"host inputs per invasion: before {b_all:.1f}, after {a_all:.1f}")
    print(f"host inputs in a whole campaign: before {statistics.mean(b.host_inputs for _, b, _ in rows):.0f}, "
          f"after {statistics.mean(a.host_inputs for _, _, a in rows):.0f} (mean)")
    ms = sorted(x for _, _, a in rows for x in a.confirm_ms)
    if ms:
        p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
        print(f"a player's confirm to every device sent the step ({args.players} devices, host's page, CPython): "
              f"median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms over {len(ms)} confirms")
    marks = {k: sum(a.by.get(k, 0) for _, _, a in rows) for k in ("p", "h", "")}
    print(f"log steps after: {marks['p']} made on the players' devices, {marks['h']} by the host for them, "
          f"{marks['']} the host's own (spins, draws, duel results)")


if __name__ == "__main__":
    main()
