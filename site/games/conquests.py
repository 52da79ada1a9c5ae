"""The Game of Conquests play page: DOM events -> engine actions, engine view -> SVG/DOM.

Why thin: every rule comes from :mod:`conquest.games.conquests` (legal actions, Danger,
outcome, the position text); this module draws ``GAME.view`` and turns clicks, drags and
typed text into action texts. The board's squares are drawn at build time (with the start
position), so the page shows the board before Python runs; here only classes, marks and
pieces change, so keyboard focus stays on its square.

The computer plays in slices (:class:`conquest.games.conquests.ai.Search` ``.step``) from
a timer, so the page stays responsive and shows a "thinking" bar, then its search speed
(nodes per second). Who plays which side is the ``seats`` option, so it is kept in the
save and travels in links; the computer's time per move is a preference of this browser.

The position editor keeps its own board (it may be invalid while being edited), writes the
position text with the engine's ``position_to_text`` and checks it with the engine's parser
``position_from_text``, whose message it shows. A position link (``#setup=<text>``) opens
the editor with that text: it is put into an input's value, never into markup.
"""

from __future__ import annotations

import time
from typing import Any

import frame
import js  # type: ignore[import-not-found]
from frame import append, clear, el, on
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from conquest.core import GameError, InvalidOptions
from conquest.games.conquests import GAME, Action, State, position_from_text, position_to_text
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
#: the computer's time per move (seconds), a preference of this browser: hard searches until
#: then (iterative deepening: it plays the best move of the last finished depth, or a mate as
#: soon as it sees one); easy and medium search a fixed depth and are done long before
THINK_KEY = "conquest:conquests:think-seconds"
THINK_CHOICES = (1.0, 3.0, 10.0, 30.0)
think_seconds = 3.0
SLICE_MS = 40.0  # aim for slices this long, so the page answers clicks at once
SETUP_PREFIX = "#setup="  # a position link: opens the editor with the position text

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
search_busy = 0.0  # seconds spent inside Search.step for the current move (for nodes/s)
search_started = 0.0
total_nodes = 0  # all the computer's searches since the page opened (the nodes/s figure)
total_busy = 0.0
slice_nodes = 1500
hover: str | None = None  # square under the pointer or with keyboard focus (move-pattern box)
hover_res: tuple[int, int, int] | None = None  # (owner, kind, level) of a reserve fighter pointed at
_step_proxy: Any = None


def byid(name: str) -> Any:
    return document.getElementById(name)


def svg(tag: str, **attrs: Any) -> Any:
    node = document.createElementNS(SVG_NS, tag)
    for key, value in attrs.items():
        node.setAttribute(key.rstrip("_").replace("_", "-"), str(value))
    return node


_view_cache: tuple[Any, dict[str, Any]] = (None, {})


def view_now() -> dict[str, Any]:
    """``GAME.view`` of the current state, computed once per state (it lists the legal moves)."""
    global _view_cache
    assert match is not None
    if _view_cache[0] is not match.state:
        _view_cache = (match.state, GAME.view(match.state, None))
    return _view_cache[1]


def legal_texts() -> list[str]:
    if match is None or not human_to_move():
        return []
    return list(view_now()["legal"])


def seats() -> list[str]:
    if match is None:
        return ["human", "human"]
    return list(match.options.get("seats") or ["human", "human"])


def human_to_move() -> bool:
    if match is None or read_only or GAME.outcome(match.state) is not None:
        return False
    return seats()[match.state.to_move] == "human"


# -- geometry ------------------------------------------------------------------------------
def square_xy(name: str, flip: bool | None = None) -> tuple[float, float]:
    """Top-left corner of a square on screen (White at the bottom unless flipped)."""
    flip = flipped if flip is None else flip
    f, r = FILES.index(name[0]), int(name[1]) - 1
    col, row = (5 - f, r) if flip else (f, 5 - r)
    return M + col * S, row * S


def square_at(ev: Any, board_id: str = "cq-board", flip: bool | None = None) -> str | None:
    flip = flipped if flip is None else flip
    board = byid(board_id)
    pt = board.createSVGPoint()
    pt.x, pt.y = ev.clientX, ev.clientY
    p = pt.matrixTransform(board.getScreenCTM().inverse())
    col, row = int((p.x - M) // S), int(p.y // S)
    if not (0 <= col < 6 and 0 <= row < 6) or p.x < M:
        return None
    f, r = (5 - col, row) if flip else (col, 5 - row)
    return f"{FILES[f]}{r + 1}"


# -- what is legal now -------------------------------------------------------------------------


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
    global selected, pending, place_choice, hover_res
    selected = pending = place_choice = hover_res = None


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


PAUSE_MS = 250  # a short pause before the computer starts, so a quick reply does not look like a jump


def maybe_start_ai() -> None:
    global search, search_token, search_busy, search_started
    if match is None or read_only or GAME.outcome(match.state) is not None:
        return
    level = seats()[match.state.to_move]
    if level == "human" or search is not None:
        return
    search_token += 1
    # the time limit: hard searches until the deadline (no node budget of its own in the page)
    deadline = time.monotonic() + PAUSE_MS / 1000 + think_seconds
    budget = 10**9 if level == "hard" else None
    search = Search(match.state, level, rng=Rng(None), node_budget=budget, deadline=deadline)
    search_busy = 0.0
    search_started = time.perf_counter()
    byid("cq-thinking").hidden = False
    byid("cq-thinking-text").textContent = f"The computer ({level}) is thinking…"
    byid("cq-progress").value = 0
    render_status()
    js.setTimeout(_step_proxy, PAUSE_MS, search_token)


def ai_step(token: Any) -> None:
    global search, slice_nodes, search_busy
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
    search_busy += took / 1000.0
    if took > 1:  # adapt the slice to this device's speed
        slice_nodes = int(max(200, min(20_000, slice_nodes * SLICE_MS / took)))
    if action is None:
        if search.level == "hard":  # the time limit, not the node budget, ends the hard search
            elapsed = time.perf_counter() - search_started - PAUSE_MS / 1000
            byid("cq-progress").value = int(min(100, 100 * elapsed / think_seconds))
        else:
            byid("cq-progress").value = int(100 * search.progress())
        byid("cq-thinking-text").textContent = (
            f"The computer ({search.level}) is thinking… depth {search.depth}, {search.nodes:,} nodes"
        )
        js.setTimeout(_step_proxy, 0, token)
        return
    show_ai_stats(search)
    search = None
    byid("cq-thinking").hidden = True
    play(str(action))


def show_ai_stats(s: Search) -> None:
    """The search's figures: nodes per second over the time spent searching (the slices, not
    the pauses between them), for the move just chosen and for all the computer's moves since
    the page was opened."""
    global total_nodes, total_busy
    total_nodes += s.nodes
    total_busy += search_busy
    box = byid("cq-ai-stats")
    if s.nodes:
        nps = s.nodes / search_busy if search_busy > 0 else 0.0
        depth = f" to depth {s.depth}" if s.depth else ""
        words = (f"Computer ({s.level}): {s.nodes:,} nodes{depth} in {search_busy:.2f} s, "
                 f"{nps:,.0f} nodes per second.")
    else:
        words = f"Computer ({s.level}): {'a random choice' if s.level == 'random' else 'one legal move'}, no search."
    if total_busy > 0 and total_nodes:
        total_nps = total_nodes / total_busy
        words += f" All its moves so far: {total_nodes:,} nodes, {total_nps:,.0f} nodes per second."
        box.dataset.nps = str(int(total_nps))
    box.textContent = words
    box.hidden = False


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
    render_hover()
    byid("cq-undo").disabled = read_only or not match.log
    byid("cq-typed").hidden = read_only
    byid("cq-think-row").hidden = read_only or all(x == "human" for x in seats())
    byid("cq-position").textContent = view_now()["position"]


def render_board() -> None:
    assert match is not None
    view = view_now()
    by_square = {e["square"]: e for e in view["board"]}
    last = view["last_move"]
    last_squares = {last[:2], last[2:4]} if last else set()
    # while a placement is being chosen (C4) the General is shown on its new square, no move dots
    targets = targets_from(selected) if selected and pending is None else {}
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
    if view["in_danger"]:  # C5: the General of the side to move is attacked, and by whom
        gsq, attackers = danger_squares()
        for sq in [gsq, *attackers]:
            x, y = square_xy(sq)
            mark = svg("circle", cx=x + S / 2, cy=y + S / 2, r=S * 0.46)
            mark.setAttribute("class", "danger" if sq == gsq else "danger-from")
            append(marks, mark)
    pieces = byid("cq-pieces")
    clear(pieces)
    for e in view["board"]:
        if pending is not None and e["square"] == pending[1]:
            continue  # the fighter the General is about to take
        node = piece_node(e["square"], e["fighter"], e["owner"], e["level"])
        if pending is not None and e["square"] == pending[0]:
            x, y = square_xy(pending[1])
            node.setAttribute("transform", f"translate({x + S / 2},{y + S / 2})")
            node.classList.add("is-pending")
        append(pieces, node)


def piece_node(square: str, letter: str, owner: int, level: int, flip: bool | None = None) -> Any:
    x, y = square_xy(square, flip)
    g = svg("g", transform=f"translate({x + S / 2},{y + S / 2})")
    g.setAttribute("class", f"piece {'white' if owner == 0 else 'black'}")
    g.setAttribute("data-sq", square)
    append(g, svg("circle", r=31))
    t = svg("text", y=-7)
    t.textContent = letter
    append(g, t)
    up = (owner == 0) != (flipped if flip is None else flip)  # chevrons point the fighter's way
    for i in range(level):  # levels as chevrons, as on the cubes
        yy = 22 - i * 5
        tip, base = (yy - 5, yy) if up else (yy, yy - 5)
        c = svg("polyline", points=f"-8,{base} 0,{tip} 8,{base}")
        c.setAttribute("class", "chev")
        append(g, c)
    return g


def danger_squares() -> tuple[str, list[str]]:
    """The General of the side to move and the enemy fighters that could take it (C5)."""
    assert match is not None
    board = match.state.board
    g = board.index(R.GENERAL_CODE[match.state.to_move])
    attackers = [
        R.square_name(sq) for sq, p in enumerate(board)
        if p and R.owner_of(p) != match.state.to_move and g in R.reach(board, sq)
    ]
    return R.square_name(g), attackers


def render_status() -> None:
    assert match is not None
    view = view_now()
    box = byid("cq-status")
    clear(box)
    if match.log:  # what just happened, in words (also for screen readers: the status is live)
        try:
            words = GAME.describe_action(match.states[-2], GAME.parse_action(match.log[-1]))
        except GameError:
            words = match.log[-1]
        append(box, el("span", f"{words}. ", cls="cq-last"))
    box.classList.toggle("is-danger", bool(view["in_danger"]) and view["outcome"] is None)
    out = view["outcome"]
    box.classList.toggle("is-over", out is not None)
    if out is not None:  # the reason names the winner or the draw, and the ruling
        winners = out.get("winners") or []
        result = f"{COLOURS[winners[0]]} wins." if len(winners) == 1 else "Draw."
        append(box, el("span", "Game over: "), el("strong", result, id="cq-result"), el("span", " "),
               el("span", out["reason"]))
        return
    side = view["to_move"]
    who = seats()[side]
    mover = f"{COLOURS[side]} to move" + ("" if who == "human" else f" (computer, {LEVEL_NAMES[who]})")
    append(box, el("span", f"Move {view['move_number']}: {mover}."))
    if view["in_danger"]:
        gsq, attackers = danger_squares()
        by = ", ".join(f"the {R.NAMES[R.kind_of(match.state.board[R.parse_square(a)])]} on {a}" for a in attackers)
        append(box, el("span", " "), el("span", "Danger!", cls="cq-danger-word"),
               el("span", f" {COLOURS[side]}'s General on {gsq} is attacked by {by} (C5)."))
    if view["repetitions"] == 2:
        append(box, el("span", " This position has occurred twice: a third time is a draw."))
    if view["quiet_plies"] >= 180:
        append(box, el("span", f" {view['quiet_plies']} moves without a capture: 200 is a draw."))


def render_reserves() -> None:
    assert match is not None
    view = view_now()
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
                aria_disabled=None if usable else "true",
                aria_label=f"{COLOURS[owner]} {e['name']} level {e['level']}, {e['count']} in reserve"
                + (", choose to place it" if usable else ""),
                data_key=key,
                data_owner=str(owner),
                data_kind=str(R.KINDS.index(e["fighter"])),
                data_level=str(e["level"]),
            )
            letter = e["fighter"] if owner == 0 else e["fighter"].lower()
            append(b, el("span", letter, cls=f"tok {'white' if owner == 0 else 'black'}"))
            count = f" ×{e['count']}" if e["count"] > 1 else ""
            append(b, el("span", f"{e['name']}, level {e['level']}{count}"))
            append(box, b)


def res_button(ev: Any) -> Any:
    """The reserve chip an event happened on (one listener per reserve box, not per chip)."""
    target = ev.target
    if frame.nullish(target) or not hasattr(target, "closest"):
        return None
    node = target.closest("button.cq-res")
    return None if frame.nullish(node) else node


def res_click(ev: Any) -> None:
    b = res_button(ev)
    if b is None:
        return
    if str(b.getAttribute("aria-disabled")) == "true":
        if human_to_move():
            frame.show_notice("A reserve fighter comes back only right after a move of its General, "
                              "next to it (C4): move your General first.")
        return
    pick_reserve(str(b.dataset.key))


def res_hover(ev: Any) -> None:
    b = res_button(ev)
    set_hover_res(None if b is None else (int(b.dataset.owner), int(b.dataset.kind), int(b.dataset.level)))


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
    url = setup_link(view_now()["position"])
    byid("cq-setup-url").textContent = url
    byid("cq-setup-len").textContent = f"{len(url):,} characters"


# -- move patterns: the fighter under the pointer or focus -----------------------------------------
DIRECTIONS = {
    (0, 1): "forward", (0, -1): "back", (-1, 0): "left", (1, 0): "right",
    (-1, 1): "diagonally forward-left", (1, 1): "diagonally forward-right",
    (-1, -1): "diagonally back-left", (1, -1): "diagonally back-right",
}
DIAGRAM_CELL = 22  # the info box's 7x7 diagram (viewBox 154)


def pattern_words(letter: str, level: int) -> str:
    """The level's move table (C2, from the data file) in words."""
    parts = []
    for move in R.DATA["fighters"][letter]["levels"][str(level)]:
        names = ", ".join(DIRECTIONS.get((v[0], v[1]), str(v)) for v in move["vectors"])
        if move["kind"] == "step":
            parts.append(f"steps one square {names}")
        else:
            limit = "any distance" if move["range"] is None else f"up to {move['range']} squares"
            parts.append(f"slides {limit} {names}")
    return "; ".join(parts)


def draw_pattern(box: Any, letter: str, level: int, owner: int, flip: bool) -> None:
    """A 7x7 diagram of the level's moves as seen on the board now: a dot for a step, an
    arrow for a slide (the same pictures as the rules page, turned for Black or a flip)."""
    clear(box)
    c = DIAGRAM_CELL
    for row in range(7):
        for col in range(7):
            r = svg("rect", x=col * c, y=row * c, width=c, height=c)
            r.setAttribute("class", "g me" if (row, col) == (3, 3) else "g")
            append(box, r)
    k = (1 if owner == 0 else -1) * (-1 if flip else 1)  # +1: forward is up on the screen
    mid = 3 * c + c / 2
    for move in R.DATA["fighters"][letter]["levels"][str(level)]:
        for vx, vy in move["vectors"]:
            dx, dy = k * vx, -k * vy
            if move["kind"] == "step":
                d = svg("circle", cx=mid + dx * c, cy=mid + dy * c, r=5)
                d.setAttribute("class", "dot")
                append(box, d)
                continue
            n = 3 if move["range"] is None else min(3, int(move["range"]))
            x2, y2 = mid + dx * (n - 0.35) * c, mid + dy * (n - 0.35) * c
            line = svg("line", x1=mid + dx * 0.45 * c, y1=mid + dy * 0.45 * c, x2=x2, y2=y2)
            line.setAttribute("class", "arrow")
            # the arrowhead: a small triangle pointing along (dx, dy)
            ln = (dx * dx + dy * dy) ** 0.5
            ux, uy = dx / ln, dy / ln
            tip = (x2 + ux * 7, y2 + uy * 7)
            left = (x2 - uy * 5, y2 + ux * 5)
            right = (x2 + uy * 5, y2 - ux * 5)
            head = svg("polygon", points=" ".join(f"{a:.1f},{b:.1f}" for a, b in (tip, left, right)))
            head.setAttribute("class", "head")
            append(box, line, head)
    t = svg("text", x=mid, y=mid + 4)
    t.setAttribute("class", "fwd")
    t.textContent = letter if owner == 0 else letter.lower()
    append(box, t)


def render_hover() -> None:
    """Info box and dashed squares for the fighter under the pointer or focus (else the chosen one)."""
    if match is None:
        return
    marks = byid("cq-hover")
    clear(marks)
    name = hover if hover and piece_on(hover) else selected
    info_text = byid("cq-info-text")
    diagram = byid("cq-info-diagram")
    box = byid("cq-info")
    if hover_res is not None and match is not None:  # a reserve fighter: its pattern at its level
        owner, kind, level = hover_res
        letter = R.KINDS[kind]
        box.classList.remove("is-empty")
        draw_pattern(diagram, letter, level, owner, flipped)
        up = (owner == 0) != flipped
        info_text.textContent = (
            f"{COLOURS[owner]} {R.NAMES[kind]} in the reserve, level {level} of {R.MAX_LEVEL[kind]}: "
            f"{pattern_words(letter, level)} (forward is {'up' if up else 'down'} on the board). "
            "It comes back next to its General after a General move (C4)."
        )
        return
    empty = name is None or piece_on(name) is None
    box.classList.toggle("is-empty", empty)
    if empty:
        clear(diagram)
        info_text.textContent = "Point at a fighter, or focus its square, to see how it moves at its level."
        return
    board = match.state.board
    sq = R.parse_square(name)
    p = board[sq]
    owner, kind, level = R.owner_of(p), R.kind_of(p), R.level_of(p)
    letter = R.KINDS[kind]
    reach = [R.square_name(t) for t in R.reach(board, sq)]
    draw_pattern(diagram, letter, level, owner, flipped)
    up = (owner == 0) != flipped
    words = (
        f"{COLOURS[owner]} {R.NAMES[kind]} on {name}, level {level} of {R.MAX_LEVEL[kind]}: "
        f"{pattern_words(letter, level)} (forward is {'up' if up else 'down'} on the board). "
    )
    words += f"It can reach {', '.join(reach)} now." if reach else "It cannot move now."
    if kind != R.GENERAL and level < R.MAX_LEVEL[kind]:
        words += f" If captured it comes back at level {level + 1} (C3)."
    elif kind != R.GENERAL:
        words += " If captured it retires from the game (C3)."
    info_text.textContent = words
    if name == selected:
        return  # the chosen fighter's legal squares are already marked
    for t in reach:
        x, y = square_xy(t)
        m = svg("rect", x=x + 4, y=y + 4, width=S - 8, height=S - 8, rx=6)
        m.setAttribute("class", "reach")
        append(marks, m)
    x, y = square_xy(name)
    m = svg("rect", x=x + 2, y=y + 2, width=S - 4, height=S - 4, rx=6)
    m.setAttribute("class", "reach-from")
    append(marks, m)


def set_hover_res(spec: tuple[int, int, int] | None) -> None:
    global hover_res
    hover_res = spec
    render_hover()


def set_hover(name: str | None) -> None:
    global hover
    if name != hover:
        hover = name
        render_hover()


def on_board_focus(ev: Any) -> None:
    target = ev.target
    sq = None if target is None or frame.nullish(target.dataset.sq) else str(target.dataset.sq)
    set_hover(sq if sq and sq != "undefined" else None)


# -- input ----------------------------------------------------------------------------------------
def on_pointerdown(ev: Any) -> None:
    global drag
    if match is None or ev.button not in (0, None):
        return
    name = square_at(ev)
    if name is None:
        return
    ev.preventDefault()
    if str(ev.pointerType) != "mouse":  # no hover on touch: a tap shows the fighter's pattern
        set_hover(name)
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
        if str(ev.pointerType) == "mouse":
            set_hover(square_at(ev))
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


def square_keys(ev: Any, prefix: str, flip: bool, choose: Any) -> None:
    """Arrow keys move the focus between squares (roving tabindex), Enter or Space chooses."""
    target = ev.target
    name = str(target.dataset.sq) if target is not None and not frame.nullish(target.dataset.sq) else None
    if name is None or name == "undefined":
        return
    key = str(ev.key)
    if key in ("Enter", " "):
        ev.preventDefault()
        choose(name)
        return
    moves = {"ArrowUp": (0, 1), "ArrowDown": (0, -1), "ArrowLeft": (-1, 0), "ArrowRight": (1, 0)}
    if key in moves:
        ev.preventDefault()
        dx, dy = moves[key]
        if flip:
            dx, dy = -dx, -dy
        f = min(5, max(0, FILES.index(name[0]) + dx))
        r = min(5, max(0, int(name[1]) - 1 + dy))
        nxt = byid(f"{prefix}-sq-{FILES[f]}{r + 1}")
        target.setAttribute("tabindex", "-1")
        nxt.setAttribute("tabindex", "0")
        nxt.focus()


def on_keydown(ev: Any) -> None:
    if str(ev.key) == "Escape":
        reset_choice()
        render()
        return
    square_keys(ev, "cq", flipped, choose_square)


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


# -- the position editor ---------------------------------------------------------------------------
ed_board: list[int] = [0] * R.NSQ  # fighter codes as in the engine; may be an invalid position
ed_res: list[list[int]] = [[], []]  # reserve codes without the owner bits (kind << 2 | level)
ed_side = 0
ed_quiet = 0
ed_moveno = 1
ed_valid: str | None = None  # the canonical text when the editor's position is valid


def checked(name: str) -> str:
    node = document.querySelector(f'input[name="{name}"]:checked')
    return "" if frame.nullish(node) else str(node.value)


def set_checked(name: str, value: str) -> None:
    node = document.querySelector(f'input[name="{name}"][value="{value}"]')
    if not frame.nullish(node):
        node.checked = True


def ed_tool() -> tuple[int, int, int] | None:
    """(owner, kind, level) of the fighter to place, or None for the eraser."""
    letter = checked("cq-ed-kind")
    if letter not in R.KINDS:
        return None
    kind = R.KINDS.index(letter)
    level = min(int(checked("cq-ed-level") or 1), R.MAX_LEVEL[kind])
    return int(checked("cq-ed-owner") or 0), kind, level


def ed_tool_changed(ev: Any = None) -> None:
    """Levels above the chosen kind's last level cannot be chosen."""
    letter = checked("cq-ed-kind")
    top = R.MAX_LEVEL[R.KINDS.index(letter)] if letter in R.KINDS else 3
    for node in document.querySelectorAll('input[name="cq-ed-level"]'):
        node.disabled = letter not in R.KINDS or int(node.value) > top
    if int(checked("cq-ed-level") or 1) > top:
        set_checked("cq-ed-level", str(top))
    byid("cq-ed-res-add").disabled = letter not in R.KINDS


def ed_load_state(st: State) -> None:
    global ed_board, ed_res, ed_side, ed_quiet, ed_moveno
    ed_board = list(st.board)
    ed_res = [list(st.reserves[0]), list(st.reserves[1])]
    ed_side, ed_quiet, ed_moveno = st.to_move, st.quiet, st.ply // 2 + 1


def ed_text() -> str:
    """The editor's position as C6 text, written by the engine (valid or not)."""
    res = (tuple(sorted(ed_res[0])), tuple(sorted(ed_res[1])))
    st = State(tuple(ed_board), res, ed_side, ed_quiet, 2 * (ed_moveno - 1) + ed_side, (0,), None)
    return position_to_text(st)


def ed_check(text: str) -> tuple[State | None, str]:
    """The engine's verdict on a position text: (state, summary) or (None, the parser's message)."""
    try:
        st = position_from_text(text)
    except InvalidOptions as exc:
        return None, exc.message
    out = GAME.outcome(st)
    side = COLOURS[st.to_move]
    if out is not None:
        return st, f"A valid position, but the game is already over there: {out.reason}"
    n = len(GAME.legal_actions(st))
    words = f"A valid position: {side} to move, {n} legal move{'s' if n != 1 else ''}."
    if GAME.in_danger(st):
        words += f" {side}'s General is in Danger (C5)."
    return st, words


def ed_render(from_text: bool = False) -> None:
    """Board, reserves and fields from the editor's model; the text (unless typed) and verdict."""
    pieces = byid("cq-ed-pieces")
    clear(pieces)
    for sq, p in enumerate(ed_board):
        if p:
            name = R.square_name(sq)
            append(pieces, piece_node(name, R.KINDS[R.kind_of(p)], R.owner_of(p), R.level_of(p), False))
    for sq in range(R.NSQ):
        name = R.square_name(sq)
        p = ed_board[sq]
        words = name if not p else f"{name}, {COLOURS[R.owner_of(p)]} {R.NAMES[R.kind_of(p)]} level {R.level_of(p)}"
        byid(f"cq-ed-sq-{name}").setAttribute("aria-label", words)
    for owner in (0, 1):
        box = byid(f"cq-ed-res-{owner}")
        clear(box)
        counts: dict[int, int] = {}
        for rc in ed_res[owner]:
            counts[rc] = counts.get(rc, 0) + 1
        if not counts:
            append(box, el("span", "empty", cls="empty"))
        for rc, n in sorted(counts.items()):
            kind, level = rc >> 2, rc & 3
            b = el("button", None, type="button", cls="cq-res edit", data_owner=str(owner), data_rc=str(rc),
                   aria_label=f"Remove one {COLOURS[owner]} {R.NAMES[kind]} level {level} from the reserve")
            letter = R.KINDS[kind] if owner == 0 else R.KINDS[kind].lower()
            append(b, el("span", letter, cls=f"tok {'white' if owner == 0 else 'black'}"),
                   el("span", f"{R.NAMES[kind]}, level {level}" + (f" ×{n}" if n > 1 else "")),
                   el("span", "×", cls="x", aria_hidden="true"))
            append(box, b)
    set_checked("cq-ed-side", "wb"[ed_side])
    for input_id, value in (("cq-ed-quiet", ed_quiet), ("cq-ed-moveno", ed_moveno)):
        node = byid(input_id)
        if document.activeElement != node:
            node.value = str(value)
    text_box = byid("cq-ed-text")
    if not from_text:
        text_box.value = ed_text()
    ed_verdict(str(text_box.value).strip())


def ed_verdict(text: str) -> None:
    global ed_valid
    st, words = ed_check(text)
    ed_valid = position_to_text(st) if st is not None else None
    msg = byid("cq-ed-msg")
    msg.textContent = words
    msg.classList.toggle("ok", st is not None)
    msg.classList.toggle("bad", st is None)
    byid("cq-ed-play").disabled = st is None
    byid("cq-ed-copy").disabled = st is None
    byid("cq-ed-url").textContent = setup_link(ed_valid) if ed_valid else ""


def ed_click(name: str) -> None:
    sq = R.parse_square(name)
    tool = ed_tool()
    if tool is None:
        ed_board[sq] = 0
    else:
        c = R.code(*tool)
        ed_board[sq] = 0 if ed_board[sq] == c else c
    ed_render()


def ed_keys(ev: Any) -> None:
    """Editor board keys: arrows and Enter as on the game board; Delete or Backspace empties."""
    if str(ev.key) in ("Delete", "Backspace"):
        target = ev.target
        if target is not None and not frame.nullish(target.dataset.sq):
            ev.preventDefault()
            ed_board[R.parse_square(str(target.dataset.sq))] = 0
            ed_render()
        return
    square_keys(ev, "cq-ed", False, ed_click)


def ed_res_add(ev: Any = None) -> None:
    tool = ed_tool()
    if tool is None:
        return
    owner, kind, level = tool
    ed_res[owner].append(R.code(owner, kind, level) & 31)  # a General here: the parser refuses it (C3)
    ed_render()


def ed_res_click(ev: Any) -> None:
    b = res_button(ev)
    if b is not None:
        ed_res_remove(int(b.dataset.owner), int(b.dataset.rc))


def ed_res_remove(owner: int, rc: int) -> None:
    if rc in ed_res[owner]:
        ed_res[owner].remove(rc)
    ed_render()


def ed_number(input_id: str, lo: int, default: int) -> int:
    raw = str(byid(input_id).value).strip()
    return int(raw) if raw.isdigit() and len(raw) <= 6 else (default if not raw else lo - 1)


def ed_fields(ev: Any = None) -> None:
    global ed_side, ed_quiet, ed_moveno
    ed_side = 1 if checked("cq-ed-side") == "b" else 0
    ed_quiet = ed_number("cq-ed-quiet", 0, 0)  # out of range: the parser says so
    ed_moveno = ed_number("cq-ed-moveno", 1, 1)
    ed_render()


def ed_typed(ev: Any = None) -> None:
    """Typing in the text box: a valid text updates the board; any text gets the parser's verdict."""
    text = str(byid("cq-ed-text").value).strip()
    st, _ = ed_check(text)
    if st is not None:
        ed_load_state(st)
    ed_render(from_text=True)


def ed_set_text(text: str) -> None:
    byid("cq-ed-text").value = text
    ed_typed()


def ed_swap(ev: Any = None) -> None:
    """Swap the colours: the board turned half round, each fighter changing sides."""
    global ed_board, ed_res, ed_side
    new = [0] * R.NSQ
    for sq, p in enumerate(ed_board):
        if p:
            new[R.NSQ - 1 - sq] = R.code(R.owner_of(p) ^ 1, R.kind_of(p), R.level_of(p))
    ed_board, ed_res, ed_side = new, [ed_res[1], ed_res[0]], ed_side ^ 1
    ed_render()


def ed_clear(ev: Any = None) -> None:
    global ed_board, ed_res
    ed_board, ed_res = [0] * R.NSQ, [[], []]
    ed_render()


def open_editor(text: str | None = None) -> None:
    """Show the set-up with the editor open, on ``text`` if given (a link's text is only ever a value)."""
    show_setup()
    byid("cq-editor").hidden = False
    byid("cq-edit-open").setAttribute("aria-expanded", "true")
    if text is not None:
        ed_set_text(text)
    else:
        ed_render()
    byid("cq-editor").scrollIntoView()


def toggle_editor(ev: Any = None) -> None:
    box = byid("cq-editor")
    if box.hidden:
        open_editor()
    else:
        box.hidden = True
        byid("cq-edit-open").setAttribute("aria-expanded", "false")


def setup_link(text: str) -> str:
    return frame.page_url("play/conquests/") + SETUP_PREFIX + str(js.encodeURIComponent(text))


def ed_play(ev: Any = None) -> None:
    text = str(byid("cq-ed-text").value).strip()
    st, words = ed_check(text)
    if st is None:  # the button is disabled then; typed text may still get here through Enter
        frame.show_error(words)
        return
    new_game(position_to_text(st))


async def copy_link(url: str) -> None:
    ok = await frame.copy_text(url)
    frame.show_notice("Link copied." if ok else "Copying failed: select the link text and copy it by hand.")


# -- set-up, slots and links ---------------------------------------------------------------------
def start_game(ev: Any) -> None:
    ev.preventDefault()
    new_game(None)


def new_game(position: str | None) -> None:
    """A new game in a new save slot, from the usual start or a position text (C6)."""
    global match, slot_id, read_only, flipped
    chosen = [str(byid("cq-seat-0").value), str(byid("cq-seat-1").value)]
    options: dict[str, Any] = {"seats": chosen}
    if position:
        options["position"] = position
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
        where = " from a set position" if position else ""
        slot = frame.store().create(match.save().to_json(), f"Game of Conquests: {names}{where}", frame.now())
        slot_id = slot.id
        js.history.replaceState(js.history.state, "", f"?slot={slot.id}")
    except StorageError as exc:
        frame.show_error(str(exc))
    show_game()


def show_setup(ev: Any = None) -> None:
    cancel_ai()
    if match is not None:  # the players of the game in hand, as a starting point
        for seat, who in enumerate(seats()):
            byid(f"cq-seat-{seat}").value = who
    byid("cq-setup").hidden = False
    byid("cq-game").hidden = True
    render_saved()
    byid("cq-back").hidden = match is None
    byid("cq-setup").scrollIntoView()


SAVED_SHOWN = 8


def render_saved() -> None:
    """This browser's games of Conquests, newest first: continue any of them."""
    try:
        slots = [s for s in frame.store().list(GAME.id) if s.id != slot_id]
    except StorageError:
        slots = []
    box, lst = byid("cq-saved"), byid("cq-saved-list")
    clear(lst)
    box.hidden = not slots
    for slot in slots[:SAVED_SHOWN]:
        when = str(js.Date.new(slot.updated).toLocaleString())
        note = f"{slot.steps} moves · saved {when}" + (" (read-only view)" if slot.mode == "view" else "")
        append(lst, append(el("li"), el("a", slot.name, href=f"?slot={slot.id}", cls="button secondary small"),
                           el("span", note, cls="muted")))
    if len(slots) > SAVED_SHOWN:
        append(lst, el("li", f"… and {len(slots) - SAVED_SHOWN} more on the home page.", cls="muted"))


def edit_here(ev: Any = None) -> None:
    """The game's position as it stands, in the editor."""
    if match is not None:
        open_editor(view_now()["position"])


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
    on(board, "focusin", on_board_focus)
    on(board, "focusout", lambda ev: set_hover(None))
    on(board, "pointerleave", lambda ev: set_hover(None) if str(ev.pointerType) == "mouse" else None)
    on(byid("cq-edit-here"), "click", edit_here)
    for owner in (0, 1):
        box = byid(f"cq-res-{owner}")
        on(box, "click", res_click)
        on(box, "pointerover", res_hover)
        on(box, "focusin", res_hover)
        on(box, "pointerleave", lambda ev: set_hover_res(None))
        on(box, "focusout", lambda ev: set_hover_res(None))
    on(byid("cq-back"), "click", lambda ev: show_game())
    on(byid("cq-think"), "change", set_think)
    wire_editor()

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
    on(byid("cq-copy-setup"), "click",
       lambda ev: copy_link(setup_link(view_now()["position"])) if match else None)


def wire_editor() -> None:
    ed = byid("cq-ed-board")
    on(ed, "click", lambda ev: (name := square_at(ev, "cq-ed-board", False)) and ed_click(name))
    on(ed, "keydown", ed_keys)
    on(byid("cq-edit-open"), "click", toggle_editor)
    for name in ("cq-ed-kind", "cq-ed-level", "cq-ed-owner"):
        for node in document.querySelectorAll(f'input[name="{name}"]'):
            on(node, "change", ed_tool_changed)
    for node in document.querySelectorAll('input[name="cq-ed-side"]'):
        on(node, "change", ed_fields)
    on(byid("cq-ed-quiet"), "input", ed_fields)
    on(byid("cq-ed-moveno"), "input", ed_fields)
    on(byid("cq-ed-text"), "input", ed_typed)
    on(byid("cq-ed-text"), "keydown", lambda ev: ed_play() if str(ev.key) == "Enter" else None)
    on(byid("cq-ed-res-add"), "click", ed_res_add)
    for owner in (0, 1):
        on(byid(f"cq-ed-res-{owner}"), "click", ed_res_click)
    on(byid("cq-ed-start"), "click", lambda ev: ed_set_text(R.START_TEXT))
    on(byid("cq-ed-clear"), "click", ed_clear)
    on(byid("cq-ed-flipsides"), "click", ed_swap)
    on(byid("cq-ed-play"), "click", ed_play)
    on(byid("cq-ed-copy"), "click", lambda ev: copy_link(setup_link(ed_valid)) if ed_valid else None)
    ed_tool_changed()
    ed_set_text(R.START_TEXT)


def load_think() -> None:
    global think_seconds
    try:
        raw = js.window.localStorage.getItem(THINK_KEY)
        value = float(str(raw)) if not frame.nullish(raw) else think_seconds
    except Exception:  # storage disabled or a stray value: keep the default
        value = think_seconds
    think_seconds = value if value in THINK_CHOICES else 3.0
    byid("cq-think").value = str(int(think_seconds))


def set_think(ev: Any = None) -> None:
    global think_seconds
    try:
        think_seconds = float(str(byid("cq-think").value))
    except ValueError:
        think_seconds = 3.0
    try:
        js.window.localStorage.setItem(THINK_KEY, str(int(think_seconds)))
    except Exception:
        pass  # the choice still holds on this page


def _guard(fn: Any, *args: Any) -> None:
    try:
        fn(*args)
    except Exception as exc:
        js.console.error(f"{type(exc).__name__}: {exc}")
        frame.show_error(f"Something went wrong ({type(exc).__name__}: {exc}). Your game is unchanged.")


def take_setup_link() -> str | None:
    """A position link ``#setup=<text>``: the text, once (removed from the address bar)."""
    frag = str(js.location.hash or "")
    if not frag.startswith(SETUP_PREFIX):
        return None
    js.history.replaceState(js.history.state, "", str(js.location.href).split("#", 1)[0])
    raw = frag[len(SETUP_PREFIX):]
    if len(raw) > 2000:
        frame.show_error("That position link is far longer than any position; it was not opened.")
        return ""
    try:
        return str(js.decodeURIComponent(raw))
    except Exception:
        frame.show_error("That position link is damaged (bad %-escapes); it was not opened.")
        return ""


def boot() -> None:
    global match, slot_id, read_only, flipped
    wire()
    load_think()
    setup_text = take_setup_link()
    incoming = frame.take_fragment() if setup_text is None else None
    params = js.URLSearchParams.new(js.location.search)
    if setup_text is not None:
        open_editor(setup_text)
    elif incoming is not None:
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
    elif setup_text is None:
        render_saved()
    frame.ready()


boot()
