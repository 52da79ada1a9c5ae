#!/usr/bin/env python3
"""How often people at one device must press Ready: hot-seat games played through the shell.

Why a benchmark: a pass-the-device screen that appears where nothing is private costs a press
and a hand-over on every move (issue 19). This plays seeded hot-seat games with the real
pages on the shell (``tests/page_host.FakeHost``, no browser), every seat a person whose
moves are chosen by the game's own computer player, and presses Ready whenever the shell
asks (``Session.needs_handover``) before the person acts. The moves are chosen by the game's
first computer player that is not random (World: Rule-based, To Reign Supreme: Heuristic).
It prints the presses:

- World Conquest, three people, territories dealt at random: before turn 1 (set-up), and
  through turn 3 and turn 9 (each person's first turn, and three rounds);
- the same without the random deal (every territory claimed, then the troops placed);
- To Reign Supreme, two people: over a whole duel, with the number of steps.

Runs in a few seconds; the figures depend only on the seeds.

Usage: python bench/handover.py [--seed 1] [--reign-seed 1]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # page_host puts site/py and site/games on the path

from page_host import make_page  # noqa: E402
from reign import ReignPage  # noqa: E402
from world import WorldPage  # noqa: E402

from conquest.bots import levels  # noqa: E402
from conquest.rng import Rng  # noqa: E402
from conquest.session import Match  # noqa: E402

COLOURS = ("#e69f00", "#56b4e9", "#009e73")


def decide(gen: Any) -> Any:
    """Run a bot's thinking generator to its answer."""
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def play(page_class: Any, options: dict[str, Any], seed: int, stop: Any, max_steps: int = 5000) -> dict[str, Any]:
    """Play a hot-seat game until ``stop(state)``; Ready presses counted along the way."""
    shell, _page, _host = make_page(page_class)
    game = shell.game
    shell.open(Match(game, options, rng=Rng(seed)), None)
    s = shell.session
    assert s is not None
    bot_rng = Rng(seed + 1)
    # the people play like the game's first computer player that is not random (a random
    # player rarely conquers, so rarely holds a card)
    level = next((x for x in levels(game) if x != "Random"), next(iter(levels(game))))
    bots = {}
    presses = 0
    marks: dict[str, int] = {}
    steps = 0
    while game.outcome(s.match.state) is None and not stop(s.match.state, marks, presses) and steps < max_steps:
        seat = s.needs_handover()
        if seat is not None:
            shell.handover.ready(seat)
            presses += 1
            continue
        state = s.match.state
        acting = s.acting_seat()
        assert acting is not None
        bot = bots.setdefault(acting, levels(game)[level](bot_rng))
        if game.simultaneous(state):
            ok = shell.give_secret(acting, decide(bot.think_secret(game, state, acting)))
        else:
            ok = shell.play(decide(bot.think(game, state)))
        assert ok, shell.message
        steps += 1
    stop(s.match.state, marks, presses)
    return {"presses": presses, "marks": marks, "log": len(s.match.log), "steps": steps}


def world(seed: int, deal: bool) -> dict[str, Any]:
    options = {
        "seats": [{"name": n, "colour": c} for n, c in zip(("Ann", "Ben", "Cy"), COLOURS, strict=True)],
        "order": "fixed",
        "deal": deal,
    }

    def stop(state: Any, marks: dict[str, int], presses: int) -> bool:
        if state.turn >= 1:
            marks.setdefault("before turn 1", presses)
        if state.turn > 3:
            marks.setdefault("through turn 3", presses)
        if state.turn > 9:
            marks.setdefault("through turn 9", presses)
            return True
        return False

    return play(WorldPage, options, seed, stop)


def reign(seed: int) -> dict[str, Any]:
    options = {"setup": "easy", "seats": [{"name": "Ann", "colour": COLOURS[0]}, {"name": "Ben", "colour": COLOURS[1]}]}
    return play(ReignPage, options, seed, lambda state, marks, presses: False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reign-seed", type=int, default=1)
    args = ap.parse_args()
    for deal in (True, False):
        r = world(args.seed, deal)
        m = r["marks"]
        print(f"World Conquest, 3 people, {'random deal' if deal else 'claimed territories'} (seed {args.seed}): "
              f"Ready presses before turn 1: {m.get('before turn 1')}; through turn 3: {m.get('through turn 3')}; "
              f"through turn 9: {m.get('through turn 9')} ({r['log']} log steps)")
    r = reign(args.reign_seed)
    print(f"To Reign Supreme, 2 people (seed {args.reign_seed}): {r['presses']} Ready presses in a duel of "
          f"{r['steps']} moves and secret parts ({r['log']} log steps)")


if __name__ == "__main__":
    main()
