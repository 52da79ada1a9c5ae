"""The Short Campaign page's logic in CPython (the browser test keeps the glue and a full game).

Drives ``site/games/campaign/`` through the shell with a fake host whose clock moves only
when told: the set-up (categories, seats with bots, a question pack and a broken one), a
question answered by a person and its time, the pause after a reveal, a pass-the-device
round with two people (each timed from their own Ready, nothing of the first answer on
screen while the second answers), picks and a battle on the map, time-outs, whole games of
bots through ``Shell.bots.step``, links made mid-question, and hostile text kept as text.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from campaign import CampaignPage
from campaign.clock import HOLD_MS, parse_guess
from page_host import FakeHost, make_page, render_all
from shell import Session, check_save
from ui import Node, find, find_all, fire, text, to_html

from conquest.games.campaign import GAME
from conquest.rng import Rng
from conquest.savecode import parse_fragment
from conquest.session import Match

HOSTILE = "<img src=x onerror=alert(1)>"
PACK = json.loads((Path(__file__).parent / "data" / "campaign_pack.json").read_text(encoding="utf-8"))
#: a pack whose answers are distinctive numbers and words, to look for them on screen and in links
BIG_PACK = {"title": "Big numbers", "questions": [
    {"type": "guess", "text": f"Distinctive guess number {i}?", "answer": 918273640 + i, "min": 1,
     "max": 999999999} for i in range(5)
] + [
    {"type": "choice", "text": f"Distinctive choice {i}?", "options": ["Xa", "Xb", "Xc", f"Right{i}"],
     "answer": f"Right{i}"} for i in range(5)
]}


def load_big_pack(page: CampaignPage) -> None:
    assert page.setup.load_pack_text("big.json", json.dumps(BIG_PACK))


def fields(**over: str) -> dict[str, str]:
    out = {
        "title": "Friday quiz",
        "seat-count": "3",
        "seat-name-0": "Ann", "seat-colour-0": "#e69f00", "seat-who-0": "human",
        "seat-name-1": "Bob", "seat-colour-1": "#56b4e9", "seat-who-1": "Medium",
        "seat-name-2": "Cy", "seat-colour-2": "#009e73", "seat-who-2": "Hard",
        "seconds": "20",
    }
    out.update(over)
    return out


def started(host: FakeHost | None = None, page_setup: Callable[[CampaignPage], Any] | None = None, **over: str):  # noqa: ANN201
    shell, page, host = make_page(CampaignPage, host)
    assert isinstance(page, CampaignPage)
    if page_setup is not None:
        page_setup(page)
    assert shell.start(fields(**over)) is not None, shell.message
    return shell, page, host


def html_of(trees: dict[str, Node]) -> str:
    return "".join(to_html(t) for t in trees.values())


def act(shell) -> str:  # noqa: ANN001
    return find(render_all(shell)["cp-stage"], "#cp-stage-inner").attrs["data-act"]


def bots(shell) -> None:  # noqa: ANN001
    """Let the computer players act until a person must (or the game ends)."""
    for _ in range(500):
        if shell.session.bot_to_act() is None:
            return
        shell.bots.step(1000)
    raise AssertionError("the bots never stopped")


def drive(shell, page: CampaignPage, until: Callable[[Any], bool], limit: int = 3000) -> None:  # noqa: ANN001
    """Play on until ``until(state)``: people answer right at once and pick the first choice."""
    s = shell.session
    for _ in range(limit):
        st = s.match.state
        if until(st) or st.phase == "over":
            return
        if s.bot_to_act() is not None:
            shell.bots.step(1000)
            continue
        handover = s.needs_handover()
        if handover is not None:
            shell.handover.ready(handover)
            continue
        seat = page.clock.answerer()
        if seat is not None:
            page.clock.show_now(seat)
            page.clock.answer(seat, GAME.answer_key(st))  # the test's people know every answer
            continue
        choices = page.board.choices(s.view())
        assert choices, f"stuck at {st.phase}: {shell.message}"
        page.pick(choices[0])
    raise AssertionError("the game did not get there")


def test_setup_categories_seats_and_bots_in_the_link() -> None:
    shell, page, host = make_page(CampaignPage)
    setup = page.render_setup()
    boxes = find_all(setup["cp-categories"], "[type=checkbox]")
    assert len(boxes) == len(GAME.question_categories()) == 18 and all("checked" in b.attrs for b in boxes)
    fire(setup["cp-categories"], "#cp-cats-none")
    cats = page.render_setup()["cp-categories"]
    assert "a game needs at least 5 of each" in text(find(cats, "#cp-count"))
    # a ticked box comes back on; the form's ticks are what the game uses
    fire(cats, "#cp-cat-capitals", "change", checked=True)
    assert page.setup.categories == {"capitals"}
    refused = fields(**{"cats-shown": "1", "cat-capitals": "on"})
    assert shell.start(refused) is None and "S8" in shell.message[1] and "guess" in shell.message[1]
    assert shell.start(fields(seconds="soon")) is None and "time to answer" in shell.message[1]
    fire(page.render_setup()["cp-categories"], "#cp-cats-all")
    ok = fields(**{"cats-shown": "1", "cat-borders": "on", "cat-distances": "on", "seconds": "15"})
    s = shell.start(ok)
    assert s is not None and host.query == f"?slot={s.slot_id}"
    opts = s.match.options
    assert opts["seconds"] == 15 and opts["categories"] == ["borders", "distances"] and opts["seed"] == 0
    assert opts["mix"] is True  # issue 40: a game set up here draws a varied game
    assert [(x.name, x.colour, x.who) for x in s.seats()] == [
        ("Ann", "#e69f00", "human"), ("Bob", "#56b4e9", "Medium"), ("Cy", "#009e73", "Hard")]
    # the game reopens from its link with the same people, bots and colours (engine's seats)
    again = Session(check_save(s.save()))
    assert [(x.name, x.colour, x.who) for x in again.seats()] == [(x.name, x.colour, x.who) for x in s.seats()]
    assert s.match.log[0].startswith("B") and s.match.log[1].startswith("Q")  # Bases, then a question
    assert "Expansion round 1" in text(render_all(shell)["cp-side"])


def test_a_question_answered_by_a_person_with_its_time_then_the_reveal() -> None:
    shell, page, host = started()
    s = shell.session
    tree = render_all(shell)
    assert act(shell) == "answer-guess"
    stage = tree["cp-stage"]
    assert text(find(stage, "#cp-secs")) == "20 s" and "20 s left" in text(tree["shell-bar"])
    q = page.clock.open_question()
    assert "answer" not in q and q["kind"] == "guess"
    assert host.timers, "a countdown tick is scheduled"
    host.advance(3200)
    stage = render_all(shell)["cp-stage"]
    assert text(find(stage, "#cp-secs")) == "17 s"
    # a typo and a guess out of range are refused by the page, nothing is given
    fire(stage, "#cp-guess-form", "submit", fields={"guess": "lots"})
    assert "whole number" in shell.message[1] and s.secret_parts == {}
    fire(stage, "#cp-guess-form", "submit", fields={"guess": str(q["max"] + 1)})
    assert "A guess must be from" in shell.message[1] and s.secret_parts == {}
    guess = q["min"] + 1
    fire(stage, "#cp-guess-form", "submit", fields={"guess": f"{guess:,}"})
    assert s.secret_parts == {0: (guess, 3200)}
    bots(shell)
    answers = next(t for t in s.match.log if t.startswith("a"))
    assert answers.startswith(f"a{guess}@3200,")
    # the reveal: the right answer, everyone's answers and times, who won what
    tree = render_all(shell)
    reveal = find(tree["cp-stage"], "#cp-reveal")
    right = GAME.question(s.match.states[2]).answer_text()
    assert text(find(reveal, "#cp-right")) == right
    rows = find_all(reveal, "tbody tr")
    assert {r.attrs["data-seat"] for r in rows} == {"0", "1", "2"}
    assert "3.2 s" in text(find(reveal, "[data-seat=0]"))
    assert "was closest: 2 picks" in text(find(reveal, "#cp-outcome"))
    assert len(find_all(reveal, "tr.is-winner")) == 1


def test_the_next_question_waits_for_the_reveal_and_counts_from_when_it_shows() -> None:
    shell, page, host = started()
    s = shell.session
    drive(shell, page, lambda st: st.phase == "answer" and len(st.used) == 2)
    assert page.clock.answerer() == 0
    host.advance(1000)  # one second after the reveal
    q = page.clock.open_question()
    tree = render_all(shell)
    assert act(shell) == "hold" and "Get ready, Ann" in text(tree["shell-bar"])
    assert find(tree["cp-stage"], "#cp-reveal") and not find_all(tree["cp-stage"], "#cp-qtext")
    page.after_render()
    assert host.focused == "cp-go"
    page.clock.answer(0, q["min"])  # not on screen yet: nothing happens
    assert s.secret_parts == {}
    host.advance(HOLD_MS - 1000)  # the question shows now, with the whole time to answer
    assert act(shell) == "answer-guess"
    page.after_render()
    assert host.focused == "cp-guess"
    assert text(find(render_all(shell)["cp-stage"], "#cp-secs")) == "20 s"
    host.advance(1500)
    page.clock.answer(0, q["min"])
    assert s.secret_parts == {0: (q["min"], 1500)}
    bots(shell)
    assert [t for t in s.match.log if t.startswith("a")][-1].startswith(f"a{q['min']}@1500,")
    # "Show the question now" skips the pause
    drive(shell, page, lambda st: st.phase == "answer" and len(st.used) == 3)
    assert page.clock.answerer() == 0 and act(shell) == "hold"
    fire(render_all(shell)["cp-stage"], "#cp-go")
    assert act(shell) == "answer-guess" and page.clock.time_left(0) == 20_000


def test_pass_the_device_each_person_timed_from_their_ready_nothing_shown_of_the_first() -> None:
    shell, page, host = started(page_setup=load_big_pack, **{"seat-who-1": "human"})
    s = shell.session
    tree = render_all(shell)
    assert "Pass to Ann" in text(tree["shell-handover"]) and act(shell) == "handover"
    assert find_all(tree["cp-stage"], "#cp-qtext") == []  # nothing of the question behind the screen
    host.advance(5000)  # the device goes round: Ann's clock has not started
    fire(tree["shell-handover"], "#shell-ready")
    q = page.clock.open_question()
    host.advance(1000)
    secret = 123454321
    before = html_of(render_all(shell)) + json.dumps(s.save())
    assert str(secret) not in before and f"{secret:,}" not in before
    fire(render_all(shell)["cp-stage"], "#cp-guess-form", "submit", fields={"guess": str(secret)})
    assert s.secret_parts == {0: (secret, 1000)}

    def hidden_everywhere(trees: dict[str, Node]) -> None:
        page_html = html_of(trees)
        assert str(secret) not in page_html and f"{secret:,}" not in page_html
        for url in s.links("http://x/").values():
            assert str(secret) not in json.dumps(parse_fragment(url.split("#", 1)[1])[1])

    # Bob's turn: the hand-over first, then Bob's question; Ann's answer is nowhere on screen
    trees = render_all(shell)
    assert "Pass to Bob" in text(trees["shell-handover"]) and act(shell) == "handover"
    hidden_everywhere(trees)
    host.advance(10_000)
    fire(trees["shell-handover"], "#shell-ready")
    trees = render_all(shell)
    assert act(shell) == "answer-guess" and text(find(trees["cp-stage"], "#cp-secs")) == "20 s"
    assert "Ann: answered" in text(find(trees["cp-stage"], ".cp-asked"))
    hidden_everywhere(trees)
    host.advance(2500)
    fire(render_all(shell)["cp-stage"], "#cp-guess-form", "submit", fields={"guess": str(q["min"])})
    bots(shell)
    answers = next(t for t in s.match.log if t.startswith("a"))
    ann, bob, _ = answers[1:].split(",")
    assert ann == f"{secret}@1000" and bob == f"{q['min']}@2500"
    # the reveal shows both now
    assert f"{secret:,}" in text(render_all(shell)["cp-stage"])


def test_a_late_answer_counts_as_none_and_a_second_one_is_ignored() -> None:

    shell, page, host = started(seconds="10")
    s = shell.session
    q = page.clock.open_question()
    render_all(shell)
    host.advance(10_001)  # past the time, before the tick came
    page.clock.answer(0, q["min"])
    assert s.secret_parts == {0: None} and "Time was up: no answer from Ann" in shell.message[1]
    page.clock.answer(0, q["min"])  # a second click: the first answer stands, nothing said
    assert s.secret_parts == {0: None} and "Time was up" in shell.message[1]
    page.clock.answer(1, q["min"])  # not this person's question
    assert "not asked for now" in shell.message[1]
    # Ctrl+C on a multiple-choice question copies, it does not answer
    drive(shell, page, lambda st: st.phase == "answer" and st.purpose == "battle" and page.clock.answerer() == 0)
    page.clock.show_now(0)
    fire(render_all(shell)["cp-stage"], "#cp-stage-inner", "keydown", key="c", ctrl=True)
    assert 0 not in s.secret_parts


def test_picks_on_the_map_and_in_the_list() -> None:
    shell, page, host = started()
    s = shell.session
    drive(shell, page, lambda st: st.phase == "pick" and st.picks[0] == 0)
    view = s.view()
    paints = page.paint(view)
    eligible = [int(k[4:]) for k, v in paints.items() if k.startswith("cp-t") and v["class"]["is-eligible"]]
    assert paints["cp-map"]["class"]["has-choices"]
    assert eligible == sorted(view["pickable"]) and all("a choice now" in paints[f"cp-t{t}"]["attrs"]["aria-label"]
                                                        for t in eligible)
    base = s.match.state.base[0]
    assert paints[f"cp-t{base}"]["style"]["--owner-fill"] == "#e69f00" and paints[f"cp-t{base}"]["class"]["is-base"]
    tree = render_all(shell)
    assert act(shell) == "pick" and "Click a highlighted territory" in text(tree["shell-bar"])
    n = len(s.match.log)
    page.pick(base)  # not a choice: says what it is, plays nothing
    assert "not a choice now" in shell.message[1] and "Ann" in shell.message[1] and len(s.match.log) == n
    page.pick(eligible[0])
    assert s.match.log[n] == f"p{eligible[0]}"
    if s.match.state.phase == "pick" and s.match.state.picks[0] == 0:  # the second pick, from the list
        choose = render_all(shell)["cp-choose"]
        first = find(choose, "button")
        fire(choose, "button")
        assert s.match.log[n + 1] == f"p{first.attrs['data-index']}"
    marks = render_all(shell)["cp-marks"]
    assert len(find_all(marks, ".cp-castle")) == 3 and "200" in [text(x) for x in find_all(marks, ".cp-value")]


def test_a_battle_target_on_the_map_and_an_answer_by_key() -> None:
    shell, page, host = started()
    s = shell.session
    drive(shell, page, lambda st: st.phase == "attack" and st.attacker == 0)
    view = s.view()
    targets = view["targets"]
    assert act(shell) == "attack" and sorted(page.board.choices(view)) == sorted(targets)
    own = s.match.state.base[0]
    page.pick(own)
    assert "not a choice now" in shell.message[1]
    target = targets[0]
    page.pick(target)
    assert s.match.log[-2] == f"t{target}" and s.match.state.phase == "answer"
    st = s.match.state
    assert page.paint(s.view())[f"cp-t{target}"]["class"]["is-target"]
    assert page.clock.answerer() == 0  # the lowest seat answers first
    page.clock.show_now(0)
    stage = render_all(shell)["cp-stage"]
    assert act(shell) == "answer-choice" and len(find_all(stage, ".cp-option")) == 4
    page.after_render()
    assert host.focused == "cp-opt-0"
    host.advance(2100)
    fire(stage, "#cp-stage-inner", "keydown", key="x")  # not an answer key
    assert s.secret_parts == {}
    fire(stage, "#cp-stage-inner", "keydown", key="3")
    assert s.secret_parts == {0: ("C", 2100)}
    bots(shell)
    played = next(i for i, x in enumerate(s.match.states) if x is st)
    assert s.match.log[played].startswith("aC@2100,")
    words = text(find(render_all(shell)["cp-stage"], "#cp-outcome"))
    assert any(w in words for w in ("holds", "takes", "fells", "Both right")), words


def test_a_click_on_an_option_answers() -> None:
    shell, page, host = started()
    s = shell.session
    drive(shell, page, lambda st: st.phase == "answer" and st.purpose == "battle" and page.clock.answerer() == 0)
    page.clock.show_now(0)
    host.advance(800)
    fire(render_all(shell)["cp-stage"], "#cp-opt-1")
    assert s.secret_parts == {0: ("B", 800)}


def test_time_outs_and_a_whole_game_with_a_silent_person() -> None:
    """Ann never answers: each time-out gives no answer (S8) and the game still ends."""
    shell, page, host = started(seconds="5")
    s = shell.session
    said: list[str] = []  # the toast's words (a notice goes by itself, Shell.say: the timers run it out)
    say = shell.say
    shell.say = lambda text, kind="notice": (said.append(text), say(text, kind))[1]  # type: ignore[method-assign]
    timeouts = 0
    for _ in range(5000):
        st = s.match.state
        if st.phase == "over":
            break
        if s.bot_to_act() is not None:
            shell.bots.step(1000)
            continue
        if page.clock.answerer() is not None:
            before = len(s.match.log) + len(s.secret_parts)
            render_all(shell)  # the countdown schedules its tick
            host.run_timers()
            if len(s.match.log) + len(s.secret_parts) != before:
                timeouts += 1
                assert "Time is up: no answer from Ann" in said[-1]
            continue
        page.pick(page.board.choices(s.view())[0])
    else:
        raise AssertionError("the game did not end")
    asked = [(GAME.parse_action(t).parts, s.match.states[i].asked) for i, t in enumerate(s.match.log)
             if t.startswith("a") and 0 in s.match.states[i].asked]
    assert len(asked) == timeouts >= 4
    assert all(parts[who.index(0)] is None for parts, who in asked)
    tree = render_all(shell)
    final = find(tree["cp-stage"], "#cp-final")
    winner = s.match.state.winner
    assert text(find(final, "h2")).startswith(s.seat_name(winner) + " wins with")
    labels = {line["label"] for line in shell.log.lines(0, len(s.match.log))}
    assert {"Bases", "Expansion 1", "Battle 1"} <= labels
    assert text(find(tree["shell-log-box"], "li .shell-turn"))
    chart = tree["shell-chart"]
    assert find_all(chart, "[data-stat=Points]") and "questions asked" in to_html(chart)
    # the chart's points: before each question, and the end
    pts = page.chart_points(s.match.states)
    assert pts[0][0] == 0 and pts[-1][1] == len(s.match.states) - 1
    assert [x for x, _ in pts] == sorted({x for x, _ in pts})


def test_three_computer_players_play_a_whole_game_through_bot_step() -> None:
    shell, page, host = started(**{"seat-who-0": "Easy"})
    s = shell.session
    for _ in range(3000):
        if not shell.bots.step(5):
            break
    assert s.match.state.phase == "over" and GAME.outcome(s.match.state) is not None
    tree = render_all(shell)
    assert act(shell) == "over" and find(tree["cp-stage"], "#cp-final")
    assert "The game is over" in text(tree["cp-side"])
    assert page.clock.answerer() is None and page.board.choices(s.view()) == []


def test_a_question_pack_loaded_and_a_broken_one_explained_as_text() -> None:
    shell, page, host = make_page(CampaignPage)
    assert isinstance(page, CampaignPage)
    broken = {"title": HOSTILE, "questions": [
        {"type": "choice", "text": f"Which {HOSTILE}?", "options": ["a", "b", "c", "c"], "answer": "a"},
        {"type": "guess", "text": "How many moons?", "answer": 5, "min": 10, "max": 20},
        {"type": "riddle", "text": "What?"},
    ]}
    assert not page.setup.load_pack_text("bad <b>pack</b>.json", json.dumps(broken))
    pack_tree = page.render_setup()["cp-pack"]
    problems = [text(li) for li in find_all(pack_tree, "#cp-pack-problems li")]
    assert len(problems) == 3 and any("must all be different" in p for p in problems)
    assert any("outside" in p for p in problems) and any('"type"' in p for p in problems)
    html = to_html(pack_tree)
    assert "<img" not in html and "&lt;img src=x" in html and "bad &lt;b&gt;pack&lt;/b&gt;.json" in html
    assert shell.message[0] == "error" and page.setup.pack is None
    assert not page.setup.load_pack_text("x.json", b"\xff\xfe not utf-8")
    assert page.setup.pack_problems == ["the file is not UTF-8 text"]
    assert not page.setup.load_pack_text("x.json", "{not json")
    assert "not valid JSON" in page.setup.pack_problems[0]
    page.setup.pack_refused("huge.json", "the file is 9,999,999 bytes")
    assert text(find(page.render_setup()["cp-pack"], "#cp-pack-problems")) == "the file is 9,999,999 bytes"
    # a good pack, with hostile text: loaded, the bank unticked, its categories offered
    good = dict(PACK, title=f"Quiz {HOSTILE}")
    good["questions"] = [dict(q) for q in PACK["questions"]]
    good["questions"][8]["text"] = f"How many days has a leap year {HOSTILE}?"
    assert page.setup.load_pack_text("quiz.json", json.dumps(good))
    setup = page.render_setup()
    assert page.setup.categories == set() and not find_all(setup["cp-categories"], "[checked]")
    assert text(find(setup["cp-pack"], "#cp-pack-title")) == f"“Quiz {HOSTILE}”"
    assert "<img" not in to_html(setup["cp-pack"])
    pcats = find_all(setup["cp-pack"], "[type=checkbox]")
    assert len(pcats) == len(page.setup.pack["cats"]) and all("checked" in b.attrs for b in pcats)
    assert "Chosen: 8 multiple-choice and 8 guess questions." in text(setup["cp-categories"])
    s = shell.start(fields(**{"seat-name-2": HOSTILE}))
    assert s is not None, shell.message
    assert s.match.options["pack"]["title"] == f"Quiz {HOSTILE}" and "categories" not in s.match.options
    assert s.match.log[1].startswith("Qp")  # drawn from the pack
    # a question of the pack and the names stay text on every part of the page
    drive(shell, page, lambda st: st.phase == "answer" and st.question == "p9")
    if s.match.state.question == "p9":
        page.clock.show_now(page.clock.answerer() or 0)
        html = html_of(render_all(shell))
        assert "How many days has a leap year &lt;img" in html
    html = html_of(render_all(shell))
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    # removing the pack brings the bank back
    page.setup.remove_pack()
    assert page.setup.pack is None and len(page.setup.categories) == len(GAME.question_categories())


def test_a_pack_category_can_be_left_out() -> None:
    shell, page, host = make_page(CampaignPage)
    assert isinstance(page, CampaignPage)
    page.setup.load_pack_text("quiz.json", json.dumps(PACK))
    fire(page.render_setup()["cp-pack"], "#cp-pack-loaded [type=checkbox]", "change", checked=False)
    assert len(page.setup.pack_categories) == len(page.setup.pack["cats"]) - 1
    opts = page.options([], {})
    assert opts["pack_categories"] == [c for c in page.setup.pack["cats"] if c in page.setup.pack_categories]
    form = page.options([], {"pcats-shown": "1", "pcat-0": "on"})
    assert form["pack_categories"] == page.setup.pack["cats"][:1]
    fire(page.render_setup()["cp-pack"], "#cp-pack-remove")
    assert page.setup.pack is None and "pack" not in page.options([], {})


def test_a_link_made_mid_question_holds_neither_the_answer_nor_a_given_one() -> None:
    """The pack's answers are distinctive numbers: none may be readable in a link or on screen
    before everyone has answered; the given answer is in no link until the reveal."""
    shell, page, host = started(page_setup=load_big_pack, **{"seat-who-1": "human"})
    s = shell.session
    fire(render_all(shell)["shell-handover"], "#shell-ready")
    key = GAME.answer_key(s.match.state)
    assert 918273640 <= key < 918273645
    host.advance(700)
    fire(render_all(shell)["cp-stage"], "#cp-guess-form", "submit", fields={"guess": "123454321"})
    assert s.secret_parts == {0: (123454321, 700)}
    for mode, url in s.links("http://x/").items():
        save = parse_fragment(url.split("#", 1)[1])[1]
        blob = json.dumps(save) + url
        assert str(key) not in blob and "123454321" not in blob, mode
        assert all(f"Right{i}" in blob for i in range(5))  # the options travel; which is right is sealed
    html = html_of(render_all(shell))
    assert f"{key:,}" not in html and str(key) not in html
    fire(render_all(shell)["shell-handover"], "#shell-ready")
    host.advance(900)
    fire(render_all(shell)["cp-stage"], "#cp-guess-form", "submit", fields={"guess": "5"})
    bots(shell)
    assert f"{key:,}" in text(find(render_all(shell)["cp-stage"], "#cp-right"))


def test_a_read_only_copy_and_an_earlier_step_show_no_controls() -> None:
    shell, page, host = started()
    s = shell.session
    drive(shell, page, lambda st: st.phase == "answer" and len(st.used) == 2)
    save = s.save()
    viewer, vpage, vhost = make_page(CampaignPage)
    viewer.open(check_save(save), None, "view")
    stage = render_all(viewer)["cp-stage"]
    assert find(stage, "#cp-qtext") and find_all(stage, "#cp-guess-form") == []
    assert "A guess:" in text(find(stage, "#cp-question"))
    assert vpage.clock.answerer() is None and vhost.timers == []
    vpage.pick(0)
    assert "read-only" in viewer.message[1]
    # the host looks at an earlier step: the reveal of that time, nothing to play
    first = next(i for i, t in enumerate(s.match.log) if t.startswith("a"))
    shell.jump(first + 1)
    tree = render_all(shell)
    assert page.clock.answerer() is None and find(tree["cp-stage"], "#cp-reveal")
    assert page.board.choices(s.view()) == []
    shell.jump(None)
    assert page.clock.answerer() == 0


def test_undo_after_a_reveal_asks_again_with_a_new_clock() -> None:
    shell, page, host = started()
    s = shell.session
    page.clock.answer(0, page.clock.open_question()["min"])
    bots(shell)
    assert s.match.state.phase in ("pick", "answer", "draw")
    host.advance(60_000)
    while s.match.state.phase != "answer" or any(t.startswith("a") for t in s.match.log):
        shell.bar.undo()
    assert page.clock.answerer() == 0 and act(shell) in ("answer-guess", "hold")
    page.clock.show_now(0)
    assert page.clock.time_left(0) == 20_000


def test_small_helpers() -> None:
    assert parse_guess("1,500") == 1500 and parse_guess(" 2 000 ") == 2000 and parse_guess("12a") is None
    assert parse_guess("") is None and parse_guess("1" * 14) is None
    shell, page, host = make_page(CampaignPage)
    assert isinstance(page, CampaignPage)
    m = Match(GAME, {"players": ["A", "B", "C"]}, rng=Rng(4))
    m.resolve_chance()
    assert page.log_label(m.states[0]) == "Bases" and page.log_label(m.state) == "Expansion 1"


def test_the_reveal_says_what_every_kind_of_answer_decided() -> None:
    """Each result of S3-S7, on positions built with the engine tests' helpers."""
    from test_campaign import LAYOUT, OPTS, SIEGE, ask, attack, battle, begin, last_attack, say

    shell, page, host = make_page(CampaignPage)
    assert isinstance(page, CampaignPage) and LAYOUT
    shell.open(Match(GAME, OPTS), None)

    def words(before: Any, after: Any) -> tuple[str, int | None]:
        rv = GAME.view(after, None)["reveal"]
        return page.reveal.outcome_words(rv, before, after), page.reveal.winner(rv, before, after)

    st = attack(battle(), 12)  # Ann attacks Ben's San Antonio
    assert words(st, say(st, {0: ("W", 1000), 1: ("R", 2000)})) == (
        "Ben holds San Antonio and scores the defence bonus, +100 (S5).", 1)
    assert words(st, say(st, {0: None, 1: None})) == ("Ben holds San Antonio (S5).", 1)
    assert words(st, say(st, {0: ("R", 900), 1: ("W", 1000)})) == ("Ann takes San Antonio, +400; Ben -200 (S5).", 0)
    assert words(st, say(st, {0: ("R", 900), 1: ("R", 1000)})) == (
        "Both right: a guess question decides the battle for San Antonio (S5).", None)
    siege = attack(battle(layout=SIEGE, points=(2000, 1800, 1600)), 9)
    assert words(siege, say(siege, {0: ("R", 1), 2: ("W", 1)}))[0] == (
        "Ann fells a tower of New York City: 2 still standing, the siege goes on (S6).")
    last = replace_towers(siege, 1)
    assert words(last, say(last, {0: ("R", 1), 2: ("W", 1)}))[0] == (
        "Ann fells the last tower of New York City: Cleo is out, and Ann takes all their territories and "
        "points, +1,000 (S6).")
    expand = ask(begin(), "p9")
    assert words(expand, say(expand, {0: None, 1: None, 2: None})) == (
        "Nobody answered in time: another question for this round (S3).", None)
    assert words(expand, say(expand, {0: (366, 5000), 1: (300, 100), 2: None})) == (
        "Ann was closest: 2 picks; Ben came second: 1 pick (S3).", 0)
    tie = say(attack(last_attack((2000, 2000, 1500)), 10), {2: None, 1: None})
    final = ask(tie, "p16")
    assert page.log_label(final) == "Tie-break" and page.log_label(st) == "Battle 1"
    assert words(final, say(final, {0: (160, 3000), 1: (176, 3000)})) == (
        "Still level: another question decides (S7).", None)
    assert words(final, say(final, {0: (160, 3000), 1: (170, 3000)})) == (
        "Ben wins the tie-break and the game (S7).", 1)


def replace_towers(st: Any, towers: int) -> Any:
    """The same siege with Cleo's Base down to ``towers`` (S6)."""
    from dataclasses import replace

    return replace(st, towers=(st.towers[0], st.towers[1], towers))


def test_a_game_on_another_map_is_played_from_the_list() -> None:
    shell, page, host = make_page(CampaignPage)
    m = Match(GAME, {"map": "usa100", "seats": [{"name": "Ann"}, {"name": "Bob", "bot": "Easy"},
                                                 {"name": "Cy", "bot": "Easy"}]}, rng=Rng(3))
    shell.open(m, None)
    drive(shell, page, lambda st: st.phase == "pick" and st.picks[0] == 0)
    tree = render_all(shell)
    assert "usa100" in text(find(tree["cp-stage"], ".cp-warn")) and page.paint(shell.session.view()) == {}
    assert find_all(tree["cp-marks"], "text") == []
    fire(tree["cp-choose"], "button")
    assert shell.session.match.log[-1].startswith("p")


def test_a_game_saved_before_the_bank_was_rebuilt_says_so() -> None:
    """An old save (tests/data/campaign_save_2026-11-22.json, made by the engine of cf13780)
    opens on the page, its questions shown as they were asked, with a plain word about it."""
    save = json.loads((Path(__file__).parent / "data" / "campaign_save_2026-11-22.json").read_text(encoding="utf-8"))
    cut = next(i for i, t in enumerate(save["log"]) if t.startswith("a") and i > 20)  # a battle question is open
    shell, page, host = make_page(CampaignPage)
    shell.open(check_save({**save, "log": save["log"][:cut]}), None, "view")
    trees = render_all(shell)
    note = text(find(trees["cp-side"], "#cp-edition"))
    assert "earlier edition of the question bank" in note and "5 of the 5 questions" in note
    assert "2026-11-22 edition of the question bank" in text(find(trees["cp-stage"], "#cp-question"))
    fresh, _, _ = started()
    assert find_all(render_all(fresh)["cp-side"], "#cp-edition") == []
