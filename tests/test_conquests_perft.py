"""Exact move counts (perft) of The Game of Conquests.

perft(p, 0) = 1; a finished position (won, lost or drawn) has no children; otherwise
perft(p, d) is the sum over the legal actions of perft(child, d - 1). A General move with
a placement counts once per (fighter, level, square) choice, besides the plain move (C4).

The numbers in ``tests/data/conquests_perft.json`` were written by the independent
generator ``tests/conquests_reference.py``; the engine must match them to depth 4, and the
reference itself is re-checked to depth 3 so the file cannot drift from it.
"""
from __future__ import annotations

import json
from pathlib import Path

import conquests_reference as reference  # noqa: E402  (tests/ is on sys.path under pytest)
import pytest

from conquest.games.conquests import GAME, position_from_text

PERFT = json.loads((Path(__file__).parent / "data" / "conquests_perft.json").read_text(encoding="utf-8"))
CASES = [(e["position"], e["perft"]) for e in PERFT["positions"]]


def engine_perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    actions = GAME.legal_actions(state)
    if depth == 1:
        return len(actions)
    return sum(engine_perft(GAME.apply(state, a), depth - 1) for a in actions)


def test_perft_file_covers_start_and_midgames_with_reserves():
    assert len(CASES) >= 5
    assert CASES[0][0] == "algcla/1s2s1/6/6/1S2S1/ALGCLA - w 0 1"
    assert sum(1 for text, _ in CASES if text.split()[1] != "-") >= 4
    assert all(len(counts) == 4 for _, counts in CASES)
    assert CASES[0][1] == [15, 178, 2809, 43969]


@pytest.mark.parametrize(("text", "counts"), CASES)
def test_engine_perft_matches_file_to_depth_4(text, counts):
    state = position_from_text(text)
    assert [engine_perft(state, d) for d in range(1, 5)] == counts


@pytest.mark.parametrize(("text", "counts"), CASES)
def test_reference_perft_matches_file_to_depth_3(text, counts):
    pos = reference.parse(text)
    assert [reference.perft(pos, d) for d in range(1, 4)] == counts[:3]


def test_reference_positions_are_the_files():
    assert [text for text, _ in CASES] == reference.POSITIONS
