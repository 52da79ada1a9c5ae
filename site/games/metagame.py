"""The Conquest Metagame host console: DOM events -> engine actions, engine view -> DOM/SVG.

Why thin: every rule, number and eligibility comes from :mod:`conquest.games.metagame`
(``GAME.view``, ``slice_report``); this module only draws it and turns clicks into action
texts. The map is rendered at build time into the page; here it is only recoloured.

The host's copy is the editable one (M3): a slot opened from a view link is read-only.
Spins are drawn by :class:`conquest.session.Match` with ``Rng(None)`` (crypto randomness in
the browser); the wheel's animation then turns to the drawn slice, it never decides it.
"""

from __future__ import annotations

import math
from typing import Any

import frame
import js  # type: ignore[import-not-found]
from frame import append, clear, el, on
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from conquest.core import GameError, InvalidOptions
from conquest.games.metagame import GAME, canonical_allocs, slice_report
from conquest.games.metagame.actions import format_alloc
from conquest.games.metagame.engine import PALETTE
from conquest.games.metagame.view import builtin_games
from conquest.rng import Rng
from conquest.session import Match
from conquest.store import StorageError

document = frame.document
SVG_NS = "http://www.w3.org/2000/svg"
WHEEL_COLOURS = (
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#e15759",
    "#76b7b2",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)

match: Match | None = None
slot_id: str | None = None
read_only = False
draft: dict[int, int] = {}  # the slice assignment being edited
picked: set[int] = set()  # territories picked for a sacrifice or block
wheel_turn = 0.0  # degrees the wheel has turned so far (animations continue from there)
last_spin_shown = -1  # log length at the last animated spin


def byid(name: str) -> Any:
    return document.getElementById(name)


def svg(tag: str, **attrs: Any) -> Any:
    node = document.createElementNS(SVG_NS, tag)
    for key, value in attrs.items():
        node.setAttribute(key.rstrip("_").replace("_", "-"), str(value))
    return node


# -- set-up form -------------------------------------------------------------------------
def add_player_row(name: str = "", colour: str | None = None) -> None:
    rows = byid("mg-player-rows")
    n = rows.children.length
    if n >= 8:
        frame.show_error("M2: at most 8 players.")
        return
    row = el("div", cls="player-row")
    name_in = el(
        "input",
        type="text",
        value=name or f"Player {n + 1}",
        maxlength="40",
        aria_label=f"Name of player {n + 1}",
    )
    colour_in = el(
        "input",
        type="color",
        value=colour or PALETTE[n % len(PALETTE)],
        aria_label=f"Colour of player {n + 1}",
    )
    up = el("button", "↑", type="button", cls="small", aria_label="Move up")
    remove = el("button", "Remove", type="button", cls="small")
    on(
        up,
        "click",
        lambda ev, r=row: r.previousElementSibling and rows.insertBefore(r, r.previousElementSibling),
    )
    on(
        remove,
        "click",
        lambda ev, r=row: (
            r.remove() if rows.children.length > 2 else frame.show_error("M2: at least 2 players.")
        ),
    )
    append(rows, append(row, name_in, colour_in, up, remove))


def setup_form() -> None:
    for _ in range(3):
        add_player_row()
    box = byid("mg-builtin-games")
    for gid, title in sorted(builtin_games().items()):
        label = el("label")
        append(
            label,
            el("input", type="checkbox", value=gid, checked=True, cls="mg-builtin"),
            el("span", f" {title}"),
        )
        append(box, label, el("br"))
    on(byid("mg-add-player"), "click", lambda ev: add_player_row())
    on(
        byid("mg-pool-unlimited"),
        "change",
        lambda ev: setattr(byid("mg-pool-size"), "disabled", bool(byid("mg-pool-unlimited").checked)),
    )
    on(byid("mg-setup-form"), "submit", start_campaign)


def start_campaign(ev: Any) -> None:
    global match, slot_id, read_only
    ev.preventDefault()
    players = []
    for row in byid("mg-player-rows").children:
        inputs = row.querySelectorAll("input")
        players.append({"name": str(inputs.item(0).value), "colour": str(inputs.item(1).value)})
    games = [str(c.value) for c in document.querySelectorAll(".mg-builtin") if c.checked]
    games += [line.strip() for line in str(byid("mg-typed-games").value).splitlines() if line.strip()]
    options: dict[str, Any] = {"players": players, "games": games, "map": str(byid("mg-map-id").value)}
    title = " ".join(str(byid("mg-title").value).split())[:80]
    if title:
        options["title"] = title
    if not byid("mg-pool-unlimited").checked:
        try:
            options["token_pool"] = int(str(byid("mg-pool-size").value))
        except ValueError:
            frame.show_error("M15: the pool size must be a whole number.")
            return
    try:
        match = Match(GAME, options, rng=Rng(None))
    except InvalidOptions as exc:
        frame.show_error(exc.message)
        return
    frame.clear_banners()
    read_only = False
    try:
        slot = frame.store().create(match.save().to_json(), title or "Conquest Metagame", frame.now())
        slot_id = slot.id
        js.history.replaceState(js.history.state, "", f"?slot={slot.id}")
    except StorageError as exc:
        frame.show_error(str(exc))
    show_console()


# -- playing -----------------------------------------------------------------------------
def play(text: str) -> None:
    """Play an action text; a refusal shows the engine's reason and changes nothing."""
    if match is None or read_only:
        return
    try:
        match.play(text)
    except GameError as exc:
        frame.show_error(exc.message)
        return
    frame.clear_banners()
    draft.clear()
    picked.clear()
    autosave()
    render()


def undo(ev: Any = None) -> None:
    global last_spin_shown
    if match is None or read_only or not match.log:
        return
    match.undo()
    draft.clear()
    picked.clear()
    last_spin_shown = len(match.log)
    autosave()
    render()


def autosave() -> None:
    if match is None or slot_id is None or read_only:
        return
    try:
        frame.store().autosave(slot_id, match.save().to_json(), frame.now())
    except StorageError as exc:
        frame.show_error(str(exc))


def on_territory(ev: Any) -> None:
    target = ev.target.closest(".territory") if ev.target is not None else None
    if target is None or match is None:
        return
    if getattr(ev, "type", "") == "keydown" and str(ev.key) not in ("Enter", " "):
        return
    if getattr(ev, "type", "") == "keydown":
        ev.preventDefault()
    t = int(str(target.dataset.index))
    view = GAME.view(match.state, None)
    elig = view["eligible"]
    if read_only or elig is None or t not in elig["territories"]:
        name = match.state.board.names[t]
        owner = match.state.owner[t]
        who = "neutral" if owner < 0 else match.state.players[owner].name
        frame.show_notice(f"{name}: {who}. It is not a choice for this step.")
        return
    kind = elig["kind"]
    if kind == "capital":
        play(f"k{t}")
    elif kind == "capital_override":
        play(f"k{t}!")
    elif kind == "turn":
        play(f"c{t}" if t in elig["claim"] else f"i{t}")
    elif kind in ("sacrifice", "block"):
        picked.symmetric_difference_update({t})
        render()
    elif kind == "respin":
        play(f"x{t}")
    elif kind == "gift":
        play(f"g{t}")


# -- rendering ---------------------------------------------------------------------------
def render() -> None:
    if match is None:
        return
    state = match.state
    view = GAME.view(state, None)
    byid("mg-prompt").textContent = view["prompt"] if not read_only else "Read-only view. " + view["prompt"]
    if view["outcome"] is not None:
        names = ", ".join(view["players"][w]["name"] for w in view["outcome"]["winners"])
        reason = {
            "last": "one player is left",
            "majority": "a player holds more than 75% of the map",
            "agreement": "the host recorded a mutual agreement",
        }.get(view["ended"], view["ended"])
        byid("mg-prompt").textContent = f"The campaign is over: {reason}. Most territories: {names} (M16)."
    render_map(state, view)
    render_players(view)
    render_actions(state, view)
    render_invasion(state, view)
    render_log()
    render_links()
    render_tools(state)
    byid("mg-undo").disabled = read_only or not match.log


def render_map(state: Any, view: dict[str, Any]) -> None:
    colours = [p["colour"] for p in view["players"]]
    elig = set(view["eligible"]["territories"]) if view["eligible"] and not read_only else set()
    inv = view["invasion"]
    sac = set()
    if inv:
        sac = set(inv["sacrificed"]["territories"]) | set(inv["blocked"]["territories"])
    for t, owner in enumerate(state.owner):
        node = byid(f"mg-t{t}")
        if node is None:
            continue
        if owner >= 0:
            node.style.setProperty("--owner-fill", colours[owner])
        else:
            node.style.removeProperty("--owner-fill")
        cls = node.classList
        cls.toggle("is-eligible", t in elig)
        cls.toggle("is-target", bool(inv) and inv["target"] == t)
        cls.toggle("is-picked", t in picked)
        cls.toggle("is-sacrificed", t in sac and owner < 0)
        who = "neutral" if owner < 0 else view["players"][owner]["name"]
        node.setAttribute("aria-label", f"{state.board.names[t]}, {who}{', selectable' if t in elig else ''}")
    marks = byid("mg-marks")
    if marks is None:
        return
    clear(marks)
    for p in view["players"]:
        if p["capital"] is None:
            continue
        label_node = byid(f"mg-l{p['capital']}")
        if label_node is None:
            continue
        cx, cy = float(label_node.getAttribute("x")), float(label_node.getAttribute("y"))
        star = svg("polygon", points=star_points(cx, cy - 11, 6.5))
        star.setAttribute("class", "cap-mark")
        append(marks, star)
        tokens = " ".join(
            part
            for part in (f"B{p['block']}" if p["block"] else "", f"R{p['respin']}" if p["respin"] else "")
            if part
        )
        if tokens:
            label = svg("text", x=cx, y=cy + 10, font_size=7, text_anchor="middle")
            label.setAttribute("class", "tok-mark")
            label.textContent = tokens
            append(marks, label)


def star_points(cx: float, cy: float, r: float) -> str:
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append(f"{cx + rad * math.cos(a):.1f},{cy + rad * math.sin(a):.1f}")
    return " ".join(pts)


def render_players(view: dict[str, Any]) -> None:
    body = byid("mg-players").querySelector("tbody")
    clear(body)
    for p in view["players"]:
        row = el("tr")
        if p["seat"] == view["current"] and view["phase"] in ("turn", "capital"):
            row.classList.add("is-current")
        if not p["alive"]:
            row.classList.add("is-out")
        sw = el("span", cls="swatch")
        sw.style.background = p["colour"]
        cap = "" if p["capital"] is None else " ★"
        append(
            row,
            append(el("td", cls="sw"), sw),
            el("td", p["name"] + cap),
            el("td", f"{p['territories']} ({p['share']}%)"),
            el("td", str(p["block"])),
            el("td", str(p["respin"])),
        )
        append(body, row)
    pool = view["pool"]
    note = (
        "unlimited"
        if pool["size"] is None
        else f"{pool['block_free']} block, {pool['respin_free']} re-spin left"
    )
    byid("mg-players").querySelector(
        "caption"
    ).textContent = (
        f"Players · turn {view['turn']} · {view['majority']} territories end the game · pool: {note}"
    )


def button(label: str, text: str, secondary: bool = False) -> Any:
    b = el("button", label, type="button", cls="secondary" if secondary else None, data_action=text)
    b.disabled = read_only
    on(b, "click", lambda ev, t=text: play(t))
    return b


def render_actions(state: Any, view: dict[str, Any]) -> None:
    box = byid("mg-actions")
    clear(box)
    if read_only or view["outcome"] is not None:
        return
    ph, inv = view["phase"], view["invasion"]
    if ph == "turn":
        append(box, button("Pass (M5)", "p", True))
    elif ph == "sacrifice":
        n = len(picked)
        b = button(f"Sacrifice {n} selected", "s" + (".".join(map(str, sorted(picked))) if picked else "-"))
        b.disabled = n == 0
        append(box, b, button("No sacrifice", "s-", True))
    elif ph == "block":
        s = len(inv["sacrificed"]["territories"])
        b = button(
            f"Block: sacrifice {len(picked)} of {s} selected",
            "b" + (".".join(map(str, sorted(picked))) if picked else "-"),
        )
        b.disabled = len(picked) != s
        append(box, b, button("Do not block", "b-", True))
    elif ph == "spin":
        append(box, button("Spin the wheel", "spin"))
    elif ph in ("respin_a", "respin_d"):
        append(box, button("Keep the result", "x-", True))
        append(box, el("span", "or click a highlighted territory to spend it and re-spin (M11)", cls="muted"))
    elif ph == "duel":
        a = view["players"][inv["attacker"]]["name"]
        d = view["players"][inv["defender"]]["name"]
        append(box, button(f"{a} (attacker) won", "da"), button(f"{d} (defender) won", "dd"))
        chosen = inv.get("chosen_game")
        if chosen and chosen["builtin"]:
            link = el(
                "a",
                f"Play {view['games'][chosen['game']]['title']} here",
                href=frame.page_url(f"play/{chosen['name']}/"),
                target="_blank",
                rel="noopener",
                cls="button secondary",
            )
            append(box, link)


def render_invasion(state: Any, view: dict[str, Any]) -> None:
    box = byid("mg-invasion")
    clear(box)
    inv = view["invasion"]
    if inv is None:
        return
    pl = view["players"]
    head = el(
        "h3",
        f"{pl[inv['attacker']]['name']} invades {inv['target_name']} of {pl[inv['defender']]['name']}"
        + (" (capital)" if inv["capital"] else ""),
    )
    lst = el("ul", cls="mg-numbers")
    for line in inv["explain"]:
        append(lst, el("li", line))
    append(box, head, lst)
    if view["phase"] in ("slices_a", "slices_d") and not read_only:
        render_slice_editor(box, state, view)
    if inv["wheel"]:
        render_wheel(box, state, view)


def render_slice_editor(box: Any, state: Any, view: dict[str, Any]) -> None:
    rep = slice_report(state, draft)
    pl_name = view["players"][view["invasion"]["attacker" if rep["side"] == "a" else "defender"]]["name"]
    append(box, el("h4", f"{pl_name}'s slices: exactly {rep['z']}, at most {rep['cap']} per game"))
    table = el("table", cls="mg-slices")
    for g in view["games"]:
        i = g["index"]
        n = draft.get(i, 0)
        minus = el("button", "−", type="button", cls="small", aria_label=f"One slice less for {g['name']}")
        plus = el("button", "+", type="button", cls="small", aria_label=f"One slice more for {g['name']}")
        on(minus, "click", lambda ev, i=i: bump(i, -1))
        on(plus, "click", lambda ev, i=i: bump(i, 1))
        append(
            table,
            append(
                el("tr"),
                el("td", g["name"]),
                append(el("td"), minus),
                el("td", str(n), cls="n"),
                append(el("td"), plus),
            ),
        )
    append(box, table)
    for msg in rep["messages"]:
        append(box, el("p", msg, cls="mg-msg " + ("ok" if rep["ok"] else "bad")))
    alloc = tuple(sorted((g, n) for g, n in draft.items() if n > 0))
    assign = button("Assign these slices", "w" + format_alloc(alloc) if alloc else "w")
    assign.disabled = not rep["ok"]
    quick = el("button", "Fill for me", type="button", cls="secondary")
    on(quick, "click", lambda ev: fill_draft(state, rep))
    append(box, append(el("div", cls="mg-actions"), assign, quick))


def bump(game: int, delta: int) -> None:
    n = max(0, draft.get(game, 0) + delta)
    if n:
        draft[game] = n
    else:
        draft.pop(game, None)
    render()


def fill_draft(state: Any, rep: dict[str, Any]) -> None:
    offers = canonical_allocs(rep["z"], rep["cap"], len(state.games))
    if offers:
        draft.clear()
        draft.update(dict(offers[-1]))
    render()


def render_wheel(box: Any, state: Any, view: dict[str, Any]) -> None:
    """The wheel as SVG: X slices coloured by game; it turns so the drawn slice ends under the pointer."""
    global wheel_turn, last_spin_shown
    inv = view["invasion"]
    x = inv["numbers"]["X"]
    wrap = el("div", cls="mg-wheel-box")
    wheel = svg("svg", viewBox="0 0 200 210", role="img", aria_label=f"The wheel: {x} slices")
    wheel.setAttribute("class", "mg-wheel")
    spinner = svg("g")
    spinner.setAttribute("class", "spinner")
    step = 360.0 / x
    k = 0
    for seg in inv["wheel"]:
        colour = WHEEL_COLOURS[seg["game"] % len(WHEEL_COLOURS)]
        for _ in range(seg["count"]):
            append(
                spinner,
                svg(
                    "path",
                    d=slice_path(k * step, (k + 1) * step),
                    fill=colour,
                    stroke="#fff",
                    stroke_width=0.6 if x < 120 else 0.2,
                ),
            )
            k += 1
        mid = math.radians((seg["start"] + seg["count"] / 2) * step - 90)
        if seg["count"] * step >= 14:
            t = svg(
                "text",
                x=100 + 62 * math.cos(mid),
                y=100 + 62 * math.sin(mid),
                font_size=8,
                text_anchor="middle",
                dominant_baseline="central",
                fill="#fff",
            )
            t.textContent = seg["name"][:14]
            append(spinner, t)
    append(wheel, spinner, svg("polygon", points="100,14 94,0 106,0", fill="#111"))
    append(wrap, wheel)
    append(box, wrap)
    lst = el("ul", cls="mg-wheel-list")
    for seg in inv["wheel"]:
        pct = round(100 * seg["count"] / x, 1)
        append(
            lst,
            el(
                "li",
                f"{seg['name']}: {seg['count']} of {x} slices ({pct}%): "
                f"attacker {seg['a']}, defender {seg['d']}",
            ),
        )
    append(box, lst)
    if inv["spins"]:
        k = inv["spins"][-1]["slice"]
        # the drawn slice's centre must end under the pointer at the top: turn by -(k + 0.5) * step
        final = (-(k + 0.5) * step) % 360
        if match is not None and len(match.log) != last_spin_shown:
            start = wheel_turn
            wheel_turn = start - (start % 360) + 360 * 5 + final
            last_spin_shown = len(match.log)
            spinner.style.transform = f"rotate({start}deg)"
            end = f"rotate({wheel_turn}deg)"
            js.setTimeout(create_proxy(lambda: setattr(spinner.style, "transform", end)), 30)
        else:
            wheel_turn = wheel_turn - (wheel_turn % 360) + final
            spinner.style.transform = f"rotate({wheel_turn}deg)"
        names = ", ".join(f"slice {s['slice'] + 1}: {s['name']}" for s in inv["spins"])
        append(box, el("p", f"Drawn: {names} (M10).", cls="mg-msg"))


def slice_path(a0: float, a1: float) -> str:
    r = 92.0
    p0 = (100 + r * math.sin(math.radians(a0)), 100 - r * math.cos(math.radians(a0)))
    p1 = (100 + r * math.sin(math.radians(a1)), 100 - r * math.cos(math.radians(a1)))
    large = 1 if a1 - a0 > 180 else 0
    if a1 - a0 >= 359.99:
        return "M100,8 A92,92 0 1 1 99.99,8 Z"
    return f"M100,100 L{p0[0]:.2f},{p0[1]:.2f} A{r},{r} 0 {large} 1 {p1[0]:.2f},{p1[1]:.2f} Z"


def render_log() -> None:
    assert match is not None
    box = byid("mg-log")
    clear(box)
    for i, text in enumerate(match.log):
        try:
            line = GAME.describe_action(match.states[i], GAME.parse_action(text))
        except GameError:
            line = text
        item = el("li", line + " ")
        append(item, el("code", text))
        append(box, item)
    box.scrollTop = box.scrollHeight


def page_base() -> str:
    """This page's address without query or fragment (a link must not carry our slot id)."""
    return f"{js.location.origin}{js.location.pathname}"


def render_links() -> None:
    assert match is not None
    save = match.save().to_json()
    for mode, key in (("h", "host"), ("v", "view")):
        url = frame.link_for(save, mode, page_base())
        byid(f"mg-{key}-url").textContent = url
        warn = (
            " — longer than chat apps allow (about 2,000); send the file instead" if len(url) > 2000 else ""
        )
        byid(f"mg-{key}-len").textContent = f"{len(url):,} characters{warn}"
    byid("mg-copy-host").hidden = read_only


def render_tools(state: Any) -> None:
    tools = byid("mg-tools")
    tools.hidden = read_only
    if read_only:
        return
    players = [(str(i), p.name) for i, p in enumerate(state.players)]
    fill_select(byid("mg-fix-t"), [(str(t), n) for t, n in enumerate(state.board.names)])
    fill_select(byid("mg-fix-p"), [("-", "neutral")] + players)
    fill_select(byid("mg-fix-cp"), players)
    fill_select(
        byid("mg-fix-ct"), [("-", "no capital")] + [(str(t), n) for t, n in enumerate(state.board.names)]
    )
    fill_select(byid("mg-fix-tp"), players)


def fill_select(sel: Any, options: list[tuple[str, str]]) -> None:
    if sel.options.length == len(options):
        return
    keep = str(sel.value)
    clear(sel)
    for value, label in options:
        append(sel, el("option", label, value=value))
    sel.value = keep or options[0][0]


def show_console() -> None:
    byid("mg-setup").hidden = True
    byid("mg-console").hidden = False
    byid("mg-readonly").hidden = not read_only
    byid("mg-typed").hidden = read_only
    render()


def wire_console() -> None:
    terr = byid("mg-territories")
    if terr is not None:
        on(terr, "click", on_territory)
        on(terr, "keydown", on_territory)
    on(byid("mg-undo"), "click", undo)

    def typed(ev: Any) -> None:
        ev.preventDefault()
        text = str(byid("mg-typed-text").value).strip()
        if text:
            play(text)
            byid("mg-typed-text").value = ""

    on(byid("mg-typed"), "submit", typed)
    on(
        byid("mg-fix-owner"),
        "submit",
        lambda ev: (ev.preventDefault(), play(f"!o{byid('mg-fix-t').value}={byid('mg-fix-p').value}")),
    )
    on(
        byid("mg-fix-capital"),
        "submit",
        lambda ev: (ev.preventDefault(), play(f"!k{byid('mg-fix-cp').value}={byid('mg-fix-ct').value}")),
    )
    on(
        byid("mg-fix-tokens"),
        "submit",
        lambda ev: (
            ev.preventDefault(),
            play(f"!t{byid('mg-fix-tp').value}{byid('mg-fix-tk').value}={byid('mg-fix-tn').value or 0}"),
        ),
    )
    on(
        byid("mg-agree"),
        "click",
        lambda ev: js.confirm("End the campaign by mutual agreement (M16)?") and play("!end"),
    )

    async def copy(mode: str) -> None:
        if match is None:
            return
        ok = await frame.copy_text(frame.link_for(match.save().to_json(), mode, page_base()))
        frame.show_notice(
            "Link copied." if ok else "Copying failed: select the link text and copy it by hand."
        )

    on(byid("mg-copy-host"), "click", lambda ev: copy("h"))
    on(byid("mg-copy-view"), "click", lambda ev: copy("v"))


def boot() -> None:
    global match, slot_id, read_only, last_spin_shown
    setup_form()
    wire_console()
    incoming = frame.take_fragment()
    params = js.URLSearchParams.new(js.location.search)
    if incoming is not None:
        mode, save = incoming
        if save["game"] != GAME.id:
            frame.show_error(f"That link holds a game of {save['game']!r}; open it from the home page.")
        else:
            try:
                slot, match = frame.open_incoming(mode, save)
            except Exception as exc:  # SaveCodeError: the message is for people
                frame.show_error(str(exc))
                slot = None
            if match is not None:
                match.rng = Rng(None)
                slot_id = slot.id if slot is not None else None
                read_only = mode == "view" or (slot is not None and slot.mode == "view")
                if slot is not None:
                    js.history.replaceState(js.history.state, "", f"?slot={slot.id}")
    elif params.get("slot"):
        sid = str(params.get("slot"))
        try:
            slot = frame.store().get(sid)
            save = frame.store().open(sid)
            match = frame.check_save(save)
            match.rng = Rng(None)
            slot_id, read_only = slot.id, slot.mode == "view"
        except Exception as exc:
            frame.show_error(str(exc))
            match = None
    if match is not None:
        last_spin_shown = len(match.log)
        show_console()
    frame.ready()


boot()
