"""The Game of Conquests play page: DOM events -> engine actions, engine view -> SVG/DOM.

Why thin: every rule comes from :mod:`conquest.games.conquests` (legal actions, Danger,
outcome, the position text); this module draws ``GAME.view`` and turns clicks, drags and
typed text into action texts. The board's squares are drawn at build time (with the start
position), so the page shows the board before Python runs; here only classes, marks and
pieces change, so keyboard focus stays on its square.

The computer plays in slices (:class:`conquest.games.conquests.ai.Search` ``.step``) from
a timer, so the page stays responsive and shows a "thinking" bar. Who plays which side is
the ``seats`` option, so it is kept in the save and travels in links.
"""

from __future__ import annotations

import time
from typing import Any

import frame
import js  # type: ignore[import-not-found]
from frame import append, clear, el, on
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from conquest.core import GameError, InvalidOptions
from conquest.games.conquests import GAME, Action
from conquest.games.conquests import rules as R
from conquest.games.conquests.ai import Search
from conquest.rng import Rng
from conquest.session import Match
from conquest.store import StorageError

document = frame.document
SVG_NS = "http://www.w3.org/2000/svg"
S = 80  # square size in the board's SVG units (as in the template)
M = 26  # margin for the coordinates
FILES = "abcdef"
COLOURS = ("White", "Black")
LEVEL_NAMES = {"human": "a person", "random": "random", "easy": "easy", "medium": "medium", "hard": "hard"}
#: node budget of the hard level in the browser: about a second there (Pyodide searches some
#: 40,000-60,000 nodes per second in Chromium, about half of CPython)
BUDGET = {"hard": 45_000}
THINK_SECONDS = 6.0  # hard stops at this deadline even if the budget is not used up
SLICE_MS = 40.0  # aim for slices this long, so the page answers clicks at once

match: Match | None = None
slot_id: str | None = None
read_only = False
flipped = False
selected: str | None = None  # square of the fighter chosen to move
pending: tuple[str, str] | None = None  # a General move waiting for the placement choice (C4)
place_choice: str | None = None  # reserve fighter chosen for placement, e.g. "S2"
drag: dict[str, Any] | None = None
search: Search | None = None
search_token = 0
slice_nodes = 1500
_step_proxy: Any = None


def byid(name: str) -> Any:
    return document.getElementById(name)


def svg(tag: str, **attrs: Any) -> Any:
    node = document.createElementNS(SVG_NS, tag)
    for key, value in attrs.items():
        node.setAttribute(key.rstrip("_").replace("_", "-"), str(value))
    return node


def seats() -> list[str]:
    if match is None:
        return ["human", "human"]
    return list(match.options.get("seats") or ["human", "human"])


def human_to_move() -> bool:
    if match is None or read_only or GAME.outcome(match.state) is not None:
        return False
    return seats()[match.state.to_move] == "human"


# -- geometry ------------------------------------------------------------------------------
def square_xy(name: str) -> tuple[float, float]:
    """Top-left corner of a square on screen (White at the bottom unless flipped)."""
    f, r = FILES.index(name[0]), int(name[1]) - 1
    col, row = (5 - f, r) if flipped else (f, 5 - r)
    return M + col * S, row * S


def square_at(ev: Any) -> str | None:
    board = byid("cq-board")
    pt = board.createSVGPoint()
    pt.x, pt.y = ev.clientX, ev.clientY
    p = pt.matrixTransform(board.getScreenCTM().inverse())
    col, row = int((p.x - M) // S), int(p.y // S)
    if not (0 <= col < 6 and 0 <= row < 6) or p.x < M:
        return None
    f, r = (5 - col, row) if flipped else (col, 5 - row)
    return f"{FILES[f]}{r + 1}"


# -- what is legal now -------------------------------------------------------------------------
def legal_texts() -> list[str]:
    if match is None or not human_to_move():
        return []
    return [str(a) for a in match.legal_actions()]


def targets_from(square: str) -> dict[str, list[str]]:
    """Destination square -> legal action texts starting with this move (placements folded)."""
    out: dict[str, list[str]] = {}
    for text in legal_texts():
        if text[:2] == square:
            out.setdefault(text[2:4], []).append(text)
    return out


def placements_for(frm: str, to: str) -> dict[str, list[str]]:
    """Reserve fighter ("S2") -> squares where it may be placed after the General's move."""
    out: dict[str, list[str]] = {}
    for text in legal_texts():
        if text.startswith(frm + to + "+"):
            fighter, sq = text[5:].split("@")
            out.setdefault(fighter, []).append(sq)
    return out


# -- playing ------------------------------------------------------------------------------------
def reset_choice() -> None:
    global selected, pending, place_choice
    selected = pending = place_choice = None


def play(text: str) -> bool:
    """Play an action text; a refusal shows the engine's reason and changes nothing."""
    if match is None or read_only:
        return False
    try:
        match.play(text)
    except GameError as exc:
        frame.show_error(exc.message)
        return False
    frame.clear_banners()
    reset_choice()
    autosave()
    render()
    maybe_start_ai()
    return True


def choose_square(name: str) -> None:
    """A click, tap, drop or Enter on a square: select, move, or place."""
    global selected, pending, place_choice
    if not human_to_move():
        if match is not None and not read_only and GAME.outcome(match.state) is None:
            frame.show_notice("Wait for the computer's move.")
        return
    if pending is not None:
        frm, to = pending
        options = placements_for(frm, to)
        if place_choice and name in options.get(place_choice, []):
            play(f"{frm}{to}+{place_choice}@{name}")
            return
        fighter_here = [f for f, sqs in options.items() if name in sqs]
        if not place_choice and fighter_here:
            place_choice = fighter_here[0]
            render()
            return
        frame.show_notice("Choose a fighter from your reserve, then a green square; or move without placing.")
        return
    if selected is not None:
        options = targets_from(selected)
        if name in options:
            texts = options[name]
            if len(texts) == 1:
                play(texts[0])
            else:  # a General move that allows a placement (C4)
                pending = (selected, name)
                place_choice = None
                render()
            return
        if name == selected:
            selected = None
            render()
            return
    assert match is not None
    view_piece = piece_on(name)
    if view_piece is not None and view_piece["owner"] == match.state.to_move:
        if not targets_from(name):
            frame.show_notice(f"The {view_piece['name']} on {name} has no legal move now.")
        selected = name
        render()
        return
    if selected is not None:
        frame.show_notice(f"{selected}{name} is not a legal move.")
    selected = None
    render()


def piece_on(name: str) -> dict[str, Any] | None:
    if match is None:
        return None
    sq = R.parse_square(name)
    p = match.state.board[sq]
    if not p:
        return None
    return {"owner": R.owner_of(p), "name": R.NAMES[R.kind_of(p)], "level": R.level_of(p)}


def undo(ev: Any = None) -> None:
    """Take back the last move; against the computer, back to the last person's turn."""
    if match is None or read_only or not match.log:
        return
    cancel_ai()
    match.undo()
    while match.log and seats()[match.state.to_move] != "human" and "human" in seats():
        match.undo()
    reset_choice()
    frame.clear_banners()
    autosave()
    render()
    maybe_start_ai()


def autosave() -> None:
    if match is None or slot_id is None or read_only:
        return
    try:
        frame.store().autosave(slot_id, match.save().to_json(), frame.now())
    except StorageError as exc:
        frame.show_error(str(exc))


# -- the computer ------------------------------------------------------------------------------
def cancel_ai() -> None:
    global search, search_token
    search = None
    search_token += 1
    byid("cq-thinking").hidden = True


def maybe_start_ai() -> None:
    global search, search_token
    if match is None or read_only or GAME.outcome(match.state) is not None:
        return
    level = seats()[match.state.to_move]
    if level == "human" or search is not None:
        return
    search_token += 1
    deadline = time.monotonic() + THINK_SECONDS if level == "hard" else None
    search = Search(match.state, level, rng=Rng(None), node_budget=BUDGET.get(level), deadline=deadline)
    byid("cq-thinking").hidden = False
    byid("cq-thinking-text").textContent = f"The computer ({level}) is thinking…"
    byid("cq-progress").value = 0
    render_status()
    # a short pause first, so a quick reply does not look like a jump
    js.setTimeout(_step_proxy, 250, search_token)


def ai_step(token: Any) -> None:
    global search, slice_nodes
    if search is None or int(token) != search_token or match is None:
        return
    t0 = time.perf_counter()
    try:
        action = search.step(slice_nodes)
    except Exception as exc:  # a bug in the search must not freeze the page
        cancel_ai()
        frame.show_error(f"The computer could not choose a move ({type(exc).__name__}: {exc}).")
        return
    took = (time.perf_counter() - t0) * 1000.0
    if took > 1:  # adapt the slice to this device's speed
        slice_nodes = int(max(200, min(20_000, slice_nodes * SLICE_MS / took)))
    if action is None:
        byid("cq-progress").value = int(100 * search.progress())
        js.setTimeout(_step_proxy, 0, token)
        return
    search = None
    byid("cq-thinking").hidden = True
    play(str(action))


# -- rendering ----------------------------------------------------------------------------------
def render() -> None:
    if match is None:
        return
    render_board()
    render_status()
    render_reserves()
    render_placement()
    render_moves()
    render_links()
    byid("cq-undo").disabled = read_only or not match.log
    byid("cq-typed").hidden = read_only
    byid("cq-position").textContent = GAME.view(match.state, None)["position"]


def render_board() -> None:
    assert match is not None
    view = GAME.view(match.state, None)
    by_square = {e["square"]: e for e in view["board"]}
    last = view["last_move"]
    last_squares = {last[:2], last[2:4]} if last else set()
    targets = targets_from(selected) if selected else {}
    place_sqs: set[str] = set()
    if pending is not None:
        opts = placements_for(*pending)
        place_sqs = set(opts.get(place_choice, [])) if place_choice else {s for v in opts.values() for s in v}
    for r in range(6):
        for f in range(6):
            name = f"{FILES[f]}{r + 1}"
            rect = byid(f"cq-sq-{name}")
            x, y = square_xy(name)
            rect.setAttribute("x", str(x))
            rect.setAttribute("y", str(y))
            cls = rect.classList
            cls.toggle("is-last", name in last_squares)
            cls.toggle("is-selected", name == selected or (pending is not None and name in pending))
            cls.toggle("is-place", name in place_sqs)
            e = by_square.get(name)
            words = name
            if e:
                words += f", {COLOURS[e['owner']]} {e['name']} level {e['level']}"
            if name in targets:
                words += ", a legal move for the chosen fighter"
            if name in place_sqs:
                words += ", a placement square"
            rect.setAttribute("aria-label", words)
    coords = byid("cq-coords")
    clear(coords)
    for i in range(6):
        file_letter = FILES[5 - i] if flipped else FILES[i]
        rank = i + 1 if flipped else 6 - i
        fx = svg("text", x=M + i * S + S / 2, y=6 * S + M / 2 + 2)
        fx.setAttribute("class", "coord")
        fx.textContent = file_letter
        ry = svg("text", x=M / 2, y=i * S + S / 2)
        ry.setAttribute("class", "coord")
        ry.textContent = str(rank)
        append(coords, fx, ry)
    marks = byid("cq-marks")
    clear(marks)
    for name in targets:
        x, y = square_xy(name)
        if name in by_square:
            mark = svg("circle", cx=x + S / 2, cy=y + S / 2, r=S * 0.44)
            mark.setAttribute("class", "ring")
        else:
            mark = svg("circle", cx=x + S / 2, cy=y + S / 2, r=S * 0.14)
            mark.setAttribute("class", "dot")
        append(marks, mark)
    for name in place_sqs:
        x, y = square_xy(name)
        mark = svg("rect", x=x + 5, y=y + 5, width=S - 10, height=S - 10, rx=8)
        mark.setAttribute("class", "place-ring")
        append(marks, mark)
    if view["in_danger"]:  # C5: the General of the side to move is attacked
        gsq = R.square_name(match.state.board.index(R.GENERAL_CODE[match.state.to_move]))
        x, y = square_xy(gsq)
        mark = svg("circle", cx=x + S / 2, cy=y + S / 2, r=S * 0.46)
        mark.setAttribute("class", "danger")
        append(marks, mark)
    pieces = byid("cq-pieces")
    clear(pieces)
    for e in view["board"]:
        append(pieces, piece_node(e["square"], e["fighter"], e["owner"], e["level"]))


def piece_node(square: str, letter: str, owner: int, level: int) -> Any:
    x, y = square_xy(square)
    g = svg("g", transform=f"translate({x + S / 2},{y + S / 2})")
    g.setAttribute("class", f"piece {'white' if owner == 0 else 'black'}")
    g.setAttribute("data-sq", square)
    append(g, svg("circle", r=31))
    t = svg("text", y=-7)
    t.textContent = letter
    append(g, t)
    for i in range(level):  # levels as chevrons, as on the cubes
        yy = 22 - i * 5
        c = svg("polyline", points=f"-8,{yy} 0,{yy - 5} 8,{yy}")
        c.setAttribute("class", "chev")
        append(g, c)
    return g


def render_status() -> None:
    assert match is not None
    view = GAME.view(match.state, None)
    box = byid("cq-status")
    clear(box)
    box.classList.toggle("is-danger", bool(view["in_danger"]) and view["outcome"] is None)
    out = view["outcome"]
    if out is not None:  # the reason names the winner or the draw, and the ruling
        append(box, el("span", "Game over. "), el("span", out["reason"]))
        return
    side = view["to_move"]
    who = seats()[side]
    mover = f"{COLOURS[side]} to move" + ("" if who == "human" else f" (computer, {LEVEL_NAMES[who]})")
    append(box, el("span", f"Move {view['move_number']}: {mover}."))
    if view["in_danger"]:
        append(box, el("span", " "), el("span", "Danger!", cls="cq-danger-word"),
               el("span", f" {COLOURS[side]}'s General is attacked (C5)."))
    if view["repetitions"] == 2:
        append(box, el("span", " This position has occurred twice: a third time is a draw."))
    if view["quiet_plies"] >= 180:
        append(box, el("span", f" {view['quiet_plies']} moves without a capture: 200 is a draw."))


def render_reserves() -> None:
    assert match is not None
    view = GAME.view(match.state, None)
    opts = placements_for(*pending) if pending is not None else {}
    for owner in (0, 1):
        box = byid(f"cq-res-{owner}")
        clear(box)
        entries = view["reserves"][owner]
        if not entries:
            append(box, el("span", "empty", cls="empty"))
            continue
        for e in entries:
            key = f"{e['fighter']}{e['level']}"
            usable = owner == match.state.to_move and key in opts
            b = el(
                "button",
                None,
                type="button",
                cls="cq-res",
                aria_pressed="true" if place_choice == key and usable else "false",
                aria_label=f"{COLOURS[owner]} {e['name']} level {e['level']}, {e['count']} in reserve"
                + (", choose to place it" if usable else ""),
            )
            letter = e["fighter"] if owner == 0 else e["fighter"].lower()
            append(b, el("span", letter, cls=f"tok {'white' if owner == 0 else 'black'}"))
            count = f" ×{e['count']}" if e["count"] > 1 else ""
            append(b, el("span", f"{e['name']}, level {e['level']}{count}"))
            b.disabled = not usable
            on(b, "click", lambda ev, k=key: pick_reserve(k))
            append(box, b)


def pick_reserve(key: str) -> None:
    global place_choice
    place_choice = None if place_choice == key else key
    render()


def render_placement() -> None:
    box = byid("cq-place")
    if pending is None or match is None:
        box.hidden = True
        return
    frm, to = pending
    box.hidden = False
    plain_ok = f"{frm}{to}" in legal_texts()
    text = f"Your General moves {frm}–{to}. You may place one reserve fighter beside or behind it (C4)"
    text += ": choose a fighter, then a green square." if place_choice is None else (
        f": click a green square for the {R.NAMES[R.KINDS.index(place_choice[0])]} (level {place_choice[1]})."
    )
    if not plain_ok:
        text += " Moving without placing would leave your General in Danger (C5)."
    byid("cq-place-text").textContent = text
    byid("cq-place-skip").disabled = not plain_ok


def render_moves() -> None:
    assert match is not None
    box = byid("cq-moves")
    clear(box)
    first_ply = match.states[0].ply
    item = None
    for i, text in enumerate(match.log):
        ply = first_ply + i
        if item is None or ply % 2 == 0:
            item = el("li", value=str(ply // 2 + 1))
            append(box, item)
            if ply % 2 == 1:
                append(item, el("span", "…"))
        try:
            words = GAME.describe_action(match.states[i], GAME.parse_action(text))
        except GameError:
            words = text
        append(item, append(el("span", title=words), el("code", text)))
    box.scrollTop = box.scrollHeight


def render_links() -> None:
    assert match is not None
    save = match.save().to_json()
    for mode, key in (("h", "host"), ("v", "view")):
        url = frame.link_for(save, mode, page=frame.page_url("play/conquests/"))
        byid(f"cq-{key}-url").textContent = url
        warn = " — longer than chat apps allow (about 2,000)" if len(url) > 2000 else ""
        byid(f"cq-{key}-len").textContent = f"{len(url):,} characters{warn}"
    byid("cq-copy-host").hidden = read_only


# -- input ----------------------------------------------------------------------------------------
def on_pointerdown(ev: Any) -> None:
    global drag
    if match is None or ev.button not in (0, None):
        return
    name = square_at(ev)
    if name is None:
        return
    ev.preventDefault()
    p = piece_on(name)
    own = p is not None and human_to_move() and p["owner"] == match.state.to_move and pending is None
    drag = {"from": name, "own": own, "moved": False, "x": float(ev.clientX), "y": float(ev.clientY)}
    if own:
        try:
            byid("cq-board").setPointerCapture(ev.pointerId)
        except Exception:
            pass
        if selected != name:
            choose_square(name)
            drag["fresh"] = True


def on_pointermove(ev: Any) -> None:
    if drag is None or not drag["own"]:
        return
    dx, dy = float(ev.clientX) - drag["x"], float(ev.clientY) - drag["y"]
    if abs(dx) + abs(dy) < 6 and not drag["moved"]:
        return
    drag["moved"] = True
    node = byid("cq-pieces").querySelector(f'[data-sq="{drag["from"]}"]')
    if node is None:
        return
    board = byid("cq-board")
    scale = board.viewBox.baseVal.width / max(1.0, board.getBoundingClientRect().width)
    x, y = square_xy(drag["from"])
    node.setAttribute("transform", f"translate({x + S / 2 + dx * scale},{y + S / 2 + dy * scale})")
    node.classList.add("is-dragged")


def on_pointerup(ev: Any) -> None:
    global drag
    if drag is None:
        return
    d, drag = drag, None
    name = square_at(ev)
    if d["own"] and d["moved"]:
        if name is not None and name != d["from"]:
            choose_square(name)
        else:
            render()
        return
    if name is None or name != d["from"]:
        return
    if d["own"] and d.get("fresh"):
        return  # the press already selected it
    choose_square(name)


def on_pointercancel(ev: Any) -> None:
    global drag
    drag = None
    render()


def on_keydown(ev: Any) -> None:
    target = ev.target
    name = str(target.dataset.sq) if target is not None and not frame.nullish(target.dataset.sq) else None
    if name is None or name == "undefined":
        return
    key = str(ev.key)
    if key in ("Enter", " "):
        ev.preventDefault()
        choose_square(name)
        return
    moves = {"ArrowUp": (0, 1), "ArrowDown": (0, -1), "ArrowLeft": (-1, 0), "ArrowRight": (1, 0)}
    if key in moves:
        ev.preventDefault()
        dx, dy = moves[key]
        if flipped:
            dx, dy = -dx, -dy
        f = min(5, max(0, FILES.index(name[0]) + dx))
        r = min(5, max(0, int(name[1]) - 1 + dy))
        nxt = byid(f"cq-sq-{FILES[f]}{r + 1}")
        target.setAttribute("tabindex", "-1")
        nxt.setAttribute("tabindex", "0")
        nxt.focus()
    elif key == "Escape":
        reset_choice()
        render()


def typed(ev: Any) -> None:
    ev.preventDefault()
    box = byid("cq-typed-text")
    text = str(box.value).strip()
    if not text:
        return
    if not human_to_move():
        frame.show_notice("It is not your turn.")
        return
    try:
        action = GAME.parse_action(text)
    except GameError as exc:
        frame.show_error(exc.message)
        return
    if isinstance(action, Action) and play(str(action)):
        box.value = ""


def flip(ev: Any = None) -> None:
    global flipped
    flipped = not flipped
    byid("cq-flip").setAttribute("aria-pressed", "true" if flipped else "false")
    render()


# -- set-up, slots and links ---------------------------------------------------------------------
def start_game(ev: Any) -> None:
    global match, slot_id, read_only, flipped
    ev.preventDefault()
    chosen = [str(byid("cq-seat-0").value), str(byid("cq-seat-1").value)]
    options: dict[str, Any] = {"seats": chosen}
    pos = str(byid("cq-start-pos").value).strip()
    if pos:
        options["position"] = pos
    try:
        new = Match(GAME, options, rng=Rng(None))
    except InvalidOptions as exc:
        frame.show_error(exc.message)
        return
    cancel_ai()
    match = new
    frame.clear_banners()
    read_only = False
    reset_choice()
    flipped = chosen[1] == "human" and chosen[0] != "human"
    byid("cq-flip").setAttribute("aria-pressed", "true" if flipped else "false")
    try:
        names = " v ".join("you" if s == "human" else f"computer ({s})" for s in chosen)
        slot = frame.store().create(match.save().to_json(), f"Game of Conquests: {names}", frame.now())
        slot_id = slot.id
        js.history.replaceState(js.history.state, "", f"?slot={slot.id}")
    except StorageError as exc:
        frame.show_error(str(exc))
    show_game()


def show_setup(ev: Any = None) -> None:
    cancel_ai()
    byid("cq-setup").hidden = False
    byid("cq-setup").scrollIntoView()


def show_game() -> None:
    byid("cq-setup").hidden = True
    byid("cq-game").hidden = False
    byid("cq-readonly").hidden = not read_only
    render()
    maybe_start_ai()


def wire() -> None:
    global _step_proxy
    _step_proxy = create_proxy(lambda token: _guard(ai_step, token))
    on(byid("cq-setup-form"), "submit", start_game)
    board = byid("cq-board")
    on(board, "pointerdown", on_pointerdown)
    on(board, "pointermove", on_pointermove)
    on(board, "pointerup", on_pointerup)
    on(board, "pointercancel", on_pointercancel)
    on(board, "keydown", on_keydown)
    on(byid("cq-undo"), "click", undo)
    on(byid("cq-flip"), "click", flip)
    on(byid("cq-new"), "click", show_setup)
    on(byid("cq-typed"), "submit", typed)
    on(byid("cq-place-skip"), "click", lambda ev: pending and play(pending[0] + pending[1]))
    on(byid("cq-place-cancel"), "click", lambda ev: (reset_choice(), render()))

    async def copy(mode: str) -> None:
        if match is None:
            return
        url = frame.link_for(match.save().to_json(), mode, page=frame.page_url("play/conquests/"))
        ok = await frame.copy_text(url)
        frame.show_notice(
            "Link copied." if ok else "Copying failed: select the link text and copy it by hand."
        )

    on(byid("cq-copy-host"), "click", lambda ev: copy("h"))
    on(byid("cq-copy-view"), "click", lambda ev: copy("v"))


def _guard(fn: Any, *args: Any) -> None:
    try:
        fn(*args)
    except Exception as exc:
        js.console.error(f"{type(exc).__name__}: {exc}")
        frame.show_error(f"Something went wrong ({type(exc).__name__}: {exc}). Your game is unchanged.")


def boot() -> None:
    global match, slot_id, read_only, flipped
    wire()
    incoming = frame.take_fragment()
    params = js.URLSearchParams.new(js.location.search)
    if incoming is not None:
        mode, save = incoming
        if save["game"] != GAME.id:
            frame.show_error(f"That link holds a game of {save['game']!r}; open it from the home page.")
        else:
            slot = None
            try:
                slot, match = frame.open_incoming(mode, save)
            except Exception as exc:  # SaveCodeError: the message is for people
                frame.show_error(str(exc))
                match = None
            if match is not None:
                slot_id = slot.id if slot is not None else None
                read_only = mode == "view" or (slot is not None and slot.mode == "view")
                if slot is not None:
                    js.history.replaceState(js.history.state, "", f"?slot={slot.id}")
    elif params.get("slot"):
        sid = str(params.get("slot"))
        try:
            slot = frame.store().get(sid)
            match = frame.check_save(frame.store().open(sid))
            slot_id, read_only = slot.id, slot.mode == "view"
        except Exception as exc:
            frame.show_error(str(exc))
            match = None
    if match is not None:
        s = seats()
        flipped = s[1] == "human" and s[0] != "human"
        byid("cq-flip").setAttribute("aria-pressed", "true" if flipped else "false")
        show_game()
    frame.ready()


boot()
