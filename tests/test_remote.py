"""Guest devices that run no engine (issue 37), in CPython: the host's page draws each
device's page (``site/py/remote.py``) and sends ui trees and patches; a device fires only
the handlers it was last sent.

The device here is :class:`live_kit.WireDevice` (shared with the other live tests): it
keeps what the host sent as plain JSON (the containers' children, built by the same rules as
``static/guest-dom.js``: whole trees, then ops applied in order) and sends events by handler
key, as the page in the browser does.
"""
from __future__ import annotations

import json
from typing import Any

from live_kit import Wire, WireDevice, apply_ops, attrs, keys_of, tap, text_of, world_host
from page_host import make_page
from reign import ReignPage
from remote import diff, handlers_of, wire
from ui import Node, h
from world import WorldPage

from conquest.core import get_game

WORLD = get_game("world")


# -- the tests ------------------------------------------------------------------------------------
def test_wire_and_diff_rebuild_the_same_tree() -> None:
    old = [h("div", h("p", "a", id="x"), h("button", "Go", on_click=lambda ev: None), "tail", cls="box")]
    new = [h("div", h("p", "b", id="x"), h("span", "Go"), cls="box wide"), h("input", value="7", on_input=lambda ev: None)]
    containers = {"c": [wire(n) for n in old]}
    ops = diff("c", old, new)
    apply_ops(containers, ops)
    assert containers["c"] == [wire(n) for n in new]
    # a text stays a string on the wire: nothing a name holds becomes markup
    assert wire(h("p", "<script>x</script>"))["c"] == ["<script>x</script>"]
    assert list(handlers_of("c", new)) == ["c/.1/input"]
    assert diff("c", new, new) == []


def first_option(node: Any) -> str | None:
    if isinstance(node, str):
        return None
    if node.get("g") == "option" and "value" in node.get("a", {}):
        return node["a"]["value"]
    for c in node.get("c", []):
        found = first_option(c)
        if found is not None:
            return found
    return None


def test_a_list_that_moved_on_is_patched_as_a_move_and_its_handlers_named_anew() -> None:
    """The log's window of rows moves on by a row a step: the device drops the first row and
    gets the new last one, not every row again; the handlers below are named by their new
    places, so a tap on a row fires that row's handler."""
    fired: list[int] = []

    def rows(first: int) -> list[Node | str]:
        return [h("ul", *[h("li", h("button", f"Step {i}", on_click=lambda ev, i=i: fired.append(i)),
                            data_step=str(i), aria_setsize=str(first + 12)) for i in range(first, first + 12)], id="log")]

    old, new = rows(1), rows(2)
    ops = diff("log-box", old, new)
    assert ops[0] == ["d", "log-box", [0], 1] and ops[-1][0] == "r"
    assert {op[0] for op in ops[1:-1]} == {"m"}  # each row's one changed attribute, no more
    containers = {"log-box": [wire(n) for n in old]}
    apply_ops(containers, ops)
    assert containers["log-box"] == [wire(n) for n in new]
    handlers = handlers_of("log-box", new)
    key = next(k for k, node in keys_of("log-box", containers["log-box"]).items() if text_of(node) == "Step 5")
    handlers[key][1](None)  # type: ignore[arg-type]
    assert fired == [5]


def test_world_guest_plays_a_turn_from_the_trees_it_is_sent() -> None:
    shell, host = world_host(deal="on")
    w = Wire(shell, host, WorldPage)
    bob = w.join("bob")
    assert "Free seats" in bob.text("live-panel")
    tap(w, bob, "live-panel", lambda k, n: attrs(n).get("data-take") == "1")
    assert "You play Bob" in bob.text("live-panel")
    assert next(iter(w.table.seating.devices.values())).seat == 1
    s = shell.session
    assert s is not None
    # Ann (the host) plays until it is Bob's move, then Bob plays from his trees alone
    while s.acting_seat() != 1:
        assert shell.play(WORLD.legal_actions(s.match.state)[0]), shell.message
        w.table.sync()
        w.run()
    assert "Bob: place a troop" in bob.text("shell-bar")
    before = len(s.match.log)
    # a tap on the map (mapboard.js's game-pick) places a troop, as on the host
    mine = WORLD.legal_actions(s.match.state)[0].t
    w.send("bob", {"t": "pick", "i": mine})
    assert len(s.match.log) == before + 1, bob.text("shell-toast")
    while s.acting_seat() != 1:
        assert shell.play(WORLD.legal_actions(s.match.state)[0]), shell.message
        w.table.sync()
        w.run()
    # the Choose list: a form whose submit carries the chosen option, typed text with the submit
    key, form = bob.find("wc-choose", lambda k, n: k.endswith("/submit"))
    before = len(s.match.log)
    w.send("bob", {"t": "ev", "k": key, "type": "submit", "f": {"t": first_option(form)}})
    assert len(s.match.log) == before + 1, bob.text("shell-toast")
    assert bob.shares >= 1  # the device made its own share of the draws
    # later messages were patches on the last one, and only when the page changed
    uis = [m for m in bob.inbox if m["t"] == "ui"]
    assert uis[0].get("full") and all("full" not in m for m in uis[1:])
    assert all(m["base"] == m["n"] - 1 for m in uis[1:])
    # the other seats' cards are never in Bob's trees: each device is drawn from its own view
    n = len(bob.inbox)
    w.devices.pages["bob"].changed()
    w.run()
    assert len(bob.inbox) == n, bob.inbox[n:]  # nothing changed: nothing sent


def test_a_forged_or_stale_handler_is_refused_and_changes_nothing() -> None:
    shell, host = world_host()
    w = Wire(shell, host, WorldPage)
    bob = w.join("bob")
    s = shell.session
    assert s is not None
    n = len(s.match.log)
    w.send("bob", {"t": "ev", "k": "wc-panel/.0.9.9/click", "type": "click"})
    assert "no longer on your screen" in bob.text("shell-toast")
    # the right key with the wrong kind, and fields of the wrong kind or size
    key, _ = bob.find("live-panel", lambda k, n: k.endswith("/click"))
    w.send("bob", {"t": "ev", "k": key, "type": "submit"})
    w.send("bob", {"t": "ev", "k": key, "type": "click", "v": "x" * 5000})
    w.send("bob", {"t": "ev", "k": key, "type": "click", "f": ["not", "a", "table"]})
    assert len(s.match.log) == n
    assert w.devices.pages["bob"].refused == 4
    # a stranger who never opened a page is answered alone, and nothing else is touched
    w.ends["eve"] = WireDevice("eve")
    w.send("eve", {"t": "ev", "k": key, "type": "click"})
    assert w.ends["eve"].inbox[-1]["t"] == "refused"


def find_any(d: WireDevice, pred: Any) -> str:
    for cid in d.containers:
        for key, node in keys_of(cid, d.containers[cid]).items():
            if pred(key, node):
                return key
    raise LookupError("no such control")


def test_reign_secret_choices_made_at_once_on_two_devices() -> None:
    shell, _, host = make_page(ReignPage)
    assert shell.start({"seat-name-0": "Ann", "seat-who-0": "human", "seat-name-1": "Bob", "seat-who-1": "human",
                        "seat-colour-0": "#e69f00", "seat-colour-1": "#56b4e9"}) is not None, shell.message
    w = Wire(shell, host, ReignPage)
    w.table.release(0)  # the host's device keeps no seat: both play on their own
    ann, bob = w.join("ann"), w.join("bob")
    tap(w, ann, "live-panel", lambda k, n: attrs(n).get("data-take") == "0")
    tap(w, bob, "live-panel", lambda k, n: attrs(n).get("data-take") == "1")
    s = shell.session
    assert s is not None and shell.game.simultaneous(s.match.state) == (0, 1)
    n = len(s.match.log)
    picks = {}
    for dev, seat in ((bob, 1), (ann, 0)):
        cards = []
        for _ in range(2):
            key = find_any(dev, lambda k, node: k.endswith("/click") and "data-card" in attrs(node)
                           and attrs(node).get("aria-pressed") == "false")
            cards.append(key)
            w.send(dev.peer, {"t": "ev", "k": key, "type": "click"})
        picks[seat] = cards
        w.send(dev.peer, {"t": "ev", "k": find_any(dev, lambda k, node: attrs(node).get("id") == "rg-pick-go"), "type": "click"})
        if seat == 1:
            # Bob has chosen: both devices say so, and Ann's trees never hold Bob's cards
            assert s.secret_parts and 1 in s.secret_parts and len(s.match.log) == n
            assert "Bob has chosen" in ann.text("shell-bar")
            part = str(s.secret_parts[1])
            assert part not in json.dumps([m for m in ann.inbox if m["t"] == "ui"])
    assert len(s.match.log) == n + 1  # both parts joined into one step
    assert "Bob has chosen" not in ann.text("shell-bar")
