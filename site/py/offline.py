"""Offline copies: a game page saved as one .html file that plays from disk (issue 15).

Why a module of its own: the same page Python runs on the site and in a copy; what differs
is here. On the site, the shell's "Download offline copy" button hands the current game to
``static/offline.js``, which assembles the file. In a copy, ``static/offline-boot.js``
starts Pyodide from the embedded runtime and calls :func:`boot_copy`, which keeps games in
this browser's storage under a namespace of their own (every ``file://`` page shares one
storage), opens the game the file holds (or the same game played on since, if this
browser kept it), then runs the game's page as the site does. The button then reads "Save
to file" and writes the file again with the game as it is.

The parts without ``js`` (:class:`PrefixBackend`, :func:`copy_state`, :func:`slot_for_copy`)
are tested in CPython (tests/test_offline.py); the browser parts by
tests/browser/test_offline_copy.py.
"""
from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from conquest.savecode import SaveCodeError, load_json, validate_save
from conquest.store import Backend, SlotStore, StorageError

__all__ = [
    "COPY_FORMAT",
    "FILE_PREFIX",
    "POINTER_PREFIX",
    "PrefixBackend",
    "attach",
    "boot_copy",
    "copy_filename",
    "copy_state",
    "read_copy_state",
    "slot_for_copy",
]

#: the version of the JSON a copy carries in ``<script id="offline-copy">``
COPY_FORMAT = 1
#: every key an offline copy keeps in localStorage starts with this (file:// pages share one
#: storage with every other file the browser opened)
FILE_PREFIX = "conquest-file:"
#: under the prefix: which slot holds the game of a copy (by the copy's id)
POINTER_PREFIX = "conquest:copy:"
STATE_ID = "offline-copy"
NO_STORAGE = (
    "This browser does not keep games for pages opened from a file. You can play, but your "
    "moves are lost when this page closes: use “Save to file” to keep them (it writes a new "
    "copy of this file with the game as it is)."
)


class PrefixBackend:
    """A storage backend seen through a key prefix: the copies' keys never meet others'."""

    def __init__(self, inner: Backend, prefix: str = FILE_PREFIX) -> None:
        self.inner = inner
        self.prefix = prefix

    def get(self, key: str) -> str | None:
        return self.inner.get(self.prefix + key)

    def set(self, key: str, value: str) -> None:
        self.inner.set(self.prefix + key, value)

    def remove(self, key: str) -> None:
        self.inner.remove(self.prefix + key)

    def keys(self) -> Iterable[str]:
        n = len(self.prefix)
        return [k[n:] for k in self.inner.keys() if k.startswith(self.prefix)]


def copy_state(
    game_id: str,
    module: str,
    save: Mapping[str, Any] | None,
    site_url: str,
    copy_id: str | None,
    now: float,
    mode: str = "host",
) -> dict[str, Any]:
    """What a copy carries besides the runtime: its game, its page module, where it came from.

    ``copy_id`` names the copy's line of files (kept by "Save to file", so reopening any of
    them finds the game this browser kept); a new one is drawn for a copy made on the site.
    ``mode``: a read-only view stays read-only in its copy ("view"); else "host"."""
    return {
        "v": COPY_FORMAT,
        "game": game_id,
        "module": module,
        "copy": copy_id or secrets.token_hex(8),
        "made": now,
        "site": site_url,
        "save": None if save is None else dict(save),
        "mode": "host" if mode == "host" else "view",
    }


def read_copy_state(text: str) -> dict[str, Any]:
    """The copy's own data, checked: it is data from a file like any other."""
    try:
        obj = load_json(text, "offline copy's game data")  # bounded: a file like any other (issue 20)
    except ValueError:
        raise SaveCodeError("schema", "This offline copy's game data is damaged; download the copy again.") from None
    if not isinstance(obj, dict) or obj.get("v") != COPY_FORMAT:
        raise SaveCodeError("schema", "This offline copy was made by another version of Conquest; download it again.")
    for key in ("game", "module", "copy"):
        if not isinstance(obj.get(key), str) or not re.fullmatch(r"[a-z0-9_]{1,40}", obj[key]):
            raise SaveCodeError("schema", f"This offline copy's game data is damaged ({key}); download the copy again.")
    if obj.get("mode", "host") not in ("host", "view"):
        raise SaveCodeError("schema", "This offline copy's game data is damaged (mode); download the copy again.")
    obj["mode"] = obj.get("mode", "host")
    if obj.get("save") is not None:
        obj["save"] = validate_save(obj["save"], what="game in this file")
        if obj["save"]["game"] != obj["game"]:
            raise SaveCodeError("game", "The game in this file is of another kind than its page.")
    return obj


def _continues(stored: Mapping[str, Any], save: Mapping[str, Any]) -> bool:
    """The stored game is the file's game, maybe played on (or back) since."""
    return stored.get("game") == save["game"] and dict(stored.get("options", {})) == dict(save["options"])


def slot_for_copy(
    store: SlotStore, copy_id: str, save: Mapping[str, Any], name: str, now: float, mode: str = "host"
) -> tuple[str, bool]:
    """The slot to open for a copy's game: ``(slot id, continued)``.

    The slot this browser kept for the copy if it still holds the same game (same options:
    then its moves, made after the file was written, are newer than the file's); else the
    file's game in a new slot (or an identical stored one). Raises StorageError when the
    storage refuses the write."""
    pointer = POINTER_PREFIX + copy_id
    sid = store.backend.get(pointer)
    if sid:
        try:
            stored = store.open(sid)
        except (KeyError, SaveCodeError, StorageError):
            stored = None
        if stored is not None and _continues(stored, save):
            return sid, True
    slot, _ = store.add_from_link(dict(save), mode, name, now)
    store.backend.set(pointer, slot.id)
    return slot.id, False


def copy_filename(game_id: str, title: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9]+", "-", title).strip("-").lower()[:40] or "game"
    return f"conquest-{game_id}-{stem}-offline.html"


# -- in the page ----------------------------------------------------------------------------
def in_copy() -> bool:
    import js  # type: ignore[import-not-found]

    return bool(js.document.documentElement.hasAttribute("data-offline-copy"))


def attach(runner: Any) -> None:
    """The shell's offline button: "Download offline copy" on the site, "Save to file" in a copy."""
    import frame
    import js  # type: ignore[import-not-found]

    button = js.document.getElementById("shell-offline")
    if frame.nullish(button):
        return
    copy = in_copy()
    if copy:
        button.textContent = "Save to file"
        note = js.document.getElementById("shell-offline-note")
        if not frame.nullish(note):
            note.textContent = "Writes this file again, with the game as it is now: keep that file to keep your moves."
    frame.on(button, "click", lambda ev: make_copy(runner, button, copy))


async def make_copy(runner: Any, button: Any, copy: bool) -> None:
    import frame
    import js  # type: ignore[import-not-found]

    shell, s = runner.shell, runner.shell.session
    save = None if s is None else s.save()
    title = str((save or {}).get("options", {}).get("title") or shell.game.title)
    own = _own_state() if copy else None
    state = copy_state(
        shell.game.id,
        f"play_{shell.game.id}",
        save,
        str(own["site"]) if own else runner.host.page_url(),
        str(own["copy"]) if own else None,
        frame.now(),
        "host" if s is None else str(s.mode),
    )
    label = str(button.textContent)
    button.disabled = True
    button.textContent = "Writing the file…" if copy else "Preparing the offline copy…"
    name = copy_filename(shell.game.id, title)
    try:
        size = await js.conquestOfflineCopy(json.dumps(state, ensure_ascii=False), name, json.dumps(lazy_files()))
    except Exception as exc:  # a failed fetch or an old browser: say so, nothing is lost
        shell.say(f"The offline copy could not be made ({exc}). Your game is unchanged.", "error")
    else:
        mb = float(size) / 1e6
        shell.say(
            f"Saved {name} ({mb:.1f} MB) with the game as it is now."
            if copy
            else f"Offline copy saved as {name} ({mb:.1f} MB): open it from your downloads to play without a network."
        )
    finally:
        button.disabled = False
        button.textContent = label
    runner.render()


def lazy_files() -> list[list[str]]:
    """Data files kept out of app.zip that this page has read (``conquest.catalog.LAZY_DIR``:
    fetched only when a game needed them, e.g. an old game's questions): ``[[name, site
    path]]``, embedded in the copy so that game plays from disk too."""
    from contract import LAZY_DATA_URL

    from conquest.catalog import LAZY_DIR

    if not LAZY_DIR.is_dir():
        return []
    return [[p.name, LAZY_DATA_URL + p.name] for p in sorted(LAZY_DIR.glob("*.json"))]


def embedded_lazy(name: str) -> bytes:
    """In a copy: a data file of ``LAZY_DIR`` from the copy itself (``data-offline-lazy``),
    for :func:`conquest.catalog.read_lazy`. OSError when the copy lacks it."""
    import base64
    import gzip

    import js  # type: ignore[import-not-found]

    for node in js.document.querySelectorAll("script[data-offline-lazy]"):
        if str(node.dataset.offlineLazy) == name:
            return gzip.decompress(base64.b64decode(str(node.textContent)))
    raise OSError(f"this offline copy lacks {name} (made before its game needed it?); download it again from the site")


def _own_state() -> dict[str, Any] | None:
    import frame
    import js  # type: ignore[import-not-found]

    node = js.document.getElementById(STATE_ID)
    if frame.nullish(node):
        return None
    try:
        return read_copy_state(str(node.textContent))
    except SaveCodeError:
        return None


def boot_copy() -> None:
    """In an offline copy, once Python runs: storage, the file's game, then the page."""
    import importlib

    import frame
    import js  # type: ignore[import-not-found]
    from contract import ENGINE_FAILED

    from conquest.store import MemoryBackend
    from conquest.store import SlotStore as Store

    try:
        node = js.document.getElementById(STATE_ID)
        state = read_copy_state("" if frame.nullish(node) else str(node.textContent))
    except SaveCodeError as exc:
        getattr(js.window, ENGINE_FAILED)(exc.message)
        return
    try:
        backend: Any = PrefixBackend(frame.LocalStorageBackend(js.window.localStorage))
        list(backend.keys())
    except Exception:  # storage disabled for file:// pages in this browser
        backend = MemoryBackend()
        frame.storage_ok = False
        frame.show_notice(NO_STORAGE)
    frame._store = Store(backend)
    from conquest.catalog import set_lazy_fetch

    set_lazy_fetch(embedded_lazy)  # the copy fetches nothing: its data files are inside it
    href = str(js.location.href)
    save = state.get("save")
    # a fresh open of the file (no query, no fragment): the file's game; otherwise the shell
    # does as on the site (e.g. "?" is the set-up, "?slot=…" a kept game)
    if save is not None and "?" not in href and "#" not in href:
        try:
            from shell import check_save

            check_save(save)
            name = frame.slot_name(save, state["mode"])
            sid, _ = slot_for_copy(frame._store, state["copy"], save, name, frame.now(), state["mode"])
        except SaveCodeError as exc:
            frame.show_error(f"The game in this file could not be opened: {exc.message}")
        except StorageError as exc:
            frame.show_error(f"{exc} Use “Save to file” to keep your moves.")
        else:
            js.history.replaceState(js.history.state, "", f"?slot={sid}")
    try:
        frame.READY_TEXT[0] = "Engine ready · offline copy"  # where the person is, in words
        page = importlib.import_module(state["module"])
        if hasattr(page, "main"):
            page.main()  # a game page says ready once its game is open (it opens in slices)
        if not frame.BOOT_OPENING[0]:
            frame.ready()
    except BaseException as exc:
        getattr(js.window, ENGINE_FAILED)(f"{type(exc).__name__}: {exc}")
        raise
