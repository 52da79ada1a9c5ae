"""Guest devices that run no engine (issue 37): the host's page draws every device's page.

Why: a guest that booted the whole engine waited for 6.6 MB and Python's start before its
seat showed (54 s on a phone profile). The host's page is the one authority and already
holds each seat's redacted view; here it also keeps, for each connected device, that
device's page (:class:`DevicePage`: the same :class:`shell.Shell` and game page as hot-seat
play, on the :class:`live.GuestSession` the table's own messages keep up to date) and sends
the device what that page draws: ``ui`` trees, whole on joining, then patches against the
last trees that device was sent (:func:`diff`). The device (``static/guest.js``,
``static/guest-dom.js``: no Python) applies them and sends back the events on elements
with a handler; the host fires that handler in that device's page, as a tap fires it here.

Why the table's own protocol stays inside: each device page talks to :class:`live.Table`
through a loopback (its :class:`live.Guest` sends hello, claims and intents as before, and
the table's redacted updates reach only that device's page), so every check the table
makes (seats, steps, rates, the engine's refusals) holds as before, and a device's page is
only ever drawn from its own seat's view (a spectator's: the spectator's).

Untrusted devices: a device may fire only a handler in the trees it was last sent, with
fields of the right kind and size (:func:`check_event`); anything else is refused to that
device alone and changes nothing. Rates and sizes are bounded before anything is parsed.
Nothing here imports ``js``: the browser glue is ``live_browser.py``; the tests drive it in
CPython (tests/test_remote.py). The wire format is in site/README.md ("Guest devices").
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any

import live
from shell import Shell
from ui import Event, Node, h, same

from conquest.session import excerpt
from conquest.store import MemoryBackend, SlotStore

__all__ = [
    "UI_KINDS", "wire", "handlers_of", "diff", "check_event", "RemoteHost", "DevicePage", "Devices",
]

#: what a device may send the host (everything else is the table's own protocol, inside)
UI_KINDS = {"open", "ev", "pick", "key", "scroll", "share", "resync", "bye"}
#: a device's events that are a person's act (issue 41): its next update brings ``data-now`` into view
ACT_KINDS = {"click", "change", "submit", "keydown"}
#: the events a device may send (``ui._EVENTS``)
EVENT_KINDS = {
    "click", "input", "change", "submit", "keydown", "focus", "blur",
    "pointerdown", "pointermove", "pointerup", "pointercancel", "pointerover", "pointerout",
}
#: bounds of an event's fields (the client cuts to these; longer is refused)
MAX_VALUE = 2000
MAX_FIELDS = 40
MAX_DATA_CHARS = 200
MAX_KEY_CHARS = 40
#: a device's chart is drawn this wide until it says how wide its box is
CHART_WIDTH = 640


# -- trees on the wire --------------------------------------------------------------------------
def wire(node: Node | str) -> Any:
    """A tree as JSON (site/README.md, "Guest devices"): text stays a string (the device sets
    it as text); an element is ``{"g": tag, "a": attrs, "c": children, "e": handler kinds,
    "p": props, "s": 1 for SVG}``, empty parts left out. Handlers travel as their kinds only:
    the device names them by place, as ``dom.py`` does."""
    if isinstance(node, str):
        return node
    out: dict[str, Any] = {"g": node.tag}
    if node.attrs:
        out["a"] = dict(node.attrs)
    if node.children:
        out["c"] = [wire(c) for c in node.children]
    if node.on:
        out["e"] = sorted(node.on)
    if node.props:
        out["p"] = _props(node)
    if node.ns is not None:
        out["s"] = 1
    return out


def _props(node: Node) -> dict[str, Any]:
    """An element's properties as the device sets them (``checked`` a boolean, ``value`` text)."""
    return {k: (bool(v) if k == "checked" else str(v)) for k, v in node.props.items()}


def children_of(tree: Node) -> list[Node | str]:
    """What a container shows of a tree (``dom.mount``): a fragment's children, or the one node."""
    return list(tree.children) if tree.tag == "#fragment" else [tree]


def handlers_of(cid: str, children: list[Node | str]) -> dict[str, tuple[str, Callable[[Event], Any]]]:
    """``{key: (kind, handler)}`` of a container's trees, keyed as ``dom.py`` keys them
    (``<container>/<path>/<kind>``, the path the child indexes from the container)."""
    out: dict[str, tuple[str, Callable[[Event], Any]]] = {}

    def visit(node: Node | str, path: str) -> None:
        if isinstance(node, str):
            return
        for kind, fn in node.on.items():
            out[f"{cid}/{path}/{kind}"] = (kind, fn)
        for i, c in enumerate(node.children):
            visit(c, f"{path}.{i}")

    for i, c in enumerate(children):
        visit(c, f".{i}")
    return out


def diff(cid: str, old: list[Node | str], new: list[Node | str]) -> list[list[Any]]:
    """The patch ops that make a container showing ``old`` show ``new`` (the rules of
    ``dom._patch``: an element of the same tag is kept and only what changed is set; a
    different one is replaced whole; props are sent when they changed, so what a person
    typed since survives a patch that did not change them)."""
    ops: list[list[Any]] = []
    _diff_children(cid, [], old, new, ops)
    return ops


#: a list moved on by at most this many children is patched as a move (``_moved``)
MAX_MOVE = 16


def _moved(old: list[Node | str], new: list[Node | str]) -> int:
    """How many children a list dropped from its start, when it did (the log drawn as it is
    scrolled shows a window of rows that moves on by a row a step): 0 otherwise. Patched by
    position, every row was rewritten each step (30-38 KiB per device per step of World,
    bench/guests.py); as a move, the rows that stay are left alone."""
    if len(old) < 8 or len(new) < 8:
        return 0
    first = _key(new[0])
    if first is None or first == _key(old[0]):
        return 0
    for k in range(1, min(MAX_MOVE, len(old) - 1) + 1):
        if _key(old[k]) == first:
            return k
    return 0


def _key(node: Node | str) -> str | None:
    """What names a row of a list whatever its place (the log's ``data-step``, an ``id``)."""
    if isinstance(node, str):
        return None
    return node.attrs.get("data-step") or node.attrs.get("id")


def _diff_children(cid: str, path: list[int], old: list[Node | str], new: list[Node | str], ops: list[list[Any]]) -> None:
    k = _moved(old, new)
    if k:
        ops.append(["d", cid, path, k])  # the device drops them and names its handlers anew
        old = old[k:]
    for i, child in enumerate(new):
        if i < len(old):
            _diff(cid, [*path, i], old[i], child, ops)
        else:
            ops.append(["r", cid, [*path, i], wire(child)])
    if len(old) > len(new):
        ops.append(["x", cid, path, len(new)])


def _diff(cid: str, path: list[int], old: Node | str, new: Node | str, ops: list[list[Any]]) -> None:
    if same(old, new):
        return
    if isinstance(new, str):
        ops.append(["s", cid, path, new] if isinstance(old, str) else ["r", cid, path, new])
        return
    if isinstance(old, str) or old.tag != new.tag or old.ns != new.ns:
        ops.append(["r", cid, path, wire(new)])
        return
    if old.on.keys() != new.on.keys():
        ops.append(["a", cid, path, dict(new.attrs), sorted(new.on)])
    elif old.attrs != new.attrs:  # only what changed (a row of a moving list: its position)
        ops.append(["m", cid, path, {k: v for k, v in new.attrs.items() if old.attrs.get(k) != v}
                    | {k: None for k in old.attrs if k not in new.attrs}])
    _diff_children(cid, path, old.children, new.children, ops)
    if new.props and new.props != old.props:
        ops.append(["p", cid, path, _props(new)])


def merge_paint(painted: dict[str, dict[str, dict[str, Any]]], new: Mapping[str, Any]) -> dict[str, Any]:
    """Add a page's paint patches (build-time elements: the map's territories) to what a
    device's page holds (``painted``, changed in place); returns only what is new to it.

    Why: a page's ``paint`` returns what changed since its own last paint (World keeps its
    map's state), so a device's page keeps the sum, sent whole when the device is drawn
    whole again (a join, a resync) and as the differences otherwise."""
    out: dict[str, Any] = {}
    for eid, patch in new.items():
        have = painted.setdefault(eid, {})
        delta: dict[str, dict[str, Any]] = {}
        for part, values in patch.items():
            now = have.setdefault(part, {})
            for k, v in values.items():
                if k not in now or now[k] != v:
                    now[k] = v
                    delta.setdefault(part, {})[k] = v
        if delta:
            out[eid] = delta
    return out


def _plain_paint(paint: Mapping[str, Any]) -> dict[str, Any]:
    """A page's paint patches as JSON (values as the browser side would set them)."""
    out: dict[str, Any] = {}
    for eid, patch in paint.items():
        p: dict[str, Any] = {}
        if patch.get("class"):
            p["class"] = {str(k): bool(v) for k, v in patch["class"].items()}
        if patch.get("style"):
            p["style"] = {str(k): (None if v is None else str(v)) for k, v in patch["style"].items()}
        if patch.get("attrs"):
            p["attrs"] = {str(k): (None if v is None else str(v)) for k, v in patch["attrs"].items()}
        out[str(eid)] = p
    return out


# -- a device's events --------------------------------------------------------------------------
def _short(value: Any, limit: int, what: str) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise live.LiveError("live.malformed", f"An event's {what} must be text of at most {limit} characters.")
    return value


def _table_of(value: Any, what: str, limit: int) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > MAX_FIELDS:
        raise live.LiveError("live.malformed", f"An event's {what} must be at most {MAX_FIELDS} named texts.")
    return {_short(k, 80, what): _short(v, limit, what) for k, v in value.items()}


def check_event(msg: Mapping[str, Any], handlers: Mapping[str, tuple[str, Any]]) -> tuple[Callable[[Event], Any], Event]:
    """A device's event, checked: its handler must be in the trees the device was last sent
    (a stale or forged key is refused), and every field of the right kind and size. Returns
    the handler and the :class:`ui.Event` to fire it with; raises :class:`live.LiveError`."""
    key = msg.get("k")
    kind = msg.get("type")
    if not isinstance(key, str) or len(key) > 200 or kind not in EVENT_KINDS:
        raise live.LiveError("live.malformed", "An event names a control and its kind.")
    found = handlers.get(key)
    if found is None or found[0] != kind:
        raise live.LiveError(
            "live.stale-control",
            f"That control ({excerpt(key, 40)}) is no longer on your screen: nothing was changed.",
        )
    ctrl, shift, alt, meta = _mods(msg)
    x, y = msg.get("x", 0), msg.get("y", 0)
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and abs(v) < 1e6 for v in (x, y)):
        raise live.LiveError("live.malformed", "An event's position is two numbers.")
    checked = msg.get("c", False)
    if not isinstance(checked, bool):
        raise live.LiveError("live.malformed", "An event's checked state is true or false.")
    event = Event(
        type=kind,
        value=_short(msg.get("v", ""), MAX_VALUE, "value"),
        checked=checked,
        key=_short(msg.get("key", ""), MAX_KEY_CHARS, "key"),
        fields=_table_of(msg.get("f"), "fields", MAX_VALUE),
        data=_table_of(msg.get("d"), "data", MAX_DATA_CHARS),
        under=_table_of(msg.get("u"), "data", MAX_DATA_CHARS),
        x=float(x), y=float(y),
        ctrl=ctrl, shift=shift, alt=alt, meta=meta,
    )
    return found[1], event


def _mods(msg: Mapping[str, Any]) -> tuple[bool, bool, bool, bool]:
    """The modifier keys an event names (``m``: some of the letters c, s, a, m): ctrl,
    shift, alt, meta."""
    mods = msg.get("m", "")
    if not isinstance(mods, str) or len(mods) > 4 or set(mods) - set("csam"):
        raise live.LiveError("live.malformed", "An event's modifier keys are some of the letters c, s, a, m.")
    return "c" in mods, "s" in mods, "a" in mods, "m" in mods


# -- a device's page, on the host ---------------------------------------------------------------
class RemoteHost:
    """:class:`shell.Host` for a device's page: the host page's clock and timers, and nothing
    of its storage (a device's preferences live in memory, never in the host's browser);
    focus and scrolling are passed on to the device with its next update."""

    #: the site's root seen from the device's page, ``play/<game>/guest/``: a folder deeper
    #: than the host's ``play/<game>/``, so a file of the site a page draws (a question's
    #: picture, issue 40) is named from there (a page's own host has no ``site_root``)
    site_root = "../../../"

    #: the device is a touch screen (it says so when it opens its page, ``{"touch": true}``):
    #: its words say "Tap", not "Click" (``shell.tap_word``, issue 41)
    touch = False

    def __init__(self, device: DevicePage, base: Any) -> None:
        self.device = device
        self.base = base
        self.store = SlotStore(MemoryBackend())
        self.prefs: dict[str, str] = {}

    def now(self) -> float:
        return float(self.base.now())

    def clock(self) -> float:
        return float(self.base.clock())

    def page_url(self) -> str:
        return str(self.base.page_url())

    def go(self, query: str) -> None:
        pass  # the device's address is its own

    def later(self, ms: float, fn: Callable[[], None]) -> None:
        def run() -> None:
            if not self.device.gone:
                fn()
                self.device.changed()

        self.base.later(ms, run)

    def rerender(self) -> None:
        self.device.changed()

    def focus(self, element_id: str) -> None:
        self.device.pending["focus"] = element_id

    def reveal(self, element_id: str) -> None:
        self.device.pending["reveal"] = element_id

    def set_style(self, element_id: str, prop: str, value: str) -> None:
        pass  # a drag's ghost: drawn on the host's own screen only

    def load_pref(self, key: str) -> str | None:
        return self.prefs.get(key)

    def save_pref(self, key: str, value: str) -> bool:
        self.prefs[key] = value[:10_000]
        return True

    #: no dialog can be put on a device's screen: a page that asks before a step asks in its
    #: own tree instead (the Metagame's spending steps), and ``confirm`` answers no
    dialogs = False

    def confirm(self, question: str) -> bool:
        return False  # nothing that asks by a dialog is done

    def open_tab(self, url: str) -> bool:
        return False

    def form_fields(self, form_id: str) -> dict[str, str]:
        return {}

    def set_fields(self, values: Mapping[str, str | bool]) -> None:
        pass


class DevicePage:
    """One connected device's page, kept and drawn by the host's page.

    ``to_table(text)`` is the loopback into :meth:`live.Table.receive` (as from this device's
    peer); ``send(text)`` sends the device a message (signed by the transport). The table's
    messages for this device's peer are given to :meth:`from_table`."""

    def __init__(self, page_class: Any, game: Any, base_host: Any, peer: str, token: str, name: str,
                 to_table: Callable[[str], None], send: Callable[[str], None],
                 on_change: Callable[[DevicePage], None], want: int | None = None,
                 seat_link: bool = False, chart_width: int = CHART_WIDTH, host_page: Any = None,
                 touch: bool = False) -> None:
        self.peer = peer
        self.send = send
        self.on_change = on_change
        self.gone = False
        self.pending: dict[str, Any] = {}
        self.rhost = RemoteHost(self, base_host)
        self.rhost.touch = touch
        self.shell = Shell(game, self.rhost)
        self.page = page_class(self.shell)
        self.page.host_page = host_page
        self.shell.page = self.page
        # a device's page is drawn step by step, never animated; but a page whose draw is
        # watched on every device (the Metagame's wheel, M10) turns there too: the device's
        # CSS turns it, and the result is drawn when it stops (``turns_on_devices``)
        self.page.reduced_motion = not getattr(page_class, "turns_on_devices", False)
        self.guest = live.Guest(self.shell, to_table, token, name)
        self.guest.seat_link = seat_link
        self.guest.want = want
        self.guest.host_seen("host")
        self.guest.send_share = self._want_share  # type: ignore[method-assign] - made on the device
        self.chart_width = chart_width
        #: what the device was last sent: each container's children, paint, flags
        self.sent: dict[str, list[Node | str]] = {}
        self.painted: dict[str, dict[str, dict[str, Any]]] = {}
        self.sent_flags: dict[str, Any] = {}
        self.handlers: dict[str, tuple[str, Callable[[Event], Any]]] = {}
        self.n = 0
        self.full = True
        self.dirty = True
        self.announced = ""
        self.share_wanted = False
        self.name_sent = name
        self.refused = 0  # events refused (forged, stale, malformed)
        #: the person on the device tapped, clicked or typed since the last update; and the
        #: step the last update showed (a message alone is no step: a notice fading is a
        #: timer's): the next update after either tells the device to bring ``data-now`` into
        #: view (``"now": true``, guest-dom.js ``bringNow``)
        self.acted = False
        self.now_key: Any = None
        #: ``(session id, log length)`` when this device's page was last drawn: steps that
        #: came from another device since then are this device's newest result (issue 41),
        #: as a computer's replies are at the host's own device
        self.drawn_steps: tuple[int, int] | None = None
        self.limit = live.RateLimit()

    # -- the table's side ---------------------------------------------------------------------
    def from_table(self, text: str) -> None:
        self.guest.receive("host", text, True)
        self.changed()

    def _want_share(self) -> None:
        """This device's share of the next draws (issue 26) is made on the device itself
        (asked with its next update), so no draw is the host's alone."""
        self.share_wanted = True

    def changed(self) -> None:
        self.dirty = True
        self.on_change(self)

    # -- the device's side ----------------------------------------------------------------------
    def receive(self, msg: Mapping[str, Any]) -> None:
        """A checked message from the device (``Devices.receive`` bounded and parsed it)."""
        kind = msg.get("t")
        try:
            if kind == "ev":
                fn, event = check_event(msg, self.handlers)
                self.acted = self.acted or event.type in ACT_KINDS
                if self.shell.message and self.shell.message[0] == "error":
                    self.shell.clear_message()  # an earlier refusal gives way to what this tap does
                self._as_tap(fn, event)
            elif kind == "pick":
                self.acted = True
                index = msg.get("i")
                if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < 100_000:
                    raise live.LiveError("live.malformed", "A pick names a territory by its number.")
                self._as_tap(self.shell.pick, index)
            elif kind == "key":
                self.acted = True
                ctrl, shift, alt, meta = _mods(msg)
                event = Event(type="keydown", key=_short(msg.get("key", ""), MAX_KEY_CHARS, "key"),
                              ctrl=ctrl, shift=shift, alt=alt, meta=meta)
                if self.shell.session is not None:
                    self._as_tap(self.shell.key, event)
            elif kind == "scroll":
                top, end = msg.get("top"), msg.get("end")
                if isinstance(top, int) and not isinstance(top, bool) and 0 <= top < 10**7 and isinstance(end, bool) \
                        and self.shell.session is not None:
                    self.shell.log.scrolled(top, end)
            elif kind == "resync":
                self.full = True
        except live.LiveError as exc:
            self.refused += 1
            self.shell.say(exc.message, "error")
        self.changed()

    def _as_tap(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run what the device asked as a tap runs on the host: a refusal is said in words
        on that device's page (``Runner.guard``)."""
        try:
            fn(*args)
        except Exception as exc:  # noqa: BLE001
            self.shell.refuse(exc)

    # -- drawing -------------------------------------------------------------------------------------
    def panel(self, unfolded: bool) -> Node:
        """The live panel, folded as on the host: the seat to take, the name, who is where."""
        g = self.guest
        body = live.render_guest_panel(g, self.on_panel)
        return h("details", h("summary", live.guest_summary(g), id="live-summary", cls="live-summary"), body,
                 id="live-panel-box", cls="live-details", open=unfolded)

    def on_panel(self, what: str, *args: Any) -> None:
        if what == "claim":
            self.guest.claim(args[0])
        elif what == "name":
            name = " ".join(str(args[0]).split())[: live.MAX_NAME]
            self.guest.name = name
            self.guest.hello()

    def trees(self) -> tuple[dict[str, Node], dict[str, Any], dict[str, Any]]:
        """This device's page now: ``(containers, paint, flags)``: what ``Runner._mount`` draws
        for a guest, from the session the table keeps for this device's seat."""
        shell, s = self.shell, self.shell.session
        unfolded = live.guest_wants_open(self.guest)
        out: dict[str, Node] = {"shell-toast": shell.render_message(), "live-panel": self.panel(unfolded)}
        flags: dict[str, Any] = {"hide": {"shell-setup": True, "shell-game": s is None}, "open": unfolded}
        paint: dict[str, Any] = {}
        if s is not None:
            n = len(s.match.log)
            if self.drawn_steps is not None and self.drawn_steps[0] == id(s) and n > self.drawn_steps[1] \
                    and s.result_from is None:
                s.result_from = self.drawn_steps[1]  # a peer's step: "What just happened" here too
            self.drawn_steps = (id(s), n)
            view = s.view()
            out["shell-bar"] = shell.bar.render(self.page.prompt(view))
            out["shell-over"] = shell.result.render_over_row(hide=True)
            out["shell-duel"] = h("div", id="shell-duel-inner", hidden=True)
            out["shell-viewing"] = shell.log.render_viewing()
            handover = shell.handover.render()
            out["shell-handover"] = handover
            flags["cls"] = {"shell-game": {"is-handover": "hidden" not in handover.attrs}}
            drawn = self.page.render(view)
            if isinstance(drawn, Node):
                drawn = {"game-controls": drawn}
            out.update(drawn)
            paint = _plain_paint(self.page.paint(view))
            out["shell-log-box"] = shell.log.render()
            out["shell-links"] = h("p", "At a live table the game is kept on the host's device; ask the host for links "
                                   "or a file.", id="shell-links-inner", cls="muted")
            out["shell-chart"] = shell.chart.render(self.chart_width)
            self.page.after_render()
            flags["announce"] = shell.result.announcement()
            flags["home"] = self.page.focus_home
            flags["log"] = {"end": shell.log.top is None, "reveal": shell.log.take_reveal()}
        return {cid: shell.isolated(t) for cid, t in out.items()}, paint, flags

    def update(self) -> dict[str, Any] | None:
        """The message that brings the device's screen to this page now (whole the first
        time and after a resync, else the patches), or None when nothing changed."""
        self.dirty = False
        trees, paint, flags = self.trees()
        shown = {cid: children_of(t) for cid, t in trees.items()}
        msg: dict[str, Any] = {"t": "ui"}
        if self.full:
            msg["full"] = True
            msg["c"] = {cid: [wire(c) for c in kids] for cid, kids in shown.items()}
            merge_paint(self.painted, paint)
            paint_patch: dict[str, Any] = self.painted
        else:
            ops: list[list[Any]] = []
            for cid, kids in shown.items():
                ops.extend(diff(cid, self.sent.get(cid, []), kids))
            for cid in self.sent:
                if cid not in shown:
                    ops.append(["x", cid, [], 0])
            if ops:
                msg["ops"] = ops
            paint_patch = merge_paint(self.painted, paint)
        if paint_patch:
            msg["paint"] = paint_patch
        for key in ("hide", "cls", "home", "open"):
            if self.full or flags.get(key) != self.sent_flags.get(key):
                if key in flags:
                    msg[key] = flags[key]
        announce = flags.get("announce")
        if announce and announce != self.announced:
            msg["announce"] = announce
            self.announced = announce
        log = flags.get("log")
        if log is not None and (self.full or log != self.sent_flags.get("log") or log.get("reveal") is not None):
            msg["log"] = log
        msg.update(self.pending)
        self.pending.clear()
        s = self.shell.session
        now_key = None if s is None else (id(s), len(s.match.log), s.viewing)
        stepped = now_key is not None and self.now_key is not None and now_key != self.now_key \
            and now_key[0] == self.now_key[0]
        if (self.acted or stepped) and now_key is not None and (self.full or len(msg) > 1):
            msg["now"] = True  # a tap's or a peer's step: not a timer's tick alone
        self.acted = False
        self.now_key = now_key
        if self.share_wanted:
            msg["share"] = True
            self.share_wanted = False
        if self.guest.name != self.name_sent:
            msg["name"] = self.name_sent = self.guest.name  # kept on the device for its next table
        if not self.full and len(msg) == 1:
            return None
        msg["n"] = self.n + 1
        if not self.full:
            msg["base"] = self.n
        self.n += 1
        self.full = False
        self.sent = shown
        self.sent_flags = flags
        self.handlers = {}
        for cid, kids in shown.items():
            self.handlers.update(handlers_of(cid, kids))
        return msg

    def flush(self) -> int:
        """Send the device its update if its page changed; the characters sent (0: none)."""
        if self.gone or not self.dirty:
            return 0
        msg = self.update()
        if msg is None:
            return 0
        text = json.dumps(msg, separators=(",", ":"), ensure_ascii=False)
        self.send(text)
        return len(text)


class Devices:
    """The host's devices' pages, by peer: the wire's side of a live table.

    ``send(peer, text)``: the transport (signed); ``later(ms, fn)``: the host page's timer
    (each device's page is drawn in a task of its own, so the host's page stays answerable
    however many devices there are). The :class:`live.Table`'s ``send`` is :meth:`deliver`."""

    def __init__(self, page_class: Any, game: Any, base_host: Any, send: Callable[[str, str], None]) -> None:
        self.page_class = page_class
        #: the host's own page (``GamePage.host_page`` of every device's page)
        self.host_page: Any = None
        self.game = game
        self.base_host = base_host
        self.send = send
        self.table: live.Table | None = None
        self.pages: dict[str, DevicePage] = {}
        self._strangers: dict[str, live.RateLimit] = {}
        self._queued: list[str] = []
        self._flushing = False
        self._idle: list[Callable[[], None]] = []
        self.refused = 0  # messages refused before any page saw them (flood, size, shape)
        #: bytes sent per device message (the benchmark reads them)
        self.sent_chars: list[int] = []

    def redraw(self) -> None:
        """Every device's page is drawn again (what it shows of the host's page changed)."""
        for page in self.pages.values():
            page.changed()

    def attach(self, table: live.Table) -> None:
        self.table = table
        table.send = self.deliver

    # -- the table's messages: to the device's page, never over the wire -----------------------
    def deliver(self, peer: str, text: str) -> None:
        page = self.pages.get(peer)
        if page is not None:
            page.from_table(text)

    def connected(self, peer: str) -> None:
        """A peer joined the room: it is told who the host is (it answers with ``open``)."""
        self._send(peer, {"t": "host", "game": self.game.id})

    def disconnected(self, peer: str) -> None:
        page = self.pages.pop(peer, None)
        if page is not None:
            page.gone = True
        if self.table is not None:
            self.table.disconnected(peer)

    def _send(self, peer: str, msg: Mapping[str, Any]) -> None:
        self.send(peer, json.dumps(msg, separators=(",", ":"), ensure_ascii=False))

    # -- a device's messages ------------------------------------------------------------------------
    def receive(self, peer: str, raw: Any, now_ms: float) -> None:
        """One message from a device: rate, size, JSON, shape (``live.parse_message``), then
        its page. A refusal is said to that device alone and changes nothing."""
        page = self.pages.get(peer)
        limit = page.limit if page is not None else live.stranger_limit(self._strangers, peer)
        if not limit.allow(now_ms):
            self.refused += 1
            return
        try:
            msg = live.parse_message(raw)
            kind = msg.get("t")
            if kind not in UI_KINDS:
                raise live.LiveError("live.malformed", f"Unknown message kind {excerpt(str(kind), 20)}.")
            if kind == "open":
                self._open(peer, msg)
                return
            if page is None:
                raise live.LiveError("live.unknown", "Say hello first: this device has not joined the table.")
            if kind == "share":
                page.guest.send(json.dumps({"t": "share", "share": msg.get("share")}))
                return
            if kind == "bye":
                self.disconnected(peer)
                return
            page.receive(msg)
        except live.LiveError as exc:
            self.refused += 1
            if page is not None:
                page.refused += 1
                page.shell.say(exc.message, "error")
                page.changed()
            else:
                self._send(peer, {"t": "refused", "code": exc.code, "message": exc.message})

    def _open(self, peer: str, msg: Mapping[str, Any]) -> None:
        """A device opens its page (the join link's token, the name it keeps, the seat its
        link is for): a page is made for it and it says hello to the table through it."""
        if self.table is None or not self.table.open:
            raise live.LiveError("live.closed", "The host closed this table.")
        token = msg.get("device")
        if not isinstance(token, str) or not 16 <= len(token) <= 64:
            raise live.LiveError("live.malformed", "A device's token must be 16 to 64 characters.")
        name = msg.get("name", "")
        name = " ".join(name.split())[: live.MAX_NAME] if isinstance(name, str) else ""
        want = msg.get("want")
        want = want if isinstance(want, int) and not isinstance(want, bool) and 0 <= want < 16 else None
        width = msg.get("w")
        width = int(width) if isinstance(width, (int, float)) and not isinstance(width, bool) and 120 <= width <= 4000 else CHART_WIDTH
        old = self.pages.pop(peer, None)
        if old is not None:
            old.gone = True
        table = self.table

        def to_table(text: str) -> None:
            table.receive(peer, text, float(self.base_host.clock()))

        page = DevicePage(
            self.page_class, self.game, self.base_host, peer, token, name, to_table,
            lambda text, p=peer: self.send(p, text), self._changed, want=want,
            seat_link=bool(msg.get("seat_link")), chart_width=width, host_page=self.host_page,
            touch=msg.get("touch") is True,
        )
        self.pages[peer] = page
        page.guest.hello()
        page.changed()

    # -- drawing, a device a task -------------------------------------------------------------------
    def _changed(self, page: DevicePage) -> None:
        if page.peer not in self._queued:
            self._queued.append(page.peer)
        if not self._flushing:
            self._flushing = True
            self.base_host.later(0, self._flush_one)

    def _flush_one(self) -> None:
        """Draw and send one waiting device's page, then the next in a task of its own."""
        while self._queued:
            peer = self._queued.pop(0)
            page = self.pages.get(peer)
            if page is None:
                continue
            chars = page.flush()
            if chars:
                self.sent_chars.append(chars)
                break
        if self._queued:
            self.base_host.later(0, self._flush_one)
        else:
            self._flushing = False
            waiting, self._idle = self._idle, []
            for fn in waiting:
                fn()

    def when_idle(self, fn: Callable[[], None]) -> None:
        """``fn()`` once every waiting device's page is drawn and sent (at once if none waits):
        the host's page draws itself after its guests', so theirs never wait for its render."""
        if self._flushing:
            self._idle.append(fn)
        else:
            fn()

    def idle(self) -> Any:
        """:meth:`when_idle` as an awaitable (an ``asyncio`` future)."""
        import asyncio

        done: asyncio.Future[None] = asyncio.get_event_loop().create_future()
        self.when_idle(lambda: None if done.done() else done.set_result(None))
        return done

    def flush_all(self) -> None:
        """Every waiting device's page now (tests; the page uses the tasks)."""
        while self._queued:
            self._flush_one()
