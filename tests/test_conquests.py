"""The Game of Conquests: one scenario per ruling (C1-C6), refusals, texts, conformance."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conquest.core import GameError, IllegalAction, InvalidAction, InvalidOptions, get_game
from conquest.games.conquests import (
    GAME,
    Action,
    parse_action,
    position_from_text,
    position_to_text,
    state_from_json,
    state_to_json,
)
from conquest.games.conquests import rules as R
from conquest.rng import Rng
from conquest.session import Match, replay

START = "algcla/1s2s1/6/6/1S2S1/ALGCLA - w 0 1"


def pos(text: str):
    return position_from_text(text)


def texts(actions) -> set[str]:
    return {str(a) for a in actions}


def targets_of(state, square: str) -> set[str]:
    """Destinations of the fighter on ``square`` among the legal actions (placements folded)."""
    sq = R.parse_square(square)
    return {R.square_name(a.to) for a in GAME.legal_actions(state) if a.frm == sq}


def play(state, *moves: str):
    for m in moves:
        state = GAME.apply(state, parse_action(m))
    return state


# -- C1 ---------------------------------------------------------------------------------------


def test_C1_setup_and_white_moves_first():
    s = GAME.new_game(GAME.default_options(), 0)
    assert position_to_text(s) == START
    assert GAME.to_move(s) == 0
    v = GAME.view(s, None)
    by_square = {e["square"]: (e["owner"], e["fighter"], e["level"]) for e in v["board"]}
    assert by_square["a1"] == (0, "A", 1) and by_square["b1"] == (0, "L", 1)
    assert by_square["c1"] == (0, "G", 1) and by_square["d1"] == (0, "C", 1)
    assert by_square["e1"] == (0, "L", 1) and by_square["f1"] == (0, "A", 1)
    assert by_square["b2"] == by_square["e2"] == (0, "S", 1)
    assert by_square["c6"] == (1, "G", 1) and by_square["d6"] == (1, "C", 1)
    assert by_square["b5"] == by_square["e5"] == (1, "S", 1)
    assert len(v["board"]) == 16 and all(e["level"] == 1 for e in v["board"])
    assert v["reserves"] == [[], []] and v["in_danger"] is False
    assert get_game("conquests") is GAME and GAME.title == "The Game of Conquests"


# -- C2 ---------------------------------------------------------------------------------------

# a lone fighter on c3 (White) or d4 (Black), Generals tucked away in the corners
_C2_CASES = [
    # (fighter text, square, expected destinations)
    ("S", "c3", {"b4", "c4", "d4"}),
    ("S+", "c3", {"b4", "c4", "d4", "b3", "d3", "b2", "c2", "d2"}),
    ("A", "c3", {"b4", "d4", "b2", "d2"}),
    ("A+", "c3", {"b4", "a5", "d4", "e5", "f6", "b2", "d2"}),
    ("A++", "c3", {"b4", "a5", "d4", "e5", "f6", "b2", "a1", "d2", "e1"}),
    ("L", "c3", {"c4", "c5", "c6"}),
    ("L+", "c3", {"c4", "c5", "c6", "b3", "d3", "c2"}),
    ("L++", "c3", {"c4", "c5", "c6", "a3", "b3", "d3", "e3", "f3", "c2", "c1"}),
    ("C", "c3", {"c4", "c5", "c6", "a3", "b3", "d3", "e3", "f3", "c2", "c1",
                 "b4", "a5", "d4", "e5", "f6", "b2", "a1", "d2", "e1"}),
    ("C+", "c3", {"c4", "c5", "c6", "a3", "b3", "d3", "e3", "f3", "c2", "c1", "b4", "d4", "b2", "d2"}),
    ("C++", "c3", {"b4", "c4", "d4", "b3", "d3", "b2", "c2", "d2"}),
]


def _lone(fighter: str, square: str, black: bool = False) -> str:
    """White General f1 / Black General a6 (or mirrored), one fighter on ``square``."""
    board = [["" for _ in range(6)] for _ in range(6)]  # [rank][file]
    board[0][5] = "G"
    board[5][0] = "g"
    f, r = "abcdef".index(square[0]), int(square[1]) - 1
    board[r][f] = fighter.lower() if black else fighter
    rows = []
    for rank in range(5, -1, -1):
        out, empty = "", 0
        for cell in board[rank]:
            if cell:
                out += (str(empty) if empty else "") + cell
                empty = 0
            else:
                empty += 1
        rows.append(out + (str(empty) if empty else ""))
    return "/".join(rows) + " - " + ("b" if black else "w") + " 0 1"


@pytest.mark.parametrize(("fighter", "square", "expected"), _C2_CASES)
def test_C2_moves_by_fighter_and_level(fighter, square, expected):
    assert targets_of(pos(_lone(fighter, square)), square) == expected


def _mirror(square: str) -> str:
    return "abcdef"[5 - "abcdef".index(square[0])] + str(7 - int(square[1]))


@pytest.mark.parametrize(("fighter", "square", "expected"), _C2_CASES)
def test_C2_black_moves_are_turned_around(fighter, square, expected):
    black_square = _mirror(square)
    state = pos(_lone(fighter, black_square, black=True))
    assert targets_of(state, black_square) == {_mirror(t) for t in expected}


def test_C2_blocked_by_own_and_slides_stop_on_enemy():
    # White Lancer L3 on c3: own Soldier on c5 blocks, Black Soldier on e3 is captured and stops it
    s = pos("g5/2S3/6/2L++1s1/6/5G - w 0 1")
    assert targets_of(s, "c3") == {"c4", "a3", "b3", "d3", "e3", "c2", "c1"}
    after = GAME.apply(s, parse_action("c3e3"))
    assert position_to_text(after) == "g5/2S3/6/4L++1/6/5G s+ b 0 1"


# -- C3 ---------------------------------------------------------------------------------------


def test_C3_capture_promotes_into_the_owners_reserve():
    s = pos("g5/6/2s3/2L3/6/5G - w 0 1")
    after = GAME.apply(s, parse_action("c3c4"))
    assert after.reserves == ((), (R.SOLDIER << 2 | 2,))
    assert position_to_text(after) == "g5/6/2L3/6/6/5G s+ b 0 1"
    assert "goes to Black's reserve at level 2" in GAME.describe_action(s, parse_action("c3c4"))


@pytest.mark.parametrize("victim", ["s+", "a++", "l++", "c++"])
def test_C3_capture_at_top_level_retires(victim):
    s = pos(f"g5/6/2{victim}3/2L3/6/5G - w 0 1")
    after = GAME.apply(s, parse_action("c3c4"))
    assert after.reserves == ((), ())
    assert "retires" in GAME.describe_action(s, parse_action("c3c4"))


def test_C3_champion_weakens_when_promoted():
    s = pos("g5/6/2c3/2L3/6/5G - w 0 1")
    after = GAME.apply(s, parse_action("c3c4"))
    assert position_to_text(after).split()[1] == "c+"


# -- C4 ---------------------------------------------------------------------------------------


def test_C4_placement_beside_general():
    # White General c1 -> c2 with an Archer and a Soldier in reserve
    s = pos("g5/6/6/6/6/2G3 SA w 0 1")
    acts = texts(GAME.legal_actions(s))
    archer = {t.split("@")[1] for t in acts if t.startswith("c1c2+A1@")}
    soldier = {t.split("@")[1] for t in acts if t.startswith("c1c2+S1@")}
    assert archer == {"b2", "d2", "b1", "c1", "d1"}  # two sides, three behind
    assert soldier == {"b1", "c1", "d1", "b2", "d2", "b3", "c3", "d3"}  # all eight
    assert "c1c2" in acts
    after = GAME.apply(s, parse_action("c1c2+A1@c1"))
    assert position_to_text(after) == "g5/6/6/6/2G3/2A3 S b 1 1"
    assert GAME.describe_action(s, parse_action("c1c2+A1@c1")).endswith("places a level-1 Archer on c1")


def test_C4_black_places_behind_toward_rank_6():
    s = pos("2g3/6/6/6/6/5G sa b 0 1")
    acts = texts(GAME.legal_actions(s))
    archer = {t.split("@")[1] for t in acts if t.startswith("c6c5+A1@")}
    assert archer == {"b5", "d5", "b6", "c6", "d6"}


def test_C4_placement_refusals():
    s = pos("g5/6/6/6/1S4/2G3 S+ w 0 1")
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, parse_action("b2b3+S2@a1"))
    assert e.value.code == "placement" and "C4" in e.value.message
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, parse_action("c1d1+A1@c1"))
    assert e.value.code == "reserve"
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, parse_action("c1d1+S2@b2"))
    assert e.value.code == "placement"
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, parse_action("c1c2+S2@b2"))  # b2 holds a Soldier
    assert e.value.code == "placement" and "not empty" in e.value.message
    # an Archer may not go in front of the General (only a Soldier may)
    s2 = pos("g5/6/6/6/6/2G3 A w 0 1")
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s2, parse_action("c1c2+A1@c3"))
    assert e.value.code == "placement"


def test_C4_C5_placement_may_block_danger():
    # c2 is on the rank of Black's level-3 Lancer f2: c1c2 alone is in Danger,
    # but placing a fighter on d2 (a side square) blocks the Lancer
    s = pos("g5/6/6/6/5l++/2G3 SA w 0 1")
    acts = texts(GAME.legal_actions(s))
    assert "c1c2" not in acts
    assert {"c1c2+S1@d2", "c1c2+A1@d2"} <= acts
    assert not any(t.startswith("c1c2+") and not t.endswith("@d2") for t in acts)
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, parse_action("c1c2"))
    assert e.value.code == "danger" and e.value.message == "C5: c1c2 would leave your General in Danger"


# -- C5 ---------------------------------------------------------------------------------------


def test_C5_danger_forbids_exposing_the_general():
    # Black's level-3 Lancer on d6 puts the White General d2 in Danger down the d-file
    s = pos("3l++2/6/g5/6/3G2/6 - w 0 1")
    assert GAME.in_danger(s) is True and GAME.view(s, 0)["in_danger"] is True
    assert targets_of(s, "d2") == {"c1", "c2", "c3", "e1", "e2", "e3"}
    for a in GAME.legal_actions(s):  # every legal action ends the Danger
        assert not R.in_danger(list(GAME.apply(s, a).board), 0)
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, parse_action("d2d3"))
    assert e.value.code == "danger" and e.value.message == "C5: d2d3 would leave your General in Danger"


def test_C5_pinned_fighter_cannot_move():
    # White Soldier c3 stands between its General c2 and Black's level-3 Lancer c6
    s = pos("2l++3/6/g5/2S3/2G3/6 - w 0 1")
    assert targets_of(s, "c3") == {"c4"}  # it may only move along the line it guards
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, parse_action("c3d4"))
    assert e.value.code == "danger" and "C5" in str(e.value)


def test_C5_general_in_danger_with_no_escape_loses():
    s = pos("g5/6/5L++/6/6/1L++3G - w 0 1")
    after = GAME.apply(s, parse_action("f4a4"))
    out = GAME.outcome(after)
    assert out is not None and out.winners == (0,) and "Danger with no escape" in out.reason
    assert GAME.legal_actions(after) == [] and GAME.to_move(after) is None
    with pytest.raises(IllegalAction) as e:
        GAME.apply(after, parse_action("a6b6"))
    assert e.value.code == "game_over"


def test_C5_no_legal_move_at_all_loses():
    # after a3a4 the Black General a6 is not in Danger but a5, b5, b6 are covered,
    # and Black's only other fighter, a Soldier on d1, cannot move forward off the board
    s = pos("g5/6/6/S5/6/1L++1s1G - w 0 1")
    after = GAME.apply(s, parse_action("a3a4"))
    assert not GAME.in_danger(after)
    out = GAME.outcome(after)
    assert out is not None and out.winners == (0,) and "no legal move" in out.reason


def test_C5_threefold_repetition_draws():
    s = GAME.new_game({}, 0)
    cycle = ("c1c2", "c6c5", "c2c1", "c5c6")
    s = play(s, *cycle)
    assert GAME.outcome(s) is None and GAME.repetitions(s) == 2
    s = play(s, *cycle[:3])
    assert GAME.outcome(s) is None
    s = play(s, cycle[3])
    out = GAME.outcome(s)
    assert out is not None and out.winners == () and "third time" in out.reason
    assert GAME.legal_actions(s) == []


def test_C5_repetition_count_restarts_after_a_capture_or_placement():
    s = pos("g5/6/6/6/6/2G3 S w 0 1")
    s = play(s, "c1c2+S1@b1")
    assert s.history == (s.key,)


def test_C5_200_quiet_plies_draw_but_a_capture_resets():
    s = pos("g5/6/2s3/2L3/6/5G - w 199 150")
    quiet = GAME.apply(s, parse_action("f1e1"))
    out = GAME.outcome(quiet)
    assert out is not None and out.winners == () and "200 plies" in out.reason
    capture = GAME.apply(s, parse_action("c3c4"))
    assert GAME.outcome(capture) is None and capture.quiet == 0


def test_C5_a_win_on_the_200th_quiet_ply_stands():
    s = pos("g5/6/5L++/6/6/1L++3G - w 199 150")
    after = GAME.apply(s, parse_action("f4a4"))
    assert after.quiet == 200 and GAME.outcome(after).winners == (0,)


# -- C6 ---------------------------------------------------------------------------------------


def test_C6_position_text_and_options():
    text = "1lagla/S5/6/2s+3/2A+3/2GS+Ls A+L+C++c+ b 7 23"
    s = pos(text)
    assert position_to_text(s) == text
    assert s.to_move == 1 and s.quiet == 7 and s.ply == 45
    opts = GAME.normalize_options({"position": "  " + text + " "})
    assert opts == {"position": text} and GAME.normalize_options(opts) == opts
    m = Match(GAME, {"position": text})
    assert position_to_text(m.state) == text
    assert pos("algcla/1s2s1/6/6/1S2S1/ALGCLA - w").ply == 0  # counters may be left out


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "5 fields"),
        ("algcla/1s2s1/6/6/1S2S1 - w 0 1", "6 ranks"),
        ("algcla/1s2s1/6/6/1S2S1/ALGCL - w 0 1", "5 squares"),
        ("algcla/1s2s1/6/6/1S2S1/ALGCLAA - w 0 1", "7 squares"),
        ("algcla/1s2s1/6/6/1S2S1/ALGCLA - x 0 1", "side to move"),
        ("algcla/1s2s1/6/6/1S2S1/ALXCLA - w 0 1", "unexpected 'X'"),
        ("algcla/1s2s1/6/6/1S+2S1/ALGCLA - w 0 1", None),
        ("algcla/1s2s1/6/6/1S++2S1/ALGCLA - w 0 1", "at most level 2"),
        ("al1cla/1s2s1/6/6/1S2S1/ALGCLA - w 0 1", "exactly one General"),
        ("algcla/1s2s1/6/6/1S2S1/ALGCLA S - w 0 1", "5 fields"),
        ("algcla/1s2s1/6/6/1S2S1/ALGCLA S w 0 1", "at most 2"),
        ("algcla/1s2s1/6/6/1S2S1/ALGCLA G w 0 1", "never in the reserve"),
        ("algcla/1s2s1/6/6/1S2S1/ALGCLA - w 201 1", "0 to 200"),
        ("algcla/1s2s1/6/6/1S2S1/ALGCLA - w 0 0", "starts at 1"),
        ("algcla/1s2s1/6/6/1S2S1/ALGCLA - w -1 1", "whole numbers"),
        ("g5/6/5L++/L++5/6/5G - w 0 1", "is not to move but its General is in Danger"),
    ],
)
def test_C6_bad_position_texts_are_refused_clearly(text, words):
    if words is None:
        pos(text)
        return
    with pytest.raises(InvalidOptions) as e:
        GAME.new_game(GAME.normalize_options({"position": text}), 0)
    assert words in e.value.message and e.value.message.startswith("C6")


def test_unknown_options_are_refused():
    with pytest.raises(InvalidOptions):
        GAME.normalize_options({"colour": "red"})
    with pytest.raises(InvalidOptions):
        GAME.normalize_options({"seats": ["human", "grandmaster"]})


def test_seats_option_rides_in_the_save():
    opts = GAME.normalize_options({"seats": ("human", "hard")})
    assert opts == {"seats": ["human", "hard"]} and GAME.normalize_options(opts) == opts
    m = Match(GAME, opts)
    assert replay(m.save().to_json()).options["seats"] == ["human", "hard"]


def test_seats_from_the_page_shell_carry_names_colours_and_levels():
    seats = [{"name": "Ann", "colour": "#FFFDF6"}, {"name": "<b>Bo</b>", "colour": "#2d2a26", "bot": "easy"}]
    opts = GAME.normalize_options({"seats": seats})
    assert opts["seats"] == [{"name": "Ann", "colour": "#fffdf6"},
                             {"name": "<b>Bo</b>", "colour": "#2d2a26", "bot": "easy"}]
    assert GAME.normalize_options(opts) == opts
    m = Match(GAME, opts)
    assert replay(m.save().to_json()).options["seats"] == opts["seats"]
    for bad in (
        [{"name": "Ann", "colour": "#fff"}, "human"],  # not #rrggbb
        [{"name": " ", "colour": "#ffffff"}, "human"],  # no name
        [{"name": "A" * 41, "colour": "#ffffff"}, "human"],  # too long
        [{"name": "Ann", "colour": "#ffffff", "bot": "human"}, "human"],  # a person has no bot level
        [{"name": "Ann", "colour": "#ffffff", "bot": "grandmaster"}, "human"],
        [{"name": "Ann", "colour": "#ffffff", "team": 1}, "human"],  # unknown key
        [["Ann"], "human"],
        ["human"],  # two seats, White and Black
    ):
        with pytest.raises(InvalidOptions):
            GAME.normalize_options({"seats": bad})


def test_stats_count_fighters_on_the_board_and_in_reserve():
    start = GAME.new_game({}, 0)
    assert GAME.stats(start) == {"Fighters on the board": [8.0, 8.0], "In reserve": [0.0, 0.0]}
    # a capture moves a fighter from one side's board to its reserve (C3)
    state = position_from_text("g5/6/6/6/2s3/2G3 S w 0 1")
    after = GAME.apply(state, parse_action("c1c2"))
    assert GAME.stats(after) == {"Fighters on the board": [1.0, 1.0], "In reserve": [1.0, 1.0]}


# -- actions and refusals -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("b2b3", "b2b3"), (" B2-B3 ", "b2b3"), ("d1xd6", "d1d6"), ("c1c2+s2@b1", "c1c2+S2@b1")],
)
def test_action_text_round_trips(text, canonical):
    a = parse_action(text)
    assert str(a) == canonical and parse_action(str(a)) == a and GAME.format_action(a) == canonical


@pytest.mark.parametrize(
    "text", ["", "b2", "b2b2", "g1g2", "b2b3+", "c1c2+G1@b1", "c1c2+S3@b1", "c1c2+S1b1", 7]
)
def test_malformed_actions_are_invalid(text):
    with pytest.raises(InvalidAction):
        GAME.parse_action(text)


@pytest.mark.parametrize(
    ("move", "code"),
    [("c3c4", "no_fighter"), ("b5b4", "not_yours"), ("b2b4", "unreachable"), ("a1b2", "blocked"),
     ("b1b3", "blocked")],
)
def test_illegal_moves_name_the_rule(move, code):
    s = GAME.new_game({}, 0)
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, parse_action(move))
    assert e.value.code == code and move in e.value.message


def test_view_is_json_and_complete():
    s = play(GAME.new_game({}, 0), "d1d6")
    v = GAME.view(s, 1)
    assert json.loads(json.dumps(v)) == v
    assert v["in_danger"] is True and v["last_move"] == "d1d6" and v["to_move"] == 1
    assert v["legal"] == ["c6d6", "c6d6+C2@c6"]
    assert v["reserves"][1] == [{"fighter": "C", "name": "Champion", "level": 2, "count": 1}]
    assert v["outcome"] is None and GAME.view(s, None) == GAME.view(s, 0)


# -- property tests on the position text ---------------------------------------------------------


def _playout(seed: int, plies: int):
    rng = Rng(seed)
    s = GAME.new_game({}, 0)
    for _ in range(plies):
        acts = GAME.legal_actions(s)
        if not acts:
            break
        s = GAME.apply(s, acts[rng.below(len(acts))])
    return s


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), plies=st.integers(0, 80))
def test_position_text_round_trips_after_random_playouts(seed, plies):
    s = _playout(seed, plies)
    text = position_to_text(s)
    back = pos(text)
    assert position_to_text(back) == text
    assert (back.board, back.reserves, back.to_move, back.quiet) == (s.board, s.reserves, s.to_move, s.quiet)
    assert back.key == s.key
    assert state_from_json(json.loads(json.dumps(state_to_json(s)))) == s


_ALPHABET = "SALCGsalcg+0123456789/ -wbx"


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    plies=st.integers(0, 40),
    edits=st.lists(
        st.tuples(st.integers(0, 80), st.sampled_from(["del", "ins", "sub"]), st.sampled_from(_ALPHABET)),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_position_texts_fail_cleanly(seed, plies, edits):
    text = position_to_text(_playout(seed, plies))
    for where, op, ch in edits:
        i = where % (len(text) + 1)
        if op == "del":
            text = text[:i] + text[i + 1:]
        elif op == "ins":
            text = text[:i] + ch + text[i:]
        else:
            text = text[:i] + ch + text[i + 1:]
    try:
        s = pos(text)
    except ValueError as e:  # InvalidOptions is a ValueError
        assert isinstance(e, InvalidOptions) and e.message.startswith("C6")
        return
    # anything accepted is a proper position that round-trips
    assert position_to_text(pos(position_to_text(s))) == position_to_text(s)
    GAME.legal_actions(s)


@given(st.text(max_size=60))
@settings(max_examples=200, deadline=None)
def test_arbitrary_texts_never_crash_the_parsers(text):
    for parser in (pos, GAME.parse_action):
        try:
            parser(text)
        except GameError:
            pass


# -- conformance through the match driver -------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_seeded_random_playouts_through_match(seed):
    rng = Rng(seed)
    m = Match("conquests", {}, rng=Rng(seed))
    for _ in range(300):
        state = m.state
        acts = m.legal_actions()
        assert (GAME.outcome(state) is not None) == (acts == [])
        assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(state)))) == state
        if not acts:
            break
        # a refused action leaves everything as it was
        before = (m.state, list(m.log))
        for bad in ("a1a6", "c1c2+S2@f6", "zz"):
            if bad in texts(acts):
                continue
            with pytest.raises(GameError):
                m.play(bad)
            assert (m.state, m.log) == before
        m.play(acts[rng.below(len(acts))])
    again = replay(m.save().to_json())
    assert again.state == m.state and again.log == m.log
    if m.log:
        m.undo()
        assert m.state == again.states[-2]


def test_state_from_json_refuses_a_bad_history():
    s = play(GAME.new_game({}, 0), "c1c2")
    obj = state_to_json(s)
    with pytest.raises(ValueError):
        state_from_json({**obj, "history": ["00"]})
    with pytest.raises(ValueError):
        state_from_json({**obj, "history": ["xyz"]})
    with pytest.raises(ValueError):
        state_from_json({**obj, "position": "nonsense"})


def test_actions_are_small_ordered_values():
    acts = GAME.legal_actions(GAME.new_game({}, 0))
    assert acts == sorted(acts) and all(isinstance(a, Action) for a in acts)
    assert len(acts) == 15


GOLDEN = json.loads((Path(__file__).parent / "data" / "conquests_golden.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", GOLDEN["games"], ids=[g["about"][:40] for g in GOLDEN["games"]])
def test_golden_playthroughs(game):
    m = replay({"v": 1, "game": "conquests", "options": game["options"], "log": game["log"]})
    assert position_to_text(m.state) == game["final"]
    out = m.outcome()
    assert out is not None and list(out.winners) == game["winners"] and out.reason == game["reason"]
    for state, text in zip(m.states, m.log, strict=False):
        assert GAME.describe_action(state, parse_action(text))
