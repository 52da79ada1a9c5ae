"""The World Conquest page in a real browser: one person and two computer players.

The page's logic is tested in CPython (tests/test_page_world.py); this keeps the glue: the
build-time map takes clicks, the Choose list takes the keyboard's picks, the bots play
through the shell's runner, dice are drawn, and no console error appears. A whole game from
the set-up is thousands of steps, so the test plays the set-up and the person's first turn
from the form, then opens a late position of a game the engine's Rule-based bot played for
every seat (a ``#h=`` link of that save, made with ``make_fragment``), with the winner's
seat given to the person, who trades a set, places, attacks until done and fortifies turn
after turn until holding the world.
"""
from __future__ import annotations

from typing import Any

from conquest.games.world import GAME
from conquest.games.world.bots import RuleBot
from conquest.games.world.rules import RULES
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match
from tests.browser.conftest import click_territory as click_on_map

HOSTILE = "<img src=x onerror=alert(1)>"
COLOURS = ("#e69f00", "#56b4e9", "#009e73")


def think(bot: RuleBot, state: Any) -> Any:
    gen = bot.think(GAME, state)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def late_position(seed: int = 1) -> tuple[str, int]:
    """A host link to a late turn of a bots' game, the winner's seat played by a person:
    the last start of the winner's turn with a set of cards in hand."""
    seats: list[dict[str, str]] = [{"name": n, "colour": c} for n, c in zip(("Ann", "Bob", "Cy"), COLOURS, strict=True)]
    m = Match(GAME, {"seats": seats, "order": "fixed", "deal": True}, rng=Rng(seed))
    m.resolve_chance()
    bot = RuleBot(Rng(seed))
    while m.state.phase != "over":
        m.play(think(bot, m.state))
    w = m.state.winner
    at = max(i for i, st in enumerate(m.states)
             if st.phase == "reinforce" and st.current == w and st.hand_size(w) >= 3
             and GAME.view(st, w)["sets"] and st.count(w) >= 20)
    for i, seat in enumerate(seats):
        if i != w:
            seat["bot"] = "Rule-based"
    save = m.save().to_json()
    save["options"] = {**save["options"], "seats": seats}
    save["log"] = save["log"][:at]
    save["undone"] = []
    return make_fragment(save, "h"), w


def wait_act(page: Any, last: str | None) -> tuple[str, str]:
    """Until the person must act (or the game is over) at a step other than ``last``."""
    page.wait_for_function(
        """(last) => {
            const el = document.getElementById('wc-panel-inner');
            return el && el.dataset.act !== 'wait' && (el.dataset.step !== last || el.dataset.act === 'over');
        }""",
        arg=last or "",
        timeout=30_000,
    )
    el = page.locator("#wc-panel-inner")
    return str(el.get_attribute("data-act")), str(el.get_attribute("data-step"))


def click_territory(page, t: int) -> None:
    """A real mouse click on territory ``t`` of this page's map."""
    click_on_map(page, f"wc-t{t}")


def board(page: Any) -> tuple[list[int], list[int]]:
    """Owners and troops as the page shows them (the badges and the map's labels)."""
    return page.evaluate(
        """() => {
            const own = [], tr = [];
            for (let t = 0; t < 42; t++) {
                const g = document.querySelector(`#wc-marks-inner [data-t="${t}"]`);
                tr.push(g ? parseInt(g.textContent) : 0);
                own.push(g ? g.querySelector('circle').getAttribute('fill') : '');
            }
            return [own, tr];
        }"""
    )


def drop_choice(page: Any) -> None:
    """After a conquest the page goes on from the conquered territory: start afresh."""
    if page.locator("#wc-cancel").count():
        page.click("#wc-cancel")
        page.wait_for_selector("#wc-cancel", state="detached")


def play_attack_turn(page: Any, me: str, counts: dict[str, int], step: str) -> tuple[str, str]:
    """Attack until done from the strongest front territory while one has 3+ troops, then
    fortify toward the front once (or end the turn). Returns where the person acts next."""
    for _ in range(40):
        own, troops = board(page)
        fronts = [(troops[s], s, d) for s in range(42) if own[s] == me and troops[s] >= 3
                  for d in RULES.adj[s] if own[d] != me]
        if not fronts:
            break
        _, s, d = max(fronts)
        drop_choice(page)
        page.select_option("#wc-choose-t", str(s))
        page.click("#wc-choose-go")
        page.wait_for_selector("#wc-targets")
        assert page.locator(f"#wc-targets [data-odds='{d}']").inner_text().endswith("%")
        page.click(f"#wc-targets button[data-index='{d}']")
        page.wait_for_selector("#wc-blitz")
        assert "%" in page.inner_text("#wc-blitz-odds")
        page.click("#wc-blitz")
        counts["blitz"] += 1
        act, step = wait_act(page, step)
        if act != "attack":
            return act, step
        assert page.locator("#wc-dice-svg g.wc-die").count() >= 2
    own, troops = board(page)
    moves = [(troops[s], s, d) for s in range(42) if own[s] == me and troops[s] >= 2
             and all(own[x] == me for x in RULES.adj[s]) for d in RULES.adj[s]
             if any(own[x] != me for x in RULES.adj[d])]
    if moves:
        _, s, d = max(moves)
        drop_choice(page)
        page.select_option("#wc-choose-t", str(s))
        page.click("#wc-choose-go")
        page.click(f"#wc-targets button[data-index='{d}']")
        page.click("#wc-fortify")
        counts["fortify"] += 1
    else:
        page.click("#wc-end")
    return wait_act(page, step)


def test_a_game_with_one_person_and_two_bots(open_page) -> None:
    w = open_page("play/world/")
    page = w.page
    assert page.locator("#wc-map .territory").count() == 42  # the map is in the HTML
    assert page.locator("#wc-continents li").count() == 6
    assert page.locator("#wc-map .sea-links line").count() >= 6
    assert page.input_value("#seat-who-1") == "Rule-based"
    page.fill("#seat-name-0", HOSTILE)
    page.check("#wc-deal")
    page.select_option("#wc-order", "fixed")
    page.click("#shell-start")
    page.wait_for_selector("#shell-game:not([hidden])")
    me = COLOURS[0]

    # the set-up: one troop at a time, on the map and from the Choose list
    counts = {"map": 0, "list": 0, "blitz": 0, "fortify": 0, "trade": 0}
    act, step = wait_act(page, None)
    while act == "setup" and counts["map"] + counts["list"] < 5:
        lit = page.locator("#wc-map .territory.is-eligible")
        assert lit.count() == 14
        if counts["map"] <= counts["list"]:
            t = int(lit.first.get_attribute("data-index") or 0)
            click_territory(page, t)
            counts["map"] += 1
        else:
            page.click("#wc-choose-go")
            counts["list"] += 1
        act, step = wait_act(page, step)
    assert act == "setup" and page.locator(f"#wc-marks-inner [data-t='{t}'] circle").get_attribute("fill") == me
    assert page.locator("img[src=x]").count() == 0 and HOSTILE in page.inner_text("#wc-players")
    # the computer players placed between the person's picks (the runner, with pauses)
    assert "placed" in page.inner_text("#shell-log") or "places" in page.inner_text("#shell-log")

    # a late position from a link: trade, place, attack until done, fortify, to the end
    frag, seat = late_position()
    page.goto(w.base_url + "play/world/#" + frag)
    w.wait_engine()
    me = COLOURS[seat]
    act, step = wait_act(page, None)
    for _ in range(60):
        if act == "over":
            break
        if act == "reinforce":
            trades = page.locator(".wc-trades button:not([disabled])")
            if trades.count():
                trades.first.click()
                counts["trade"] += 1
            else:
                own, troops = board(page)
                front = max((troops[s], s) for s in range(42)
                            if own[s] == me and any(own[d] != me for d in RULES.adj[s]))[1]
                page.select_option("#wc-choose-t", str(front))
                page.click("#wc-choose-go")
            act, step = wait_act(page, step)
        elif act == "attack":
            act, step = play_attack_turn(page, me, counts, step)
        else:
            raise AssertionError(f"unexpected act {act}")
    else:
        raise AssertionError("the game did not end")
    assert "wins" in page.inner_text("#wc-panel-inner")
    assert counts["trade"] >= 1 and counts["blitz"] >= 2 and counts["fortify"] >= 1, counts
    assert page.locator("#shell-log li").count() > 20
    assert page.locator("#shell-chart svg.shell-chart").count() == 3
    w.forgive_navigation_aborts()  # the first game's page was left for the link mid-load
    w.assert_clean()
