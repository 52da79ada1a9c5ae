"""Replay and ``verify`` agree on every log, and ``verify`` never fails on one (issue 10, B3-B5).

Why fuzzing: a page opening a link (``Match`` from the log) and ``python -m conquest verify``
must give the same verdict on the same save, and verify must answer every input with a
verdict, never a traceback. Seeded random playouts of every registered game are mutated
(steps dropped, repeated, swapped, replaced, edited; a pending draw skipped) and both paths
run on each mutant. Bounded: a fixed number of cases per game, a few seconds in all.
"""

from __future__ import annotations

import io
import json
import random
import re
from typing import Any

import pytest

from conquest.__main__ import verify
from conquest.core import ConquestError, GameError, games
from conquest.rng import Rng
from conquest.savecode import SaveCodeError, parse_save_json
from conquest.session import Match, ReplayError

CASES_PER_GAME = 200
PLAYOUT_STEPS = 70
SEEDS = (1, 2)
#: texts every game meets in the pool: hostile, empty, the metagame's known troublemakers
#: (``w,,,1`` and ``r0 4,4,3,1`` name a fourth game on a wheel of three), and other games' words
HOSTILE = ["", " ", "!end", "p", "spin", "w,,,1", "r0 4,4,3,1", "r0 1", "x-", "da", "dd", "0", "-", "x" * 70]
_REFUSED = re.compile(r"^REFUSED step (\d+):", re.M)


def _playout(game: Any, seed: int) -> tuple[dict[str, Any], list[str], list[int]]:
    """A seeded random playout: options, log, and the log lengths at which a draw was pending."""
    rng = Rng(seed)
    match = Match(game, {**game.default_options(), "seed": seed}, rng=rng)
    match.resolve_chance()
    for _ in range(PLAYOUT_STEPS):
        if game.outcome(match.state) is not None:
            break
        actions = game.legal_actions(match.state)
        if not actions:
            break
        match.play(actions[rng.below(len(actions))])
    pending = [i for i, st in enumerate(match.states) if game.chance(st) is not None]
    return dict(match.options), list(match.log), pending


#: mutation kinds and their weights: skipping a pending draw and editing numbers are the
#: kinds that found real bugs (issue 10), so they come more often
_OPS = {"delete": 2, "repeat": 1, "swap": 1, "replace": 2, "insert": 2, "skip-draw": 3, "digit": 2,
        "extend": 3, "chop": 1, "cut": 1}


def _mutate(log: list[str], pending: list[int], pool: list[str], rnd: random.Random) -> list[str]:
    out = list(log)
    op = rnd.choices(list(_OPS), weights=list(_OPS.values()))[0]
    i = rnd.randrange(len(out)) if out else 0
    if op == "delete" and out:
        del out[i]
    elif op == "repeat" and out:
        out.insert(i, out[i])
    elif op == "swap" and len(out) > 1:
        j = min(i + 1, len(out) - 1)
        out[i], out[j] = out[j], out[i]
    elif op == "replace" and out:
        out[i] = rnd.choice(pool)
    elif op == "insert":
        out.insert(i, rnd.choice(pool))
    elif op == "skip-draw" and pending:  # cut where the game waits for a draw, add another step
        k = rnd.choice(pending)
        out = out[:k] + [rnd.choice(HOSTILE if rnd.random() < 0.5 else pool)]
    elif op == "digit" and out:
        digits = [k for k, ch in enumerate(out[i]) if ch.isdigit()]
        if digits:
            k = rnd.choice(digits)
            out[i] = out[i][:k] + str(rnd.randrange(10)) + out[i][k + 1 :]
    elif op == "extend" and out:
        # lists of numbers (slices, layouts, sets) half the time: where an index can run off a list
        lists = [k for k, t in enumerate(out) if "," in t or "." in t or " " in t]
        numbered = [k for k, t in enumerate(out) if any(ch.isdigit() for ch in t)] or [i]
        k = rnd.choice(lists if lists and rnd.random() < 0.5 else numbered)
        out[k] = out[k] + rnd.choice([",1", "1", " 1", ".1", ",,,1", ",,,,,,,,,1", "!"])
    elif op == "chop" and out and out[i]:
        out[i] = out[i][:-1]
    else:
        out = out[: rnd.randrange(len(out) + 1)] + [rnd.choice(pool)]
    return out


def _replay_verdict(game: Any, save: dict[str, Any]) -> tuple[str, int | None]:
    """What a page does with the save: decode it, then replay the log."""
    try:
        checked = parse_save_json(json.dumps(save))
    except SaveCodeError:
        return ("unreadable", None)
    try:
        Match(game, checked["options"], checked["log"])
    except ReplayError as exc:
        return ("refused", exc.index + 1)
    except GameError:
        return ("options", None)
    return ("ok", None)


def _verify_verdict(save: dict[str, Any]) -> tuple[str, int | None, str]:
    out = io.StringIO()
    code = verify(json.dumps(save), verbose=True, out=out)
    text = out.getvalue()
    if code == 0:
        return ("ok", None, text)
    if code == 1:
        m = _REFUSED.search(text)
        return ("refused", int(m[1]), text) if m else ("options", None, text)
    if code == 2:
        return ("unreadable", None, text)
    return (f"exit {code}", None, text)


def _cases(game_id: str) -> list[tuple[dict[str, Any], list[str]]]:
    game = games()[game_id]
    playouts = [_playout(game, seed) for seed in SEEDS]
    pool = sorted({t for _, log, _ in playouts for t in log} | set(HOSTILE))
    rnd = random.Random(f"fuzz:{game_id}")
    cases = []
    for n in range(CASES_PER_GAME):
        options, log, pending = playouts[n % len(playouts)]
        mutated = log
        for _ in range(1 + rnd.randrange(2)):
            mutated = _mutate(mutated, pending, pool, rnd)
        cases.append((options, mutated))
    return cases


@pytest.mark.parametrize("game_id", sorted(games()))
def test_replay_and_verify_agree_on_mutated_logs(game_id: str) -> None:
    """B3 + B4: the same verdict (and the same refused step) from both paths; no exception."""
    disagree: list[str] = []
    crashed: list[str] = []
    for options, log in _cases(game_id):
        save = {"v": 1, "game": game_id, "options": options, "log": log}
        try:
            replayed = _replay_verdict(games()[game_id], save)
        except ConquestError as exc:  # a refusal type escaping is still a refusal
            replayed = ("refusal " + type(exc).__name__, None)
        except Exception as exc:  # noqa: BLE001 - anything else is the bug this test looks for
            crashed.append(f"replay {type(exc).__name__}: {exc} on {log[-3:]}")
            continue
        try:
            verdict, step, text = _verify_verdict(save)
        except Exception as exc:  # noqa: BLE001
            crashed.append(f"verify {type(exc).__name__}: {exc} on {log[-3:]}")
            continue
        if verdict.startswith("exit"):
            crashed.append(f"verify {verdict}: {text.strip()[-200:]}")
        elif (verdict, step) != replayed:
            disagree.append(f"replay {replayed} vs verify {(verdict, step)} on ...{log[-3:]}")
    print(f"{game_id}: {CASES_PER_GAME} cases, {len(disagree)} disagree, {len(crashed)} crash")
    assert not crashed, crashed[:5]
    assert not disagree, disagree[:5]


def _metagame_at_spin() -> tuple[dict[str, Any], list[str]]:
    """A metagame log that stops where the host pressed spin (the draw is pending)."""
    game = games()["metagame"]
    rng = Rng(4)
    match = Match(game, {**game.default_options(), "seed": 4}, rng=rng)
    while True:
        state = match.state
        if game.legal_actions(state) and str(game.legal_actions(state)[0]) == "spin":
            match._push("spin")  # the host pressed spin; the draw is not made yet
            return dict(match.options), list(match.log)
        actions = game.legal_actions(state)
        invasions = [a for a in actions if str(a).startswith("i")]
        match.play(invasions[0] if invasions else actions[rng.below(len(actions))])


def test_end_while_a_spin_is_pending_is_refused_by_both() -> None:
    """B3: ``!end`` where the wheel must be drawn: replay and verify both refuse that step."""
    options, log = _metagame_at_spin()
    save = {"v": 1, "game": "metagame", "options": options, "log": [*log, "!end"]}
    game = games()["metagame"]
    assert _replay_verdict(game, save) == ("refused", len(log) + 1)
    verdict, step, text = _verify_verdict(save)
    assert (verdict, step) == ("refused", len(log) + 1), text
    assert "waits for a draw (spin)" in text
    # the same decision in live play: the match refuses and keeps its state
    match = Match(game, options, log)
    with pytest.raises(GameError):
        match.play("!end")
    assert match.log == log


@pytest.mark.parametrize("bad", ["w,,,1", "r0 4,4,3,1"])
def test_describe_never_indexes_out_of_the_game_list(bad: str) -> None:
    """B4: describing a step that names a fourth game on a list of three does not raise."""
    from conquest.games.metagame import GAME
    from conquest.games.metagame.actions import parse_action

    options, log = _metagame_at_spin()
    # the state where the attacker assigns slices, and the one where the wheel is drawn
    match = Match(GAME, options, log[: next(i for i, t in enumerate(log) if t.startswith("w"))])
    line = GAME.describe_action(match.state, parse_action(bad))
    assert "not on the list" in line or "no game" in line or "slice" in line
    drawn = Match(GAME, options, log)
    assert "not on the list" in GAME.describe_action(drawn.state, parse_action(bad))
    out = io.StringIO()
    save = {"v": 1, "game": "metagame", "options": options, "log": [*log[: len(log) - 3], bad]}
    assert verify(json.dumps(save), verbose=True, out=out) == 1, out.getvalue()
    assert "Traceback" not in out.getvalue()


def test_verify_states_what_it_checks_of_chance_results() -> None:
    """B5: a log with spins says the results are as the host's browser drew them."""
    options, log = _metagame_at_spin()
    match = Match(games()["metagame"], options, log, rng=Rng(9))
    match.resolve_chance()
    save = {"v": 1, "game": "metagame", "options": options, "log": list(match.log)}
    out = io.StringIO()
    assert verify(json.dumps(save), out=out) == 0
    assert (
        "spin results are as recorded by the host's browser; verify checks that each is possible, "
        "not that it was drawn" in out.getvalue()
    )
    out = io.StringIO()  # no chance step in the log: no note
    assert verify(json.dumps({**save, "log": save["log"][:2]}), out=out) == 0
    assert "recorded by the host's browser" not in out.getvalue()


@pytest.mark.parametrize("game_id", sorted(games()))
def test_verify_notes_chance_for_any_game_with_chance_steps(game_id: str) -> None:
    """B5, generically: whatever the kind of draw (spin, dice, ...), verify names it."""
    game = games()[game_id]
    for seed in SEEDS:
        options, log, _ = _playout(game, seed)
        kinds = {
            spec.kind
            for st in Match(game, options, log).states[:-1]
            if (spec := game.chance(st)) is not None
        }
        out = io.StringIO()
        assert verify(json.dumps({"v": 1, "game": game_id, "options": options, "log": log}), out=out) == 0
        notes = [line for line in out.getvalue().splitlines() if "recorded by the host's browser" in line]
        if kinds:
            assert len(notes) == 1 and "verify checks that each is possible, not that it was drawn" in notes[0]
            assert all(f"{kind} " in notes[0] for kind in kinds), (kinds, notes)
        else:
            assert not notes


def test_metagame_describes_any_parsed_action_in_any_state() -> None:
    """B4: the log line of any action text that parses, legal or not, in states met in play
    (the page and verify may describe what a link holds); bounded and seeded."""
    from conquest.games.metagame import GAME
    from conquest.games.metagame.actions import parse_action

    rnd = random.Random(10)
    states = []
    for seed in (1, 2, 3):
        match = Match(GAME, {**GAME.default_options(), "players": 3, "seed": seed}, rng=Rng(seed))
        for _ in range(120):
            if GAME.outcome(match.state) is not None:
                break
            acts = GAME.legal_actions(match.state)
            invasions = [a for a in acts if str(a).startswith("i")]
            match.play(invasions[0] if invasions and rnd.random() < 0.7 else acts[rnd.randrange(len(acts))])
        states += match.states[:: max(1, len(match.states) // 40)] + [
            st for st in match.states if st.inv is not None
        ][:60]
    texts = set(HOSTILE)
    for n in (0, 1, 2, 3, 5, 9, 150, 9999):
        texts |= {f"w{',' * n}1", f"r{n} 1,1,1,1", f"r0 {',' * n}2", f"x{n}", f"g{n}", f"i{n}", f"c{n}",
                  f"k{n}", f"!o{n}={n % 9}", f"!k{n}={n}", f"!t{n}b={n}", f"s{n}", f"b{n}.{n + 1}"}  # fmt: skip
    described = 0
    for state in states:
        for text in sorted(texts):
            try:
                action = parse_action(text)
            except GameError:
                continue
            assert isinstance(GAME.describe_action(state, action), str)
            described += 1
    print(f"described {described} (state, action) pairs")
