"""M12 with built-in duels (issue 14): the duel played here travels in the campaign and is replayed.

Hand-over both ways: the campaign opens the duel with the two players' names and colours
(:func:`duel_setup`), and a finished duel save becomes the campaign's ``Duel`` action
(:func:`duel_from_save`), which ``apply`` replays with the duel game's engine. A typed
``da``/``dd`` stays the host's fallback, logged as entered by hand. Positions of The Game of
Conquests one move from the end keep the duels short.
"""

from __future__ import annotations

import io

import pytest
from test_metagame import GRID5  # noqa: I001 - the tests' own grid map

from conquest.__main__ import run_verify
from conquest.core import IllegalAction, InvalidAction, get_game
from conquest.games.metagame import GAME
from conquest.games.metagame.actions import Duel, SpinResult, parse_action
from conquest.games.metagame.duelrecord import (
    DuelRecord,
    duel_from_save,
    duel_setup,
    format_record,
    parse_record,
)
from conquest.games.metagame.duels import builtin_games
from conquest.rng import Rng
from conquest.savecode import decode_save, encode_save, make_fragment
from conquest.session import Match, replay

CONQUESTS = get_game("conquests")
#: White (seat 0) wins with f4a4; Black (seat 1) wins with f4a4 in the colour-swapped one
WHITE_MATES = "g5/6/5L++/6/6/1L++3G - w 0 1"
BLACK_MATES = "G5/6/5l++/6/6/1l++3g - b 0 1"
GAMES = ["conquests", "reign", "Chess"]
ANN, BOB = {"name": "Ann", "colour": "#e69f00"}, {"name": "Bob", "colour": "#0072b2"}


def campaign(capital: bool = False) -> Match:
    """Ann (capital 0) invades Bob: T10, or Bob's capital T24; the wheel lands on conquests."""
    m = Match(GAME, {"players": [ANN, BOB], "map_data": GRID5, "games": GAMES, "seed": 1}, rng=Rng(3))
    m.play("k0")
    m.play("k24")
    mine = list(range(1, 10)) + ([19] if capital else [])
    for t in range(1, 24):
        m.play(f"!o{t}={0 if t in mine else 1}")
    m.play("i24" if capital else "i10")
    while m.state.phase != "spin":
        ph = m.state.phase
        m.play({"sacrifice": "s-", "block": "b-"}.get(ph) or str(GAME.legal_actions(m.state)[0]))
    m._push("spin")
    layout = m.state.inv.layout
    assert layout[0][0] == 0  # conquests is game 0 and holds the first slices
    m._push(str(SpinResult(0, layout)))
    while m.state.phase != "duel":
        m.play("x-")
    return m


def play_duel(state, first: str = "a", position: str = WHITE_MATES) -> dict:
    """Open the duel as the console does, from a scripted position, and play it to its end."""
    setup = duel_setup(state, first)
    duel = Match(setup["game"], {**setup["options"], "position": position}, rng=Rng(5))
    duel.play("f4a4")
    assert CONQUESTS.outcome(duel.state) is not None
    return duel.save().to_json()


def test_metagame_to_duel_hands_over_names_colours_and_a_title():
    m = campaign()
    setup = duel_setup(m.state)
    assert setup["game"] == "conquests" and "conquests" in builtin_games()
    assert setup["options"]["seats"] == [ANN, BOB]  # attacker first
    assert setup["options"]["title"] == "Duel: Ann vs Bob for T10, turn 1"
    assert duel_setup(m.state, "d")["options"]["seats"] == [BOB, ANN]
    # the duel game accepts them as they are (the shell's seats), and its page shows the names
    duel = Match("conquests", setup["options"])
    assert [s["name"] for s in duel.options["seats"]] == ["Ann", "Bob"]
    # every registered two-player game takes the same hand-over (generic over the registry)
    for gid in builtin_games():
        Match(gid, duel_setup(m.state)["options"] | {"title": "x"})


def test_duel_setup_refuses_when_no_built_in_duel_is_due():
    m = Match(GAME, {"players": [ANN, BOB], "map_data": GRID5, "games": GAMES})
    with pytest.raises(IllegalAction) as e:
        duel_setup(m.state)
    assert e.value.code == "M12.no-duel"


def test_finished_duel_becomes_the_campaigns_action_and_decides_the_invasion():
    m = campaign()
    winner, rec = duel_from_save(m.state, play_duel(m.state))
    assert winner == "a" and rec.game == "conquests" and rec.first == "a" and rec.log == ("f4a4",)
    assert rec.rules_options() == {"position": WHITE_MATES}  # the start position is on record
    text = format_record(winner, rec)
    assert text.startswith("da:conquests:a:") and ";" not in text
    line = GAME.describe_action(m.state, parse_action(text))
    assert "played here" in line and "replayed" in line and "Ann wins and takes T10" in line
    m.play(text)
    assert m.state.owner[10] == 0 and m.state.phase == "turn"
    assert m.log[-1] == text  # the metagame log records the duel that decided it


def test_defender_win_and_seats_in_either_order():
    m = campaign()
    # Bob (defender) sits White and wins
    winner, rec = duel_from_save(m.state, play_duel(m.state, "d", WHITE_MATES))
    assert (winner, rec.first) == ("d", "d")
    m.play(Duel(winner, rec))
    assert m.state.owner[10] == 1 and m.state.block[1] == 1 and m.state.phase == "gift"
    # Ann (attacker) sits Black and wins
    m2 = campaign()
    winner, rec = duel_from_save(m2.state, play_duel(m2.state, "d", BLACK_MATES))
    assert (winner, rec.first) == ("a", "d")


def test_capital_needs_two_duels_each_replayed():
    m = campaign(capital=True)
    assert m.state.inv.needed_wins == 2
    first = duel_from_save(m.state, play_duel(m.state))
    m.play(Duel(*first))
    assert m.state.phase == "duel" and m.state.inv.duel_wins == 1
    # the second duel is opened for the same game, titled as the second
    setup = duel_setup(m.state)
    assert setup["game"] == "conquests" and setup["options"]["title"].startswith("Duel (second game)")
    second = duel_from_save(m.state, play_duel(m.state))
    m.play(Duel(*second))
    assert m.state.phase in ("turn", "over") and all(o == 0 for o in m.state.owner if o != -1)


def test_refused_records_change_nothing_and_say_why():
    m = campaign()
    save = play_duel(m.state)
    winner, rec = duel_from_save(m.state, save)
    before, log = GAME.state_to_json(m.state), list(m.log)
    cases = {
        "M12.duel-winner": format_record("d", rec),  # the replay says Ann won
        "M12.duel-unfinished": format_record("a", DuelRecord(rec.game, "a", rec.seed, rec.options, ())),
        "M12.duel-replay": format_record("a", DuelRecord(rec.game, "a", rec.seed, rec.options, ("a1a6",))),
        "M12.duel-game": format_record("a", DuelRecord("reign", "a", rec.seed, "", rec.log)),
    }
    for code, text in cases.items():
        with pytest.raises(IllegalAction) as e:
            m.play(text)
        assert e.value.code == code, (code, e.value.message)
        assert "M12" in e.value.message
        assert GAME.state_to_json(m.state) == before and m.log == log


def test_a_save_with_other_seats_or_a_bot_is_not_this_invasions_duel():
    m = campaign()
    setup = duel_setup(m.state)
    for seats in ([ANN, {"name": "Cy", "colour": "#0072b2"}], [ANN, {**BOB, "bot": "easy"}]):
        duel = Match("conquests", {"seats": seats, "position": WHITE_MATES})
        duel.play("f4a4")
        with pytest.raises(IllegalAction) as e:
            duel_from_save(m.state, duel.save().to_json())
        assert e.value.code == "M12.duel-seats" and "Ann and Bob" in e.value.message
    unfinished = Match("conquests", setup["options"]).save().to_json()
    with pytest.raises(IllegalAction) as e:
        duel_from_save(m.state, unfinished)
    assert e.value.code == "M12.duel-unfinished"
    with pytest.raises(IllegalAction) as e:
        duel_from_save(m.state, {**unfinished, "game": "reign"})
    assert e.value.code == "M12.duel-game"


def test_by_hand_stays_and_says_so():
    m = campaign()
    assert parse_action("da") == Duel("a") and Duel("a").by_hand
    assert GAME.describe_action(m.state, Duel("d")).startswith("Duel result entered by hand: Bob wins")


@pytest.mark.parametrize(
    "text, code",
    [
        ("da:conquests:a:1::f4a4%", "action.duel-escape"),
        ("da:conquests:a:1::f4a4%41", "action.duel-escape"),
        ("da:conquests:x:1::f4a4", "action.duel-syntax"),
        ("da:conquests:a:01::f4a4", "action.duel-syntax"),
        ("da:conquests:a:1:[1]:f4a4", "action.duel-options"),
        ('da:conquests:a:1:{"seats"%3A1}:f4a4', "action.duel-options"),
        ("da:conquests:a:1::f4a4,,a1a2", "action.duel-steps"),
        ("da:conquests@here:a:1::f4a4", "action.duel-how"),
        ("da:conquests@LIVE:a:1::f4a4", "action.duel-syntax"),
        ("da:conquests@:a:1::f4a4", "action.duel-syntax"),
        ("da:conquests:a:1::" + "a1a2," * 500, "action.duel-long"),
    ],
)
def test_malformed_records_are_refused_clearly(text, code):
    with pytest.raises(InvalidAction) as e:
        parse_action(text)
    assert e.value.code == code and "M12" in e.value.message


def test_record_text_round_trips_with_escapes():
    rec = DuelRecord("conquests", "d", 12, '{"position":"a:b,c;d%"}', ("x,y", "p:q", "r;s", "t%u"))
    text = format_record("a", rec)
    assert ";" not in text and parse_record(text) == ("a", rec)
    assert str(parse_action(text)) == text


def test_a_live_duel_says_so_and_older_records_read_exactly_as_before():
    """Issue 22: ``@live`` is optional; a record without it is the text it always was."""
    old = "da:conquests:d:12::c1c2,d6d1"
    winner, rec = parse_record(old)
    assert rec.how == "" and format_record(winner, rec) == old
    live = "da:conquests@live:d:12::c1c2,d6d1"
    winner, rec2 = parse_record(live)
    assert rec2.how == "live" and rec2.log == rec.log and format_record(winner, rec2) == live
    m = campaign()
    save = play_duel(m.state)
    here = Duel(*duel_from_save(m.state, save))
    there = Duel(*duel_from_save(m.state, save, "live"))
    gid = here.record.game
    assert str(there) == str(here).replace(f":{gid}:", f":{gid}@live:", 1)
    assert "played here (" in GAME.describe_action(m.state, here)
    assert "played live (" in GAME.describe_action(m.state, there)
    with pytest.raises(IllegalAction) as e:
        duel_from_save(m.state, save, "by pigeon")
    assert e.value.code == "M12.duel-how" and "'by pigeon'" in e.value.message
    # the replay is the same either way: both decide the same invasion
    a, b = replay(m.save().to_json()), replay(m.save().to_json())
    a.play(here)
    b.play(there)
    assert GAME.state_to_json(a.state) == GAME.state_to_json(b.state)


def test_campaign_link_round_trip_holding_duels_and_verify_replays_them():
    m = campaign(capital=True)
    for _ in range(2):
        m.play(Duel(*duel_from_save(m.state, play_duel(m.state))))
    save = m.save().to_json()
    code = encode_save(save)
    link = "#" + make_fragment(save)
    print(f"capital invasion decided by two duels: link {len(link)} characters, log {len(m.log)} steps")
    assert len(link) < 2_000  # design.md: chat apps cut links near 2,000 characters
    back = decode_save(code)
    assert back == save
    again = replay(back)
    assert GAME.state_to_json(again.state) == GAME.state_to_json(m.state)
    out = io.StringIO()
    assert run_verify(link, out=out) == 0
    text = out.getvalue()
    assert text.count("duel replayed") == 2 and "The Game of Conquests" in text, text
    # a tampered duel (the winner flipped) is refused by verify, naming M12
    bad = {**save, "log": [x.replace("da:", "dd:", 1) if x.startswith("da:") else x for x in save["log"]]}
    out = io.StringIO()
    assert run_verify("#" + make_fragment({**bad}), out=out) == 1
    assert "M12.duel-winner" in out.getvalue()


def test_a_too_long_duel_is_refused_with_the_fallback_named():
    m = campaign()
    setup = duel_setup(m.state)
    duel = Match("conquests", setup["options"], rng=Rng(1))
    pick = Rng(2)  # a random playout that ends, after 376 plies, in a win for Black
    while CONQUESTS.outcome(duel.state) is None:
        acts = CONQUESTS.legal_actions(duel.state)
        duel.play(acts[pick.below(len(acts))])
    assert len(duel.log) == 376 and CONQUESTS.outcome(duel.state).winners == (1,)
    with pytest.raises(IllegalAction) as e:
        duel_from_save(m.state, duel.save().to_json())
    assert e.value.code == "M12.duel-long" and "enter the winner by hand" in e.value.message


def test_duel_moves_per_campaign_are_bounded_so_any_link_replays_quickly():
    from dataclasses import replace

    from conquest.games.metagame.duelrecord import MAX_CAMPAIGN_DUEL_STEPS

    m = campaign()
    winner, rec = duel_from_save(m.state, play_duel(m.state))
    full = replace(m.state, duel_steps=MAX_CAMPAIGN_DUEL_STEPS)
    with pytest.raises(IllegalAction) as e:
        GAME.apply(full, Duel(winner, rec))
    assert e.value.code == "M12.duel-budget" and "enter the winner by hand" in e.value.message
    with pytest.raises(IllegalAction):
        duel_from_save(full, play_duel(full))  # the console says so before trying
    last = GAME.apply(replace(m.state, duel_steps=MAX_CAMPAIGN_DUEL_STEPS - 1), Duel(winner, rec))
    assert last.duel_steps == MAX_CAMPAIGN_DUEL_STEPS
    assert GAME.state_from_json(GAME.state_to_json(last)) == last
    m.play(Duel(winner, rec))
    assert m.state.duel_steps == 1 and GAME.state_to_json(m.state)["duel_steps"] == 1


def test_any_registered_two_player_game_hands_over_the_same_way_to_reign_supreme():
    """No change for another game: a To Reign Supreme duel (secret battle choices, dealt cards)
    played to its end by random choices goes back to the campaign and is replayed."""
    m = campaign()
    log = list(m.log)
    k = next(i for i, x in enumerate(log) if x.startswith("r"))
    reign_slice = sum(n for g, n in m.state.inv.layout if g < 1)  # the first slice of game 1
    log[k] = f"r{reign_slice} " + log[k].split(" ", 1)[1]
    m = Match(GAME, m.options, log)
    setup = duel_setup(m.state)
    assert setup["game"] == "reign"
    reign = get_game("reign")
    duel = Match("reign", setup["options"], rng=Rng(0))
    duel.resolve_chance()
    pick = Rng(100)
    while reign.outcome(duel.state) is None:
        secret = reign.simultaneous(duel.state)
        if secret:
            parts = {}
            for seat in secret:
                choices = reign.secret_choices(duel.state, seat)
                parts[seat] = choices[pick.below(len(choices))]
            duel.play(reign.join_secret(duel.state, parts))
        else:
            acts = reign.legal_actions(duel.state)
            duel.play(acts[pick.below(len(acts))])
    winner, rec = duel_from_save(m.state, duel.save().to_json())
    assert rec.game == "reign" and len(rec.log) == len(duel.log)
    m.play(Duel(winner, rec))
    assert m.log[-1].startswith(f"d{winner}:reign:")
    again = replay(decode_save(encode_save(m.save().to_json())))
    assert GAME.state_to_json(again.state) == GAME.state_to_json(m.state)
