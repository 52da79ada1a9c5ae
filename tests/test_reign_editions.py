"""Editions of To Reign Supreme's reconstructed values (R5, R9; issue 25): a game replays
with the values it was dealt with.

``tests/data/reign_edition1_games.json`` holds three seeded bot games saved by the code of
commit 019d0e6 (before edition 2), with the numbers of their last positions as that code
computed them; they were made with ``conquest.bots.play_match`` (Heuristic against Heuristic,
seeds 11 and 12, easy and challenging; Random against Heuristic, seed 13, easy). Edition 1
differs from edition 2 in what Recruit and Disband give, so a replay with the wrong values
drifts from those numbers (a Disband gives twice the coins).

``tests/data/reign_edition2_games.json`` holds three more, saved the same way by the code of
commit e7efccc (edition 2, before edition 3; seeds 21 and 22 Heuristic against Heuristic, easy
and challenging; 23 Random against Heuristic, easy). Edition 3 changes the Apothecary's,
Steady Advance's and Raid's defence: replayed with edition 3's values, two of them are
refused mid-game and the third ends with other numbers (checked when they were made).

Edition 4 lets Recruit buy 2 or 3 Military (the seed's two amounts, R5), where editions 2 and
3 allowed 1, 2 or 3 and edition 1 allowed 1 or 2. One edition-1 game and one edition-2
game Recruit 1 (``+1``): they replay because their deal names their edition; the
same ``+1`` in a game of edition 4 is refused as ``R5.amount`` (and ``+3`` in one of edition 1).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from conquest.core import IllegalAction, InvalidAction
from conquest.games.reign import GAME
from conquest.games.reign.data import current_edition, edition_data, editions, load_rules
from conquest.rng import Rng
from conquest.savecode import decode_save, encode_save
from conquest.session import Match, replay

#: the saved games of each earlier edition (the module docstring says how they were made)
SAVED = {
    ed: json.loads((Path(__file__).parent / "data" / f"reign_edition{ed}_games.json").read_text()) for ed in (1, 2)
}


@pytest.mark.parametrize(("edition", "k"), [(ed, k) for ed, games in SAVED.items() for k in range(len(games))])
def test_earlier_edition_saves_replay_with_their_values(edition: int, k: int) -> None:
    item = SAVED[edition][k]
    match = replay(item["save"])
    st = match.state
    assert st.edition == edition and match.log[0] == item["save"]["log"][0]
    # the deal is "L" + layout, then the edition's number (edition 1: none written)
    assert match.log[0][7:] == ("" if edition == 1 else str(edition))
    assert list(st.ladder) == item["final"]["ladder"]
    assert [[p.wealth, p.military] for p in st.players] == item["final"]["players"]
    assert st.winner == item["final"]["winner"] and st.turn == item["final"]["turn"]
    # and through a link
    assert replay(decode_save(encode_save(match.save().to_json()))).state == st


def test_the_editions_differ_where_issue_25_changed_them() -> None:
    """Each earlier edition's values are the data file's with ``earlier_editions[n]`` put back."""
    assert current_edition() == 4 and editions() == (1, 2, 3, 4)
    one, two, three, four = load_rules(1), load_rules(2), load_rules(3), load_rules(4)
    assert (one.disband_rate.value, one.recruit_amounts.values) == (1, (1, 2))
    assert (two.disband_rate.value, two.recruit_amounts.values) == (2, (1, 2, 3)) == (
        three.disband_rate.value,
        three.recruit_amounts.values,
    )
    # edition 4: Recruit's two amounts, the seed's "+ or +" (R5); the rest is edition 3's
    assert (four.disband_rate.value, four.recruit_amounts.values) == (2, (2, 3))
    assert four.recruit_amounts.reconstructed
    assert replace(four, recruit_amounts=three.recruit_amounts) == three

    def defences(r: object) -> tuple[int, int, int]:
        kinds = {k.code: k.defence for k in r.kinds}  # type: ignore[attr-defined]
        cards = {c.code: c.defence.value for c in r.cards}  # type: ignore[attr-defined]
        return kinds["a"], cards["A"], cards["E"]

    # (Apothecary, Steady Advance, Raid): the worked example's 4 (card + one Apothecary) kept
    assert defences(one) == defences(two) == (1, 3, 2) and defences(three) == defences(four) == (2, 2, 3)
    assert all(x.recover_within is None for x in (one, two, three, four))
    for ed in (1, 2, 3, 4):
        assert edition_data(ed) == json.loads(json.dumps(edition_data(ed)))
    # codes and names never change between editions: the action texts mean the same
    for x in (two, three, four):
        for a, b in ((one.cards, x.cards), (one.territories, x.territories), (one.kinds, x.kinds)):
            assert [(y.code, y.name) for y in a] == [(y.code, y.name) for y in b]


def test_new_games_are_dealt_with_the_current_edition_and_old_deals_keep_theirs() -> None:
    m = Match(GAME, {"setup": "easy", "seed": 4}, rng=Rng(4))
    m.resolve_chance()
    deal = m.log[0]
    assert deal.endswith(str(current_edition())) and m.state.edition == current_edition()
    old = Match(GAME, {"setup": "easy", "seed": 4}, [deal[:7]])
    assert old.state.edition == 1 and old.state.layout == m.state.layout
    # the page's numbers follow the game's edition
    assert GAME.rules_of(old.state) is load_rules(1) and GAME.rules_of(m.state) is load_rules(current_edition())
    assert GAME.view(old.state, 0)["state"]["edition"] == 1


def test_an_unknown_edition_is_refused_citing_R9() -> None:
    m = Match(GAME, {"setup": "easy", "seed": 4}, rng=Rng(4))
    with pytest.raises(Exception) as err:
        m.play("Lwmscah9")
    assert getattr(err.value, "code", "") == "R9.edition" and "R9" in str(err.value)
    for bad in ("Lwmscah1", "Lwmscah02", "Lwmscahx"):  # edition 1 is written without a number
        with pytest.raises(Exception) as err:
            m.play(bad)
        assert getattr(err.value, "code", "") == "action.layout"


def test_recruit_one_replays_in_its_edition_and_is_refused_in_edition_4() -> None:
    """R5: edition 4 offers two amounts, 2 or 3; a log of editions 1 to 3 keeps its ``+1``."""
    plays_one = [(ed, k) for ed, games in SAVED.items() for k, item in enumerate(games) if "+1" in item["save"]["log"]]
    assert plays_one == [(1, 2), (2, 2)]  # replayed to their saved numbers above
    m = Match(GAME, {"setup": "easy", "seed": 4}, rng=Rng(4))
    m.resolve_chance()
    m.play("tAB/AB")
    assert m.state.edition == 4
    recruits = [str(a) for a in GAME.legal_actions(m.state) if str(a).startswith("+")]
    assert recruits == ["+2", "+3"]
    with pytest.raises(IllegalAction) as err:
        m.play("+1")
    assert err.value.code == "R5.amount" and err.value.message.startswith("R5: +1: ")
    assert "2 or 3" in err.value.message and "edition 4" in err.value.message
    assert "games of editions 1, 2 and 3 allowed Recruit 1" in err.value.message, err.value.message
    # the same moves dealt with edition 3's values: +1 is played
    old = Match(GAME, {"setup": "easy", "seed": 4}, [m.log[0][:-1] + "3", "tAB/AB"])
    assert [str(a) for a in GAME.legal_actions(old.state) if str(a).startswith("+")] == ["+1", "+2", "+3"]
    old.play("+1")
    assert old.state.players[0].military == m.state.players[0].military + 1
    # edition 1 had 1 or 2: its logs never hold +3, and one that did is refused the same way
    one = Match(GAME, {"setup": "easy", "seed": 4}, [m.log[0][:-1], "tAB/AB"])
    assert one.state.edition == 1
    with pytest.raises(IllegalAction) as err:
        one.play("+3")
    assert err.value.code == "R5.amount" and "1 or 2" in err.value.message
    assert "games of editions 2, 3 and 4 allowed Recruit 3" in err.value.message, err.value.message
    # an amount no edition has is malformed, not a rules refusal
    with pytest.raises(InvalidAction) as bad:
        GAME.parse_action("+4")
    assert bad.value.code == "action.amount"
