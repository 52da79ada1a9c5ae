"""World Conquest: one scenario (or a few) per ruling W1-W9, then action texts, options,
views, descriptions, statistics, rules tables and a golden replay.

Positions are built directly: by default territory t belongs to seat t % 3 and holds 3
troops, seat 0 is in its attack phase. Territory indices: 0 Alaska, 1 Northwest Territory,
3 Alberta, 9 Venezuela, 11 Brazil, 20 North Africa, 29 Kamchatka, 38 Indonesia, 41
Eastern Australia (see conquest/data/maps/world42.json for all).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from conquest.core import ChanceSpec, IllegalAction, InvalidAction, InvalidOptions
from conquest.games.world import GAME
from conquest.games.world.actions import (
    Attack,
    Blitz,
    Deal,
    Defend,
    Draw,
    EndTurn,
    Fortify,
    Order,
    Place,
    Roll,
    Trade,
    parse_action,
)
from conquest.games.world.engine import conceal
from conquest.games.world.rules import RULES
from conquest.games.world.state import Battle, State
from conquest.rng import Rng
from conquest.savecode import decode_save, encode_save
from conquest.session import Match, replay

DATA = Path(__file__).resolve().parent / "data"
ALASKA, NWT, GREENLAND, ALBERTA, ONTARIO = 0, 1, 2, 3, 4
VENEZUELA, PERU, BRAZIL, ARGENTINA = 9, 10, 11, 12
NORTH_AFRICA, KAMCHATKA, INDONESIA, NEW_GUINEA, W_AUSTRALIA, E_AUSTRALIA = 20, 29, 38, 39, 40, 41


def position(n: int = 3, owner: dict[int, int] | None = None, troops: dict[int, int] | None = None,
             **fields: object) -> State:
    """A mid-game position: territory t is seat t % n's with 3 troops unless overridden."""
    st = GAME.new_game(GAME.normalize_options({"players": n, "order": "fixed"}), 0)
    own = [t % n for t in range(42)]
    tr = [3] * 42
    for t, o in (owner or {}).items():
        own[t] = o
    for t, k in (troops or {}).items():
        tr[t] = k
    base: dict[str, object] = {"owner": tuple(own), "troops": tuple(tr), "reserve": (0,) * n, "phase": "attack",
                               "current": 0, "turn": 1}
    base.update(fields)
    return replace(st, **base)  # type: ignore[arg-type]


def play(st: State, *texts: str) -> State:
    for text in texts:
        st = GAME.apply(st, parse_action(text))
    return st


def refused(st: State, text: str, code: str, words: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, parse_action(text))
    assert info.value.code == code
    assert words in info.value.message and f"'{text}'" in info.value.message
    return info.value


# -- W1 -----------------------------------------------------------------------------------------------
def test_W1_board_continents_and_sea_links() -> None:
    assert RULES.size == 42
    bonuses = {c.name: (len(c.members), c.bonus) for c in RULES.continents}
    assert bonuses == {
        "North America": (9, 5), "South America": (4, 2), "Europe": (7, 5),
        "Africa": (6, 3), "Asia": (12, 7), "Australia": (4, 2),
    }
    assert KAMCHATKA in RULES.adjset[ALASKA] and NORTH_AFRICA in RULES.adjset[BRAZIL]
    # the sea link is a border like any other: Alaska may attack Kamchatka
    st = position(troops={ALASKA: 4})
    assert Attack(ALASKA, KAMCHATKA, 3, 3) in GAME.legal_actions(st)


# -- W2 -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 7])
def test_W2_three_to_six_seats(n: int) -> None:
    with pytest.raises(InvalidOptions) as info:
        GAME.normalize_options({"players": n})
    assert "W2" in info.value.message


def test_W2_seat_order_is_a_chance_step_unless_fixed() -> None:
    st = GAME.new_game(GAME.normalize_options({"players": 4}), 0)
    assert st.phase == "order" and GAME.to_move(st) is None and GAME.legal_actions(st) == []
    assert GAME.chance(st) == ChanceSpec("order", (4, 3, 2))
    order = GAME.chance_action(st, (0, 0, 0))
    assert isinstance(order, Order) and sorted(order.seats) == [0, 1, 2, 3]
    st = GAME.apply(st, order)
    assert st.phase == "claim" and GAME.to_move(st) == order.seats[0]
    fixed = GAME.new_game(GAME.normalize_options({"players": 4, "order": "fixed"}), 0)
    assert fixed.phase == "claim" and fixed.order == (0, 1, 2, 3)
    # the draw is uniform: every permutation is reachable from the Fisher-Yates draws
    perms = {GAME.chance_action(st0, (a, b)).seats for st0 in [GAME.new_game({"players": 3}, 0)]
             for a in range(3) for b in range(2)}
    assert len(perms) == 6


# -- W3 -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "troops"), [(3, 35), (4, 30), (5, 25), (6, 20)])
def test_W3_start_troops(n: int, troops: int) -> None:
    st = GAME.new_game(GAME.normalize_options({"players": n, "order": "fixed"}), 0)
    assert st.reserve == (troops,) * n


def test_W3_claim_one_at_a_time_then_own_territories() -> None:
    st = GAME.new_game(GAME.normalize_options({"players": 3, "order": "fixed"}), 0)
    assert GAME.legal_actions(st) == [Place(t) for t in range(42)]
    st = play(st, "p0")
    assert st.owner[0] == 0 and st.troops[0] == 1 and st.current == 1 and st.reserve[0] == 34
    refused(st, "p0", "W3.claim", "W3: claim an empty territory first")
    refused(st, "p5x2", "W3.one", "W3: during the set-up troops are placed one at a time")
    for t in range(1, 42):
        st = play(st, f"p{t}")
    # every territory held: the next seat in turn order places on its own territories only
    assert st.phase == "setup" and st.current == 0
    assert GAME.legal_actions(st) == [Place(t) for t in range(0, 42, 3)]
    refused(st, "p1", "W3.own", "W3: place troops on your own territories")
    placed = 0
    while st.phase == "setup":
        me = st.current
        st = play(st, f"p{st.owner.index(me)}")
        placed += 1
    assert placed == 3 * 35 - 42
    # the first turn is the first seat's, with W4 reinforcements
    assert st.phase == "reinforce" and st.current == 0 and st.turn == 1 and st.pool == 4
    assert sum(st.troops) == 3 * 35


@pytest.mark.parametrize(("n", "counts"), [(3, [14, 14, 14]), (4, [11, 11, 10, 10]), (5, [9, 9, 8, 8, 8])])
def test_W3_random_deal(n: int, counts: list[int]) -> None:
    st = GAME.new_game(GAME.normalize_options({"players": n, "order": "fixed", "deal": True}), 0)
    assert st.phase == "deal" and GAME.chance(st) == ChanceSpec("deal", tuple(range(42, 1, -1)))
    deal = GAME.chance_action(st, Rng(7).draw(GAME.chance(st).sizes))
    assert isinstance(deal, Deal)
    st = GAME.apply(st, deal)
    assert [st.owner.count(s) for s in range(n)] == counts
    assert st.troops == (1,) * 42 and st.phase == "setup"
    assert list(st.reserve) == [RULES.start_troops[n] - c for c in counts]
    # placing goes on one troop at a time in turn order after the last territory dealt
    assert st.current == (42 % n) % n
    bad = Deal((0,) * 42)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(GAME.new_game(GAME.normalize_options({"players": n, "order": "fixed", "deal": True}), 0), bad)
    assert info.value.code == "W3.deal"


# -- W4 -----------------------------------------------------------------------------------------------
def _turn_of_seat0(territories: list[int], **fields: object) -> State:
    """Seat 0 holds exactly ``territories`` (seat 1 the rest); seat 1 ends its turn, seat 2
    is out, so seat 0's turn starts."""
    owner = {t: (0 if t in territories else 1) for t in range(42)}
    return play(position(owner=owner, current=1, **fields), "e")


def test_W4_territories_over_three_with_a_minimum_of_three() -> None:
    st = _turn_of_seat0(list(range(0, 42, 3)))  # 14 territories, no continent
    assert st.phase == "reinforce" and st.current == 0 and st.pool == 14 // 3
    st = _turn_of_seat0([13, 18, 26, 33, 36, 14, 19])  # 7 territories, no continent
    assert st.pool == 3


def test_W4_continent_bonuses_example_from_the_rules_page() -> None:
    # 14 territories with all of South America and Australia: 4 + 2 + 2, then a third trade: 8
    mine = [VENEZUELA, PERU, BRAZIL, ARGENTINA, INDONESIA, NEW_GUINEA, W_AUSTRALIA, E_AUSTRALIA, 13, 15, 26, 28, 30, 32]
    st = _turn_of_seat0(mine, trades=2, hands=((0, 0, 3), (0, 0, 0), (0, 0, 0)), deck=(14, 14, 11))
    assert st.pool == 4 + 2 + 2
    st = play(st, "taaa")
    assert st.pool == 16


# -- W5 -----------------------------------------------------------------------------------------------
def test_W5_trade_values_count_over_the_whole_game() -> None:
    assert [RULES.trade_value(k) for k in range(9)] == [4, 6, 8, 10, 12, 15, 20, 25, 30]
    st = position(phase="reinforce", pool=3, hands=((3, 1, 1), (0, 0, 0), (0, 0, 0)), deck=(11, 13, 13), trades=4)
    assert GAME.legal_actions(st)[:2] == [Trade("iii"), Trade("ica")]
    st2 = play(st, "tiii")
    assert st2.pool == 3 + 12 and st2.trades == 5 and st2.hands[0] == (0, 1, 1) and st2.discard == (3, 0, 0)
    refused(st2, "tccc", "W5.cards", "W5: you do not hold that set")
    with pytest.raises(InvalidAction) as info:
        parse_action("tiic")
    assert "W5" in info.value.message


def test_W5_must_trade_at_five_cards_until_below_five() -> None:
    st = position(phase="reinforce", pool=5, hands=((3, 3, 2), (0, 0, 0), (0, 0, 0)), deck=(11, 11, 12))
    assert GAME.legal_actions(st) == [Trade("iii"), Trade("ccc"), Trade("ica")]
    refused(st, "p0", "W5.must-trade", "W5: with 8 cards you must trade a set")
    st = play(st, "tiii")
    refused(st, "p0", "W5.must-trade", "W5: with 5 cards you must trade a set")
    assert all(isinstance(a, Trade) for a in GAME.legal_actions(st))
    st = play(st, "tccc")
    assert st.hand_size(0) == 2 and st.pool == 5 + 4 + 6 and Place(0) in GAME.legal_actions(st)


def test_W5_one_card_for_a_conquering_turn_drawn_as_a_chance_step() -> None:
    st = position(troops={ALASKA: 10, KAMCHATKA: 1, NWT: 1})
    st = play(st, "a0-29x3", "R666-5", "a0-1x3", "R666-5")  # two conquests
    assert st.owner[KAMCHATKA] == 0 and st.owner[NWT] == 0 and st.conquered
    st = play(st, "e")
    assert st.phase == "draw" and GAME.chance(st) == ChanceSpec("card", (42,))
    assert GAME.chance_action(st, (0,)) == Draw("i") and GAME.chance_action(st, (41,)) == Draw("a")
    st = play(st, "Cc")
    assert st.hands[0] == (0, 1, 0) and st.deck == (14, 13, 14)
    assert st.phase == "reinforce" and st.current == 1  # only one card, then the next seat
    quiet = play(position(), "e")
    assert quiet.phase == "reinforce" and quiet.hands[0] == (0, 0, 0)


def test_W5_discards_are_reshuffled_when_the_deck_is_empty() -> None:
    st = position(troops={ALASKA: 5, KAMCHATKA: 1}, deck=(0, 0, 0), discard=(3, 0, 3),
                  hands=((10, 14, 1), (1, 0, 10), (0, 0, 0)))
    st = play(st, "a0-29x3", "R666-5", "e")
    assert GAME.chance(st) == ChanceSpec("card", (6,))
    assert GAME.chance_action(st, (5,)) == Draw("a")
    st = play(st, "Ca")
    assert st.deck == (3, 0, 2) and st.discard == (0, 0, 0) and st.hands[0] == (10, 14, 2)
    # a card kind no longer in the pile is refused
    st2 = position(troops={ALASKA: 5, KAMCHATKA: 1}, deck=(0, 0, 0), discard=(3, 0, 0),
                   hands=((11, 14, 4), (0, 0, 10), (0, 0, 0)))
    st2 = play(st2, "a0-29x3", "R666-5", "e")
    refused(st2, "Cc", "W5.deck", "W5: no cavalry card is left")


def test_W5_eliminating_a_seat_takes_its_cards() -> None:
    owner = {t: 0 for t in range(42)}
    owner[KAMCHATKA] = 1
    owner[NWT] = 2
    st = position(owner=owner, troops={ALASKA: 6, KAMCHATKA: 1}, hands=((1, 0, 0), (2, 1, 0), (0, 0, 1)))
    st = play(st, "a0-29x3", "R666-1")
    assert 1 not in st.owner and not st.alive(1)
    assert st.hands[0] == (3, 1, 0) and st.hands[1] == (0, 0, 0)


# -- W6 -----------------------------------------------------------------------------------------------
def test_W6_attack_from_own_territory_with_two_troops_into_adjacent_enemy() -> None:
    st = position(troops={ALASKA: 1, ALBERTA: 4})
    refused(st, "a0-29x1", "W6.two", "W6: attack from a territory with at least 2 troops")
    refused(st, "a1-0x1", "W6.own", "W6: attack from your own territory")
    refused(st, "a3-29x1", "W6.adjacent", "W6: attack an adjacent territory")
    refused(st, "a3-0x1", "W6.enemy", "W6: attack someone else's territory")
    refused(st, "b0-29", "W6.two", "W6")


def test_W6_attacker_dice_and_the_move_in_stated_before_rolling() -> None:
    st = position(troops={ALASKA: 3})
    refused(st, "a0-29x3", "W6.dice", "W6: roll 1 to min(3, troops - 1) dice: 1 to 2")
    refused(st, "a0-29x2m3", "W6.move", "W6: state at least the dice rolled (2) and at most troops - 1 (2)")
    refused(st, "a0-29x2m1", "W6.move", "W6")
    legal = [a for a in GAME.legal_actions(st) if isinstance(a, Attack) and (a.src, a.dst) == (ALASKA, KAMCHATKA)]
    assert legal == [Attack(0, 29, 1, 1), Attack(0, 29, 1, 2), Attack(0, 29, 2, 2)]
    st = play(st, "a0-29x1m2")
    assert st.phase == "roll" and GAME.chance(st) == ChanceSpec("dice", (6, 6, 6))


def test_W6_defender_rolls_the_most_by_default() -> None:
    st = play(position(troops={ALASKA: 5, KAMCHATKA: 2}), "a0-29x3")
    assert st.battle == Battle(0, 29, 3, 3, 0, 2) and GAME.chance(st).sizes == (6,) * 5
    st = play(position(troops={ALASKA: 5, KAMCHATKA: 1}), "a0-29x3")
    assert GAME.chance(st).sizes == (6,) * 4


def test_W6_defender_chooses_when_the_option_is_on() -> None:
    st = play(position(troops={ALASKA: 5, KAMCHATKA: 4}, defender_choice=True), "a0-29x3")
    assert st.phase == "defend" and GAME.to_move(st) == 2
    assert GAME.legal_actions(st) == [Defend(1), Defend(2)]
    refused(st, "d3", "W6.defend", "W6: defend Kamchatka with 1 to min(2, troops) dice")
    st = play(st, "d1")
    assert GAME.chance(st).sizes == (6,) * 4
    # one defending troop: nobody is asked
    st = play(position(troops={ALASKA: 5, KAMCHATKA: 1}, defender_choice=True), "a0-29x3")
    assert st.phase == "roll"


@pytest.mark.parametrize(
    ("roll", "losses"),
    [("R666-66", (2, 0)), ("R665-65", (1, 1)), ("R652-64", (1, 1)), ("R211-22", (2, 0)), ("R654-53", (0, 2))],
)
def test_W6_highest_against_highest_ties_to_the_defender(roll: str, losses: tuple[int, int]) -> None:
    st = play(position(troops={ALASKA: 10, KAMCHATKA: 5}), "a0-29x3", roll)
    assert (10 - st.troops[ALASKA], 5 - st.troops[KAMCHATKA]) == losses


def _draw_all(st: State, rng: Rng) -> tuple[State, list[str]]:
    """What the match driver does after a player's action: draw every chance step it opens."""
    logged = []
    while (spec := GAME.chance(st)) is not None:
        action = GAME.chance_action(st, rng.draw(spec.sizes))
        logged.append(str(action))
        st = GAME.apply(st, action)
    return st, logged


def test_W6_attack_until_done_rolls_each_roll_as_its_own_chance_step() -> None:
    st = position(troops={ALASKA: 12, KAMCHATKA: 9})
    end, rolls = _draw_all(play(st, "b0-29"), Rng(3))
    assert len(rolls) >= 5 and all(r.startswith("R") for r in rolls)
    assert end.phase == "attack" and (end.owner[KAMCHATKA] == 0 or end.troops[ALASKA] == 1)
    # the same rolls, clicked one by one with the dice the blitz used, give the same board
    st2 = st
    for text in rolls:
        k = min(3, st2.troops[ALASKA] - 1)
        st2 = play(st2, f"a0-29x{k}m{st2.troops[ALASKA] - 1}", text)
    assert st2.troops == end.troops and st2.owner == end.owner


def test_W6_attack_until_n_left_never_goes_below_n_and_keeps_n_home() -> None:
    st = play(position(troops={ALASKA: 6, KAMCHATKA: 9}), "b0-29u4")
    assert GAME.chance(st).sizes == (6,) * 4  # min(3, 6 - 4) = 2 attacking dice
    st = play(st, "R11-66")  # attacker loses 2: 4 left, the attack stops
    assert st.troops[ALASKA] == 4 and st.phase == "attack" and st.battle is None
    refused(st, "b0-29u4", "W6.until", "W6: attack until 1 to 3 troops are left")
    won = play(position(troops={ALASKA: 9, KAMCHATKA: 1}), "b0-29u4", "R666-1")
    assert won.owner[KAMCHATKA] == 0 and won.troops[ALASKA] == 4 and won.troops[KAMCHATKA] == 5


# -- W7 -----------------------------------------------------------------------------------------------
def test_W7_conquest_moves_the_stated_troops_in_and_attacks_go_on_from_there() -> None:
    st = play(position(troops={ALASKA: 8, KAMCHATKA: 1}), "a0-29x3m5", "R631-4")
    assert st.owner[KAMCHATKA] == 0 and st.troops[KAMCHATKA] == 5 and st.troops[ALASKA] == 3
    assert any(isinstance(a, Attack) and a.src == KAMCHATKA for a in GAME.legal_actions(st))


def test_W7_holding_all_42_wins() -> None:
    owner = {t: 0 for t in range(42)}
    owner[KAMCHATKA] = 1
    st = position(owner=owner, troops={ALASKA: 4, KAMCHATKA: 1})
    assert GAME.outcome(st) is None
    st = play(st, "b0-29", "R666-1")
    out = GAME.outcome(st)
    assert out is not None and out.winners == (0,) and "W7" in out.reason
    assert GAME.legal_actions(st) == [] and GAME.chance(st) is None and GAME.to_move(st) is None
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, EndTurn())
    assert info.value.code == "W7.over"


def test_W7_eliminated_seats_are_skipped() -> None:
    owner = {t: (0 if t % 2 else 2) for t in range(42)}
    st = position(owner=owner, current=0)
    st = play(st, "e")
    assert st.current == 2 and st.phase == "reinforce"


# -- W8 -----------------------------------------------------------------------------------------------
def test_W8_one_fortify_between_adjacent_own_territories_leaving_one() -> None:
    st = position(troops={ALASKA: 5, ALBERTA: 2})
    refused(st, "f0-3x5", "W8.leave", "W8: move 1 to 4 troops, leaving at least 1 in Alaska")
    refused(st, "f0-6", "W8.adjacent", "W8: fortify between adjacent territories")
    refused(st, "f0-29", "W8.own", "W8: fortify between two of your territories")
    st = play(st, "f0-3x4")
    assert st.troops[ALASKA] == 1 and st.troops[ALBERTA] == 6
    assert st.phase == "reinforce" and st.current == 1  # the move ended the turn
    assert not any(isinstance(a, Fortify) for a in GAME.legal_actions(st))


# -- W9 -----------------------------------------------------------------------------------------------
def test_W9_dice_are_drawn_when_rolled_and_logged() -> None:
    m = Match(GAME, {"players": 3}, rng=Rng(11))
    assert m.resolve_chance() == 1 and m.log[0].startswith("O")  # the seat order, drawn and logged
    st = play(position(troops={ALASKA: 4}), "a0-29x3")
    assert GAME.legal_actions(st) == [] and GAME.to_move(st) is None  # nobody acts while dice are due
    assert GAME.chance(st) == ChanceSpec("dice", (6,) * 5)
    after, logged = _draw_all(st, Rng(12))
    assert len(logged) == 1 and len(logged[0]) == len("R641-54") and after.phase == "attack"
    roll = parse_action(logged[0])
    assert isinstance(roll, Roll) and list(roll.attack) == sorted(roll.attack, reverse=True)
    assert play(st, logged[0]) == after  # the logged text replays the roll exactly
    refused(st, "R66-66", "W9.dice", "W9: this roll is 3 attacking against 2 defending dice")
    with pytest.raises(InvalidAction, match="W9: dice show 1 to 6"):
        parse_action("R667-66")


def test_W9_a_whole_game_replays_from_its_log_and_link() -> None:
    from conquest.bots import play_match
    from conquest.games.world.bots import RuleBot

    m = play_match(GAME, {"players": 3}, [RuleBot(Rng(i)) for i in range(3)], Rng(5))
    assert GAME.outcome(m.state) is not None
    again = replay(decode_save(encode_save(m.save().to_json())))
    assert again.state == m.state and again.log == m.log


# -- action texts -------------------------------------------------------------------------------------
ALL_KINDS = [
    Order((2, 0, 1)), Deal(tuple(t % 3 for t in range(42))), Place(12), Place(12, 5), Trade("iii"), Trade("ica"),
    Attack(0, 29, 3, 3), Attack(0, 29, 2, 7), Blitz(0, 29), Blitz(0, 29, 4), Defend(2), Roll((6, 4, 1), (5, 4)),
    Roll((1,), (6,)), Fortify(3, 4, 5), Fortify(3, 4, 1), EndTurn(), Draw("i"), Draw("a"),
]


@pytest.mark.parametrize("action", ALL_KINDS, ids=str)
def test_action_texts_round_trip(action: object) -> None:
    assert parse_action(str(action)) == action
    assert GAME.parse_action(GAME.format_action(action)) == action


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("R146-45", "R641-54"), ("tcia", "tica"), ("p3x1", "p3"), (" e ", "e"), ("a0-29x2m2", "a0-29x2"), ("b1-2u1", "b1-2")],
)
def test_lenient_texts_become_canonical(text: str, canonical: str) -> None:
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize(
    "text",
    ["", "p", "p-1", "p01", "px3", "a1-2", "a1x2", "b1", "tiic", "tii", "R7-1", "R-1", "R12", "O00", "O12",
     "Cx", "d", "d0", "f1-2x", "x", "nonsense-action 99 99", "\x00", "p1" * 50, "e e"],
)
def test_malformed_texts_are_refused(text: str) -> None:
    with pytest.raises(InvalidAction):
        parse_action(text)


def test_out_of_range_numbers_are_refused_with_the_ruling() -> None:
    refused(position(), "a0-99x1", "W1.territory", "W1: there is no territory 99")
    refused(position(phase="reinforce", pool=3), "p0x4", "W4.pool", "W4: you have 3 troops to place, not 4")
    refused(position(phase="reinforce", pool=3), "p1", "W4.own", "W4: place troops on your own territories")
    refused(position(), "p0", "phase.attack", "not now")


def test_a_refused_action_changes_nothing() -> None:
    st = position(troops={ALASKA: 1})
    before = GAME.state_to_json(st)
    with pytest.raises(IllegalAction):
        GAME.apply(st, parse_action("a0-29x1"))
    assert GAME.state_to_json(st) == before


# -- legal actions -----------------------------------------------------------------------------------
def test_legal_actions_are_all_applicable_and_complete_in_a_small_case() -> None:
    owner = {t: 0 for t in range(42)}
    owner[KAMCHATKA] = 1
    owner[NWT] = 2
    st = position(owner=owner, troops={t: 1 for t in range(42)} | {ALASKA: 3})
    acts = GAME.legal_actions(st)
    expected = (
        [Attack(0, 1, 1, 1), Attack(0, 1, 1, 2), Attack(0, 1, 2, 2), Blitz(0, 1, 1), Blitz(0, 1, 2)]
        + [Attack(0, 29, 1, 1), Attack(0, 29, 1, 2), Attack(0, 29, 2, 2), Blitz(0, 29, 1), Blitz(0, 29, 2)]
        + [Fortify(0, 3, 1), Fortify(0, 3, 2), EndTurn()]
    )
    assert acts == expected
    for a in acts:
        GAME.apply(st, a)


def test_reinforce_lists_every_amount() -> None:
    owner = {t: (0 if t < 3 else 1) for t in range(42)}
    st = position(owner=owner, phase="reinforce", pool=3)
    assert GAME.legal_actions(st) == [Place(t, k) for t in range(3) for k in (1, 2, 3)]
    st = play(st, "p1x2")
    assert st.pool == 1 and st.phase == "reinforce"
    st = play(st, "p2")
    assert st.phase == "attack"


# -- options ---------------------------------------------------------------------------------------
def test_options_normalise_idempotently_and_drop_defaults() -> None:
    raw = {"seats": [{"name": " Ana ", "colour": "#E69F00"}, {"name": "Bo", "bot": "Strong"}, "Cy"],
           "order": "random", "deal": False, "defender_choice": True}
    opts = GAME.normalize_options(raw)
    assert opts == {"seats": [{"name": "Ana", "colour": "#e69f00"}, {"name": "Bo", "bot": "Strong"}, {"name": "Cy"}],
                    "defender_choice": True}
    assert GAME.normalize_options(opts) == opts
    st = GAME.new_game(opts, 0)
    assert st.names == ("Ana", "Bo", "Cy") and st.defender_choice and not st.deal


@pytest.mark.parametrize(
    "bad",
    [{"players": 3, "colour": 1}, {"seats": ["A", "a", "B"]}, {"order": "clockwise"}, {"deal": "yes"},
     {"seats": [{"name": "A", "colour": "red"}, "B", "C"]}, {"players": "3"}, {"seats": ["A", "B", "C"], "players": 4}],
)
def test_bad_options_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidOptions):
        GAME.normalize_options(bad)


# -- views, words, stats, tables -----------------------------------------------------------------------
def test_view_hides_other_hands() -> None:
    st = position(hands=((1, 2, 0), (0, 0, 3), (1, 0, 0)), deck=(12, 12, 11))
    v0 = GAME.view(st, 0)
    assert v0["hand"] == {"i": 1, "c": 2, "a": 0} and v0["sets"] == []
    assert [s["cards"] for s in v0["seats"]] == [3, 3, 1]
    v1 = GAME.view(st, 1)
    assert v1["hand"] == {"i": 0, "c": 0, "a": 3} and v1["sets"] == ["aaa"]
    spectator = GAME.view(st, None)
    assert spectator["hand"] is None and GAME.view(st, 5)["hand"] is None
    # other seats appear only as counts: no per-seat entry carries a hand
    assert all(set(s) == set(v1["seats"][0]) and "hand" not in s for s in v1["seats"])
    assert json.loads(json.dumps(spectator)) == spectator
    assert GAME.hidden_information


def test_conceal_keeps_only_what_a_seat_knows() -> None:
    a = position(hands=((1, 2, 0), (0, 0, 3), (1, 0, 0)), deck=(12, 12, 11))
    b = position(hands=((1, 2, 0), (2, 1, 0), (0, 1, 0)), deck=(11, 10, 14))
    assert conceal(a, 0) == conceal(b, 0)
    c = conceal(a, 0)
    assert c.hands[0] == (1, 2, 0) and [sum(h) for h in c.hands] == [3, 3, 1] and sum(c.deck) == 35
    assert tuple(map(sum, zip(*c.hands, c.deck, strict=True))) == (14, 14, 14)


def test_describe_uses_names() -> None:
    st = replace(position(), names=("Ana", "Bo", "Cy"))
    assert GAME.describe_action(st, Attack(0, 29, 3, 3)) == "Ana attacks Kamchatka from Alaska with 3 dice"
    assert GAME.describe_action(st, Blitz(0, 29, 4)) == "Ana attacks Kamchatka from Alaska until 4 troops are left"
    st1 = replace(st, troops=tuple(8 if t == 0 else 1 if t == 29 else 3 for t in range(42)))
    st1 = play(st1, "a0-29x3m5")
    words = GAME.describe_action(st1, parse_action("R641-5"))
    assert words == "Ana rolls 6 4 1 against Cy's 5: Cy loses 1; Ana takes Kamchatka and moves 5 troops in"
    assert GAME.describe_action(st, Fortify(0, 3, 2)) == "Ana moves 2 troops from Alaska to Alberta and ends the turn"
    drawing = replace(st, phase="draw")
    assert GAME.describe_action(drawing, Draw("i")) == "Ana draws a card"  # W5: the kind stays secret
    reinforce = replace(st, phase="reinforce", pool=7)
    assert GAME.describe_action(reinforce, Place(0, 5)) == "Ana places 5 troops on Alaska (2 left to place)"
    assert GAME.describe_action(reinforce, Trade("ica")) == "Ana trades one of each kind for 4 troops (trade 1 of the game)"


def test_stats_territories_troops_and_luck() -> None:
    st = position(troops={ALASKA: 10, KAMCHATKA: 5})
    s = GAME.stats(st)
    assert s["Territories"] == [14.0, 14.0, 14.0] and s["Troops"] == [49.0, 42.0, 44.0]
    st = play(st, "a0-29x3", "R666-11")  # defender loses 2 where 2890/7776*2+2611/7776 expected
    luck = GAME.stats(st)["Luck"]
    assert luck[0] == pytest.approx(2 - 8391 / 7776, abs=1e-4)
    assert luck[2] == pytest.approx(0 - 7161 / 7776, abs=1e-4)
    assert luck[1] == 0


def test_rules_tables_are_data_from_the_data_file() -> None:
    tables = GAME.rules_tables()
    assert set(tables) >= {"card-values", "continents"}
    assert tables["card-values"]["rows"][:8] == [["1", "4"], ["2", "6"], ["3", "8"], ["4", "10"], ["5", "12"],
                                                 ["6", "15"], ["7", "20"], ["8", "25"]]
    assert ["Asia", "12", "+7"] in tables["continents"]["rows"]
    for t in tables.values():
        assert t["caption"] and all(len(r) == len(t["head"]) for r in t["rows"])
    text = (Path(__file__).resolve().parent.parent / "site" / "rules" / "world.md").read_text()
    for name in tables:  # the rules page places every table (build.py renders the markers)
        assert f"[[table:world:{name}]]" in text, name


def test_json_round_trip_mid_battle() -> None:
    st = play(position(troops={ALASKA: 9, KAMCHATKA: 6}, defender_choice=True, hands=((1, 0, 0),) * 3), "b0-29u3")
    obj = json.loads(json.dumps(GAME.state_to_json(st)))
    assert GAME.state_from_json(obj) == st
    with pytest.raises(InvalidAction):
        GAME.state_from_json({"phase": "attack"})


# -- golden replay ----------------------------------------------------------------------------------
def test_golden_game_replays_to_its_recorded_end() -> None:
    """A whole recorded game (tests/data/world_golden.json): the engine must keep accepting
    every step of an old log and reach the same end, whatever the bots become."""
    golden = json.loads((DATA / "world_golden.json").read_text())
    m = replay(golden["save"])
    out = GAME.outcome(m.state)
    assert out is not None and list(out.winners) == golden["winners"]
    assert GAME.stats(m.state) == golden["stats"]
    assert len(m.log) == len(golden["save"]["log"])
