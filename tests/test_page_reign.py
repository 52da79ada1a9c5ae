"""The To Reign Supreme page in CPython: set-up, clicks, the secret battle, hand-over, the bot.

Why here and not only in the browser: every handler and renderer of ``site/games/reign/``
is plain Python on the shell, so the secret step's guarantees (the first person's choice is
nowhere on screen, in the save or in a link while the second chooses) and the reveal's
arithmetic are checked exactly, fast, with :class:`page_host.FakeHost`.
"""
from __future__ import annotations

import json

from page_host import FakeHost, make_page, render_all
from reign import ReignPage, icon
from shell import Shell
from ui import Event, Node, find, find_all, fire, text, to_html

from conquest.games.reign import GAME
from conquest.games.reign.actions import Part, Reveal
from conquest.rng import Rng
from conquest.savecode import parse_fragment
from conquest.session import Match

HOSTILE = "<img src=x onerror=alert(1)>"
#: a dealt layout, row by row: Weapons Workshop, Iron Mine, Soldier Training Grounds on top
#: (Ann's side), The Citadel, Agricultural Lands, Merchant Harbour below (Bob's side)
LAYOUT = "Lwmscah"
#: Ann Develops the Workshop (now Controlled, next to the Citadel) and attacks the Citadel;
#: Bob, who could pay to Restructure, fights as he stands
TO_BATTLE = [LAYOUT, "tAB/AB", "dw", "bc", "p"]


def fields(**over: str) -> dict[str, str]:
    out = {
        "title": "Evening game",
        "seat-count": "2",
        "seat-name-0": "Ann", "seat-colour-0": "#e69f00", "seat-who-0": "human",
        "seat-name-1": "Bob", "seat-colour-1": "#56b4e9", "seat-who-1": "Heuristic",
        "setup": "easy",
    }
    out.update(over)
    return out


def opened(log: list[str], names: tuple[str, str] = ("Ann", "Bob")) -> tuple[Shell, ReignPage, FakeHost]:
    """A hot-seat game (two people: no roles recorded) at the end of ``log``."""
    shell, page, host = make_page(ReignPage)
    assert isinstance(page, ReignPage)
    match = Match(GAME, {"setup": "easy", "players": list(names), "seed": 0}, log, rng=Rng(3))
    slot = host.store.create(match.save().to_json(), "test", host.now())
    shell.open(match, slot)
    return shell, page, host


def stage(shell: Shell) -> Node:
    return render_all(shell)["rg-stage"]


def everything(shell: Shell) -> str:
    """All HTML the page would show, plus the save and both links."""
    trees = render_all(shell)
    s = shell.session
    assert s is not None
    links = s.links("http://x/")
    saves = [json.dumps(s.save())] + [json.dumps(parse_fragment(links[m].split("#", 1)[1])[1]) for m in "hv"]
    return "".join(to_html(t) for t in trees.values()) + "".join(saves)


def test_setup_to_a_game_and_a_develop_by_click() -> None:
    shell, page, host = make_page(ReignPage)
    s = shell.start(fields(setup="challenging"))
    assert s is not None and shell.message is None
    assert s.match.options["setup"] == "challenging"
    assert [x.who for x in s.seats()] == ["human", "Heuristic"]
    assert s.match.options["seats"][1] == {"colour": "#56b4e9", "bot": "Heuristic"}  # in every link
    # Ann picks her tracker cards by clicks (and a key), the bot answers through the runner
    fire(stage(shell), "[data-card=C]")
    assert page.on_key(Event(type="keydown", key="4"))
    assert "Shield Wall" not in text(find(stage(shell), "#rg-pick-summary"))
    fire(stage(shell), "#rg-pick-go")
    assert 0 in s.secret_parts and s.match.log[-1].startswith("L")
    while shell.bots.step(1000):
        pass
    assert s.match.log[-1].startswith("tCD/")
    board = render_all(shell)["rg-board"]
    # the 2x3 grid, the values with their symbols, and the challenging side tags
    cards = find_all(board, ".rg-card")
    assert len(cards) == 6 and "nobody's side" in text(cards[1])
    assert find_all(board, "svg.rg-coin title") and "coins" in to_html(find(board, "svg.rg-coin"))
    develop = [b for b in find_all(board, "button") if b.attrs.get("data-action", "").startswith("d")]
    assert develop
    code = develop[0].attrs["data-action"]
    fire(board, f"[data-action={code}]")
    assert s.match.log[-1] == code
    place = s.match.state.place_of(GAME.rules.territory_index(code[1]))
    assert s.match.state.ladder[place] == 3
    card = find(render_all(shell)["rg-board"], f"[data-place={place}]")
    assert "Controlled by Ann" in card.attrs["aria-label"] and "is-controlled" in card.attrs["class"]
    # undo of an open step goes back to Ann's move
    shell.bar.undo()
    assert s.match.log[-1].startswith("t")


def test_a_battle_with_card_and_purchases_totals_live_then_the_reveal() -> None:
    shell, page, _ = opened(TO_BATTLE)
    s = shell.session
    assert s is not None and s.match.state.phase == "battle"
    shell.handover.ready(0)
    st = stage(shell)
    assert st.attrs["data-act"] == "battle"
    # Ann: Military 4 after Resupply; the hand is C, D, E
    fire(st, "[data-card=C]")  # Cavalry Charge: attack 3, defence 1, damage 4
    totals = find(stage(shell), "#rg-totals")
    assert text(find(totals, "[data-total=attack]")).strip() == "Attack 7"
    fire(stage(shell), "[data-buy=s+]")  # a Sellsword: +1 attack, +1 defence, 1 coin
    fire(stage(shell), "[data-buy=b+]")  # a Bribe: +1 attack, +1 damage, 1 coin
    totals = find(stage(shell), "#rg-totals")
    assert text(find(totals, "[data-total=attack]")).strip() == "Attack 9"
    assert text(find(totals, "[data-total=defence]")).strip() == "Defence 2"
    # the new Control of the Workshop counts from the end of the turn (R11): no bolt yet
    assert text(find(totals, "[data-total=damage]")).strip() == "Damage 5"
    assert text(find(totals, "[data-total=cost]")).strip() == "Cost 2 coins"
    # Ann's 2 Wealth is spent: every + is disabled, and a second Bribe is refused in words
    assert all(b.attrs.get("disabled") == "" for b in find_all(stage(shell), "[data-buy]")
               if b.attrs["data-buy"].endswith("+"))
    page.battle.buy(0, 3, 1)
    assert shell.message is not None and "Not enough Wealth" in shell.message[1]
    fire(stage(shell), "[data-buy=b-]")
    assert text(find(stage(shell), "[data-total=cost]")).strip() == "Cost 1 coin"
    fire(stage(shell), "[data-buy=b+]")
    fire(stage(shell), "#rg-battle-go")
    assert s.secret_parts == {0: Part("C", "s1b1")}
    # hot-seat: Bob must take the device; nothing of Ann's choice is drawn, saved or linked
    assert s.needs_handover() == 1
    assert page.battle.card is None and page.battle.counts == [0, 0, 0, 0]
    html = everything(shell)
    assert "s1b1" not in html and "Cavalry Charge" not in text(stage(shell))
    assert "Pass to Bob" in text(render_all(shell)["shell-handover"])
    fire(render_all(shell)["shell-handover"], "#shell-ready")
    st = stage(shell)
    assert st.attrs["data-act"] == "battle" and "Bob: you defend The Citadel" in text(st)
    html = everything(shell)
    assert "s1b1" not in html and "Sellsword" not in text(find(stage(shell), "#rg-totals"))
    fire(st, "[data-card=D]")  # Shield Wall: 2 / 5 / 1
    fire(stage(shell), "[data-buy=a+]")
    assert text(find(stage(shell), "[data-total=defence]")).strip() == "Defence 6"
    fire(stage(shell), "#rg-battle-go")
    assert s.match.log[-1] == "Cs1b1/Da1"
    # the reveal: both sides' sums, term by term, agree with the engine's report
    rep = s.match.state.last
    assert rep is not None
    shell.handover.ready(0)
    reveal = find(stage(shell), "#rg-reveal")
    for seat in (0, 1):
        for key, got in (("attack", rep.attack), ("defence", rep.defence), ("damage", rep.damage),
                         ("casualties", rep.casualties)):
            assert text(find(reveal, f"[data-total={key}-{seat}]")).split()[-1] == str(got[seat])
        assert text(find(reveal, f"[data-total=earned-{seat}]")).split()[-1] == str(rep.earned[seat])
    words = text(reveal)
    assert "Attack 9 = 4 Military + 3 Cavalry Charge + 1 (1 Sellsword) + 1 (1 Bribe)" in words
    assert "Ann wins by" in words and "The Citadel" in text(find(reveal, "#rg-reveal-ladder"))
    assert f"{rep.steps} steps on the ladder" in words
    assert reveal.tag == "section"  # news until a person acts


def test_the_first_choice_never_reaches_a_save_or_link_of_a_bot_game() -> None:
    shell, page, host = make_page(ReignPage)
    s = shell.start(fields())
    assert s is not None
    # replay Ann's scripted start into this game (the deal was drawn at random)
    seats = [{"name": "Ann"}, {"name": "Bob", "bot": "Heuristic"}]
    match = Match(GAME, {"setup": "easy", "seats": seats, "seed": 0}, TO_BATTLE, rng=Rng(1))
    shell.open(match, host.store.get(str(s.slot_id)))
    s = shell.session
    assert s is not None and s.seats()[1].is_bot and s.viewer() == 0 and s.needs_handover() is None
    fire(stage(shell), "[data-card=E]")
    fire(stage(shell), "[data-buy=m+]")
    fire(stage(shell), "[data-buy=a+]")
    fire(stage(shell), "#rg-battle-go")
    assert s.secret_parts == {0: Part("E", "m1a1")}
    assert "m1a1" not in everything(shell)
    assert "has chosen" in text(stage(shell))
    while shell.bots.step(1000):  # the bot's part, then whatever it plays after the reveal
        pass
    assert s.match.log[len(TO_BATTLE)].startswith("Em1a1/")  # the reveal holds both parts


def test_a_whole_game_against_the_bot_through_the_runner() -> None:
    shell, page, _ = make_page(ReignPage)
    s = shell.start(fields(**{"seat-who-1": "Random"}))
    assert s is not None
    battles = 0
    for _ in range(3000):
        if s.match.state.phase == "over":
            break
        if shell.bots.step(1000):
            continue
        assert page.me() == 0, s.match.log[-3:]
        st = stage(shell)
        act = st.attrs["data-act"]
        if act == "pick":
            fire(st, "[data-card=D]")
            fire(stage(shell), "[data-card=E]")
            fire(stage(shell), "#rg-pick-go")
        elif act == "battle":
            battles += 1
            fire(st, ".rg-sc")
            if s.match.state.players[0].wealth >= 1:
                fire(stage(shell), "[data-buy=s+]")
            fire(stage(shell), "#rg-battle-go")
        elif act == "respond":
            fire(st, "#rg-fight")
        else:
            board = render_all(shell)["rg-board"]
            acts = [b.attrs["data-action"] for b in find_all(board, "button") if "data-action" in b.attrs]
            pick = next((a for a in acts if a[0] in "bd"), None) or next((a for a in acts if a == "o"), None)
            if pick is not None:
                fire(board, f"[data-action={pick}]")
            else:
                fire(board, "#rg-end")
    assert s.match.state.phase == "over", s.match.log[-6:]
    assert battles >= 1
    words = text(stage(shell))
    assert stage(shell).attrs["data-act"] == "over" and "wins: Controls all six" in words
    assert any(isinstance(GAME.parse_action(x), Reveal) for x in s.match.log)


def test_hostile_names_stay_text_and_icons_have_words() -> None:
    shell, page, _ = make_page(ReignPage)
    s = shell.start(fields(**{"seat-name-0": HOSTILE[:24], "seat-name-1": "Bob"}))
    assert s is not None, shell.message
    fire(stage(shell), "[data-card=A]")
    fire(stage(shell), "[data-card=B]")
    fire(stage(shell), "#rg-pick-go")
    while shell.bots.step(1000):
        pass
    for tree in render_all(shell).values():
        assert "<img" not in to_html(tree)
        assert not find_all(tree, "img")
    assert HOSTILE[:24] in text(render_all(shell)["rg-side"])
    for kind in ("coin", "sword", "heart", "bolt"):
        node = icon(kind)
        assert node.attrs["role"] == "img" and node.attrs["aria-label"] and text(find(node, "title"))


def test_roles_survive_a_reopen_and_a_branch_and_refusals_are_messages() -> None:
    shell, page, host = make_page(ReignPage)
    s = shell.start(fields())
    assert s is not None
    slot = host.store.get(str(s.slot_id))
    match = Match(GAME, s.match.options, list(s.match.log), rng=Rng(1))
    page2_shell, page2, _ = make_page(ReignPage, host)
    page2_shell.open(match, slot)
    assert page2_shell.session is not None and page2_shell.session.seats()[1].who == "Heuristic"
    # two people: no handover needed before the first Ready is asked
    hot, hp, _ = opened([LAYOUT])
    assert hot.session is not None and hot.session.needs_handover() == 0
    assert render_all(hot)["rg-stage"].attrs["data-act"] == "wait"
    hot.handover.ready(0)
    fire(stage(hot), "#rg-pick-go")  # nothing picked yet
    assert hot.message and "two cards" in hot.message[1]
    hp.setup_pick.toggle(0, "A")
    hp.setup_pick.toggle(0, "B")
    hp.setup_pick.toggle(0, "C")  # a third replaces the first
    assert hp.setup_pick.picks == ["B", "C"]
    assert shell.start(fields(setup="sideways")) is None and shell.message is not None
    assert "setup" in shell.message[1]


def test_prompts_labels_and_the_respond_step() -> None:
    shell, page, _ = opened(TO_BATTLE[:-1])
    s = shell.session
    assert s is not None and s.match.state.phase == "respond"
    shell.handover.ready(1)
    view = s.view()
    assert "Restructure" in page.prompt(view)
    st = stage(shell)
    assert st.attrs["data-act"] == "respond"
    assert find_all(st, "[data-action^=x]") or find_all(st, "button")
    fire(st, "#rg-fight")
    assert s.match.state.phase == "battle"
    assert "chooses a card" in page.prompt(s.view())
    assert page.log_label(s.match.states[0]) == "Set-up" and page.log_label(s.match.states[-1]) == "Turn 1"
    # a battle key picks the card at that place; a key out of range is not used
    shell.handover.ready(0)
    assert page.on_key(Event(type="keydown", key="1")) and page.battle.card == "C"
    assert not page.on_key(Event(type="keydown", key="9"))
    assert not page.on_key(Event(type="keydown", key="x"))
    fire(stage(shell), "#rg-battle-go")
    fire(render_all(shell)["shell-handover"], "#shell-ready")
    fire(stage(shell), "[data-card=E]")
    fire(stage(shell), "#rg-battle-go")
    assert isinstance(GAME.parse_action(s.match.log[-1]), Reveal)
    # the game goes on: the reveal is news until a person acts, then a closed summary
    seat = s.acting_seat()
    assert seat is not None
    shell.handover.ready(seat)
    assert find(stage(shell), "#rg-reveal").tag == "section"
    fire(render_all(shell)["rg-board"], "#rg-end")
    assert s.acting_seat() == 1 - seat
    shell.handover.ready(1 - seat)
    old = find(stage(shell), "#rg-reveal")
    assert old.tag == "details" and "Last battle" in text(find(old, "summary"))
    assert "turn" in page.prompt(s.view())


def test_reallocate_rearranges_any_influenced_cards_in_one_action() -> None:
    """R5: "pick up any Influenced territory cards and rearrange them as you desire", one
    action: tapped swaps build a draft (nothing played), Start again drops it, the confirm
    plays the whole arrangement as one Reallocate at one price."""
    shell, page, _ = opened([LAYOUT, "tAB/AB"])
    s = shell.session
    assert s is not None
    assert s.needs_handover() is None  # two people, no roles: Ann plays at once
    board = render_all(shell)["rg-board"]
    panel = find(board, "#rg-realloc")
    assert "Reallocate (2 coins, one action)" in text(panel)
    assert [b.attrs["data-place"] for b in find_all(panel, "button.rg-place")] == ["0", "1", "2", "3", "4", "5"]
    assert "disabled" in find(panel, "#rg-realloc-go").attrs
    log = list(s.match.log)
    # the Workshop (Ann's) goes where the Citadel (Bob's) lies, the Citadel to the Iron Mine's
    # place, the Iron Mine to the Workshop's: three cards round, which two swaps make
    fire(render_all(shell)["rg-board"], "#rg-realloc [data-place='0']")
    held = find(render_all(shell)["rg-board"], "#rg-realloc [data-place='0']")
    assert held.attrs["aria-pressed"] == "true" and "picked up" in held.attrs["aria-label"]
    fire(render_all(shell)["rg-board"], "#rg-realloc [data-place='3']")
    fire(render_all(shell)["rg-board"], "#rg-realloc [data-place='1']")
    fire(render_all(shell)["rg-board"], "#rg-realloc [data-place='0']")
    assert s.match.log == log  # a draft only
    panel = find(render_all(shell)["rg-board"], "#rg-realloc")
    assert text(find(panel, "[data-place='0']")).startswith("Weapons Workshop's place: Iron Mine")
    assert text(find(panel, "#rg-realloc-summary")) == (
        "The draft: the Iron Mine to the Weapons Workshop's place, The Citadel to the Iron Mine's place, "
        "the Weapons Workshop to The Citadel's place."
    )
    assert text(find(panel, "#rg-realloc-go")) == "Reallocate: move 3 cards (2 coins)"
    # Start again drops the draft; a draft of the same layout cannot be played
    fire(panel, "#rg-realloc-reset")
    assert page.reallocation.arrangement is None and "disabled" in find(render_all(shell)["rg-board"], "#rg-realloc-go").attrs
    page.reallocation.confirm(0)
    assert shell.message and "R5" in shell.message[1] and s.match.log == log
    for q in ("0", "3", "1", "0"):
        fire(render_all(shell)["rg-board"], f"#rg-realloc [data-place='{q}']")
    wealth = s.match.state.players[0].wealth
    fire(render_all(shell)["rg-board"], "#rg-realloc-go")
    assert s.match.log == [*log, "Rmcswah"]
    st = s.match.state
    assert st.players[0].wealth == wealth - GAME.rules.reallocate.value and st.actions_left == 1
    assert [GAME.rules.territories[t].code for t in st.layout] == list("mcswah")
    assert st.ladder == (2, 2, 2, 1, 1, 1)  # each place keeps who Influences it
    assert page.reallocation.arrangement is None  # the draft went with the step
