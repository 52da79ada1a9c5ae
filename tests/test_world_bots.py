"""World Conquest's computer players: levels, legality, hidden information, slices."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_world import ALASKA, KAMCHATKA, position

from conquest.bots import Bot, play_match, run_thinking
from conquest.games.world import GAME, bots
from conquest.games.world.actions import Blitz, Defend, Place, Trade
from conquest.rng import Rng
from conquest.session import replay


def test_levels_weakest_first() -> None:
    levels = GAME.bot_levels()
    assert list(levels) == ["Random", "Rule-based", "Strong"]
    for make in levels.values():
        assert isinstance(make(Rng(1)), Bot)


def test_rule_based_bots_finish_a_six_seat_game_that_replays() -> None:
    m = play_match(GAME, {"players": 6}, [bots.RuleBot(Rng(s)) for s in range(6)], Rng(42))
    out = GAME.outcome(m.state)
    assert out is not None and m.state.owner.count(out.winners[0]) == 42
    assert replay(m.save()).state == m.state


def test_strong_bot_plays_legal_turns() -> None:
    seats = [bots.StrongBot(Rng(7)), bots.RuleBot(Rng(8)), bots.RuleBot(Rng(9))]
    m = play_match(GAME, {"players": 3, "order": "fixed"}, seats, Rng(3), max_actions=260)
    assert m.state.turn >= 3  # through the set-up and into play; Match refused nothing
    assert any(t.startswith("b") for t in m.log)


def _card_position(hands: tuple[tuple[int, int, int], ...], deck: tuple[int, int, int], **fields: object):
    return position(troops={ALASKA: 9, KAMCHATKA: 2}, hands=hands, deck=deck, **fields)


@pytest.mark.parametrize("phase", ["reinforce", "attack"])
@pytest.mark.parametrize("level", ["Rule-based", "Strong"])
def test_bots_do_not_peek_at_other_hands(level: str, phase: str) -> None:
    """Two states that differ only in what seat 0 cannot see give seat 0's bot the same choice."""
    fields = {"phase": phase, "pool": 6 if phase == "reinforce" else 0}
    a = _card_position(((1, 1, 0), (3, 0, 0), (0, 2, 1)), (10, 11, 13), **fields)
    b = _card_position(((1, 1, 0), (0, 1, 2), (2, 0, 1)), (11, 12, 11), **fields)
    make = GAME.bot_levels()[level]
    assert make(Rng(5)).choose(GAME, a) == make(Rng(5)).choose(GAME, b)


def test_bots_trade_when_they_hold_a_set_and_defend_with_the_most() -> None:
    st = _card_position(((3, 1, 1), (0, 0, 0), (0, 0, 0)), (11, 13, 13), phase="reinforce", pool=4)
    for level in ("Rule-based", "Strong"):
        assert isinstance(GAME.bot_levels()[level](Rng(1)).choose(GAME, st), Trade)
    att = GAME.apply(position(troops={ALASKA: 9, KAMCHATKA: 4}, defender_choice=True), Blitz(ALASKA, KAMCHATKA))
    assert att.phase == "defend"
    for level in ("Rule-based", "Strong"):
        assert GAME.bot_levels()[level](Rng(1)).choose(GAME, att) == Defend(2)


def test_reinforcements_go_out_in_one_batch() -> None:
    st = position(troops={ALASKA: 9, KAMCHATKA: 2}, phase="reinforce", pool=7)
    for level in ("Rule-based", "Strong"):
        action = GAME.bot_levels()[level](Rng(1)).choose(GAME, st)
        assert isinstance(action, Place) and action.n == 7 and st.owner[action.t] == 0


def test_strong_bot_thinks_in_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    st = position(troops={ALASKA: 9, KAMCHATKA: 2}, phase="reinforce", pool=7)
    at_once = bots.StrongBot(Rng(11)).choose(GAME, st)
    monkeypatch.setattr(bots, "SLICE", 0.0)  # pause at every check
    thinking = bots.StrongBot(Rng(11)).think(GAME, st)
    pauses = 0
    while True:
        try:
            next(thinking)
            pauses += 1
        except StopIteration as stop:
            chosen = stop.value
            break
    assert pauses > 10 and chosen == at_once
    assert run_thinking(bots.RuleBot(Rng(1)).think(GAME, st)) == bots.RuleBot(Rng(2)).choose(GAME, st)


def test_strong_bot_remembers_its_plan_only_for_its_own_turn() -> None:
    bot = bots.StrongBot(Rng(3))
    st = position(troops={ALASKA: 9, KAMCHATKA: 2}, phase="reinforce", pool=7)
    place = bot.choose(GAME, st)
    after = GAME.apply(st, place)
    assert after.phase == "attack" and bot._plan is not None and bot._plan.turn == st.turn
    # a later turn (or another seat) does not use the stale plan: the default style applies
    later = replace(after, turn=after.turn + 3)
    assert bot.choose(GAME, later) == bots.rule_action(later, 0, bots.RULE_STYLE)
