"""The benchmark hook: a save replayed and timed in this interpreter, and the campaign it replays.

Why a part: the same figures are measured from two places, the host tools' "Measure the
engine's speed here" button and ``window.conquestBench`` (set in ``main``), which
``bench/metagame_page.py`` drives in Chromium; neither needs the page's state.
"""
from __future__ import annotations

import json
from typing import Any

from conquest.games.metagame import GAME
from conquest.games.metagame.actions import Invade
from conquest.rng import Rng
from conquest.session import Match


def bench(save_text: str, repeats: int, clock: Any) -> str:
    """Replay a save in this interpreter and time it: the figures of ``bench/metagame_page.py``.

    Returns JSON: the replay time of the whole log (best and median of ``repeats``), the time
    of one action (parse + apply, mean/p95/max over the log), and of one view.
    """
    save = json.loads(save_text)
    n = max(1, int(repeats))
    replays = []
    m = None
    for _ in range(n):
        t0 = clock()
        m = Match(GAME, save["options"], save["log"])
        replays.append(clock() - t0)
    assert m is not None
    texts = list(save["log"])
    actions = [GAME.parse_action(t) for t in texts]
    t0 = clock()
    state = m.states[0]
    for text in texts:
        state = GAME.apply(state, GAME.parse_action(text))
    loop = clock() - t0
    applies = []
    state = m.states[0]
    for action in actions:
        t0 = clock()
        state = GAME.apply(state, action)
        applies.append(clock() - t0)
    sample = m.states[:: max(1, len(m.states) // 50)]
    t0 = clock()
    for st in sample:
        GAME.view(st, None)
    view_ms = (clock() - t0) / max(1, len(sample))
    applies.sort()
    replays.sort()
    return json.dumps({
        "actions": len(texts),
        "replay_ms_best": replays[0],
        "replay_ms_median": replays[len(replays) // 2],
        "apply_ms_mean": loop / max(1, len(texts)),
        "apply_ms_p95": applies[int(0.95 * (len(applies) - 1))] if applies else 0.0,
        "apply_ms_max": applies[-1] if applies else 0.0,
        "view_ms_mean": view_ms,
    })


BENCH_NAMES = ("Alexandra", "Benjamin", "Charlotte", "Dominic", "Eleanor", "Frederick", "Georgina", "Harrison")
BENCH_GAMES = ("conquests", "reign", "Chess on BoardGameArena", "Go", "Carcassonne", "Patchwork")


def bench_campaign(length: int = 500) -> dict[str, Any]:
    """A seeded campaign of 8 bots that invade whenever they can (invasions are the heavy
    actions), cut at ``length`` actions: what the speed figures replay."""
    from conquest.bots import RandomBot

    options = {"players": [{"name": n} for n in BENCH_NAMES], "games": list(BENCH_GAMES), "seed": 0}
    for seed in range(1, 60):
        rngs = [Rng(seed * 100 + i) for i in range(8)]
        bots = [RandomBot(r) for r in rngs]
        m = Match(GAME, options, rng=Rng(seed))
        while GAME.outcome(m.state) is None and len(m.log) < length:
            seat = GAME.to_move(m.state)
            legal = GAME.legal_actions(m.state)
            inv = [a for a in legal if isinstance(a, Invade)] if m.state.phase == "turn" else []
            m.play(inv[rngs[seat].below(len(inv))] if inv else bots[seat].choose(GAME, m.state))
        if len(m.log) >= length:
            save = m.save().to_json()
            save["log"] = save["log"][:length]
            return save
    raise RuntimeError("no bot campaign reached the length asked for")
