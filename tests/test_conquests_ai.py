"""The computer players of The Game of Conquests: legal, sliceable, not blind."""
from __future__ import annotations

import pytest

from conquest.bots import Bot, run_thinking
from conquest.games.conquests import GAME, Action, parse_action, position_from_text
from conquest.games.conquests.ai import LEVELS, Search, SearchBot, choose_action, evaluate, random_action
from conquest.rng import Rng


def _mates(state, action) -> bool:
    after = GAME.apply(state, action)
    out = GAME.outcome(after)
    return out is not None and out.winners == (state.to_move,)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_ai_finds_mate_in_one(level):
    state = position_from_text("g5/6/5L++/6/6/1L++3G - w 0 1")
    action = choose_action(state, level, rng=Rng(1), node_budget=5000)
    assert _mates(state, action)  # f4a4 (Danger, no escape) or f4f5 (no legal move, C5)


def test_ai_finds_mate_in_one_for_black_too():
    state = position_from_text("G5/6/5l++/6/6/1l++3g - b 0 1")
    action = choose_action(state, "hard", rng=Rng(2), node_budget=5000)
    assert _mates(state, action)


def test_ai_avoids_hanging_the_champion():
    # the White Champion d3 is attacked by a Black Soldier on c4; hard must not leave it there
    state = position_from_text("2g3/6/2s3/3C2/6/2G3 - w 0 1")
    action = choose_action(state, "hard", rng=Rng(3), node_budget=4000)
    assert str(action).startswith("d3") or str(action) == "d3c4"


@pytest.mark.parametrize("level", LEVELS)
def test_ai_only_returns_legal_actions(level):
    rng = Rng(7)
    state = GAME.new_game({}, 0)
    for _ in range(40):
        legal = GAME.legal_actions(state)
        if not legal:
            break
        action = choose_action(state, level, rng=rng, node_budget=400)
        assert action in legal
        state = GAME.apply(state, action)


def test_search_in_slices_gives_the_same_move_as_one_go():
    state = GAME.apply(GAME.new_game({}, 0), parse_action("e2e3"))
    whole = choose_action(state, "hard", rng=Rng(5), node_budget=3000)
    search = Search(state, "hard", rng=Rng(5), node_budget=3000)
    steps = 0
    while (action := search.step(100)) is None:
        steps += 1
        assert 0.0 <= search.progress() <= 1.0
    assert steps > 5 and action == whole and search.done and search.nodes >= 3000
    assert search.step(100) == action


def test_refuses_finished_games_and_unknown_levels():
    state = position_from_text("g5/6/5L++/6/6/1L++3G - w 0 1")
    over = GAME.apply(state, parse_action("f4a4"))
    with pytest.raises(ValueError):
        choose_action(over, "hard", rng=Rng(0))
    with pytest.raises(ValueError):
        random_action(over, Rng(0))
    with pytest.raises(ValueError):
        Search(state, "grandmaster", rng=Rng(0))


def test_evaluation_is_symmetric():
    start = GAME.new_game({}, 0)
    assert evaluate(start) == evaluate(position_from_text("algcla/1s2s1/6/6/1S2S1/ALGCLA - b 0 1"))
    white_up = position_from_text("algcla/4s1/6/6/1S2S1/ALGCLA s+ w 0 1")  # White took a Soldier
    assert evaluate(white_up) > evaluate(start)
    assert evaluate(position_from_text("algcla/4s1/6/6/1S2S1/ALGCLA s+ b 0 1")) < evaluate(start)


def test_hard_beats_random():
    wins = 0
    for seed in range(6):
        rng = Rng(seed)
        state = GAME.new_game({}, 0)
        hard_side = seed % 2
        while GAME.outcome(state) is None and state.ply < 200:
            if state.to_move == hard_side:
                action = choose_action(state, "hard", rng=rng, node_budget=1500)
            else:
                action = random_action(state, rng)
            state = GAME.apply(state, action)
        out = GAME.outcome(state)
        wins += out is not None and out.winners == (hard_side,)
    assert wins >= 5


@pytest.mark.parametrize("seed", range(4))
def test_search_moves_and_keys_agree_with_the_engine(seed):
    """The search's own move generation (pseudo-legal + Danger test at make) and its
    incremental Zobrist keys must match the engine in every position of a playout."""
    from conquest.games.conquests import rules as R

    rng = Rng(seed)
    state = GAME.new_game({}, 0)
    for _ in range(60):
        legal = GAME.legal_actions(state)
        if not legal:
            break
        search = Search(state, "hard", rng=Rng(0))
        found = set()
        for m in search._moves():
            if search._make(m):
                board = list(search.board)
                reserves = [[], []]
                for code, n in enumerate(search.rcount):
                    reserves[code >> 5].extend([code & 31] * n)
                assert search.key == R.position_key(board, [sorted(r) for r in reserves], search.side)
                search._unmake()
                found.add(str(Action(m[0], m[1], m[2] & 31, m[3])))
        assert search.board == list(state.board) and search.key == state.key
        assert found == {str(a) for a in legal}
        state = GAME.apply(state, legal[rng.below(len(legal))])


def test_bot_levels_are_sliced_bots_of_every_level():
    levels = GAME.bot_levels()
    assert list(levels) == list(LEVELS)
    state = GAME.new_game({}, 0)
    for level, factory in levels.items():
        bot = factory(Rng(4))
        assert isinstance(bot, Bot) and bot.level == level
        assert bot.choose(GAME, state) in GAME.legal_actions(state)


def test_search_bot_yields_between_small_steps_and_plays_the_search_move():
    state = GAME.apply(GAME.new_game({}, 0), parse_action("e2e3"))
    seen = []
    bot = SearchBot("hard", Rng(5), node_budget=3000, on_progress=lambda b: seen.append(b.search.nodes),
                    on_done=lambda b: seen.append(-1))
    thinking = bot.think(GAME, state)
    yields = 0
    while True:
        try:
            next(thinking)
            yields += 1
        except StopIteration as stop:
            action = stop.value
            break
    assert yields > 3 and len(seen) == yields + 1 and seen[-1] == -1
    assert seen[:-1] == sorted(seen[:-1])  # the progress callbacks see the search grow
    assert action == choose_action(state, "hard", rng=Rng(5), node_budget=3000)
    assert bot.search is not None and bot.search.done and bot.busy > 0 and 0.0 <= bot.progress() <= 1.0


def test_search_bot_keeps_to_its_time_per_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard level stops at its time per move, read on ``time.monotonic``.

    The clock is a fake that moves 5 ms per reading, so the test is the same on any machine
    and under any load (tests never assert on wall time)."""
    from conquest.games.conquests import ai

    now = [1000.0]

    def tick() -> float:
        now[0] += 0.005
        return now[0]

    monkeypatch.setattr(ai.time, "monotonic", tick)
    state = GAME.new_game({}, 0)
    bot = SearchBot("hard", Rng(1), seconds=0.3)
    thinking = bot.think(GAME, state)
    next(thinking)  # the clock starts at the first step, not when the bot is made
    started = bot.started
    assert 0.0 <= bot.progress() < 1.0
    action = run_thinking(thinking)
    took = now[0] - started
    assert action in GAME.legal_actions(state)
    assert 0.3 <= took < 0.31  # it stopped at the first reading past the deadline
    assert bot.search is not None and bot.search.nodes > HARD_NODES_IN_A_BLINK  # the time decided
    with pytest.raises(ValueError):
        SearchBot("grandmaster")


#: far fewer nodes than 0.3 s of search finds on any machine, more than one ply needs
HARD_NODES_IN_A_BLINK = 200
