"""The page frame's Python side: the thin adapter between the browser and ``conquest``.

Why here and not in ``conquest/``: the engines import nothing from ``js`` or ``pyscript``
so they run and test under CPython. Everything that touches the DOM, localStorage, the
clipboard or the URL lives in this module and the page modules, and stays thin: DOM events
become engine actions, engine state becomes DOM/SVG.

All text that came from a link, a file or storage is put into the page with
``textContent`` (via :func:`el`), never as markup.
"""
from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable, Iterable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import JsException, create_proxy, jsnull  # type: ignore[import-not-found]

from conquest.core import ConquestError, GameError, get_game
from conquest.savecode import (
    SaveCodeError,
    is_anchor,
    load_json,
    make_fragment,
    parse_fragment,
    parse_save_json,
)
from conquest.session import Match, ReplayError
from conquest.store import FULL_MESSAGE, DisabledBackend, Slot, SlotStore, StorageError, link_name

document = js.document
_proxies: list[Any] = []  # event handlers must outlive the call that made them


def nullish(value: Any) -> bool:
    """JS ``null`` arrives as ``jsnull`` (not None) in Pyodide 314; ``undefined`` as None."""
    return value is None or value is jsnull


# -- engine state and banners ----------------------------------------------------------
def set_engine(state: str, text: str) -> None:
    document.documentElement.dataset.engine = state
    label = document.querySelector("#engine-status .engine-text")
    if not nullish(label):
        label.textContent = text


#: what the engine's label says once ready (an offline copy says so too)
READY_TEXT = ["Engine ready"]
#: a game page is still opening the game it boots with, and will say ready itself
BOOT_OPENING = [False]


def ready() -> None:
    """Called by every page once its Python has set up (a game page: once the game it boots
    with is open, which may be some slices later): tests and people wait for this."""
    js.performance.mark("engine-ready")
    set_engine("ready", READY_TEXT[0])


def _banner(kind: str, text: str) -> None:
    box = document.getElementById("error-banner" if kind == "error" else "notice-banner")
    if nullish(box):
        return
    box.querySelector(".banner-text").textContent = str(text)
    box.hidden = False


def show_error(text: str) -> None:
    _banner("error", text)


def show_notice(text: str) -> None:
    _banner("notice", text)


def clear_banners() -> None:
    for bid in ("error-banner", "notice-banner"):
        box = document.getElementById(bid)
        if not nullish(box):
            box.hidden = True


# -- DOM helpers -------------------------------------------------------------------------
def el(tag: str, text: str | None = None, *, cls: str | None = None, **attrs: Any) -> Any:
    """Create an element; text is always text. Attribute names use _ for -."""
    node = document.createElement(tag)
    if text is not None:
        node.textContent = str(text)
    if cls:
        node.className = cls
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        node.setAttribute(key.rstrip("_").replace("_", "-"), "" if value is True else str(value))
    return node


def append(parent: Any, *children: Any) -> Any:
    for child in children:
        if child is not None:
            parent.appendChild(child)
    return parent


def clear(node: Any) -> None:
    node.replaceChildren()


def on(target: Any, event: str, handler: Callable[[Any], Any]) -> None:
    """Attach a Python handler; errors inside it go to the error banner, not to limbo."""

    def report(exc: BaseException) -> None:
        if isinstance(exc, ConquestError):
            show_error(str(exc))
        else:  # a bug: say so plainly, keep the page alive
            js.console.error(f"{type(exc).__name__}: {exc}")
            show_error(f"Something went wrong ({type(exc).__name__}: {exc}). Your game is unchanged.")

    async def run_async(coro: Any) -> None:
        try:
            await coro
        except Exception as exc:
            report(exc)

    def guarded(ev: Any) -> Any:
        try:
            result = handler(ev)
            if inspect.iscoroutine(result):
                asyncio.ensure_future(run_async(result))
        except Exception as exc:
            report(exc)
        return None

    proxy = create_proxy(guarded)
    _proxies.append(proxy)
    target.addEventListener(event, proxy)


def now() -> float:
    return float(js.Date.now())


# -- storage -----------------------------------------------------------------------------
class LocalStorageBackend:
    """localStorage for :class:`conquest.store.SlotStore`; quota errors become StorageError."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    def get(self, key: str) -> str | None:
        value = self.storage.getItem(key)
        return None if nullish(value) else str(value)

    def set(self, key: str, value: str) -> None:
        try:
            self.storage.setItem(key, value)
        except JsException as exc:
            raise StorageError("full", FULL_MESSAGE) from exc

    def remove(self, key: str) -> None:
        self.storage.removeItem(key)

    def keys(self) -> list[str]:
        return [str(self.storage.key(i)) for i in range(int(self.storage.length))]


_store: SlotStore | None = None
storage_ok = True


def store() -> SlotStore:
    """The slot store; when storage is disabled, one that refuses every write, and a clear message.

    Refusing (not a store in memory) so every game goes where a game storage refused goes:
    the address bar, after every step, where a reload finds it (issue 20, item 9)."""
    global _store, storage_ok
    if _store is None:
        try:
            backend: Any = LocalStorageBackend(js.window.localStorage)
            backend.keys()
        except Exception:
            storage_ok = False
            backend = DisabledBackend()
            show_notice(
                "This browser does not let the site keep games (storage is disabled, e.g. in some private "
                "windows). You can play, but export the game or copy its link before closing the page."
            )
        _store = SlotStore(backend)
    return _store


# -- saves and links ---------------------------------------------------------------------
def game_titles() -> dict[str, str]:
    """Titles of the site's games, from their facts (no engine import needed to list saves)."""
    from conquest.catalog import catalog

    return {gid: f.title for gid, f in catalog().items()}


def playable_games() -> set[str]:
    """Games with a play page on this site, as the build wrote them into every page."""
    from contract import SITE_DATA_ID

    node = document.getElementById(SITE_DATA_ID)
    if nullish(node):
        return set()
    return {str(g) for g in load_json(str(node.textContent), "site data").get("playable", [])}


def check_save(save: dict[str, Any]) -> Match:
    """Replay a save from outside (link, file); raises with a clear message if it is unusable.

    At once: while a data file the game needs is on its way (``lazy_data``) it refuses with
    the code ``loading``; :func:`check_save_loaded` waits for it instead."""
    try:
        game = get_game(save["game"])
    except KeyError:
        raise SaveCodeError("game", f"This is a game of {save['game']!r}, which this site does not have.") from None
    try:
        return Match(game, save["options"], save["log"])
    except (ReplayError, GameError) as exc:
        import lazy_data
        from session import data_refusal

        lazy = lazy_data.current
        if lazy is not None and lazy.busy():
            raise SaveCodeError("loading", f"This game needs {lazy.what()}, which this page is loading from the "
                                           "site…") from None
        failed = None if lazy is None else lazy.failure_in(exc.message)
        if failed is not None:
            raise SaveCodeError("data", data_refusal(*failed)) from None
        if isinstance(exc, ReplayError):
            raise SaveCodeError("replay", f"The game in this link does not replay: {exc.message}") from None
        raise SaveCodeError("options", f"The game in this link cannot be set up: {exc.message}") from None


async def check_save_loaded(save: dict[str, Any]) -> Match:
    """:func:`check_save`, waiting for a data file the game needs (with a notice meanwhile,
    gone once the data is in: the caller says what came of it)."""
    said = ""
    try:
        for _ in range(3):
            try:
                return check_save(save)
            except SaveCodeError as exc:
                if exc.code != "loading":
                    raise
                said = exc.message
                show_notice(said)
                await lazy_settled()
        return check_save(save)
    finally:
        box = document.getElementById("notice-banner")
        if said and not nullish(box) and str(box.querySelector(".banner-text").textContent) == said:
            box.hidden = True


def slot_name(save: dict[str, Any], mode: str) -> str:
    title = save["options"].get("title")
    game = game_titles().get(save["game"], save["game"])
    base = str(title) if isinstance(title, str) and title.strip() else game
    return f"{base} (view)" if mode == "view" else base


def link_for(save: dict[str, Any], mode: str = "h", page: str | None = None) -> str:
    """An absolute link to ``page`` (default: this page) carrying the save."""
    base = page or str(js.location.href).split("#", 1)[0]
    return f"{base}#{make_fragment(save, mode)}"


def page_url(root_relative: str) -> str:
    """Absolute URL of a site page, from this page's root (data-root on frame.js)."""
    script = document.querySelector('script[src$="static/frame.js"]')
    root = "./" if nullish(script) else str(script.dataset.root)
    return str(js.URL.new(root + root_relative, js.location.href).href)


async def fetch_lazy_data(rel: str) -> bytes:
    """A file of ``conquest.catalog.LAZY_DIR`` from the site (``contract.LAZY_DATA_URL``),
    for the engine's :func:`conquest.catalog.read_lazy`, which asks for one only when a save
    needs it (an old game's questions). Asynchronous (issue 42): a synchronous request froze
    the page for as long as the network took; the engine's read answers at once meanwhile
    and the game's opening waits for this (``lazy_data``). The service worker answers it
    from its cache offline. OSError, in words, when it fails."""
    from contract import LAZY_DATA_URL

    url = page_url(LAZY_DATA_URL + rel)
    try:
        resp = await js.fetch(url)
    except Exception as exc:  # noqa: BLE001 - a network error rejects the fetch
        raise OSError(f"{rel} could not be fetched from the site ({exc}); is this device offline?") from None
    if not bool(resp.ok):
        status = int(resp.status)
        why = "the site does not have it" if status == 404 else "is this device offline?"
        raise OSError(f"{rel} could not be fetched from the site (HTTP {status}: {why})")
    try:
        text = await resp.text()
    except Exception as exc:  # noqa: BLE001 - the connection dropped while it came
        raise OSError(f"{rel} could not be fetched from the site ({exc}); is this device offline?") from None
    return str(text).encode("utf-8")


def _start_lazy_fetch(rel: str, done: Callable[[bytes], None], failed: Callable[[str], None]) -> None:
    """``lazy_data``'s fetch in the page: :func:`fetch_lazy_data` as a task of its own."""

    async def run() -> None:
        try:
            data = await fetch_lazy_data(rel)
        except OSError as exc:
            failed(str(exc))
            return
        done(data)

    asyncio.ensure_future(run())


def _install_lazy_fetch() -> None:
    import lazy_data

    lazy_data.install(_start_lazy_fetch)


_install_lazy_fetch()


async def lazy_settled() -> None:
    """Until no data file is on its way (``lazy_data.LazyData.when_settled``)."""
    import lazy_data

    lazy = lazy_data.current
    if lazy is None or not lazy.busy():
        return
    done = asyncio.get_event_loop().create_future()
    lazy.when_settled(lambda: done.done() or done.set_result(None))
    await done


def when_lazy_settled(fn: Callable[[], None]) -> bool:
    """Call ``fn()`` once no data file is on its way; False (and nothing later) when none is:
    a refusal then was not for want of one."""
    import lazy_data

    lazy = lazy_data.current
    if lazy is None or not lazy.busy():
        return False
    lazy.when_settled(fn)
    return True


def why(exc: BaseException) -> str:
    """A refusal's words for people; an engine failure (a bug, or a resource the input ran
    out: memory, recursion) said as such, never a traceback (issue 20, item 2)."""
    if isinstance(exc, ConquestError):
        return exc.message
    if isinstance(exc, (MemoryError, RecursionError)):
        return f"it asks for more than this page can give ({type(exc).__name__}), so it was not opened."
    return f"the engine failed on it ({type(exc).__name__}), so it was not opened."


def drop_fragment() -> None:
    """Take the game out of the address bar (once it is stored), so a reload does not re-add it."""
    js.history.replaceState(js.history.state, "", str(js.location.href).split("#", 1)[0])


def restore_fragment(frag: str) -> None:
    """Put a good game's link back in the address bar: storage refused it, so the address is
    where it is kept (a reload finds it there)."""
    js.history.replaceState(js.history.state, "", "#" + frag.lstrip("#"))


def names_a_place(frag: str) -> bool:
    """``#main`` and the like: an anchor of this very page (an element with that id), which
    is no game link; ``#zzz`` names nothing here and is still refused as a link."""
    if not is_anchor(frag):
        return False
    return not nullish(document.getElementById(frag.lstrip("#")))


def take_fragment() -> tuple[str, dict[str, Any], str] | None:
    """Read a game from the URL fragment: ``(mode, save, fragment)``; the fragment leaves the
    address at once, before it is read (issue 20, item 2: a link that stopped the engine
    must not stay there for the reload to stop it again).

    The caller puts it back with :func:`restore_fragment` when the game is good but storage
    refuses it (issue 10, item 9: then the link in the address bar is the game). A broken or
    hostile link shows a clear message and returns None; nothing is lost.
    """
    frag = str(js.location.hash or "")
    if len(frag) <= 1 or names_a_place(frag):  # "#main" from "Skip to content": a place, not a game
        return None
    drop_fragment()
    try:
        mode, save = parse_fragment(frag)
    except Exception as exc:  # noqa: BLE001 - whatever a link holds, the page stays up
        show_error(f"That link could not be opened: {why(exc)} Games already in this browser are unchanged.")
        return None
    return mode, save, frag


def open_incoming(
    mode: str, save: dict[str, Any], refused: dict[str, str] | None = None
) -> tuple[Slot | None, Match]:
    """Validate a save from a link, then store it in a new slot (never over another).

    When storage refuses, the error banner says ``refused[code]`` (``full``, ``disabled``) if
    given, instead of the store's own words."""
    match = check_save(save)
    try:
        slot, created = store().add_from_link(save, mode, link_name(slot_name(save, mode), now()), now())
    except StorageError as exc:
        show_error((refused or {}).get(exc.code) or str(exc))
        return None, match
    if not created:
        show_notice(f"This game is already in your saved games as “{slot.name}”; opened it.")
    return slot, match


def download(filename: str, text: str) -> None:
    blob = js.Blob.new([text], js.Object.fromEntries([["type", "application/json"]]))
    url = js.URL.createObjectURL(blob)
    a = el("a", href=url, download=filename)
    document.body.appendChild(a)
    a.click()
    a.remove()
    js.setTimeout(create_proxy(lambda: js.URL.revokeObjectURL(url)), 1000)


async def copy_text(text: str) -> bool:
    try:
        await js.navigator.clipboard.writeText(text)
        return True
    except Exception:
        return False


async def read_file(input_el: Any) -> tuple[str, str] | None:
    files = input_el.files
    if nullish(files) or files.length == 0:
        return None
    f = files.item(0)
    if f.size > 2_000_000:
        raise SaveCodeError("too-large", "That file is larger than any saved game; it was not opened.")
    text = await f.text()
    return str(f.name), str(text)


async def import_from_input(input_el: Any, failed: str = "could not be imported") -> Slot | None:
    """The file picked in ``input_el``, checked by replaying it and stored in a new slot.

    A bad file says why in the error banner (``<file name> could not be imported: …``) and
    adds nothing; the input is cleared so the same file can be picked again. With storage
    disabled, a good file's game opens on its page as a link would (in the address bar).
    """
    picked = await read_file(input_el)
    input_el.value = ""
    if picked is None:
        return None
    filename, text = picked
    try:
        save = parse_save_json(text, what="file")
        await check_save_loaded(save)
        return import_checked(save, filename)
    except StorageError as exc:
        if exc.code == "disabled" and save["game"] in playable_games():
            open_as_link(save)
            return None
        show_error(f"{filename} {failed}: {exc}")
    except Exception as exc:  # noqa: BLE001 - whatever a file holds, the page stays up
        show_error(f"{filename} {failed}: {why(exc)}")
    return None


def open_as_link(save: dict[str, Any]) -> None:
    """A game this browser cannot store, opened on its page the way a link opens it: in the
    address bar, where the page keeps it after every step (issue 20, item 9)."""
    from conquest.savecode import SLOT_KEY

    game = {k: v for k, v in save.items() if k != SLOT_KEY}
    js.location.assign(page_url(f"play/{save['game']}/") + "#" + make_fragment(game, "h"))


def import_file_text(text: str, filename: str) -> Slot:
    save = parse_save_json(text, what="file")
    check_save(save)
    return import_checked(save, filename)


def import_checked(save: dict[str, Any], filename: str) -> Slot:
    stem = filename.rsplit(".", 1)[0][:60]
    # a file exported from a slot keeps its own name and date (issue 10, item 10)
    return store().import_save(save, f"{slot_name(save, 'host')} — {stem}", now())


def describe_slots(slots: Iterable[Slot]) -> list[dict[str, Any]]:
    return [s.to_json() for s in slots]


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
