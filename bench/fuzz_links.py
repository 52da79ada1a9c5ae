"""Fuzz of hostile links for all five games (issue 20), in CPython: prints figures.

Run: ``.venv/bin/python bench/fuzz_links.py [--per-game N] [--games world,reign] [--worst-only]``

For each game, N seeded inputs (default 20,000): URLs made from seeded playouts and then
mutated at every level (the log's steps, the options, the JSON, the compressed code, the
URL around it: two ``#``, a query, spaces, truncation). Each input goes through

- the page's path: the browser's ``location.hash`` (from the first ``#``) read by
  ``savecode.parse_fragment`` (decoder), then ``shell.check_save`` (replay), exactly as
  ``site/py/shell_browser.py`` opens a link;
- ``python -m conquest verify`` on the whole URL.

and the figures say how many were accepted, refused by the decoder, refused at set-up or
replay; how many **tracebacks** (an exception that is not a refusal, or verify's exit 3),
how many **over budget** (the page's path above 2 s CPU) and how many **disagreements**
(the page accepts and verify does not, or the other way round). The issue's target: 0, 0, 0.

Then each game's worst accepted log (the longest its step cap allows, of its dearest kind of
step) is opened, untraced for the time and traced for the memory (budget: 2 s, 200 MB).
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import random
import resource
import sys
import time
import tracemalloc
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "site" / "py"), str(ROOT / "tests")]

from shell import check_save  # noqa: E402

from conquest.__main__ import verify  # noqa: E402
from conquest.core import ConquestError, games, get_game  # noqa: E402
from conquest.rng import Rng  # noqa: E402
from conquest.savecode import REPLAY_BUDGET_US, make_fragment, max_steps, parse_fragment  # noqa: E402
from conquest.session import Match  # noqa: E402

BUDGET_S = REPLAY_BUDGET_US / 1e6
MEMORY_BUDGET = 200_000_000
BASE = "https://example.org/play/{game}/"
HOSTILE_STEPS = ["", " ", "!end", "p", "spin", "w,,,1", "r0 4,4,3,1", "x-", "da", "dd", "0", "-", "x" * 70,
                 "\u202e", "a-,-,-", "e", "Q", "b2b3", "dd:reign:a:1:" + "[" * 40 + "]" * 40 + ":"]
HOSTILE_VALUES: list[Any] = [None, True, -1, 0, 7, 10**6, 10**9, 10**30, 2.5, float("nan"), "", "x" * 3000,
                             [], [1] * 3, ["y"] * 9, [[[[]]]], {}, {"territories": 1}, {"territories": [{"id": 1}]},
                             [{"name": 5}] * 3, [{"name": "a", "bot": "zz"}] * 3, list(range(2000))]


def code_of(raw: bytes) -> str:
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    return "c1." + base64.urlsafe_b64encode(comp.compress(raw) + comp.flush()).decode().rstrip("=")


def playouts(game: Any, count: int = 4, steps: int = 60) -> list[dict[str, Any]]:
    out = []
    for seed in range(1, count + 1):
        rng = Rng(seed)
        m = Match(game, {**game.default_options(), "seed": seed}, rng=rng)
        m.resolve_chance()
        for _ in range(steps):
            acts = game.legal_actions(m.state)
            if game.outcome(m.state) is not None or not acts:
                break
            m.play(acts[rng.below(len(acts))])
        out.append(m.save().to_json())
    return out


def mutate_save(save: dict[str, Any], pool: list[str], keys: list[str], rnd: random.Random) -> Any:
    """A save changed at the JSON level (the log, the options, the shape)."""
    obj: Any = json.loads(json.dumps(save))
    log = obj["log"]
    op = rnd.randrange(12)
    if op < 4 and log:  # the log's steps
        for _ in range(1 + rnd.randrange(3)):
            i = rnd.randrange(len(log) + 1)
            kind = rnd.randrange(5)
            if kind == 0 and log:
                del log[min(i, len(log) - 1)]
            elif kind == 1:
                log.insert(i, rnd.choice(pool))
            elif kind == 2 and log:
                j = min(i, len(log) - 1)
                log[j] = log[j][:-1] + str(rnd.randrange(10))
            elif kind == 3:
                del log[i:]
                log.append(rnd.choice(pool))
            elif log:
                j = min(i, len(log) - 1)
                log[j] = log[j] * rnd.choice([2, 50])
    elif op < 7:  # the options
        opts = obj["options"]
        key = rnd.choice(keys + ["z" * rnd.choice([3, 9000]), "seed", "title"])
        opts[key] = rnd.choice(HOSTILE_VALUES)
    elif op == 7:  # nesting
        depth = rnd.choice([10, 33, 991, 4700])
        where = rnd.choice(["log", "options", "undone"])
        obj[where] = json.loads("[" * depth + "]" * depth) if depth < 900 else "DEEP"
        if depth >= 900:
            text = json.dumps(obj).replace('"DEEP"', "[" * depth + "]" * depth)
            return text
    elif op == 8:  # a long log of one cheap step
        obj["log"] = [rnd.choice(pool)] * rnd.choice([100, 5000, 30_000])
    elif op == 9:  # shape
        obj[rnd.choice(["v", "game", "log", "options", "extra", "undone"])] = rnd.choice(HOSTILE_VALUES)
    elif op == 10:  # another game's save
        obj["game"] = rnd.choice(sorted(games()))
    else:  # the log joined as a link joins it
        obj["log"] = ";".join(log)
    return obj


def mutate_url(url: str, rnd: random.Random) -> str:
    """Damage a whole URL as chat apps, typing and attackers do."""
    op = rnd.randrange(8)
    if op == 0:
        return url[: rnd.randrange(len(url) + 1)]
    if op == 1:
        i = rnd.randrange(len(url))
        return url[:i] + rnd.choice("#=%;. \u202eA_-") + url[i + 1 :]
    if op == 2:
        return url + "#" + rnd.choice(["", "h=c1.AAAA", "v=", "x", url.split("#", 1)[-1]])
    if op == 3:
        return url.replace("#", "#" + rnd.choice(["", "#", " ", "h=c1.#"]), 1)
    if op == 4:
        return url.replace("/#", "/?as=1#") if "/#" in url else url
    if op == 5:
        return "  " + url + "\n"
    return url


def make_input(gid: str, saves: list[dict[str, Any]], pool: list[str], keys: list[str], rnd: random.Random) -> str:
    save = rnd.choice(saves)
    mode = rnd.choice("hv")
    r = rnd.random()
    if r < 0.15:  # a good link, only the URL around it damaged
        url = BASE.format(game=gid) + "#" + make_fragment(save, mode)
    else:
        obj = mutate_save(save, pool, keys, rnd)
        raw = (obj if isinstance(obj, str) else json.dumps(obj, separators=(",", ":"))).encode("utf-8", "surrogatepass")
        url = BASE.format(game=gid) + f"#{mode}=" + code_of(raw)
    return mutate_url(url, rnd) if rnd.random() < 0.5 else url


def page_path(url: str) -> tuple[str, str]:
    """What a game page does with the URL (site/py/browser_open.py Opener.open_fragment)."""
    fragment = "#" + url.split("#", 1)[1] if "#" in url else ""
    if len(fragment) <= 1:
        return "none", ""
    try:
        _, save = parse_fragment(fragment)
    except ConquestError as exc:
        return "decoder", exc.code
    try:
        match = check_save(save)
    except ConquestError as exc:
        return "replay" if exc.code == "replay" else "set-up", exc.code
    return "ok", str(len(match.log))


def fuzz(gid: str, n: int, seed: int) -> dict[str, Any]:
    game = get_game(gid)
    saves = playouts(game)
    pool = sorted({t for s in saves for t in s["log"]} | set(HOSTILE_STEPS))
    keys = list(game.options_schema.keys) if game.options_schema else []
    rnd = random.Random(f"fuzz-links:{gid}:{seed}")
    verdicts: Counter[str] = Counter()
    tracebacks: list[str] = []
    over: list[str] = []
    disagree: list[str] = []
    slowest = 0.0
    for k in range(n):
        if k and k % 2000 == 0:  # progress on a busy machine: the counts so far
            print(f"    {gid}: {k:,} inputs, {dict(verdicts)}, tracebacks {len(tracebacks)}, over budget {len(over)}, "
                  f"disagreements {len(disagree)}, slowest {slowest:.3f} s", flush=True)
        url = make_input(gid, saves, pool, keys, rnd)
        t = time.process_time()
        try:
            verdict, _detail = page_path(url)
        except Exception as exc:  # noqa: BLE001 - counted: the issue's target is none
            verdict = "traceback"
            tracebacks.append(f"page: {type(exc).__name__}: {url[:120]!r}")
        took = time.process_time() - t
        slowest = max(slowest, took)
        if took > BUDGET_S:
            over.append(f"{took:.2f} s: {url[:120]!r}")
        out = io.StringIO()
        code = verify(url, out=out)
        if code == 3:
            tracebacks.append(f"verify exit 3: {url[:120]!r}")
        verdicts[verdict] += 1
        if verdict != "none" and verdict != "traceback" and (verdict == "ok") != (code == 0):
            disagree.append(f"page {verdict}, verify {code}: {url[:120]!r}")
    return {"verdicts": verdicts, "tracebacks": tracebacks, "over": over, "disagree": disagree, "slowest": slowest}


# ------------------------------------------------------------------------------------------
# each game's worst accepted log, at its step cap
# ------------------------------------------------------------------------------------------
def worst_log(gid: str) -> tuple[dict[str, Any], list[str], str]:
    """The dearest accepted log of each game at its cap, and what it is."""
    cap = max_steps(gid)
    if gid == "campaign":
        from test_hardening_links import campaign_unanswered

        options, log = campaign_unanswered(cap)
        return options, log, "questions nobody answers"
    if gid == "world":
        from test_hardening_links import world_long

        options, log = world_long(cap)
        return options, log, "place, one die, end turn"
    if gid == "metagame":
        from test_hardening_resources import MAX_EDGES, _worst_corrections, grid_map

        options = {"players": 8, "seed": 0, "map_data": grid_map(20, 10, extra_edges=MAX_EDGES - 370)}
        return options, _worst_corrections(options)[:cap], "host corrections on a 200-territory map"
    # reign and conquests end long before their caps: their longest seeded random playouts
    game = get_game(gid)
    best: tuple[dict[str, Any], list[str]] = ({}, [])
    for seed in range(1, 6):
        rng = Rng(seed)
        m = Match(game, {**game.default_options(), "seed": seed}, rng=rng)
        m.resolve_chance()
        while len(m.log) < cap and game.outcome(m.state) is None and (acts := game.legal_actions(m.state)):
            m.play(acts[rng.below(len(acts))])
        if len(m.log) > len(best[1]):
            best = (dict(m.options), list(m.log))
    return best[0], best[1], "the longest of 5 seeded random games (it ends before the cap)"


def worst_case(gid: str) -> None:
    game = get_game(gid)
    options, log, what = worst_log(gid)
    save = {"v": 1, "game": gid, "options": options, "log": log}
    url = BASE.format(game=gid) + "#" + make_fragment(save, "h")
    t = time.process_time()
    verdict, detail = page_path(url)
    cpu = time.process_time() - t
    tracemalloc.start()
    Match(game, options, log)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    flag = "ok" if cpu <= BUDGET_S and peak <= MEMORY_BUDGET else "OVER BUDGET"
    print(
        f"  {gid:<10} {len(log):>7,} steps ({what}), {len(url):,}-character link: page path {verdict} "
        f"in {cpu:.2f} s CPU, replay peak {peak / 1e6:.0f} MB (traced) [{flag}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-game", type=int, default=20_000)
    parser.add_argument("--games", default=",".join(sorted(games())))
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--worst-only", action="store_true")
    args = parser.parse_args()
    ids = [g for g in args.games.split(",") if g]
    total = Counter()
    if not args.worst_only:
        print(f"Fuzz: {args.per_game:,} seeded inputs per game (seed {args.seed}); budget {BUDGET_S:g} s CPU per input")
        for gid in ids:
            t = time.perf_counter()
            r = fuzz(gid, args.per_game, args.seed)
            took = time.perf_counter() - t
            v = r["verdicts"]
            print(
                f"  {gid:<10} accepted {v['ok']:>6,}  decoder refused {v['decoder']:>6,}  set-up refused "
                f"{v['set-up']:>5,}  replay refused {v['replay']:>5,}  | tracebacks {len(r['tracebacks'])}  "
                f"over budget {len(r['over'])}  disagreements {len(r['disagree'])}  | slowest {r['slowest']:.3f} s "
                f"({took:.0f} s in all)"
            )
            for line in (r["tracebacks"] + r["over"] + r["disagree"])[:5]:
                print("    " + line)
            total.update({"tracebacks": len(r["tracebacks"]), "over": len(r["over"]), "disagree": len(r["disagree"])})
        print(
            f"  all games: tracebacks {total['tracebacks']}, over budget {total['over']}, "
            f"disagreements {total['disagree']}; process peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3:.0f} MB"
        )
    print(f"Worst accepted log of each game (budget {BUDGET_S:g} s CPU, {MEMORY_BUDGET / 1e6:.0f} MB):")
    for gid in ids:
        worst_case(gid)


if __name__ == "__main__":
    main()
