"""Built-in duels on the metagame wheel (issue 14, M12): the console's duel panel and the duel page's banner.

Why here and not in the console's module: the hand-over is about two pages, the host
console and whichever game's page plays the duel, and it works the same for every
registered two-player game. The engine side (:mod:`conquest.games.metagame.duelrecord`)
builds the duel's options from the invasion and turns a finished duel save into the
campaign's ``Duel`` step, which ``apply`` replays; this module is the pages' part:

- the console's panel (:class:`DuelDesk`), shown when the wheel lands on a built-in game:
  the host chooses how the duel is played: on this device (hot-seat: the duel opens in a
  new tab on the duel game's page), by link (each player moves and sends the link on;
  the host pastes the finished link), or elsewhere (the host types the winner, the
  console's own buttons, logged "entered by hand");
- the tie: the duel is a save slot of its own game in this browser, created by the console
  with the two players' names and colours; ``conquest:metagame:duel-ties`` (a small
  preference) maps each duel's slot to its campaign's slot and to the campaign step it
  belongs to. When that slot holds a finished duel, :meth:`DuelDesk.poll` (run when the
  console opens, when another tab writes storage, and when the console gets the focus)
  plays the result by itself. A tie that no longer matches the campaign (undo, another
  step) is ignored;
- live (issue 22): the console seats the two players at a live table of the duel before
  anyone joins (:func:`live.preseated_table`, stored where the duel's page reopens its
  table) and opens the duel's page on this device, which runs the table; each player gets
  a link (and its QR code) for their own seat, a spectator the table's plain link. The
  duel's page autosaves every step its table plays, so the end comes back by the same tie
  as a duel played here, and is replayed the same way (M12): no device but this one writes
  the duel's save, and what it holds is checked move by move before the campaign takes it.
  One tab runs the table (issue 36): while it is open, the panel says so instead of
  offering to open a second tab of it (:meth:`duel_panel.DuelPanel.table_way`);
- the capital rule (two wins of the same game): after the first win the second duel is set
  up at once, in the same way; played live, at the first duel's table (issue 42): the same
  room code, seats and links (:meth:`DuelDesk.seat_table`), and the tab that runs that table
  opens the second duel by itself (:func:`follow_duel`), so the players' devices still at the
  table get it without a new link;
- the duel page's banner (:func:`duel_banner`): which campaign the duel is for, and the way
  back to the console.

Pure Python on the shell's ``Host``: tested in CPython (tests/test_page_duels.py). What the
panel draws is in ``duel_panel.py`` (:class:`duel_panel.DuelPanel`, ``DuelDesk.panel``).
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import live
from duel_panel import DuelPanel
from ui import Node, h

from conquest.core import ConquestError, IllegalAction
from conquest.games.metagame.actions import Duel
from conquest.games.metagame.duelrecord import duel_from_save, duel_game_id, duel_setup
from conquest.games.metagame.phases import Phase
from conquest.rng import Rng
from conquest.savecode import SaveCodeError, load_json, make_fragment, parse_fragment
from conquest.session import Match

__all__ = ["DuelDesk", "duel_banner", "duel_next", "follow_duel", "TIES_KEY", "MODES", "site_base"]

TIES_KEY = "conquest:metagame:duel-ties"
#: what a drawn built-in duel means, said the same on the console and on the duel's page
#: (issue 21, item 7; the rules page: "The app never records a drawn built-in duel as a win")
DRAWN = ("The duel ended in a draw, and a drawn duel decides nothing (M12): play it again "
         "(or enter the winner by hand).")
#: how a duel is played: on this device, by link between the two players, or live (each
#: player on their own device, this device running the table: issue 22)
MODES = {"here": "on this device", "link": "by link", "live": "live on the two players' devices"}
#: ties kept at most (the oldest go first): a preference stays small
MAX_TIES = 40
#: after "Play live" opened the duel's table in a new tab by itself, how long the panel says
#: it is opening (its page starts the engine first: seconds) before it offers to open it,
#: if no tab of this browser runs that table by then (issue 36)
OPENING_MS = 30_000


def site_base(page_url: str) -> str:
    """``…/play/`` from a page's address ``…/play/<id>/``: where every game's page is."""
    trimmed = page_url.rstrip("/")
    return trimmed[: trimmed.rfind("/") + 1]


def load_ties(host: Any) -> dict[str, dict[str, Any]]:
    """Duel slot -> its tie to a campaign; anything unreadable is an empty map (a preference is data)."""
    raw = host.load_pref(TIES_KEY)
    try:
        obj = load_json(raw, "preference") if raw else {}
    except ValueError:
        return {}
    if not isinstance(obj, dict):
        return {}
    return {str(k): v for k, v in obj.items() if isinstance(v, dict)}


def save_ties(host: Any, ties: Mapping[str, Mapping[str, Any]]) -> bool:
    items = list(ties.items())[-MAX_TIES:]
    return host.save_pref(TIES_KEY, json.dumps(dict(items), separators=(",", ":")))


class DuelDesk:
    """The console's duel: sets the duel up, watches its slot, takes its result. What the
    console shows of it is its ``panel`` (:class:`duel_panel.DuelPanel`)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.shell = page.shell
        #: why the last look at the duel could not decide it (shown in the panel), or None
        self.note: str | None = None
        #: the duel save last looked at (its JSON), so an unchanged slot is not replayed again
        self.seen: str | None = None
        #: the duel's page to open at once after "Play here, on this device" (item 7: the
        #: click must open the duel, not show a second link to click); taken by the page
        self.open_now: str | None = None
        #: the duel just looked at ended in a draw: the panel offers to play it again
        self.drawn = False
        #: a result was refused or drawn: the page brings the duel's panel into view
        self.reveal = False
        #: issue 36, one way to a live duel's table: whether a tab of this browser runs the
        #: table of a room (its tab holds the table's lock, ``live.table_lock``), by room code,
        #: as the page last asked (``ask_table(code)``, None in CPython); absent: not known
        self.tables_open: dict[str, bool] = {}
        self.ask_table: Any = None
        #: the duel's slot whose table "Play live" opened in a new tab by itself, and when
        self.opened: tuple[str, float] | None = None
        self.panel = DuelPanel(self)

    def render(self, view: Mapping[str, Any]) -> Node | None:
        """The duel's panel, or None when no built-in duel is due (the console draws it)."""
        return self.panel.render(view)

    # -- the tie ----------------------------------------------------------------------
    @property
    def host(self) -> Any:
        return self.shell.host

    def key(self) -> str:
        s = self.shell.session
        return (s.slot_id if s is not None and s.slot_id else "") or "-"

    def due(self) -> str | None:
        """The built-in game whose duel the campaign waits for now, or None."""
        s = self.shell.session
        if s is None or s.locked():
            return None
        state = s.match.state
        if state.phase is not Phase.DUEL:
            return None
        return duel_game_id(state)

    def tie(self) -> dict[str, Any] | None:
        """This campaign's duel tie for the step the campaign is at now (the newest), or None.

        A tie made at another step (before an undo, or a duel already taken) is ignored.
        """
        s = self.shell.session
        if s is None or self.due() is None:
            return None
        state = s.match.state
        found = None
        for slot_id, t in load_ties(self.host).items():
            if (
                t.get("campaign") == self.key()
                and t.get("step") == len(s.match.log)
                and t.get("wins") == state.inv.duel_wins
                and t.get("game") == self.due()
                and not t.get("taken")
            ):
                found = {**t, "slot": slot_id}
        return found

    def start(self, mode: str, open_now: bool = False, after: Mapping[str, Any] | None = None) -> None:
        """Set the duel up: a new save slot of the duel game with the two players' seats.

        ``open_now``: a person's click asked for it here: the duel's page opens at once (not
        for the capital's second duel, set up by itself when the first result comes in).
        ``after``: the tie of the duel just taken (a capital's first): a live second duel is
        played at its table (:meth:`seat_table`)."""
        s = self.shell.session
        if s is None or self.due() is None or mode not in MODES:
            return
        state = s.match.state
        try:
            setup = duel_setup(state)
            duel = Match(setup["game"], setup["options"], rng=Rng(None))
            duel.resolve_chance()  # a game that starts with a deal draws it now, as the shell does
            slot = self.host.store.create(duel.save().to_json(), setup["options"]["title"], self.host.now())
        except ConquestError as exc:
            self.shell.say(f"The duel could not be set up here: {exc.message} Enter the winner by hand.", "error")
            return
        tie: dict[str, Any] = {
            "campaign": self.key(),
            "mode": mode,
            "game": setup["game"],
            "step": len(s.match.log),
            "wins": state.inv.duel_wins,
            "title": setup["options"]["title"],
            "console": f"{self.shell.game.id}/?slot={s.slot_id}" if s.slot_id else f"{self.shell.game.id}/",
        }
        # the table before the tie: the first duel's tab follows a tie that names its table
        # (follow_duel), and finds that table stored under the new slot already
        before = str(after.get("slot", "")) if after is not None and after.get("mode") == "live" else ""
        if mode == "live" and self.seat_table(slot.id, setup["options"], before or None):
            tie["table_from"] = before
        ties = load_ties(self.host)
        ties[slot.id] = tie
        if not save_ties(self.host, ties):
            self.shell.say("This browser refused to remember the duel; paste its finished link here instead.", "error")
        self.note = None
        self.seen = None
        self.drawn = False
        if mode in ("here", "live") and open_now:
            self.open_now = self.duel_url({**ties[slot.id], "slot": slot.id})
            if mode == "live":  # the panel says it opens there, then that it is open (issue 36)
                self.opened = (slot.id, self.host.clock())
                self.host.later(OPENING_MS + 100, self.host.rerender)  # then the link, if no tab runs it

    def seat_table(self, slot_id: str, options: Mapping[str, Any], after: str | None = None) -> bool:
        """The live duel's table, its seats given to the two players (the duel's seats, in
        order: duel_setup seats them as the campaign names them), stored where the duel's
        page opens it. True when it is the table of the duel ``after`` (a capital's first).

        Why the first duel's table for the second (issue 42): a new table meant new links,
        sent again to both players, whose devices were still at the first table. The same
        record (room code, key, each player's seat key) under the new slot keeps every link;
        the first duel's tab, which runs that table, opens the new duel by itself
        (:func:`follow_duel`). Only for the same two players in the same seats (a table's
        seat keys are its players'); else, and with no stored first table, a new table."""
        record = self.kept_table(after, options) if after else None
        kept = record is not None
        if record is None:
            code, password = live.new_table_keys()
            people = [(str(x.get("name", "")), i) for i, x in enumerate(options.get("seats") or [])]
            record, _ = live.preseated_table(code, password, people)
        if not self.host.save_pref(live.TABLE_KEY + slot_id, json.dumps(record)):
            self.shell.say("This browser refused to keep the live table; play the duel here or by link.", "error")
            return False
        if kept:  # the table is the second duel's now: the first duel's page must not reopen it
            self.host.save_pref(live.TABLE_KEY + str(after), "")
        return kept

    def kept_table(self, after: str, options: Mapping[str, Any]) -> dict[str, Any] | None:
        """The stored table of the duel in slot ``after``, for a duel with ``options``'s seats,
        or None (no table stored, or other players or seats). A choice held ahead belongs to
        the duel it was made in: it stays behind."""
        obj = self.table({"slot": after})
        if obj is None or not obj.get("code") or not obj.get("password"):
            return None
        try:
            before = self.host.store.open(after)["options"]["seats"]
        except (ConquestError, KeyError, TypeError):
            return None
        names = [str(x.get("name", "")) for x in options.get("seats") or [] if isinstance(x, Mapping)]
        if not names or names != [str(x.get("name", "")) for x in before if isinstance(x, Mapping)]:
            return None
        return {k: v for k, v in obj.items() if k != "held"}

    def table(self, t: Mapping[str, Any]) -> dict[str, Any] | None:
        """The live duel's table as stored (the duel's page keeps it up to date), or None."""
        raw = self.host.load_pref(live.TABLE_KEY + str(t.get("slot", "")))
        try:
            obj = load_json(raw, "live table") if raw else None
        except SaveCodeError:
            return None
        if not isinstance(obj, dict) or not isinstance(obj.get("devices"), list):
            return None
        return obj

    def live_links(self, t: Mapping[str, Any]) -> tuple[str, list[tuple[int, str, str]], str] | None:
        """``(room code, [(seat, player, link)], spectators' link)`` of the live duel, or None.

        A player's link names their seat's key (the device the table keeps for them); the
        spectators' link names none, and with both seats taken it can only watch."""
        obj = self.table(t)
        if obj is None:
            return None
        code, password = str(obj.get("code", "")), str(obj.get("password", ""))
        key = obj.get("key")
        host_key = str(key.get("public", "")) if isinstance(key, Mapping) else ""
        if not host_key:  # the duel's page makes the table's signing key when it opens the table
            return code, [], ""
        if live.parse_join_fragment(live.join_fragment(code, password, host_key)) is None:
            return None
        page = live.guest_page(f"{site_base(self.host.page_url())}{t['game']}/")  # guests boot no engine (issue 37)
        try:  # the players as the duel names its seats (a device may call itself otherwise)
            names = [str(x.get("name", "")) for x in self.host.store.open(t["slot"])["options"]["seats"]]
        except (ConquestError, KeyError, TypeError, AttributeError):
            names = []
        # each seat's key: the table keeps it for its player (even while they watch or are away)
        reserved = obj.get("reserved")
        keys = {int(k): v for k, v in reserved.items() if str(k).isdigit() and isinstance(v, str)} \
            if isinstance(reserved, Mapping) else {}
        for d in obj["devices"]:
            if isinstance(d, Mapping) and isinstance(d.get("seat"), int) and isinstance(d.get("token"), str):
                keys.setdefault(d["seat"], d["token"])
        seats = []
        for seat, key in keys.items():
            name = names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"
            seats.append((seat, name, page + live.seat_fragment(code, password, host_key, key)))
        return code, sorted(seats), page + live.join_fragment(code, password, host_key)

    def player_link(self, name: str) -> tuple[str, str] | None:
        """``(duel's title, link)``: the live duel's link for the player called ``name``, for
        that player's own device at a live campaign table (issue 39), or None."""
        t = self.tie()
        if t is None or t.get("mode") != "live":
            return None
        links = self.live_links(t)
        if links is None:
            return None
        url = next((u for _, who, u in links[1] if who == name), None)
        return None if url is None else (str(t.get("title") or "The duel"), url)

    def forget(self) -> None:
        """Drop the tie of the step now (the duel's own slot stays in the saved games)."""
        t = self.tie()
        ties = load_ties(self.host)
        if t is not None and ties.pop(t["slot"], None) is not None:
            save_ties(self.host, ties)
        self.note = None

    def duel_url(self, t: Mapping[str, Any]) -> str:
        """The duel page in this browser, on its slot (relative to the console's page)."""
        return f"../{t['game']}/?slot={t['slot']}"

    def share_link(self, t: Mapping[str, Any]) -> tuple[int, str] | None:
        """``(seat, link)``: the duel's link for the player who moves first, as it stands now.

        The link opens a copy that plays for that seat only (``?as=N``, the shell's copy for
        one player): its moves for the other side are refused, and its Links offer the
        link for the other player.
        """
        try:
            save = self.host.store.open(t["slot"])
            match = Match(save["game"], save["options"], save["log"])
        except ConquestError:
            return None
        seat = match.game.to_move(match.state)
        seat = 0 if seat is None else seat
        return seat, f"{site_base(self.host.page_url())}{t['game']}/?as={seat}#{make_fragment(save)}"

    # -- the result comes back ----------------------------------------------------------
    def poll(self) -> bool:
        """Take a finished duel from its slot; True when the campaign moved on."""
        t = self.tie()
        if t is None:
            return False
        try:
            save = self.host.store.open(t["slot"])
        except ConquestError as exc:
            self.note = f"The duel's saved game cannot be read ({exc.message}); enter the winner by hand."
            return False
        raw = json.dumps(save, sort_keys=True)
        if raw == self.seen:
            return False
        self.seen = raw
        return self.take(save, t.get("mode", "here"))

    def take_link(self, text: str) -> bool:
        """A finished duel's link pasted by the host (the by-link way, or from another device)."""
        text = str(text).strip()
        if not text:
            self.shell.say("Paste the link of the finished duel first.", "error")
            return False
        try:
            _, save = parse_fragment(text)  # the one fragment reader (savecode.link_fragment)
        except SaveCodeError as exc:
            self.shell.say(f"That link could not be read: {exc.message}", "error")
            return False
        t = self.tie()
        return self.take(save, t.get("mode", "link") if t else "link", quiet=False)

    def take(self, save: Mapping[str, Any], mode: str, quiet: bool = True) -> bool:
        s = self.shell.session
        if s is None or self.due() is None:
            return False
        try:
            winner, record = duel_from_save(s.match.state, save, "live" if mode == "live" else "")
        except IllegalAction as exc:
            if exc.code == "M12.duel-unfinished":
                self.note = None
                self.drawn = False
                if not quiet:
                    self.shell.say(f"{exc.message}: play it to the end first.", "error")
                return False
            self.drawn = exc.code == "M12.duel-drawn"
            self.note = DRAWN if self.drawn else exc.message
            # said where the host looks (issue 39): the toast over the console, and the duel's
            # panel brought into view, not only a note far down the right column
            self.shell.say(self.note, "error")
            self.reveal = True
            return False
        inv = s.match.state.inv
        who = s.match.state.player_name(inv.attacker if winner == "a" else inv.defender)
        t = self.tie()
        if not self.shell.play(Duel(winner, record)):
            return False
        self.seen = None
        if t is not None:  # the tie stays (the duel's page still names its campaign), spent: an
            ties = load_ties(self.host)  # undo of the result must not take the same duel again
            if t["slot"] in ties:
                ties[t["slot"]]["taken"] = True
                save_ties(self.host, ties)
        self.shell.say(f"{who} won the duel; the campaign has recorded it (the duel is in its log).")
        if self.due() is not None:  # M12: a capital needs a second win of the same game
            self.start(mode, after=t)  # live: at the first duel's table (issue 42)
            self.shell.say(f"{who} won the first duel; the second duel of the capital is set up below.")
        return True

    # -- the live duel's table, and the page's hooks ---------------------------------------------
    def table_state(self, t: Mapping[str, Any]) -> str:
        """Where the live duel's table is: ``"open"`` (a tab of this browser runs it),
        ``"opening"`` ("Play live" just opened its tab), or ``"closed"``."""
        obj = self.table(t)
        code = str(obj.get("code", "")) if obj else ""
        if code and self.tables_open.get(code):
            return "open"
        if (self.opened is not None and self.opened[0] == t.get("slot")
                and self.host.clock() - self.opened[1] < OPENING_MS):
            return "opening"
        return "closed"

    def ask_open(self) -> None:
        """Ask the page whether a tab runs the live duel's table (the answer re-renders)."""
        t = self.tie()
        obj = self.table(t) if self.ask_table is not None and t is not None and t.get("mode") == "live" else None
        if obj and obj.get("code"):
            self.ask_table(str(obj["code"]))

    def after_render(self) -> None:
        self.panel.after_render()
        self.ask_open()


def replay_duel(shell: Any) -> Any:
    """A drawn duel played again from its own page (item 7): a new game with the same seats
    and options in a new slot, tied to the same campaign step (the console follows the newest
    tie of a step), and opened here. Returns the new slot, or None (said in the message)."""
    s = shell.session
    host = shell.host
    t = load_ties(host).get(s.slot_id) if s is not None and s.slot_id else None
    if s is None or t is None:
        return None
    try:
        match = Match(s.game, dict(s.match.options), rng=Rng(None))
        match.resolve_chance()
        name = f"{t.get('title') or s.game.title} (played again)"
        slot = host.store.create(match.save().to_json(), name, host.now())
    except ConquestError as exc:
        shell.say(f"The duel could not be set up again here: {exc.message}", "error")
        return None
    ties = load_ties(host)
    ties.pop(s.slot_id, None)
    ties[slot.id] = {**t, "taken": False}
    if not save_ties(host, ties):
        shell.say("This browser refused to remember the duel; paste its finished link in the console instead.", "error")
    table = host.load_pref(live.TABLE_KEY + s.slot_id) if t.get("mode") == "live" else None
    if table:  # a live duel goes on at the same table: the players' links and devices stay
        host.save_pref(live.TABLE_KEY + slot.id, table)
    shell.open(match, slot)
    host.go(f"?slot={slot.id}")
    shell.say("The duel starts again; when it ends, the campaign's console takes the result by itself.")
    return slot


def follow_duel(shell: Any, code: str) -> Any:
    """The capital's second duel, opened here at the first duel's table (issue 42, M12).

    Run by the duel's page that runs a live table of room ``code`` (``live_browser``, after
    each render: another tab's write to storage draws the page again). When the console has
    taken this page's duel and set the capital's second duel up at this same table
    (:meth:`DuelDesk.seat_table`), this page opens the second duel's slot in place of the
    first, as a drawn duel played again does (:func:`replay_duel`): the table goes on with the
    new game, so every device at it gets the second duel without a new link. Never while this
    page's duel is still being played. Returns the new slot, or None (nothing to follow)."""
    s = shell.session
    host = shell.host
    if s is None or not s.slot_id or s.mode != "host" or s.game.outcome(s.match.state) is None:
        return None
    ties = load_ties(host)
    t = ties.get(s.slot_id)
    if t is None or not t.get("taken") or t.get("mode") != "live":
        return None
    found = next((sid for sid, x in ties.items() if x.get("table_from") == s.slot_id and not x.get("taken")
                  and x.get("game") == s.game.id and x.get("mode") == "live"), None)
    raw = host.load_pref(live.TABLE_KEY + found) if found else None
    try:
        obj = load_json(raw, "live table") if raw else None
    except SaveCodeError:
        obj = None
    if found is None or not isinstance(obj, dict) or obj.get("code") != code:
        return None
    try:
        save = host.store.open(found)
        match = Match(save["game"], save["options"], save["log"])
        slot = host.store.get(found)
    except (ConquestError, KeyError, TypeError):
        return None
    first = s.slot_id
    shell.open(match, slot)
    host.save_pref(live.TABLE_KEY + first, "")  # the table is the second duel's (its record follows it)
    host.go(f"?slot={slot.id}")
    shell.say(f"{ties[found].get('title') or 'The second duel'}: it starts at this table, with the same players "
              "and the same links.")
    return slot


def console_link(t: Mapping[str, Any], label: str, **attrs: Any) -> Node:
    """The way back from a duel's page to its campaign's console (issue 39): a link to the
    console's page, which ``static/frame.js`` turns into a switch to the console's own tab when
    one is open in this browser (it answers on the "conquest-consoles" channel), so the way
    back never opens a second console."""
    console = str(t.get("console") or "")
    return h("a", label, href=f"../{console or 'metagame/'}", data_console=console.partition("?slot=")[2] or None,
             **attrs)


def duel_next(shell: Any) -> Node | None:
    """A finished duel's next step, where the shell offers a finished game's (issue 21, left
    item 5): not "Play again", which made a new game of the duel's game that no campaign
    waits for, but the way back to the campaign whose console takes the result by itself
    (M12), or, after a draw (which decides nothing, M12), the duel played again. None when
    the session is no campaign's duel in this browser (the shell's own next steps stand)."""
    s = shell.session
    if s is None or not s.slot_id or s.viewing is not None:
        return None
    out = s.game.outcome(s.match.state)
    t = load_ties(shell.host).get(s.slot_id)
    if out is None or t is None or t.get("game") != s.game.id:
        return None
    if len(out.winners) != 1:
        again = None
        if s.mode == "host" and s.only_seat is None:
            again = h("button", "Play the duel again", type="button", id="shell-over-duel-again", cls="small",
                      on_click=lambda ev: replay_duel(shell),
                      title="A drawn duel decides nothing (M12): the same two players again, for the same campaign")
        return h("span", again,
                 console_link(t, "Back to the campaign", id="shell-over-duel", cls="button small secondary"),
                 cls="shell-over")
    winner = s.seat_name(out.winners[0])
    return h("span",
             console_link(t, "Back to the campaign", id="shell-over-duel", cls="button small",
                          title=f"The campaign's console takes {winner}'s win by itself (M12)"),
             cls="shell-over")


def duel_banner(host: Any, session: Any, shell: Any = None) -> Node:
    """Above a game's board: the campaign a duel is for (and the way back), and who a copy
    made for one player plays for (``?as=N``) and whose move it is; hidden otherwise.
    ``shell``: given, a drawn duel offers to be played again here."""
    parts: list[Any] = []
    game = session.game
    out = game.outcome(session.match.state)
    finished = out is not None
    t = load_ties(host).get(session.slot_id) if session.slot_id else None
    if t is not None and t.get("game") == game.id:
        if finished and len(out.winners) != 1:  # the same true thing as the console says
            parts.append(h("p", DRAWN + " ", console_link(t, "Open the console", id="shell-duel-back"), ".",
                           id="shell-duel-drawn"))
            if shell is not None:
                parts.append(h("p", h("button", "Play the duel again", type="button", id="shell-duel-again",
                                      on_click=lambda ev: replay_duel(shell))))
        elif finished:
            words = "The duel is over: the campaign's console takes the result by itself. Switch back to its tab, or "
        else:
            words = f"{t.get('title') or 'A duel'} of a campaign: when it ends, its console takes the result by itself. "
        if not finished or len(out.winners) == 1:
            parts.append(h("p", words, console_link(t, "open the console", id="shell-duel-back"), "."))
    me = session.only_seat
    if me is not None:
        name = session.seat_name(me)
        seat = session.acting_seat()
        if finished:
            words = f"This copy plays for {name}. The game is over: send its host link (under Links) to the host."
        elif seat is None or seat == me:
            words = f"This copy plays for {name}: your move."
        else:
            other = session.seat_name(seat)
            words = (f"This copy plays for {name}. It is {other}'s move: send {other} the link made for them "
                     "(under Links), then wait for theirs.")
        parts.append(h("p", words, id="shell-seat-note"))
    if not parts:
        return h("div", id="shell-duel-inner", hidden=True)
    return h("div", *parts, id="shell-duel-inner", cls="shell-duel notice")


def wire_duel_desk(runner: Any) -> None:
    """In the page: look at the duel when another tab writes storage, on focus, and once now.

    The duel's page autosaves into its slot after every move; the browser tells every other
    tab of this site (a ``storage`` event), so the console sees the end without a click.
    """
    import frame
    import js  # type: ignore[import-not-found]

    desk: DuelDesk = runner.page.duel_desk
    panel = desk.panel

    busy: list[Any] = []

    async def draw() -> None:
        try:
            for url in panel.qr_wanted():
                rows = await js.window.conquestLive.qr(url)
                panel.qr[url] = live.qr_svg([[c == "1" for c in str(r)] for r in rows], "QR code of this player's link")
        except Exception as exc:  # noqa: BLE001 - the links still work without their codes
            js.console.warn(f"QR code: {exc}")
            panel.draw_qr = None  # not again on every render
        finally:
            busy.clear()
        runner.render()

    def draw_qr() -> None:
        """The missing QR codes, drawn by the pinned encoder (live.js), one task at a time."""
        if not busy:
            import asyncio

            busy.append(asyncio.ensure_future(draw()))

    panel.draw_qr = draw_qr

    asking: list[Any] = []

    async def ask(code: str) -> None:
        try:
            got = await js.window.conquestTableLock.held(live.table_lock(code))
            held = None if frame.nullish(got) else bool(got)
        except Exception:  # noqa: BLE001 - no helper (an older cached frame.js): not known
            held = None
        finally:
            asking.clear()
        if held is not None and desk.tables_open.get(code) != held:
            desk.tables_open[code] = held
            runner.render()

    def ask_table(code: str) -> None:
        """Whether a tab of this browser holds the table's lock (``static/frame.js``), one
        question at a time; a changed answer draws the panel again (issue 36)."""
        if not asking:
            import asyncio

            asking.append(asyncio.ensure_future(ask(code)))

    desk.ask_table = ask_table

    def look(ev: Any = None) -> None:
        # a live duel's links wait for its table's key, which the duel's tab stores
        if runner.guard(desk.poll) or desk.note or panel.shown_waiting:
            runner.render()
        desk.ask_open()  # the table's tab may have opened or closed meanwhile (issue 36)

    def back(ev: Any) -> None:
        """A duel's tab asks whether this campaign's console is open (frame.js, "Back to the
        campaign"): it answers, comes forward where the browser allows, and looks at the duel."""
        try:
            msg = load_json(str(ev.data), "message")
        except (SaveCodeError, TypeError, ValueError):
            return
        s = runner.shell.session
        if not isinstance(msg, dict) or msg.get("t") != "back" or s is None or msg.get("slot") != s.slot_id:
            return
        consoles.postMessage(json.dumps({"t": "here", "slot": s.slot_id}))
        js.window.focus()
        look()

    if not frame.nullish(getattr(js, "BroadcastChannel", None)):
        consoles = js.BroadcastChannel.new("conquest-consoles")
        frame.on(consoles, "message", back)
    frame.on(js.window, "storage", look)
    frame.on(js.window, "focus", look)
    frame.on(js.document, "visibilitychange", look)
    look()
