"""Hostile and heavy links for the page's own limits (issue 20), shared by a browser test and
a benchmark so both open the same inputs.

Why here: ``tests/browser/test_hostile_page.py`` asserts the page stays alive and answers;
``bench/hostile_page.py`` prints how long its main thread was blocked (the Long Tasks API),
which tests never assert on.
"""
from __future__ import annotations

import base64
import zlib

from conquest.core import games, get_game
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match

#: lists nested this deep in a log: 102 characters of link stopped Pyodide before issue 20
NESTING_DEPTH = 4_700
#: the long games' length; the first legal action each time (for Short Campaign the last:
#: nobody answers, the case that was quadratic), so they are quick to make and replay
LONG_STEPS = 3_000


def raw_fragment(json_text: str, mode: str = "h") -> str:
    """A fragment carrying any JSON text, valid or not, as a link would (no checks)."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
    packed = comp.compress(json_text.encode("utf-8")) + comp.flush()
    return f"{mode}=c1." + base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


def nesting_fragment(game_id: str, depth: int = NESTING_DEPTH) -> str:
    log = "[" * depth + "]" * depth
    return raw_fragment(f'{{"v":1,"game":"{game_id}","options":{{}},"log":{log}}}')


def long_match(game_id: str, steps: int = LONG_STEPS) -> Match:
    game = get_game(game_id)
    match = Match(game, game.default_options(), rng=Rng(7))
    match.resolve_chance()
    pick = -1 if game_id == "campaign" else 0
    while len(match.log) < steps and match.outcome() is None:
        actions = match.legal_actions()
        if not actions:
            break
        match.play(actions[pick])
    return match


def long_fragment(game_id: str, steps: int = LONG_STEPS) -> str:
    return make_fragment(long_match(game_id, steps).save().to_json(), "h")


def game_ids() -> list[str]:
    return sorted(games())
