"""A capital invasion decided by two built-in duels played by clicking (issue 14, M12).

The campaign comes from a prepared host link at the duel step (the wheel's draw is crypto
randomness in the page, so the test cannot make it land on a built-in game); from there
everything is clicks: the console sets the duel up on this device, the duel opens in a new
tab on The Game of Conquests' page with the two players' names and colours, the players
play it, and the console takes the result by itself (a ``storage`` event) and, for a
capital, sets the second duel up at once. The duels start from a scripted position one
move from the end (written into the duel's saved game, as a position link would), so each
is two clicks.
"""
from __future__ import annotations

import io
import json
import tempfile

from playwright.sync_api import expect

from conquest.__main__ import run_verify
from conquest.games.metagame import GAME
from conquest.games.metagame.actions import SpinResult
from conquest.rng import Rng
from conquest.savecode import make_fragment
from conquest.session import Match

from .conftest import shots_at_two_widths, watch

ANN, BOB = {"name": "Ann", "colour": "#e69f00"}, {"name": "Bob", "colour": "#0072b2"}
WHITE_MATES = "g5/6/5L++/6/6/1L++3G - w 0 1"  # White (the attacker, seat 0) wins with f4a4
SHOTS = tempfile.gettempdir()


def capital_duel_link() -> tuple[str, str]:
    """A campaign on the usa100 map at the duel of Ann's invasion of Bob's capital (conquests drawn)."""
    m = Match(GAME, {"players": [ANN, BOB], "games": ["conquests", "reign", "Chess"], "seed": 0}, rng=Rng(1))
    m.play(GAME.legal_actions(m.state)[0])
    m.play(GAME.legal_actions(m.state)[0])
    cap = m.state.capital[1]
    m.play(f"!o{m.state.board.adj[cap][0]}=0")
    m.play(f"i{cap}")
    while m.state.phase != "spin":
        ph = m.state.phase
        m.play({"sacrifice": "s-", "block": "b-"}.get(ph) or str(GAME.legal_actions(m.state)[0]))
    m._push("spin")
    m._push(str(SpinResult(0, m.state.inv.layout)))  # slice 0: The Game of Conquests
    while m.state.phase != "duel":
        m.play("x-")
    return "play/metagame/#" + make_fragment(m.save().to_json(), "h"), m.state.board.names[cap]


def script_position(page, slot: str) -> None:
    """Start the duel's saved game from a position one move from the end."""
    page.evaluate(
        """([key, pos]) => {
            const save = JSON.parse(localStorage.getItem(key));
            save.options.position = pos;
            localStorage.setItem(key, JSON.stringify(save));
        }""",
        [f"conquest:slot:{slot}", WHITE_MATES],
    )


def play_duel(console, context, base_url: str, nth: str, shots: bool = False) -> None:
    page = console.page
    opener = page.locator("#mg-duel-open")
    expect(opener).to_be_visible()
    slot = opener.get_attribute("href").split("slot=", 1)[1]
    script_position(page, slot)
    with context.expect_page() as info:
        opener.click()
    duel = info.value
    dw = watch(duel, base_url)
    dw.wait_engine()
    duel.wait_for_selector("#shell-game:not([hidden])")
    expect(duel.locator("#shell-duel")).to_contain_text(f"Duel{nth}: Ann vs Bob")
    expect(duel.locator("#shell-prompt")).to_contain_text("Ann")  # Ann plays White, to move
    if shots:
        shots_at_two_widths(duel, f"{SHOTS}/duel-page")
    duel.click("#cq-sq-f4")
    duel.click("#cq-sq-a4")
    expect(duel.locator("#shell-duel")).to_contain_text("The duel is over")
    # the duel's next step, not the generic "Play again" (issue 21, left item 5)
    expect(duel.locator("#shell-over-duel")).to_have_text("Back to the campaign")
    assert duel.locator("#shell-rematch").count() == 0
    if shots:
        for width in (1280, 360):
            duel.set_viewport_size({"width": width, "height": 900 if width > 600 else 740})
            duel.screenshot(path=f"{SHOTS}/duel-page-over-{width}.png", full_page=False)
    dw.assert_clean()
    # "Back to the campaign" goes back to the console's own tab (issue 39): this tab closes,
    # no second console is opened
    pages = len(context.pages)
    with duel.expect_event("close", timeout=15_000):
        duel.click("#shell-over-duel")
    assert len(context.pages) == pages - 1 and page in context.pages


def test_capital_invasion_decided_by_two_duels_played_here(open_page, context, base_url) -> None:
    link, capital = capital_duel_link()
    console = open_page(link)
    page = console.page
    page.wait_for_selector("#mg-duel")
    expect(page.locator("#mg-duel-title")).to_have_text("Duel: The Game of Conquests")
    shots_at_two_widths(page, f"{SHOTS}/duel-panel", "#mg-duel")
    with context.expect_page() as opened:  # the click opens the duel at once (issue 21, item 7)
        page.click("#mg-duel-here")
    assert "/play/conquests/?slot=" in opened.value.url
    opened.value.close()  # the test plays it from a scripted position, through the panel's link
    play_duel(console, context, base_url, "", shots=True)
    # the console took the first win by itself and set the second duel up
    expect(page.locator("#mg-duel-title")).to_have_text("Duel (second game): The Game of Conquests")
    expect(page.locator("#shell-log li").last).to_contain_text("played here")
    expect(page.locator("#shell-log li").last).to_contain_text("Ann wins the first game")
    page.screenshot(path=f"{SHOTS}/duel-panel-second-1280.png", full_page=False)
    play_duel(console, context, base_url, " (second game)")
    expect(page.locator("#shell-log li").last).to_contain_text("takes Bob's capital")
    expect(page.locator("#mg-duel")).to_have_count(0)
    # the campaign's link carries both duels; verify replays them
    save = page.evaluate(
        "() => { const id = new URLSearchParams(location.search).get('slot');"
        " return localStorage.getItem('conquest:slot:' + id); }"
    )
    save = json.loads(save)
    save.pop("slot", None)
    duels = [x for x in save["log"] if x.startswith("da:conquests:")]
    assert len(duels) == 2
    out = io.StringIO()
    assert run_verify("#" + make_fragment({k: save[k] for k in ("v", "game", "options", "log")}), out=out) == 0
    assert out.getvalue().count("duel replayed") == 2, out.getvalue()
    assert capital
    console.assert_clean()


def test_duel_by_link_plays_one_side_per_copy_and_the_host_pastes_the_result(open_page, context, base_url) -> None:
    """By link: each copy plays one side; the finished link pasted into the console decides."""
    link, _ = capital_duel_link()
    console = open_page(link)
    page = console.page
    page.click("#mg-duel-link")
    url = page.locator("#mg-duel-url").input_value()
    assert "/play/conquests/?as=0#h=" in url
    expect(page.locator("#mg-duel")).to_contain_text("Send this link to Ann, who moves first")
    shots_at_two_widths(page, f"{SHOTS}/duel-panel-link", "#mg-duel")
    # the players' links, from the scripted position (as the console's link, one move from the end)
    from conquest.savecode import decode_save

    save = decode_save(url.split("#h=", 1)[1])
    save["options"]["position"] = WHITE_MATES
    frag = make_fragment(save, "h")
    # Bob's copy refuses White's move and says why
    bob = context.new_page()
    bw = watch(bob, base_url)
    bob.goto(f"{base_url}play/conquests/?as=1#{frag}")
    bw.wait_engine()
    bob.wait_for_selector("#shell-game:not([hidden])")
    expect(bob.locator("#shell-prompt")).to_contain_text("Ann")
    expect(bob.locator("#shell-seat-note")).to_contain_text("This copy plays for Bob. It is Ann's move")
    bob.click("#cq-sq-f4")
    bob.click("#cq-sq-a4")
    expect(bob.locator("#shell-toast")).to_contain_text("This copy plays for Bob; it is Ann's move")
    assert bob.locator("#cq-moves code").count() == 0
    bw.assert_clean()
    bob.close()
    # Ann's copy plays the winning move; its link goes back to the host
    ann = context.new_page()
    aw = watch(ann, base_url)
    ann.goto(f"{base_url}play/conquests/?as=0#{frag}")
    aw.wait_engine()
    ann.wait_for_selector("#shell-game:not([hidden])")
    ann.click("#cq-sq-f4")
    ann.click("#cq-sq-a4")
    ann.wait_for_function("document.querySelectorAll('#cq-moves code').length === 1")
    expect(ann.locator("#shell-copy-seat")).to_have_text("Copy the link for Bob")
    expect(ann.locator("#shell-seat-note")).to_contain_text("The game is over")
    finished = ann.locator("#shell-host-url").inner_text()
    aw.assert_clean()
    ann.close()
    page.bring_to_front()
    page.fill("#mg-duel-paste", finished)
    page.click("#mg-duel-take")
    expect(page.locator("#shell-log li").last).to_contain_text("Ann wins the first game")
    expect(page.locator("#mg-duel-title")).to_have_text("Duel (second game): The Game of Conquests")
    expect(page.locator("#mg-duel-url")).to_be_visible()  # the second duel is set up by link too
    console.assert_clean()
