"""The game shell in CPython: seats, playing, undo that keeps drawn chance results, viewing
step N and "continue from here", the bot runner in slices, hand-over screens with hidden
information, secret simultaneous choices that never reach a save, links and the log.

A tiny game of our own ("Odds") exercises what no shipped game has all at once: hidden
information, a secret simultaneous step and a chance step after it.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from page_host import FakeHost, render_all
from shell import CHAT_LIMIT, LOG_MARGIN, LOG_SHOWN, NOTICE_MS, GamePage, Seat, Shell, ShellError, parse_setup
from ui import find, find_all, fire, h, text, to_html

from conquest.bots import Bot
from conquest.catalog import GameFacts
from conquest.core import ChanceSpec, Game, IllegalAction, InvalidAction, Outcome
from conquest.savecode import encode_save
from conquest.session import Match

# -- a small game with every feature the shell serves ------------------------------------------


@dataclass(frozen=True)
class OddsState:
    """Two seats each pick 0 or 1 in secret; a coin decides ties; first to 100 points wins."""

    points: tuple[int, int] = (0, 0)
    picks: tuple[int, int] | None = None  # the revealed picks, waiting for the coin
    secret: tuple[int, ...] = (7, 9)  # each seat's hidden number (hidden information)


@dataclass(frozen=True)
class Reveal:
    a: int
    b: int

    def __str__(self) -> str:
        return f"p{self.a}{self.b}"


@dataclass(frozen=True)
class Coin:
    side: int

    def __str__(self) -> str:
        return f"c{self.side}"


class OddsGame(Game[OddsState, Any]):
    id = "odds"
    title = "Odds"  # type: ignore[assignment]
    min_players = 2  # type: ignore[assignment]
    max_players = 2  # type: ignore[assignment]
    ruling_prefix = "O"  # type: ignore[assignment]
    facts = GameFacts("odds", "Odds", 2, 2, "2 players", "test", "O", 9, "test")  # type: ignore[assignment]
    hidden_information = True

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        return dict(options or {})

    def new_game(self, options: Mapping[str, Any], seed: int) -> OddsState:
        return OddsState()

    def simultaneous(self, state: OddsState) -> tuple[int, ...]:
        return () if state.picks is not None or self.outcome(state) else (0, 1)

    def secret_choices(self, state: OddsState, seat: int) -> list[int]:
        return [0, 1]

    def join_secret(self, state: OddsState, parts: Mapping[int, Any]) -> Reveal:
        if any(parts.get(s) not in (0, 1) for s in (0, 1)):
            raise IllegalAction("odds.part", "O1: pick 0 or 1")
        return Reveal(parts[0], parts[1])

    def legal_actions(self, state: OddsState) -> list[Any]:
        if self.simultaneous(state):
            return [Reveal(a, b) for a in (0, 1) for b in (0, 1)]
        return []

    def chance(self, state: OddsState) -> ChanceSpec | None:
        return ChanceSpec("coin", (2,)) if state.picks is not None else None

    def chance_action(self, state: OddsState, values: Sequence[int]) -> Coin:
        return Coin(values[0])

    def apply(self, state: OddsState, action: Any) -> OddsState:
        if isinstance(action, Reveal) and self.simultaneous(state):
            return OddsState(state.points, (action.a, action.b), state.secret)
        if isinstance(action, Coin) and state.picks is not None:
            a, b = state.picks
            winner = 0 if (a + b) % 2 == 0 else 1
            if a == b:
                winner = action.side
            pts = list(state.points)
            pts[winner] += 1
            return OddsState((pts[0], pts[1]), None, state.secret)
        raise IllegalAction("odds.now", f"O2: {action} is not allowed now")

    def outcome(self, state: OddsState) -> Outcome | None:
        for s in (0, 1):
            if state.points[s] >= 100:
                return Outcome((s,), "a hundred points")
        return None

    def to_move(self, state: OddsState) -> int | None:
        return None

    def view(self, state: OddsState, player: int | None) -> dict[str, Any]:
        return {"points": list(state.points), "mine": None if player is None else state.secret[player]}

    def parse_action(self, text: str) -> Any:
        if len(text) == 3 and text[0] == "p" and text[1] in "01" and text[2] in "01":
            return Reveal(int(text[1]), int(text[2]))
        if len(text) == 2 and text[0] == "c" and text[1] in "01":
            return Coin(int(text[1]))
        raise InvalidAction("odds.text", f"not an Odds action: {text!r}")

    def state_to_json(self, state: OddsState) -> dict[str, Any]:
        return {"points": list(state.points), "picks": state.picks}

    def state_from_json(self, obj: Mapping[str, Any]) -> OddsState:
        return OddsState(tuple(obj["points"]), None if obj["picks"] is None else tuple(obj["picks"]))

    def stats(self, state: OddsState) -> dict[str, list[float]]:
        return {"Points": [float(p) for p in state.points]}

    def bot_levels(self) -> dict[str, Any]:
        return {"Slow": SlowBot}


class SlowBot(Bot):
    """Thinks in many small steps (so the runner must slice it), then picks 1."""

    def think_secret(self, game: Game[Any, Any], state: Any, seat: int) -> Any:
        for _ in range(5):
            yield
        return 1


ODDS = OddsGame()


class OddsPage(GamePage):
    game_id = "odds"

    def render(self, view: Mapping[str, Any]) -> Any:
        return h("div", h("p", f"Points {view['points']}", id="odds-points"),
                 h("p", f"Mine {view['mine']}", id="odds-mine"), id="odds")


def odds_shell(seats: list[Seat], host: FakeHost | None = None) -> tuple[Shell, FakeHost]:
    host = host or FakeHost()
    shell = Shell(ODDS, host)
    shell.page = OddsPage(shell)
    match = Match(ODDS, {"seats": [s.to_json() for s in seats]})
    slot = host.store.create(match.save().to_json(), "Odds", host.now())
    shell.open(match, slot)
    return shell, host


ANN, BOB = Seat("Ann", "#e69f00"), Seat("Bob", "#56b4e9")


def hand_over(shell: Shell) -> None:
    """The person a pass screen waits for takes the device and presses Ready."""
    seat = shell.pending()
    if seat is not None:
        fire(shell.handover.render(), "#shell-ready")

# -- set-up ----------------------------------------------------------------------------------------


def test_setup_fields_give_seats_and_name_errors_by_field() -> None:
    facts = GameFacts("x", "X", 2, 4, "", "", "X", 1, "")
    fields = {"seat-count": "3", "seat-name-0": " Ann  Lee ", "seat-colour-0": "#e69f00",
              "seat-name-1": "Bob", "seat-colour-1": "#e69f00", "seat-who-1": "Hard",
              "seat-name-2": "", "seat-colour-2": "#009e73", "seat-who-2": "Nope"}
    seats, errors = parse_setup(fields, facts, ["Easy", "Hard"])
    assert [s.name for s in seats] == ["Ann Lee", "Bob", "Player 3"]
    assert seats[1].who == "Hard" and seats[1].is_bot
    ids = [f for f, _ in errors]
    assert ids == ["seat-name-2", "seat-who-2", "seat-colour-1"]
    assert "same colour" in dict(errors)["seat-colour-1"]
    _, errors = parse_setup({"seat-count": "9"}, facts, [])
    assert errors and errors[0][0] == "seat-count" and "2–4" in errors[0][1]


# -- secret choices, hand-over, chance kept on undo ------------------------------------------------


def test_hot_seat_hands_over_between_people_and_hides_the_other_view() -> None:
    shell, host = odds_shell([ANN, BOB])
    s = shell.session
    assert s is not None
    # nobody has the device yet: Ann is asked to take it; the board is not drawn for her yet
    assert s.needs_handover() == 0
    over = shell.handover.render()
    assert "Pass to Ann" in text(over) and find(over, "#shell-ready")
    fire(over, "#shell-ready")
    assert s.needs_handover() is None and s.viewer() == 0
    assert text(find(render_all(shell)["game-controls"], "#odds-mine")) == "Mine 7"
    assert shell.give_secret(0, 1) is True  # Ann chose; Bob's turn
    assert s.secret_parts == {0: 1}
    assert s.needs_handover() == 1  # pass to Bob: Ann's view must not stay on screen
    # the pending part is nowhere in what leaves the page
    save = s.save()
    assert save["log"] == [] and "1" not in json.dumps(save["log"])
    assert encode_save(save) == encode_save(Match(ODDS, save["options"]).save().to_json())
    shell.handover.ready(1)
    assert text(find(render_all(shell)["game-controls"], "#odds-mine")) == "Mine 9"
    shell.give_secret(1, 1)
    # the reveal is one step, then the coin is drawn and logged
    assert s.match.log[0] == "p11" and s.match.log[1] in ("c0", "c1")
    assert s.secret_parts == {}


def test_a_refused_secret_part_asks_again_and_changes_nothing() -> None:
    shell, _ = odds_shell([ANN, BOB])
    s = shell.session
    assert s is not None
    hand_over(shell)
    shell.give_secret(0, 0)
    hand_over(shell)
    assert shell.give_secret(1, 5) is False  # not 0 or 1: the join refuses it
    assert shell.message is not None and "O1" in shell.message[1]
    assert s.secret_parts == {0: 0} and s.match.log == []


def test_undo_keeps_a_drawn_chance_result_on_record() -> None:
    shell, host = odds_shell([ANN, BOB])
    s = shell.session
    assert s is not None
    play_round(shell, 0, 0)
    coin = s.match.log[1]
    hand_over(shell)
    host.confirms.append(True)  # two people at the device: Undo asks first
    shell.bar.undo()
    assert "Take back step 1" in host.asked[-1]
    assert s.match.log == []
    assert s.match.undone == [(0, (coin,))]
    saved = host.store.open(s.slot_id)
    assert saved["log"] == [] and saved["undone"] == [[0, [coin]]]  # kept in the slot and links
    log = render_all(shell)["shell-log-box"]
    assert coin in text(log) and "drawn, then undone" in text(log)
    assert shell.message is not None and "taken back" in shell.message[1]


def test_bots_think_in_slices_and_play_secret_parts() -> None:
    shell, host = odds_shell([ANN, Seat("Cal", "#009e73", "Slow")])
    s = shell.session
    assert s is not None
    assert s.bot_to_act() is None  # Ann (a person) chooses first
    shell.give_secret(0, 0)
    assert s.bot_to_act() == 1
    bar = shell.bar.render("")
    slices = 0
    while not shell.bots.step(0):  # a zero budget: one step of thinking per slice
        slices += 1
        assert slices < 20
    assert slices >= 5  # the runner yielded between the bot's steps
    assert "thinking" in text(bar) and find(bar, "#shell-bot-stop")
    assert s.match.log[0] == "p01"


def test_stopping_the_bots_and_letting_them_play_again() -> None:
    shell, _ = odds_shell([Seat("Cal", "#009e73", "Slow"), Seat("Dee", "#0072b2", "Slow")])
    s = shell.session
    assert s is not None
    assert shell.bots.turn() is not None
    fire(shell.bar.render(""), "#shell-bot-stop")
    assert s.bots_paused and shell.bots.turn() is None and not shell.bots.step(10)
    fire(shell.bar.render(""), "#shell-bot-go")
    assert shell.bots.turn() is not None


# -- viewing an earlier step, continue from here ---------------------------------------------------


def play_round(shell: Shell, a: int, b: int) -> None:
    hand_over(shell)
    shell.give_secret(0, a)
    hand_over(shell)
    shell.give_secret(1, b)


def test_viewing_step_n_refuses_play_and_continue_from_here_keeps_the_original() -> None:
    shell, host = odds_shell([ANN, BOB])
    s = shell.session
    assert s is not None
    play_round(shell, 0, 1)
    play_round(shell, 1, 1)
    hand_over(shell)
    original = list(s.match.log)
    slot0 = s.slot_id
    view = render_all(shell)["shell-log-box"]
    fire(view, "[data-view=2]")  # "View" on step 2
    assert s.viewing == 2 and s.locked()
    bar = render_all(shell)["shell-viewing"]
    assert "Viewing step 2 of 4" in text(bar)
    with pytest.raises(ShellError):
        s.give_secret(0, 1)
    fire(bar, "#shell-view-prev")
    assert s.viewing == 1
    fire(render_all(shell)["shell-viewing"], "#shell-branch")
    s = shell.session
    assert s is not None
    assert s.slot_id != slot0 and s.match.log == original[:2] and s.viewing is None  # the coin stays
    assert host.store.open(slot0)["log"] == original  # the original is kept
    assert "from step 1" in host.store.get(s.slot_id).name
    hand_over(shell)
    fire(render_all(shell)["shell-log-box"], "[data-view=1]")
    fire(render_all(shell)["shell-viewing"], "#shell-view-present")
    assert s.viewing is None


# -- links, log, chart, messages -------------------------------------------------------------------


def test_links_show_their_length_against_the_chat_limit() -> None:
    shell, _ = odds_shell([ANN, BOB])
    hand_over(shell)
    links = render_all(shell)["shell-links"]
    url = text(find(links, "#shell-host-url"))
    assert url.startswith("http://127.0.0.1:8000/play/x/#h=c1.")
    assert f"{len(url):,} of {CHAT_LIMIT:,}" in text(find(links, "#shell-host-len"))
    assert "at step 0" in text(links)
    assert find(links, "#shell-copy-view").attrs["data-copy"].split("#")[1].startswith("v=")


def test_the_log_shows_the_last_steps_and_more_on_demand() -> None:
    shell, _ = odds_shell([ANN, BOB])
    s = shell.session
    assert s is not None
    for i in range(2 * LOG_SHOWN):  # a long game: every step is a reveal and a coin
        s.match.log.append(f"p0{i % 2}")
        s.match.states.append(ODDS.apply(s.match.state, Reveal(0, i % 2)))
        s.match.log.append("c0")
        s.match.states.append(ODDS.apply(s.match.state, Coin(0)))
    hand_over(shell)
    log = shell.log.render()  # the newest lines in sight, and a margin above them
    assert len(find_all(log, "li")) == LOG_SHOWN + LOG_MARGIN
    assert find(log, "#shell-log").attrs["data-before"] == str(4 * LOG_SHOWN - LOG_SHOWN - LOG_MARGIN)
    assert shell.log.scrolled(0, at_end=False)  # scrolled to the top: drawn again there
    steps = [li.attrs["data-step"] for li in find_all(shell.log.render(), "li")]
    assert steps == [str(k) for k in range(1, LOG_SHOWN + LOG_MARGIN + 1)]


def test_the_chart_replays_the_games_own_numbers() -> None:
    shell, _ = odds_shell([ANN, BOB])
    play_round(shell, 0, 1)
    chart = shell.chart.render()
    lines = find_all(chart, "polyline")
    assert len(lines) == 2 and find(chart, "[data-stat=Points]")
    assert lines[1].attrs.get("stroke-dasharray")  # the second line differs without colour too


def test_hostile_names_stay_text() -> None:
    evil = Seat("<img src=x onerror=alert(1)>", "#e69f00")
    shell, _ = odds_shell([evil, BOB])
    html = "".join(to_html(t) for t in render_all(shell).values())
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html


def test_read_only_copy_refuses_play_with_a_clear_message() -> None:
    shell, _ = odds_shell([ANN, BOB])
    s = shell.session
    assert s is not None
    s.mode = "view"
    assert shell.give_secret(0, 1) is False
    assert shell.message is not None and "read-only" in shell.message[1]
    assert "shell-undo" not in to_html(shell.bar.render(""))


def test_a_notice_goes_by_itself_and_an_error_stays() -> None:
    """A notice leaves the toast after NOTICE_MS (on a phone the toast sits over the foot of
    the play sheet: after "Play again" it covered a timed question's Answer button); an
    error stays to be read; an older notice's timer leaves a newer message alone."""
    shell, host = odds_shell([ANN, BOB])
    shell.say("A new game with the same players.")
    assert shell.message == ("notice", "A new game with the same players.")
    assert [when for when, _ in host.timers] == [host.clock() + NOTICE_MS]
    host.run_timers()
    assert shell.message is None and host.renders >= 1
    shell.say("First.")
    shell.say("Second.")
    host.timers.sort(key=lambda x: x[0])
    host.timers.pop(0)[1]()  # the first notice's timer
    assert shell.message == ("notice", "Second.")
    shell.say("Refused: not your turn.", "error")
    host.run_timers()
    assert shell.message == ("error", "Refused: not your turn.")
    assert "Refused: not your turn." in to_html(shell.render_message())


def test_a_long_log_is_drawn_as_it_is_scrolled_however_far() -> None:
    """Issue 20, item 10: "Show earlier steps" added 200 lines at each press, so reaching the
    start of a 6,023-step World log drew all of it (17 s blocked in the page); pages of 120
    lines behind buttons still took 450 ms a press. Now the box is as tall as the whole log
    (the lines not drawn stand as padding, counted in rows) and only the lines in sight are
    drawn with a margin, wherever it is scrolled; a step viewed from elsewhere, Home and End
    bring their line into sight; the keys move through the whole log."""
    from shell import LOG_WINDOW
    from ui import Event

    shell, _ = odds_shell([ANN, BOB])
    s = shell.session
    assert s is not None
    first = s.match.state
    for _ in range(10_000):  # the same round again and again: only the log's length matters here
        s.match.log.append("p00")
        s.match.states.append(ODDS.apply(first, Reveal(0, 0)))
        s.match.log.append("c0")
        s.match.states.append(first)
    n = len(s.match.log)
    assert n == 20_000
    if (seat := shell.pending()) is not None:  # the log's buttons react only after Ready (issue 19)
        shell.handover.ready(seat)
    assert shell.pending() is None

    def drawn(log: Any) -> list[int]:
        got = [int(li.attrs["data-step"]) for li in find_all(log, "li") if "data-step" in li.attrs]
        ol = find(log, "#shell-log")
        before, after = int(ol.attrs["data-before"]), int(ol.attrs["data-after"])
        assert 0 < len(got) <= LOG_WINDOW and got == list(range(before + 1, n - after + 1))
        assert ol.attrs["style"] == f"--log-before:{before};--log-after:{after}"  # the rows not drawn
        assert all(li.attrs["aria-setsize"] == str(n) for li in find_all(log, "li") if "data-step" in li.attrs)
        return got

    got = drawn(shell.log.render())
    assert got[-1] == n and len(got) == LOG_SHOWN + LOG_MARGIN  # the newest, at the box's end
    redraws = tops = 0
    for top in [*range(n - LOG_SHOWN, -1, -97), 0, 7, 12_345, n - 1]:  # scrolled anywhere
        tops += 1
        redraws += shell.log.scrolled(top, at_end=False)
        got = drawn(shell.log.render())
        assert set(range(top + 1, min(n, top + LOG_SHOWN) + 1)) <= set(got)  # what is in sight is drawn
    # each jump of 97 lines leaves what was drawn, but the first (the newest, drawn already)
    # and 7 after 0 (within the margin): a scroll within the drawn lines draws nothing
    assert redraws == tops - 2
    assert not shell.log.scrolled(n - 4, at_end=False)  # a small scroll within the drawn lines
    shell.jump(2500)  # viewed from elsewhere: its line is brought into sight, once
    assert 2500 in drawn(shell.log.render()) and shell.log.take_reveal() == 2500
    assert shell.log.take_reveal() is None
    shell.log.scrolled(9000, at_end=False)  # the person scrolls away from it: left there
    assert 2500 not in drawn(shell.log.render()) and 9001 in drawn(shell.log.render())
    shell.jump(None)
    ol = find(shell.log.render(), "#shell-log")
    ol.on["keydown"](Event(type="keydown", key="Home"))  # the keys reach the whole log
    assert shell.log.focus == 1 and shell.host.focused == "shell-view-1" and 1 in drawn(shell.log.render())
    assert shell.log.take_reveal() == 1
    ol.on["keydown"](Event(type="keydown", key="End"))
    assert shell.log.focus == n and n in drawn(shell.log.render())
    find(shell.log.render(), "#shell-log").on["keydown"](Event(type="keydown", key="PageUp"))
    assert shell.log.focus == n - 10
    assert shell.log.scrolled(n - LOG_SHOWN, at_end=True) is False and shell.log.top is None  # follows the newest
