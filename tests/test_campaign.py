"""Short Campaign: one scenario per ruling S1-S8, plus actions, options, views and bots.

The scenarios use the test pack ``tests/data/campaign_pack.json`` (questions ``p1``-``p8``
are multiple choice, ``p9``-``p16`` guesses with known answers), so every question and
answer is readable here. The map is ``campaign15``; its territories by index:

     0 Boise          5 Jacksonville   10 Oklahoma City
     1 Chicago        6 Los Angeles    11 Rapid City
     2 Columbus, OH   7 Memphis        12 San Antonio
     3 Denver         8 Minneapolis    13 San Jose
     4 Houston        9 New York City  14 Seattle

New York City borders only Columbus, which makes it the Base for siege scenarios.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conquest.bots import play_match
from conquest.core import IllegalAction, InvalidAction, InvalidOptions
from conquest.games.campaign import GAME
from conquest.games.campaign.actions import Answers, Attack, Bases, Draw, Order, Pick, parse_action
from conquest.games.campaign.bots import CampaignBot
from conquest.games.campaign.engine import base_triples, board
from conquest.games.campaign.state import FREE, State
from conquest.rng import Rng
from conquest.savecode import decode_save, encode_save
from conquest.session import Match, replay

PACK = json.loads((Path(__file__).parent / "data" / "campaign_pack.json").read_text(encoding="utf-8"))
OPTS = {"pack": PACK, "players": ["Ann", "Ben", "Cleo"]}
ANN, BEN, CLEO = 0, 1, 2
BASES = (14, 4, 9)  # Seattle, Houston, New York City
#: guess answers of the test pack by id
GUESS = {"p9": 366, "p10": 1440, "p11": 24, "p12": 1969, "p13": 3600, "p14": 100000, "p15": 64, "p16": 168}


def begin() -> State:
    """Bases drawn, the first expansion question not yet drawn."""
    return GAME.apply(GAME.new_game(GAME.normalize_options(OPTS), 0), Bases(BASES))


def ask(st: State, qid: str) -> State:
    return GAME.apply(st, Draw(qid))


def say(st: State, parts: dict[int, Any]) -> State:
    """Answer the open question: per seat "R" (right letter), "W" (a wrong letter), a
    number (a guess), each as (value, ms), or None for no answer."""
    key = GAME.answer_key(st)
    out = {}
    for seat, part in parts.items():
        if part is None:
            out[seat] = None
            continue
        value, ms = part
        if value == "R":
            value = key
        elif value == "W":
            value = next(letter for letter in "ABCD" if letter != key)
        out[seat] = (value, ms)
    return GAME.apply(st, GAME.join_secret(st, out))


#: a battle layout: Ann west, Ben south, Cleo north-east (bases 14, 4, 9)
LAYOUT = {
    ANN: (14, 0, 13, 3, 6),
    BEN: (4, 12, 10, 5, 7),
    CLEO: (9, 2, 1, 8, 11),
}


def battle(
    layout: dict[int, tuple[int, ...]] = LAYOUT,
    points: tuple[int, ...] | None = None,
    towers: tuple[int, ...] = (3, 3, 3),
    order: tuple[int, ...] = (ANN, BEN, CLEO),
    round_: int = 1,
) -> State:
    """A state at the start of a battle round with the given territories, after ``order``."""
    st = begin()
    owner = [FREE] * 15
    for seat, ts in layout.items():
        for t in ts:
            owner[t] = seat
    value = tuple(1000 if t in BASES else 200 for t in range(15))
    if points is None:
        points = tuple(1000 + 200 * (len(layout[s]) - 1) for s in range(3))
    st = replace(
        st,
        owner=tuple(owner),
        value=value,
        points=points,
        towers=towers,
        phase="order",
        battle_round=round_,
        purpose="",
        asked=(),
        picks=(),
    )
    return GAME.apply(st, Order(order))


# ------------------------------------------------------------------------------------------
# Actions and options
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    ["B3.9.12", "Qk3f9a2", "Qp12", "O201", "O10", "a1500@4200,1480@5100,-", "aC@3200,-", "a-,-", "p7", "t14"],
)
def test_action_texts_round_trip(text: str) -> None:
    assert str(parse_action(text)) == text
    assert GAME.parse_action(text) == parse_action(text)


@pytest.mark.parametrize("text", ["", "x", "p", "p-1", "p07", "a", "aE@100", "a12", "a1@2@3", "QABCDEF", "B1..2", "t1000"])
def test_malformed_actions_are_invalid(text: str) -> None:
    with pytest.raises(InvalidAction):
        parse_action(text)


def test_options_leave_out_defaults_and_are_idempotent() -> None:
    assert GAME.normalize_options({}) == {}
    assert GAME.normalize_options({"players": ["Player 1", "Player 2", "Player 3"], "seconds": 20}) == {}
    opts = GAME.normalize_options({**OPTS, "seconds": 30, "categories": ["capitals"]})
    assert GAME.normalize_options(opts) == opts
    assert opts["players"] == ["Ann", "Ben", "Cleo"] and opts["seconds"] == 30
    assert set(opts["pack"]) == {"title", "source", "cats", "q"}  # the sealed form


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"players": ["A", "B"]}, "options.players"),
        ({"players": ["A", "a", "B"]}, "options.players"),
        ({"players": ["A", "B\x07", "C"]}, "options.players"),
        ({"seconds": 2}, "options.seconds"),
        ({"categories": ["no-such"]}, "options.categories"),
        ({"categories": []}, "options.questions"),
        ({"map": "atlantis"}, "options.map"),
        ({"pack_categories": ["x"]}, "options.pack_categories"),
        ({"colour": "red"}, "options.unknown"),
        ({"pack": PACK, "pack_categories": ["Colours"]}, "options.questions"),  # no guess question left
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidOptions) as info:
        GAME.normalize_options(options)
    assert info.value.code == code
    assert info.value.message


# ------------------------------------------------------------------------------------------
# S1 Bases
# ------------------------------------------------------------------------------------------
def test_s1_bases_are_one_chance_draw_among_non_adjacent_triples() -> None:
    st = GAME.new_game(GAME.normalize_options(OPTS), 0)
    spec = GAME.chance(st)
    triples = base_triples("campaign15")
    assert spec is not None and spec.kind == "bases" and spec.sizes == (len(triples),)
    adj = board("campaign15").adj
    assert all(b not in adj[a] for t in triples for a in t for b in t)
    assert GAME.legal_actions(st) == [] and GAME.to_move(st) is None
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, Bases((0, 3, 9)))  # Boise borders Denver
    assert info.value.code == "S1.adjacent" and "S1" in info.value.message
    with pytest.raises(IllegalAction):
        GAME.apply(st, Bases((1, 1, 9)))
    st = GAME.apply(st, GAME.chance_action(st, (17,)))
    assert st.base == triples[17] and st.points == (1000, 1000, 1000) and st.towers == (3, 3, 3)
    assert all(st.owner[t] == s and st.value[t] == 1000 for s, t in enumerate(st.base))
    assert st.phase == "draw" and st.purpose == "expand" and st.asked == (0, 1, 2)


# ------------------------------------------------------------------------------------------
# S3 Expansion
# ------------------------------------------------------------------------------------------
def test_s3_closest_then_fastest_picks_two_and_one() -> None:
    st = ask(begin(), "p9")  # 366 days
    assert GAME.simultaneous(st) == (0, 1, 2) and GAME.to_move(st) is None
    # Ann and Ben are both 6 off; Ben was faster. Cleo 1 off but... silent here.
    st = say(st, {ANN: (360, 5000), BEN: (372, 3000), CLEO: None})
    assert st.reveal is not None and st.reveal.ranking == (BEN, ANN) and st.reveal.result == "expand"
    assert st.phase == "pick" and st.picks == (BEN, BEN, ANN)
    assert sorted(GAME.pickable(st, BEN)) == [5, 7, 10, 12]  # Houston's free neighbours
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, Pick(0))
    assert info.value.code == "S3.border" and "S3" in info.value.message
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, Pick(9))
    assert info.value.code == "S3.not-free"
    st = GAME.apply(st, Pick(7))
    st = GAME.apply(st, Pick(2))  # Columbus now borders Ben's Memphis
    assert GAME.to_move(st) == ANN
    st = GAME.apply(st, Pick(13))
    assert st.points == (1200, 1400, 1000)
    assert [st.owner[t] for t in (7, 2, 13)] == [BEN, BEN, ANN] and st.value[7] == 200
    assert st.phase == "draw" and st.expansion_round == 2


def test_s3_closer_beats_faster_and_one_answer_gives_only_the_winners_picks() -> None:
    st = say(ask(begin(), "p10"), {ANN: (1400, 9000), BEN: (1000, 100), CLEO: (1500, 200)})
    assert st.reveal is not None and st.reveal.ranking == (ANN, CLEO, BEN)
    assert st.picks == (ANN, ANN, CLEO)
    st = say(ask(begin(), "p10"), {ANN: None, BEN: (1000, 100), CLEO: None})
    assert st.picks == (BEN, BEN)


def test_s3_nobody_answering_draws_another_question() -> None:
    st = say(ask(begin(), "p9"), {ANN: None, BEN: None, CLEO: None})
    assert st.reveal is not None and st.reveal.result == "none"
    assert st.phase == "draw" and st.purpose == "expand" and st.expansion_round == 1
    assert "p9" not in GAME._candidates(st)


def test_s3_any_free_territory_when_none_borders_the_empire() -> None:
    st = begin()
    owner = list(st.owner)
    owner[13] = owner[0] = CLEO  # Seattle (Ann) is now boxed in by Cleo
    st = replace(st, owner=tuple(owner), phase="pick", picks=(ANN,))
    free = [t for t, o in enumerate(st.owner) if o == FREE]
    assert GAME.pickable(st, ANN) == free
    st = GAME.apply(st, Pick(8))  # far away, allowed
    assert st.owner[8] == ANN


def test_s3_land_running_out_mid_round_loses_the_picks_left() -> None:
    st = begin()
    owner = list(st.owner)
    for t in range(15):
        if owner[t] == FREE and t not in (7, 10):
            owner[t] = CLEO
    st = replace(st, owner=tuple(owner))
    st = say(ask(st, "p11"), {ANN: (20, 1000), BEN: (24, 1000), CLEO: (30, 1000)})
    assert st.picks == (BEN, BEN)  # two left: the runner-up's pick is lost
    st = GAME.apply(GAME.apply(st, Pick(7)), Pick(10))
    assert FREE not in st.owner
    assert st.phase == "order" and st.battle_round == 1  # S4 begins


def test_s3_answers_must_be_in_range_and_in_time() -> None:
    st = ask(begin(), "p9")  # range 1..1000, 20 s
    for parts, code in [
        ({ANN: (0, 10), BEN: None, CLEO: None}, "S3.guess-range"),
        ({ANN: (1001, 10), BEN: None, CLEO: None}, "S3.guess-range"),
        ({ANN: (5, 20_001), BEN: None, CLEO: None}, "S8.time"),
        ({ANN: ("A", 10), BEN: None, CLEO: None}, "S3.guess-range"),
        ({ANN: (5, 10), BEN: None}, "S8.missing-answer"),
    ]:
        with pytest.raises(IllegalAction) as info:
            GAME.apply(st, GAME.join_secret(st, parts))
        assert info.value.code == code
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, parse_action("a5@10,-"))
    assert info.value.code == "S8.answer-count"
    # any answer in range and any time up to the limit is accepted, not only the listed ones
    GAME.apply(st, parse_action("a1@0,1000@20000,-"))


def test_answer_step_lists_representative_joint_answers_without_the_answer() -> None:
    st = ask(begin(), "p12")  # 1969, range 1900..2100
    parts = GAME.secret_choices(st, ANN)
    assert None in parts and len(parts) == 4
    assert all(p is None or 1900 <= p[0] <= 2100 for p in parts)
    assert all(p is None or p[0] != 1969 for p in parts)
    acts = GAME.legal_actions(st)
    assert len(acts) == 4**3 and all(isinstance(a, Answers) for a in acts)
    assert GAME.secret_choices(st, 7) == []
    st = battle()
    st = ask(GAME.apply(st, Attack(12)), "p1")
    assert GAME.simultaneous(st) == (ANN, BEN)
    assert len(GAME.legal_actions(st)) == 25
    assert GAME.secret_choices(st, CLEO) == []  # the third player only watches


# ------------------------------------------------------------------------------------------
# S4 Battle rounds
# ------------------------------------------------------------------------------------------
def test_s4_order_is_drawn_in_rounds_1_to_3_and_by_points_in_round_4() -> None:
    st = replace(battle(), phase="order", battle_round=2, order=())
    spec = GAME.chance(st)
    assert spec is not None and spec.kind == "order" and spec.sizes == (3, 2)
    orders = {GAME.chance_action(st, (a, b)).seats for a in range(3) for b in range(2)}
    assert len(orders) == 6
    last = replace(st, battle_round=4, points=(1400, 2000, 1400))
    for a in range(3):
        for b in range(2):
            seats = GAME.chance_action(last, (a, b)).seats
            assert seats[0] == BEN and sorted(seats[1:]) == [ANN, CLEO]
    with pytest.raises(IllegalAction) as info:
        GAME.apply(last, Order((ANN, BEN, CLEO)))
    assert info.value.code == "S4.last-round"
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, Order((ANN, BEN)))
    assert info.value.code == "S4.order"


def test_s4_targets_border_the_empire() -> None:
    st = battle(order=(ANN, BEN, CLEO))
    assert GAME.to_move(st) == ANN and st.phase == "attack"
    assert GAME.targets(st, ANN) == [10, 11, 12]
    assert GAME.legal_actions(st) == [Attack(10), Attack(11), Attack(12)]
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, Attack(7))  # Memphis is Ben's but not on Ann's border
    assert info.value.code == "S4.border" and "S4" in info.value.message
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, Attack(3))
    assert info.value.code == "S4.own"
    walled = {ANN: (14,), BEN: (4, 12, 10, 5, 7, 3, 6, 0, 13), CLEO: (9, 2, 1, 8, 11)}
    assert GAME.targets(battle(layout=walled, order=(BEN, ANN, CLEO)), ANN) == [0, 13]


def test_s4_four_rounds_then_the_end() -> None:
    st = battle(order=(ANN, BEN, CLEO), points=(1800, 1700, 1600))
    rounds = []
    for _ in range(200):
        if st.phase == "over":
            break
        if st.phase == "order":
            rounds.append(st.battle_round)
            st = GAME.apply(st, GAME.chance_action(st, (0, 0)))
        elif st.phase == "attack":
            st = GAME.apply(st, GAME.legal_actions(st)[0])
        elif st.phase == "draw":
            st = GAME.apply(st, GAME.chance_action(st, (0,)))
        elif st.phase == "answer":
            st = say(st, {s: None for s in st.asked})  # attackers silent: defenders always hold
    assert rounds == [2, 3, 4] and st.phase == "over" and st.battle_round == 4
    assert st.points == (1800, 1700, 1600) and GAME.outcome(st).winners == (ANN,)  # type: ignore[union-attr]


def test_s4_an_eliminated_player_is_passed_over() -> None:
    st = battle(layout=SIEGE, towers=(3, 3, 1), order=(ANN, CLEO, BEN))
    st = say(attack(st, 9), {ANN: ("R", 1), CLEO: ("W", 1)})
    assert not st.alive[CLEO] and GAME.to_move(st) == BEN and st.phase == "attack"
    st = replace(st, phase="order", battle_round=2, order=())
    assert GAME.chance(st).sizes == (2,)  # type: ignore[union-attr]
    assert sorted(GAME.chance_action(st, (1,)).seats) == [ANN, BEN]  # type: ignore[attr-defined]


def test_s4_each_player_attacks_once_per_round() -> None:
    st = battle(order=(CLEO, ANN, BEN))
    attackers = []
    while st.battle_round == 1 and st.phase != "over":
        if st.phase == "attack":
            attackers.append(st.attacker)
            st = GAME.apply(st, GAME.legal_actions(st)[0])
        elif st.phase == "draw":
            st = GAME.apply(st, GAME.chance_action(st, (0,)))
        elif st.phase == "answer":
            st = say(st, {s: None for s in st.asked})
        else:
            break
    assert attackers == [CLEO, ANN, BEN]
    assert st.phase == "order" and st.battle_round == 2


# ------------------------------------------------------------------------------------------
# S5 A battle
# ------------------------------------------------------------------------------------------
def attack(st: State, target: int, qid: str = "p1") -> State:
    return ask(GAME.apply(st, Attack(target)), qid)


def test_s5_attacker_wrong_defender_right_scores_the_defence_bonus() -> None:
    st = attack(battle(), 12)
    assert st.asked == (ANN, BEN) and st.target == 12 and st.defender == BEN
    after = say(st, {ANN: ("W", 1000), BEN: ("R", 2000)})
    assert after.points[BEN] == st.points[BEN] + 100 and after.owner[12] == BEN
    assert after.reveal is not None and after.reveal.result == "defender-bonus"
    assert GAME.to_move(after) == BEN  # next attacker


@pytest.mark.parametrize("att", [("W", 1000), None])
def test_s5_attacker_wrong_or_silent_with_defender_wrong_gives_no_bonus(att: Any) -> None:
    st = attack(battle(), 12)
    after = say(st, {ANN: att, BEN: None})
    assert after.points == st.points and after.owner[12] == BEN
    assert after.reveal is not None and after.reveal.result == "defender"


def test_s5_attacker_right_defender_wrong_takes_the_territory() -> None:
    st = attack(battle(), 12)
    after = say(st, {ANN: ("R", 9000), BEN: ("W", 1000)})
    assert after.owner[12] == ANN and after.value[12] == 400
    assert after.points[ANN] == st.points[ANN] + 400 and after.points[BEN] == st.points[BEN] - 200
    # the 400-point territory costs its next loser 400
    st2 = replace(after, phase="attack", turn=1)  # Ben's turn
    st2 = attack(st2, 12, "p2")
    lost = say(st2, {BEN: ("R", 100), ANN: ("W", 100)})
    assert lost.owner[12] == BEN and lost.points[ANN] == after.points[ANN] - 400
    assert lost.points[BEN] == after.points[BEN] + 400 and lost.value[12] == 400


def test_s5_both_right_goes_to_a_guess_question_closer_then_faster() -> None:
    st = attack(battle(), 12)
    tie = say(st, {ANN: ("R", 1000), BEN: ("R", 500)})
    assert tie.phase == "draw" and tie.purpose == "tiebreak" and tie.asked == (ANN, BEN)
    assert tie.reveal is not None and tie.reveal.result == "both-right"
    q = ask(tie, "p9")  # 366
    won = say(q, {ANN: (370, 9000), BEN: (300, 100)})
    assert won.owner[12] == ANN and won.points[ANN] == st.points[ANN] + 400
    faster = say(q, {ANN: (370, 900), BEN: (362, 1000)})  # both 4 off, Ann faster
    assert faster.owner[12] == ANN
    held = say(q, {ANN: (370, 1000), BEN: (362, 1000)})  # exact tie: the defender holds
    assert held.owner[12] == BEN and held.points == st.points  # no bonus for the guess
    silent = say(q, {ANN: None, BEN: None})
    assert silent.owner[12] == BEN


# ------------------------------------------------------------------------------------------
# S6 Towers
# ------------------------------------------------------------------------------------------
SIEGE = {ANN: (14, 0, 13, 3, 6, 2), BEN: (4, 12, 10, 5, 7), CLEO: (9, 1, 8, 11)}


def test_s6_a_siege_that_falls_on_the_last_tower() -> None:
    st = battle(layout=SIEGE, points=(2000, 1800, 1600))
    st = attack(st, 9, "p1")
    assert GAME.view(st, None)["attack"]["standing_base"]
    for tower, qid in ((3, "p2"), (2, "p3")):
        st = say(st, {ANN: ("R", 100), CLEO: ("W", 100)})
        assert st.towers[CLEO] == tower - 1 and st.owner[9] == CLEO
        assert st.phase == "draw" and st.purpose == "battle" and st.fights == 5 - tower
        assert st.points == (2000, 1800, 1600)  # a tower alone scores nothing
        st = ask(st, qid)
    end = say(st, {ANN: ("R", 100), CLEO: ("W", 100)})
    assert end.towers[CLEO] == 0 and not end.alive[CLEO]
    assert end.points == (2000 + 1600 + 1000, 1800, 0)
    assert all(o != CLEO for o in end.owner) and end.owner[9] == ANN and end.value[9] == 1000
    assert GAME.is_demolished_base(end, 9)
    assert GAME.view(end, None)["territories"][9]["demolished"]


def test_s6_a_siege_stops_at_the_first_loss_and_fallen_towers_stay_down() -> None:
    st = attack(battle(layout=SIEGE), 9, "p1")
    st = say(st, {ANN: ("R", 100), CLEO: ("W", 100)})
    assert st.towers[CLEO] == 2
    st = ask(st, "p2")
    st = say(st, {ANN: ("W", 100), CLEO: ("R", 100)})  # the attack ends; Cleo +100
    assert st.towers[CLEO] == 2 and st.owner[9] == CLEO and st.target == FREE
    assert st.points[CLEO] == 1600 + 100 and GAME.to_move(st) == BEN
    # next round, two wins are enough
    st = replace(st, phase="order", battle_round=2, order=())
    st = GAME.apply(st, Order((ANN, BEN, CLEO)))
    st = attack(st, 9, "p3")
    st = say(ask(say(st, {ANN: ("R", 1), CLEO: ("W", 1)}), "p4"), {ANN: ("R", 1), CLEO: ("W", 1)})
    assert not st.alive[CLEO] and st.owner[9] == ANN


def test_s6_a_demolished_base_is_worth_1000() -> None:
    layout = {ANN: (14, 0, 13, 3, 6, 2, 1), BEN: (4, 12, 10, 5, 7, 8, 11), CLEO: (9,)}
    st = battle(layout=layout, points=(2200, 2200, 1000), towers=(3, 3, 1))
    st = say(attack(st, 9), {ANN: ("R", 1), CLEO: ("W", 1)})
    assert not st.alive[CLEO] and st.points == (2200 + 1000 + 1000, 2200, 0)
    # Ben now attacks the demolished Base: one battle, 1000 each way
    assert GAME.to_move(st) == BEN and 9 not in GAME.targets(st, BEN)
    owner = list(st.owner)
    owner[2] = BEN  # give Ben Columbus so New York City is on his border
    st = replace(st, owner=tuple(owner))
    before = st.points
    st = say(attack(st, 9, "p2"), {BEN: ("R", 1), ANN: ("W", 1)})
    assert st.owner[9] == BEN and st.value[9] == 1000
    assert st.points == (before[ANN] - 1000, before[BEN] + 1000, 0)


# ------------------------------------------------------------------------------------------
# S7 The end
# ------------------------------------------------------------------------------------------
def last_attack(points: tuple[int, ...]) -> State:
    """Round 4, Cleo's attack is the last of the game and will fail."""
    st = battle(points=points, round_=4, order=tuple(sorted(range(3), key=lambda s: -points[s])))
    return replace(st, turn=2) if st.order[2] == CLEO else st


def test_s7_most_points_wins() -> None:
    st = last_attack((2000, 1800, 1500))
    assert st.attacker == CLEO
    end = say(attack(st, 10), {CLEO: None, BEN: None})
    assert end.phase == "over" and GAME.legal_actions(end) == [] and GAME.chance(end) is None
    out = GAME.outcome(end)
    assert out is not None and out.winners == (ANN,) and out.scores == (2000.0, 1800.0, 1500.0)


def test_s7_a_tie_is_settled_by_a_guess_question_between_the_tied() -> None:
    st = last_attack((2000, 2000, 1500))
    st = say(attack(st, 10), {CLEO: None, BEN: None})
    assert st.phase == "draw" and st.purpose == "final" and st.asked == (ANN, BEN)
    assert GAME.outcome(st) is None
    st = ask(st, "p16")  # 168 hours
    again = say(st, {ANN: (160, 3000), BEN: (176, 3000)})  # both 8 off, same time
    assert again.phase == "draw" and again.purpose == "final" and again.asked == (ANN, BEN)
    assert again.reveal is not None and again.reveal.result == "again"
    end = say(ask(again, "p15"), {ANN: (60, 4000), BEN: (66, 9000)})  # 64: Ben 2 off
    out = GAME.outcome(end)
    assert out is not None and out.winners == (BEN,) and "tie" in out.reason
    faster = say(st, {ANN: (160, 2000), BEN: (176, 3000)})
    assert GAME.outcome(faster).winners == (ANN,)  # type: ignore[union-attr]


# ------------------------------------------------------------------------------------------
# S8 Questions
# ------------------------------------------------------------------------------------------
def test_s8_no_question_is_asked_twice_and_a_small_pool_falls_back_to_the_bank() -> None:
    st = say(ask(begin(), "p9"), {ANN: None, BEN: None, CLEO: None})
    with pytest.raises(IllegalAction) as info:
        ask(st, "p9")
    assert info.value.code == "S8.repeat"
    with pytest.raises(IllegalAction) as info:
        ask(st, "p1")  # a multiple-choice question where a guess is needed
    assert info.value.code == "S8.question-kind"
    with pytest.raises(IllegalAction) as info:
        ask(st, "zzzzzz")
    assert info.value.code == "S8.unknown-question"
    used = tuple(f"p{i}" for i in range(9, 17))
    dry = replace(st, used=used)
    cands = GAME._candidates(dry)
    assert cands and all(len(c) == 6 for c in cands)  # bank ids, no pack question left
    assert GAME.question(dry, cands[0]).kind == "guess"  # type: ignore[union-attr]


def test_s8_a_seeded_bot_game_asks_every_question_once() -> None:
    levels = GAME.bot_levels()
    bots = [levels[name](Rng(i)) for i, name in enumerate(("Easy", "Medium", "Hard"))]
    match = play_match(GAME, {}, bots, Rng(11))
    drawn = [t[1:] for t in match.log if t.startswith("Q")]
    assert len(drawn) == len(set(drawn)) > 10
    assert match.state.used == tuple(drawn)


# ------------------------------------------------------------------------------------------
# Views and links never give an open question's answer away
# ------------------------------------------------------------------------------------------
def _has_number(text: str, n: int) -> bool:
    """``n`` as a whole number in ``text`` (plain or with thousands commas), not inside another."""
    return any(re.search(rf"(?<![0-9,.]){re.escape(form)}(?![0-9]|,[0-9])", text) for form in (str(n), f"{n:,}"))


def _keys(obj: Any, path: str = "") -> list[str]:
    if isinstance(obj, dict):
        return [k for key, v in obj.items() for k in [f"{path}.{key}", *_keys(v, f"{path}.{key}")]]
    if isinstance(obj, list):
        return [k for v in obj for k in _keys(v, path)]
    return []


def test_views_hide_the_open_answer_and_reveal_it_after() -> None:
    levels = GAME.bot_levels()
    bots = [levels["Hard"](Rng(i)) for i in range(3)]
    match = play_match(GAME, OPTS, bots, Rng(3))
    checked = 0
    for i, st in enumerate(match.states):
        if st.phase != "answer":
            continue
        q = GAME.question(st)
        assert q is not None
        for seat in (None, 0, 1, 2):
            view = GAME.view(st, seat)
            text = json.dumps(view["question"])
            assert "answer" not in view["question"] and "correct" not in text
            if q.kind == "guess" and q.answer not in (q.lo, q.hi):
                assert not _has_number(text, q.answer)
            # "answer" keys appear only in the reveal of a question already answered
            assert all(k.startswith(".reveal") for k in _keys(view) if k.endswith((".answer", ".correct")))
            assert view["reveal"] is None or view["reveal"]["question"]["id"] != q.id
        nxt = match.states[i + 1]
        assert nxt.reveal is not None and nxt.reveal.qid == q.id
        assert GAME.view(nxt, None)["reveal"]["question"]["answer"] == q.answer_text()
        drawn_text = GAME.describe_action(match.states[i - 1], parse_action(match.log[i - 1]))
        if q.kind == "guess":
            assert not _has_number(drawn_text, q.answer)
        checked += 1
    assert checked > 10


def test_a_link_never_holds_a_pack_answer_in_readable_form() -> None:
    match = Match(GAME, OPTS, rng=Rng(1))
    match.resolve_chance()
    code = encode_save(match.save().to_json())
    raw = json.dumps(decode_save(code), ensure_ascii=False)
    for q in PACK["questions"]:
        assert q["text"] in raw  # the questions travel...
        if q["type"] == "guess":
            assert not _has_number(raw, q["answer"])  # ...not their answers
    assert '"answer"' not in raw
    again = replay(decode_save(code))
    assert again.state == match.state


# ------------------------------------------------------------------------------------------
# A whole game with three bots; words; tables
# ------------------------------------------------------------------------------------------
def test_a_seeded_game_with_three_bots_finishes_and_replays() -> None:
    levels = GAME.bot_levels()
    assert list(levels) == ["Easy", "Medium", "Hard"]

    def run() -> Match:
        bots = [levels[name](Rng(40 + i)) for i, name in enumerate(levels)]
        return play_match(GAME, {"players": ["Eve", "Max", "Hal"]}, bots, Rng(9))

    match = run()
    out = GAME.outcome(match.state)
    assert out is not None and len(out.winners) == 1
    assert out.scores[out.winners[0]] == max(out.scores)
    assert match.log == run().log  # seeded: the same game again
    again = replay(decode_save(encode_save(match.save().to_json())))
    assert again.state == match.state
    stats = GAME.stats(match.state)
    assert set(stats) == {"Points", "Territories"} and all(len(v) == 3 for v in stats.values())
    assert sum(stats["Territories"]) == 15
    words = [GAME.describe_action(s, parse_action(t)) for s, t in zip(match.states, match.log, strict=False)]
    assert all(w and w[0].isupper() for w in words)
    assert any("Bases drawn" in w for w in words) and any("attacks" in w for w in words)


def test_describe_action_spells_out_a_battle() -> None:
    st = battle()
    assert GAME.describe_action(st, Attack(12)) == "Ann attacks San Antonio, held by Ben, worth 200."
    q = attack(st, 12)
    words = GAME.describe_action(q, GAME.join_secret(q, {ANN: (GAME.answer_key(q), 1500), BEN: None}))
    assert "Ann takes San Antonio, +400; Ben -200 (S5)" in words and "Ben: no answer" in words
    siege = attack(battle(layout=SIEGE), 9)
    assert "3 towers standing" in GAME.describe_action(battle(layout=SIEGE), Attack(9))
    words = GAME.describe_action(siege, GAME.join_secret(siege, {ANN: (GAME.answer_key(siege), 1), CLEO: None}))
    assert "fells a tower" in words and "2 still standing" in words


def test_rules_tables_and_view_basics() -> None:
    tables = GAME.rules_tables()
    assert set(tables) == {"scoring", "bots"}
    assert all(len(r) == len(t["head"]) for t in tables.values() for r in t["rows"])
    view = GAME.view(battle(), 1)
    assert view["phase"] == "attack" and view["to_move"] == ANN and view["targets"] == [10, 11, 12]
    assert [p["name"] for p in view["players"]] == ["Ann", "Ben", "Cleo"]
    assert view["territories"][9]["base_of"] == CLEO and view["territories"][9]["towers"] == 3
    assert GAME.hidden_information is False


# ------------------------------------------------------------------------------------------
# Bots
# ------------------------------------------------------------------------------------------
def test_bot_levels_differ_in_accuracy_spread_and_speed() -> None:
    st = attack(battle(), 12, "p1")
    key = GAME.answer_key(st)
    right: dict[str, int] = {}
    times: dict[str, list[int]] = {}
    for level in ("Easy", "Medium", "Hard"):
        bot = CampaignBot(Rng(5), level)
        parts = [bot.choose_secret(GAME, st, ANN) for _ in range(300)]
        right[level] = sum(1 for p in parts if p is not None and p[0] == key)
        times[level] = sorted(p[1] for p in parts if p is not None)
        assert all(p is None or 0 <= p[1] <= 20_000 for p in parts)
    assert right["Easy"] < right["Medium"] < right["Hard"]
    assert times["Hard"][150] < times["Medium"][150] < times["Easy"][150]
    spread = {}
    for level in ("Easy", "Hard"):
        bot = CampaignBot(Rng(6), level)
        guesses = [bot.guess(5000, 0, 20_100) for _ in range(300)]
        assert all(0 <= g <= 20_100 for g in guesses)
        spread[level] = sorted(abs(g - 5000) for g in guesses)[150]
    assert spread["Hard"] < spread["Easy"]
    narrow = CampaignBot(Rng(7), "Hard")
    years = [narrow.guess(1969, 1900, 2100) for _ in range(100)]
    assert all(1900 <= y <= 2100 for y in years) and sorted(abs(y - 1969) for y in years)[50] < 20


def test_bots_pick_and_attack_from_their_view() -> None:
    st = GAME.apply(say(ask(begin(), "p9"), {ANN: (366, 1), BEN: None, CLEO: None}), Pick(13))
    bot = CampaignBot(Rng(1), "Hard")
    choice = bot.choose(GAME, st)
    assert isinstance(choice, Pick) and choice.t in GAME.pickable(st, ANN)
    st = battle(layout=SIEGE, towers=(3, 3, 1))
    target = CampaignBot(Rng(1), "Hard").choose(GAME, st)
    assert target == Attack(9)  # one tower left on Cleo's Base: the best swing
    with pytest.raises(ValueError):
        CampaignBot(Rng(1), "Grandmaster")
