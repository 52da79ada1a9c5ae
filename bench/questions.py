"""The question bench (issue 40): prints figures, asserts nothing (never a test).

Run: ``.venv/bin/python bench/questions.py [--games 200]`` (needs the ``questions`` extra for
the country sizes some habits use).

Per category of Short Campaign's bank:
- its size (multiple-choice and guess questions) and the share of questions with a picture;
- every guessing habit's rate over its multiple-choice questions (``tools/question_habits.py``:
  the middle or extreme option, the letters shared with the question, the most populous or
  largest country, the most widespread language, the most frequent option, the odd one out
  by length or form), the best of them and its lead over chance, in points;
- the option texts that are the answer in more than half of the questions that offer them;
- over ``--games`` seeded bot games, the share of the questions drawn that came from each
  category (all games together, and the largest share in any one game), and the share of
  distance questions among the guess questions drawn: before (a game without the ``mix``
  option) and after (with it, as the page sets every game up since).
"""
from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conquest.bots import play_match  # noqa: E402
from conquest.games.campaign import GAME  # noqa: E402
from conquest.games.campaign.questions import BANK_FILE  # noqa: E402
from conquest.rng import Rng  # noqa: E402
from conquest.savecode import load_json  # noqa: E402
from tools.question_balance import SUBJECT_HABITS  # noqa: E402
from tools.question_habits import habit_rates  # noqa: E402


def bank_figures(bank: dict) -> None:
    cats = bank["categories"]
    choice, guess = bank["choice"], bank["guess"]
    sizes = Counter(q[1] for q in choice)
    gsizes = Counter(q[1] for q in guess)
    pictures = Counter(q[1] for q in choice + guess if len(q) > 8 or (len(q) > 6 and isinstance(q[-1], dict)))
    rates = habit_rates(choice, cats)
    print(f"bank: {len(choice):,} multiple-choice, {len(guess):,} guess questions, {len(cats)} categories")
    print("category | choice | guess | pictures | best guessing habit | its rate | chance | lead (points) | telling options")
    worst = 0.0
    for i, c in enumerate(cats):
        r = rates.get(c["id"])
        pic = pictures[i] / max(1, sizes[i] + gsizes[i])
        if r is None:
            print(f"{c['name']} | 0 | {gsizes[i]} | {pic:.0%} | - | - | - | - | -")
            continue
        # a habit that is the question's own subject ("the most populous" for "which has the
        # most people?") is knowledge, not a guess: printed apart
        subject = SUBJECT_HABITS.get(c["id"], frozenset())
        name, rate = max(((h, x) for h, x in r["rates"].items() if h not in subject), key=lambda kv: kv[1])
        known = "".join(f" (knowing it: {h} {r['rates'][h]:.0%})" for h in sorted(subject))
        lead = (rate - r["chance"]) * 100
        worst = max(worst, lead)
        tell = sorted(r["telling"].items(), key=lambda kv: -kv[1][1])[:3]
        told = "; ".join(f"{o} {a}/{n}" for o, (a, n) in tell) or "none"
        print(f"{c['name']} | {sizes[i]} | {gsizes[i]} | {pic:.0%} | {name} | {rate:.0%} | {r['chance']:.0%} | "
              f"{lead:+.0f}{known} | {len(r['telling'])}: {told}")
    print(f"the largest lead of any habit over chance in any category: {worst:.0f} points (the issue's bound: 10)")
    every = Counter()
    for r in rates.values():
        for name, rate in r["rates"].items():
            every[name] += rate * r["size"]
    total = sum(r["size"] for r in rates.values())
    print("each habit over the whole bank: " + ", ".join(f"{k} {v / total:.0%}" for k, v in every.most_common()))


def draw_figures(bank: dict, games: int, options: dict, label: str) -> None:
    cats = [c["name"] for c in bank["categories"]]
    cat_of = {q[0]: q[1] for q in bank["choice"] + bank["guess"]}
    guess_ids = {q[0] for q in bank["guess"]}
    distance = next(i for i, c in enumerate(bank["categories"]) if c["id"] == "distances")
    levels = GAME.bot_levels()
    makers = list(levels.values())
    drawn: Counter[int] = Counter()
    max_share: Counter[int] = Counter()
    guesses = distances = 0
    per_game = []
    for seed in range(games):
        bots = [makers[i % len(makers)](Rng(1000 * seed + i)) for i in range(3)]
        match = play_match(GAME, options, bots, Rng(seed))
        asked = [u for u in match.state.used if u in cat_of]
        per_game.append(len(asked))
        c = Counter(cat_of[u] for u in asked)
        drawn.update(c)
        for k, n in c.items():
            max_share[k] = max(max_share[k], round(100 * n / max(1, len(asked))))
        g = [u for u in asked if u in guess_ids]
        guesses += len(g)
        distances += sum(1 for u in g if cat_of[u] == distance)
    total = sum(drawn.values())
    print(f"{label}: {games} seeded bot games, {statistics.mean(per_game):.1f} questions each (mean):")
    print("category | share of all questions drawn | largest share in one game")
    for k, n in drawn.most_common():
        print(f"{cats[k]} | {n / total:.1%} | {max_share[k]}%")
    print(f"distance questions among the guess questions drawn: {distances / max(1, guesses):.1%} ({distances} of {guesses})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    bank = load_json(BANK_FILE.read_text(encoding="utf-8"), "bank")
    bank_figures(bank)
    if args.games:
        draw_figures(bank, args.games, {}, "before (a game without the mix option, as set up before issue 40)")
        draw_figures(bank, args.games, {"mix": True}, "after (the mix option, every game set up since)")


if __name__ == "__main__":
    main()
