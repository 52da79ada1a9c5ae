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
