"""To Reign Supreme: the readings the rulings leave open, decided (issue 25, item 4).

Each test pins one reading the rules page states under "Our readings where the original is
silent"; the test names say which. Positions come from :func:`tests.test_reign.position`:
layout ``wcamsh`` is the Workshop, the Citadel and the Agricultural Lands in the top row
(places 0-2), the Iron Mine, the Training Grounds and the Harbour below (places 3-5).
"""
from __future__ import annotations

import pytest

from conquest.core import IllegalAction
from conquest.games.reign import GAME
from conquest.games.reign.actions import Develop, Part, Reallocate
from tests.test_reign import card_with, player, position, refused

R = GAME.rules


def _declare(s, text: str = "bm"):
    s = GAME.apply(s, GAME.parse_action(text))
    if s.phase == "respond":
        s = GAME.apply(s, GAME.parse_action("p"))
    assert s.phase == "battle"
    return s


def test_reading_casualties_stop_at_the_troops_a_side_has_and_spoils_count_only_those() -> None:
    # R7 literally: 10 damage against 1 defence kills 9; Ana has 1 soldier and nothing hired
    heavy = card_with(3, 1, 4, 1)
    s = position(ladder=(3, 2, 2, 0, 1, 1), p0=player(0, 1, hand="C"), p1=player(6, 5, hand=heavy))
    s = _declare(s)
    t = GAME.apply(s, GAME.join_secret(s, {0: Part("C"), 1: Part(heavy, "m2b2")}))
    rep = t.last
    assert rep.damage[1] - rep.defence[0] >= 9
    assert rep.casualties[0] == 1 and t.players[0].military == 0
    assert rep.earned[1] == 1 * R.cards[R.card_index(heavy)].coins.value  # 1 coin, not 9


def test_reading_a_lost_battle_moves_the_card_only_for_three_troops_that_really_fell() -> None:
    # Ana loses, her raw damage is 3 or more beyond Ben's defence, but Ben has 1 soldier
    strong = card_with(3, 1, 4, 1)
    s = position(ladder=(3, 2, 2, 0, 1, 1), p0=player(3, 0, hand=strong), p1=player(0, 1, hand="A"))
    s = _declare(s)
    t = GAME.apply(s, GAME.join_secret(s, {0: Part(strong, "m2"), 1: Part("A")}))
    rep = t.last
    assert not rep.won and rep.damage[0] - rep.defence[1] >= 3
    assert rep.casualties[1] == 1 and rep.steps == 0 and t.ladder[3] == 0


def test_reading_the_defender_level_is_read_before_its_purchases_are_paid() -> None:
    # Ben: Wealth 4 + Military 4 = 8, level 2; his 2 Apothecaries cost 3 (Wealth 1: level 3).
    # Ana wins by exactly 3: more than 2 (before the purchases), not more than 3 (after)
    s = position(ladder=(3, 2, 2, 0, 1, 1), p0=player(0, 7), p1=player(4, 4))
    s = _declare(s)
    t = GAME.apply(s, GAME.join_secret(s, {0: Part("A"), 1: Part("A", "a2")}))
    rep = t.last
    assert rep.attack[0] - rep.attack[1] == 3 and rep.level == 2
    assert rep.steps == 3 and t.ladder[3] == 3  # Controlled by Ben -> Controlled by Ana


def test_reading_the_action_count_is_fixed_at_the_start_of_the_turn() -> None:
    # Wealth 3 + Military 4 = 7: 3 actions. Recover makes it 9 (level 2): the turn keeps 3
    s = position(p0=player(3, 4), actions=3, fought=5)  # a battle this turn: Recover allowed (R5)
    s = GAME.apply(s, GAME.parse_action("o"))
    assert GAME.level(s.players[0]) == 2 and s.actions_left == 2 and s.active == 0
    s = GAME.apply(s, GAME.parse_action("o"))
    assert s.actions_left == 1 and s.active == 0


def test_reading_reallocate_moves_the_opponents_influenced_cards_too() -> None:
    # Ana swaps her Agricultural Lands (place 2) with Ben's Iron Mine (place 3): each place
    # keeps its player, so Ben now Influences the Lands and Ana the Mine
    s = position(ladder=(2, 2, 2, 1, 1, 1), p0=player(3, 3))
    swap = Reallocate("wcmash")
    assert swap in GAME.legal_actions(s)
    t = GAME.apply(s, swap)
    assert t.ladder == s.ladder and t.players[0].wealth == 3 - R.reallocate.value
    assert t.place_of(R.territory_index("m")) == 2 and t.place_of(R.territory_index("a")) == 3


def test_reading_reallocate_rearranges_any_number_of_cards_in_one_action() -> None:
    """R5, the seed: "pick up any Influenced territory cards and rearrange them as you
    desire": every arrangement is one action at one price, and ``legal_actions`` lists them
    all (6! - 1 with six Influenced cards), each once, in a stable order."""
    s = position(ladder=(2, 2, 2, 1, 1, 1), p0=player(3, 3))
    moves = [a for a in GAME.legal_actions(s) if isinstance(a, Reallocate)]
    assert len(moves) == 719 == len(set(moves)) and moves == [a for a in GAME.legal_actions(s) if isinstance(a, Reallocate)]
    # three cards round: the Workshop to the Citadel's place, the Citadel to the Lands',
    # the Lands to the Workshop's (two swaps' worth, one action, 2 coins)
    cycle = Reallocate("awcmsh")
    assert cycle in moves
    t = GAME.apply(s, cycle)
    assert t.ladder == s.ladder and t.actions_left == s.actions_left - 1
    assert t.players[0].wealth == 3 - R.reallocate.value
    assert GAME.describe_action(s, cycle) == (
        "Ana Reallocates: the Agricultural Lands to the Weapons Workshop's place, "
        "the Weapons Workshop to The Citadel's place, The Citadel to the Agricultural Lands' place"
    )
    assert GAME.describe_action(s, Reallocate("wcmash")).endswith("the Agricultural Lands and the Iron Mine change places")
    # Controlled cards stay: with two of them, the four Influenced cards make 4! - 1
    c = position(ladder=(3, 2, 2, 1, 1, 0), p0=player(3, 3))
    lays = GAME.reallocations(c)
    assert len(lays) == 23 and all(lay[0] == c.layout[0] and lay[5] == c.layout[5] for lay in lays)
    assert sum(isinstance(a, Reallocate) for a in GAME.legal_actions(c)) == 23
    # no Reallocate without the coins (R5) or with fewer than two Influenced cards
    assert not any(isinstance(a, Reallocate) for a in GAME.legal_actions(position(ladder=(2, 2, 2, 1, 1, 1), p0=player(1, 3))))
    assert GAME.reallocations(position(ladder=(3, 3, 2, 0, 0, 0), p0=player(3, 3))) == []


def test_reading_challenging_middle_card_is_developed_only_from_a_controlled_neighbour() -> None:
    # Challenging setup: Ana's side is places 0 and 3; she starts Influencing the middle
    # Citadel (place 1). The seed: "must first Control the adjacent Territory on their side"
    s = position(ladder=(2, 2, 1, 2, 1, 1), setup="challenging", turn=1)
    assert Develop("c") not in GAME.legal_actions(s)
    err = refused(s, "dc", "R1.middle", "R1")
    assert "nobody's side" in err.message
    s = GAME.apply(s, GAME.parse_action("dw"))  # the Workshop on her side, next to the Citadel
    assert Develop("c") in GAME.legal_actions(s)
    s = GAME.apply(s, GAME.parse_action("dc"))
    assert s.ladder[1] == 3
    # a card on someone's side needs no neighbour: Ana Develops a card she Influences on
    # Ben's side of the Easy setup without Controlling anything next to it
    s = position(ladder=(2, 2, 2, 2, 1, 1))
    assert Develop("m") in GAME.legal_actions(s)
    assert GAME.apply(s, GAME.parse_action("dm")).ladder[3] == 3


def test_reading_recover_at_any_time_and_the_seeds_window_as_a_data_value() -> None:
    """The seed's Recover is "skip an action to recover after a battle". The project plays it
    at any time (R5; ``costs.recover.turns_after_battle`` null): read the seed's way (only in a
    turn with one's own battle) the first seat won 62.3% of 300 Challenging and 57.3% of 300
    Easy Heuristic games with edition 3's values (edition 2's: 67.7% and 59.0%; issue 25; the
    rules page has the figures). The window stays
    one value of the data file, and the state records the turn of the last battle."""
    from dataclasses import replace as _replace

    from conquest.games.reign.data import raw_data, rules_from_dict
    from conquest.games.reign.engine import ReignGame

    assert R.recover_within is None
    s = position(ladder=(3, 2, 2, 1, 1, 1), turn=5)
    assert "o" in [str(a) for a in GAME.legal_actions(s)]  # no battle yet: Recover all the same
    raw = raw_data()
    raw["costs"]["recover"]["turns_after_battle"] = 0
    game = ReignGame(rules_from_dict(raw))
    assert "o" not in [str(a) for a in game.legal_actions(s)]
    with pytest.raises(IllegalAction) as err:
        game.apply(s, game.parse_action("o"))
    assert err.value.code == "R5.recover" and "R5" in str(err.value) and "no battle this turn" in str(err.value)
    after = game.apply(game.apply(s, game.parse_action("bm")), game.parse_action("p"))
    after = game.apply(after, game.join_secret(after, {0: "A", 1: "B"}))
    assert after.fought == 5 and after.active == 0 and after.actions_left == 1
    assert "o" in [str(a) for a in game.legal_actions(after)]  # the attacker, in the battle's turn
    ben = _replace(after, turn=6, phase="turn", active=1, actions_left=2)
    assert "o" not in [str(a) for a in game.legal_actions(ben)]  # the defender, next turn
    ana = _replace(after, turn=7, phase="turn", active=0, actions_left=2)
    assert "o" not in [str(a) for a in game.legal_actions(ana)]  # the attacker, her next turn
    raw["costs"]["recover"]["turns_after_battle"] = 2
    game = ReignGame(rules_from_dict(raw))
    for turn, ok in ((5, True), (7, True), (8, False)):
        t = _replace(after, turn=turn, phase="turn", active=0, actions_left=1)
        assert ("o" in [str(a) for a in game.legal_actions(t)]) == ok, turn
