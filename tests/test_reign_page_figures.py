"""To Reign Supreme's rules page quotes its win rates with their 95% intervals (issue 25, item 3).

The Balance notes give win rates measured by ``bench/reign.py``. A point estimate alone hides
how wide the margin is (200 games leave about +/-7 points), so every quoted win rate carries its
Wilson interval, computed by the bench's own :func:`wilson` from the counts the page quotes.
This test recomputes each one, so a figure changed on the page without its interval (or the
other way round) fails.
"""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "site" / "rules" / "reign.md").read_text(encoding="utf-8")


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_reign", ROOT / "bench" / "reign.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_reign", mod)
    spec.loader.exec_module(mod)
    return mod


BENCH = _bench()


def page_form(k: int, n: int) -> str:
    """``52.6% [49.5–55.7]``: the bench's interval as the page writes it (en dash)."""
    text = re.sub(r"\s+", " ", BENCH.interval(k, n).strip()).replace("-", "–")
    return text.replace("100.0", "100")


#: (wins, finished games) behind every win rate the page quotes
QUOTED = [
    (526, 1000), (474, 1000),  # Easy, Heuristic
    (464, 999), (535, 999),  # Challenging, Heuristic, 1 of 1,000 unfinished
    (196, 400), (204, 400),  # Easy, Monte Carlo
    (216, 400), (184, 400),  # Challenging, Monte Carlo
    (553, 1000),  # Easy without the Agricultural Lands' heart
    (207, 300), (177, 300),  # the richer Controlled sides ("about 69%": the bracket is checked)
    (559, 1000),  # Raid with 2 coins per casualty
    (132, 300), (161, 300),  # Challenging, 300 Heuristic games, before and after the middle-card reading
    (300, 300), (231, 300), (198, 300),  # the levels against each other; Monte Carlo before its fix
    (1004, 2000), (996, 2000), (1039, 2000), (961, 2000),  # edition 2, Heuristic: Easy, Challenging
    (188, 400), (212, 400), (207, 400), (193, 400),  # edition 2, Monte Carlo: Easy, Challenging
    (229, 300),  # edition 2, Monte Carlo against Heuristic (against Random: 300 of 300, above)
    (203, 300), (177, 300),  # edition 2 with the seed's Recover, Heuristic: Challenging, Easy
    (1062, 2000), (938, 2000), (1082, 2000), (918, 2000),  # edition 3, Heuristic: Easy, Challenging
    (198, 400), (202, 400), (208, 400), (192, 400),  # edition 3, Monte Carlo: Easy, Challenging
    (223, 300),  # edition 3, Monte Carlo against Heuristic
    (187, 300), (172, 300),  # edition 3 with the seed's Recover, Heuristic: Challenging, Easy
    (72, 100), (76, 100),  # two better Controlled cards and Reallocate at 3 coins, Monte Carlo
    (62, 100), (68, 100), (229, 399), (254, 400),  # bench/reign_reallocate_trial.json: Monte Carlo, Heuristic
    (112, 200), (116, 200), (21, 50), (31, 50),  # editions 3 and 4 alike, 200 Heuristic and 50 Monte Carlo games per setup
]


@pytest.mark.parametrize(("k", "n"), QUOTED)
def test_each_quoted_win_rate_carries_its_wilson_interval(k: int, n: int) -> None:
    form = page_form(k, n)
    if (k, n) in ((207, 300), (177, 300)):  # quoted as "about 69%" and "59%": the bracket
        form = form[form.index("[") :]
    assert form in PAGE, form


def test_no_win_rate_is_quoted_without_an_interval() -> None:
    balance = PAGE[PAGE.index("## Balance notes") : PAGE.index("How often each strategy card")]
    levels = PAGE[PAGE.index("The levels against each other") : PAGE.index("Time per decision")]
    for part in (balance, levels):
        # measured rates are written with one decimal (or 100%); whole bounds such as "95%
        # interval" or "above 56%" are not measurements
        for m in re.finditer(r"\d+\.\d%|\b100%", part):
            assert part[m.end() : m.end() + 2] == " [", part[max(0, m.start() - 60) : m.end() + 10]


def test_wilson_interval_and_the_target() -> None:
    lo, hi = BENCH.wilson(100, 100)
    assert hi > 0.9999 and 0.96 < lo < 0.965  # all wins still leaves a lower bound below 100%
    assert BENCH.wilson(0, 0) == (0.0, 1.0)
    assert BENCH.on_target(526, 1000) and BENCH.on_target(474, 1000)
    assert not BENCH.on_target(105, 200)  # 52.5% but [45.6-59.3] reaches past 58%
    assert not BENCH.on_target(560, 1000)  # 56.0% is above 55%
