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
        shell.render_chart(640)
        points = page.chart_points(shell.session.match.states)
        assert len(calls) == len(points) < len(long.log) // 5  # before: 3,001, one per state
        shell.render_chart(640)
        assert len(calls) == len(points)  # cached
        shell.session.undo()
        shell.render_chart(640)
        assert len(calls) <= len(points) + 2  # only the state that changed
    finally:
        del shell.game.stats


def test_a_name_with_a_right_to_left_override_is_isolated_in_the_status_and_the_log() -> None:
    """Item 8: "\\u202eAnn evil claims Alaska" showed as "aksalA smialc live nnA": the
    override reversed the rest of the line. Each name is now between FSI and PDI."""
    import world as world_page
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
    log = text(shell.render_log())
    assert f"{fsi}{rlo}Ann evil{pdi} claims" in log and f"{fsi}{rlo}Bob{pdi}" in log
    assert log.replace(f"{fsi}{rlo}", "").count(rlo) == 0  # no override left outside an isolate
    bar = text(find(shell.render_status(page.prompt(shell.session.view())), "#shell-prompt"))
    assert rlo in bar and rlo not in bar.replace(f"{fsi}{rlo}", "")
    assert shell.session.seat_name(0) == f"{fsi}{rlo}Ann evil{pdi}" and shell.session.seat_name(2) == "Cy"
