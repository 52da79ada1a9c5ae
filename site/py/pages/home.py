"""The landing page: the list of saved games, opening a link, importing a file.

Two promises from issue 10: a damaged saved game never stops this page (it is listed
plainly, with Delete and Export as stored), and a game brought by a link stays in the
address bar until it is safely stored (with storage full, the link is the game).
"""
from __future__ import annotations

import time
from typing import Any

import frame
from frame import append, clear, el, on

from conquest.savecode import SaveCodeError, parse_fragment
from conquest.store import StorageError

document = frame.document
#: a game from this page's link that storage refused: (mode, save, fragment)
pending: list[tuple[str, dict, str]] = []
PENDING_ID = "pending-link"


def when(ms: float) -> str:
    if ms <= 0:
        return "unknown"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ms / 1000))


def open_slot_url(slot) -> str:
    return frame.page_url(f"play/{slot.game}/?slot={slot.id}")


#: how many saved games the landing page offers to continue, above the games (issue 41)
CONTINUE_SHOWN = 3


def to_continue(slots, can_play, n: int = CONTINUE_SHOWN) -> list:
    """The games to offer first, most recent first: those :func:`last_played` would offer
    (a playable game, not finished, not read-only, not damaged), at most ``n``."""
    fit = [s for s in slots if s.game in can_play and s.mode == "host" and not s.result and not s.damaged]
    fit.sort(key=lambda s: (s.updated, s.id), reverse=True)
    return fit[:n]


def render_continue(slots, titles: dict[str, str], can_play) -> None:
    """The last games played, offered first (issue 21, item 11; issue 41: the few most
    recent, on the first screen of a phone): "Continue: World Conquest, step 212", then the
    others, above the games' cards. The first link keeps its id (``continue-link``)."""
    box = document.getElementById("continue")
    if frame.nullish(box):
        return
    clear(box)
    recent = to_continue(slots, can_play)
    box.hidden = not recent
    if not recent:
        return
    items = []
    for k, slot in enumerate(recent):
        title = titles.get(slot.game, slot.game)
        words = f"Continue: {title}, step {slot.steps}" if k == 0 else f"{title}, step {slot.steps}"
        link = el("a", words, href=open_slot_url(slot), cls="button" if k == 0 else "button secondary",
                  id="continue-link" if k == 0 else f"continue-{k}")
        items.append(append(el("li"), link, el("span", f"“{slot.name}”, {when(slot.updated)}", cls="muted")))
    append(box, el("h2", "Continue", cls="visually-hidden", id="continue-h"), append(el("ul", cls="continue-list"), *items))


def render() -> None:
    box = document.getElementById("slot-list")
    clear(box)
    render_pending()
    try:
        slots = frame.store().list(check=True)
    except Exception as exc:  # noqa: BLE001 - whatever storage holds, the page starts
        append(box, el("p", f"Your saved games could not be read ({type(exc).__name__}).", cls="muted"))
        return
    try:
        render_continue(slots, frame.game_titles(), frame.playable_games())
    except Exception as exc:  # noqa: BLE001 - the list below matters more than the offer
        frame.js.console.warn(f"continue: {type(exc).__name__}: {exc}")
    if not slots:
        append(box, el("p", "No saved games in this browser yet.", cls="muted"))
        return
    titles = frame.game_titles()
    can_play = frame.playable_games()
    table = el("table", cls="data slots")
    append(table, el("caption", f"{len(slots)} saved game{'s' if len(slots) != 1 else ''}, most recent first"))
    head = el("tr")
    for h in ("Name", "Game", "Steps", "Last played", "Actions"):
        append(head, el("th", h, scope="col"))
    append(table, append(el("thead"), head))
    body = el("tbody")
    for slot in slots:
        if slot.damaged:
            append(body, damaged_row(slot, titles))
            continue
        row = el("tr", data_slot=slot.id)
        name = el("td")
        if slot.game in can_play:
            append(name, append(el("a", href=open_slot_url(slot)), el("bdi", slot.name)))  # isolated (issue 20)
        else:
            append(name, el("bdi", slot.name))
        if slot.mode == "view":
            append(name, el("span", " read-only", cls="tag"))
        if slot.result:  # a finished game says so, with its result (issue 21, item 3)
            append(name, el("span", f" finished: {slot.result}", cls="tag"))
        append(row, name, el("td", titles.get(slot.game, slot.game), data_label="Game"),
               el("td", str(slot.steps), data_label="Steps"), el("td", when(slot.updated), data_label="Last played"))
        actions = el("td", cls="actions")
        for label, handler in (("Rename", rename), ("Export", export), ("Delete", delete)):
            b = el("button", label, type="button", cls="small", aria_label=f"{label} {slot.name}")
            on(b, "click", lambda ev, s=slot.id, h=handler: h(s))
            append(actions, b)
        append(row, actions)
        append(body, row)
    append(table, body)
    append(box, table)


def damaged_row(slot, titles: dict[str, str]):
    """A slot that cannot be opened: its name, why, and what can still be done with it."""
    row = el("tr", data_slot=slot.id, data_damaged="true", cls="damaged")
    name = el("td")
    append(name, el("bdi", slot.name), el("span", " damaged", cls="tag"),
           el("p", slot.damaged, cls="muted damaged-why"))
    append(row, name, el("td", titles.get(slot.game, "—" if slot.game == "unknown" else slot.game), data_label="Game"),
           el("td", "—", data_label="Steps"), el("td", when(slot.updated), data_label="Last played"))
    actions = el("td", cls="actions")
    can_export = frame.store().has_data(slot.id)
    for label, handler in (("Export as stored", export_raw), ("Delete", delete)):
        if handler is export_raw and not can_export:
            continue
        b = el("button", label, type="button", cls="small", aria_label=f"{label}: the damaged game {slot.name}")
        on(b, "click", lambda ev, s=slot.id, h=handler: h(s))
        append(actions, b)
    append(row, actions)
    return row


def export_raw(slot_id: str) -> None:
    filename, text = frame.store().export_raw(slot_id)
    frame.download(filename, text)


def rename(slot_id: str) -> None:
    """Rename in place: the name's cell becomes a small form (Enter saves, Escape cancels),
    not the browser's prompt() (issue 9 item 14)."""
    slot = frame.store().get(slot_id)
    row = document.querySelector(f"tr[data-slot='{slot_id}']")
    if frame.nullish(row):
        return
    cell = row.querySelector("td")
    form = el("form", cls="rename-form", id=f"rename-{slot_id}")
    field = el("input", type="text", name="name", maxlength="80", aria_label=f"New name for {slot.name}",
               id=f"rename-{slot_id}-name")
    field.value = slot.name
    save_b = el("button", "Save", type="submit", cls="small")
    cancel_b = el("button", "Cancel", type="button", cls="small secondary")
    append(form, field, save_b, cancel_b)
    clear(cell)
    append(cell, form)

    def done(ev) -> None:
        ev.preventDefault()
        frame.store().rename(slot_id, str(field.value))
        render()
        focus_actions(slot_id)

    def cancel(ev=None) -> None:
        render()
        focus_actions(slot_id)

    on(form, "submit", done)
    on(cancel_b, "click", cancel)
    on(field, "keydown", lambda ev: cancel() if str(ev.key) == "Escape" else None)
    field.focus()
    field.select()


def focus_actions(slot_id: str) -> None:
    """After a rename, the keyboard focus goes back to that game's Rename button."""
    b = document.querySelector(f"tr[data-slot='{slot_id}'] td.actions button")
    if not frame.nullish(b):
        b.focus()


def export(slot_id: str) -> None:
    filename, text = frame.store().export(slot_id)
    frame.download(filename, text)


def delete(slot_id: str) -> None:
    slot = frame.store().get(slot_id)
    if frame.js.window.confirm(f"Delete “{slot.name}” from this browser? This cannot be undone."):
        frame.store().delete(slot_id)
        if pending:  # room was made: try again to store the game the link brought
            retry_pending(quiet=True)
        render()


# -- a game from the link that storage refused (issue 10, item 9) ------------------------
FULL_HERE = (
    "This browser's storage is full, so the game from this link was not saved. Nothing is lost: the "
    "link is still in the address bar (bookmark it or copy it). To keep the game here, delete old "
    "games below and it is saved at once; or play it now on its page."
)

FULL_PASTED = (
    "This browser's storage is full, so the game from this link was not saved. The link is still in "
    "the box above: delete old games below, then open it again."
)

DISABLED_HERE = (
    "This browser does not let the site keep games (storage is disabled), so the game from this link was "
    "not saved. Nothing is lost: the link is still in the address bar. Play it on its page: that page keeps "
    "it in its address after every step."
)

DISABLED_PASTED = (
    "This browser does not let the site keep games (storage is disabled), so the game from this link was "
    "not saved. Open the link itself in the address bar to play it."
)


def render_pending() -> None:
    """The refused game, with what to do, just above the saved games."""
    old = document.getElementById(PENDING_ID)
    if not frame.nullish(old):
        old.remove()
    if not pending:
        return
    mode, save, frag = pending[0]
    box = el("div", cls="pending-link notice-box", id=PENDING_ID, role="status")
    title = frame.slot_name(save, mode)
    append(box, el("p", f"Not saved yet: “{title}”, {len(save['log'])} steps, from the link in the address bar."))
    retry = el("button", "Try saving again", type="button", cls="small")
    on(retry, "click", lambda ev: retry_pending())
    append(box, retry)
    if save["game"] in frame.playable_games():
        # the play page keeps the link in its address until the game can be stored
        append(box, el("a", "Play it without saving", href=frame.page_url(f"play/{save['game']}/") + frag,
                       cls="button secondary small"))
    lst = document.getElementById("slot-list")
    lst.parentNode.insertBefore(box, lst)


def retry_pending(quiet: bool = False) -> None:
    mode, save, _frag = pending[0]
    try:
        slot, _created = frame.store().add_from_link(save, mode, frame.slot_name(save, mode), frame.now())
    except StorageError as exc:
        if not quiet:
            frame.show_error({"full": FULL_HERE, "disabled": DISABLED_HERE}.get(exc.code) or str(exc))
        render_pending()
        return
    pending.clear()
    stored(slot, save)


def stored(slot, save: dict) -> None:
    """The link's game is safely stored: only now does the link leave the address bar."""
    frame.drop_fragment()
    frame.clear_banners()
    render()
    if save["game"] in frame.playable_games():
        frame.js.location.assign(open_slot_url(slot))
    else:
        frame.show_notice(f"Saved “{slot.name}”. Its game cannot be played on this site yet.")


def open_save(mode: str, save: dict, frag: str | None = None, waits: int = 0) -> None:
    """A game from a link (``frag``: the address bar's, kept there until it is stored)."""
    refused = {"full": FULL_HERE, "disabled": DISABLED_HERE} if frag else {"full": FULL_PASTED, "disabled": DISABLED_PASTED}
    try:
        slot, _match = frame.open_incoming(mode, save, refused)
    except SaveCodeError as exc:
        if exc.code == "loading" and waits < 3:
            open_when_loaded(mode, save, frag, waits + 1, exc.message)
            return
        if exc.code == "data" and frag is not None:
            frame.restore_fragment(frag)  # the link may be good: a reload once online tries again
        raise
    if slot is None:
        if frag is not None:
            frame.restore_fragment(frag)  # the game is good: the address keeps it until stored
            pending[:] = [(mode, save, frag)]
            render_pending()
        return
    if frag is not None:
        stored(slot, save)
        return
    render()
    if save["game"] in frame.playable_games():
        frame.js.location.assign(open_slot_url(slot))
    else:
        frame.show_notice(f"Saved “{slot.name}”. Its game cannot be played on this site yet.")


def open_when_loaded(mode: str, save: dict, frag: str | None, waits: int, said: str) -> None:
    """A data file the link's game needs is on its way (``lazy_data``, issue 42: fetched
    without blocking the page): said meanwhile, the link kept in the address bar, and opened
    once the fetch has settled (or refused then, in words)."""
    if frag is not None:
        frame.restore_fragment(frag)
    frame.show_notice(said)

    def again() -> None:
        frame.clear_banners()
        if frag is not None:
            frame.drop_fragment()
        try:
            open_save(mode, save, frag, waits)
        except Exception as exc:  # noqa: BLE001 - whatever a link holds, the page stays up
            frame.show_error(f"That link could not be opened: {frame.why(exc)}")

    if not frame.when_lazy_settled(again):
        again()


def live_link(text: str) -> tuple[str, str] | None:
    """A live table's join link or room code typed into the box (issue 36): where to go on
    this site, or what to say; None for a game link. ``live`` (and the shell it imports) is
    loaded only for text that may be one, so the landing page starts no slower."""
    if "#live=" not in text and len("".join(text.split())) > 16:
        return None
    import live

    return live.pasted_join_link(text, frame.page_url(""), frame.playable_games())


async def find_table(code: str) -> None:
    """A room code typed in the box (issue 36): ask the relays for the table it names (the
    host's lobby, ``static/live.js``), which answers its game and join fragment; the answer
    is taken only if the table's key gives this code, and its link is checked and rebuilt
    on this site (:func:`live.pasted_join_link`) before the page goes there."""
    import live

    frame.show_notice(live.LOOKING.format(code=code))
    settings = live.transport_settings(frame.js.localStorage.getItem("conquest:live-settings"))
    try:
        from pyodide.ffi import to_js  # type: ignore[import-not-found]

        found = await frame.js.window.conquestLive.lookup(
            code, to_js(settings, dict_converter=frame.js.Object.fromEntries), LOOKUP_MS)
    except Exception as exc:  # noqa: BLE001 - no WebRTC, no relay: said, nothing else changes
        frame.show_error(live.NOT_FOUND.format(code=code) + f" ({frame.why(exc)})")
        return
    if found is None or str(found) == "null" or frame.nullish(found):
        frame.show_error(live.NOT_FOUND.format(code=code))
        return
    link = live.pasted_join_link(f"play/{str(found.game)[:40]}/{str(found.fragment)[:1500]}",
                                 frame.page_url(""), frame.playable_games())
    if link is None or link[0] != "open":
        frame.show_error(live.NOT_FOUND.format(code=code))
        return
    frame.js.location.assign(link[1])


#: how long the landing page waits for a table to answer a typed room code
LOOKUP_MS = 20_000


def on_link(ev) -> Any:
    """Synchronous up to ``preventDefault`` (an async handler would run after the form's own
    submit had reloaded the page); a room code's lookup is returned as a coroutine, which
    :func:`frame.on` runs."""
    ev.preventDefault()
    text = str(document.getElementById("open-link-input").value).strip()
    found = live_link(text)
    if found is not None:
        kind, what = found
        if kind == "open":
            frame.js.location.assign(what)  # this site's own game page (live.pasted_join_link)
        elif kind == "code":
            return find_table(what)
        else:
            frame.show_error(what)
        return
    frag = text.split("#", 1)[1] if "#" in text else text
    try:
        mode, save = parse_fragment(frag)
    except Exception as exc:  # noqa: BLE001 - whatever a link holds, the page stays up
        frame.show_error(f"That link could not be opened: {frame.why(exc)}")
        return
    open_save(mode, save)


def on_check(ev, waits: int = 0) -> None:
    """Replay a pasted link step by step without storing it (python -m conquest verify).

    A game that needs a data file this page is still fetching (``lazy_data``: an old Short
    Campaign game's questions) is checked again once the fetch has settled."""
    import io

    import lazy_data

    from conquest.__main__ import verify

    text = str(document.getElementById("open-link-input").value).strip()
    out = io.StringIO()
    code = verify(text or "-", out=out) if text else 2
    box = document.getElementById("check-result")
    lazy = lazy_data.current
    if code and text and waits < 3 and lazy is not None and lazy.busy():
        box.textContent = f"Loading {lazy.what()} from the site to check this game…"
        box.dataset.result = "loading"
        box.hidden = False
        frame.when_lazy_settled(lambda: on_check(ev, waits + 1))
        return
    box.textContent = out.getvalue() if text else "Paste a game link first."
    box.dataset.result = {0: "ok", 1: "refused"}.get(code, "error")
    box.hidden = False


async def on_import(ev) -> None:
    slot = await frame.import_from_input(ev.target)
    if slot is None:
        return
    frame.show_notice(f"Imported “{slot.name}”.")
    render()


def main() -> None:
    incoming = frame.take_fragment()  # out of the address bar until it is known good
    if incoming is not None:
        mode, save, frag = incoming
        try:
            open_save(mode, save, frag=frag)
        except Exception as exc:  # noqa: BLE001 - whatever a link holds, the page starts
            frame.show_error(f"That link could not be opened: {frame.why(exc)}")
    on(document.getElementById("open-link-form"), "submit", on_link)
    on(document.getElementById("import-file"), "change", on_import)
    on(document.getElementById("check-link"), "click", on_check)
    for node in document.querySelectorAll("#open-link-form input, #open-link-form button, #import-file, #check-link"):
        node.disabled = False
    render()
    frame.ready()


