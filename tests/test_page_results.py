"""Issue 21 at 1280x800, in CPython: what a newcomer met in the new games' page logic.

Item 10 first: every result of an action (the person's step, the dice or reveal it drew,
the computer's replies) is listed in words beside the controls ("What just happened",
``Shell.render_result``) and given to the screen-reader live region
(``Shell.announcement``). Then item 1 (World: the roll, the trade and the dice buttons where
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
    assert shell.announcement() == ""
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
    assert words in shell.announcement() and f"Step {len(s.match.log)}" in shell.announcement()


def test_item10_world_the_computers_replies_join_the_result() -> None:
    m = position(ann_attacking, seed=2)
    shell, _page, _ = opened(m)
    s = shell.session
    fire(render_all(shell)["wc-panel"], "#wc-end")
    n = len(s.match.log)
    for _ in range(2000):
        if not shell.bot_step(1e9) and s.bot_to_act() is None:
            break
    assert len(s.match.log) > n + 1
    box = find(render_all(shell)["wc-panel"], "#shell-result-inner")
    items = find_all(box, "li")
    assert len(items) == 6 and int(items[-1].attrs["value"]) == len(s.match.log)
    assert "earlier step" in text(box) and "in the log below" in text(box)
    # the person's next step starts a new result; Undo clears it (its own message says it)
    shell.undo()
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
