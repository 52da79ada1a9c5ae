"""A varied draw (issue 40): a Short Campaign game set up since draws so that no category
gives more than a third of its questions, and distance questions at most a third of its
guess questions, while another category has a question left; older games (without the
``mix`` option) replay as they were drawn."""
from __future__ import annotations

from collections import Counter

from conquest.bots import play_match
from conquest.games.campaign import GAME
from conquest.games.campaign.questions import CHOICE, GUESS, load_bank
from conquest.games.campaign.state import Used
from conquest.rng import Rng
from conquest.session import Match


def bot_game(seed: int, options: dict) -> Match:
    levels = list(GAME.bot_levels().values())
    return play_match(GAME, options, [levels[i % len(levels)](Rng(1000 * seed + i)) for i in range(3)], Rng(seed))


def test_a_varied_game_keeps_every_category_to_a_third_and_distances_to_a_third_of_guesses() -> None:
    bank = load_bank()
    for seed in range(12):
        m = bot_game(seed, {"mix": True})
        asked = [bank.questions[u] for u in m.state.used]
        for n in range(3, len(asked) + 1):  # after every draw from the third on
            top = max(Counter(q.category for q in asked[:n]).values())
            assert 3 * top <= n, (seed, n, Counter(q.category for q in asked[:n]))
        guesses = [q for q in asked if q.kind == GUESS]
        far = sum(q.category == "distances" for q in guesses)
        assert 3 * far <= max(3, len(guesses)), (seed, far, len(guesses))
        assert Match(GAME, m.options, m.log).state.used == m.state.used  # it replays


def test_the_pools_counts_and_checks_agree_with_its_candidates() -> None:
    """``count`` and ``may_draw`` (constant time, replay's) against ``candidates`` (the draw)."""
    setup = GAME.setup(GAME.new_game(GAME.normalize_options({"mix": True}), 0))
    pool = setup.pool
    assert pool.mix is not None
    rng = Rng(5)
    used = Used()
    for _ in range(40):
        for kind in (CHOICE, GUESS):
            cands = pool.candidates(kind, used)
            assert pool.count(kind, used) == len(cands) > 0
            assert all(pool.may_draw(kind, used, q) for q in cands[:: max(1, len(cands) // 50)])
            others = [q for q in pool.eligible[kind][::97] if q not in set(cands)]
            assert not any(pool.may_draw(kind, used, q) for q in others)
        kind = CHOICE if rng.below(2) else GUESS
        cands = pool.candidates(kind, used)
        used = used.plus(cands[rng.below(len(cands))])


def test_one_category_chosen_still_draws_and_older_games_draw_as_before() -> None:
    m = bot_game(3, {"mix": True, "categories": ["elements"]})
    assert {load_bank().questions[u].category for u in m.state.used if u in load_bank().questions} >= {"elements"}
    plain = GAME.normalize_options({})
    assert "mix" not in plain and GAME.setup(GAME.new_game(plain, 0)).pool.mix is None
    assert GAME.normalize_options({"mix": True})["mix"] is True and "mix" not in GAME.normalize_options({"mix": False})
    # a game set up before the option draws from every fresh question, as it always did
    before = bot_game(4, {})
    assert Match(GAME, before.options, before.log).state.used == before.state.used
