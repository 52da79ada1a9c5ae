"""The live tables' devices and the duels' moves, shared by the CPython tests (issue 42).

Why one module: each test file that plays at a live table had its own way to set a device
up (join, take a seat) and its own loop playing a duel to its end; copies drift, and a fix
to one (a device's name, the clock between moves) missed the others. Here:

- :class:`Net`: the table's own protocol over a fake network, each guest a real page on the
  real shell (:class:`live.Guest`), as ``tests/test_live.py`` began it;
- :class:`Wire`: guest devices that run no engine (issue 37): the host's page draws each
  device's page (``site/py/remote.py``) and the device (:class:`WireDevice`) keeps only the
  ui trees it was sent, as ``static/guest-dom.js`` does; :func:`seat_wire` seats them;
- the Metagame's duels (M12): the console at a duel (:func:`console`), a duel played in
  another tab (:func:`play_in_other_tab`), the console's live duel and its table
  (:func:`live_console`, :func:`duel_table`), and a duel played move by move on the
  players' own devices (:func:`play_live`).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from conquests import ConquestsPage
from live import TABLE_KEY, Guest, Table, device_token, parse_join_fragment, parse_seat_key
from metagame import MetagamePage
from page_host import FakeHost, make_page, render_all
from remote import Devices
from shell import GamePage, Shell
from test_metagame_duels import WHITE_MATES, campaign
from ui import Node, find, find_all, fire
from world import WorldPage

from conquest.core import get_game
from conquest.games.metagame import GAME
from conquest.rng import Rng
from conquest.session import Match

WORLD = get_game("world")
CONQUESTS = get_game("conquests")
#: the shortest finish from the start (found by a search over the engine's legal actions):
#: after Black's e5d4 White has no legal move, so Black (the defender, Bob) wins (C5)
HELPMATE = ("c1c2", "d6d1", "c2c3+C2@b3", "e5d4")
#: the shortest finish from the start that White (the attacker, Ann) wins (the same search)
WHITE_WINS = ("c1c2", "c6c5", "d1d6", "c5c4", "b2c3")
#: a host's public key as the duel's page makes it (P-256, raw, base64url: 87 characters)
HOST_KEY = "B" + "k" * 86


# -- devices at a live table: the table's own protocol (live.Guest) --------------------------------
class Net:
    """Texts between one host and its guests, delivered in order by :meth:`run`."""

    def __init__(self, host_shell: Shell, clock: FakeHost) -> None:
        self.q: list[tuple[str, str, str]] = []
        self.table = Table(host_shell, lambda peer, text: self.q.append(("host", peer, text)), "ABCDEFGH", "p" * 22)
        self.clock = clock
        self.guests: dict[str, Guest] = {}
        self.inbox: dict[str, list[str]] = {}
        self.down: set[str] = set()

    def join(self, peer: str, page_class: type[GamePage], name: str, want: int | None,
             token: str | None = None, seat_link: bool = False) -> Guest:
        shell, _, _ = make_page(page_class)
        guest = Guest(shell, lambda text, p=peer: self.q.append((p, "host", text)), token or device_token(), name)
        guest.want = want
        guest.seat_link = seat_link  # opened by a seat's own link (live_browser sets it so)
        self.guests[peer] = guest
        self.inbox[peer] = []
        self.table.connected(peer)
        self.run()
        return guest

    def leave(self, peer: str) -> None:
        self.down.add(peer)
        self.table.disconnected(peer)

    def run(self) -> None:
        while self.q:
            src, dst, text = self.q.pop(0)
            if src in self.down or dst in self.down:
                continue
            if dst == "host":
                self.table.receive(src, text, self.clock.clock())
            else:
                self.inbox[dst].append(text)
                self.guests[dst].receive("host", text, True)  # the host's signature checked (live.js)


def world_host(**who: str) -> tuple[Shell, FakeHost]:
    shell, _, host = make_page(WorldPage)
    fields = {
        "seat-count": "3", "order": "fixed",
        "seat-name-0": "Ann", "seat-colour-0": "#e69f00", "seat-who-0": "human",
        "seat-name-1": "Bob", "seat-colour-1": "#56b4e9", "seat-who-1": "human",
        "seat-name-2": "Cy", "seat-colour-2": "#009e73", "seat-who-2": "human",
    }
    fields.update(who)
    assert shell.start(fields) is not None, shell.message
    return shell, host


def device_of(net: Net, seat: int) -> Shell | None:
    """The shell that plays ``seat``: a guest's, or None for the host."""
    for peer, g in net.guests.items():
        if peer in net.down:
            continue
        s = g.session
        if s is not None and s.only_seat == seat:
            return g.shell
    return None


def play_steps(net: Net, host_shell: Shell, rng: Rng, steps: int) -> None:
    """Whoever is to move plays a random legal action on their own device."""
    for _ in range(steps):
        hs = host_shell.session
        assert hs is not None
        if WORLD.outcome(hs.match.state) is not None:
            return
        seat = hs.acting_seat()
        shell = device_of(net, seat) if seat is not None else None
        if shell is None:
            who = hs.needs_handover()
            if who is not None:  # several people at the host's device: the hand-over first
                host_shell.handover.ready(who)
            actions = WORLD.legal_actions(hs.match.state)
            assert host_shell.play(actions[rng.below(len(actions))]), host_shell.message
            net.table.sync()
        else:
            gs = shell.session
            assert gs is not None
            # the guest's controls list the same actions from its redacted state
            mine = WORLD.legal_actions(gs.match.state)
            assert mine == WORLD.legal_actions(hs.match.state)
            before = len(hs.match.log)
            net.clock.advance(150)  # a person taps a few times a second at most
            assert shell.play(mine[rng.below(len(mine))]), shell.message
            net.run()
            assert len(hs.match.log) > before, [g.refusals for g in net.guests.values()]
        net.run()


# -- devices that run no engine (issue 37): ui trees in, events by handler out --------------------
# -- a device that only applies what it is sent --------------------------------------------------
def _at(kids: list[Any], path: list[int]) -> tuple[list[Any], int]:
    """The list holding the node at ``path`` and its index there."""
    for i in path[:-1]:
        kids = kids[i].setdefault("c", [])
    return kids, path[-1]


def apply_ops(containers: dict[str, list[Any]], ops: list[list[Any]]) -> None:
    for op in ops:
        kind, cid, path = op[0], op[1], op[2]
        kids = containers.setdefault(cid, [])
        if kind in ("x", "d"):
            target = kids
            for i in path:
                target = target[i].setdefault("c", [])
            if kind == "x":
                del target[op[3]:]
            else:
                del target[:op[3]]
            continue
        holder, i = _at(kids, path)
        if kind == "r":
            if i == len(holder):
                holder.append(op[3])
            else:
                holder[i] = op[3]
        elif kind == "s":
            holder[i] = op[3]
        elif kind == "a":
            holder[i].pop("a", None)
            holder[i].pop("e", None)
            holder[i].update({k: v for k, v in (("a", op[3]), ("e", op[4])) if v})
        elif kind == "m":
            merged = {**holder[i].get("a", {}), **{k: v for k, v in op[3].items() if v is not None}}
            for k in [k for k, v in op[3].items() if v is None]:
                merged.pop(k, None)
            holder[i]["a"] = merged
            if not merged:
                holder[i].pop("a")
        elif kind == "p":
            holder[i]["p"] = op[3]


def keys_of(cid: str, kids: list[Any]) -> dict[str, dict[str, Any]]:
    """Handler key -> the wire node, as the device names them (``dom.py``'s rule)."""
    out: dict[str, dict[str, Any]] = {}

    def visit(node: Any, path: str) -> None:
        if isinstance(node, str):
            return
        for kind in node.get("e", []):
            out[f"{cid}/{path}/{kind}"] = node
        for i, c in enumerate(node.get("c", [])):
            visit(c, f"{path}.{i}")

    for i, c in enumerate(kids):
        visit(c, f".{i}")
    return out


def text_of(node: Any) -> str:
    if isinstance(node, str):
        return node
    return "".join(text_of(c) for c in node.get("c", []))


class WireDevice:
    def __init__(self, peer: str) -> None:
        self.peer = peer
        self.containers: dict[str, list[Any]] = {}
        self.n: int | None = None
        self.inbox: list[dict[str, Any]] = []
        self.shares = 0

    def take(self, text: str) -> list[dict[str, Any]]:
        """A message from the host; returns what the device answers."""
        msg = json.loads(text)
        self.inbox.append(msg)
        out: list[dict[str, Any]] = []
        if msg["t"] == "host":
            out.append({"t": "open", "device": device_token(), "name": self.peer.title(), "want": None})
        elif msg["t"] == "ui":
            if "base" in msg and msg["base"] != self.n:
                return [{"t": "resync"}]
            if msg.get("full"):
                self.containers.update(msg["c"])
            apply_ops(self.containers, msg.get("ops", []))
            self.n = msg["n"]
            if msg.get("share"):
                self.shares += 1
                out.append({"t": "share", "share": "a1b2c3"})
        return out

    def find(self, cid: str, pred: Any) -> tuple[str, dict[str, Any]]:
        for key, node in keys_of(cid, self.containers.get(cid, [])).items():
            if pred(key, node):
                return key, node
        raise LookupError(cid)

    def text(self, cid: str) -> str:
        return "".join(text_of(c) for c in self.containers.get(cid, []))


class Wire:
    """The host's Devices and its devices, texts delivered in order by :meth:`run`."""

    def __init__(self, host_shell: Any, host: FakeHost, page_class: Any) -> None:
        self.host = host
        self.q: list[tuple[str, str, str]] = []
        self.devices = Devices(page_class, host_shell.game, host,
                               lambda peer, text: self.q.append(("host", peer, text)))
        self.table = Table(host_shell, lambda peer, text: None, "ABCDEFGH", "p" * 22)
        self.devices.attach(self.table)
        self.ends: dict[str, WireDevice] = {}

    def join(self, peer: str) -> WireDevice:
        d = WireDevice(peer)
        self.ends[peer] = d
        self.devices.connected(peer)
        self.run()
        return d

    def send(self, peer: str, msg: dict[str, Any]) -> None:
        self.q.append((peer, "host", json.dumps(msg)))
        self.run()

    def run(self) -> None:
        for _ in range(1000):
            self.host.run_timers()
            if not self.q:
                return
            while self.q:
                src, dst, text = self.q.pop(0)
                if dst == "host":
                    self.host.advance(120)
                    self.devices.receive(src, text, self.host.clock())
                else:
                    for answer in self.ends[dst].take(text):
                        self.q.append((dst, "host", json.dumps(answer)))
        raise AssertionError("the host and its devices never settled")


def tap(w: Wire, d: WireDevice, cid: str, pred: Any, kind: str = "click", **fields: Any) -> None:
    key, node = d.find(cid, lambda k, n: k.endswith("/" + kind) and pred(k, n))
    w.send(d.peer, {"t": "ev", "k": key, "type": kind, **fields})


def attrs(node: Any) -> dict[str, str]:
    return node.get("a", {})


def seat_wire(shell: Any, host: FakeHost, page_class: Any, peers: Mapping[int, str],
              host_page: Any = None) -> tuple[Wire, dict[int, WireDevice]]:
    """A live table of the host's ``shell`` and a device per seat of ``peers`` (seat -> the
    device's peer name), each seat taken on its device by its Take button, as a person taps it.
    ``host_page``: the host's own page, known to every device's page as ``live_browser`` makes
    it known (the Metagame's console also draws the devices' pages again through it)."""
    w = Wire(shell, host, page_class)
    if host_page is not None:
        w.devices.host_page = host_page
        host_page.duel.device_pages = lambda: w.devices
    devices: dict[int, WireDevice] = {}
    for seat, peer in peers.items():
        d = w.join(peer)
        tap(w, d, "live-panel", lambda k, node, seat=seat: attrs(node).get("data-take") == str(seat))
        devices[seat] = d
    return w, devices


# -- the Metagame's duels (M12) ---------------------------------------------------------------------
def console(capital: bool = False, host: FakeHost | None = None) -> tuple[Shell, Any, FakeHost]:
    """A console at a built-in duel (conquests), the campaign in a slot."""
    shell, page, host = make_page(MetagamePage, host)
    m = campaign(capital)
    slot = host.store.create(m.save().to_json(), "Campaign", host.now())
    shell.open(Match(GAME, m.options, m.log), slot)
    return shell, page, host


def panel(shell: Shell) -> Node:
    """The console's duel panel as the page draws it now."""
    return find(render_all(shell)["mg-side"], "#mg-duel")


def play_in_other_tab(host: FakeHost, slot_id: str, position: str = WHITE_MATES) -> dict[str, Any]:
    """What the duel's page does: the players move, the page autosaves the slot."""
    save = host.store.open(slot_id)
    duel = Match(save["game"], {**save["options"], "position": position}, save["log"])
    duel.play("f4a4")
    out = duel.save().to_json()
    host.store.autosave(slot_id, out, host.now())
    return out


def live_console(capital: bool = False) -> tuple[Shell, Any, FakeHost, dict[str, Any], dict[str, Any]]:
    """A console at a built-in duel, "Play live" pressed: the tie, the stored table (with
    the signing key the duel's page makes when it opens the table)."""
    shell, page, host = console(capital)
    fire(panel(shell), "#mg-duel-live")
    page.after_render()
    tie = page.duel_desk.tie()
    assert tie is not None and tie["mode"] == "live"
    record = json.loads(host.load_pref(TABLE_KEY + tie["slot"]))
    # no links before the duel's page has opened the table and made its signing key
    assert record.get("key") is None and find(panel(shell), "#mg-live-wait") is not None
    assert find_all(panel(shell), ".mg-live-seat") == []
    record["key"] = {"private": "{}", "public": HOST_KEY}  # as the duel's page stores it
    host.save_pref(TABLE_KEY + tie["slot"], json.dumps(record))
    return shell, page, host, tie, record


def duel_table(host: FakeHost, tie: Mapping[str, Any], record: Mapping[str, Any]) -> tuple[Shell, Net]:
    """The duel's page on the console's device (same storage), its stored table reopened."""
    dshell, _, _ = make_page(ConquestsPage, host)
    slot = host.store.get(tie["slot"])
    save = host.store.open(tie["slot"])
    dshell.open(Match(save["game"], save["options"], save["log"]), slot)
    net = Net(dshell, host)
    net.table = Table(dshell, net.table.send, record["code"], record["password"])
    net.table.seating.restore(record)
    # as live_browser keeps it: the table in the preference of the slot its page has open
    # (a capital's second duel moves it to its own slot), which the console reads
    net.table.seating.saver = lambda obj: host.save_pref(TABLE_KEY + str(dshell.session.slot_id), json.dumps(obj))
    return dshell, net


def seat_key(page_link: str) -> str:
    """The seat key of a player's link (a join link that names its seat)."""
    frag = page_link[page_link.index("#"):]
    assert parse_join_fragment(frag) is not None
    key = parse_seat_key(frag)
    assert key is not None
    return key


def join_duel(net: Net, peer: str, key: str | None, name: str) -> Guest:
    """A device opens a duel's link: a player's (``key``: its seat's key) or the spectators'
    (None), on the duel's own page (The Game of Conquests)."""
    return net.join(peer, ConquestsPage, name, None, token=key)


def play_live(net: Net, host_shell: Shell, players: Mapping[int, Guest], moves: tuple[str, ...] | list[str],
              before: Callable[[int, str, int], None] | None = None) -> None:
    """Play ``moves`` at the live table, each on the device of the seat whose move it is (a
    person's pace between moves); after each, the host's log and every guest's have it.
    ``before(i, move, seat)``: what the test checks before move ``i`` is made."""
    game = host_shell.game
    assert host_shell.session is not None
    start = len(host_shell.session.match.log)
    for i, move in enumerate(moves):
        seat = host_shell.session.acting_seat()
        assert seat in players, f"move {i} ({move}) is seat {seat}'s, which has no device here"
        if before is not None:
            before(i, move, seat)
        mover = players[seat]
        net.clock.advance(500)  # a person taps a few times a second at most
        assert mover.shell.play(game.parse_action(move)), mover.shell.message
        net.run()
        m = host_shell.session.match
        assert m.log[start:] == list(moves[: i + 1])
        for peer, g in net.guests.items():  # every device still at the table has it, as its seat reads it
            if peer not in net.down:
                seen = g.session.only_seat
                assert g.session.match.log == [game.redact_text(m.states[j], t, seen) for j, t in enumerate(m.log)]
