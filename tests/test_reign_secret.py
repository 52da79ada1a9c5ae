"""To Reign Supreme's secret steps (R10): nothing saved, linked or viewed while a choice is
pending can hold that choice, because a part never enters the state until both seats have
chosen; the reveal is one logged step carrying both parts.
"""
from __future__ import annotations

import json

from conquest.games.reign import GAME
from conquest.games.reign.bots import HeuristicBot, MonteCarloBot
from conquest.rng import Rng
from conquest.savecode import decode_save, encode_save
from conquest.session import Match, replay


def _everything(match: Match) -> tuple[str, str, str, str]:
    """What could leak a pending choice: the save, its link code, the state, every view."""
    save = match.save().to_json()
    views = [GAME.view(match.state, seat) for seat in (None, 0, 1)]
    return (
        json.dumps(save, sort_keys=True),
        encode_save(save),
        json.dumps(GAME.state_to_json(match.state), sort_keys=True),
        json.dumps(views, sort_keys=True),
    )


def _to_battle(seed: int) -> Match:
    """A match driven by bots until a battle's secret step is reached."""
    rng = Rng(seed)
    match = Match(GAME, {"seed": seed}, rng=rng)
    match.resolve_chance()
    bots = [HeuristicBot(Rng(seed + 1)), HeuristicBot(Rng(seed + 2))]
    while True:
        state = match.state
        seats = GAME.simultaneous(state)
        if state.phase == "battle":
            return match
        assert GAME.outcome(state) is None, "the game ended before any battle"
        if seats:
            parts = {s: bots[s].choose_secret(GAME, state, s) for s in seats}
            match.play(GAME.join_secret(state, parts))
        else:
            match.play(bots[GAME.to_move(state)].choose(GAME, state))


def test_pending_choice_is_in_no_save_link_state_or_view() -> None:
    match = _to_battle(7)
    before = _everything(match)
    state = match.state
    # seat 0 chooses; the shell keeps the part in the page, outside the match
    part0 = MonteCarloBot(Rng(1)).choose_secret(GAME, state, 0)
    assert part0 in GAME.secret_choices(state, 0)
    assert _everything(match) == before  # nothing anywhere changed
    # a link made now replays to the same position, still waiting for both choices
    again = replay(decode_save(encode_save(match.save().to_json())))
    assert again.state == state and GAME.simultaneous(again.state) == (0, 1)
    # each seat's view lists what it may choose (its controls), never a choice
    for seat in (0, 1):
        view = GAME.view(state, seat)
        assert view["secret"]["seats"] == [0, 1]
        assert view["secret"]["choices"] == [str(p) for p in GAME.secret_choices(state, seat)]
        assert "choice" not in json.dumps(view["secret"]).replace("choices", "")
    assert "choices" not in GAME.view(state, None)["secret"]
    # the state holds no trace of a secret step under way
    assert set(GAME.state_to_json(state)["battle"]) == {"attacker", "place"}
    # only when both have chosen does one step, the reveal, enter the log
    part1 = HeuristicBot(Rng(2)).choose_secret(GAME, state, 1)
    n = len(match.log)
    match.play(GAME.join_secret(state, {0: part0, 1: part1}))
    assert match.log[n] == f"{part0}/{part1}"
    assert match.state.last is not None and match.state.last.parts == (str(part0), str(part1))


def test_set_up_picks_are_secret_too() -> None:
    match = Match(GAME, {"seed": 4}, rng=Rng(4))
    match.resolve_chance()
    assert GAME.simultaneous(match.state) == (0, 1)
    before = _everything(match)
    pick = HeuristicBot(Rng(3)).choose_secret(GAME, match.state, 0)
    assert _everything(match) == before
    match.play(GAME.join_secret(match.state, {0: pick, 1: "DE"}))
    assert match.log[-1].startswith(f"t{pick}/")


def test_bots_choose_from_the_view_alone() -> None:
    """A bot's secret part depends only on ``view(state, seat)``: given a state rebuilt from
    that view it chooses the same (same random draws), so nothing else can inform it."""
    match = _to_battle(11)
    state = match.state
    for seat in (0, 1):
        rebuilt = GAME.state_from_json(GAME.view(state, seat)["state"])
        for cls in (HeuristicBot, MonteCarloBot):
            a = cls(Rng(9)).choose_secret(GAME, state, seat)
            b = cls(Rng(9)).choose_secret(GAME, rebuilt, seat)
            assert a == b
