"""To Reign Supreme: the seed's worked example and one scenario per ruling (R1-R11).

Each test is named after the ruling it checks; positions are written out by hand with
:func:`position` because a ruling's scenario needs one exact position. The numbers of the
reconstructed cards are read from the data file, so retuning them does not break these
tests; the seed's own numbers (the worked example, R4, R6) are written out.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

import pytest

from conquest.core import IllegalAction, InvalidAction, InvalidOptions, games
from conquest.games.reign import GAME
from conquest.games.reign.actions import Part, Reveal
from conquest.games.reign.data import RulesError, raw_data, rules_from_dict
from conquest.games.reign.state import Player, State, state_from_json
from conquest.session import Match

R = GAME.rules


# -- helpers (the other test_reign_* files import these) --------------------------------
def idx(codes: str) -> tuple[int, ...]:
    """Card indices of card letters (``"AB"`` -> ``(0, 1)``)."""
    return tuple(R.card_index(c) for c in codes)


def player(wealth: int, military: int, hand: str = "ABC", tracker: str = "DE", discard: str = "") -> Player:
    return Player(wealth, military, idx(tracker), idx(hand), idx(discard))


def position(
    layout: str = "wcamsh",
    ladder: Sequence[int] = (2, 2, 2, 1, 1, 1),
    p0: Player | None = None,
    p1: Player | None = None,
    *,
    setup: str = "easy",
    active: int = 0,
    actions: int = 2,
    turn: int = 5,
    phase: str = "turn",
    fresh: tuple[int, ...] = (),
    fought: int = 0,
) -> State:
    """A position in the middle of a game: ``layout`` is territory codes at places 0..5,
    ``ladder`` the rung of each place from seat 0's view (0 Controlled by Ben ... 3 Controlled
    by Ana); ``fought`` the turn of the last battle (R5: Recover needs one only if the data file's
    ``turns_after_battle`` is set)."""
    return State(
        setup=setup,
        names=("Ana", "Ben"),
        layout=tuple(R.territory_index(c) for c in layout),
        ladder=tuple(ladder),
        players=(p0 or player(3, 3), p1 or player(3, 3)),
        phase=phase,
        active=active,
        turn=turn,
        actions_left=actions,
        fresh=fresh,
        fought=fought,
    )


def worked_example() -> State:
    """The seed's example turn, Player 1 = Ana (seat 0), Player 2 = Ben.

    Ana Controls the Weapons Workshop and the Citadel and Influences the Agricultural Lands;
    Ben Controls the Iron Mine and the Soldier Training Grounds and Influences the Merchant
    Harbour. Easy layout, Ana's row Workshop / Citadel / Agricultural Lands above Ben's
    Mine / Training Grounds / Harbour, so "the Weapons Workshop is adjacent to the Mine, the
    Citadel is not". Ana: Wealth 3, Military 6; Ben: Wealth 2, Military 5.
    """
    return position(
        "wcamsh",
        (3, 3, 2, 0, 0, 1),
        player(3, 6, hand="ACE", tracker="BD"),
        player(2, 5, hand="BCE", tracker="AD"),
        actions=2,
    )


def refused(state: State, text: str, code: str, ruling: str) -> IllegalAction:
    """Apply must refuse ``text`` with ``code``, cite ``ruling`` and quote the action."""
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, GAME.parse_action(text))
    err = info.value
    assert err.code == code, err.message
    assert err.message.startswith(ruling + ":"), err.message
    assert str(GAME.parse_action(text)) in err.message
    return err


#: the Apothecary's defence (R6): the worked example's attacker defends 4 with its card and
#: one Apothecary, so the card's defence is 4 minus it (edition 3: 2 + 2; editions 1 and 2: 3 + 1)
APOTHECARY = next(k.defence for k in R.kinds if k.code == "a")


def example_card() -> str:
    """The worked example's attacking card (Steady Advance): attack 3, damage 2, 1 coin."""
    return card_with(3, 4 - APOTHECARY, 2, 1)


def card_with(attack: int, defence: int, damage: int, coins: int) -> str:
    for c in R.cards:
        if (c.attack.value, c.defence.value, c.damage.value, c.coins.value) == (attack, defence, damage, coins):
            return c.code
    raise AssertionError(f"no card {attack, defence, damage, coins}")


# -- the worked example ------------------------------------------------------------------
def test_worked_example_from_the_seed() -> None:
    s = worked_example()
    # the seed's cards of the example: (attack 3, defence 4 - Apothecary, damage 2, 1 coin) and (2, 3, 2, 2)
    a, b = example_card(), card_with(2, 3, 2, 2)
    assert GAME.level(s.players[0]) == 2  # "Wealth: 3 Military: 6 Actions: 2"
    s = GAME.apply(s, GAME.parse_action("bm"))  # "Action 1 ... Attacking ... Mine"
    assert s.phase == "battle"  # Ben has 2 coins: he cannot Restructure (3), no answer step
    # Ana hires 1 Mercenary and 1 Apothecary, Ben 1 Mercenary and 1 Bribe: 2 coins each
    reveal = GAME.join_secret(s, {0: Part(a, "m1a1"), 1: Part(b, "m1b1")})
    assert str(reveal) == f"{a}m1a1/{b}m1b1"
    words = GAME.describe_action(s, reveal)
    assert words.startswith("Ana attacks the Iron Mine with Steady Advance, 1 Mercenary and 1 Apothecary")
    s = GAME.apply(s, reveal)
    rep = s.last
    assert rep is not None
    assert rep.attack == (9, 8)  # 6 + 3 against 5 + 2 + 1 (Bribe)
    assert rep.defence == (4, 4)  # 2 + 2 (Apothecary, edition 3) against 3 + 1 (Iron Mine's heart)
    assert rep.damage == (5, 7)  # 2 + 1 (Workshop) + 2 (Mercenary); 2 + 2 (Grounds) + 2 + 1
    assert rep.casualties == (3, 1)
    assert rep.earned == (1, 6)  # 1 coin x 1 casualty; 2 coins x 3 casualties
    # "Won Battle = Now Influences Mine": a margin of 1, not more than Ben's level 3 (R8)
    assert rep.won and rep.level == 3 and rep.steps == 2
    assert GAME.rung_words(s, s.ladder[3]) == "Influenced by Ana"
    ana, ben = s.players
    assert ana.wealth == 2  # "Wealth = 2": 3 - 2 + 1
    assert (ben.wealth, ben.military) == (6, 5)  # "Mercenary is the only casualty ... Military = 5, Wealth = 6"
    # The seed contradicts itself on Ana's Military: "3 Casualties means 1 Mercenary and 2
    # Soldiers perish" from Military 6 leaves 4, yet it prints "Military = 3" and then
    # "Wealth: 2 Military: 5". R7 decides: hired troops die first, then Military: 6 - 2 = 4.
    assert ana.military == 4
    # "Pay 1 to Develop Territory - change the Mine from Influence to Control" (R5)
    s = GAME.apply(s, GAME.parse_action("dm"))
    assert s.players[0].wealth == 1  # "Wealth: 1"
    # Ana has no action left and cannot Restructure, so Ben's turn begins with Resupply:
    # "Wealth: 6 (remaining Wealth is > base Wealth ...) Military: 5 (... > base Military ...)"
    assert s.active == 1 and (s.players[1].wealth, s.players[1].military) == (6, 5)
    coins, swords = GAME.base(s, 1)
    assert coins < 6 and swords < 5
    # The seed's "base Wealth of 1", "base Military of 4" and Ana's "he will start his next
    # turn with 8 [swords] and 6 [coins]" depend on territory values lost with the icons.
    # R9 reconstructs them and tunes them by self-play so that neither seat wins more than
    # 55%; richer Controlled sides, as those figures need, let the first player win 69% of
    # Easy games (bench/reign.py), so R9 decides and the test does not hold them.
    # "he can use the additional [heart] he just earned from the Mine to help with his
    # defense of the Mine" (R11): in Ben's turn the new Control is in force
    assert GAME.face(s, 3).heart.value == 1 and 3 not in s.fresh


def test_worked_example_before_the_turn_agrees_with_the_initial_strengths() -> None:
    """Ana's "Initial Strengths" (Wealth 3, Military 6) are at or above her Resupply floor,
    as they must be at the start of her turn (R3)."""
    coins, swords = GAME.base(worked_example(), 0)
    assert coins <= 3 and swords <= 6


# -- R1 ------------------------------------------------------------------------------------
def test_R1_start_layouts() -> None:
    assert GAME.new_game({"setup": "easy"}, 0).ladder == (2, 2, 2, 1, 1, 1)
    # Challenging: columns 0 (Ana) and 2 (Ben), the middle column shared one each
    ch = GAME.new_game({"setup": "challenging"}, 0)
    assert ch.ladder == (2, 2, 1, 2, 1, 1)
    assert [GAME.side_of(ch, q) for q in range(6)] == [0, None, 1, 0, None, 1]
    easy = GAME.new_game({}, 0)
    assert [GAME.side_of(easy, q) for q in range(6)] == [0, 0, 0, 1, 1, 1]
    with pytest.raises(InvalidOptions, match="R1"):
        GAME.normalize_options({"setup": "hard"})


def test_R1_adjacency_needs_a_controlled_neighbour_off_ones_side() -> None:
    # easy: Ben's row is off Ana's side; she Controls nothing, so nothing of his is in reach
    s = position(ladder=(2, 2, 2, 1, 1, 1))
    err = refused(s, "bm", "R1.adjacent", "R1")
    assert "Iron Mine" in err.message
    # Controlling the Workshop (place 0) reaches the Mine (place 3) below it, not the Grounds
    s = position(ladder=(3, 2, 2, 1, 1, 1))
    assert GAME.in_reach(s, 0, 3) and not GAME.in_reach(s, 0, 4)
    GAME.apply(s, GAME.parse_action("bm"))
    refused(s, "bs", "R1.adjacent", "R1")
    # a card on one's own side is always in reach (Ben's card on Ana's row)
    s = position(ladder=(2, 1, 2, 1, 1, 1))
    assert GAME.in_reach(s, 0, 1)
    GAME.apply(s, GAME.parse_action("bc"))


def test_R1_challenging_middle_needs_control_of_ones_side_first() -> None:
    s = position(ladder=(2, 2, 1, 2, 1, 1), setup="challenging")
    # Ben's middle card (place 4) is next to Ana's place 3 only when she Controls it
    refused(s, "bs", "R1.adjacent", "R1")
    refused(s, "rs", "R1.adjacent", "R1")
    s = position(ladder=(2, 2, 1, 3, 1, 1), setup="challenging")
    assert GAME.in_reach(s, 0, 4)


# -- R2 ------------------------------------------------------------------------------------
def test_R2_ladder_moves_and_refusals() -> None:
    s = position(ladder=(3, 2, 2, 1, 1, 1))
    refused(s, "bw", "R2.own", "R2")  # no battle over one's own card
    refused(s, "dm", "R2.develop", "R2")  # Develop only a card one Influences
    refused(s, "dw", "R2.develop", "R2")  # ... not one already Controlled
    t = GAME.apply(s, GAME.parse_action("dc"))
    assert t.ladder[1] == 3
    s = position(ladder=(3, 2, 2, 0, 1, 1))
    refused(s, "rm", "R2.reform", "R2")  # Reform only an Influenced card of the opponent
    t = GAME.apply(position(ladder=(3, 2, 2, 1, 1, 1)), GAME.parse_action("rm"))
    assert t.ladder[3] == 2  # Influenced by Ben -> Influenced by Ana


# -- R3 ------------------------------------------------------------------------------------
def test_R3_start_and_resupply_raises_never_lowers() -> None:
    s = GAME.new_game({}, 0)
    assert all((p.wealth, p.military) == (3, 3) for p in s.players)
    # Ben: Controls the Mine and the Grounds; Resupply raises his Wealth to their coins ...
    s = position(ladder=(2, 2, 2, 0, 0, 1), p1=player(0, 12), actions=1)
    s = GAME.apply(s, GAME.parse_action("e"))
    coins, swords = GAME.base(s, 1)
    assert s.players[1].wealth == coins > 0
    assert s.players[1].military == 12 > swords  # ... and never lowers his Military


def test_R3_workshop_alone_gives_no_negative_wealth() -> None:
    """"you won't have -1 Wealth if the only territory you control is the Weapons Workshop"."""
    s = position("wcamsh", (0, 2, 2, 2, 2, 2), p1=player(0, 0))
    assert GAME.face(s, 0).coins.value == -1
    assert GAME.base(s, 1)[0] == 0


def test_R3_wealth_never_above_twelve() -> None:
    s = worked_example()
    s = GAME.apply(s, GAME.parse_action("bm"))
    s = replace(s, players=(s.players[0], replace(s.players[1], wealth=11)))
    b = card_with(2, 3, 2, 2)
    s = GAME.apply(s, GAME.join_secret(s, {0: Part(example_card(), "m1a1"), 1: Part(b, "m1b1")}))
    assert s.last.earned[1] == 6 and s.players[1].wealth == 12  # 11 - 2 + 6 capped


# -- R4 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("wealth", "military", "actions"), [(8, 8, 1), (12, 12, 1), (7, 8, 2), (4, 4, 2), (4, 3, 3), (0, 0, 3)])
def test_R4_actions_by_strength(wealth: int, military: int, actions: int) -> None:
    s = position(p0=player(0, 0), p1=player(wealth, military), actions=1, fought=5)
    s = GAME.apply(s, GAME.parse_action("o"))  # Ana's last action (no coins to Restructure): Ben's turn
    assert s.active == 1
    p = s.players[1]
    assert s.actions_left == R.actions_for(p.wealth + p.military)
    assert GAME.level(player(wealth, military)) == actions


def test_R4_first_turn_has_two_actions() -> None:
    m = Match(GAME, {"seed": 1})
    m.resolve_chance()
    m.play("tDE/DE")
    assert m.state.turn == 1 and m.state.active == 0 and m.state.actions_left == 2
    assert GAME.level(m.state.players[0]) >= 2  # her level (3 or 2 after Resupply) gives 2 at most
    m.play("-1")
    m.play("-1")
    assert m.state.actions_left == 0 and m.state.players[0].wealth >= R.restructure.value
    assert m.state.active == 0  # she could still Restructure: the turn ends when she says so
    m.play("e")
    assert m.state.active == 1 and m.state.actions_left == GAME.level(m.state.players[1])


def test_R4_no_action_left() -> None:
    s = position(actions=0, p0=player(5, 5))  # may still Restructure, so the turn waits
    assert s.phase == "turn"
    refused(s, "o", "R4.no-actions", "R4")
    legal = [str(a) for a in GAME.legal_actions(s)]
    assert legal[-1] == "e" and all(a[0] == "x" for a in legal[:-1]) and len(legal) == 10


# -- R5 ------------------------------------------------------------------------------------
def test_R5_costs_of_actions() -> None:
    s = position(ladder=(3, 3, 2, 0, 1, 1), p0=player(10, 5, discard="", hand="ABC"))
    w = s.players[0].wealth
    # Reform: 1 coin + 1 per card the opponent Controls (Ben Controls 1: 2 coins)
    assert GAME.apply(s, GAME.parse_action("rs")).players[0].wealth == w - 2
    assert GAME.reform_cost(s, 0) == R.reform.value + R.reform_per_control.value * 1
    assert GAME.apply(s, GAME.parse_action("da")).players[0].wealth == w - R.develop.value
    t = GAME.apply(s, GAME.parse_action("Rwcamhs"))  # Ben's Grounds and Harbour swap places
    assert t.players[0].wealth == w - R.reallocate.value and t.layout[4] == R.territory_index("h")
    t = GAME.apply(s, GAME.parse_action("+2"))
    assert (t.players[0].wealth, t.players[0].military) == (w - 2 * R.recruit_rate.value, 7)
    t = GAME.apply(s, GAME.parse_action("-1"))
    assert (t.players[0].wealth, t.players[0].military) == (w + R.disband_rate.value, 4)
    t = GAME.apply(replace(s, fought=s.turn), GAME.parse_action("o"))  # after this turn's battle (R5)
    assert (t.players[0].wealth, t.players[0].military) == (w + R.recover_coins.value, 5 + R.recover_military.value)
    t = GAME.apply(s, GAME.parse_action("xAB"))  # no action used
    assert t.players[0].wealth == w - R.restructure.value == w - 3 and t.actions_left == s.actions_left
    assert t.players[0].tracker == idx("AB") and t.players[0].hand == idx("CDE")


def test_R5_refusals() -> None:
    s = position(ladder=(3, 3, 2, 0, 1, 1), p0=player(1, 12, discard="", hand="ABC"))
    refused(s, "rs", "R5.coins", "R5")  # 2 coins needed
    refused(s, "xAB", "R5.coins", "R5")
    refused(s, "+1", "R5.amount", "R5")  # Recruit buys 2 or 3 (edition 4)
    refused(replace(s, players=(player(5, 12), s.players[1])), "+2", "R3.range", "R3")  # Military already 12
    refused(s, "Rcwasmh", "R5.reallocate", "R5")  # the Workshop is Controlled: it stays
    refused(s, "Rwcamsh", "R5.reallocate", "R5")  # nothing moves
    refused(s, "wD", "R5.war-council", "R5")  # D is on the tracker, not discarded
    refused(position(p0=player(5, 5)), "xDE", "R5.restructure", "R5")
    refused(position(p0=player(5, 5, hand="A", discard="BC")), "xBC", "R5.restructure", "R5")


def test_R5_war_council_takes_back_discards() -> None:
    s = position(p0=player(0, 3, hand="A", discard="BC"))
    t = GAME.apply(s, GAME.parse_action("wC"))
    assert t.players[0].hand == idx("AC") and t.players[0].discard == idx("B")
    assert [str(a) for a in GAME.legal_actions(s) if str(a)[0] == "w"] == ["wB", "wC", "wBC"]


def test_R5_defender_may_restructure_when_attacked() -> None:
    s = position(ladder=(3, 2, 2, 1, 1, 1), p1=player(4, 3))
    s = GAME.apply(s, GAME.parse_action("bm"))
    assert s.phase == "respond" and GAME.to_move(s) == 1
    legal = [str(a) for a in GAME.legal_actions(s)]
    assert legal[0] == "p" and "xAB" in legal
    t = GAME.apply(s, GAME.parse_action("xAB"))
    assert t.phase == "battle" and t.players[1].wealth == 1 and t.players[1].hand == idx("CDE")
    assert GAME.apply(s, GAME.parse_action("p")).phase == "battle"


# -- R6 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("buys", "cost"),
    # the seed's four pictures: 5, 4, 5 and 3 coins
    [("m1a2b1", 5), ("m2a1", 4), ("s1a1b2", 5), ("m1a1b1", 3), ("", 0), ("s2b2", 6)],
)
def test_R6_purchase_prices(buys: str, cost: int) -> None:
    part = GAME.codec.part("A" + buys, "A" + buys)
    assert R.purchase_cost(GAME.codec.counts(part)) == cost


def test_R6_limits_and_effects() -> None:
    with pytest.raises(InvalidAction, match="R6"):
        GAME.parse_action("Am3/B")
    with pytest.raises(InvalidAction, match="R6"):
        GAME.parse_action("Am2s2a1/B")  # 5 purchases
    s = GAME.apply(position(ladder=(3, 2, 2, 1, 1, 1), p0=player(2, 3), p1=player(2, 3)), GAME.parse_action("bm"))
    with pytest.raises(IllegalAction, match="R6") as info:
        GAME.join_secret(s, {0: "As2", 1: "B"})  # 3 coins, Ana has 2
    assert info.value.code == "R6.coins"
    # each kind's effect: compare with the same battle bought without it
    base, _ = GAME.battle_totals(s, (Part("A"), Part("B")))
    for buys, attack, defence, damage in (("m1", 0, 0, 2), ("s1", 1, 1, 0), ("a1", 0, APOTHECARY, 0), ("b1", 1, 0, 1)):
        t, _ = GAME.battle_totals(s, (Part("A", buys), Part("B")))
        assert (t.attack[0] - base.attack[0], t.defence[0] - base.defence[0], t.damage[0] - base.damage[0]) == (
            attack,
            defence,
            damage,
        ), buys
    # 2 coins: no purchase, one of a kind (4) or one each of two kinds (6), per card
    assert len(GAME.secret_choices(s, 0)) == 3 * 11


# -- R7 ------------------------------------------------------------------------------------
def test_R7_defender_wins_ties() -> None:
    s = GAME.apply(position(ladder=(3, 2, 2, 1, 1, 1), p0=player(0, 5), p1=player(0, 5)), GAME.parse_action("bm"))
    same = example_card()
    t, _ = GAME.battle_totals(s, (Part(same), Part(same)))
    assert t.attack[0] == t.attack[1] and not t.won


def test_R7_hired_troops_die_first_and_casualties_stop_at_the_army() -> None:
    s = GAME.apply(position(ladder=(3, 2, 2, 1, 1, 1), p0=player(6, 1), p1=player(6, 9)), GAME.parse_action("bm"))
    s = GAME.apply(s, GAME.parse_action("p"))
    att = example_card()
    big = max(R.cards, key=lambda c: c.damage.value)
    t = GAME.apply(s, GAME.join_secret(s, {0: Part(att, "m1s1"), 1: Part(big.code, "m2")}))
    rep = t.last
    assert rep.damage[1] - rep.defence[0] == big.damage.value + 4 - (R.cards[R.card_index(att)].defence.value + 1) > 3
    # Ana has 2 hired troops and 1 Military: she cannot lose more than 3 (the rules are
    # silent; the project counts only troops that exist), the hired ones first
    assert rep.casualties[0] == 3 and t.players[0].military == 0


def test_R7_totals_follow_the_formulas() -> None:
    s = GAME.apply(position(ladder=(3, 3, 2, 0, 0, 1), p0=player(6, 4), p1=player(6, 7)), GAME.parse_action("bm"))
    a, b = R.cards[0], R.cards[1]
    t, _ = GAME.battle_totals(s, (Part(a.code, "s1b1"), Part(b.code, "a2")))
    workshop = R.territories[R.territory_index("w")].controlled
    citadel = R.territories[R.territory_index("c")].controlled
    mine = R.territories[R.territory_index("m")].controlled
    grounds = R.territories[R.territory_index("s")].controlled
    assert t.attack == [4 + a.attack.value + 2, 7 + b.attack.value]
    assert t.defence == [a.defence.value + 1, b.defence.value + 2 * APOTHECARY + mine.heart.value]
    assert t.damage == [
        a.damage.value + workshop.damage.value + citadel.damage.value + 1,
        b.damage.value + mine.damage.value + grounds.damage.value,
    ]
    assert t.earned[0] == t.casualties[1] * a.coins.value


# -- R8 ------------------------------------------------------------------------------------
def _battle_with_margin(ladder: Sequence[int], attack_gap: int, defender_level_total: int) -> State:
    """Ana attacks the Mine (place 3) with Military chosen to win by ``attack_gap`` with
    card A against card A; Ben's Wealth + Military is ``defender_level_total``."""
    ben_m = 4
    ben_w = defender_level_total - ben_m
    s = position(ladder=ladder, p0=player(0, ben_m + attack_gap), p1=player(ben_w, ben_m))
    s = GAME.apply(s, GAME.parse_action("bm"))
    if s.phase == "respond":
        s = GAME.apply(s, GAME.parse_action("p"))
    return GAME.apply(s, Reveal((Part("A"), Part("A"))))


@pytest.mark.parametrize(
    ("before", "gap", "total", "after", "steps"),
    [
        (0, 4, 7, 3, 3),  # level 3: winning by 4 > 3 conquers Controlled -> Controlled
        (0, 3, 7, 2, 2),  # winning by 3 only overthrows (Controlled -> Influenced by Ana)
        (0, 2, 16, 3, 3),  # level 1: "must succeed in battle by 2 or more"
        (0, 1, 16, 2, 2),
        (1, 1, 7, 3, 2),  # Occupy: Influenced by Ben -> Controlled by Ana
        (1, 8, 7, 3, 3),  # steps stop at Controlled by the attacker
    ],
)
def test_R8_steps_by_margin_and_level(before: int, gap: int, total: int, after: int, steps: int) -> None:
    s = _battle_with_margin((3, 2, 2, before, 1, 1), gap, total)
    assert s.last.steps == steps and s.ladder[3] == after


def test_R8_a_lost_battle_with_three_casualties_moves_one_step() -> None:
    # Ana loses (Military 0) but her damage kills 3 or more of Ben's: one step
    heavy = max(R.cards, key=lambda c: c.damage.value)
    weak = min(R.cards, key=lambda c: c.defence.value)
    s = position(ladder=(3, 2, 2, 0, 1, 1), p0=player(6, 0, hand=heavy.code), p1=player(0, 9, hand=weak.code))
    s = GAME.apply(s, GAME.parse_action("bm"))
    s = GAME.apply(s, GAME.join_secret(s, {0: Part(heavy.code, "m2"), 1: Part(weak.code)}))
    assert not s.last.won and s.last.casualties[1] >= 3
    assert s.last.steps == 1 and s.ladder[3] == 1  # Controlled by Ben -> Influenced by Ben
    # with fewer than 3 casualties inflicted nothing moves
    light = min(R.cards, key=lambda c: c.damage.value)
    strong = max(R.cards, key=lambda c: c.defence.value)
    s = position(ladder=(3, 2, 2, 0, 1, 1), p0=player(0, 0, hand=light.code), p1=player(0, 9, hand=strong.code))
    s = GAME.apply(s, GAME.parse_action("bm"))
    s = GAME.apply(s, GAME.join_secret(s, {0: Part(light.code), 1: Part(strong.code)}))
    assert not s.last.won and s.last.casualties[1] < 3
    assert s.last.steps == 0 and s.ladder[3] == 0


# -- R9 ------------------------------------------------------------------------------------
def test_R9_cards_follow_the_ruling() -> None:
    assert len(R.cards) == 5 and all(c.attack.value in (2, 3) for c in R.cards)
    have = {(c.attack.value, c.defence.value, c.damage.value, c.coins.value) for c in R.cards}
    assert {(3, 4 - APOTHECARY, 2, 1), (2, 3, 2, 2)} <= have
    names = [t.name for t in R.territories]
    for name in ("Weapons Workshop", "Iron Mine", "Soldier Training Grounds", "The Citadel", "Agricultural Lands"):
        assert name in names
    ws = R.territories[R.territory_index("w")].controlled
    assert (ws.coins.value, ws.damage.value) == (-1, 1) and not ws.coins.reconstructed
    assert R.territories[R.territory_index("m")].controlled.heart.value == 1
    assert R.territories[R.territory_index("s")].controlled.damage.value == 2


def test_R9_data_file_marks_every_reconstructed_value() -> None:
    raw = raw_data()
    assert "reconstructed" in raw["about"] and raw["facts"]["ruling_prefix"] == "R"
    # the seed's example cards are given (Steady Advance's defence only with the Apothecary's:
    # their sum is 4, the split is reconstructed); the other three are reconstructed in full
    for card in raw["strategy_cards"]:
        marked = [k for k in ("attack", "defence", "damage", "coins") if isinstance(card[k], dict)]
        expect = {"A": ["defence"], "B": []}.get(card["code"], ["attack", "defence", "damage", "coins"])
        assert marked == expect, card["name"]
    # every territory number the seed does not give carries the marker
    given = {("w", "controlled", "coins"), ("w", "controlled", "damage"), ("w", "controlled", "heart"),
             ("m", "controlled", "damage"), ("m", "controlled", "heart"),
             ("s", "controlled", "damage"), ("s", "controlled", "heart")}
    for t in raw["territories"]:
        for face in ("influenced", "controlled"):
            for key, value in t[face].items():
                assert isinstance(value, dict) == ((t["code"], face, key) not in given), (t["code"], face, key)
    # the action costs the seed does not give (R5) are marked; Develop, Reform, War Council
    # and Restructure are printed in the seed
    assert isinstance(raw["costs"]["reallocate"]["coins"], dict)
    assert isinstance(raw["costs"]["recover"]["coins"], dict)
    assert raw["costs"]["develop"]["coins"] == 1 and raw["costs"]["restructure"]["coins"] == 3
    # of the purchases' effects only the Apothecary's defence is reconstructed (R6)
    for kind in raw["purchases"]["kinds"]:
        marked = [k for k in ("attack", "defence", "damage") if isinstance(kind[k], dict)]
        assert marked == (["defence"] if kind["code"] == "a" else []), kind["name"]


def test_R9_bad_data_is_refused_with_the_ruling() -> None:
    raw = raw_data()
    raw["strategy_cards"][2]["attack"] = {"value": 4, "reconstructed": True}
    with pytest.raises(RulesError, match="R9"):
        rules_from_dict(raw)
    raw = raw_data()
    raw["strategy_cards"][0]["defence"] = {"value": 5 - APOTHECARY, "reconstructed": True}  # the example's 4 broken
    with pytest.raises(RulesError, match="R9"):
        rules_from_dict(raw)
    raw = raw_data()
    raw["territories"].pop()
    with pytest.raises(RulesError, match="R1, R9"):
        rules_from_dict(raw)


def test_R9_rules_tables_star_reconstructed_values() -> None:
    tables = GAME.rules_tables()
    assert set(tables) == {"strategy", "territories", "actions", "purchases", "levels"}
    for name, table in tables.items():
        assert table["caption"] and all(table["head"]), name
        assert all(len(row) == len(table["head"]) for row in table["rows"]), name
        json.dumps(table)
    rows = {row[0]: row for row in tables["strategy"]["rows"]}
    # Steady Advance: only its defence is reconstructed (the example gives it with the Apothecary's)
    assert ["*" in cell for cell in rows["Steady Advance"][1:]] == [False, True, False, False]
    assert all("*" not in cell for cell in rows["Plunder"][1:])
    assert sum("*" in cell for row in rows.values() for cell in row[1:]) == 13  # 3 cards x 4, and one
    assert "*" in tables["actions"]["rows"][3][1]  # Reallocate
    # the purchases: only the Apothecary's defence is reconstructed (R6: its icon was lost;
    # the worked battle gives it only summed with Steady Advance's defence)
    buys = {row[0]: row[1] for row in tables["purchases"]["rows"]}
    assert [name for name, cell in buys.items() if "*" in cell] == ["Apothecary"]
    assert buys["Apothecary"] == f"+{APOTHECARY}* defence" and "reconstructed (R6)" in tables["purchases"]["caption"]
    assert tables["levels"]["rows"] == [["16 or more", "1"], ["8 to 15", "2"], ["7 or less", "3"]]
    with open("site/rules/reign.md", encoding="utf-8") as f:
        page = f.read()
    for name in tables:
        assert f"\n[[table:reign:{name}]]\n" in page


# -- R10 -----------------------------------------------------------------------------------
def test_R10_secret_steps_and_bounded_joint_actions() -> None:
    s = GAME.new_game({}, 0)
    assert GAME.chance(s) is not None and GAME.legal_actions(s) == []
    s = GAME.apply(s, GAME.chance_action(s, [0, 0, 0, 0, 0]))
    assert GAME.simultaneous(s) == (0, 1) and GAME.to_move(s) is None
    assert len(GAME.secret_choices(s, 0)) == 10 and len(GAME.legal_actions(s)) == 100
    s = GAME.apply(s, GAME.join_secret(s, {0: "DE", 1: "CE"}))
    assert s.players[1].hand == idx("ABD")
    s = position(ladder=(3, 2, 2, 1, 1, 1), p0=player(12, 3), p1=player(0, 3))
    s = GAME.apply(s, GAME.parse_action("bm"))
    assert GAME.simultaneous(s) == (0, 1)
    assert len(GAME.secret_choices(s, 0)) == 3 * 50  # 12 coins: every purchase set
    # listed: each card with no purchase or one of a kind (Ana 3 x 5), Ben has no coins (3)
    joint = GAME.legal_actions(s)
    assert len(joint) == 15 * 3 and all(isinstance(a, Reveal) for a in joint)
    with pytest.raises(IllegalAction, match="R10"):
        GAME.join_secret(s, {0: "D", 1: "B"})  # D is on Ana's tracker
    with pytest.raises(IllegalAction, match="R10"):
        GAME.join_secret(s, {0: "A"})  # Ben has not chosen
    # a joint action outside the listed ones is still accepted (any legal parts)
    t = GAME.apply(s, GAME.join_secret(s, {0: "Am2s2", 1: "B"}))
    assert t.last.parts == ("Am2s2", "B") and t.players[0].wealth == min(12, 12 - 6 + t.last.earned[0])


# -- R11 -----------------------------------------------------------------------------------
def test_R11_new_control_takes_effect_at_the_end_of_the_turn() -> None:
    # Ana Develops the Training Grounds (+2 damage) and attacks in the same turn: not yet
    s = position("wsamch", (3, 2, 2, 1, 1, 1), p0=player(5, 5), p1=player(0, 5), actions=3)
    s = GAME.apply(s, GAME.parse_action("ds"))
    assert s.fresh == (1,) and GAME.bolts(s, 0) == GAME.face(s, 0).damage.value
    b = GAME.apply(s, GAME.parse_action("bm"))
    t, _ = GAME.battle_totals(b, (Part("A"), Part("A")))
    assert t.damage[0] == R.cards[0].damage.value + GAME.face(s, 0).damage.value
    # in Ben's turn, defending, the Grounds' bolts count for Ana
    s = GAME.apply(s, GAME.parse_action("e"))
    assert s.fresh == () and GAME.bolts(s, 0) == GAME.face(s, 0).damage.value + 2


def test_R11_heart_counts_when_defending_new_control() -> None:
    # Ana Develops the Iron Mine with her last action; in Ben's turn its heart defends it
    s = position("wcamsh", (3, 2, 2, 2, 1, 1), p0=player(1, 4), p1=player(0, 6), actions=1)
    s = GAME.apply(s, GAME.parse_action("dm"))
    assert s.active == 1 and s.ladder[3] == 3
    s = GAME.apply(s, GAME.parse_action("bm"))
    t, _ = GAME.battle_totals(s, (Part("A"), Part("A")))
    assert t.defence[0] == R.cards[0].defence.value + 1


def test_R11_controlling_all_six_wins_at_once() -> None:
    s = position(ladder=(3, 3, 3, 3, 3, 2), p0=player(3, 3), actions=2)
    s = GAME.apply(s, GAME.parse_action("dh"))
    out = GAME.outcome(s)
    assert out is not None and out.winners == (0,) and "R11" in out.reason
    assert GAME.legal_actions(s) == []
    refused(s, "o", "R11.over", "R11")


# -- texts ---------------------------------------------------------------------------------
ROUND_TRIP = [
    "Lwmscah", "tAB/DE", "bm", "p", "Am1a1/Bm1b1", "A/E", "Es2b2/C", "rm", "dh", "Rhmscaw",
    "+1", "+2", "-1", "-2", "o", "wA", "wBC", "xAB", "e",
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_action_text_round_trips(text: str) -> None:
    action = GAME.parse_action(text)
    assert str(action) == text and GAME.parse_action(str(action)) == action


def test_action_texts_are_normalised() -> None:
    assert str(GAME.parse_action(" Ab1m1/Ba1 ")) == "Am1b1/Ba1"
    assert str(GAME.parse_action("tBA/ED")) == "tAB/DE"
    assert str(GAME.parse_action("wCB")) == "wBC"


@pytest.mark.parametrize(
    "text",
    ["", "x", "bz", "b", "bmm", "Lwmscaa", "Lwmsc", "R", "+0", "+4", "-9", "+01", "Am0/B", "Am1m1/B",
     "Az1/B", "Am3/B", "Q/B", "A/", "tAA/BC", "tAB/C", "wZ", "w", "xA", "xABC", "xAA", "e e", "\x00",
     "A" * 50, "Am1a1/Bm1b1/C"],
)
def test_malformed_texts_are_invalid(text: str) -> None:
    with pytest.raises(InvalidAction) as info:
        GAME.parse_action(text)
    assert info.value.code.startswith("action.")


def test_refused_action_leaves_match_unchanged() -> None:
    m = Match(GAME, {"seed": 3})
    m.resolve_chance()
    m.play("tDE/DE")
    before = (list(m.log), GAME.state_to_json(m.state))
    for bad in ("bm", "Am1/B", "xDE", "p", "Lwmscah"):
        with pytest.raises((IllegalAction, InvalidAction)):
            m.play(bad)
    assert (list(m.log), GAME.state_to_json(m.state)) == before


def test_describe_and_stats_and_options() -> None:
    s = worked_example()
    assert GAME.describe_action(s, GAME.parse_action("bm")) == "Ana attacks the Iron Mine"
    assert GAME.describe_action(s, GAME.parse_action("dc")).startswith("Ana Develops The Citadel")
    assert GAME.describe_action(s, GAME.parse_action("+2")) == "Ana recruits 2 Military for 2 coins"
    assert GAME.stats(s) == {"Wealth": [3.0, 2.0], "Military": [6.0, 5.0], "Territories controlled": [2.0, 2.0]}
    assert GAME.normalize_options({"players": ["Player 1", "Player 2"]}) == {"setup": "easy"}
    opts = GAME.normalize_options({"setup": "challenging", "players": ["Ana", {"name": " Ben "}]})
    assert opts == {"setup": "challenging", "players": ["Ana", "Ben"]}
    assert GAME.normalize_options(opts) == opts
    assert GAME.new_game(opts, 0).names == ("Ana", "Ben")
    for bad in ({"players": ["A"]}, {"players": ["A", "a"]}, {"colour": 1}):
        with pytest.raises(InvalidOptions):
            GAME.normalize_options(bad)
    assert state_from_json(GAME.state_to_json(s)) == s
    with pytest.raises(InvalidOptions):
        state_from_json({"players": []})


def test_registered_with_facts_from_the_data_file() -> None:
    assert games()["reign"] is GAME
    assert (GAME.title, GAME.min_players, GAME.max_players, GAME.ruling_prefix) == ("To Reign Supreme", 2, 2, "R")
    assert list(GAME.bot_levels()) == ["Random", "Heuristic", "Monte Carlo"]
