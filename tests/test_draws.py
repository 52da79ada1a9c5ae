"""Draws nobody can rig (issue 26): the rule is uniform, every recorded draw recomputes, and
any rewrite (a result, a contribution, a revealed link, the host's secret) is caught."""
from __future__ import annotations

import io
import json
import math
from collections import Counter
from typing import Any

import pytest

from conquest.__main__ import verify
from conquest.bots import RandomBot
from conquest.core import games, get_game
from conquest.draws import (
    Chain,
    DrawError,
    DrawRecord,
    check_draws,
    draw_values,
    next_link,
    said_contribution,
)
from conquest.rng import Rng
from conquest.savecode import SaveCodeError, decode_save, encode_save
from conquest.session import Match, replay

CHANCE_GAMES = [gid for gid in sorted(games()) if gid != "conquests"]  # C: no chance at all


def chi_square_limit(dof: int) -> float:
    """The chi-square value a fair die exceeds with probability 0.001 (Wilson-Hilferty)."""
    z = 3.090232  # the normal quantile of 0.999
    return dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3


def chi_square(counts: Counter[int], size: int, n: int) -> float:
    expected = n / size
    return sum((counts.get(v, 0) - expected) ** 2 / expected for v in range(size))


def play(game_id: str, seed: int, steps: int = 400, undo_every: int = 23) -> Match:
    """A game with sealed draws (seeded: secret and automatic contributions from the seed),
    played by random bots, with an undo now and then (so draws are taken back too)."""
    game = get_game(game_id)
    m = Match(game, None, rng=Rng(seed), checkable=True)
    m.resolve_chance()
    bot = RandomBot(Rng(seed + 1))
    n = 0
    while game.outcome(m.state) is None and len(m.log) < steps:
        m.play(bot.choose(game, m.state))
        n += 1
        if n % undo_every == 0:
            m.undo()
    return m


def check(save: dict[str, Any]) -> Any:
    m = replay(save)
    return check_draws(m.game, m.states, m.log, m.undone, save.get("draws"))


def verify_out(save: dict[str, Any]) -> tuple[int, str]:
    out = io.StringIO()
    code = verify(json.dumps(save), out=out)
    return code, out.getvalue()


def chance_sizes(game_id: str) -> list[tuple[str, tuple[int, ...]]]:
    """The distinct ChanceSpecs a played game of ``game_id`` met (the sizes its draws use)."""
    m = play(game_id, 3)
    seen: dict[tuple[str, tuple[int, ...]], None] = {}
    for st in m.states:
        spec = m.game.chance(st)
        if spec is not None:
            seen[(spec.kind, spec.sizes)] = None
    return list(seen)


# -- the rule -------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", CHANCE_GAMES)
def test_the_rule_is_uniform_for_each_games_draws(game_id: str) -> None:
    """Chi-square over many draws of each size the game's own draws use (its first, second
    and last values), contributions and links varying as in play."""
    specs = chance_sizes(game_id)
    assert specs, f"{game_id} drew nothing"
    checked = 0
    for kind, sizes in specs[:3]:
        per = max(40 * max(sizes[:2] + sizes[-1:]), 3000)
        counts: list[Counter[int]] = [Counter(), Counter(), Counter()]
        link = "0" * 32
        for i in range(per):
            link = next_link(link)
            values = draw_values(link, i + 1, f"~{i % 65536:04x}", sizes)
            assert len(values) == len(sizes) and all(0 <= v < s for v, s in zip(values, sizes, strict=True))
            for c, v in zip(counts, (values[0], values[min(1, len(values) - 1)], values[-1]), strict=True):
                c[v] += 1
        for c, size in zip(counts, (sizes[0], sizes[min(1, len(sizes) - 1)], sizes[-1]), strict=True):
            if size > 1:
                stat = chi_square(c, size, per)
                assert stat < chi_square_limit(size - 1), (game_id, kind, size, stat)
                checked += 1
    assert checked


def test_rejection_sampling_has_no_modulo_bias() -> None:
    """A size where a quarter of the 32-bit numbers must be rejected: 3 * 2**30. Taking the
    number modulo the size would make the lowest third twice as likely; the rule does not."""
    size, n = 3 * 2**30, 30_000
    thirds: Counter[int] = Counter()
    link = "f" * 32
    for i in range(n):
        link = next_link(link)
        (v,) = draw_values(link, i + 1, "3:banana", (size,))
        thirds[v // 2**30] += 1
    assert chi_square(thirds, 3, n) < chi_square_limit(2), thirds


def test_the_rule_by_hand() -> None:
    """The rules page's worked example: the first 8 hex digits of sha256("<link> <n> 0 <word>")."""
    import hashlib

    link, number, word = "5d41402abc4b2a76b9719d911017c592", 1, "2:banana"
    digest = hashlib.sha256(f"{link} {number} 0 {word}".encode()).hexdigest()
    w1, w2 = int(digest[:8], 16), int(digest[8:16], 16)
    assert draw_values(link, number, word, (8,)) == (w1 % 8,)  # 8 divides 2**32: never rejected
    assert w2 < 2**32 - 2**32 % 6  # (this example's second number is not rejected)
    assert draw_values(link, number, word, (8, 6)) == (w1 % 8, w2 % 6)


def test_chain_reveals_backwards_to_its_commitment() -> None:
    chain = Chain(Rng(5).below, length=16)
    assert next_link(chain.link(0)) == chain.commitment
    for p in range(1, 16):
        assert next_link(chain.link(p)) == chain.link(p - 1)
    with pytest.raises(IndexError):
        chain.link(16)


# -- every recorded draw recomputes ---------------------------------------------------------
@pytest.mark.parametrize("game_id", CHANCE_GAMES)
def test_every_recorded_draw_recomputes(game_id: str) -> None:
    for seed in (1, 2):
        m = play(game_id, seed)
        save = m.save().to_json()
        assert m.draws is not None and m.draws.count > 0
        result = check(save)
        assert result.status == "checked", result.summary()
        assert result.draws == m.draws.count
        code, out = verify_out(save)
        assert code == 0, out
        assert f"Draws: All {m.draws.count} draw" in out
        # and through a link, the way players pass it on
        again = decode_save(encode_save(save))
        assert again["draws"] == save["draws"] and check(again).status == "checked"


def test_said_words_are_recorded_and_recompute() -> None:
    game = get_game("metagame")
    m = play("metagame", 4, steps=60)
    before = m.draws.count if m.draws else 0
    # play on until a spin is pending, then spin with a word "said aloud" by seat 2
    bot = RandomBot(Rng(9))
    from conquest.games.metagame.actions import Spin

    while game.outcome(m.state) is None and Spin() not in game.legal_actions(m.state):
        m.play(bot.choose(game, m.state))
    m._push("spin")
    assert m.resolve_chance(said_contribution(2, "  blue   whale ")) == 1
    assert m.draws is not None and m.draws.contributions[-1] == "2:blue whale" and m.draws.count == before + 1
    result = check(m.save().to_json())
    assert result.status == "checked" and result.kinds.get("said") == 1, result.summary()


@pytest.mark.parametrize("word", ["", "   ", "x" * 41, "bad\x07word"])
def test_a_said_word_that_cannot_be_used_is_refused(word: str) -> None:
    with pytest.raises(DrawError) as exc:
        said_contribution(1, word)
    assert exc.value.message


# -- rewrites are caught --------------------------------------------------------------------
def metagame_spins(m: Match) -> list[tuple[int, int]]:
    """(log index, slices) of every spin result in the log."""
    out = []
    for i in range(len(m.log)):
        spec = m.game.chance(m.states[i])
        if spec is not None:
            out.append((i, spec.sizes[0]))
    return out


def test_every_in_range_rewrite_of_a_spin_now_fails() -> None:
    """Before issue 26, 233 of 233 in-range rewrites of a spin passed verify (each result is
    possible). Now every one fails, at the draw rewritten."""
    rewrites = 0
    for seed in (1, 2, 3):
        m = play("metagame", seed, steps=500, undo_every=10_000)
        save = m.save().to_json()
        kept = m.kept_draws()
        for (i, slices), d in zip(metagame_spins(m), kept, strict=True):
            text = m.log[i]
            for k in range(slices):
                other = m.game.format_action(m.game.chance_action(m.states[i], [k]))
                if other == text:
                    continue
                forged = {**save, "log": [*save["log"][:i], other]}  # the rest follows the original
                result = check(forged)
                assert result.status == "mismatch" and result.at_draw == d + 1, result.summary()
                rewrites += 1
        code, out = verify_out({**save, "log": save["log"]})
        assert code == 0, out
    assert rewrites >= 100, rewrites
    print(f"{rewrites} in-range rewrites of a spin, all caught")


def test_a_rewritten_spin_fails_verify_naming_the_draw() -> None:
    m = play("metagame", 1, steps=500, undo_every=10_000)
    save = m.save().to_json()
    (i, slices), d = metagame_spins(m)[2], m.kept_draws()[2]
    others = [m.game.format_action(m.game.chance_action(m.states[i], [k])) for k in range(slices)]
    other = next(o for o in others if o != m.log[i])
    forged = {**save, "log": [*save["log"][:i], other, *save["log"][i + 1 :]]}
    code, out = verify_out(forged)
    if code == 1 and "REFUSED" in out:  # the later steps no longer fit: replay stops at once
        forged["log"] = forged["log"][: i + 1]
        code, out = verify_out(forged)
    assert code == 1 and f"DRAW MISMATCH: Draw {d + 1} does not match" in out, out


def test_world_dice_rewrite_is_caught() -> None:
    m = play("world", 2, steps=600)
    save = m.save().to_json()
    kept = m.kept_draws()
    dice = [(i, d) for (i, d) in zip(
        [i for i in range(len(m.log)) if m.game.chance(m.states[i]) is not None], kept, strict=True
    ) if m.game.chance(m.states[i]).kind == "dice"]
    assert dice
    i, d = dice[0]
    spec = m.game.chance(m.states[i])
    for values in ([0] * len(spec.sizes), [spec.sizes[0] - 1] * len(spec.sizes)):
        other = m.game.format_action(m.game.chance_action(m.states[i], values))
        if other != m.log[i]:
            result = check({**save, "log": [*save["log"][:i], other]})
            assert result.status == "mismatch" and result.at_draw == d + 1
            return
    raise AssertionError("no different roll found")


@pytest.mark.parametrize("game_id", CHANCE_GAMES)
def test_a_rewritten_contribution_is_caught(game_id: str) -> None:
    """A contribution rewritten is caught whenever the rule then gives another result (a
    spin of 3 slices keeps its result for a third of all words: such a rewrite changes no
    result, so nothing anyone plays differs; the rules page says so)."""
    m = play(game_id, 1)
    save = m.save().to_json()
    kept = m.kept_draws()
    steps = [i for i in range(len(m.log)) if m.game.chance(m.states[i]) is not None]
    assert kept
    rec = DrawRecord.from_json(save["draws"])
    caught = 0
    for i, d in list(zip(steps, kept, strict=True))[:25]:
        forged_c = "0:banana"
        _, seal = rec.seal_of(d)
        link = seal.revealed
        for _ in range(rec.seals[rec.seals.index(seal) + 1].first - 1 - d if seal is not rec.seals[-1] else rec.count - 1 - d):
            link = next_link(link)
        values = draw_values(link, d + 1, forged_c, m.game.chance(m.states[i]).sizes)
        changes = m.game.format_action(m.game.chance_action(m.states[i], values)) != m.log[i]
        draws = json.loads(json.dumps(save["draws"]))
        draws["c"][d] = forged_c
        result = check({**save, "draws": draws})
        if changes:
            assert result.status == "mismatch" and result.at_draw == d + 1, result.summary()
            code, out = verify_out({**save, "draws": draws})
            assert code == 1 and f"Draw {d + 1} does not match" in out
            caught += 1
        else:
            assert result.status == "checked"
    assert caught >= min(len(kept), 25) // 2, caught


def test_a_rewritten_revealed_link_or_commitment_is_caught() -> None:
    m = play("world", 1)
    save = m.save().to_json()
    for where in (1, 2):
        draws = json.loads(json.dumps(save["draws"]))
        seal = draws["seals"][0]
        seal[where] = next_link(seal[where])  # any other 32 hex digits
        result = check({**save, "draws": draws})
        assert result.status == "mismatch" and result.at_draw == 1, result.summary()
        assert "do not hash back to the commitment" in result.problem


def test_a_host_that_changes_its_secret_after_sealing_is_caught() -> None:
    """The host seals, draws a few, then draws on with another secret (to choose results):
    its links no longer hash back to the commitment everyone saw."""
    m = play("world", 7, steps=40)
    assert m.draws is not None and m.chain is not None
    sealed = m.draws.seals[-1].commitment
    m.chain = Chain(Rng(12345).below)  # a new secret, the old commitment kept in the record
    game, bot = m.game, RandomBot(Rng(3))
    while m.draws.count < 12:
        m.play(bot.choose(game, m.state))
    assert m.draws.seals[-1].commitment == sealed
    result = check(m.save().to_json())
    assert result.status == "mismatch" and result.at_draw == m.draws.seals[-1].first + 1, result.summary()
    code, out = verify_out(m.save().to_json())
    assert code == 1 and "the host's secret was changed after sealing" in out


def test_a_draw_removed_or_added_is_caught() -> None:
    m = play("world", 4)
    save = m.save().to_json()
    draws = json.loads(json.dumps(save["draws"]))
    draws["c"].append("~0000")
    assert check({**save, "draws": draws}).status == "mismatch"
    draws = json.loads(json.dumps(save["draws"]))
    draws["c"].pop(0)
    draws["seals"][0][0] = 0
    assert check({**save, "draws": draws}).status == "mismatch"


def test_taken_back_draws_are_counted_and_recomputed() -> None:
    m = play("world", 5, undo_every=7)
    save = m.save().to_json()
    assert save.get("undone") and save["draws"].get("u")
    assert check(save).status == "checked"
    # a result taken back, rewritten: caught
    at, texts = save["undone"][0]
    first = save["draws"]["u"][0][0]
    g = m.game
    state = m.states[at]
    before = save["draws"]["u"][0][1]
    if before:
        state = g.apply(state, g.parse_action(before))
    spec = g.chance(state)
    for k in range(spec.sizes[0]):
        other = g.format_action(g.chance_action(state, [k, *([0] * (len(spec.sizes) - 1))]))
        if other != texts[0]:
            undone = [list(u) for u in save["undone"]]
            undone[0] = [at, [other, *texts[1:]]]
            result = check({**save, "undone": undone})
            assert result.status == "mismatch" and result.at_draw == first + 1, result.summary()
            return
    raise AssertionError("no other result")


def test_a_branch_keeps_its_draws_checkable() -> None:
    m = play("world", 6)
    n = len(m.log) // 2
    while m.game.chance(m.states[n]) is not None:
        n += 1
    save = m.prefix_save(n)
    result = check(save)
    assert result.status == "checked" and result.unreplayed > 0, result.summary()
    branch = replay(save, rng=Rng(8))
    branch.seal()
    bot = RandomBot(Rng(2))
    for _ in range(60):
        if branch.game.outcome(branch.state) is not None:
            break
        branch.play(bot.choose(branch.game, branch.state))
    assert check(branch.save().to_json()).status == "checked"


def test_a_page_opened_again_seals_anew_and_still_checks() -> None:
    m = play("metagame", 8, steps=120)
    save = m.save().to_json()
    again = replay(save, rng=Rng(77))
    assert again.chain is None
    again.seal()
    again.seal()  # sealed again before a draw: the unused seal stays on record, and shows
    bot = RandomBot(Rng(4))
    while again.game.outcome(again.state) is None and len(again.log) < 300:
        again.play(bot.choose(again.game, again.state))
    after = again.save().to_json()
    assert len(after["draws"]["seals"]) == len(save["draws"]["seals"]) + 2
    result = check(after)
    assert result.status == "checked" and result.unused_seals == 1
    assert "1 more seal never used (the host's page sealed again before drawing)" in result.summary()


# -- older saves ----------------------------------------------------------------------------
def test_older_saves_open_and_are_marked_not_checkable() -> None:
    game = get_game("world")
    m = Match(game, None, rng=Rng(3))  # seeded, unsealed: the draws as before issue 26
    m.resolve_chance()
    bot = RandomBot(Rng(1))
    for _ in range(80):
        m.play(bot.choose(game, m.state))
    save = m.save().to_json()
    assert "draws" not in save
    opened = replay(save)
    assert opened.draws is None  # it stays unsealed when played on
    assert check(save).status == "not-checkable"
    code, out = verify_out(save)
    assert code == 0 and "Draws not checkable" in out


# -- the record is data from a link ---------------------------------------------------------
@pytest.mark.parametrize(
    "draws",
    [
        [],
        {"seals": [], "c": ["~0000"]},
        {"seals": [[0, "xyz", ""]], "c": []},
        {"seals": [[0, "0" * 32, ""]], "c": ["a\x00b"]},
        {"seals": [[0, "0" * 32, ""]], "c": ["x" * 401]},
        {"seals": [[0, "0" * 32, ""]], "c": [], "u": [[True, ""]]},
        {"seals": [[0, "0" * 32, ""]], "c": [], "extra": 1},
    ],
)
def test_a_damaged_record_is_refused_with_a_message(draws: Any) -> None:
    save = {"v": 1, "game": "world", "options": {}, "log": [], "draws": draws}
    with pytest.raises(SaveCodeError) as exc:
        encode_save(save)
    assert exc.value.code == "draws" and "draw record is damaged" in exc.value.message
    with pytest.raises(DrawError):
        DrawRecord.from_json(draws)



def test_the_rules_pages_worked_example_recomputes() -> None:
    """site/rules/draws.md checks a spin by hand: its numbers are what the code computes."""
    import hashlib
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "site" / "rules" / "draws.md").read_text(encoding="utf-8")
    commitment = re.search(r"commitment: `([0-9a-f]{32})`", page).group(1)
    link = re.search(r"reveals the link `([0-9a-f]{32})`", page).group(1)
    text = re.search(r"the text `([^`]+)` hashes to `([0-9a-f]{8}) ([0-9a-f]{8})", page)
    assert next_link(link) == commitment
    assert text.group(1) == f"{link} 1 0 2:Lighthouse 42"
    digest = hashlib.sha256(text.group(1).encode()).hexdigest()
    assert digest[:16] == text.group(2) + text.group(3)
    w = int(digest[:8], 16)
    assert f"{w:,}" in page and f"{2**32 - 2**32 % 3:,}" in page
    (k,) = draw_values(link, 1, "2:Lighthouse 42", (3,))
    assert k == w % 3 and f"**slice {k + 1} of 3**" in page


def test_a_hostile_record_is_bounded_before_it_is_used() -> None:
    """A left-out range of two billion draws, a taken-back group past the end: refused as
    damaged at once (nothing of their size is built)."""
    m = play("world", 2, steps=80)
    save = m.save().to_json()
    for key, value in (("x", [[0, 2_000_000_000]]), ("x", [[10**6, 5]])):
        draws = {**save["draws"], key: value}
        result = check({**save, "draws": draws})
        assert result.status == "mismatch" and "never drawn" in result.problem


HOSTILE = [None, True, -1, 2**40, 1.5, "", "x" * 500, "\u202e", [], {}, [[]], [0, "0" * 32, "zz"],
           [[0, "0" * 32, ""]], [[5, 3]], [[0, -1]], ["~0000"] * 3, {"seals": 1}]


def test_hostile_draw_records_never_break_verify() -> None:
    """Seeded mutations of a real record (a value replaced anywhere in it by something
    hostile): verify answers 0, 1 or 2 with a message, never 3 (its own failure)."""
    import random

    m = play("world", 9, steps=200, undo_every=9)
    save = m.save().to_json()
    rnd = random.Random(26)
    codes: Counter[int] = Counter()
    for _ in range(300):
        draws = json.loads(json.dumps(save["draws"]))
        key = rnd.choice(["seals", "c", "u", "x", "new"])
        if key == "new" or key not in draws or not draws[key] or rnd.random() < 0.3:
            draws[key] = rnd.choice(HOSTILE)
        else:
            i = rnd.randrange(len(draws[key]))
            if isinstance(draws[key][i], list) and rnd.random() < 0.7:
                draws[key][i][rnd.randrange(len(draws[key][i]))] = rnd.choice(HOSTILE)
            else:
                draws[key][i] = rnd.choice(HOSTILE)
        code, out = verify_out({**save, "draws": draws})
        assert code in (0, 1, 2) and "Traceback" not in out, out
        codes[code] += 1
    assert codes[1] + codes[2] > 200, codes
