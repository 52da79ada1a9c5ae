"""To Reign Supreme: every refusal names its ruling (issue 25).

``IllegalAction`` promises a refusal that cites the ruling it applies. Hand-picked scenarios
(``test_reign.py``) reach each refusal once; this file throws legal-looking actions of every
kind at every position of a few seeded games (each phase: the deal, the tracker choice, turns,
a declared battle, its secret step, the end) so a refusal path nobody thought of cannot slip
through without a ruling. Malformed texts are ``InvalidAction`` (no ruling applies to a typo).
"""
from __future__ import annotations

import random
import re
from itertools import combinations

import pytest

from conquest.core import IllegalAction, InvalidAction
from conquest.games.reign import GAME
from conquest.games.reign.state import State
from tests.test_reign import position, refused

R = GAME.rules
CITES = re.compile(r"^R(\d+): ")


def candidates(state: State, rng: random.Random) -> list[str]:
    """Action texts of every kind, well formed, most of them wrong for ``state``."""
    cards = [c.code for c in R.cards]
    terrs = [t.code for t in R.territories]
    out = [f"{k}{t}" for t in terrs for k in "brd"]
    out += ["p", "e", "o", "+1", "+2", "+3", "-1", "-2"]  # +1: editions 1 to 3 only (R5)
    out += ["w" + c for c in cards] + ["w" + "".join(cards[:2])]
    out += ["x" + a + b for a, b in combinations(cards, 2)]
    out += ["t" + "".join(rng.sample(cards, 2)) + "/" + "".join(rng.sample(cards, 2)) for _ in range(3)]
    for _ in range(4):
        a, b = rng.choice(cards), rng.choice(cards)
        buys = rng.choice(["", "m1", "s1", "a1", "b1", "m2s2", "a2b2", "m1s1a1b1"])
        out.append(f"{a}{buys}/{b}")
    lay = list(state.layout) if state.layout else list(range(6))
    for _ in range(3):
        perm = lay[:]
        rng.shuffle(perm)
        out.append("R" + "".join(terrs[i] for i in perm))
    deal = terrs[:]
    rng.shuffle(deal)
    out.append("L" + "".join(deal))
    return out


def positions(seed: int, setup: str, limit: int = 400) -> list[State]:
    """Every position of one game of random play (the RNG seeded), the deal included."""
    rng = random.Random(seed)
    s = GAME.new_game({"setup": setup}, seed)
    seen = [s]
    while GAME.outcome(s) is None and len(seen) < limit:
        spec = GAME.chance(s)
        if spec is not None:
            s = GAME.apply(s, GAME.chance_action(s, [rng.randrange(k) for k in spec.sizes]))
        elif GAME.simultaneous(s):
            s = GAME.apply(s, GAME.join_secret(s, {i: rng.choice(GAME.secret_choices(s, i)) for i in (0, 1)}))
        else:
            s = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
        seen.append(s)
    return seen


def test_every_refusal_in_seeded_games_cites_an_R_ruling() -> None:
    codes: dict[str, int] = {}
    phases: set[str] = set()
    for seed, setup in ((1, "easy"), (2, "challenging"), (3, "easy")):
        rng = random.Random(100 + seed)
        states = positions(seed, setup)
        # a finished game too, so the refusals after the end are driven
        states.append(position(ladder=(3, 3, 3, 3, 3, 3), phase="over"))
        for s in states:
            phases.add(s.phase)
            for text in candidates(s, rng):
                try:
                    GAME.apply(s, GAME.parse_action(text))
                except InvalidAction:
                    continue  # e.g. two tracker cards the same: malformed, not a rules refusal
                except IllegalAction as err:
                    assert CITES.match(err.message), (s.phase, text, err.code, err.message)
                    assert err.code.startswith("R"), (text, err.code)
                    assert 1 <= int(CITES.match(err.message).group(1)) <= 12
                    codes[err.code] = codes.get(err.code, 0) + 1
            if not GAME.simultaneous(s):
                with pytest.raises(IllegalAction) as info:
                    GAME.join_secret(s, {0: "A", 1: "B"})
                assert CITES.match(info.value.message), info.value.message
    assert {"deal", "setup", "turn", "battle", "over"} <= phases
    # the five refusals issue 25 found without a ruling, and the ordinary ones, were all driven
    for code in ("R12.phase", "R11.over", "R1.adjacent", "R2.own", "R2.develop", "R5.reallocate", "R10.hand", "R5.amount"):
        assert codes.get(code), (code, sorted(codes))


@pytest.mark.parametrize(
    ("phase", "text"),
    [
        ("battle", "e"),  # ending the turn while both are choosing a battle's card and purchases
        ("turn", "Am1/B"),  # a battle's reveal in the middle of a turn
        ("turn", "tAB/CD"),  # the tracker choice after the set-up
        ("battle", "da"),  # Develop while both are choosing
        ("deal", "o"),  # Recover before the territory cards are dealt
    ],
)
def test_R12_actions_out_of_their_phase_are_refused_citing_R12(phase: str, text: str) -> None:
    if phase == "deal":
        s = GAME.new_game({}, 0)
    elif phase == "battle":
        s = GAME.apply(position(ladder=(3, 2, 2, 1, 1, 1)), GAME.parse_action("bm"))
        if s.phase == "respond":
            s = GAME.apply(s, GAME.parse_action("p"))
        assert s.phase == "battle"
    else:
        s = position()
    err = refused(s, text, "R12.phase", "R12")
    assert "not now" in err.message
