"""Conquest Metagame: one scenario per ruling M1-M17, plus action texts and views.

The scenarios run on small grid maps built here (a 5x5 grid: territory index y*5+x), so
they do not depend on the usa100 data. Positions are set up the way a host would: capitals
picked, then M17 corrections, so the corrections themselves are exercised too.

     0  1  2  3  4
     5  6  7  8  9
    10 11 12 13 14
    15 16 17 18 19
    20 21 22 23 24
"""

from __future__ import annotations

import json

import pytest

from conquest.core import IllegalAction, InvalidAction, InvalidOptions
from conquest.games.metagame import GAME, canonical_allocs, slice_report
from conquest.games.metagame.actions import SpinResult, parse_action
from conquest.games.metagame.engine import PALETTE
from conquest.rng import Rng
from conquest.session import Match


def grid_map(w: int, h: int, map_id: str = "grid") -> dict:
    ts = [
        {
            "id": f"t{y * w + x}",
            "name": f"T{y * w + x}",
            "group": "all",
            "label": [x * 10, y * 10],
            "path": f"M{x * 10} {y * 10}h10v10h-10z",
        }
        for y in range(h)
        for x in range(w)
    ]
    edges = []
    for y in range(h):
        for x in range(w):
            if x + 1 < w:
                edges.append([f"t{y * w + x}", f"t{y * w + x + 1}"])
            if y + 1 < h:
                edges.append([f"t{y * w + x}", f"t{(y + 1) * w + x}"])
    return {
        "id": map_id,
        "title": f"Grid {w}x{h}",
        "width": w * 10,
        "height": h * 10,
        "territories": ts,
        "edges": edges,
        "sea_links": [],
        "groups": [{"id": "all", "name": "All", "bonus": 0, "territories": [t["id"] for t in ts]}],
        "context": [],
        "credits": [],
    }


GRID5 = grid_map(5, 5)
NAMES = ["Ann", "Bob", "Cy", "Di"]


def new_match(
    players: int = 2,
    grid: dict = GRID5,
    pool: int | None = None,
    games: list | None = None,
    log: tuple[str, ...] = (),
    seed: int = 7,
) -> Match:
    opts = {
        "players": [{"name": n} for n in NAMES[:players]],
        "map_data": grid,
        "token_pool": pool,
        "seed": seed,
    }
    if games is not None:
        opts["games"] = games
    return Match(GAME, opts, log, rng=Rng(seed))


def position(
    owners: dict[int, list[int]],
    capitals: dict[int, int] | None = None,
    block: dict | None = None,
    respin: dict | None = None,
    pool: int | None = None,
    players: int = 2,
    current: int = 0,
) -> Match:
    """Capitals picked in seat order (0 -> 0, 1 -> 24, 2 -> 4), then host corrections."""
    caps = capitals or {0: 0, 1: 24, 2: 4}
    m = new_match(players, pool=pool)
    for p in range(players):
        m.play(f"k{caps[p]}")
    for p, ts in owners.items():
        for t in ts:
            m.play(f"!o{t}={p}")
    for p, n in (block or {}).items():
        m.play(f"!t{p}b={n}")
    for p, n in (respin or {}).items():
        m.play(f"!t{p}r={n}")
    for _ in range(current):
        m.play("p")
    return m


def refused(m: Match, text: str, code_prefix: str) -> IllegalAction:
    before = GAME.state_to_json(m.state)
    log = list(m.log)
    with pytest.raises(IllegalAction) as info:
        m.play(text)
    assert info.value.code.startswith(code_prefix), info.value.code
    assert GAME.state_to_json(m.state) == before and m.log == log
    return info.value


def spin_to(m: Match, game_index: int) -> None:
    """Record a spin landing on ``game_index`` (as a drawn result would be)."""
    inv = m.state.inv
    start = 0
    for g, n in inv.layout:
        if g == game_index:
            break
        start += n
    m._push(str(SpinResult(start, inv.layout)))


ROWS01 = list(range(1, 10))  # Ann: rows 0-1 (capital 0)
REST = list(range(10, 24))  # Bob: rows 2-4 (capital 24)


# ----------------------------------------------------------------------------------------
# M1 map
# ----------------------------------------------------------------------------------------
def test_M1_distance_counts_edges_and_map_must_be_connected():
    board = new_match().state.board
    assert board.dist[0][24] == 8 and board.dist[0][6] == 2 and board.dist[12][12] == 0
    broken = grid_map(3, 1)
    broken["edges"] = broken["edges"][:1]
    with pytest.raises(InvalidOptions, match="M1"):
        new_match(grid=broken)


def test_M1_usa100_has_100_connected_territories():
    try:
        m = Match(GAME, {"seed": 1})
    except InvalidOptions as exc:
        pytest.fail(f"usa100 map data is missing or broken: {exc}")
    assert len(m.state.board) == 100 and m.state.board.connected()


# ----------------------------------------------------------------------------------------
# M2 players and order
# ----------------------------------------------------------------------------------------
def test_M2_two_to_eight_players_with_names_and_colours():
    for n in (1, 9):
        with pytest.raises(InvalidOptions, match="M2"):
            GAME.normalize_options({"players": n})
    with pytest.raises(InvalidOptions, match="colour"):
        GAME.normalize_options({"players": [{"name": "A", "colour": "red"}, {"name": "B"}]})
    opts = GAME.normalize_options({"players": [{"name": " Ann  Lee "}, {"name": "Bob", "colour": "#ABCDEF"}]})
    assert opts["players"] == [{"name": "Ann Lee"}, {"name": "Bob", "colour": "#abcdef"}]
    assert new_match().state.players[1].colour == PALETTE[1]  # the default colour is implied
    assert len(set(PALETTE)) == 8 and PALETTE[1] == "#56b4e9"  # Okabe-Ito (colour-blind safe)
    assert GAME.normalize_options(opts) == opts  # idempotent


def test_M2_turn_order_is_fixed_and_eliminated_players_are_skipped():
    m = position({0: [1, 2, 5], 1: [19, 23], 2: [3]}, players=3)
    assert m.state.current == 0
    m.play("p")
    assert m.state.current == 1
    m.play("p")
    assert m.state.current == 2
    m.play("p")
    # Cy loses everything by host correction: out, and skipped from then on
    m.play("!o3=0")
    m.play("!o4=0")
    assert not m.state.alive(2)
    m.play("p")
    m.play("p")
    assert m.state.current == 0


# ----------------------------------------------------------------------------------------
# M3 host role: no hidden information; view is plain JSON for anyone
# ----------------------------------------------------------------------------------------
def test_M3_views_are_json_and_hide_nothing():
    m = position({0: ROWS01, 1: REST})
    host, spectator = GAME.view(m.state, 0), GAME.view(m.state, None)
    assert json.loads(json.dumps(spectator)) == spectator
    host.pop("viewer"), spectator.pop("viewer")
    assert host == spectator


# ----------------------------------------------------------------------------------------
# M4 capitals
# ----------------------------------------------------------------------------------------
def test_M4_capital_at_distance_3_from_other_players():
    m = new_match(3)
    m.play("k12")  # the first player picks anywhere
    err = refused(m, "k14", "M4.too-close")  # distance 2 from 12
    assert "M4" in err.message
    refused(m, "k12", "M4.not-neutral")
    refused(m, "k0!", "M4.override-not-needed")
    allowed = {a.t for a in GAME.legal_actions(m.state)}
    assert allowed == {t for t in range(25) if m.state.board.dist[12][t] >= 3}
    m.play("k0")
    assert m.state.capital[:2] == (12, 0) and m.state.current == 2


def test_M4_host_override_when_no_territory_qualifies():
    m = new_match(3, grid=grid_map(3, 3))
    m.play("k4")  # the centre of a 3x3 grid: nothing is 3 away
    view = GAME.view(m.state, None)
    assert view["eligible"]["kind"] == "capital_override" and view["notes"]
    err = refused(m, "k0", "M4.none-qualifies")
    assert "override" in err.message
    assert all(str(a).endswith("!") for a in GAME.legal_actions(m.state))
    m.play("k0!")
    assert m.state.capital[1] == 0 and m.log[-1] == "k0!"
    assert "override" in GAME.describe_action(
        new_match(3, grid=grid_map(3, 3), log=("k4",)).state, parse_action("k0!")
    )


# ----------------------------------------------------------------------------------------
# M5 a turn: claim, invade or pass
# ----------------------------------------------------------------------------------------
def test_M5_claim_adjacent_neutral_ends_turn():
    m = position({})
    refused(m, "c12", "M5.claim-not-adjacent")
    refused(m, "c24", "M5.claim-not-neutral")
    m.play("c1")
    assert m.state.owner[1] == 0 and m.state.current == 1 and m.state.phase == "turn"


def test_M5_invade_adjacent_enemy_only_and_pass_is_logged():
    m = position({0: [1, 2], 1: [3]})
    refused(m, "i24", "M5.invade-not-adjacent")
    refused(m, "i5", "M5.invade-neutral")
    refused(m, "i1", "M5.invade-own")
    legal = [str(a) for a in GAME.legal_actions(m.state)]
    assert legal == ["c5", "c6", "c7", "i3", "p"]
    m.play("p")
    assert m.log[-1] == "p" and m.state.current == 1
    m.play("i2")
    assert m.state.phase in ("sacrifice", "slices_a") and m.state.inv.target == 2


# ----------------------------------------------------------------------------------------
# M6 invasion numbers
# ----------------------------------------------------------------------------------------
def test_M6_numbers_taken_at_declaration():
    m = position({0: ROWS01, 1: REST})  # Ann 10, Bob 15
    m.play("i10")
    inv = m.state.inv
    assert (inv.n_a, inv.n_d, inv.m) == (10, 15, 1)
    assert (inv.z_a, inv.z_d, inv.x, inv.y_a, inv.y_d) == (10, 15, 25, 5, 7)
    numbers = GAME.view(m.state, None)["invasion"]["numbers"]
    assert numbers == {
        "nA": 10,
        "nD": 15,
        "m": 1,
        "X": 25,
        "ZA": 10,
        "ZD": 15,
        "YA": 5,
        "YD": 7,
        "cap_a": 5,
        "cap_d": 7,
    }


def test_M6_capital_target_doubles_X_Y_Z():
    m = position({0: ROWS01 + [19], 1: list(range(10, 19)) + [20, 21, 22, 23]})  # Ann 11, Bob 14
    m.play("i24")
    inv = m.state.inv
    assert inv.m == 2 and (inv.z_a, inv.z_d, inv.x, inv.y_a, inv.y_d) == (22, 28, 50, 10, 14)
    assert any("doubled" in line for line in GAME.view(m.state, None)["invasion"]["explain"])


def test_M6_one_territory_player_cap_raised_to_1():
    m = position({1: [1]}, current=1)  # Ann holds only her capital 0; Bob invades it
    m.play("i0")
    inv = m.state.inv
    assert (inv.n_d, inv.m, inv.z_d, inv.y_d, inv.cap_d) == (1, 2, 2, 0, 1)
    m.play(str(GAME.legal_actions(m.state)[0]))  # Bob's slices
    rep = slice_report(m.state, {0: 2})
    assert rep["cap"] == 1 and rep["messages"][0] == "M9: The Game of Conquests has 2 slices; the cap is 1"
    m.play("w1,1")
    assert m.state.phase == "spin"


# ----------------------------------------------------------------------------------------
# M7 sacrifice
# ----------------------------------------------------------------------------------------
def test_M7_sacrifice_not_adjacent_to_target():
    m = position({0: ROWS01, 1: REST})
    m.play("i10")
    assert m.state.phase == "sacrifice"
    err = refused(m, "s5", "M7.adjacent")  # 5 borders 10
    assert err.message == "M7: a sacrificed territory must not border the target; T5 does"
    refused(m, "s0", "M7.capital")
    refused(m, "s11", "M7.not-own")
    refused(m, "s1.2.3.4.6.7", "M7.too-many")  # YA = 5
    m.play("s3.1")
    assert m.log[-1] == "s1.3"
    inv = m.state.inv
    assert m.state.owner[1] == m.state.owner[3] == -1
    assert inv.cap_a == 5 + 2 and (inv.x, inv.z_a, inv.z_d, inv.y_d) == (25, 10, 15, 7)


def test_M7_offers_and_eligible_list():
    m = position({0: ROWS01, 1: REST})
    m.play("i10")
    elig = GAME.view(m.state, None)["eligible"]
    assert elig["kind"] == "sacrifice" and elig["max"] == 5
    assert elig["territories"] == [1, 2, 3, 4, 6, 7, 8, 9]
    offers = [str(a) for a in GAME.legal_actions(m.state)]
    assert offers[0] == "s-" and len(offers) == 6  # none, then 1..5 canonical
    m.play("s-")
    assert m.state.phase == "slices_a" and m.state.inv.cap_a == 5


# ----------------------------------------------------------------------------------------
# M8 block
# ----------------------------------------------------------------------------------------
def test_M8_block_cancels_cap_bonus_and_respin_token():
    m = position({0: ROWS01, 1: REST}, block={1: 1})
    m.play("i10")
    m.play("s1.2")
    assert m.state.phase == "block" and GAME.to_move(m.state) == 1
    refused(m, "b20", "M8.count")
    refused(m, "b11.20", "M8.adjacent")  # 11 borders 10
    refused(m, "b20.24", "M8.capital")
    m.play("b20.21")
    inv = m.state.inv
    assert m.state.owner[1] == m.state.owner[2] == m.state.owner[20] == m.state.owner[21] == -1
    assert inv.cap_a == 5 and m.state.block[1] == 0 and m.state.phase == "slices_a"
    m.play("w5,5")
    m.play(str(GAME.legal_actions(m.state)[0]))
    m.play("spin")
    while m.state.phase in ("respin_a", "respin_d"):
        m.play("x-")
    m.play("da")
    assert m.state.owner[10] == 0 and m.state.respin[0] == 0  # blocked: no re-spin token


def test_M8_block_impossible_without_enough_territories():
    # Bob holds a token but only 10 (target), 11, 15 (both border it) and his capital 24
    m = position({0: ROWS01, 1: [10, 11, 15]}, block={1: 1})
    m.play("i10")
    m.play("s1")
    assert m.state.phase == "slices_a"  # no block step: no eligible territory
    m2 = position({0: ROWS01, 1: [10, 11, 15, 20]}, block={1: 1})
    m2.play("i10")
    m2.play("s1.2")  # s = 2 but Bob has one eligible (20)
    assert m2.state.phase == "slices_a"
    m3 = position({0: ROWS01, 1: [10, 11, 15, 20]}, block={1: 1})
    m3.play("i10")
    m3.play("s1")
    assert m3.state.phase == "block" and [str(a) for a in GAME.legal_actions(m3.state)] == ["b-", "b20"]


# ----------------------------------------------------------------------------------------
# M9 slices
# ----------------------------------------------------------------------------------------
def test_M9_each_side_assigns_exactly_Z_within_cap():
    m = position({0: ROWS01, 1: REST})  # ZA 10 cap 5, ZD 15 cap 7
    m.play("i10")
    m.play("s-")
    refused(m, "w5,4", "M9.slices")
    err = refused(m, "w6,4", "M9.slices")
    assert "cap" in err.message
    refused(m, "w,5,,,,,,5", "M9.slices")  # no game 7
    rep = slice_report(m.state, {0: 5})
    assert rep["messages"] == ["5 slices left", "needs 1 more game"] and not rep["ok"]
    assert slice_report(m.state, {0: 5, 1: 5})["ok"]
    m.play("w5,5")
    assert m.log[-1] == "w5,5" and m.state.phase == "slices_d"
    m.play("w7,1,7")
    assert m.state.inv.layout == ((0, 12), (1, 6), (2, 7))
    wheel = GAME.view(m.state, None)["invasion"]["wheel"]
    assert [(s["name"], s["start"], s["count"], s["a"], s["d"]) for s in wheel] == [
        ("conquests", 0, 12, 5, 7),
        ("reign", 12, 6, 5, 1),
        ("Chess", 18, 7, 0, 7),
    ]


def test_M9_at_least_three_games_and_canonical_offers():
    with pytest.raises(InvalidOptions, match="M9"):
        GAME.normalize_options({"games": ["conquests", "Chess"]})
    with pytest.raises(InvalidOptions, match="twice"):
        GAME.normalize_options({"games": ["Chess", "chess", "Go"]})
    for z in range(1, 40):
        for cap in range(max(1, z // 3), z + 1):
            for g in (3, 4, 7):
                if cap * g < z:
                    continue
                offers = canonical_allocs(z, cap, g)
                assert offers, (z, cap, g)
                for alloc in offers:
                    assert sum(n for _, n in alloc) == z and all(0 < n <= cap for _, n in alloc)


# ----------------------------------------------------------------------------------------
# M10 spin
# ----------------------------------------------------------------------------------------
def _to_spin(m: Match) -> None:
    m.play("i10")
    if m.state.phase == "sacrifice":
        m.play("s-")
    m.play("w5,5")
    m.play("w7,7,1")


def test_M10_spin_is_a_logged_chance_step_with_layout():
    m = position({0: ROWS01, 1: REST})
    _to_spin(m)
    assert GAME.chance(m.state) is None and GAME.legal_actions(m.state) == [parse_action("spin")]
    m2 = position({0: ROWS01, 1: REST})
    _to_spin(m2)
    m._push("spin")
    spec = GAME.chance(m.state)
    assert spec.kind == "spin" and spec.sizes == (25,) and GAME.legal_actions(m.state) == []
    m2.rng = Rng(99)
    m2.play("spin")
    drawn = m2.log[-1]
    assert drawn.startswith("r") and drawn.endswith(" 12,12,1") and "/" not in drawn
    k = int(drawn[1:].split(" ")[0])
    assert k == Rng(99).below(25)
    assert "wheel" in GAME.describe_action(m.state, parse_action(drawn))
    refused(m, "r3 12,13", "M10.layout")  # not this wheel
    refused(m, "r30 12,12,1", "M10.slice")
    assert parse_action(f"r{k}/25 12,12,1") == parse_action(drawn)  # the older form still reads


# ----------------------------------------------------------------------------------------
# M11 re-spin
# ----------------------------------------------------------------------------------------
def test_M11_respin_costs_token_and_territory_once_per_invasion():
    m = position({0: ROWS01, 1: REST}, respin={0: 1, 1: 1})
    _to_spin(m)
    m._push("spin")
    spin_to(m, 2)
    assert m.state.phase == "respin_a"
    refused(m, "x5", "M11.adjacent")
    refused(m, "x0", "M11.capital")
    m.play("x-")
    assert m.state.phase == "respin_d" and GAME.to_move(m.state) == 1
    refused(m, "x15", "M11.adjacent")
    m._push("x20")
    assert m.state.owner[20] == -1 and m.state.respin[1] == 0 and GAME.chance(m.state).sizes == (25,)
    spin_to(m, 0)
    assert m.state.phase == "duel"  # the second result stands, no more re-spins
    assert [s["name"] for s in GAME.view(m.state, None)["invasion"]["spins"]] == ["Chess", "conquests"]


def test_M11_no_respin_step_without_token():
    m = position({0: ROWS01, 1: REST})
    _to_spin(m)
    m.play("spin")
    assert m.state.phase == "duel"


# ----------------------------------------------------------------------------------------
# M12 duel
# ----------------------------------------------------------------------------------------
def to_duel(m: Match) -> None:
    """Play the invasion under way up to the duel: no sacrifice, block or re-spin, first offers."""
    while m.state.phase != "duel":
        ph = m.state.phase
        m.play(
            {"sacrifice": "s-", "block": "b-", "spin": "spin", "respin_a": "x-", "respin_d": "x-"}.get(
                ph, str(GAME.legal_actions(m.state)[0])
            )
        )


def _capital_invasion(m: Match) -> None:
    m.play("i24")
    to_duel(m)


def test_M12_capital_needs_two_wins():
    owners = {0: ROWS01 + [19], 1: list(range(10, 19)) + [20, 21, 22, 23]}
    m = position(owners)
    _capital_invasion(m)
    m.play("da")
    assert m.state.phase == "duel" and m.state.inv.duel_wins == 1 and m.state.owner[24] == 1
    m.play("dd")  # the defender holds by winning either
    assert m.state.owner[24] == 1 and m.state.block[1] == 1


def test_M12_defender_holds_by_winning_first_game():
    m = position({0: ROWS01 + [19], 1: list(range(10, 19)) + [20, 21, 22, 23]})
    _capital_invasion(m)
    m.play("dd")
    assert m.state.owner[24] == 1 and m.state.inv is not None and m.state.phase == "gift"


# ----------------------------------------------------------------------------------------
# M13 attacker wins
# ----------------------------------------------------------------------------------------
def test_M13_capital_capture_transfers_everything_and_eliminates():
    m = position({0: [1, 5, 19], 1: [18, 22, 23], 2: [3]}, players=3, block={1: 2}, respin={1: 1}, pool=3)
    _capital_invasion(m)
    m.play("da")
    m.play("da")
    st = m.state
    assert [t for t, o in enumerate(st.owner) if o == 0] == [0, 1, 5, 18, 19, 22, 23, 24]
    assert st.block[1] == 0 and st.respin[1] == 0 and st.phase == "turn"
    assert not st.alive(1) and st.capital[1] == -1
    assert GAME.pool_free(st, "b") == 3 and st.current == 2  # Bob is skipped


def test_M13_unblocked_sacrifice_earns_respin_token():
    m = position({0: ROWS01, 1: REST})
    m.play("i10")
    m.play("s9")
    m.play("w6,4")  # cap 5 + 1 = 6
    m.play("w7,7,1")
    m.play("spin")
    m.play("da")
    assert m.state.owner[10] == 0 and m.state.respin[0] == 1 and m.state.owner[9] == -1


def test_M13_sacrifice_then_loss_earns_nothing():
    m = position({0: ROWS01, 1: REST})
    m.play("i10")
    m.play("s9")
    m.play("w6,4")
    m.play("w7,7,1")
    m.play("spin")
    m.play("dd")
    assert m.state.respin[0] == 0 and m.state.block[1] == 1


# ----------------------------------------------------------------------------------------
# M14 defender wins and the gift
# ----------------------------------------------------------------------------------------
def test_M14_defender_earns_block_token_and_receives_gift():
    m = position({0: ROWS01 + [11], 1: REST[:1] + REST[2:]})
    m.play("i10")
    m.play("s-")
    m.play(str(GAME.legal_actions(m.state)[0]))
    m.play(str(GAME.legal_actions(m.state)[0]))
    m.play("spin")
    m.play("dd")
    assert m.state.phase == "gift" and m.state.block[1] == 1
    assert GAME.view(m.state, None)["eligible"]["territories"] == [5, 11]
    refused(m, "g1", "M14.gift")
    m.play("g11")
    assert m.state.owner[11] == 1 and m.state.phase == "turn" and m.state.current == 1


def test_M14_gift_when_only_capital_borders_target():
    # Ann holds 0 (capital) and 1; Bob holds 5, which only Ann's capital 0 borders among hers... and 6
    m = position({0: [1], 1: [5, 6]})
    m.play("i5")
    to_duel(m)
    line = GAME.describe_action(m.state, parse_action("dd"))
    assert "nothing is given" in line
    m.play("dd")
    assert m.state.phase == "turn" and m.state.owner[1] == 0 and m.state.owner[0] == 0


# ----------------------------------------------------------------------------------------
# M15 tokens and the pool
# ----------------------------------------------------------------------------------------
def test_M15_tokens_persist_and_pool_limits():
    m = position({0: ROWS01, 1: REST}, pool=1, block={0: 1})
    refused(m, "!t1b=1", "M15.pool")
    assert GAME.pool_free(m.state, "b") == 0 and GAME.pool_free(m.state, "r") == 1
    m.play("i10")
    m.play("s-")
    m.play("w5,5")
    m.play("w7,7,1")
    m.play("spin")
    m.play("dd")  # Bob wins but the pool is empty: no block token
    assert m.state.block == (1, 0)
    m.play("g5")
    m.play("p")  # Bob passes, Ann's token persists
    assert m.state.block == (1, 0)
    with pytest.raises(InvalidOptions, match="M15"):
        GAME.normalize_options({"token_pool": -1})


# ----------------------------------------------------------------------------------------
# M16 end of the game
# ----------------------------------------------------------------------------------------
def test_M16_more_than_75_percent_ends_the_game():
    owners = list(range(1, 18))  # Ann 18 of 25 = 72%
    m = position({0: owners})
    assert m.state.phase == "turn"
    m.play("c18")  # 19 of 25 = 76% > 75%
    out = GAME.outcome(m.state)
    assert out.reason == "majority" and out.winners == (0,) and GAME.legal_actions(m.state) == []
    refused(m, "p", "M16.over")


def test_M16_exactly_75_percent_goes_on():
    m = position({0: list(range(1, 14))}, capitals={0: 0, 1: 24})  # 14 of 25
    grid4 = grid_map(4, 4)  # 16 territories: 12 is exactly 75 %
    m = new_match(grid=grid4, log=("k0", "k15") + tuple(f"!o{t}=0" for t in range(1, 11)))
    m.play("c11")  # 12 of 16 = 75%: not more
    assert m.state.phase == "turn"


def test_M16_last_player_left_and_agreement_tie():
    m = position({0: ROWS01 + [19], 1: list(range(10, 19)) + [20, 21, 22, 23]})
    _capital_invasion(m)
    m.play("da")
    m.play("da")
    assert GAME.outcome(m.state).reason == "last"
    m2 = position({0: [1], 1: [23]})
    m2.play("!end")
    out = GAME.outcome(m2.state)
    assert out.reason == "agreement" and out.winners == (0, 1) and out.scores == (2.0, 2.0)


# ----------------------------------------------------------------------------------------
# M17 host corrections and undo
# ----------------------------------------------------------------------------------------
def test_M17_corrections_are_logged_and_undoable():
    m = position({})
    m.play("!o12=1")
    m.play("!k1=12")
    m.play("!t0r=2")
    assert m.log[-3:] == ["!o12=1", "!k1=12", "!t0r=2"]
    assert m.state.capital[1] == 12 and m.state.respin[0] == 2
    refused(m, "!k0=12", "M17.capital-not-own")
    refused(m, "!o99=1", "M1.no-territory")
    refused(m, "!t5b=1", "M2.no-player")
    m.undo()
    m.undo()
    m.undo()
    assert m.state.capital[1] == 24 and m.state.respin[0] == 0
    m.play("!o24=0")  # Bob's capital taken by correction: Bob is out (no territory left)
    assert m.state.capital[1] == -1 and not m.state.alive(1)
    assert GAME.outcome(m.state).reason == "last"
    m.undo()
    m.play("!o23=1")
    m.play("!o24=0")  # now Bob keeps 23 but has no capital
    assert m.state.capital[1] == -1 and m.state.alive(1) and m.state.phase == "turn"
    assert "correction" in GAME.describe_action(m.state, parse_action("!o3=1"))


def test_M17_no_corrections_mid_invasion():
    m = position({0: ROWS01, 1: REST})
    m.play("i10")
    refused(m, "!o1=1", "M17.mid-invasion")
    m.undo()
    assert m.state.phase == "turn" and m.state.inv is None


# ----------------------------------------------------------------------------------------
# action texts and state JSON
# ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "k37",
        "k37!",
        "c0",
        "i99",
        "p",
        "s1.5.30",
        "s-",
        "b2.3",
        "b-",
        "w5,,3",
        "spin",
        "r17 5,3,,16",
        "x12",
        "x-",
        "da",
        "dd",
        "g4",
        "!o37=2",
        "!o37=-",
        "!k2=37",
        "!k2=-",
        "!t2b=3",
        "!t0r=0",
        "!end",
    ],
)
def test_action_text_round_trips(text):
    action = parse_action(text)
    assert str(action) == text and parse_action(str(action)) == action


@pytest.mark.parametrize(
    "text",
    ["", "c", "c01", "x", "s1.1", "w0", "w,,", "w01", "k-1", "r1/2", "r1/9 5,3", "r1", "!t0x=1", "ii3"],
)
def test_malformed_action_texts_are_invalid(text):
    with pytest.raises(InvalidAction):
        parse_action(text)


def test_state_json_round_trip_mid_invasion():
    m = position({0: ROWS01, 1: REST}, respin={0: 1})
    m.play("i10")
    m.play("s1.2")
    obj = GAME.state_to_json(m.state)
    again = GAME.state_from_json(json.loads(json.dumps(obj)))
    assert again == m.state and GAME.state_to_json(again) == obj
