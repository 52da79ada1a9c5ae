"""The To Reign Supreme page in a real browser: a whole game against the bot, a hot-seat battle.

The page's logic is tested in CPython (tests/test_page_reign.py); this keeps the glue: the
set-up form (the layout radio, a computer seat), clicks on the cards, the battle screen and
its purchase buttons, the bot played by the shell's runner in slices, the pass-the-device
screens between two people, and the reveal, with no console error.
"""
from __future__ import annotations

from conquest.games.reign import GAME
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match

ACTING = ("pick", "battle", "respond", "turn", "over")
#: Ann Develops the Weapons Workshop and attacks The Citadel below it; Bob fights as he stands
TO_BATTLE = ["Lwmscah", "tAB/AB", "dw", "bc", "p"]


def wait_acting(page, last: str | None) -> tuple[str, str]:  # noqa: ANN001
    """Until the person must act (or the game is over) at a step other than ``last``."""
    page.wait_for_function(
        """([acting, last]) => {
            const el = document.getElementById('rg-stage-inner');
            return el && acting.includes(el.dataset.act) && (el.dataset.step !== last || el.dataset.act === 'over');
        }""",
        arg=[list(ACTING), last or ""],
        timeout=30_000,
    )
    el = page.locator("#rg-stage-inner")
    return str(el.get_attribute("data-act")), str(el.get_attribute("data-step"))


def test_a_whole_game_against_the_bot(open_page) -> None:  # noqa: ANN001
    w = open_page("play/reign/")
    page = w.page
    page.fill("#seat-name-0", "Ann")
    page.select_option("#seat-who-1", "Random")
    page.check("input[name=setup][value=challenging]")
    page.click("#shell-start")
    page.wait_for_selector("#shell-game:not([hidden])")
    step: str | None = None
    battles = 0
    for _ in range(400):
        act, step = wait_acting(page, step)
        if act == "over":
            break
        if act == "pick":
            page.click("#rg-stage [data-card=D]")
            page.keyboard.press("5")  # keys 1-5 pick the card at that place
            page.click("#rg-pick-go")
        elif act == "battle":
            battles += 1
            page.locator("#rg-stage .rg-sc").first.click()
            plus = page.locator("#rg-stage [data-buy='s+']")
            if plus.is_enabled():
                before = page.inner_text("[data-total=attack]")
                plus.click()
                page.wait_for_function("t => document.querySelector('[data-total=attack]').textContent !== t",
                                       arg=before)
            page.click("#rg-battle-go")
        elif act == "respond":
            page.click("#rg-fight")
        else:
            moves = page.locator("#rg-board .rg-card-acts button")
            if moves.count():
                attack = page.locator("#rg-board .rg-card-acts button[data-action^=b]")
                (attack.first if attack.count() else moves.first).click()
            elif page.locator("#rg-actions button[data-action=o]").count():
                page.click("#rg-actions button[data-action=o]")
            else:
                page.click("#rg-end")
    assert page.get_attribute("#rg-stage-inner", "data-act") == "over"
    assert "wins: Controls all six" in page.inner_text("#rg-stage")
    assert battles >= 1 and page.locator("#shell-log li").count() > 5
    assert page.locator("#rg-board .rg-card").count() == 6
    w.assert_clean()


def test_a_hot_seat_battle_through_the_pass_the_device_screens(open_page) -> None:  # noqa: ANN001
    save = Match(GAME, {"setup": "easy", "players": ["Ann", "Bob"], "seed": 0}, TO_BATTLE, rng=Rng(1)).save().to_json()
    w = open_page("play/reign/#" + make_fragment(save, "h"))
    page = w.page
    page.wait_for_selector("#shell-ready")
    assert "Pass to Ann" in page.inner_text("#shell-handover")
    assert not page.locator("#rg-stage").is_visible()  # the board waits behind the screen
    page.click("#shell-ready")
    page.wait_for_selector("#rg-battle-go")
    page.click("#rg-stage [data-card=C]")
    page.click("#rg-stage [data-buy='s+']")
    page.click("#rg-stage [data-buy='b+']")
    page.wait_for_function("document.querySelector('[data-total=attack]').textContent.trim() === 'Attack 9'")
    assert page.inner_text("[data-total=cost]").strip() == "Cost 2 coins"
    page.click("#rg-battle-go")
    page.wait_for_selector("#shell-ready")
    assert "Pass to Bob" in page.inner_text("#shell-handover")
    # Ann's choice is nowhere: not on the page, not in the links
    html = page.content()
    assert "Cs1b1" not in html and "Cavalry Charge" not in page.inner_text("#rg-stage")
    page.click("#shell-ready")
    page.wait_for_selector("#rg-battle-go")
    assert "Bob: you defend The Citadel" in page.inner_text("#rg-stage")
    assert "Cs1b1" not in page.content()
    page.click("#rg-stage [data-card=D]")
    page.click("#rg-stage [data-buy='a+']")
    page.wait_for_function("document.querySelector('[data-total=defence]').textContent.trim() === 'Defence 6'")
    page.click("#rg-battle-go")
    # Ann's actions are spent: Bob's turn starts and he, already at the device, sees the reveal
    page.wait_for_selector("#rg-reveal")
    assert not page.locator("#shell-ready").count()
    assert "Bob's turn" in page.inner_text("#shell-prompt")
    # the result in words at once; the arithmetic one tap away ("How it was counted", issue 41)
    words = page.inner_text("#rg-reveal")
    assert "on the ladder" in words and "Ann played Cavalry Charge (attack 9)" in words
    assert "Attack 9 = " not in words
    page.click("#rg-reveal-count summary")
    reveal = page.inner_text("#rg-reveal")
    assert "Attack 9 = 4 Military + 3 Cavalry Charge" in reveal and "on the ladder" in reveal
    assert page.locator("#shell-log code").last.text_content() == "Cs1b1/Da1"  # one logged step
    w.assert_clean()


def test_reallocate_three_cards_round_in_one_action(open_page) -> None:  # noqa: ANN001
    """R5's "rearrange them as you desire": taps on the Influenced cards build a draft (the
    log does not move), the confirm plays the whole arrangement as one step."""
    save = Match(GAME, {"setup": "easy", "players": ["Ann", "Bob"], "seed": 0}, TO_BATTLE[:2], rng=Rng(1)).save().to_json()
    w = open_page("play/reign/#" + make_fragment(save, "h"))
    page = w.page
    page.wait_for_selector("#rg-more")
    page.click("#rg-more summary")
    for q in ("0", "3", "1", "0"):  # two swaps: the Workshop, The Citadel and the Iron Mine go round
        page.click(f"#rg-realloc [data-place='{q}']")
    page.wait_for_function("document.querySelector('#rg-realloc-summary').textContent.includes('the Weapons Workshop to The Citadel')")
    assert page.locator("#shell-log li").count() == 2  # nothing played yet
    assert page.inner_text("#rg-realloc-go") == "Reallocate: move 3 cards (2 coins)"
    page.click("#rg-realloc-go")
    page.wait_for_function("[...document.querySelectorAll('#shell-log code')].some(c => c.textContent === 'Rmcswah')")
    assert "Ann's turn: 1 action left" in page.inner_text("#shell-prompt")
    cards = page.locator("#rg-board .rg-card")
    assert [cards.nth(q).get_attribute("data-territory") for q in range(6)] == list("mcswah")
    w.assert_clean()
