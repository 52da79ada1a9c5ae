"""Benchmark of the Short Campaign engine in CPython (not a test: prints figures, asserts nothing).

Run: ``.venv/bin/python bench/campaign.py [--games N]``

Prints:
- the bank: file size (and deflated, as the site ships it), questions by category and
  kind, time to read it, and the form-guess rate per category (issue 24);
- bot games (Easy, Medium, Hard at seats 0-2, seeded): time per game, log length, share
  link length (``conquest.savecode``), questions asked, how often each level wins;
- the time of one ``view`` and one ``apply`` (mean) over those games;
- the link length of a game that carries a 16-question pack, and of a pack near the size
  limit (350 long questions), to show what a pack costs in a link.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conquest.bots import play_match  # noqa: E402
from conquest.games.campaign import GAME  # noqa: E402
from conquest.games.campaign.questions import BANK_FILE, LEGACY_FILE, bank_from_json, load_pack, seal_pack  # noqa: E402
from conquest.rng import Rng  # noqa: E402
from conquest.savecode import encode_save  # noqa: E402
from conquest.session import Match  # noqa: E402
from tools.questions import form_guess_rates  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def bank_figures() -> None:
    t = time.perf_counter()
    raw = json.loads(BANK_FILE.read_text(encoding="utf-8"))
    bank = bank_from_json(raw)
    took = time.perf_counter() - t
    print(f"bank: {BANK_FILE.stat().st_size:,} bytes, {len(bank.questions):,} questions, read in {took * 1000:.0f} ms")
    for cat, name in bank.categories.items():
        kinds = bank.by_category[cat]
        print(f"  {name:24} {len(kinds['choice']):5} multiple-choice {len(kinds['guess']):5} guess")
    print(f"  {'total':24} {len(bank.by_kind['choice']):5} multiple-choice {len(bank.by_kind['guess']):5} guess")
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = len(z.compress(BANK_FILE.read_bytes()) + z.flush())
    print(f"  deflated as in the site's app.zip (every game page's first visit): {packed:,} bytes")
    rates = form_guess_rates(raw)
    print("  form-guess rate (pick the option that looks like the question; chance 25%): " + ", ".join(
        f"{c} {r:.0%}" for c, r in rates.items()))
    legacy = LEGACY_FILE.read_bytes()
    t = time.perf_counter()
    old = bank_from_json(json.loads(legacy))
    took = time.perf_counter() - t
    print(
        f"earlier editions (old games' questions; not in app.zip, fetched only by old games, cached by the "
        f"service worker): {len(legacy):,} bytes, gzip {len(gzip.compress(legacy, 9)):,}, "
        f"{len(old.questions):,} questions, read in {took * 1000:.0f} ms"
    )


def game_figures(n: int) -> None:
    levels = GAME.bot_levels()
    names = list(levels)
    wins: Counter[str] = Counter()
    times, logs, links, asked, views, applies = [], [], [], [], [], []
    for seed in range(n):
        bots = [levels[name](Rng(1000 * seed + i)) for i, name in enumerate(names)]
        t = time.perf_counter()
        match = play_match(GAME, {}, bots, Rng(seed))
        times.append(time.perf_counter() - t)
        out = GAME.outcome(match.state)
        if out is not None:
            wins[names[out.winners[0]]] += 1
        logs.append(len(match.log))
        links.append(len(encode_save(match.save().to_json())))
        asked.append(len(match.state.used))
        for st in match.states[::5]:
            t = time.perf_counter()
            GAME.view(st, 0)
            views.append(time.perf_counter() - t)
        replayed = Match(GAME, match.options)
        for text in match.log:
            t = time.perf_counter()
            replayed.states.append(GAME.apply(replayed.state, GAME.parse_action(text)))
            applies.append(time.perf_counter() - t)
    print(f"{n} bot games (seat 0 Easy, 1 Medium, 2 Hard):")
    print(f"  time per game: mean {statistics.mean(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms")
    print(f"  log: mean {statistics.mean(logs):.0f} steps (max {max(logs)}); questions asked: mean {statistics.mean(asked):.0f}")
    print(f"  link: mean {statistics.mean(links):.0f} characters, max {max(links)}")
    print(f"  view: mean {statistics.mean(views) * 1e6:.0f} us; apply: mean {statistics.mean(applies) * 1e6:.0f} us")
    print(f"  wins: {', '.join(f'{k} {wins[k]}' for k in names)}")


def pack_figures() -> None:
    pack = load_pack((ROOT / "tests" / "data" / "campaign_pack.json").read_text(encoding="utf-8"))
    match = Match(GAME, {"pack": pack}, rng=Rng(1))
    match.resolve_chance()
    print(f"link with the 16-question test pack, before any answer: {len(encode_save(match.save().to_json())):,} characters")
    big = [
        {
            "type": "choice",
            "category": f"Category {i % 30}",
            "text": f"Question {i}: which of these answers is the right one for this rather long question?",
            "options": [f"Answer {i}-{k} with a few more words" for k in range(4)],
            "answer": f"Answer {i}-0 with a few more words",
        }
        for i in range(350)
    ]
    sealed = seal_pack({"title": "Big pack", "questions": big})
    size = len(json.dumps(sealed, separators=(",", ":")))
    code = encode_save({"v": 1, "game": "campaign", "options": {"pack": sealed}, "log": []})
    print(f"a 350-question pack: {size:,} bytes sealed, link {len(code):,} characters")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50)
    args = ap.parse_args()
    bank_figures()
    game_figures(args.games)
    pack_figures()


if __name__ == "__main__":
    main()
