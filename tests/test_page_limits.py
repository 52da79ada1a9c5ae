"""The page's own work on long games (issue 20, item 10), measured in work done, not time.

Opening a 6,023-step World game blocked the page for seconds; part of it was the chart,
which computed every state's stats to show one point a turn.
"""
from __future__ import annotations

from page_host import make_page

from conquest.session import Match
from tools.hostile import long_match


def test_the_chart_computes_stats_only_at_its_points() -> None:
    import world as world_page

    shell, page, _ = make_page(world_page.WorldPage)
    long = long_match("world", 3000)
    shell.open(Match(long.game, long.options, long.log), None)
    calls = []
    real = type(shell.game).stats
    shell.game.stats = lambda state: calls.append(state) or real(shell.game, state)  # type: ignore[method-assign]
    try:
        shell.chart.render(640)
        points = page.chart_points(shell.session.match.states)
        assert len(calls) == len(points) < len(long.log) // 5  # before: 3,001, one per state
        shell.chart.render(640)
        assert len(calls) == len(points)  # cached
        shell.session.undo()
        shell.chart.render(640)
        assert len(calls) <= len(points) + 2  # only the state that changed
    finally:
        del shell.game.stats


def test_a_name_with_a_right_to_left_override_is_isolated_in_the_status_and_the_log() -> None:
    """Item 8: "\u202eAnn evil claims Alaska" showed as "aksalA smialc live nnA": the
    override reversed the rest of the line. Each name is now between FSI and PDI, put there
    by the one pass every mounted tree goes through (``Shell.isolated``, issue 42)."""
    import world as world_page
    from page_host import render_all
    from ui import find, text

    from conquest.core import get_game
    from conquest.rng import Rng

    rlo, fsi, pdi = "\u202e", "\u2068", "\u2069"
    shell, page, _ = make_page(world_page.WorldPage)
    names = [f"{rlo}Ann evil", f"{rlo}Bob", "Cy"]
    match = Match(get_game("world"), {"seats": [{"name": n} for n in names]}, rng=Rng(5))
    match.resolve_chance()
    for _ in range(6):
        match.play(match.legal_actions()[0])
    shell.open(match, None)
    trees = render_all(shell)
    log = text(trees["shell-log-box"])
    assert f"{fsi}{rlo}Ann evil{pdi} claims" in log and f"{fsi}{rlo}Bob{pdi}" in log
    assert log.replace(f"{fsi}{rlo}", "").count(rlo) == 0  # no override left outside an isolate
    bar = text(find(trees["shell-bar"], "#shell-prompt"))
    assert rlo in bar and rlo not in bar.replace(f"{fsi}{rlo}", "")
    # the seats hold the names as given: isolated where shown, not in what is compared or sent
    assert shell.session.seat_name(0) == f"{rlo}Ann evil" and shell.session.seat_name(2) == "Cy"


def test_a_right_to_left_name_is_isolated_exactly_once_wherever_it_is_shown() -> None:
    """Issue 42: names were isolated in two places (``Session.seats`` and ``Shell.isolated``).
    Now only where every mounted tree passes: each right-to-left name (an override in it, or
    Hebrew letters) stands between one FSI…PDI pair wherever it is shown (the status bar, the
    log, the board's seat list, the toast) and is never isolated twice; a dialog's text goes
    through the same pattern (``Shell.isolate_text``, ``BrowserHost.confirm``)."""
    import world as world_page
    from page_host import render_all
    from ui import find, reversing_texts, text

    from conquest.core import get_game
    from conquest.rng import Rng

    rlo, fsi, pdi = "\u202e", "\u2068", "\u2069"
    hebrew = "\u05d3\u05e0\u05d4"  # "Dana"
    names = [f"{rlo}Ann evil", hebrew, "Cy"]
    shell, page, _ = make_page(world_page.WorldPage)
    match = Match(get_game("world"), {"seats": [{"name": n} for n in names]}, rng=Rng(5))
    match.resolve_chance()
    for _ in range(7):
        match.play(match.legal_actions()[0])
    shell.open(match, None)
    shell.say(f"{names[0]} and {hebrew} may undo.")
    trees = render_all(shell)
    shown = {
        "status bar": text(find(trees["shell-bar"], "#shell-prompt")),
        "log": text(trees["shell-log-box"]),
        "board": text(trees["wc-seats"]),
        "toast": text(trees["shell-toast"]),
    }
    for where, words in shown.items():
        present = [name for name in names[:2] if name in words]
        # the status bar names the one to act; the log, the board and the toast both
        assert present == (names[:2] if where != "status bar" else present) and present, (where, words[:200])
        for name in present:
            n = words.count(name)
            assert words.count(f"{fsi}{name}{pdi}") == n, f"{name!r} not isolated each time in the {where}"
            assert f"{fsi}{fsi}{name}" not in words and f"{name}{pdi}{pdi}" not in words, f"twice in the {where}"
    for cid, tree in trees.items():
        assert reversing_texts(tree) == [], cid
    assert shell.isolate_text(f"Take back {names[0]}'s move?") == f"Take back {fsi}{names[0]}{pdi}'s move?"
    assert shell.isolate_text(f"{fsi}{names[0]}{pdi} again") == f"{fsi}{names[0]}{pdi} again"  # kept, not doubled
    assert [seat.name for seat in shell.session.seats()] == names  # as given


def test_every_text_of_the_metagame_page_keeps_its_direction_with_hostile_names() -> None:
    """Item 8's last reversed text: the Metagame page wrote names into its own texts (the
    players' table, the invasion's heading, the wheel's labels, the result's buttons, the
    host's selects) without isolating them; 22 kinds of text reversed the rest of their line.

    Every seat, every game on the wheel, the title and a custom map's territories carry a
    right-to-left override; through a whole game (443 steps: claims, invasions, slices,
    spins, results) no text of any mounted tree leaves a direction control loose
    (``ui.reversing_texts``: outside an FSI…PDI isolate or ``<bdi>``).
    """
    from metagame import MetagamePage
    from page_host import render_all
    from test_metagame import grid_map
    from ui import reversing_texts

    from conquest.core import get_game
    from conquest.games.metagame.engine import default_games
    from conquest.rng import Rng

    rlo = "\u202e"
    game = get_game("metagame")
    for map_data in (None, grid_map(4, 4)):
        if map_data is not None:
            for t in map_data["territories"]:
                t["name"] = f"{rlo}{t['name']} land"
        opts = {"players": [{"name": f"{rlo}Ann evil"}, {"name": f"{rlo}Bob"}, {"name": f"Cy{rlo}x"}],
                "games": [f"{rlo}{g}" for g in default_games()], "title": f"{rlo}Title", "map_data": map_data}
        match = Match(game, opts, rng=Rng(5))
        match.resolve_chance()
        shell, page, host = make_page(MetagamePage)
        slot = host.store.create(match.save().to_json(), f"{rlo}Slot", host.now())
        loose: dict[str, str] = {}
        shell.open(match, slot)
        drawn = set()
        for i in range(450):
            if (match.state.phase, i // 60) not in drawn:  # each phase, again every 60 steps
                drawn.add((match.state.phase, i // 60))
                trees = render_all(shell)
                trees["shell-saved"] = shell.isolated(shell.saved.render(host.store.list("metagame"), slot.id))
                for cid, tree in trees.items():
                    for t in reversing_texts(tree):
                        loose.setdefault(cid, t)
            actions = match.legal_actions()
            if match.outcome() is not None or not actions:
                break
            match.play(actions[i % len(actions)])
        assert len(match.log) > 60  # past claims into invasions, slices and spins
        assert loose == {}


def test_a_text_with_a_loose_override_is_isolated_whole_and_names_inside_it() -> None:
    """The pass every mounted tree goes through: known names isolated where they stand, and a
    text still holding a loose control (a name cut short) isolated whole; plain text as is."""
    from ui import h, isolate_text, isolate_tree, names_pattern, reversing_texts

    rlo, fsi, pdi = "\u202e", "\u2068", "\u2069"
    pattern = names_pattern([f"{rlo}Bob", f"{rlo}Bobby", "Ann"])
    assert isolate_text(f"{rlo}Bobby and {rlo}Bob play", pattern) == f"{fsi}{rlo}Bobby{pdi} and {fsi}{rlo}Bob{pdi} play"
    assert isolate_text(f"{fsi}{rlo}Bob{pdi} plays", pattern) == f"{fsi}{rlo}Bob{pdi} plays"  # already: kept
    assert isolate_text(f"{rlo}Bo… plays", pattern) == f"{fsi}{rlo}Bo… plays{pdi}"
    assert isolate_text(f"{fsi}open", None) == f"{fsi}{fsi}open{pdi}{pdi}"
    assert isolate_text("Ann plays", pattern) == "Ann plays"
    tree = h("p", f"{rlo}Bob wins", h("b", f"x{rlo}"), "plain")
    assert len(reversing_texts(tree)) == 2
    assert reversing_texts(isolate_tree(tree, pattern)) == []
    assert reversing_texts(h("bdi", f"{rlo}Bob")) == []


def test_a_long_game_opens_in_slices_that_make_the_same_match() -> None:
    """Item 10: opening replayed a whole game in one block of the page's main thread. Now
    ``shell.Opening`` replays a slice at a time (each slice its own task in the page); the
    slicing is counted here on a clock that advances 1 ms per reading, never on time."""
    from shell import Opening, check_save

    from conquest.core import importing_games

    save = long_match("world", 3000).save().to_json()
    ticks = iter(range(10**9))
    opening = Opening(save, warm=importing_games())
    match = None
    while match is None:
        match = opening.advance(40.0, lambda: float(next(ticks)))
    whole = check_save(save)
    assert match.log == whole.log and match.states == whole.states
    assert opening.done == opening.total == 3000
    modules = 5  # a slice per game module imported, then the replay's
    assert opening.slices >= modules + 3000 // (40 * 16)  # at most 40 clock readings a slice


def test_a_refused_step_met_in_a_later_slice_says_what_check_save_says() -> None:
    import pytest
    from shell import Opening, check_save

    from conquest.savecode import SaveCodeError

    save = long_match("world", 600).save().to_json()
    save["log"][500] = "nonsense"
    with pytest.raises(SaveCodeError) as whole:
        check_save(save)
    opening = Opening(save)
    ticks = iter(range(10**9))
    with pytest.raises(SaveCodeError) as sliced:
        while opening.advance(5.0, lambda: float(next(ticks))) is None:
            pass
    assert sliced.value.message == whole.value.message and "step 501" in sliced.value.message
    assert opening.slices > 1


def test_a_long_chart_draws_at_most_its_thinned_points_and_keeps_the_last() -> None:
    """Item 10: a 40,000-step Campaign's chart drew 20,000 points a line (over a second in
    CPython a render). Thinned by a power-of-two stride, so kept points stay cached."""
    from shell import MAX_CHART_POINTS, thin_points

    pts = [(i, i) for i in range(20_001)]
    thin = thin_points(pts)
    assert len(thin) <= MAX_CHART_POINTS + 1 and thin[0] == pts[0] and thin[-1] == pts[-1]
    grown = thin_points([*pts, (20_001, 20_001)])
    assert set(thin[:-1]) <= set(grown)  # the same points (and their cached stats) as it grows
    assert thin_points(pts[:50]) == pts[:50]


def test_a_long_game_judges_its_draws_codes_only_when_codes_are_shown() -> None:
    """Item 10: judging whether each draw in the log window is secret took a second of a long
    Campaign's first render. Past ``LINKS_AT_ONCE`` steps a draw's code waits until codes
    are shown; never is a secret code in the page."""
    import campaign as campaign_page
    from shell import HIDDEN_CODE, LINKS_AT_ONCE

    shell, page, _ = make_page(campaign_page.CampaignPage)
    long = long_match("campaign", LINKS_AT_ONCE + 200)
    shell.open(Match(long.game, long.options, long.log), None)
    judged = []
    real = shell.draws.hidden
    shell.draws.hidden = lambda i: judged.append(i) or real(i)  # type: ignore[method-assign]
    n = len(long.log)
    lines = shell.log.lines(n - 40, n)
    draws = [line for line in lines if line["chance"]]
    assert draws and judged == [] and all(line["code"] == HIDDEN_CODE for line in draws)
    shell.log.show_codes = True
    lines = shell.log.lines(n - 40, n)
    assert len(judged) == len(draws)
    assert all(line["code"] in (HIDDEN_CODE, long.log[line["step"] - 1]) for line in lines)


def test_a_past_step_is_a_lookup_and_one_render_not_a_replay() -> None:
    """Item 10: "reach a past step without replaying from the start". Every state along the
    log is kept (``Match.states``), so viewing any step of a 6,000-step World game, the
    first as the last, replays nothing: the page draws the state kept for it."""
    import world as world_page
    from page_host import render_all
    from shell import LOG_WINDOW
    from ui import text

    shell, page, _ = make_page(world_page.WorldPage)
    long = long_match("world", 6000)
    shell.open(Match(long.game, long.options, long.log), None)
    if (seat := shell.pending()) is not None:
        shell.handover.ready(seat)
    render_all(shell)
    applied = []
    real = type(shell.game).apply
    shell.game.apply = lambda state, action: applied.append(action) or real(shell.game, state, action)  # type: ignore[method-assign]
    try:
        for step in (1, 3000, 5999, 0, 4321):
            shell.jump(step)
            trees = render_all(shell)
            assert shell.session.shown_state() is shell.session.match.states[step]
            assert f"Viewing step {step} of 6000" in text(trees["shell-viewing"])
        # no replay: what is applied is only the log's newly drawn rolls, put in words with
        # their result (at most a window of lines a jump); a replay to step 4,321 is 4,321
        assert len(applied) < 5 * LOG_WINDOW
    finally:
        del shell.game.apply


def test_a_long_games_links_are_made_in_slices_and_hold_the_game() -> None:
    """Item 10: past ``LINKS_AT_ONCE`` steps the links are compressed in slices of their own
    (``SaveEncoder``, ``LINK_SLICE_MS`` each, a task each): the render a step needs says
    "Preparing the links…", the slices follow as timers, and the links then hold the game."""
    import world as world_page
    from page_host import FakeHost
    from ui import find, text

    from conquest.savecode import parse_fragment

    class TickingHost(FakeHost):
        def clock(self) -> float:  # every look at the clock is 40 ms later: a chunk a slice
            self.t += 40
            return self.t

    host = TickingHost()
    shell, page, _ = make_page(world_page.WorldPage, host)
    long = long_match("world", 8000)
    shell.open(Match(long.game, long.options, long.log), None)
    if (seat := shell.pending()) is not None:
        shell.handover.ready(seat)
    assert "Preparing the links" in text(shell.links.render("http://x/"))
    slices = 0
    while host.timers:
        host.timers.pop(0)[1]()
        slices += 1
    assert slices >= 2 and host.renders == 1  # several tasks, then the page drawn once more
    links = shell.links.render("http://x/")
    _, save = parse_fragment(text(find(links, "#shell-host-url")))
    assert save["log"] == long.log
    shell.session.match.play(shell.session.match.legal_actions()[0])  # a step: made again
    assert "Preparing the links" in text(shell.links.render("http://x/"))

