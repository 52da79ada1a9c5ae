"""Issue 21 at 1280x800, in CPython: what a newcomer met in the new games' page logic.

Item 10 first: every result of an action (the person's step, the dice or reveal it drew,
the computer's replies) is listed in words beside the controls ("What just happened",
``Shell.result.render``) and given to the screen-reader live region
(``Results.announcement``). Then item 1 (World: the roll, the trade and the dice buttons where
the person acts). The other items have their tests in this file too, each named after it.
"""
from __future__ import annotations

from page_host import render_all
from test_page_world import ann_attacking, opened, position, strong_source
from ui import find, find_all, fire, text

from conquest.games.world.actions import Trade
from conquest.games.world.rules import RULES


def test_item10_world_roll_shown_in_the_panel_and_announced() -> None:
    m = position(ann_attacking, seed=2)
    shell, page, _ = opened(m)
    s = shell.session
    src, enemy, _ = strong_source(s.match.state)
    page.pick(src)
    page.pick(enemy)
    assert "hidden" in find(render_all(shell)["wc-panel"], "#shell-result-inner").attrs  # nothing yet
    assert shell.result.announcement() == ""
    fire(render_all(shell)["wc-panel"], "#wc-roll")
    panel = render_all(shell)["wc-panel"]
    box = find(panel, "#shell-result-inner")
    assert "hidden" not in box.attrs
    roll = s.match.log[-1]
    words = shell.game.describe_action(s.match.states[-2], shell.game.parse_action(roll))
    assert words in text(box) and f"attacks {RULES.names[enemy]}" in text(box)
    # the dice themselves, in the panel where Roll was pressed (item 1), not only far below
    faces = [int(g.attrs["data-face"]) for g in find_all(panel, "#wc-here-svg g.wc-die-att")]
    assert faces == list(shell.game.parse_action(roll).attack)
    assert words in shell.result.announcement() and f"Step {len(s.match.log)}" in shell.result.announcement()


def test_item10_world_the_computers_replies_join_the_result() -> None:
    m = position(ann_attacking, seed=2)
    shell, _page, _ = opened(m)
    s = shell.session
    fire(render_all(shell)["wc-panel"], "#wc-end")
    n = len(s.match.log)
    for _ in range(2000):
        if not shell.bots.step(1e9) and s.bot_to_act() is None:
            break
    assert len(s.match.log) > n + 1
    box = find(render_all(shell)["wc-panel"], "#shell-result-inner")
    items = find_all(box, "li")
    assert len(items) == 6 and int(items[-1].attrs["value"]) == len(s.match.log)
    assert "earlier step" in text(box) and "in the log below" in text(box)
    # the person's next step starts a new result; Undo clears it (its own message says it)
    shell.bar.undo()
    assert "hidden" in find(render_all(shell)["wc-panel"], "#shell-result-inner").attrs


def test_item1_world_placing_panel_offers_the_trade() -> None:
    m = position(lambda st: st.phase == "reinforce" and st.current == 0 and 3 <= st.hand_size(0) < 5
                 and st.turn > 3 and any(isinstance(a, Trade) for a in _legal(st)))
    shell, _page, _ = opened(m)
    s = shell.session
    panel = render_all(shell)["wc-panel"]
    assert "trade a set of cards for" in text(find(panel, "#wc-trade-note"))
    button = find_all(panel, ".wc-trade-offer button")[0]
    trades = s.match.state.trades
    fire(panel, f"#{button.attrs['id']}")
    assert s.match.state.trades == trades + 1
    assert "trades" in text(find(render_all(shell)["wc-panel"], "#shell-result-inner"))


def test_item1_world_the_chosen_dice_are_marked() -> None:
    m = position(ann_attacking, seed=2)
    shell, page, _ = opened(m)
    src, enemy, _ = strong_source(shell.session.match.state)
    page.pick(src)
    page.pick(enemy)
    fire(render_all(shell)["wc-panel"], "#wc-dice-1")
    panel = render_all(shell)["wc-panel"]
    one, two = find(panel, "#wc-dice-1"), find(panel, "#wc-dice-2")
    assert "is-pressed" in one.attrs["class"] and find(one, ".wc-pressed-mark") is not None
    assert "is-pressed" not in two.attrs["class"] and not find_all(two, ".wc-pressed-mark")


def _legal(st):  # noqa: ANN001, ANN202 - a helper of the position filter
    from conquest.games.world import GAME

    return GAME.legal_actions(st)


# -- item 5: To Reign Supreme -----------------------------------------------------------------
def reign_at(log: list[str], bot: bool = False):  # noqa: ANN201 - (shell, page) of the Reign page
    from page_host import make_page
    from reign import ReignPage
    from test_page_reign import LAYOUT  # noqa: F401 - the dealt layout the logs below start with

    from conquest.games.reign import GAME as REIGN
    from conquest.rng import Rng
    from conquest.session import Match

    shell, page, host = make_page(ReignPage)
    seats = [{"colour": "#e69f00"}, {"colour": "#56b4e9", **({"bot": "Heuristic"} if bot else {})}]
    match = Match(REIGN, {"setup": "easy", "players": ["Ann", "Bob"], "seed": 0, "seats": seats}, log, rng=Rng(3))
    shell.open(match, host.store.create(match.save().to_json(), "test", host.now()))
    shell.handover.ready(0)
    return shell, page


def test_item5_reign_unavailable_actions_say_why() -> None:
    from test_page_reign import LAYOUT

    shell, _page = reign_at([LAYOUT, "tAB/AB"])
    shell.play("+2")  # Recruit 2: Wealth 3 to 1
    board = render_all(shell)["rg-board"]
    more = find(board, "#rg-more")  # the "More" section stays, saying why each is out of reach
    reasons = {x.attrs["data-unavailable"]: text(x) for x in find_all(more, ".rg-unavailable")}
    assert "you have 1 Wealth (R5)" in reasons["Reallocate"] and "you have 1 Wealth" in reasons["Restructure"]
    assert "no discarded strategy cards" in reasons["War Council"]
    assert all("disabled" in b.attrs for b in find_all(more, ".rg-unavailable button"))
    # every card without an Attack says why
    whys = [text(x) for x in find_all(board, ".rg-why")]
    assert len(whys) == 6 and all("(R" in w for w in whys)


def test_item5_reign_recruit_says_what_its_smallest_amount_needs() -> None:
    """R5, edition 4: Recruit buys 2 or 3, so with 1 coin it is out of reach, and the page says
    it needs 2 coins (the smallest amount the game's edition lists), not 1."""
    from test_page_reign import LAYOUT

    shell, _page = reign_at([LAYOUT + "4", "tAB/AB"])
    shell.play("+2")  # Recruit 2: Wealth 3 to 1
    board = render_all(shell)["rg-board"]
    reasons = {x.attrs["data-unavailable"]: text(x) for x in find_all(board, ".rg-unavailable")}
    assert "needs 2 coins; you have 1 Wealth (R5)" in reasons["Recruit"]


def test_item5_reign_first_turn_says_it_has_two_actions() -> None:
    from test_page_reign import LAYOUT

    shell, _page = reign_at([LAYOUT, "tAB/AB"])
    trees = render_all(shell)
    assert "2 actions left" in text(find(trees["rg-board"], "#rg-actions"))
    level = text(find(trees["rg-side"], ".rg-level"))
    assert "3 actions a turn (R4)" in level and "first turn has 2" in level


def test_item5_reign_the_bots_turn_step_by_step_on_the_stage() -> None:
    from test_page_reign import LAYOUT

    shell, _page = reign_at([LAYOUT, "tAB/AB"], bot=True)
    s = shell.session
    shell.play("e")  # Ann ends her first turn: Bob (computer) plays his whole turn
    n = len(s.match.log)
    for _ in range(50):
        if not shell.bots.step(1e9):
            break
    assert len(s.match.log) >= n + 2  # resupply or more, and the bot's steps
    box = find(render_all(shell)["rg-stage"], "#shell-result-inner")
    lines = [text(li) for li in find_all(box, "li")]
    assert lines[0].endswith("Ann ends the turn") or "Ann" in lines[0]
    assert any("Bob" in x for x in lines[1:])
    assert len(lines) == min(6, len(s.match.log) - n + 1)


# -- item 8: the Metagame console's wheel ------------------------------------------------------
def metagame_at_spin():  # noqa: ANN201 - (shell, page, host) with the wheel ready to spin
    from test_page_metagame import at_spin, started

    shell, page, host = started()
    at_spin(shell, page)
    return shell, page, host


def test_item8_a_taken_back_spin_is_said_in_words() -> None:
    shell, page, _host = metagame_at_spin()
    s = shell.session
    page.controls.spin()
    spun = s.match.log[-1]
    before = s.match.states[-2]
    k = shell.game.parse_action(spun).k
    title = page.spins.game_title(before.games[before.inv.game_at(k)])
    shell.bar.undo()
    spins = render_all(shell)["mg-spins"]
    words = f"slice {k + 1} of {before.inv.x}: {title}, taken back"
    assert words in text(spins)
    assert "(0 spins, 1 taken back)" in text(find(spins, "#mg-spins-title"))
    # the log's list of taken-back draws says it in the game's words too, the code beside it
    log = find(render_all(shell)["shell-log-box"], ".shell-taken-back")
    assert shell.game.describe_action(before, shell.game.parse_action(spun)) in text(log)


def test_item8_wheel_labels_whole_and_colours_unlike_any_seat() -> None:
    from metagame.wheel import label_lines

    from conquest.seats import PALETTE, WHEEL_COLOURS

    assert label_lines("To Reign Supreme") == ["To Reign", "Supreme"]
    assert label_lines("The Game of Conquests") == ["The Game of", "Conquests"]

    def rgb(c: str) -> tuple[int, ...]:
        return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))

    for w in WHEEL_COLOURS:
        assert min(sum((a - b) ** 2 for a, b in zip(rgb(w), rgb(p), strict=True)) ** .5 for p in PALETTE) >= 70, w
    shell, _page, _host = metagame_at_spin()
    side = render_all(shell)["mg-side"]
    labels = ["".join(text(t) for t in find_all(lab, "tspan")) for lab in find_all(side, "#mg-spinner text")]
    titles = {g.get("title") or g["name"] for g in shell.session.view()["games"]}
    assert labels and all(any(x.replace(" ", "") == t.replace(" ", "") for t in titles) for x in labels), labels


# -- item 3: a finished game ------------------------------------------------------------------
def test_item3_a_finished_game_offers_its_next_step_at_the_top_not_undo() -> None:
    from test_page_conquests import opened_at, side

    shell, _page, host = opened_at("g5/6/5L++/6/6/1L++3G - w 0 1")
    fire(side(shell), "#cq-typed", "submit", fields={"move": "f4a4"})
    bar = render_all(shell)["shell-over"]  # the row right under the status bar
    assert not find_all(render_all(shell)["shell-bar"], "#shell-undo")
    assert find(bar, "#shell-over-new").attrs["href"] == "?"
    # the saved list: the finished game is offered to open, with its result
    first = shell.session.slot_id
    saved = shell.saved.render(host.store.list())
    row = text(find(saved, "#shell-saved-list"))
    assert "Open “From a link”" in row and "Resume" not in row and "Finished: " in row and " won" in row
    # Play again: the same players and options, a new slot; the finished one stays as it was
    fire(bar, "#shell-rematch")
    s = shell.session
    assert s.slot_id != first and s.match.log == [] and s.match.options == host.store.open(first)["options"]
    assert host.query == f"?slot={s.slot_id}"
    assert host.store.get(first).result and not host.store.get(s.slot_id).result


def test_item3_two_saved_games_of_one_name_are_told_apart() -> None:
    from shell import shown_names

    from conquest.store import Slot

    a = Slot("a1", "conquests", "Duel: Ann vs Cat for Pullman, turn 3", "host", 10.0, 30.0, 5)
    b = Slot("b2", "conquests", "Duel: Ann vs Cat for Pullman, turn 3", "host", 20.0, 25.0, 9)
    c = Slot("c3", "conquests", "Other", "host", 5.0, 5.0, 1)
    assert shown_names([a, b, c]) == {"a1": "Duel: Ann vs Cat for Pullman, turn 3 (1)",
                                      "b2": "Duel: Ann vs Cat for Pullman, turn 3 (2)", "c3": "Other"}


# -- item 11: the landing page ----------------------------------------------------------------
def test_item11_each_game_has_a_picture_drawn_from_its_own_data() -> None:
    import re

    import build
    from buildlib import previews
    from conquest.maps import load_map
    from conquest.seats import PALETTE

    inp = build.load_inputs()
    files = build.preview_files(inp)
    assert sorted(files) == sorted(f"previews/{g}.svg" for g in inp.playable())
    world = files["previews/world.svg"].decode()
    fills = dict(re.findall(r'fill="(#[0-9a-f]{6})" fill-rule="evenodd" stroke="#fff" stroke-width="[\d.]+" '
                            r'data-territory="([a-z-]+)"', world)[i][::-1] for i in range(42))
    owners = previews.world_owners()
    m = load_map("world42")
    assert [fills[t.id] for t in m.territories] == [PALETTE[o] for o in owners]
    assert len(set(owners)) == 3  # dealt to three players (W3)
    board = files["previews/conquests.svg"].decode()
    from conquest.core import get_game
    from conquest.session import Match

    start = Match(get_game("conquests"), {}).state.board  # the engine's starting position
    assert board.count("<rect") == 36 and board.count("<circle") == sum(1 for p in start if p)
    wheel = previews.metagame_wheel()
    assert files["previews/metagame.svg"].decode().count("<path") == sum(s["count"] for s in wheel)
    assert "Weapons Workshop" in files["previews/reign.svg"].decode()
    for body in files.values():
        assert body.startswith(b"<svg ") and b'role="img"' in body and b"<script" not in body
    # the landing page shows each picture on its game's card
    pages = build.render_pages(inp, [p for p in build.plan_pages(inp) if p.path == "index.html"], "test")
    index = pages["index.html"].decode()
    for gid in inp.playable():
        assert f'src="previews/{gid}.svg"' in index
    assert 'id="continue"' in index


def test_item11_the_last_game_played_is_offered_first() -> None:
    from conquest.store import Slot, last_played

    old = Slot("a1", "world", "Old", "host", 1.0, 10.0, 5)
    done = Slot("b2", "reign", "Done", "host", 1.0, 30.0, 40, result="Ann won")
    view = Slot("c3", "world", "Seen", "view", 1.0, 40.0, 9)
    gone = Slot("d4", "retired", "Gone", "host", 1.0, 50.0, 3)
    now = Slot("e5", "world", "World night", "host", 1.0, 20.0, 212)
    assert last_played([old, done, view, gone, now], {"world", "reign"}) == now
    assert last_played([done, view], {"world", "reign"}) is None


# -- item 4: charts, the Short Campaign's reveal and map --------------------------------------
def test_item4_charts_have_visible_titles_and_round_numbers() -> None:
    from shell import chart_number

    m = position(ann_attacking, seed=2)
    shell, _page, _ = opened(m)
    chart = render_all(shell)["shell-chart"]
    titles = [text(x) for x in find_all(chart, "figcaption.shell-chart-title")]
    assert len(titles) == len(find_all(chart, "svg.shell-chart")) >= 2 and all(t.endswith("per player") for t in titles)
    assert chart_number(2.9668) == "3.0" and chart_number(12.0) == "12" and chart_number(-0.25) == "-0.2"
    ends = [text(t) for t in find_all(chart, "svg.shell-chart text") if text(t).startswith(("Ann ", "Bob ", "Cy "))]
    assert ends and all(len(x.split()[-1].split(".")[-1]) <= 1 for x in ends if "." in x), ends


def test_item4_campaign_one_country_and_own_land_keeps_its_colour() -> None:
    from test_page_campaign import drive, started

    from conquest.games.campaign.questions import unit_for

    assert [unit_for(1, u) for u in ("countries", "people", "territories", "troops", "km", "km²")] == \
        ["country", "person", "territory", "troop", "km", "km²"]
    assert unit_for(2, "countries") == "countries"
    shell, page, _ = started()
    drive(shell, page, lambda st: st.phase == "pick" and st.picks[0] == 0)
    view = shell.session.view()
    me = view["to_move"]
    paints = page.paint(view)
    mine = [t["index"] for t in view["territories"] if t["owner"] == me]
    others = [t["index"] for t in view["territories"] if t["owner"] != me]
    assert mine and all(paints[f"cp-t{t}"]["class"]["is-mine"] for t in mine)
    assert not any(paints[f"cp-t{t}"]["class"]["is-mine"] for t in others)


# -- item 6: The Game of Conquests, a capture waiting for the placement ----------------------------
def test_item6_a_capture_waiting_for_the_placement_is_described_as_the_generals_move() -> None:
    from test_page_conquests import opened_at, press

    shell, page, _ = opened_at("2gC2/6/6/6/6/G5 s b 0 1")  # Black's General takes the White Champion
    press(shell, "c6")
    press(shell, "d6")
    assert page.placement.pending is not None and shell.session.match.log == []
    t = render_all(shell)
    d6 = find(t["cq-squares"], "#cq-sq-d6").attrs["aria-label"]
    assert d6.startswith("d6, where the Black General") and "taking the White Champion" in d6
    info = text(find(t["cq-side"], "#cq-info-text"))
    assert info.startswith("Black General moving from c6 to d6, taking the White Champion")
    assert "comes back at level 2" in info and "(C4)" in info
    page.pointer.hover = page.placement.pending[1]  # pointing at d6 still describes the move, not the fighter taken
    assert text(find(render_all(shell)["cq-side"], "#cq-info-text")).startswith("Black General moving")


# -- item 7: Metagame duels -----------------------------------------------------------------------
def test_item7_play_here_opens_the_duel_at_once() -> None:
    from live_kit import console, panel

    shell, page, host = console()
    fire(panel(shell), "#mg-duel-here")
    page.after_render()  # what the browser runs after the click's render
    tie = page.duel_desk.tie()
    assert host.opened == [f"../conquests/?slot={tie['slot']}"]
    page.after_render()
    assert len(host.opened) == 1  # once


def test_item7_a_drawn_duel_says_the_same_on_both_sides_and_is_played_again() -> None:
    from conquests import ConquestsPage
    from duel_desk import DRAWN, duel_banner, load_ties
    from live_kit import console, panel
    from page_host import make_page

    from conquest.session import Match

    shell, page, host = console()
    fire(panel(shell), "#mg-duel-here")
    tie = page.duel_desk.tie()
    save = host.store.open(tie["slot"])
    duel = Match(save["game"], {**save["options"], "position": "5g/6/6/6/6/G5 - w 199 1"}, save["log"])
    duel.play("a1b1")  # the 200th quiet ply: a draw (C5)
    assert duel.game.outcome(duel.state).winners == ()
    host.store.autosave(tie["slot"], duel.save().to_json(), host.now())
    # the console
    assert not page.duel_desk.poll() and shell.session.match.state.phase == "duel"
    box = panel(shell)
    assert text(find(box, "#mg-duel-note")) == DRAWN
    # the duel's page says the same, and offers the replay
    dshell, _dpage, _ = make_page(ConquestsPage, host)
    dshell.open(duel, host.store.get(tie["slot"]))
    banner = duel_banner(host, dshell.session, dshell)
    assert DRAWN in text(banner) and "takes the result by itself" not in text(find(banner, "#shell-duel-drawn"))
    fire(banner, "#shell-duel-again")
    new = dshell.session.slot_id
    assert new != tie["slot"] and dshell.session.match.log == [] and host.query == f"?slot={new}"
    assert new in load_ties(host) and tie["slot"] not in load_ties(host)
    # the console now follows the new duel: nothing to take yet, the draw note gone
    page.duel_desk.poll()
    assert page.duel_desk.tie()["slot"] == new and page.duel_desk.note is None
    # the console's own "Play the duel again" after a draw
    duel2 = Match("conquests", {**host.store.open(new)["options"], "position": "5g/6/6/6/6/G5 - w 199 1"})
    duel2.play("a1b1")
    host.store.autosave(new, duel2.save().to_json(), host.now())
    page.duel_desk.poll()
    fire(panel(shell), "#mg-duel-again")
    assert page.duel_desk.tie()["slot"] not in (new, tie["slot"]) and page.duel_desk.note is None


def test_left_item2_the_logs_view_buttons_are_one_tab_stop_moved_by_arrow_keys() -> None:
    """Issue 21, item 2: the log's View buttons were one Tab stop each (~60 of them between
    the controls and the map); one of them is now (a roving tabindex), the arrow keys, Home
    and End move the focus and the stop among them, and a used View becomes the stop."""
    from ui import Event

    m = position(ann_attacking, seed=2)
    shell, _page, _ = opened(m)
    host = shell.host

    def views() -> list:
        return [b for b in find_all(render_all(shell)["shell-log-box"], "button") if "data-view" in b.attrs]

    def stops() -> list[int]:
        return [int(b.attrs["data-view"]) for b in views() if b.attrs.get("tabindex") == "0"]

    steps = [int(b.attrs["data-view"]) for b in views()]
    assert len(steps) >= 10 and all(b.attrs.get("tabindex") in ("0", "-1") for b in views())
    assert stops() == [steps[-1]]  # the newest step
    log = find(render_all(shell)["shell-log-box"], "#shell-log")
    log.on["keydown"](Event(type="keydown", key="ArrowUp"))
    assert stops() == [steps[-2]] and host.focused == f"shell-view-{steps[-2]}"
    log.on["keydown"](Event(type="keydown", key="Home"))  # the whole log's first step (issue 20, item 10)
    assert stops() == [1] and host.focused == "shell-view-1"
    log.on["keydown"](Event(type="keydown", key="ArrowUp"))  # stays at the first
    assert stops() == [1]
    log.on["keydown"](Event(type="keydown", key="End"))
    assert stops() == [steps[-1]]
    log.on["keydown"](Event(type="keydown", key="x"))  # another key is the page's
    assert stops() == [steps[-1]]
    k = [int(b.attrs["data-view"]) for b in views()][3]
    fire(render_all(shell)["shell-log-box"], f"#shell-view-{k}")  # a View used: the stop, the step shown
    assert stops() == [k] and shell.session.viewing == k


def test_left_item5_a_finished_duel_offers_the_way_back_to_the_campaign_not_play_again() -> None:
    """Issue 21, left item 5: a campaign's duel that ended showed the shell's generic "Play
    again" (a new game that no campaign waits for); it offers the duel's next step (M12):
    back to the console, which takes a win by itself, or after a draw the duel again."""
    from conquests import ConquestsPage
    from duel_desk import load_ties
    from live_kit import console, panel, play_in_other_tab
    from page_host import make_page

    from conquest.session import Match

    shell, page, host = console()
    fire(panel(shell), "#mg-duel-here")
    tie = page.duel_desk.tie()
    save = play_in_other_tab(host, tie["slot"])  # Ann mates: the duel is won
    dshell, _dpage, _ = make_page(ConquestsPage, host)
    dshell.open(Match(save["game"], save["options"], save["log"]), host.store.get(tie["slot"]))
    bar = render_all(dshell)["shell-over"]
    assert not find_all(bar, "#shell-rematch") and not find_all(render_all(dshell)["shell-bar"], "#shell-undo")
    back = find(bar, "#shell-over-duel")
    assert back.attrs["href"] == f"../metagame/?slot={shell.session.slot_id}" and text(back) == "Back to the campaign"
    assert "takes Ann's win by itself (M12)" in back.attrs["title"]
    # the console does take it
    assert page.duel_desk.poll() and shell.session.match.state.phase != "duel"

    # a drawn duel: played again from the bar, for the same campaign step
    shell, page, host = console()
    fire(panel(shell), "#mg-duel-here")
    tie = page.duel_desk.tie()
    opts = host.store.open(tie["slot"])["options"]
    duel = Match("conquests", {**opts, "position": "5g/6/6/6/6/G5 - w 199 1"})
    duel.play("a1b1")  # the 200th quiet ply: a draw (C5)
    host.store.autosave(tie["slot"], duel.save().to_json(), host.now())
    dshell, _dpage, _ = make_page(ConquestsPage, host)
    dshell.open(duel, host.store.get(tie["slot"]))
    bar = render_all(dshell)["shell-over"]
    assert not find_all(bar, "#shell-rematch")
    assert find(bar, "#shell-over-duel").attrs["href"] == f"../metagame/?slot={shell.session.slot_id}"
    fire(bar, "#shell-over-duel-again")
    new = dshell.session.slot_id
    assert new != tie["slot"] and dshell.session.match.log == [] and load_ties(host)[new]["game"] == "conquests"
    # a game that is no campaign's duel keeps the shell's own next steps
    from test_page_conquests import opened_at, side

    other, _page, _host = opened_at("g5/6/5L++/6/6/1L++3G - w 0 1")
    fire(side(other), "#cq-typed", "submit", fields={"move": "f4a4"})
    bar = render_all(other)["shell-over"]
    assert find(bar, "#shell-rematch") and not find_all(bar, "#shell-over-duel")


def test_left_item4_world_names_at_the_whole_map_in_tiers_apart_from_the_badges() -> None:
    """Issue 21, left item 4: the World page carries, for its whole map, the names that fit
    at 16.3 map units (12 px at 1280x800) then 12.3 (9 px), above their own troop badge,
    overlapping no other name and no badge (the full set at 7.5 units showed 5.6 px)."""
    import re
    from itertools import combinations

    import build
    from buildlib.mapsvg import label_box, label_tiers
    from conquest.maps import load_map

    m = load_map("world42")
    tiers = label_tiers(m, [16.3, 12.3], (12, 11))
    assert [fs for fs, _ in tiers] == [16.3, 12.3]
    placed = [(i, x, y, fs) for fs, kept in tiers for i, x, y in kept]
    assert len(placed) >= 25 and len(tiers[0][1]) >= 20 and len({i for i, *_ in placed}) == len(placed)
    boxes = [label_box(m.territories[i].name, x, y, fs) for i, x, y, fs in placed]
    badges = [(t.label[0] - 11, t.label[1] + 1, t.label[0] + 11, t.label[1] + 23) for t in m.territories]

    def clash(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])

    assert not [(a, b) for a, b in combinations(boxes, 2) if clash(a, b)]
    assert not [(a, b) for a in boxes for b in badges if clash(a, b)]
    inp = build.load_inputs()
    html = build.render_pages(inp, [p for p in build.plan_pages(inp) if p.path == "play/world/index.html"],
                              "test")["play/world/index.html"].decode()
    groups = re.findall(r'<g class="labels-main" data-tier="(\d)" font-size="([\d.]+)"(.*?)</g>', html, re.S)
    assert [(n, float(fs)) for n, fs, _ in groups] == [("1", 16.3), ("2", 12.3)]
    assert [sorted(int(x) for x in re.findall(r'id="wc-lm(\d+)"', body)) for _, _, body in groups] == [
        [i for i, *_ in kept] for _, kept in tiers]
    assert html.index('id="wc-marks"') < html.index('class="labels-main"')  # above the choice outlines


def test_item8_console_map_labels_do_not_overlap_and_the_wheel_is_under_the_heading() -> None:
    import re
    from itertools import combinations

    import build
    from buildlib.mapsvg import label_box, uncrowded
    from conquest.maps import load_map

    m = load_map("usa100")
    main = 13.4
    kept = uncrowded(m, main)
    boxes = [label_box(m.territories[i].name, *m.territories[i].label, main) for i in kept]
    assert len(kept) >= 70 and not [
        (a, b) for a, b in combinations(boxes, 2)
        if min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])
    ]
    inp = build.load_inputs()
    html = build.render_pages(inp, [p for p in build.plan_pages(inp) if p.path == "play/metagame/index.html"],
                              "test")["play/metagame/index.html"].decode()
    main_group = re.search(r'<g class="labels-main" font-size="([\d.]+)".*?</g>', html, re.S)
    assert main_group and float(main_group.group(1)) == main
    assert sorted(int(x) for x in re.findall(r'id="mg-lm(\d+)"', main_group.group(0))) == kept
    full = re.search(r'<g class="labels" font-size="([\d.]+)"', html)
    assert full and float(full.group(1)) == m.label_size  # every name, at the collision-checked size
    # the wheel comes right under the invasion's heading (near Spin), the numbers after it
    shell, _page, _host = metagame_at_spin()
    inv = find(render_all(shell)["mg-side"], "#mg-invasion")
    order = [k.attrs.get("id") or k.attrs.get("class") for k in inv.children if hasattr(k, "attrs")]
    assert order.index("mg-wheel-box") < order.index("mg-numbers")


def test_item10_campaign_a_question_is_not_announced_before_get_ready() -> None:
    from test_page_campaign import drive, started

    shell, page, _ = started()
    s = shell.session
    drive(shell, page, lambda st: st.phase == "pick")
    assert "The answer was" in shell.result.announcement()
    page.pick(page.board.choices(s.view())[0])
    drive(shell, page, lambda st: st.phase == "answer")
    question = s.view()["question"]["text"]
    assert question not in shell.result.announcement()
    assert question not in text(find(render_all(shell)["cp-stage"], "#cp-stage-inner")) or \
        not find_all(render_all(shell)["cp-stage"], "#shell-result-inner li")
