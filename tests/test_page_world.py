"""The World Conquest page's logic in CPython (the browser test keeps the glue and a game).

Drives ``site/games/world.py`` through the shell with a fake host: the set-up's own fields,
the claim and the reinforcements by picks on the map and in the Choose list, an attack with
the exact odds on screen and the dice drawn from the log's roll, attack until done and until
N left, a card trade, a fortify, the defender's dice choice, games of bots through
``Shell.bots.step``, undo, a read-only copy, and hostile names kept as text. Positions later in
a game are reached by letting the engine's Rule-based bot play every seat from a fixed seed,
then opened in the page as a link would open them.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from page_host import FakeHost, make_page, render_all
from shell import Shell
from ui import Node, find, find_all, fire, text, to_html
from world import WorldPage
from world.board import ink_on
from world.panel import pct

from conquest.games.world import GAME
from conquest.games.world import odds as world_odds
from conquest.games.world.actions import Attack, Blitz, Fortify, Roll, Trade
from conquest.games.world.bots import RuleBot
from conquest.games.world.rules import RULES
from conquest.rng import Rng
from conquest.session import Match

HOSTILE = "<img src=x onerror=alert(1)>"
SEATS = [
    {"name": "Ann", "colour": "#e69f00"},
    {"name": "Bob", "colour": "#56b4e9", "bot": "Rule-based"},
    {"name": "Cy", "colour": "#009e73", "bot": "Rule-based"},
]


def fields(**over: str) -> dict[str, str]:
    out = {
        "title": "World night",
        "seat-count": "3",
        "seat-name-0": "Ann", "seat-colour-0": "#e69f00", "seat-who-0": "human",
        "seat-name-1": "Bob", "seat-colour-1": "#56b4e9", "seat-who-1": "Rule-based",
        "seat-name-2": "Cy", "seat-colour-2": "#009e73", "seat-who-2": "Rule-based",
        "order": "fixed",
    }
    out.update(over)
    return out


def started(**over: str) -> tuple[Shell, WorldPage, FakeHost]:
    shell, page, host = make_page(WorldPage)
    assert isinstance(page, WorldPage)
    assert shell.start(fields(**over)) is not None, shell.message
    return shell, page, host


def think(bot: RuleBot, state: Any) -> Any:
    gen = bot.think(GAME, state)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def position(want: Callable[[Any], bool], seed: int = 1, seats: list[dict[str, str]] | None = None,
             **opts: Any) -> Match:
    """A game played by the Rule-based bot in every seat until ``want(state)``."""
    options = {"seats": seats or SEATS, "order": "fixed", "deal": True, **opts}
    m = Match(GAME, options, rng=Rng(seed))
    m.resolve_chance()
    bot = RuleBot(Rng(seed))
    for _ in range(5000):
        if want(m.state):
            return m
        assert m.state.phase != "over", "the game ended before the position was reached"
        m.play(think(bot, m.state))
    raise AssertionError("position not reached")


def opened(m: Match) -> tuple[Shell, WorldPage, FakeHost]:
    shell, page, host = make_page(WorldPage)
    assert isinstance(page, WorldPage)
    shell.open(m, None)
    return shell, page, host


def ann_attacking(st: Any) -> bool:
    """Ann's attack stage, with a source that has 4+ troops next to an enemy and a friend."""
    if st.phase != "attack" or st.current != 0 or st.turn < 4:
        return False
    return any(st.troops[s] >= 4 and any(st.owner[d] != 0 for d in RULES.adj[s])
               and any(st.owner[d] == 0 for d in RULES.adj[s]) for s in st.territories_of(0))


def strong_source(st: Any) -> tuple[int, int, int]:
    """(source, an enemy neighbour, an own neighbour) with the most troops at the source."""
    s = max((s for s in st.territories_of(0) if st.troops[s] >= 4
             and any(st.owner[d] != 0 for d in RULES.adj[s]) and any(st.owner[d] == 0 for d in RULES.adj[s])),
            key=lambda s: st.troops[s])
    enemy = next(d for d in RULES.adj[s] if st.owner[d] != 0)
    friend = next(d for d in RULES.adj[s] if st.owner[d] == 0)
    return s, enemy, friend


def html_of(trees: dict[str, Node]) -> str:
    return "".join(to_html(t) for t in trees.values())


def bots(shell: Shell, limit: int = 4000) -> None:
    for _ in range(limit):
        if shell.session.bot_to_act() is None:
            return
        shell.bots.step(1000)
    raise AssertionError("the bots never stopped")


# -- set-up ----------------------------------------------------------------------------------------
def test_the_setup_fields_become_the_engines_options() -> None:
    shell, page, _ = started(**{"deal": "on", "defender-choice": "on", "order": "random"})
    opts = shell.session.match.options
    assert opts.get("deal") is True and opts.get("defender_choice") is True and "order" not in opts
    assert [s["name"] for s in opts["seats"]] == ["Ann", "Bob", "Cy"]
    assert opts["seats"][1]["bot"] == "Rule-based" and opts["title"] == "World night"
    # the seat order and the deal were drawn when the game opened (chance steps in the log)
    assert shell.session.match.log[0].startswith("O") and shell.session.match.log[1].startswith("D")
    _, _, _ = started()
    plain = started()[0].session.match.options
    assert plain.get("order") == "fixed" and "deal" not in plain and "defender_choice" not in plain


def test_a_refused_setup_names_the_field() -> None:
    shell, _, _ = make_page(WorldPage)
    assert shell.start(fields(**{"seat-count": "2"})) is None
    assert "seat-count" in shell.field_errors


def test_claiming_by_picks_on_the_map_and_in_the_choose_list() -> None:
    shell, page, _ = started()
    s = shell.session
    assert s.match.state.phase == "claim" and s.acting_seat() == 0
    trees = render_all(shell)
    assert "claim an empty territory" in text(trees["shell-bar"])
    paint = page.paint(s.view())
    assert paint["wc-map"]["class"]["has-choices"] is True
    assert all(paint[f"wc-t{t}"]["class"]["is-eligible"] for t in range(RULES.size))
    options = find_all(trees["wc-choose"], "option")
    assert len(options) == RULES.size and text(options[0]).startswith("Afghanistan (empty")
    page.pick(0)  # Alaska, then both bots claim
    bots(shell)
    st = s.match.state
    assert st.owner[0] == 0 and st.troops[0] == 1 and sum(o >= 0 for o in st.owner) == 3
    # the Choose list is the same pick (keyboard, small screens)
    free = next(t for t in range(RULES.size) if st.owner[t] < 0)
    trees = render_all(shell)
    fire(trees["wc-choose"], "#wc-choose-form", "submit", fields={"t": str(free)})
    assert s.match.state.owner[free] == 0
    # a taken territory is refused with words, and nothing is played
    bots(shell)
    n = len(s.match.log)
    page.pick(0)
    assert len(s.match.log) == n and "Pick an empty territory" in shell.message[1]
    # the badges show every held territory's troops in the owner's colour
    marks = render_all(shell)["wc-marks"]
    badge = find(marks, "[data-t=0]")
    assert find(badge, "circle").attrs["fill"] == "#e69f00" and text(badge) == "1"


def test_placing_reinforcements_with_an_amount_and_undo() -> None:
    m = position(lambda st: st.phase == "reinforce" and st.current == 0 and st.hand_size(0) < 3 and st.pool >= 4)
    shell, page, host = opened(m)
    s = shell.session
    st = s.match.state
    pool, mine = st.pool, st.territories_of(0)
    trees = render_all(shell)
    assert f"place {pool} troops" in text(trees["shell-bar"])
    assert find(trees["wc-panel"], "#wc-place-n").attrs["value"] == str(pool)
    fire(trees["wc-panel"], "#wc-place-n", "change", value="2")
    t = mine[0]
    before = st.troops[t]
    page.pick(t)
    assert s.match.state.troops[t] == before + 2 and s.match.state.pool == pool - 2
    # undo takes back the placement, which drew no dice
    fire(render_all(shell)["shell-bar"], "#shell-undo")
    assert s.match.state.troops[t] == before and s.match.state.pool == pool
    assert shell.message[1] == "Took back the last step."
    # "One" and "All"
    fire(render_all(shell)["wc-panel"], "#wc-place-one")
    page.pick(t)
    assert s.match.state.pool == pool - 1
    fire(render_all(shell)["wc-panel"], "#wc-place-all")
    page.pick(mine[1])
    assert s.match.state.phase == "attack"


def test_reinforcements_only_go_on_own_territories() -> None:
    m = position(lambda st: st.phase == "reinforce" and st.current == 0 and st.hand_size(0) < 3)
    shell, page, _ = opened(m)
    st = shell.session.match.state
    n = len(st.territories_of(0))
    page.pick(next(t for t in range(RULES.size) if st.owner[t] != 0))
    assert len(shell.session.match.log) == len(m.log) and "your own territories" in shell.message[1]
    assert len(page.draft.choices(st)) == n


def test_an_attack_with_the_odds_shown_and_the_dice_drawn() -> None:
    m = position(ann_attacking)
    shell, page, _ = opened(m)
    s = shell.session
    st = s.match.state
    src, enemy, friend = strong_source(st)
    assert "pick your territory to attack" in text(render_all(shell)["shell-bar"])
    page.pick(src)
    trees = render_all(shell)
    # every possible attack from the source with its exact chance (attacking until done)
    for d in page.draft.enemy_targets(st, src):
        want = pct(world_odds.battle_odds(st.troops[src], st.troops[d], 1).win)
        assert text(find(trees["wc-panel"], f"[data-odds={d}]")) == want
        assert text(find(trees["wc-marks"], f"[data-odds={d}]")) == want
    lit = page.paint(s.view())
    assert lit[f"wc-t{enemy}"]["class"]["is-eligible"] and lit[f"wc-t{friend}"]["class"]["is-eligible"]
    assert lit[f"wc-t{src}"]["class"]["is-source"]
    assert page.paint(s.view()) == {}  # nothing changed: nothing is sent to the map again
    page.pick(enemy)
    trees = render_all(shell)
    a, d = st.troops[src], st.troops[enemy]
    assert f"attack {RULES.names[enemy]}" in text(trees["shell-bar"])
    # one roll: dice and the troops to move in stated before rolling, with this roll's odds
    fire(trees["wc-panel"], "#wc-dice-1")
    trees = render_all(shell)
    assert find(trees["wc-panel"], "#wc-dice-1").attrs["aria-pressed"] == "true"
    one = world_odds.roll_odds(1, min(2, d))
    rows = [text(li) for li in find_all(trees["wc-panel"], "#wc-rollodds li")]
    assert len(rows) == len(one) and all(pct(p) in " ".join(rows) for p in one.values())
    fire(trees["wc-panel"], "#wc-dice-2")
    fire(trees["wc-panel"], "#wc-move", "change", value="3")
    trees = render_all(shell)
    assert find(trees["wc-panel"], "#wc-move").attrs["value"] == "3"
    assert text(find(trees["wc-panel"], "#wc-blitz-odds")) == pct(world_odds.battle_odds(a, d, 1).win)
    fire(trees["wc-panel"], "#wc-roll")
    log = s.match.log
    roll = next(x for x in reversed(log) if x.startswith("R"))
    assert str(Attack(src, enemy, 2, 3)) in log
    faces = GAME.parse_action(roll)
    assert isinstance(faces, Roll)
    dice = render_all(shell)["wc-dice"]
    drawn = [int(g.attrs["data-face"]) for g in find_all(dice, "g.wc-die-att")]
    assert drawn == list(faces.attack)
    assert [int(g.attrs["data-face"]) for g in find_all(dice, "g.wc-die-def")] == list(faces.defend)
    assert len(find_all(dice, "circle.pip")) == sum(faces.attack) + sum(faces.defend)
    assert f"Last roll: {RULES.names[src]} → {RULES.names[enemy]}" in text(dice)


def test_attack_until_done_and_until_n_left() -> None:
    m = position(ann_attacking, seed=2)
    shell, page, _ = opened(m)
    s = shell.session
    st = s.match.state
    src, enemy, _ = strong_source(st)
    page.pick(src)
    page.pick(enemy)
    trees = render_all(shell)
    fire(trees["wc-panel"], "#wc-until", "change", value="3")
    trees = render_all(shell)
    want = pct(world_odds.battle_odds(st.troops[src], st.troops[enemy], 3).win)
    assert text(find(trees["wc-panel"], "#wc-until-odds")) == want
    fire(trees["wc-panel"], "#wc-until-go")
    assert str(Blitz(src, enemy, 3)) in s.match.log
    after = s.match.state
    assert after.phase == "attack" and (after.owner[enemy] == 0 or after.troops[src] <= 3)
    # attack until done from the largest source left
    srcs = [x for x in page.draft.sources(after) if page.draft.enemy_targets(after, x)]
    x = max(srcs, key=lambda t: after.troops[t])
    y = page.draft.enemy_targets(after, x)[0]
    page.draft.src, page.draft.dst = None, None
    page.pick(x)
    page.pick(y)
    n = len(s.match.log)
    fire(render_all(shell)["wc-panel"], "#wc-blitz")
    added = s.match.log[n:]
    assert added[0] == str(Blitz(x, y)) and all(t.startswith("R") for t in added[1:]) and len(added) >= 2
    end = s.match.state
    assert end.owner[y] == 0 or end.troops[x] == 1
    if end.owner[y] == 0 and page.draft.src is not None:  # the attack may go on from the conquest
        assert page.draft.src == y


def test_a_card_trade() -> None:
    m = position(lambda st: st.phase == "reinforce" and st.current == 0 and st.hand_size(0) >= 3 and st.turn > 3)
    shell, page, _ = opened(m)
    s = shell.session
    st = s.match.state
    value = RULES.trade_value(st.trades)
    trees = render_all(shell)
    hand = find_all(trees["wc-cards"], "li.wc-card")
    assert len(hand) == st.hand_size(0)
    assert f"Next trade: {value} troops" in text(trees["wc-cards"])
    sets = s.view()["sets"]
    assert sets
    button = find(trees["wc-cards"], f"#wc-trade-{sets[0]}")
    assert "disabled" not in button.attrs and f"for {value}" in text(button)
    pool = st.pool
    fire(trees["wc-cards"], f"#wc-trade-{sets[0]}")
    after = s.match.state
    assert str(Trade(sets[0])) in s.match.log and after.trades == st.trades + 1
    assert after.pool == pool + value and after.hand_size(0) == st.hand_size(0) - 3


def test_must_trade_with_five_cards() -> None:
    m = position(lambda st: st.phase == "reinforce" and st.current == 0 and st.hand_size(0) >= 5, seed=1)
    shell, page, _ = opened(m)
    st = shell.session.match.state
    trees = render_all(shell)
    assert "trade a set" in text(trees["shell-bar"]) and find(trees["wc-panel"], ".wc-must")
    assert page.draft.choices(st) == []
    page.pick(st.territories_of(0)[0])
    assert shell.message[0] == "error" and "trade a set first" in shell.message[1]


def test_a_fortify_ends_the_turn() -> None:
    m = position(ann_attacking, seed=3)
    shell, page, _ = opened(m)
    s = shell.session
    st = s.match.state
    src, _, friend = strong_source(st)
    page.pick(src)
    page.pick(friend)
    trees = render_all(shell)
    assert "move troops to" in text(trees["shell-bar"])
    assert find(trees["wc-panel"], "#wc-amount").attrs["value"] == str(st.troops[src] - 1)
    fire(trees["wc-panel"], "#wc-amount", "change", value="2")
    fire(render_all(shell)["wc-panel"], "#wc-fortify")
    assert str(Fortify(src, friend, 2)) in s.match.log
    after = s.match.states[s.match.log.index(str(Fortify(src, friend, 2))) + 1]
    assert after.troops[friend] == st.troops[friend] + 2 and after.troops[src] == st.troops[src] - 2
    assert s.match.state.current != 0 or s.match.state.turn > st.turn


def test_picks_that_do_not_fit_say_why_and_escape_drops_the_choice() -> None:
    m = position(ann_attacking, seed=3)
    shell, page, _ = opened(m)
    st = shell.session.match.state
    src, enemy, _ = strong_source(st)
    page.pick(enemy)
    assert "First pick your territory" in shell.message[1]
    weak = next((t for t in st.territories_of(0) if st.troops[t] == 1), None)
    if weak is not None:
        page.pick(weak)
        assert "at least 2 troops" in shell.message[1]
    page.pick(src)
    far = next(t for t in range(RULES.size) if st.owner[t] != 0 and t not in RULES.adjset[src])
    page.pick(far)
    assert "does not border" in shell.message[1]
    page.pick(src)  # the source again: dropped
    assert page.draft.src is None
    page.pick(src)
    page.pick(enemy)
    fire(render_all(shell)["wc-panel"], "#wc-cancel")
    assert page.draft.src is None
    page.pick(src)
    from ui import Event

    assert page.on_key(Event(type="keydown", key="Escape")) is True and page.draft.src is None
    assert page.on_key(Event(type="keydown", key="Escape")) is False
    # end the turn
    fire(render_all(shell)["wc-panel"], "#wc-end")
    assert "e" in shell.session.match.log


def test_the_defender_chooses_dice_when_the_option_is_on() -> None:
    seats = [{"name": "Ann", "colour": "#e69f00"}, {"name": "Bob", "colour": "#56b4e9"},
             {"name": "Cy", "colour": "#009e73", "bot": "Rule-based"}]
    m = position(lambda st: st.phase == "defend" and st.owner[st.battle.dst] == 0 and st.troops[st.battle.dst] >= 2,
                 seed=4, seats=seats, defender_choice=True)
    shell, page, _ = opened(m)
    s = shell.session
    # two people at one device with secret hands: the shell asks to pass the device first
    trees = render_all(shell)
    assert find(trees["shell-handover"], "#shell-ready")
    fire(trees["shell-handover"], "#shell-ready")
    trees = render_all(shell)
    assert "choose your dice to defend" in text(trees["shell-bar"])
    assert find(trees["wc-panel"], "#wc-defend-2")
    fire(trees["wc-panel"], "#wc-defend-1")
    assert s.match.log[-2] == "d1"
    roll = GAME.parse_action(s.match.log[-1])
    assert isinstance(roll, Roll) and len(roll.defend) == 1


def test_bots_play_a_whole_game_through_the_shells_runner() -> None:
    shell, page, _ = started(**{
        "seat-who-0": "Rule-based", "seat-who-1": "Random", "seat-who-2": "Rule-based", "deal": "on",
    })
    s = shell.session
    bots(shell, limit=20000)
    assert s.match.state.phase == "over"
    trees = render_all(shell)
    assert find(trees["wc-panel"], ".wc-win")
    assert "wins" in text(trees["wc-panel"])
    names, pts = shell.chart.stats_series()
    assert names == ["Territories", "Troops", "Luck"] and pts[-1][0] == s.match.state.turn
    assert len(find_all(trees["shell-chart"], "svg.shell-chart")) == 3
    assert page.log_label(s.match.states[-2]).startswith("Turn")
    assert page.log_label(s.match.states[0]) == "Set-up"


def test_against_bots_the_person_sees_their_hand_and_the_bots_play_between() -> None:
    shell, page, _ = started(**{"deal": "on"})
    s = shell.session
    for _ in range(300):
        bots(shell)
        st = s.match.state
        if st.phase != "setup":
            break
        page.pick(st.territories_of(0)[0])
    assert s.match.state.phase in ("reinforce", "attack")
    assert s.view()["viewer"] == 0 and s.view()["hand"] is not None


def test_a_read_only_copy_and_an_earlier_step_play_nothing() -> None:
    m = position(ann_attacking)
    shell, page, _ = make_page(WorldPage)
    shell.open(m, None, "view")
    st = m.state
    assert page.draft.choices(st) == []
    n = len(m.log)
    page.pick(st.territories_of(0)[0])
    assert len(m.log) == n and "read-only" in shell.message[1]
    trees = render_all(shell)
    assert "hidden" in trees["wc-choose"].attrs
    assert "Hands are secret" in text(trees["wc-cards"])
    shell2, page2, _ = opened(position(ann_attacking))
    shell2.jump(3)
    assert page2.draft.choices(shell2.session.shown_state()) == []
    trees = render_all(shell2)
    assert "Step 3 of" in text(trees["shell-bar"])


def test_hostile_names_stay_text() -> None:
    shell, page, _ = started(**{"seat-name-0": HOSTILE, "seat-name-1": HOSTILE + "2", "title": HOSTILE,
                                "deal": "on"})
    bots(shell)
    page.pick(42)  # out of range: ignored
    page.pick(shell.session.match.state.territories_of(1)[0])
    html = html_of(render_all(shell))
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert HOSTILE in shell.message[1]  # the message is a text node in the tree
    assert "<img" not in to_html(shell.render_message())
    labels = page.paint(shell.session.view())
    assert any(HOSTILE in p.get("attrs", {}).get("aria-label", "") for p in labels.values())


def test_helpers() -> None:
    assert pct(0) == "0.0%" and pct(1) == "100.0%" and pct(0.0000001) == "<0.1%" and pct(0.99999) == ">99.9%"
    assert ink_on("#f0e442") == "#111" and ink_on("#0072b2") == "#fff" and ink_on("#zzzzzz") == "#111"
    assert WorldPage.chart_points(WorldPage.__new__(WorldPage), []) == []


def test_every_amount_is_set_by_taps_alone() -> None:
    """Issue 21: on a phone the troops to move in, to leave behind and to fortify are set
    with − and + beside their fields (no keyboard), each clamped to what W6/W8 allow."""
    m = position(ann_attacking, seed=3)
    shell, page, _ = opened(m)
    s = shell.session
    st = s.match.state
    src, enemy, friend = strong_source(st)
    a = st.troops[src]
    page.pick(src)
    page.pick(enemy)
    panel = render_all(shell)["wc-panel"]
    dice = int(find(panel, "#wc-move").attrs["value"])
    assert "disabled" in find(panel, "#wc-move-less").attrs  # the dice are the least to move in
    fire(panel, "#wc-move-more")
    fire(render_all(shell)["wc-panel"], "#wc-move-more")
    panel = render_all(shell)["wc-panel"]
    assert find(panel, "#wc-move").attrs["value"] == str(min(dice + 2, a - 1))
    fire(panel, "#wc-move-less")
    assert find(render_all(shell)["wc-panel"], "#wc-move").attrs["value"] == str(min(dice + 1, a - 1))
    fire(render_all(shell)["wc-panel"], "#wc-until-more")
    assert find(render_all(shell)["wc-panel"], "#wc-until").attrs["value"] == str(min(3, a - 1))
    fire(render_all(shell)["wc-panel"], "#wc-roll")
    assert str(Attack(src, enemy, 3 if a > 3 else a - 1, min(dice + 1, a - 1))) in s.match.log
    # the fortify amount: from all but one, one fewer by a tap
    page.draft.cancel()
    st = s.match.state
    assert st.phase == "attack" and st.owner[src] == 0 and st.troops[src] > 2 and st.owner[friend] == 0
    page.pick(src)
    page.pick(friend)
    top = st.troops[src] - 1
    panel = render_all(shell)["wc-panel"]
    assert "disabled" in find(panel, "#wc-amount-more").attrs
    fire(panel, "#wc-amount-less")
    fire(render_all(shell)["wc-panel"], "#wc-fortify")
    assert str(Fortify(src, friend, top - 1)) in s.match.log


# -- issue 41: the newest result and the next decision marked; the random deal by default ---------
def now_marks(trees: dict[str, Node]) -> dict[str, list[str]]:
    """The ids of the page's elements marked ``data-now``, by kind (the shell's trees aside)."""
    out: dict[str, list[str]] = {}
    for key, tree in trees.items():
        if key.startswith("wc-"):
            for n in find_all(tree, "[data-now]"):
                out.setdefault(n.attrs["data-now"], []).append(str(n.attrs.get("id")))
    return out


def test_a_roll_marks_its_dice_first_and_the_battle_next() -> None:
    m = position(ann_attacking)
    shell, page, _ = opened(m)
    st = shell.session.match.state
    src, enemy, _friend = strong_source(st)
    assert now_marks(render_all(shell)) == {"next": ["wc-attack-start"]}  # no step yet: no result
    page.pick(src)
    trees = render_all(shell)
    assert now_marks(trees) == {"next": ["wc-attack-head"]}
    # End the turn is in the source's row at the top, not under the battle and the targets
    head = find(trees["wc-panel"], "#wc-attack-head")
    assert find_all(head, "#wc-end") and find_all(head, "#wc-cancel")
    page.pick(enemy)
    assert now_marks(render_all(shell)) == {"next": ["wc-battle-go"]}
    page.draft.roll()
    trees = render_all(shell)
    marks = now_marks(trees)
    panel = trees["wc-panel"]
    if shell.session.match.state.owner[enemy] == 0:  # taken: from there on
        assert marks["result"] == ["wc-result"] and len(marks["next"]) == 1
    else:
        assert marks == {"result": ["wc-result"], "next": ["wc-battle-go"]}
    # the roll's dice first in the panel, then the controls (issue 41: 1,171 px down before)
    kids = [c for c in panel.children if not isinstance(c, str)]
    assert kids[0].attrs.get("id") == "wc-result"
    assert find_all(kids[0], "#wc-here-svg")
    assert [n.attrs.get("id") for n in find_all(kids[0], "[data-now]")] == ["wc-result"]  # no second mark


def test_reinforcing_marks_the_panel_and_the_step_words_fit_two_lines() -> None:
    m = position(lambda st: st.phase == "reinforce" and st.current == 0 and st.hand_size(0) < 3)
    shell, page, _ = opened(m)
    trees = render_all(shell)
    marks = now_marks(trees)
    assert len(marks["next"]) == 1 and len(marks.get("result", [])) <= 1
    assert "Click your territories" in text(trees["wc-panel"])  # a mouse here; "Tap" on touch
    shell.host.touch = True
    assert "Tap your territories" in text(render_all(shell)["wc-panel"])
    # two lines of the phone's status bar hold about 70 characters with the step number
    longest = max((n for n in RULES.names), key=len)
    page.draft.src = RULES.names.index(longest)
    for prompt in (page.prompt(shell.session.view()),):
        assert len(prompt) <= 70, prompt


def test_the_choose_list_follows_the_current_choice() -> None:
    m = position(ann_attacking)
    shell, page, _ = opened(m)
    st = shell.session.match.state
    src, enemy, _ = strong_source(st)
    first = find(render_all(shell)["wc-choose"], "#wc-choose-t")
    assert first.props["value"] == first.children[0].attrs["value"]  # the list's first, not a stale one
    assert first.attrs["data-map"] == "wc-map"  # the map's zoom and focus set it too (mapboard.js)
    page.pick(src)
    page.pick(enemy)
    assert find(render_all(shell)["wc-choose"], "#wc-choose-t").props["value"] == str(enemy)


def test_map_odds_cover_no_troop_badge() -> None:
    from world.board import BADGE_R, ODDS_HALF

    m = position(ann_attacking)
    shell, page, _ = opened(m)
    st = shell.session.match.state
    src, _, _ = strong_source(st)
    page.pick(src)
    marks = render_all(shell)["wc-marks"]
    badges = [(float(c.attrs["cx"]), float(c.attrs["cy"])) for c in find_all(marks, "circle")]
    covered = 0
    for t in find_all(marks, "text.wc-map-odds"):
        x, y = float(t.attrs["x"]), float(t.attrs["y"])
        covered += any(abs(bx - x) <= ODDS_HALF[0] + BADGE_R and abs(by - y) <= ODDS_HALF[1] + BADGE_R
                       for bx, by in badges)
    assert covered == 0


def test_the_random_deal_is_the_set_up_forms_default() -> None:
    """Issue 41: a quick game deals the territories at random; claiming them one by one stays
    an option (the box cleared)."""
    import re
    from pathlib import Path

    html = (Path(__file__).parent.parent / "site/templates/games/world.html").read_text(encoding="utf-8")
    box = re.search(r'<input type="checkbox" id="wc-deal"[^>]*>', html)
    assert box is not None and " checked" in box.group(0)
    assert started(deal="on")[0].session.match.options.get("deal") is True
    assert "deal" not in started()[0].session.match.options  # cleared: claimed one by one
