"""Seeded whole campaigns played by bots through :class:`conquest.session.Match`.

Checked at every step: terminal iff no legal actions (and no draw pending), the state
round-trips through JSON, the view is JSON, refused actions change nothing; at the end the
log replays to an equal state, and ``python -m conquest verify`` accepts it (and names the
first bad step of a tampered copy).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from conquest.__main__ import verify
from conquest.bots import RandomBot, play_match
from conquest.bots.metagame_greedy import GreedyMetagameBot
from conquest.core import GameError
from conquest.games.metagame import GAME
from conquest.rng import Rng
from conquest.session import Match, replay

FIXTURES = Path(__file__).parent / "fixtures"


def grid(w: int, h: int) -> dict:
    from test_metagame import grid_map

    return grid_map(w, h)


PROBES = [
    "p",
    "c0",
    "i0",
    "s-",
    "b-",
    "w1",
    "spin",
    "r0 1",
    "x-",
    "da",
    "g0",
    "k0",
    "!o0=0",
    "!t0b=1",
    "!end",
]


def check_step(match: Match, rng: Rng) -> None:
    state = match.state
    legal = GAME.legal_actions(state)
    out = GAME.outcome(state)
    assert (out is not None) == (not legal and GAME.chance(state) is None)
    obj = GAME.state_to_json(state)
    assert GAME.state_from_json(json.loads(json.dumps(obj))) == state
    json.dumps(GAME.view(state, None))
    # a refused action leaves the state as it was (apply is pure; refusals raise)
    text = PROBES[rng.below(len(PROBES))]
    try:
        GAME.apply(state, GAME.parse_action(text))
    except GameError:
        pass
    assert GAME.state_to_json(state) == obj


def run(options: dict, bots: str, seed: int, max_actions: int = 4000) -> Match:
    rng = Rng(seed)
    probe_rng = Rng(seed + 1)
    if bots == "random":
        players = [RandomBot(Rng(seed * 10 + i)) for i in range(8)]
    elif bots == "greedy":
        players = [GreedyMetagameBot(Rng(seed * 10 + i)) for i in range(8)]
    else:
        players = [
            GreedyMetagameBot(Rng(seed * 10 + i)) if i % 2 else RandomBot(Rng(seed * 10 + i))
            for i in range(8)
        ]
    return play_match(
        GAME, {**options, "seed": seed}, players, rng, max_actions, on_step=lambda m: check_step(m, probe_rng)
    )


CASES = [
    ({"players": 2, "map_data": grid(4, 4)}, "random", 1),
    ({"players": 3, "map_data": grid(5, 5), "token_pool": 2}, "random", 2),
    ({"players": 4, "map_data": grid(6, 6)}, "mixed", 3),
    (
        {"players": 3, "map_data": grid(6, 5), "games": ["conquests", "reign", "Chess", "Go", "Hex"]},
        "greedy",
        4,
    ),
    ({"players": 2, "map_data": grid(3, 3)}, "random", 5),
]


@pytest.mark.parametrize(("options", "bots", "seed"), CASES)
def test_seeded_campaign_conformance(options, bots, seed):
    match = run(options, bots, seed)
    assert GAME.outcome(match.state) is not None, "the campaign should end within the step budget"
    again = replay(match.save().to_json())
    assert again.state == match.state and again.log == match.log
    for text in match.log:  # every logged text is canonical
        assert str(GAME.parse_action(text)) == text


def test_undo_takes_back_the_spin_with_its_draw():
    match = run({"players": 3, "map_data": grid(5, 5)}, "random", 11, max_actions=400)
    log = match.save().to_json()["log"]
    spins = [i for i, t in enumerate(log) if t == "spin"]
    assert spins
    m = Match(GAME, match.options, log[: spins[0] + 2], rng=Rng(5))
    assert m.log[-1].startswith("r")
    m.undo()
    assert m.log[-1] != "spin" and GAME.chance(m.state) is None and m.state.phase == "spin"


def test_usa100_campaign_8_players_greedy():
    try:
        Match(GAME, {"seed": 1})
    except GameError as exc:
        pytest.fail(f"usa100 map data is missing or broken: {exc}")
    match = run({"players": 8}, "greedy", 21, max_actions=6000)
    assert GAME.outcome(match.state) is not None
    assert replay(match.save().to_json()).state == match.state


def test_verify_cli_accepts_a_link_and_names_the_first_bad_step(tmp_path):
    from conquest.savecode import make_fragment

    match = run({"players": 3, "map_data": grid(5, 5)}, "mixed", 7, max_actions=300)
    save = match.save().to_json()
    out = io.StringIO()
    assert verify("https://example.org/metagame.html#" + make_fragment(save), out=out) == 0
    assert "OK" in out.getvalue()
    path = tmp_path / "save.json"
    path.write_text(json.dumps(save), encoding="utf-8")
    assert verify(str(path), out=io.StringIO()) == 0
    bad = dict(save, log=list(save["log"]))
    first_turn = next(i for i, t in enumerate(bad["log"]) if t.startswith("c"))
    bad["log"][first_turn] = "c24" if bad["log"][first_turn] != "c24" else "c23"
    out = io.StringIO()
    path.write_text(json.dumps(bad), encoding="utf-8")
    assert verify(str(path), out=out) == 1
    assert f"REFUSED step {first_turn + 1}" in out.getvalue() and "M5" in out.getvalue()
    assert verify("c1.not-a-link!", out=io.StringIO()) == 2


class InvadingBot(RandomBot):
    """Random, but invades whenever it can: the invasion-heavy worst case for link length."""

    def choose(self, game, state):
        from conquest.games.metagame.actions import Invade

        actions = game.legal_actions(state)
        invasions = [a for a in actions if isinstance(a, Invade)]
        pool = invasions if state.phase == "turn" and invasions else actions
        return pool[self.rng.below(len(pool))]


@pytest.mark.parametrize("seed", [0, 3])
def test_link_after_100_turns_with_8_players_fits_a_chat_message(seed):
    """Issue #4: the host link after 100 turns, 8 players, invasion-heavy bots: <= 1,500
    characters after the '#' (chat apps cut at about 2,000; the page address comes on top)."""
    from conquest.savecode import make_fragment

    names = ["Alexandra", "Benjamin", "Charlotte", "Dominic", "Eleanor", "Frederick", "Georgina", "Harrison"]
    games = ["conquests", "reign", "Chess on BoardGameArena", "Go", "Carcassonne", "Patchwork"]
    bots = [InvadingBot(Rng(seed * 100 + i)) for i in range(8)]
    # as the page starts a campaign: seed 0 (no set-up chance), the default map left out
    m = Match(GAME, {"players": [{"name": n} for n in names], "games": games, "seed": 0}, rng=Rng(seed))
    while GAME.outcome(m.state) is None and m.state.turn <= 100:
        m.play(bots[GAME.to_move(m.state)].choose(GAME, m.state))
    save = m.save().to_json()
    assert "map" not in save["options"] and sum(t.startswith("i") for t in save["log"]) >= 30
    assert len(make_fragment(save, "h")) <= 1500
