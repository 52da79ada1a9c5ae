"""The landing page: the list of saved games, opening a link, importing a file."""
from __future__ import annotations

import time

import frame
from frame import append, clear, el, on

from conquest.savecode import SaveCodeError, parse_fragment
from conquest.store import StorageError

document = frame.document


def when(ms: float) -> str:
    if ms <= 0:
        return "unknown"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ms / 1000))


def open_slot_url(slot) -> str:
    return frame.page_url(f"play/{slot.game}/?slot={slot.id}")


def render() -> None:
    box = document.getElementById("slot-list")
    clear(box)
    slots = frame.store().list()
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
        row = el("tr", data_slot=slot.id)
        name = el("td")
        if slot.game in can_play:
            append(name, el("a", slot.name, href=open_slot_url(slot)))
        else:
            append(name, el("span", slot.name))
        if slot.mode == "view":
            append(name, el("span", " read-only", cls="tag"))
        append(row, name, el("td", titles.get(slot.game, slot.game)), el("td", str(slot.steps)),
               el("td", when(slot.updated)))
        actions = el("td", cls="actions")
        for label, handler in (("Rename", rename), ("Export", export), ("Delete", delete)):
            b = el("button", label, type="button", cls="small", aria_label=f"{label} {slot.name}")
            on(b, "click", lambda ev, s=slot.id, h=handler: h(s))
            append(actions, b)
        append(row, actions)
        append(body, row)
    append(table, body)
    append(box, table)


def rename(slot_id: str) -> None:
    slot = frame.store().get(slot_id)
    name = frame.js.window.prompt("New name for this game:", slot.name)
    if frame.nullish(name):
        return
    frame.store().rename(slot_id, str(name))
    render()


def export(slot_id: str) -> None:
    filename, text = frame.store().export(slot_id)
    frame.download(filename, text)


def delete(slot_id: str) -> None:
    slot = frame.store().get(slot_id)
    if frame.js.window.confirm(f"Delete “{slot.name}” from this browser? This cannot be undone."):
        frame.store().delete(slot_id)
        render()


def open_save(mode: str, save: dict) -> None:
    slot, _match = frame.open_incoming(mode, save)
    if slot is None:
        return
    render()
    if save["game"] in frame.playable_games():
        frame.js.location.assign(open_slot_url(slot))
    else:
        frame.show_notice(f"Saved “{slot.name}”. Its game cannot be played on this site yet.")


def on_link(ev) -> None:
    ev.preventDefault()
    text = str(document.getElementById("open-link-input").value).strip()
    frag = text.split("#", 1)[1] if "#" in text else text
    try:
        mode, save = parse_fragment(frag)
    except SaveCodeError as exc:
        frame.show_error(f"That link could not be opened: {exc.message}")
        return
    open_save(mode, save)


def on_check(ev) -> None:
    """Replay a pasted link step by step without storing it (python -m conquest verify)."""
    import io

    from conquest.__main__ import verify

    text = str(document.getElementById("open-link-input").value).strip()
    out = io.StringIO()
    code = verify(text or "-", out=out) if text else 2
    box = document.getElementById("check-result")
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
    incoming = frame.take_fragment()
    if incoming is not None:
        try:
            open_save(*incoming)
        except (SaveCodeError, StorageError) as exc:
            frame.show_error(f"That link could not be opened: {exc}")
    on(document.getElementById("open-link-form"), "submit", on_link)
    on(document.getElementById("import-file"), "change", on_import)
    on(document.getElementById("check-link"), "click", on_check)
    for node in document.querySelectorAll("#open-link-form input, #open-link-form button, #import-file, #check-link"):
        node.disabled = False
    render()
    frame.ready()


