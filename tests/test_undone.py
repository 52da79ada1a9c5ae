"""A drawn chance result is never erased: undo keeps it on record (design.md).

The Metagame's spin is the case players watch most: spin, undo, spin again must leave the
first draw in the save, in every link made from it, in a replay and in ``verify``.
"""
from __future__ import annotations

import io

import pytest

from conquest.__main__ import verify
from conquest.games.metagame import GAME
from conquest.rng import Rng
from conquest.savecode import SaveCodeError, decode_save, encode_save, make_fragment, validate_save
from conquest.session import Match, replay


def at_spin() -> Match:
    m = Match(GAME, {"players": ["Ann", "Bob", "Cy"], "seed": 0}, rng=Rng(5))
    for _ in range(3):
        m.play(GAME.legal_actions(m.state)[0])
    target = m.state.board.adj[m.state.capital[0]][0]
    m.play(f"!o{target}=1")
    m.play(f"i{target}")
    while m.state.phase != "spin":
        m.play(GAME.legal_actions(m.state)[0])
    return m


def test_undo_past_a_spin_keeps_the_draw_in_the_save_links_replay_and_verify() -> None:
    m = at_spin()
    m.play("spin")
    first = m.log[-1]
    assert first.startswith("r")
    m.undo()
    assert m.log[-1] != first and m.undone == [(len(m.log), (first,))]
    m.play("spin")
    save = m.save().to_json()
    assert save["undone"] == [[len(m.log) - 2, [first]]]
    again = replay(decode_save(encode_save(save)))
    assert again.undone == m.undone and again.log == m.log
    out = io.StringIO()
    assert verify("#" + make_fragment(save, "v"), out=out) == 0
    assert f"Taken back by an undo after step {len(m.log) - 2}: '{first}'" in out.getvalue()


def test_saves_without_undos_are_unchanged_and_bad_records_are_refused() -> None:
    m = at_spin()
    assert "undone" not in m.save().to_json()
    base = m.save().to_json()
    for bad in ([[1]], [["x", ["r1 2,3"]]], [[1, []]], [[1, [3]]], "r1", [[10**9, ["r1"]]]):
        with pytest.raises(SaveCodeError):
            validate_save({**base, "undone": bad})
