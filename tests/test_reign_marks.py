"""Issue 41 on the To Reign Supreme page, in CPython: after each kind of action, which node
carries ``data-now="result"`` (the newest result) and which ``data-now="next"`` (the next
decision); the shell brings both into view (``browser_now.bring_now``), and the tap-walk
(``tests/browser/test_tapwalk_reign_conquests.py``) measures them on a 360x740 screen.

Why "next" is a short control or panel and never the battle panel: at 360 px the battle
panel is about 900 px tall, so marking it left the result above the screen after every
pass-the-device screen. Also here: the tap-to-explain legend of the four symbols (a touch
screen never shows the hover titles that used to say what they mean).
"""
from __future__ import annotations

from page_host import render_all
from shell import Shell
from test_page_reign import LAYOUT, TO_BATTLE, opened, stage
from ui import Node, find, find_all, fire, text

from conquest.games.reign import GAME
from conquest.games.reign.actions import Reveal


def marks(shell: Shell) -> dict[str, list[str]]:
    """The ids of the nodes marked ``data-now``, by mark, over every tree the page mounts."""
    out: dict[str, list[str]] = {}
    for tree in render_all(shell).values():
        for node in find_all(tree, "[data-now]"):
            out.setdefault(node.attrs["data-now"], []).append(node.attrs.get("id", "?"))
    return out


def test_set_up_picks_mark_the_cards_then_the_summary_then_the_confirm() -> None:
    shell, _, _ = opened([LAYOUT])
    shell.handover.ready(0)
    assert marks(shell)["next"] == ["rg-pick-cards"]
    fire(stage(shell), "[data-card=C]")
    assert marks(shell) == {"next": ["rg-pick-cards"], "result": ["rg-pick-summary"]}
    fire(stage(shell), "[data-card=D]")
    assert marks(shell) == {"next": ["rg-pick-go"], "result": ["rg-pick-summary"]}


def test_a_turn_action_marks_its_words_and_the_turn_panel() -> None:
    shell, _, _ = opened([LAYOUT, "tAB/AB"])
    shell.handover.ready(0)
    assert marks(shell)["next"] == ["rg-turn"]
    turn = find(stage(shell), "#rg-turn")
    assert "2 actions left" in text(turn) and "Click Attack" in text(turn)  # a mouse's word (FakeHost)
    fire(render_all(shell)["rg-board"], "[data-action=dw]")  # Develop the Workshop
    got = marks(shell)
    assert got == {"next": ["rg-turn"], "result": ["shell-result-inner"]}
    assert "Develop" in text(find(stage(shell), "#shell-result-inner"))
    # the result sits right above the decision, in the stage at the top of the page
    kids = [k.attrs.get("id") for k in stage(shell).children if isinstance(k, Node)]
    assert kids == ["shell-result-inner", "rg-turn"]


def test_an_attack_marks_the_defenders_choice_and_the_battle_marks_the_cards() -> None:
    shell, _, _ = opened(TO_BATTLE[:-2])
    s = shell.session
    assert s is not None
    shell.handover.ready(0)
    fire(render_all(shell)["rg-board"], "[data-action=bc]")  # Ann attacks The Citadel
    if s.needs_handover() is not None:
        fire(render_all(shell)["shell-handover"], "#shell-ready")
    assert marks(shell) == {"next": ["rg-respond"], "result": ["shell-result-inner"]}
    assert "attacks" in text(find(stage(shell), "#shell-result-inner"))
    fire(stage(shell), "#rg-fight")
    shell.handover.ready(0)
    # not the whole battle panel (taller than a phone's screen): its cards
    assert marks(shell) == {"next": ["rg-battle-cards"], "result": ["shell-result-inner"]}
    fire(stage(shell), "[data-card=C]")
    assert marks(shell) == {"next": ["rg-battle-go"], "result": ["rg-totals"]}
    fire(stage(shell), "[data-buy=s+]")
    assert marks(shell) == {"next": ["rg-battle-go"], "result": ["rg-totals"]}


def test_the_reveal_is_the_result_in_words_and_the_turn_goes_on_below_it() -> None:
    shell, _, _ = opened(TO_BATTLE)
    s = shell.session
    assert s is not None
    shell.handover.ready(0)
    fire(stage(shell), "[data-card=C]")
    fire(stage(shell), "#rg-battle-go")
    # the pass-the-device screen: the page's own marks are the waiting line (hidden by the
    # shell); its Ready button is the shell's, brought into view by the shell
    assert s.needs_handover() == 1
    assert marks(shell).get("next") == ["rg-waiting"]
    fire(render_all(shell)["shell-handover"], "#shell-ready")
    fire(stage(shell), "[data-card=D]")
    fire(stage(shell), "#rg-battle-go")
    assert isinstance(GAME.parse_action(s.match.log[-1]), Reveal)
    seat = s.acting_seat()
    assert seat is not None
    shell.handover.ready(seat)
    got = marks(shell)
    assert got == {"next": ["rg-turn"], "result": ["rg-reveal"]}
    st = stage(shell)
    reveal = find(st, "#rg-reveal")
    assert reveal.tag == "section" and "Battle over The Citadel" in text(find(reveal, "h2"))
    # in words at once; the arithmetic behind one tap, closed
    assert "Ann played Cavalry Charge" in text(find(reveal, "#rg-reveal-words"))
    counted = find(reveal, "#rg-reveal-count")
    assert counted.tag == "details" and "open" not in counted.attrs
    assert "How it was counted" in text(find(counted, "summary"))
    kids = [k.attrs.get("id") for k in st.children if isinstance(k, Node)]
    assert kids.index("rg-turn") == kids.index("rg-reveal") + 1  # the decision right under it


def test_every_render_marks_one_next_at_most_one_result() -> None:
    shell, _, _ = opened(TO_BATTLE)
    s = shell.session
    assert s is not None
    for _ in range(6):
        seat = s.needs_handover()
        if seat is not None:
            shell.handover.ready(seat)
        got = marks(shell)
        assert len(got.get("next", [])) == 1 and len(got.get("result", [])) <= 1, got
        st = stage(shell)
        if st.attrs["data-act"] == "battle":
            fire(st, "[data-card]")
            fire(stage(shell), "#rg-battle-go")
        elif st.attrs["data-act"] == "turn":
            fire(render_all(shell)["rg-board"], "#rg-end")
        else:
            break


def test_the_legend_explains_the_four_symbols_by_a_tap() -> None:
    shell, _, _ = opened([LAYOUT, "tAB/AB"])
    shell.handover.ready(0)
    legend = find(render_all(shell)["rg-board"], "#rg-legend")
    assert legend.tag == "details" and "open" not in legend.attrs
    assert find(legend, "summary").attrs["id"] == "rg-legend-open"
    meanings = {dd.attrs["data-symbol"]: text(dd) for dd in find_all(legend, "dd")}
    assert set(meanings) == {"coin", "sword", "heart", "bolt"}
    assert "Wealth" in meanings["coin"] and "attack" in meanings["sword"]
    assert "casualty" in meanings["heart"] and "casualty" in meanings["bolt"]
