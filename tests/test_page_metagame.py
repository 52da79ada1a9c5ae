"""The Metagame console's page logic in CPython (the browser tests keep only the glue).

Drives ``site/games/metagame/`` (the page and its parts) through the shell with a fake host:
set-up fields to a campaign, picks on the map (paints of the build-time SVG), an invasion
with a sacrifice, the slice editor, the spin and its animation bookkeeping, corrections,
presets and the draft kept across a reload, and names from a link kept as text.
"""
from __future__ import annotations

import json

from metagame import MetagamePage
from metagame.draft import DRAFT_KEY, parse_draft
from metagame.setup import PRESETS_KEY, parse_presets
from page_host import FakeHost, make_page, render_all
from ui import find, find_all, fire, text, to_html

from conquest.games.metagame import GAME
from conquest.session import Match

FIELDS = {
    "title": "Friday",
    "seat-count": "3",
    "seat-name-0": "Ann",
    "seat-colour-0": "#e69f00",
    "seat-name-1": "Bob",
    "seat-colour-1": "#56b4e9",
    "seat-name-2": "<i>Cy</i>",
    "seat-colour-2": "#009e73",
    "builtin-conquests": "on",
    "typed-games": "Chess\n<b>Go</b>",
    "pool-unlimited": "on",
}


def started(fields: dict[str, str] | None = None, host: FakeHost | None = None):  # noqa: ANN201
    shell, page, host = make_page(MetagamePage, host)
    assert shell.start(dict(fields or FIELDS)) is not None, shell.message
    return shell, page, host


def eligible(page: MetagamePage) -> list[int]:
    view = page.shell.session.view()
    return [int(k[4:]) for k, v in page.paint(view).items() if v["class"]["is-eligible"]]


def test_setup_starts_a_campaign_in_a_new_slot() -> None:
    shell, page, host = started()
    s = shell.session
    assert s is not None and s.slot_id and host.query == f"?slot={s.slot_id}"
    assert [p.name for p in s.match.state.players] == ["Ann", "Bob", "<i>Cy</i>"]
    assert s.match.state.games == ("conquests", "Chess", "<b>Go</b>")
    assert host.store.get(s.slot_id).name == "Friday"
    assert "pick a capital" in text(render_all(shell)["shell-bar"])


def test_setup_errors_name_their_field() -> None:
    shell, page, host = make_page(MetagamePage)
    bad = dict(FIELDS, **{"seat-colour-1": "#e69f00", "seat-name-2": ""})
    assert shell.start(bad) is None and shell.session is None
    assert set(shell.field_errors) == {"seat-colour-1", "seat-name-2"}
    few = dict(FIELDS, **{"typed-games": ""})
    assert shell.start(few) is None and "M9" in shell.message[1]


def test_capitals_and_claims_by_picks_with_map_paints() -> None:
    shell, page, host = started()
    s = shell.session
    for _ in range(3):
        page.pick(eligible(page)[0])
    assert [a[0] for a in s.match.log] == ["k", "k", "k"]
    view = s.view()
    paints = page.paint(view)
    cap = s.match.state.capital[0]
    assert paints[f"mg-t{cap}"]["style"]["--owner-fill"] == "#e69f00"
    assert "capital" in paints[f"mg-t{cap}"]["attrs"]["aria-label"]
    marks = render_all(shell)["mg-marks"]
    assert len(find_all(marks, ".cap-mark")) == 3
    # a territory that is not a choice says so and changes nothing
    taken = s.match.state.capital[1]
    page.pick(taken)
    assert "must border one of Ann's" in shell.message[1] and len(s.match.log) == 3  # the engine's reason
    # the "Choose" list plays the same pick
    choose = render_all(shell)["mg-side"]
    first = find(choose, "#mg-choose-t").children[0].attrs["value"]
    fire(choose, "#mg-choose", "submit", fields={"t": first})
    assert s.match.log[-1] == f"c{first}"
    # typed actions are parsed by the engine; a refusal quotes the ruling and changes nothing
    fire(render_all(shell)["mg-host-tools"], "#mg-typed", "submit", fields={"text": "i0"})
    assert "M5" in shell.message[1] and len(s.match.log) == 4


def invasion_ready(shell, page):  # noqa: ANN001, ANN201
    """Capitals, then Bob's territory beside Ann's capital, then Ann invades it."""
    s = shell.session
    for _ in range(3):
        page.pick(eligible(page)[0])
    st = s.match.state
    target = st.board.adj[st.capital[0]][0]
    tools = render_all(shell)["mg-host-tools"]
    fire(tools, "#mg-fix-owner", "submit", fields={"t": str(target), "p": "1"})
    assert s.match.log[-1] == f"!o{target}=1"
    page.pick(target)
    assert s.match.log[-1] == f"i{target}"
    return target


def at_spin(shell, page) -> None:  # noqa: ANN001
    """An invasion set up (:func:`invasion_ready`), its sacrifice, block and both sides'
    slices answered, up to the wheel ready to spin."""
    s = shell.session
    invasion_ready(shell, page)
    while s.match.state.phase in ("sacrifice", "block", "slices_a", "slices_d"):
        if s.match.state.phase.startswith("slices"):
            page.draft.fill()
            page.draft.assign()
        else:
            fire(render_all(shell)["mg-side"], "button.secondary")
    assert s.match.state.phase == "spin"


def test_an_invasion_through_the_panel_sacrifice_slices_spin() -> None:
    shell, page, host = started()
    s = shell.session
    invasion_ready(shell, page)
    side = render_all(shell)["mg-side"]
    assert "X = ZA + ZD" in text(find(side, "#mg-invasion"))
    while s.match.state.phase in ("sacrifice", "block"):
        fire(render_all(shell)["mg-side"], "button.secondary")  # no sacrifice / do not block
    # the slice editor: live validation, then "Fill for me" and assign
    for _ in range(2):
        side = render_all(shell)["mg-side"]
        assert find(side, "#mg-assign").attrs.get("disabled") == ""
        fire(side, ".mg-slice-editor button.secondary")  # Fill for me
        side = render_all(shell)["mg-side"]
        assert "ready" in text(find(side, ".mg-slice-msgs"))
        fire(side, "#mg-slice-form", "submit")  # Assign (a submit button: Enter in a count too)
    assert s.match.state.phase == "spin"
    wheel = render_all(shell)["mg-side"]
    x = s.match.state.inv.x
    assert len(find_all(wheel, "path")) == x
    fire(wheel, "#mg-spin")
    assert s.match.log[-1].startswith("r")
    # the wheel turns to the drawn slice; the result shows only once it stops
    tree = render_all(shell)
    assert find(tree["mg-side"], ".mg-drawn").attrs.get("hidden") == ""
    assert "spinning" in text(tree["shell-bar"])
    k = s.match.state.inv.spins[-1] if hasattr(s.match.state.inv, "spins") else None
    host.run_timers()
    tree = render_all(shell)
    assert "hidden" not in find(tree["mg-side"], ".mg-drawn").attrs
    angle = float(find(tree["mg-side"], "#mg-spinner").attrs["style"].split("(")[1].split("deg")[0])
    drawn = GAME.parse_action(s.match.log[-1]).k
    off = (angle + (drawn + 0.5) * 360 / x) % 360
    assert min(off, 360 - off) < 1e-6 and k is not None
    assert "Spin history (1 spin)" in text(tree["mg-spins"])


def test_undo_past_a_spin_keeps_it_in_the_spin_history() -> None:
    shell, page, host = started()
    s = shell.session
    at_spin(shell, page)
    page.controls.spin()
    spun = s.match.log[-1]
    shell.bar.undo()
    assert s.match.state.phase == "spin" and spun not in s.match.log
    spins = text(render_all(shell)["mg-spins"])
    assert spun in spins and "Taken back" in spins
    assert spun in text(render_all(shell)["shell-log-box"])


def test_presets_and_the_draft_survive_a_reload_and_damage_is_ignored() -> None:
    host = FakeHost()
    host.backend.set(PRESETS_KEY, "{not json")
    shell, page, _ = make_page(MetagamePage, host)
    assert page.setup.presets() == []
    page.setup.save("Friday", ["conquests", "Chess"])
    assert json.loads(host.backend.get(PRESETS_KEY))["presets"][0]["name"] == "Friday"
    setup = page.render_setup()["mg-presets"]
    assert "Friday (2 games)" in text(setup)
    page.setup.use("0")
    assert host.set["mg-builtin-conquests"] is True and host.set["mg-typed-games"] == "Chess"
    assert parse_presets('[{"name": 3}]') == []
    # a draft is kept for the slot and step it was made at, and nowhere else
    shell2, page2, _ = started(host=host)
    s = shell2.session
    raw = json.dumps({"slot": s.slot_id, "n": len(s.match.log), "draft": {"0": 2, "x": 1}, "picked": [1, True, 500]})
    assert parse_draft(raw, s.slot_id, len(s.match.log), 3, 100) == ({0: 2}, {1})
    assert parse_draft(raw, "other", len(s.match.log), 3, 100) == ({}, set())
    page2.draft.set_count(1, 3)
    assert json.loads(host.backend.get(DRAFT_KEY))["draft"] == {"1": 3}


def test_names_from_a_link_are_text_in_every_part() -> None:
    shell, page, host = started()
    for _ in range(3):
        page.pick(eligible(page)[0])
    html = "".join(to_html(t) for t in render_all(shell).values())
    assert "<i>Cy</i>" not in html and "&lt;i&gt;Cy&lt;/i&gt;" in html


def test_a_read_only_copy_shows_no_controls() -> None:
    shell, page, host = make_page(MetagamePage)
    m = Match(GAME, {"players": ["Ann", "Bob", "Cy"]})
    shell.open(m, None, "view")
    tree = render_all(shell)
    assert find_all(tree["mg-side"], "button") == []
    assert tree["mg-host-tools"].attrs.get("hidden") == ""
    page.pick(0)
    assert "read-only" in shell.message[1]


def test_the_focus_goes_to_the_control_the_next_step_needs() -> None:
    """Issue 9 item 5: after each step taken here, the keyboard focus moves on (the map,
    the first slice count, Assign after "Fill for me", Spin, then once the wheel stops the
    re-spin or winner buttons); never after typed text, never while the wheel turns."""
    shell, page, host = started()
    s = shell.session

    def focused_after_render() -> str | None:
        host.focused = None
        render_all(shell)
        page.after_render()
        return host.focused

    page.pick(eligible(page)[0])
    assert focused_after_render() == "mg-map"
    for _ in range(2):
        page.pick(eligible(page)[0])
        assert focused_after_render() == "mg-map"
    st = s.match.state
    target = st.board.adj[st.capital[0]][0]
    fire(render_all(shell)["mg-host-tools"], "#mg-typed", "submit", fields={"text": f"!o{target}=1"})
    assert s.match.log[-1] == f"!o{target}=1" and focused_after_render() is None  # typing goes on
    page.pick(target)
    while s.match.state.phase in ("sacrifice", "block"):
        assert focused_after_render() == "mg-map"
        fire(render_all(shell)["mg-side"], "button.secondary")
    for _ in range(2):
        assert focused_after_render() == "mg-count-0"
        side = render_all(shell)["mg-side"]
        assert find(side, "#mg-count-0").attrs.get("id") == "mg-count-0"
        assert all(b.attrs.get("tabindex") == "-1" for b in find_all(side, ".mg-slices button"))
        fire(side, "#mg-fill")
        assert focused_after_render() == "mg-assign"
        fire(render_all(shell)["mg-side"], "#mg-slice-form", "submit")
    assert focused_after_render() == "mg-spin"
    fire(render_all(shell)["mg-side"], "#mg-spin")
    assert focused_after_render() is None  # the wheel turns: nothing to press yet
    assert "spinning" in page.prompt(s.view())  # and the bar does not tell the result early
    host.run_timers()  # it stops
    assert focused_after_render() in ("mg-keep", "mg-won-a")
    # the Choose list starts each option with the territory's name (a letter jumps to it)
    shell2, page2, _ = started()
    labels = [text(o) for o in find_all(render_all(shell2)["mg-side"], "#mg-choose-t option")]
    names = shell2.session.match.state.board.names
    assert labels and all(any(label.startswith(n + ":") for n in names) for label in labels)


def test_non_choices_say_why_and_spending_steps_are_confirmed() -> None:
    """Issue 9 items 6 and 9: a pick that is not a choice gets the engine's reason (without
    its rule code unless codes are shown); sacrifice, block, re-spin and gift ask first, and
    a "no" changes nothing."""
    shell, page, host = started()
    s = shell.session
    page.pick(eligible(page)[0])
    st = s.match.state
    close = next(t for t in range(len(st.owner)) if st.owner[t] < 0 and t not in eligible(page))
    page.pick(close)
    msg = shell.message[1]
    assert "3 or more steps" in msg and "Ann's" in msg and "M4" not in msg, msg
    shell.log.show_codes = True
    page.pick(close)
    assert shell.message[1].count("M4:") == 1
    shell.log.show_codes = False
    for _ in range(2):
        page.pick(eligible(page)[0])
    st = s.match.state
    far = max((t for t in range(len(st.owner)) if st.owner[t] < 0), key=lambda t: st.board.dist[st.capital[0]][t])
    page.pick(far)
    assert "must border one of Ann's" in shell.message[1] and len(s.match.log) == 3
    # Ann invades Bob's territory beside her capital, holding two far territories to sacrifice
    target = st.board.adj[st.capital[0]][0]
    spare = [t for t in range(len(st.owner)) if st.owner[t] < 0 and st.board.dist[target][t] >= 2][:2]
    for text_ in (f"!o{target}=1", f"!o{spare[0]}=0", f"!o{spare[1]}=0", "!t0r=1"):
        shell.play(text_)
    page.pick(target)
    assert s.match.state.phase == "sacrifice"
    page.pick(spare[0])
    page.pick(st.capital[1])  # Bob's capital: not Ann's to sacrifice, and the message says so
    assert "must be Ann's own" in shell.message[1]
    n = len(s.match.log)
    host.confirms = [False]
    fire(render_all(shell)["mg-side"], "#mg-actions button")  # "Sacrifice 1 selected": asked, refused
    assert len(s.match.log) == n and "Ann sacrifices" in host.asked[-1] and "becomes neutral" in host.asked[-1]
    host.confirms = [True]
    fire(render_all(shell)["mg-side"], "#mg-actions button")
    assert s.match.log[-1] == f"s{spare[0]}"
    # the re-spin: spending a token and a territory asks first
    q = page.controls.spend_question(s.match.state, GAME.parse_action(f"x{spare[1]}"))
    assert q is None or "re-spin token" in q
    assert page.controls.spend_question(s.match.state, GAME.parse_action("p")) is None


def test_the_drawn_game_is_announced_large_and_wheel_labels_read_upright() -> None:
    """Issue 9 items 3, 10, 11: the result beside the wheel once it stops (not before), the
    re-spin prompt names the drawn game, labels upright where the wheel rests, tokens earned
    in the log."""
    from metagame.wheel import upright

    for angle in range(0, 360, 15):
        for turn in (0.0, 77.0, 200.0, 1843.5):
            assert not 90 < (upright(angle, turn) + turn) % 360 < 270
    shell, page, host = started()
    s = shell.session
    invasion_ready(shell, page)
    while s.match.state.phase != "spin":
        if s.match.state.phase.startswith("slices"):
            page.draft.fill()
            page.draft.assign()
        else:
            fire(render_all(shell)["mg-side"], "button.secondary")
    page.controls.spin()
    side = render_all(shell)["mg-side"]
    assert "spinning" in text(find(side, "#mg-result"))
    assert not [b for b in find_all(side, "button") if text(b).endswith(") won")]  # not before it stops
    host.run_timers()
    side = render_all(shell)["mg-side"]
    drawn = s.match.state.inv.spins[-1]
    title = page.spins.game_title(s.match.state.games[s.match.state.inv.game_at(drawn)])
    assert text(find(side, ".mg-result-game")) == title
    assert f"slice {drawn + 1} of" in text(find(side, "#mg-result"))
    rotations = [float(t.attrs["transform"].split("(")[1].split()[0]) for t in find_all(side, "#mg-spinner text")]
    assert rotations and all(not 90 < (r + page.wheel.turn) % 360 < 270 for r in rotations)
    if s.match.state.phase in ("respin_a", "respin_d"):
        assert f"Drawn: {title}." in page.prompt(s.view())
        shell.play("x")  # keep
    while s.match.state.phase in ("respin_a", "respin_d"):
        shell.play("x")
    side = render_all(shell)["mg-side"]
    winners = find_all(find(side, "#mg-winners"), "button")  # beside the result
    assert [b.attrs["id"] for b in winners] == ["mg-won-a", "mg-won-d"]
    # a built-in game drawn: how to play it (here, live, by link) is in the result box too,
    # under the drawn game and above the winner buttons, the two marked as the next decision
    # together (issue 41: a phone's walk had to reach both without a swipe)
    ids = [b.attrs.get("id") for b in find_all(find(side, "#mg-result"), "button")]
    if find_all(side, "#mg-duel"):
        assert ids.index("mg-duel-here") < ids.index("mg-won-a")
        assert find_all(find(side, "#mg-decide"), "#mg-duel")
    assert find_all(find(side, "#mg-decide"), "#mg-winners")
    assert find(side, "#mg-decide").attrs.get("data-now") == "next"
    assert find(side, "#mg-result-text").attrs.get("data-now") == "result"
    shell.play("dd")  # the defender wins: she earns a block token, and the log says so
    line = shell.log.lines(len(s.match.log) - 1, len(s.match.log))[-1]
    assert "Bob earns a block token" in str(line), line


def test_counts_agree_with_their_nouns() -> None:
    """Issue 9 item 14: "exactly 1 slice", "up to 1 territory", never "1 slices"."""
    import re

    from test_metagame_structure import _campaign_states

    from conquest.games.metagame.view import counted

    assert counted({"z": 1, "x": 2, "most": 1, "s": 3})["most_territories"] == "1 territory"
    bad = re.compile(r"(?<![\d.,])1 (slices|territories|tokens|steps)\b")
    seen = 0
    for state in _campaign_states(2, 300):
        view = GAME.view(state, None)
        lines = [view["prompt"], *(view["invasion"]["explain"] if view["invasion"] else [])]
        seen += sum(" 1 slice" in x or " 1 territor" in x for x in lines)
        assert not any(bad.search(x) for x in lines), lines
    assert seen  # the campaign met counts of one


def test_a_pick_on_the_map_is_named_beside_the_controls_and_undone_in_one_tap() -> None:
    """Issue 21: a capital (or a claim, an invasion) picked by a tap is said in words at the
    top of the side panel, where the controls are, with an Undo that takes it back at once."""
    shell, page, host = started()
    assert not find_all(render_all(shell)["mg-side"], "#mg-last-pick")  # nothing picked yet
    t = eligible(page)[0]
    page.pick(t)
    s = shell.session
    assert s is not None and s.match.log == [f"k{t}"]
    side = render_all(shell)["mg-side"]
    name = s.match.state.board.names[t]
    assert text(find(side, "#mg-last-pick-text")) == f"Ann's capital: {name} (M4)."
    assert find(side, "#mg-side-inner").children[0].attrs["id"] == "mg-last-pick"  # first, by the map
    fire(side, "#mg-undo-pick")
    assert s.match.log == [] and t not in s.match.state.capital
    assert not find_all(render_all(shell)["mg-side"], "#mg-last-pick")
    # a claim on a turn is named too, by the player who made it
    page.pick(t)
    while s.match.state.phase == "capital":
        page.pick(eligible(page)[0])
    claim = next(u for u in eligible(page) if s.match.state.owner[u] < 0)
    page.pick(claim)
    said = text(find(render_all(shell)["mg-side"], "#mg-last-pick-text"))
    assert said == f"Ann claimed {s.match.state.board.names[claim]} (M5)."
