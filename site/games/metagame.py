"""The Conquest Metagame host console: DOM events -> engine actions, engine view -> DOM/SVG.

Why thin: every rule, number and eligibility comes from :mod:`conquest.games.metagame`
(``GAME.view``, ``slice_report``); this module only draws it and turns clicks, keys and
typed text into action texts. The map is rendered at build time into the page; here it is
only recoloured (``mapview.js`` pans and zooms it and turns a pick into an ``mg-pick`` event).

Modes of the page (all one module):

- host: the editable copy (M3), autosaved to its slot after every step, ``?slot=<id>``;
- view: a slot opened from a view link, read-only;
- audience (``?audience=<slot>``): a second tab the host opens and shares on the video
  call; map and wheel large, no controls, kept in step over a ``BroadcastChannel``;
- "viewing step N": the host or a viewer steps back through the log; the map, the players
  and the invasion show that moment, nothing can be played until "Back to the present".

Storage: the campaign autosaves to its slot after every step (``conquest.store``); the
slice assignment or sacrifice being edited is kept under ``conquest:metagame:draft`` so a
reload resumes it; saved game lists (presets) are JSON under ``conquest:metagame:presets``.
Both are read defensively (anything malformed is ignored). A campaign also travels as a
host link, a read-only view link, or a downloaded file (opened again from the set-up).

``window.conquestBench(saveJson, repeats)`` replays a save inside this page's Pyodide and
returns timings (``bench/metagame_page.py`` drives it); the "Measure" button shows them.

Spins are drawn by :class:`conquest.session.Match` with ``Rng(None)`` (crypto randomness in
the browser); the wheel's animation then turns to the drawn slice, it never decides it.
Everything from a link, a file or storage (player and game names) is put in the page as
text: ``frame.el`` / ``textContent``, and SVG text through ``createElementNS``.
"""

from __future__ import annotations

import json
import math
from typing import Any

import frame
import js  # type: ignore[import-not-found]
from frame import append, clear, el, on
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from conquest.core import GameError, InvalidOptions
from conquest.games.metagame import GAME, canonical_allocs, slice_report
from conquest.games.metagame.actions import format_alloc, parse_action
from conquest.games.metagame.engine import PALETTE, PALETTE_NAMES
from conquest.games.metagame.view import builtin_games
from conquest.rng import Rng
from conquest.savecode import validate_save
from conquest.session import Match
from conquest.store import StorageError

document = frame.document
SVG_NS = "http://www.w3.org/2000/svg"
PRESETS_KEY = "conquest:metagame:presets"
#: the slice assignment or sacrifice being edited, so a reload or a closed tab resumes it too
DRAFT_KEY = "conquest:metagame:draft"
CHANNEL = "conquest:metagame"
CHAT_LIMIT = 2000
MAX_PRESETS = 50
#: wheel colours by game (Okabe-Ito first, then Tableau); the list beside the wheel names them
WHEEL_COLOURS = (
    "#0072b2",
    "#e69f00",
    "#009e73",
    "#cc79a7",
    "#56b4e9",
    "#d55e00",
    "#f0e442",
    "#7f7f7f",
    "#8c564b",
    "#17becf",
)
#: line styles of the chart: colour plus dash, so lines differ without colour too
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "1 2", "12 4", "5 2 1 2")
REASONS = {
    "last": "one player is left",
    "majority": "a player holds more than 75% of the map",
    "agreement": "the host recorded a mutual agreement",
}

match: Match | None = None
slot_id: str | None = None
read_only = False
audience = False
audience_slot: str | None = None
viewing: int | None = None  # log length of the step being looked at; None = the present
draft: dict[int, int] = {}  # the slice assignment being edited
picked: set[int] = set()  # territories picked for a sacrifice or block
wheel_turn = 0.0  # degrees the wheel has turned so far (animations continue from there)
last_spin_shown = -1  # log index of the last spin result whose animation was shown
wheel_cache: dict[str, Any] = {"key": None, "node": None}
log_cache: list[str] = []  # log texts whose lines are in #mg-log
counts_cache: list[tuple[Any, list[int]]] = []  # (state, territories per player), per state
perf: dict[str, float] = {}
render_keys: dict[str, str] = {}  # what the chart and the spin history were last drawn from
channel: Any = None
terr_nodes: list[Any] = []


def byid(name: str) -> Any:
    return document.getElementById(name)


def svg(tag: str, text: str | None = None, **attrs: Any) -> Any:
    """An SVG element; ``text`` goes in as text (never markup)."""
    node = document.createElementNS(SVG_NS, tag)
    for key, value in attrs.items():
        if key == "cls":
            node.setAttribute("class", str(value))
        else:
            node.setAttribute(key.rstrip("_").replace("_", "-"), str(value))
    if text is not None:
        node.textContent = str(text)
    return node


def now_ms() -> float:
    return float(js.performance.now())


def locked() -> bool:
    """Nothing can be played: a view link, the audience tab, or looking at an earlier step."""
    return read_only or audience or viewing is not None


def shown_state() -> Any:
    assert match is not None
    return match.states[viewing] if viewing is not None else match.state


# -- presets of game lists (localStorage, handled defensively) ---------------------------
def load_presets() -> list[dict[str, Any]]:
    """The saved game lists; anything malformed in storage is skipped, never trusted."""
    try:
        raw = js.window.localStorage.getItem(PRESETS_KEY)
    except Exception:
        return []
    if frame.nullish(raw):
        return []
    try:
        obj = json.loads(str(raw))
    except ValueError:
        return []
    items = obj.get("presets") if isinstance(obj, dict) else obj
    out: list[dict[str, Any]] = []
    if not isinstance(items, list):
        return out
    for item in items[:MAX_PRESETS]:
        if not isinstance(item, dict):
            continue
        name, games = item.get("name"), item.get("games")
        if not isinstance(name, str) or not name.strip() or not isinstance(games, list):
            continue
        clean = [" ".join(g.split())[:60] for g in games if isinstance(g, str) and g.strip()][:40]
        if clean:
            out.append({"name": " ".join(name.split())[:40], "games": clean})
    return out


def store_presets(presets: list[dict[str, Any]]) -> bool:
    try:
        js.window.localStorage.setItem(PRESETS_KEY, json.dumps({"v": 1, "presets": presets[:MAX_PRESETS]}))
        return True
    except Exception:
        frame.show_error("The preset could not be saved: this browser's storage is full or disabled.")
        return False


def render_presets() -> None:
    sel = byid("mg-preset")
    clear(sel)
    presets = load_presets()
    append(sel, el("option", "(saved game lists)" if presets else "(no presets yet)", value=""))
    for i, p in enumerate(presets):
        append(sel, el("option", f"{p['name']} ({len(p['games'])} games)", value=str(i)))


def current_games() -> list[str]:
    games = [str(c.value) for c in document.querySelectorAll(".mg-builtin") if c.checked]
    typed_box = str(byid("mg-typed-games").value)
    return games + [line.strip() for line in typed_box.splitlines() if line.strip()]


def save_preset(ev: Any) -> None:
    name = " ".join(str(byid("mg-preset-name").value).split())[:40]
    if not name:
        frame.show_error("Give the preset a name first.")
        return
    games = current_games()
    if not games:
        frame.show_error("The list of games is empty.")
        return
    presets = [p for p in load_presets() if p["name"].casefold() != name.casefold()]
    presets.insert(0, {"name": name, "games": games})
    if store_presets(presets):
        render_presets()
        frame.show_notice(f"Saved the preset “{name}” ({len(games)} games).")


def use_preset(ev: Any) -> None:
    value = str(byid("mg-preset").value)
    presets = load_presets()
    if not value.isdigit() or int(value) >= len(presets):
        frame.show_error("Pick a preset first.")
        return
    games = presets[int(value)]["games"]
    builtins = builtin_games()
    for box in document.querySelectorAll(".mg-builtin"):
        box.checked = str(box.value) in games
    byid("mg-typed-games").value = "\n".join(g for g in games if g not in builtins)
    frame.clear_banners()


def delete_preset(ev: Any) -> None:
    value = str(byid("mg-preset").value)
    presets = load_presets()
    if value.isdigit() and int(value) < len(presets):
        del presets[int(value)]
        store_presets(presets)
        render_presets()


# -- the draft being edited survives a reload ----------------------------------------------
def save_draft() -> None:
    if match is None or slot_id is None or locked():
        return
    obj = {"slot": slot_id, "n": len(match.log), "draft": {str(g): n for g, n in draft.items()}}
    obj["picked"] = sorted(picked)
    try:
        js.window.localStorage.setItem(DRAFT_KEY, json.dumps(obj))
    except Exception:  # storage full or disabled: the draft is only a convenience
        pass


def restore_draft() -> None:
    """Take back the draft saved for this slot at this very step; anything else is ignored."""
    if match is None or slot_id is None:
        return
    try:
        raw = js.window.localStorage.getItem(DRAFT_KEY)
        obj = None if frame.nullish(raw) else json.loads(str(raw))
    except Exception:
        return
    if not isinstance(obj, dict) or obj.get("slot") != slot_id or obj.get("n") != len(match.log):
        return
    games, size = len(match.state.games), len(match.state.owner)
    d, p = obj.get("draft"), obj.get("picked")
    if isinstance(d, dict):
        for g, n in d.items():
            if isinstance(g, str) and g.isdigit() and int(g) < games and isinstance(n, int) and 0 < n < 1000:
                draft[int(g)] = n
    if isinstance(p, list):
        picked.update(t for t in p if isinstance(t, int) and 0 <= t < size)


# -- set-up form -------------------------------------------------------------------------
def colour_select(n: int, colour: str | None) -> Any:
    sel = el("select", aria_label=f"Colour of player {n + 1}", cls="mg-colour")
    chosen = colour or PALETTE[n % len(PALETTE)]
    for hex_, name in zip(PALETTE, PALETTE_NAMES, strict=True):
        opt = el("option", name, value=hex_)
        opt.style.background = hex_
        append(sel, opt)
    sel.value = chosen
    sel.style.borderLeft = f"1.2rem solid {chosen}"
    on(sel, "change", lambda ev, s=sel: setattr(s.style, "borderLeft", f"1.2rem solid {s.value}"))
    return sel


def renumber_rows() -> None:
    for i, row in enumerate(byid("mg-player-rows").children):
        row.querySelector("input").setAttribute("aria-label", f"Name of player {i + 1}")
        row.querySelector("select").setAttribute("aria-label", f"Colour of player {i + 1}")


def add_player_row(name: str = "", colour: str | None = None) -> None:
    rows = byid("mg-player-rows")
    n = rows.children.length
    if n >= 8:
        frame.show_error("M2: at most 8 players.")
        return
    used = {str(s.value) for s in document.querySelectorAll(".mg-colour")}
    if colour is None:
        colour = next((c for c in PALETTE if c not in used), PALETTE[n % len(PALETTE)])
    row = el("div", cls="player-row")
    name_in = el("input", type="text", value=name or f"Player {n + 1}", maxlength="40")
    up = el("button", "↑", type="button", cls="small", aria_label="Earlier in the turn order")
    down = el("button", "↓", type="button", cls="small", aria_label="Later in the turn order")
    remove = el("button", "Remove", type="button", cls="small")

    def move(r: Any, delta: int) -> None:
        if delta < 0 and not frame.nullish(r.previousElementSibling):
            rows.insertBefore(r, r.previousElementSibling)
        elif delta > 0 and not frame.nullish(r.nextElementSibling):
            rows.insertBefore(r.nextElementSibling, r)
        renumber_rows()

    def drop(r: Any) -> None:
        if rows.children.length > 2:
            r.remove()
            renumber_rows()
        else:
            frame.show_error("M2: at least 2 players.")

    on(up, "click", lambda ev, r=row: move(r, -1))
    on(down, "click", lambda ev, r=row: move(r, 1))
    on(remove, "click", lambda ev, r=row: drop(r))
    append(rows, append(row, name_in, colour_select(n, colour), up, down, remove))
    renumber_rows()


def setup_form() -> None:
    for _ in range(3):
        add_player_row()
    box = byid("mg-builtin-games")
    for gid, title in sorted(builtin_games().items()):
        label = el("label")
        append(
            label,
            el("input", type="checkbox", value=gid, checked=True, cls="mg-builtin"),
            el("span", f" {title} (built in)"),
        )
        append(box, label, el("br"))
    on(byid("mg-add-player"), "click", lambda ev: add_player_row())
    on(
        byid("mg-pool-unlimited"),
        "change",
        lambda ev: setattr(byid("mg-pool-size"), "disabled", bool(byid("mg-pool-unlimited").checked)),
    )
    on(byid("mg-setup-form"), "submit", start_campaign)
    on(byid("mg-preset-save"), "click", save_preset)
    on(byid("mg-preset-use"), "click", use_preset)
    on(byid("mg-preset-delete"), "click", delete_preset)
    render_presets()
    render_saved()


def render_saved() -> None:
    """The campaigns this browser holds: resume any of them exactly where it stopped."""
    try:
        slots = frame.store().list("metagame")
    except StorageError:
        slots = []
    box, lst = byid("mg-saved"), byid("mg-saved-list")
    clear(lst)
    box.hidden = not slots
    for slot in sorted(slots, key=lambda s: -s.updated):
        when = str(js.Date.new(slot.updated).toLocaleString())
        item = el("li")
        link = el("a", f"Resume “{slot.name}”", href=f"?slot={slot.id}", cls="button secondary")
        try:
            players = frame.store().open(slot.id)["options"]["players"]
            who = ", ".join(str(p.get("name", "?")) if isinstance(p, dict) else str(p) for p in players)
        except Exception:  # a damaged slot still lists (opening it explains what is wrong)
            who = "?"
        note = f" {who} · {slot.steps} steps · saved {when}" + (
            " (read-only view)" if slot.mode == "view" else ""
        )
        append(item, link, el("span", note, cls="muted"))
        append(lst, item)


def start_campaign(ev: Any) -> None:
    global match, slot_id, read_only, viewing
    ev.preventDefault()
    players = []
    for row in byid("mg-player-rows").children:
        players.append(
            {"name": str(row.querySelector("input").value), "colour": str(row.querySelector("select").value)}
        )
    colours = [p["colour"] for p in players]
    if len(set(colours)) < len(colours):
        frame.show_error("M2: two players have the same colour; give each player their own.")
        return
    games = current_games()
    # no set-up randomness in the metagame (M2: the host orders the players): a fixed seed
    # keeps ~25 random digits out of every link
    options: dict[str, Any] = {"players": players, "games": games, "seed": 0}
    map_id = str(byid("mg-map-id").value)
    if map_id != "usa100":
        options["map"] = map_id
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
    read_only, viewing = False, None
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
    if match is None:
        return
    if read_only or audience:
        frame.show_error("This is a read-only view (M3): only the host's copy can be played.")
        return
    if viewing is not None:
        frame.show_error("You are looking at an earlier step: press “Back to the present” to play.")
        return
    t0 = now_ms()
    try:
        match.play(text)
    except GameError as exc:
        frame.show_error(exc.message)
        return
    perf["apply"] = now_ms() - t0
    frame.clear_banners()
    draft.clear()
    picked.clear()
    autosave()
    t1 = now_ms()
    render()
    perf["render"] = now_ms() - t1
    if not audience:
        render_perf()


def undo(ev: Any = None) -> None:
    if match is None or locked() or not match.log:
        return
    global last_spin_shown
    match.undo()
    last_spin_shown = last_spin_index()
    draft.clear()
    picked.clear()
    frame.clear_banners()
    autosave()
    render()


def autosave() -> None:
    if match is None or slot_id is None or read_only or audience:
        return
    try:
        frame.store().autosave(slot_id, match.save().to_json(), frame.now())
    except StorageError as exc:
        frame.show_error(str(exc))


def pick_territory(t: int) -> None:
    """A territory was picked (click, tap, Enter on the map, or the "Choose" list)."""
    if match is None:
        return
    state = shown_state()
    if not 0 <= t < len(state.owner):
        return
    view = GAME.view(state, None)
    elig = view["eligible"]
    if locked() or elig is None or t not in elig["territories"]:
        name = state.board.names[t]
        owner = state.owner[t]
        who = "neutral" if owner < 0 else state.players[owner].name
        why = " This view is read-only." if locked() else " It is not a choice for this step."
        frame.show_notice(f"{name}: {who}.{why}")
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
        save_draft()
        render()
    elif kind == "respin":
        play(f"x{t}")
    elif kind == "gift":
        play(f"g{t}")


def on_pick(ev: Any) -> None:
    detail = ev.detail
    if frame.nullish(detail):
        return
    pick_territory(int(str(detail)))


# -- rendering ---------------------------------------------------------------------------
def render() -> None:
    if match is None:
        return
    state = shown_state()
    view = GAME.view(state, None)
    render_status(state, view)
    render_viewing()
    render_map(state, view)
    render_players(view)
    render_actions(state, view)
    render_choose(state, view)
    render_invasion(state, view)
    render_final(view)
    render_chart()
    if not audience:
        render_log()
        render_spins()
        render_links()
        render_tools(state)
        render_perf()
        byid("mg-undo").disabled = locked() or not match.log
        broadcast()


def render_status(state: Any, view: dict[str, Any]) -> None:
    prompt = view["prompt"]
    if view["outcome"] is not None:
        names = " and ".join(view["players"][w]["name"] for w in view["outcome"]["winners"])
        reason = REASONS.get(view["ended"], view["ended"])
        prompt = f"The campaign is over: {reason}. {names} won with the most territories (M16)."
    elif read_only and not audience:
        prompt = "Read-only view. " + prompt
    byid("mg-prompt").textContent = prompt
    turn = "Capitals" if state.phase == "capital" else f"Turn {state.turn}"
    if viewing is not None and match is not None:
        turn = f"Viewing step {viewing} of {len(match.log)} · {turn}"
    byid("mg-turnno").textContent = f"{turn} ·"
    byid("mg-status").classList.toggle("is-past", viewing is not None)
    sw = byid("mg-status-swatch")
    who = view["to_move"]
    if view["outcome"] is None and who is not None:
        sw.style.background = view["players"][who]["colour"]
        sw.hidden = False
    else:
        sw.hidden = True


def render_viewing() -> None:
    assert match is not None
    box = byid("mg-viewing")
    box.hidden = viewing is None
    if viewing is None:
        return
    st = match.states[viewing]
    turn = "capital picks" if st.phase == "capital" else f"turn {st.turn}"
    byid("mg-viewing-text").textContent = (
        f"Viewing step {viewing} of {len(match.log)} ({turn}): the campaign as it was then. Nothing can be "
        f"played here."
    )
    byid("mg-view-prev").disabled = viewing <= 0
    byid("mg-view-next").disabled = viewing >= len(match.log)


def set_viewing(step: int | None) -> None:
    global viewing
    if match is None:
        return
    if step is not None and not 0 <= step <= len(match.log):
        return
    viewing = None if step is None or step == len(match.log) else step
    picked.clear()
    render()


def render_map(state: Any, view: dict[str, Any]) -> None:
    colours = [p["colour"] for p in view["players"]]
    elig = set(view["eligible"]["territories"]) if view["eligible"] and not locked() else set()
    inv = view["invasion"]
    sac = set()
    if inv:
        sac = set(inv["sacrificed"]["territories"]) | set(inv["blocked"]["territories"])
    if not terr_nodes:
        return
    names = state.board.names
    for t, owner in enumerate(state.owner):
        if t >= len(terr_nodes):
            break
        node = terr_nodes[t]
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
        cap = ", capital" if owner >= 0 and state.capital[owner] == t else ""
        node.setAttribute("aria-label", f"{names[t]}, {who}{cap}{', a choice now' if t in elig else ''}")
    marks = byid("mg-marks")
    if frame.nullish(marks):
        return
    clear(marks)
    for p in view["players"]:
        if p["capital"] is None:
            continue
        label_node = byid(f"mg-l{p['capital']}")
        if frame.nullish(label_node):
            continue
        cx, cy = float(label_node.getAttribute("x")), float(label_node.getAttribute("y"))
        append(marks, svg("polygon", points=star_points(cx, cy - 12, 8.0), cls="cap-mark"))
        tokens = " ".join(
            part
            for part in (f"B{p['block']}" if p["block"] else "", f"R{p['respin']}" if p["respin"] else "")
            if part
        )
        if tokens:
            append(
                marks,
                svg("text", tokens, x=cx, y=cy + 10, font_size=7, text_anchor="middle", cls="tok-mark"),
            )


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
        if p["seat"] == view["to_move"] and view["outcome"] is None:
            row.classList.add("is-current")
        if not p["alive"]:
            row.classList.add("is-out")
        sw = el("span", cls="swatch")
        sw.style.background = p["colour"]
        name = p["name"] + (" ★" if p["capital"] is not None else "")
        if p["seat"] == view["to_move"] and view["outcome"] is None:
            name += " ◀ to play"
        append(
            row,
            append(el("td", cls="sw"), sw),
            el("td", name),
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
        f"Players in turn order · {view['majority']} territories end the game · tokens in the pool: {note}"
    )


def button(label: str, text: str, secondary: bool = False) -> Any:
    """A button playing ``text``; one delegated handler on #mg-actions plays it (no proxy each)."""
    return el("button", label, type="button", cls="secondary" if secondary else None, data_action=text)


def on_action_click(ev: Any) -> None:
    target = ev.target
    b = None if frame.nullish(target) else target.closest("button[data-action]")
    if not frame.nullish(b) and not b.disabled:
        play(str(b.dataset.action))


def render_actions(state: Any, view: dict[str, Any]) -> None:
    box = byid("mg-actions")
    clear(box)
    if locked() or view["outcome"] is not None:
        return
    ph, inv = view["phase"], view["invasion"]
    if ph == "turn":
        append(box, button("Pass (M5)", "p", True))
    elif ph == "sacrifice":
        n = len(picked)
        elig = view["eligible"]
        most = min(elig["max"], len(elig["territories"]))
        b = button(f"Sacrifice {n} selected", "s" + (".".join(map(str, sorted(picked))) if picked else "-"))
        b.disabled = n == 0
        append(box, b, button("No sacrifice", "s-", True))
        append(box, el("span", f"Select up to {most} on the map.", cls="muted"))
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
        append(box, el("span", "or pick a highlighted territory to spend it and re-spin (M11)", cls="muted"))
    elif ph == "duel":
        a = view["players"][inv["attacker"]]["name"]
        d = view["players"][inv["defender"]]["name"]
        if inv["needed_wins"] == 2:
            nth = "second" if inv["duel_wins"] else "first"
            append(box, el("p", f"Capital: {a} must win twice. Result of the {nth} game:", cls="mg-msg"))
        append(box, button(f"{a} (attacker) won", "da"), button(f"{d} (defender) won", "dd"))
        chosen = inv.get("chosen_game")
        if chosen and chosen["builtin"]:
            # the rules page always exists and links to the game's page once it is playable
            link = el(
                "a",
                f"{view['games'][chosen['game']]['title']}: rules and play",
                href=frame.page_url(f"rules/{chosen['name']}/"),
                target="_blank",
                rel="noopener",
                cls="button secondary",
            )
            append(box, link)


CHOOSE_VERB = {
    "capital": "Capital:",
    "capital_override": "Capital (override):",
    "sacrifice": "Select / unselect",
    "block": "Select / unselect",
    "respin": "Spend and re-spin:",
    "gift": "Give",
}


def render_choose(state: Any, view: dict[str, Any]) -> None:
    """The choices as a list too: for the keyboard, screen readers and small screens."""
    form = byid("mg-choose")
    elig = view["eligible"]
    if locked() or elig is None or view["outcome"] is not None or not elig["territories"]:
        form.hidden = True
        return
    form.hidden = False
    sel = byid("mg-choose-t")
    keep = str(sel.value)
    clear(sel)
    names = state.board.names
    options = []
    for t in elig["territories"]:
        if elig["kind"] == "turn":
            if t in elig["claim"]:
                label = f"Claim {names[t]}"
            else:
                label = f"Invade {names[t]} ({state.players[state.owner[t]].name})"
        else:
            mark = " ✓" if t in picked else ""
            label = f"{CHOOSE_VERB.get(elig['kind'], '')} {names[t]}{mark}"
        options.append((label, t))
    for label, t in sorted(options):
        append(sel, el("option", label, value=str(t)))
    if keep and any(str(t) == keep for _, t in options):
        sel.value = keep


def render_invasion(state: Any, view: dict[str, Any]) -> None:
    box = byid("mg-invasion")
    inv = view["invasion"]
    if inv is None:
        clear(box)
        return
    pl = view["players"]
    a, d = pl[inv["attacker"]]["name"], pl[inv["defender"]]["name"]
    parts = [el("h3", f"{a} invades {inv['target_name']} of {d}" + (" (capital!)" if inv["capital"] else ""))]
    lst = el("ul", cls="mg-numbers")
    for line in inv["explain"]:
        append(lst, el("li", line))
    parts.append(lst)
    names = [g["name"] for g in view["games"]]
    for side, who in (("a", a), ("d", d)):
        alloc = inv["slices"][side]
        if alloc:
            text = ", ".join(f"{names[g]} {n}" for g, n in alloc)
            parts.append(el("p", f"{who} assigned: {text}", cls="mg-msg"))
    clear(box)
    append(box, *parts)
    if view["phase"] in ("slices_a", "slices_d") and not locked():
        render_slice_editor(box, state, view)
    if inv["wheel"]:
        render_wheel(box, state, view)


def render_slice_editor(box: Any, state: Any, view: dict[str, Any]) -> None:
    rep = slice_report(state, draft)
    side = rep["side"]
    pl_name = view["players"][view["invasion"]["attacker" if side == "a" else "defender"]]["name"]
    wrap = el("div", cls="mg-slice-editor")
    append(wrap, el("h4", f"{pl_name}'s slices: exactly {rep['z']}, at most {rep['cap']} per game"))
    table = el("table", cls="mg-slices")
    inputs: dict[int, Any] = {}
    msgs = el("div", cls="mg-slice-msgs", aria_live="polite")
    assign = el("button", "Assign these slices", type="button", id="mg-assign")

    def refresh() -> None:
        r = slice_report(state, draft)
        clear(msgs)
        for msg in r["messages"]:
            append(msgs, el("p", msg, cls="mg-msg " + ("ok" if r["ok"] else "bad")))
        assign.disabled = not r["ok"]

    def set_count(i: int, n: int) -> None:
        n = max(0, min(n, 999))
        if n:
            draft[i] = n
        else:
            draft.pop(i, None)
        inputs[i].value = str(n)
        refresh()
        save_draft()

    def typed_count(i: int) -> None:
        raw = str(inputs[i].value).strip()
        try:
            n = int(raw) if raw else 0
        except ValueError:
            return
        if n:
            draft[i] = max(0, min(n, 999))
        else:
            draft.pop(i, None)
        refresh()
        save_draft()

    for g in view["games"]:
        i = g["index"]
        n = draft.get(i, 0)
        minus = el("button", "−", type="button", cls="small", aria_label=f"One slice less for {g['name']}")
        plus = el("button", "+", type="button", cls="small", aria_label=f"One slice more for {g['name']}")
        count = el(
            "input",
            type="number",
            min="0",
            max=str(rep["cap"]),
            value=str(n),
            aria_label=f"Slices for {g['name']}",
            data_game=str(i),
        )
        inputs[i] = count
        on(minus, "click", lambda ev, i=i: set_count(i, draft.get(i, 0) - 1))
        on(plus, "click", lambda ev, i=i: set_count(i, draft.get(i, 0) + 1))
        on(count, "input", lambda ev, i=i: typed_count(i))
        append(
            table,
            append(
                el("tr"),
                el("td", g["name"], cls="name"),
                append(el("td"), minus),
                append(el("td", cls="n"), count),
                append(el("td"), plus),
            ),
        )

    def do_assign(ev: Any) -> None:
        alloc = tuple(sorted((g, n) for g, n in draft.items() if n > 0))
        play("w" + format_alloc(alloc) if alloc else "w")

    on(assign, "click", do_assign)
    quick = el("button", "Fill for me", type="button", cls="secondary")
    on(quick, "click", lambda ev: fill_draft(state, rep))
    append(wrap, table, msgs, append(el("div", cls="mg-actions"), assign, quick))
    append(box, wrap)
    refresh()


def fill_draft(state: Any, rep: dict[str, Any]) -> None:
    offers = canonical_allocs(rep["z"], rep["cap"], len(state.games))
    if offers:
        draft.clear()
        draft.update(dict(offers[-1]))
    save_draft()
    render()


def last_spin_index() -> int:
    """Log index of the latest spin result of the invasion under way (-1 if none)."""
    assert match is not None
    for i in range(len(match.log) - 1, -1, -1):
        text = match.log[i]
        if text.startswith("r"):
            return i
        if text.startswith("i"):
            return -1
    return -1


def wheel_colour(g: int) -> str:
    return WHEEL_COLOURS[g % len(WHEEL_COLOURS)]


def build_wheel(inv: dict[str, Any], x: int) -> tuple[Any, Any]:
    wheel = svg("svg", viewBox="0 0 200 210", role="img", aria_label=f"The wheel: {x} slices", cls="mg-wheel")
    spinner = svg("g", cls="spinner")
    step = 360.0 / x
    k = 0
    for seg in inv["wheel"]:
        colour = wheel_colour(seg["game"])
        for _ in range(seg["count"]):
            append(
                spinner,
                svg(
                    "path",
                    d=slice_path(k * step, (k + 1) * step),
                    fill=colour,
                    stroke="#fff",
                    stroke_width=0.6 if x < 120 else 0.2,
                    data_slice=str(k),
                ),
            )
            k += 1
        mid = math.radians((seg["start"] + seg["count"] / 2) * step - 90)
        if seg["count"] * step >= 14:
            append(
                spinner,
                svg(
                    "text",
                    seg["name"][:14],
                    x=f"{100 + 60 * math.cos(mid):.1f}",
                    y=f"{100 + 60 * math.sin(mid):.1f}",
                    # turned with its slice: upright when the slice stops under the pointer
                    transform=f"rotate({math.degrees(mid) + 90:.1f} {100 + 60 * math.cos(mid):.1f} "
                    f"{100 + 60 * math.sin(mid):.1f})",
                    font_size=8,
                    text_anchor="middle",
                    dominant_baseline="central",
                    fill="#111",
                    stroke="#fff",
                    stroke_width=2,
                    paint_order="stroke",
                ),
            )
    append(wheel, spinner, svg("polygon", points="100,16 93,0 107,0", fill="#111"))
    return wheel, spinner


def render_wheel(box: Any, state: Any, view: dict[str, Any]) -> None:
    """The wheel as SVG: X slices coloured by game; it turns so the drawn slice ends under the pointer."""
    global wheel_turn, last_spin_shown
    assert match is not None
    inv = view["invasion"]
    x = inv["numbers"]["X"]
    step = 360.0 / x
    spins = [s["slice"] for s in inv["spins"]]
    reveal_after = 0
    key = json.dumps([inv["wheel"], inv["target"], inv["attacker"]])
    if wheel_cache["key"] != key:
        wheel, spinner = build_wheel(inv, x)
        wheel_cache.update(key=key, node=wheel, spinner=spinner)
    wheel, spinner = wheel_cache["node"], wheel_cache["spinner"]
    wrap = el("div", cls="mg-wheel-box")
    append(wrap, wheel)
    append(box, wrap)
    if spins:
        k = spins[-1]
        # the drawn slice's centre must end under the pointer at the top: turn by -(k + 0.5) * step
        final = (-(k + 0.5) * step) % 360
        newest = last_spin_index() if viewing is None else -1
        if newest > last_spin_shown:
            start = wheel_turn
            wheel_turn = start - (start % 360) + 360 * 5 + final
            last_spin_shown = newest
            spinner.style.transition = "none"
            spinner.style.transform = f"rotate({start}deg)"
            end = f"rotate({wheel_turn}deg)"

            def go() -> None:
                spinner.style.transition = ""
                spinner.style.transform = end

            js.requestAnimationFrame(create_proxy(lambda _t: js.setTimeout(create_proxy(go), 20)))
            reveal_after = spin_duration_ms() + 80
        else:
            target = wheel_turn - (wheel_turn % 360) + final
            if abs(target - wheel_turn) > 1e-9:
                wheel_turn = target
                spinner.style.transition = "none"
                spinner.style.transform = f"rotate({wheel_turn}deg)"
    else:
        spinner.style.transition = "none"
        spinner.style.transform = "rotate(0deg)"
        wheel_turn = 0.0
    lst = el("ul", cls="mg-wheel-list", aria_label="The wheel's slices")
    for seg in inv["wheel"]:
        pct = round(100 * seg["count"] / x, 1)
        first, last = seg["start"] + 1, seg["start"] + seg["count"]
        span = f"slice {first}" if first == last else f"slices {first}–{last}"
        item = el("li")
        sw = el("span", cls="swatch")
        sw.style.background = wheel_colour(seg["game"])
        append(
            item,
            sw,
            el(
                "span",
                f"{seg['name']}: {span}, {seg['count']} of {x} ({pct}%) — attacker {seg['a']}, "
                f"defender {seg['d']}",
            ),
        )
        append(lst, item)
    append(box, lst)
    for node in spinner.querySelectorAll(".is-drawn"):
        node.classList.remove("is-drawn")
    if inv["spins"]:
        drawn = "; then ".join(f"slice {s['slice'] + 1} of {x}: {s['name']}" for s in inv["spins"])
        result = el("p", f"Drawn: {drawn} (M10).", cls="mg-msg mg-drawn")
        wheel.setAttribute("aria-label", f"The wheel: {x} slices; drawn: {drawn}")
        slice_node = spinner.querySelector(f'path[data-slice="{spins[-1]}"]')

        prompt_node = byid("mg-prompt")
        prompt_text = str(prompt_node.textContent)

        def reveal(result: Any = result, slice_node: Any = slice_node, text: str = prompt_text) -> None:
            result.hidden = False
            if str(prompt_node.textContent) == "The wheel is spinning…":
                prompt_node.textContent = text
            if not frame.nullish(slice_node):
                slice_node.classList.add("is-drawn")
                # above the other slices, below the labels
                slice_node.parentNode.insertBefore(slice_node, slice_node.parentNode.querySelector("text"))

        if reveal_after:  # not before the wheel stops: the animation must not be spoiled
            result.hidden = True
            prompt_node.textContent = "The wheel is spinning…"
            js.setTimeout(create_proxy(reveal), reveal_after)
        else:
            reveal()
        append(box, result)
        append(
            box,
            el(
                "p",
                "How it was drawn: when the host pressed Spin, the browser's cryptographic random "
                f"generator (crypto.getRandomValues) picked one of the {x} slices, each equally likely, "
                "and the result went into the log at once (see the log and the spin history). The "
                "animation only turns the wheel to that slice; it does not decide anything.",
                cls="mg-trust",
            ),
        )
    elif view["phase"] == "spin":
        append(
            box,
            el(
                "p",
                f"Each of the {x} slices is equally likely: a game's chance is its share of the slices.",
                cls="mg-trust",
            ),
        )


def spin_duration_ms() -> int:
    """The wheel's animation time: 3.2 s, or 0.4 s when the system asks for reduced motion."""
    try:
        reduced = bool(js.window.matchMedia("(prefers-reduced-motion: reduce)").matches)
    except Exception:
        reduced = False
    return 400 if reduced else 3200


def slice_path(a0: float, a1: float) -> str:
    r = 92.0
    if a1 - a0 >= 359.99:
        return "M100,8 A92,92 0 1 1 99.99,8 Z"
    p0 = (100 + r * math.sin(math.radians(a0)), 100 - r * math.cos(math.radians(a0)))
    p1 = (100 + r * math.sin(math.radians(a1)), 100 - r * math.cos(math.radians(a1)))
    large = 1 if a1 - a0 > 180 else 0
    return f"M100,100 L{p0[0]:.2f},{p0[1]:.2f} A{r},{r} 0 {large} 1 {p1[0]:.2f},{p1[1]:.2f} Z"


# -- the log, stepping back, the spin history ---------------------------------------------
def log_line(i: int) -> tuple[str, str]:
    """(turn label, plain words) of log entry ``i``."""
    assert match is not None
    before = match.states[i]
    turn = "Capitals" if before.phase == "capital" else f"Turn {before.turn}"
    try:
        line = GAME.describe_action(before, parse_action(match.log[i]))
    except GameError:
        line = match.log[i]
    return turn, line


def render_log() -> None:
    """Incremental: only new entries are described and added; an undo removes the tail."""
    assert match is not None
    box = byid("mg-log")
    keep = 0
    limit = min(len(log_cache), len(match.log))
    while keep < limit and log_cache[keep] == match.log[keep]:
        keep += 1
    while box.children.length > keep:
        box.lastElementChild.remove()
    del log_cache[keep:]
    for i in range(keep, len(match.log)):
        turn, line = log_line(i)
        item = el("li", data_step=str(i + 1))
        see = el(
            "button",
            "View",
            type="button",
            cls="small",
            data_view=str(i + 1),
            aria_label=f"View the map after step {i + 1}",
        )
        append(item, el("span", turn, cls="mg-turn"), el("span", line + " "), el("code", match.log[i]), see)
        append(box, item)
        log_cache.append(match.log[i])
    if viewing is None:
        for node in box.querySelectorAll("li.is-viewed, li.is-future"):
            node.classList.remove("is-viewed", "is-future")
        if len(match.log) > keep:
            box.scrollTop = box.scrollHeight
    else:
        for i, node in enumerate(box.children):
            node.classList.toggle("is-viewed", i + 1 == viewing)
            node.classList.toggle("is-future", i + 1 > viewing)


def render_spins() -> None:
    """Every spin of the campaign: who, where, the wheel and the drawn slice (trust, M10)."""
    assert match is not None
    body = byid("mg-spins-body")
    rows = []
    for i, text in enumerate(match.log):
        if not text.startswith("r"):
            continue
        before = match.states[i]
        inv = before.inv
        if inv is None:
            continue
        try:
            k = parse_action(text).k
            game = before.games[inv.game_at(k)]
        except (GameError, IndexError, AttributeError):
            continue
        pl = before.players
        again = " (re-spin)" if inv.spins else ""
        wheel = ", ".join(f"{before.games[g]} {n}" for g, n in inv.layout)
        rows.append(
            (
                f"Turn {before.turn}",
                f"{pl[inv.attacker].name} → {before.board.names[inv.target]} ({pl[inv.defender].name}){again}",
                f"slice {k + 1} of {inv.x}: {game}",
                wheel,
                text,
            )
        )
    byid("mg-spins-title").textContent = f"Spin history ({len(rows)} spin{'s' if len(rows) != 1 else ''})"
    key = json.dumps(rows)
    if render_keys.get("spins") == key:
        return
    render_keys["spins"] = key
    clear(body)
    if not rows:
        append(body, el("p", "No spins yet.", cls="muted"))
        return
    lst = el("ol", cls="mg-spin-list")
    for turn, who, drawn, wheel, text in rows:
        item = el("li")
        append(
            item,
            el("span", turn, cls="mg-turn"),
            el("span", f"{who}: {drawn}. "),
            el("span", f"Wheel: {wheel}. ", cls="muted"),
            el("code", text),
        )
        append(lst, item)
    append(body, lst)


# -- the chart and the final standings -----------------------------------------------------
def counts_for(upto: int) -> list[list[int]]:
    """Territories per player for states 0..upto, cached (states are immutable)."""
    assert match is not None
    states = match.states
    keep = 0
    while keep < min(len(counts_cache), len(states)) and counts_cache[keep][0] is states[keep]:
        keep += 1
    del counts_cache[keep:]
    for i in range(keep, upto + 1):
        counts_cache.append((states[i], states[i].counts()))
    return [c for _, c in counts_cache[: upto + 1]]


def chart_points(upto: int) -> list[tuple[int, list[int]]]:
    """(turns completed, territories per player) at the start of each turn, and at the end."""
    assert match is not None
    counts = counts_for(upto)
    pts: list[tuple[int, list[int]]] = []
    last_turn = -1
    for i in range(upto + 1):
        st = match.states[i]
        if st.phase == "turn" and st.turn != last_turn:
            pts.append((st.turn - 1, counts[i]))
            last_turn = st.turn
        elif st.phase == "over":
            if pts and pts[-1][0] == st.turn:
                pts[-1] = (st.turn, counts[i])
            else:
                pts.append((st.turn, counts[i]))
    return pts


def render_chart() -> None:
    assert match is not None
    box = byid("mg-chart-box")
    upto = len(match.log) if viewing is None else viewing
    pts = chart_points(len(match.log))
    state = match.states[upto]
    key = json.dumps([len(match.log), viewing, [p[0] for p in pts], pts[-1][1] if pts else None])
    if render_keys.get("chart") == key:
        return
    render_keys["chart"] = key
    clear(box)
    if len(pts) < 1:
        append(box, el("p", "The chart starts once every player has a capital.", cls="muted"))
        return
    players = state.players
    width = int(box.clientWidth or 0)
    w = max(320, min(900, width)) if width else 640  # drawn at the box's size: text stays legible
    h, left, right, top, bottom = (220 if w < 500 else 260), 34, 104, 10, 30
    xmax = max(1, pts[-1][0])
    ymax = max(4, max(max(c) for _, c in pts))
    step = 10 if ymax > 20 else 2  # so the middle grid line falls on a whole number
    ymax = int(math.ceil(ymax / step) * step)

    def sx(x: float) -> float:
        return left + (w - left - right) * x / xmax

    def sy(y: float) -> float:
        return top + (h - top - bottom) * (1 - y / ymax)

    chart = svg(
        "svg",
        viewBox=f"0 0 {w} {h}",
        role="img",
        cls="mg-chart",
        aria_label=f"Territories per player over {pts[-1][0]} turns",
    )
    for y in (0, ymax // 2, ymax):
        append(chart, svg("line", x1=left, x2=w - right, y1=f"{sy(y):.1f}", y2=f"{sy(y):.1f}", cls="grid"))
        append(chart, svg("text", str(y), x=left - 4, y=f"{sy(y) + 4:.1f}", text_anchor="end"))
    for x in sorted({0, xmax // 2, xmax}):
        append(chart, svg("text", str(x), x=f"{sx(x):.1f}", y=h - bottom + 14, text_anchor="middle"))
    append(chart, svg("text", "turns played", x=(left + w - right) / 2, y=h - 4, text_anchor="middle"))
    append(chart, svg("line", x1=left, x2=left, y1=top, y2=h - bottom, cls="axis"))
    append(chart, svg("line", x1=left, x2=w - right, y1=h - bottom, y2=h - bottom, cls="axis"))
    if viewing is not None:
        vx = state.turn - 1 if state.phase != "over" else state.turn
        vx = max(0, min(vx, xmax))
        append(
            chart,
            svg(
                "line",
                x1=f"{sx(vx):.1f}",
                x2=f"{sx(vx):.1f}",
                y1=top,
                y2=h - bottom,
                stroke="#b58900",
                stroke_width=2,
                stroke_dasharray="4 3",
            ),
        )
    ends = []
    for p, pl in enumerate(players):
        line = " ".join(f"{sx(x):.1f},{sy(c[p]):.1f}" for x, c in pts)
        attrs = {"points": line, "fill": "none", "stroke": pl.colour, "stroke_width": 2.2}
        if DASHES[p % len(DASHES)]:
            attrs["stroke_dasharray"] = DASHES[p % len(DASHES)]
        if len(pts) == 1:
            x, c = pts[0]
            append(chart, svg("circle", cx=f"{sx(x):.1f}", cy=f"{sy(c[p]):.1f}", r=3, fill=pl.colour))
        else:
            append(chart, svg("polyline", **attrs))
        ends.append([sy(pts[-1][1][p]), p])
    ends.sort()
    for i in range(1, len(ends)):  # keep the end labels apart
        ends[i][0] = max(ends[i][0], ends[i - 1][0] + 12)
    for i in range(len(ends) - 1, -1, -1):  # and inside the chart
        ends[i][0] = min(ends[i][0], h - 8 - 12 * (len(ends) - 1 - i))
    for y, p in ends:
        pl = players[p]
        append(chart, svg("rect", x=w - right + 6, y=f"{y - 5:.1f}", width=9, height=9, fill=pl.colour))
        append(
            chart,
            svg("text", f"{pl.name[:12]} {pts[-1][1][p]}", x=w - right + 18, y=f"{y + 3:.1f}"),
        )
    append(box, chart)


def render_final(view: dict[str, Any]) -> None:
    box = byid("mg-final")
    out = view["outcome"]
    if out is None:
        box.hidden = True
        clear(box)
        return
    box.hidden = False
    clear(box)
    winners = set(out["winners"])
    append(box, el("h3", "Final standings"))
    append(box, el("p", f"The campaign ended because {REASONS.get(view['ended'], view['ended'])} (M16)."))
    table = el("table", cls="data")
    head = el("tr")
    for h in ("#", "Player", "Territories", ""):
        append(head, el("th", h))
    append(table, append(el("thead"), head))
    body = el("tbody")
    rank, prev = 0, None
    for i, row in enumerate(view["standings"]):
        if row["territories"] != prev:
            rank, prev = i + 1, row["territories"]
        note = "winner" if row["seat"] in winners else ("eliminated" if row["territories"] == 0 else "")
        tr = el("tr")
        append(
            tr, el("td", str(rank)), el("td", row["name"]), el("td", str(row["territories"])), el("td", note)
        )
        append(body, tr)
    append(table, body)
    append(box, table)


# -- links, the audience view, corrections --------------------------------------------------
def page_base() -> str:
    """This page's address without query or fragment (a link must not carry our slot id)."""
    return f"{js.location.origin}{js.location.pathname}"


def render_links() -> None:
    assert match is not None
    save = match.save().to_json()
    for mode, key in (("h", "host"), ("v", "view")):
        url = frame.link_for(save, mode, page_base())
        byid(f"mg-{key}-url").textContent = url
        over = len(url) > CHAT_LIMIT
        warn = " — too long for a chat message: send the host link by e-mail or a file" if over else ""
        node = byid(f"mg-{key}-len")
        node.textContent = f"{len(url):,} of {CHAT_LIMIT:,} characters a chat message allows{warn}"
        node.classList.toggle("over", over)
    byid("mg-host-row").hidden = read_only


def render_tools(state: Any) -> None:
    hide = read_only
    byid("mg-tools").hidden = hide
    byid("mg-typed").hidden = hide
    byid("mg-undo").hidden = hide
    if hide:
        return
    players = [(str(i), p.name) for i, p in enumerate(state.players)]
    fill_select(byid("mg-fix-t"), [(str(t), n) for t, n in enumerate(state.board.names)])
    fill_select(byid("mg-fix-p"), [("-", "neutral")] + players)
    fill_select(byid("mg-fix-cp"), players)
    fill_select(
        byid("mg-fix-ct"), [("-", "no capital")] + [(str(t), n) for t, n in enumerate(state.board.names)]
    )
    fill_select(byid("mg-fix-tp"), players)


def render_perf() -> None:
    parts = []
    if "replay" in perf:
        parts.append(
            f"Campaign of {int(perf['replay_steps'])} steps replayed in {perf['replay']:.0f} ms on opening"
        )
    if "apply" in perf:
        parts.append(f"last step: engine {perf['apply']:.1f} ms")
    if "render" in perf:
        parts.append(f"page update {perf['render']:.0f} ms")
    byid("mg-perf").textContent = ("Speed in this browser: " + "; ".join(parts) + ".") if parts else ""


def fill_select(sel: Any, options: list[tuple[str, str]]) -> None:
    if sel.options.length == len(options):
        return
    keep = str(sel.value)
    clear(sel)
    for value, label in options:
        append(sel, el("option", label, value=value))
    sel.value = keep or options[0][0]


def broadcast() -> None:
    """Tell the audience tab(s) the campaign as it is now (and the step being looked at)."""
    if channel is None or match is None or audience or read_only:
        return
    msg = {"t": "state", "slot": slot_id, "save": match.save().to_json(), "viewing": viewing}
    try:
        channel.postMessage(json.dumps(msg))
    except Exception:  # a closed channel must never break the console
        pass


def on_channel(ev: Any) -> None:
    global match, viewing
    try:
        msg = json.loads(str(ev.data))
    except (TypeError, ValueError):
        return
    if not isinstance(msg, dict):
        return
    if msg.get("t") == "hello" and not audience:
        if msg.get("slot") in (None, slot_id):
            broadcast()
        return
    if msg.get("t") != "state" or not audience:
        return
    if audience_slot and msg.get("slot") != audience_slot:
        return
    save = msg.get("save")
    try:
        sync_audience(validate_save(save))
    except Exception as exc:  # a bad message must not break the audience tab
        frame.show_error(f"The audience view could not follow the host: {exc}")
        return
    v = msg.get("viewing")
    viewing = v if isinstance(v, int) and match is not None and 0 <= v <= len(match.log) else None
    show_console()


def sync_audience(save: dict[str, Any]) -> None:
    """Follow the host's log: extend, cut back (undo) or replay from the start."""
    global match, last_spin_shown
    log = [str(t) for t in save["log"]]
    if match is not None and dict(match.options) == dict(save["options"]):
        n = len(match.log)
        if log[:n] == match.log:
            for text in log[n:]:
                match._push(text)  # results drawn by the host, replayed here
            return
        if match.log[: len(log)] == log:
            match.truncate(len(log))
            last_spin_shown = last_spin_index()
            return
    match = frame.check_save(save)
    last_spin_shown = last_spin_index()


def download_campaign(ev: Any) -> None:
    if match is None:
        return
    if slot_id is not None and not audience:
        try:
            name, text = frame.store().export(slot_id)
            frame.download(name, text)
            return
        except StorageError:
            pass
    frame.download("conquest-metagame.json", json.dumps(match.save().to_json(), indent=1, ensure_ascii=False))


async def import_campaign(ev: Any) -> None:
    """A campaign file (from "Download"): checked by replaying it, then stored in a new slot."""
    slot = await frame.import_from_input(ev.target, failed="could not be opened")
    if slot is None:
        return
    if slot.game != GAME.id:
        frame.show_notice(
            f"“{slot.name}” is not a metagame campaign; it is in your saved games on the home page."
        )
        return
    js.location.assign(f"?slot={slot.id}")


def open_audience(ev: Any) -> None:
    url = f"{page_base()}?audience={slot_id or '1'}"
    win = js.window.open(url, "conquest-metagame-audience")
    if frame.nullish(win):
        frame.show_notice(f"The browser blocked the new tab; open this address in a new tab: {url}")


def show_console() -> None:
    byid("mg-setup").hidden = True
    byid("mg-console").hidden = False
    byid("mg-readonly").hidden = not read_only or audience
    if match is not None:
        title = match.options.get("title")
        if isinstance(title, str) and title.strip() and title.strip() != "Conquest Metagame":
            document.querySelector("h1").textContent = f"Conquest Metagame: {title}"
    render()


def wire_console() -> None:
    mp = byid("mg-map")
    if not frame.nullish(mp):
        on(mp, "mg-pick", on_pick)
        terr_nodes.extend(sorted(mp.querySelectorAll(".territory"), key=lambda n: int(str(n.dataset.index))))
    on(byid("mg-undo"), "click", undo)
    on(byid("mg-actions"), "click", on_action_click)

    def on_log_click(ev: Any) -> None:
        b = None if frame.nullish(ev.target) else ev.target.closest("button[data-view]")
        if not frame.nullish(b):
            set_viewing(int(str(b.dataset.view)))
            byid("mg-console").scrollIntoView()

    on(byid("mg-log"), "click", on_log_click)
    on(byid("mg-view-prev"), "click", lambda ev: viewing is not None and set_viewing(viewing - 1))
    on(
        byid("mg-view-next"),
        "click",
        lambda ev: viewing is not None and set_viewing(viewing + 1),
    )
    on(byid("mg-view-present"), "click", lambda ev: set_viewing(None))

    def choose(ev: Any) -> None:
        ev.preventDefault()
        value = str(byid("mg-choose-t").value)
        if value.isdigit():
            pick_territory(int(value))

    on(byid("mg-choose"), "submit", choose)

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
    on(byid("mg-audience-open"), "click", open_audience)
    on(byid("mg-speed"), "click", measure_speed)
    on(byid("mg-download"), "click", download_campaign)
    on(byid("mg-import"), "change", import_campaign)


# -- the benchmark hook ---------------------------------------------------------------------
def bench(save_text: Any, repeats: Any = 3) -> str:
    """``window.conquestBench(saveJson, repeats)``: replay a save in this page's Pyodide.

    Returns JSON: the replay time of the whole log (best and median of ``repeats``), the
    time of one action (parse + apply, mean/p95/max over the log), and of one view (what
    every render computes). Measured with ``performance.now()``.
    """
    save = json.loads(str(save_text))
    n = max(1, int(repeats) if not frame.nullish(repeats) else 3)
    replays = []
    for _ in range(n):
        t0 = now_ms()
        m = Match(GAME, save["options"], save["log"])
        replays.append(now_ms() - t0)
    texts = list(save["log"])
    actions = [parse_action(t) for t in texts]
    # the mean from one timed loop (the page's clock is coarse, ~0.1 ms), p95/max one by one
    t0 = now_ms()
    state = m.states[0]
    for text in texts:
        state = GAME.apply(state, parse_action(text))
    loop = now_ms() - t0
    applies = []
    state = m.states[0]
    for action in actions:
        t0 = now_ms()
        state = GAME.apply(state, action)
        applies.append(now_ms() - t0)
    sample = m.states[:: max(1, len(m.states) // 50)]
    t0 = now_ms()
    for st in sample:
        GAME.view(st, None)
    view_ms = (now_ms() - t0) / max(1, len(sample))
    applies.sort()
    replays.sort()
    return json.dumps(
        {
            "actions": len(texts),
            "replay_ms_best": replays[0],
            "replay_ms_median": replays[len(replays) // 2],
            "apply_ms_mean": loop / max(1, len(texts)),
            "apply_ms_p95": applies[int(0.95 * (len(applies) - 1))] if applies else 0.0,
            "apply_ms_max": applies[-1] if applies else 0.0,
            "view_ms_mean": view_ms,
        }
    )


BENCH_NAMES = (
    "Alexandra",
    "Benjamin",
    "Charlotte",
    "Dominic",
    "Eleanor",
    "Frederick",
    "Georgina",
    "Harrison",
)
BENCH_GAMES = ("conquests", "reign", "Chess on BoardGameArena", "Go", "Carcassonne", "Patchwork")


def bench_campaign(length: int = 500) -> dict[str, Any]:
    """A seeded campaign of 8 bots that invade whenever they can (invasions are the heavy
    actions), cut at ``length`` actions: what the speed figures replay."""
    from conquest.bots import RandomBot
    from conquest.games.metagame.actions import Invade

    options = {"players": [{"name": n} for n in BENCH_NAMES], "games": list(BENCH_GAMES), "seed": 0}
    for seed in range(1, 60):
        rngs = [Rng(seed * 100 + i) for i in range(8)]
        bots = [RandomBot(r) for r in rngs]
        m = Match(GAME, options, rng=Rng(seed))
        while GAME.outcome(m.state) is None and len(m.log) < length:
            seat = GAME.to_move(m.state)
            legal = GAME.legal_actions(m.state)
            inv = [a for a in legal if isinstance(a, Invade)] if m.state.phase == "turn" else []
            m.play(inv[rngs[seat].below(len(inv))] if inv else bots[seat].choose(GAME, m.state))
        if len(m.log) >= length:
            save = m.save().to_json()
            save["log"] = save["log"][:length]
            return save
    raise RuntimeError("no bot campaign reached the length asked for")


def measure_speed(ev: Any = None) -> None:
    """The "Measure" button: the figures of issue #4 in this very browser."""
    out = byid("mg-speed-out")
    out.textContent = "Measuring…"

    def run() -> None:
        save = bench_campaign(500)
        r = json.loads(bench(json.dumps(save), 3))
        out.textContent = (
            f"Apply one action: mean {r['apply_ms_mean']:.3f} ms, p95 {r['apply_ms_p95']:.2f} ms "
            f"(target ≤ 2 ms). Replay a {r['actions']}-action campaign: {r['replay_ms_best']:.0f} ms "
            f"(target ≤ 300 ms). One view of the console: {r['view_ms_mean']:.2f} ms."
        )
        out.dataset.result = json.dumps(r)

    js.setTimeout(create_proxy(lambda: guarded_run(run)), 30)  # let "Measuring…" paint first


def guarded_run(fn: Any) -> None:
    try:
        fn()
    except Exception as exc:  # a failed measurement must not break the console
        byid("mg-speed-out").textContent = f"The measurement failed: {exc}"


def boot() -> None:
    global match, slot_id, read_only, last_spin_shown, audience, audience_slot, channel
    js.window.conquestBench = create_proxy(bench)
    params = js.URLSearchParams.new(js.location.search)
    audience = bool(params.has("audience"))
    if audience:
        document.documentElement.classList.add("mg-audience")
        aud = str(params.get("audience") or "")
        audience_slot = aud if aud and aud != "1" else None
    setup_form()
    wire_console()
    try:
        channel = js.BroadcastChannel.new(CHANNEL)
        on(channel, "message", on_channel)
    except Exception:
        channel = None
    incoming = None if audience else frame.take_fragment()
    t0 = now_ms()
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
    elif params.get("slot") or audience_slot:
        sid = str(params.get("slot") or audience_slot)
        try:
            slot = frame.store().get(sid)
            save = frame.store().open(sid)
            match = frame.check_save(save)
            match.rng = Rng(None)
            slot_id, read_only = slot.id, slot.mode == "view"
        except Exception as exc:
            if not audience:
                frame.show_error(f"{exc} Start a new campaign or resume another below.")
            match = None
    if match is not None:
        perf["replay"] = now_ms() - t0
        perf["replay_steps"] = len(match.log)
        last_spin_shown = last_spin_index()
        if not audience and not read_only:
            restore_draft()
        show_console()
    elif audience:
        byid("mg-setup").hidden = True
        byid("mg-console").hidden = False
        byid("mg-prompt").textContent = "Waiting for the host's console…"
    if audience and channel is not None:
        channel.postMessage(json.dumps({"t": "hello", "slot": audience_slot}))
    frame.ready()


boot()
